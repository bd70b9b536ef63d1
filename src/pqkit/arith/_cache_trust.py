"""Trust in Numba's on-disk cache of compiled code.

Numba's cache index and data files are pickles: loading them runs whatever they
say, inside the process. So the cache must be as trusted as pqkit's own code.
Before a compiled function loads anything from its cache, :func:`guard`'s check
refuses (with an :class:`UntrustedCacheWarning`, once per directory, and the
function then compiles in memory with no cache at all) when, as ssh's StrictModes
does for its files:

- the cache directory, or a file of this function in it (its ``.nbi`` index and
  ``.nbc`` data), is writable by group or others, or is owned by a user other than
  the current one or root;
- a directory above it is writable by group or others without the sticky bit
  (``/tmp`` is fine: nobody else can rename or remove what is in it), or is owned
  by another user than the current one or root.

Where the platform has no user ids (Windows) nothing is checked. This module
touches only the dispatcher's ``_cache`` (Numba's cache object), and wraps it;
everything else in Numba is left as it is.
"""

from __future__ import annotations

import os
import stat
import threading
import warnings
from typing import Any

__all__ = ["UntrustedCacheWarning", "guard", "problem"]


class UntrustedCacheWarning(RuntimeWarning):
    """A cache of compiled code others could have written: not used."""


_warned: set[str] = set()
_warned_lock = threading.Lock()


def _owner_problem(path: str, st: os.stat_result) -> str | None:
    uid = os.getuid()
    if st.st_uid not in (uid, 0):
        return f"{path} is owned by user id {st.st_uid}, not by the current user ({uid}) or root"
    return None


def problem(path: str, *, directory: bool = True) -> str | None:
    """Why ``path`` (the cache directory, or with ``directory=False`` a cache file)
    cannot be trusted, or None. A path that does not exist is no problem (nothing
    is read from it); the directories above it are checked either way."""
    if not hasattr(os, "getuid"):
        return None
    path = os.path.abspath(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    if st is not None:
        if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            return f"{path} is writable by group or others (mode {stat.S_IMODE(st.st_mode):o})"
        found = _owner_problem(path, st)
        if found:
            return found
    if not directory:
        return None
    parent = os.path.dirname(path)
    while True:
        try:
            pst = os.stat(parent)
        except FileNotFoundError:
            pst = None
        if pst is not None:
            sticky = pst.st_mode & stat.S_ISVTX
            if pst.st_mode & (stat.S_IWGRP | stat.S_IWOTH) and not sticky:
                mode = stat.S_IMODE(pst.st_mode)
                return f"{parent} (above the cache) is writable by group or others (mode {mode:o})"
            found = _owner_problem(parent, pst)
            if found:
                return found
        up = os.path.dirname(parent)
        if up == parent:
            return None
        parent = up


def _files_problem(cache_path: str, index_path: str) -> str | None:
    """The directory, then the index file and the data files of one function.

    Numba names a function's data files ``<stem>.1.nbc``, ``<stem>.2.nbc`` ... from
    1 up, the first free number each time (``IndexDataCacheFile.save``), so those
    up to the first missing number are all the index can name."""
    found = problem(cache_path) or problem(index_path, directory=False)
    if found:
        return found
    stem = index_path[: -len(".nbi")] if index_path.endswith(".nbi") else index_path
    number = 1
    while os.path.lexists(data := f"{stem}.{number}.nbc"):
        found = problem(data, directory=False)
        if found:
            return found
        number += 1
    return None


class _CheckedCache:
    """Numba's cache object with the trust check before every load; everything
    else is passed to it."""

    def __init__(self, inner: Any, dispatcher: Any) -> None:
        self._inner = inner
        self._dispatcher = dispatcher

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def load_overload(self, sig: Any, target_context: Any) -> Any:
        cache_path = self._inner.cache_path
        found = _files_problem(cache_path, self._inner._cache_file._index_path)
        if found is None:
            return self._inner.load_overload(sig, target_context)
        from numba.core.caching import NullCache  # type: ignore[import-not-found, unused-ignore]

        self._dispatcher._cache = NullCache()  # compile in memory from now on
        with _warned_lock:
            first = cache_path not in _warned
            _warned.add(cache_path)
        if first:
            warnings.warn(
                f"not using Numba's cache of compiled code in {cache_path}: {found}. The "
                "cache is loaded as code and must be as trusted as pqkit itself; pqkit "
                "compiles without it (slower start). Fix the permissions, or point "
                "NUMBA_CACHE_DIR at a private directory.",
                UntrustedCacheWarning,
                stacklevel=2,
            )
        return None


def guard(dispatcher: Any) -> Any:
    """``dispatcher`` (a ``numba.njit(cache=True)`` function) with its cache
    checked before each load; returned for use as a decorator's result."""
    inner = getattr(dispatcher, "_cache", None)
    if hasattr(inner, "_cache_file") and hasattr(inner, "cache_path"):  # Numba's Cache
        dispatcher._cache = _CheckedCache(inner, dispatcher)
    return dispatcher
