"""Issue 28 item 3: batch key files stay private.

``write_keypairs`` and ``pqkit keygen --count N -o DIR --force`` write each file as
a new file beside the target (O_EXCL, 0600 for secrets) renamed over it, so a
pre-existing loose file's mode or a planted symlink never reaches the secrets.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from helpers import Cli

import pqkit
from pqkit import batch

_SECRET_FILES = ("secret_keys.npy", "seeds.npy")


def _plant(directory: Path, elsewhere: Path) -> None:
    """A 0644 file at one secret name and a symlink to a world-readable file outside
    the directory at the other (the attacker's copy target)."""
    directory.mkdir()
    loose = directory / "secret_keys.npy"
    loose.write_bytes(b"old")
    os.chmod(loose, 0o644)
    elsewhere.write_bytes(b"attacker's file")
    os.chmod(elsewhere, 0o644)
    os.symlink(elsewhere, directory / "seeds.npy")


def _check(directory: Path, elsewhere: Path, rows: int) -> None:
    for name in _SECRET_FILES:
        st = os.lstat(directory / name)
        assert stat.S_ISREG(st.st_mode), f"{name} is not a regular file"
        assert stat.S_IMODE(st.st_mode) == 0o600, f"{name} has mode {oct(st.st_mode)}"
    assert elsewhere.read_bytes() == b"attacker's file"  # the symlink was not followed
    assert stat.S_IMODE(os.stat(elsewhere).st_mode) == 0o644
    assert np.load(directory / "secret_keys.npy").shape == (rows, 1632)
    assert np.load(directory / "seeds.npy").shape == (rows, 64)
    assert [p.name for p in directory.iterdir() if p.name.startswith(".")] == []


def test_write_keypairs_over_loose_file_and_symlink(tmp_path: Path) -> None:
    out, elsewhere = tmp_path / "keys", tmp_path / "elsewhere"
    _plant(out, elsewhere)
    batch.write_keypairs(pqkit.kem("ML-KEM-512"), 3, out, seeds=True)
    _check(out, elsewhere, 3)


def test_cli_keygen_count_force_over_loose_file_and_symlink(cli: Cli, tmp_path: Path) -> None:
    out, elsewhere = Path("keys").absolute(), tmp_path / "elsewhere"
    _plant(out, elsewhere)
    cli.ok("keygen", "ML-KEM-512", "--count", "2", "-o", "keys", "--seeds", "-q", "--force")
    _check(out, elsewhere, 2)


def test_write_keypairs_error_leaves_old_files(tmp_path: Path) -> None:
    """A failure half-way removes the new files and leaves the old ones."""
    out = tmp_path / "keys"
    batch.write_keypairs(pqkit.kem("ML-KEM-512"), 2, out)
    before = (out / "secret_keys.npy").read_bytes()
    calls: list[int] = []

    def failing(rows: int) -> None:
        calls.append(rows)
        raise RuntimeError("stop")

    progress: Callable[[int], None] = failing
    with pytest.raises(RuntimeError, match="stop"):
        batch.write_keypairs(pqkit.kem("ML-KEM-512"), 2, out, progress=progress)
    assert calls and (out / "secret_keys.npy").read_bytes() == before
    assert sorted(p.name for p in out.iterdir()) == ["public_keys.npy", "secret_keys.npy"]


def test_public_keys_file_is_readable(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        batch.write_keypairs(pqkit.kem("ML-KEM-512"), 1, tmp_path)
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "public_keys.npy").st_mode) == 0o644
    assert stat.S_IMODE(os.stat(tmp_path / "secret_keys.npy").st_mode) == 0o600
