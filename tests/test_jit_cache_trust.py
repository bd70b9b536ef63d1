"""Issue 28 item 8: Numba's cache is loaded as code, so pqkit uses it only when
nobody but the current user (or root) could have written it
(:mod:`pqkit.arith._cache_trust`); otherwise it warns and compiles in memory."""

from __future__ import annotations

import importlib.util
import os
import pickle
import sys
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

pytest.importorskip("numba", reason="the jit backend (and its cache) needs numba")
pytestmark = pytest.mark.skipif(not hasattr(os, "getuid"), reason="no user ids on this OS")

from pqkit.arith import _cache_trust  # noqa: E402
from pqkit.arith._cache_trust import UntrustedCacheWarning, problem  # noqa: E402

_SOURCE = """
from pqkit.arith._jit import jit


@jit
def plus_one(x):
    return x + 1
"""


@pytest.fixture(autouse=True)
def _fresh_warnings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_cache_trust, "_warned", set())


def _other_owner(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``path`` look owned by another user: chown as root, else pretend to be
    someone else (then the path's real owner is the other user)."""
    if os.getuid() == 0:
        os.chown(path, 4242, -1)
    else:
        monkeypatch.setattr(os, "getuid", lambda: 4242)


def test_private_directory_and_files_are_trusted(tmp_path: Path) -> None:
    d = tmp_path / "cache"
    d.mkdir(mode=0o700)
    (d / "f.nbi").write_bytes(b"x")
    os.chmod(d / "f.nbi", 0o644)
    assert problem(str(d)) is None
    assert problem(str(d / "f.nbi"), directory=False) is None
    assert problem(str(d / "missing")) is None


@pytest.mark.parametrize("mode", [0o770, 0o707, 0o777, 0o1777])
def test_writable_cache_directory_is_refused(tmp_path: Path, mode: int) -> None:
    d = tmp_path / "cache"
    d.mkdir()
    os.chmod(d, mode)
    assert "writable by group or others" in (problem(str(d)) or "")


@pytest.mark.parametrize("mode", [0o664, 0o646, 0o666])
def test_writable_cache_file_is_refused(tmp_path: Path, mode: int) -> None:
    f = tmp_path / "f.nbi"
    f.write_bytes(b"x")
    os.chmod(f, mode)
    assert "writable by group or others" in (problem(str(f), directory=False) or "")


def test_directory_above_writable_without_sticky_bit(tmp_path: Path) -> None:
    above = tmp_path / "shared"
    (above / "cache").mkdir(parents=True, mode=0o700)
    os.chmod(above, 0o777)
    assert "above the cache" in (problem(str(above / "cache")) or "")
    os.chmod(above, 0o1777)  # like /tmp: others cannot rename what is in it
    assert problem(str(above / "cache")) is None


def test_other_owner_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    d = tmp_path / "cache"
    d.mkdir(mode=0o700)
    _other_owner(d, monkeypatch)
    assert "is owned by user id" in (problem(str(d)) or "")


def _load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


_count = [0]


def _fresh(src: Path) -> Any:
    """A new dispatcher of the same source (as a new process would make)."""
    _count[0] += 1
    return _load(src, f"pqkit_cache_trust_{os.getpid()}_{_count[0]}").plus_one


class _Planted:
    """A pickle that runs code when loaded: makes a directory."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (os.mkdir, (str(self.marker),))


def _compiled_once(tmp_path: Path) -> tuple[Path, Any]:
    """A module beside its own cache, compiled and cached once (trusted)."""
    os.chmod(tmp_path, 0o700)
    src = tmp_path / "m28.py"
    src.write_text(_SOURCE)
    fn = _fresh(src)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UntrustedCacheWarning)
        assert fn(1) == 2
    again = _fresh(src)
    assert again(2) == 3 and sum(again.stats.cache_hits.values()) == 1  # the cache works
    return src, fn


def test_planted_index_is_not_loaded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An index file of another owner holding a code-running pickle is never read."""
    src, fn = _compiled_once(tmp_path)
    index = Path(fn._cache._cache_file._index_path)
    marker = tmp_path / "ran"
    index.write_bytes(pickle.dumps(_Planted(marker)))
    _other_owner(index, monkeypatch)
    victim = _fresh(src)
    with pytest.warns(UntrustedCacheWarning, match="is owned by user id"):
        assert victim(5) == 6
    assert not marker.exists()
    assert sum(victim.stats.cache_hits.values()) == 0
    # and the refused cache is not written either: the planted file is untouched
    assert index.read_bytes() == pickle.dumps(_Planted(marker))


@pytest.mark.parametrize("which", ["index", "data", "all"])
def test_world_writable_cache_files_are_refused(tmp_path: Path, which: str) -> None:
    """What Numba writes under umask 000 (0666 files) is not loaded back."""
    src, fn = _compiled_once(tmp_path)
    cache = Path(fn._cache.cache_path)
    suffix = {"index": ".nbi", "data": ".nbc", "all": ""}[which]
    for f in cache.iterdir():
        if f.name.startswith("m28.plus_one") and f.name.endswith(suffix):
            os.chmod(f, 0o666)
    victim = _fresh(src)
    with pytest.warns(UntrustedCacheWarning, match="writable by group or others"):
        assert victim(1) == 2
    assert sum(victim.stats.cache_hits.values()) == 0
