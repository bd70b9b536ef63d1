"""A reader that stops early (``pqkit list | head -1``) ends ``pqkit`` quietly (issue
25 item 7): exit status 0 and nothing on standard error, as coreutils' commands
do, so ``set -o pipefail`` scripts keep working.

Real pipes, in fresh processes: the reading end is closed before ``pqkit`` writes
(so every write meets a closed pipe, whatever the buffer sizes), and the
documented shell forms run under ``bash -o pipefail`` with ``head``.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import pqkit


def _env() -> dict[str, str]:
    src = str(Path(pqkit.__file__).resolve().parents[1])
    path = os.pathsep.join(p for p in (src, os.environ.get("PYTHONPATH", "")) if p)
    return dict(os.environ, PYTHONPATH=path, PQKIT_JIT_BACKGROUND="0")


PQKIT = [sys.executable, "-m", "pqkit"]


@pytest.mark.parametrize(
    "args",
    [
        ["list"],
        ["kat", "Kyber768"],
        ["demo", "ML-KEM-512"],
        ["--help"],
        ["pub", "k.pem"],
    ],
    ids=lambda args: " ".join(args),
)
def test_closed_pipe_ends_quietly(args: list[str], tmp_path: Path) -> None:
    if args[0] == "pub":
        subprocess.run([*PQKIT, "keygen", "ML-KEM-512", "-o", "k.pem"], cwd=tmp_path,
                       env=_env(), check=True)  # fmt: skip
    read_end, write_end = os.pipe()
    os.close(read_end)  # nobody reads: the first write that reaches the pipe fails
    try:
        done = subprocess.run(
            [*PQKIT, *args], cwd=tmp_path, env=_env(), stdout=write_end,
            stderr=subprocess.PIPE, check=False, timeout=300,
        )  # fmt: skip
    finally:
        os.close(write_end)
    assert done.stderr.decode() == ""
    assert done.returncode == 0


@pytest.mark.skipif(shutil.which("bash") is None or shutil.which("head") is None,
                    reason="needs bash and head")  # fmt: skip
@pytest.mark.parametrize(
    ("args", "lines"),
    [(["list"], 1), (["kat", "Kyber768"], 1), (["demo", "ML-KEM-512", "ML-DSA-44"], 2)],
    ids=["list", "kat", "demo"],
)
def test_head_in_a_pipefail_script(args: list[str], lines: int, tmp_path: Path) -> None:
    command = " ".join(shlex.quote(part) for part in [*PQKIT, *args])
    done = subprocess.run(
        ["bash", "-o", "pipefail", "-c", f"{command} | head -{lines}"],
        cwd=tmp_path, env=_env(), capture_output=True, check=False, timeout=300,
    )  # fmt: skip
    assert done.stderr.decode() == ""
    assert done.returncode == 0
    assert len(done.stdout.decode().splitlines()) == lines
