"""Where a stateful key's counter lives: the next one-time index never handed out.

The counter is the truth. :meth:`Storage.reserve` takes ``count`` indices under
an exclusive lock: it reads the counter, refuses if fewer than ``count`` are left,
writes ``counter + count`` durably, and only then returns the first index of the
range. A signature is made with an index only after that write (RFC 8554 §5.2 and
RFC 8391 §4.1.9: a one-time key must never sign twice), so a crash at any point
loses at most the rest of a reserved range and never reissues an index.

- :class:`FileStorage` (the default) keeps the key and its counter in one file
  (format: :mod:`pqkit.stateful.files`), replaced atomically with fsync of the
  file and of its directory (:func:`pqkit._files.replace_file`), under
  ``fcntl.flock`` on a lock file beside it (``<path>.lock``: the key file itself is
  replaced on every write, so it cannot carry the lock). Two processes or two
  objects loading the same file therefore get disjoint ranges.
- :class:`MemoryStorage` holds the counter in this process only; it refuses to
  work in a forked child (the child's copy would hand out the parent's indices).

Other storages (a database row, an HSM counter) implement :class:`Storage`.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from typing import Protocol, runtime_checkable

from pqkit._files import create_file, replace_file
from pqkit._secret import Uncopyable
from pqkit.stateful import files

__all__ = ["ExhaustedKey", "FileStorage", "MemoryStorage", "Storage"]


class ExhaustedKey(ValueError):
    """The key has fewer unused one-time indices left than were asked for."""


@runtime_checkable
class Storage(Protocol):
    """A stateful key's durable record: the key material and the next unused index."""

    def load(self) -> files.KeyRecord:
        """The record as stored now (name, material, next index, limit)."""
        ...

    def reserve(self, count: int) -> int:
        """Durably move the next index on by ``count`` and return its old value
        (:class:`ExhaustedKey` if fewer than ``count`` are left)."""
        ...


def _check_count(count: int, record: files.KeyRecord) -> None:
    if not isinstance(count, int) or isinstance(count, bool):
        raise TypeError(f"count must be int, not {type(count).__name__}")
    if count < 1:
        raise ValueError(f"count must be at least 1, got {count}")
    left = record.limit - record.next_index
    if count > left:
        raise ExhaustedKey(
            f"{record.name} key has {left} signature(s) left, {count} asked for"
            + ("; the key is exhausted" if left == 0 else "")
        )


class FileStorage:
    """The key file at ``path`` (see the module)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)

    def __repr__(self) -> str:
        return f"FileStorage({self.path!r})"

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        import fcntl

        fd = os.open(self.path + ".lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # closing the descriptor releases the lock

    def create(self, record: files.KeyRecord) -> None:
        """Write a new key file (FileExistsError if ``path`` exists), durably."""
        with self._locked():
            create_file(self.path, files.encode_record(record), secret=True)
            fd = os.open(self.path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
            dfd = os.open(os.path.dirname(os.path.abspath(self.path)), os.O_RDONLY)
            try:
                os.fsync(dfd)
            finally:
                os.close(dfd)

    def _read(self) -> files.KeyRecord:
        with open(self.path, "rb") as f:
            data = f.read(files.MAX_FILE_BYTES + 1)
        return files.decode_record(data, self.path)

    def load(self) -> files.KeyRecord:
        with self._locked():
            return self._read()

    def reserve(self, count: int) -> int:
        with self._locked():
            record = self._read()
            _check_count(count, record)
            start = record.next_index
            replace_file(
                self.path,
                files.encode_record(record.advanced(start + count)),
                secret=True,
                durable=True,
            )
            return start


class MemoryStorage(Uncopyable):
    """A counter in this process's memory (see the module): for keys that never
    leave one process; refuses copy, pickle and use after ``fork``."""

    _uncopyable_hint = "write the key to a file (StatefulPrivateKey.save) to keep it"

    def __init__(self, record: files.KeyRecord) -> None:
        self._record = record
        self._lock = threading.Lock()
        self._pid = os.getpid()

    def _check_process(self) -> None:
        if os.getpid() != self._pid:
            raise RuntimeError(
                "a stateful key held in memory cannot be used in a forked process "
                "(its counter would be shared); keep the key in a file"
            )

    def load(self) -> files.KeyRecord:
        self._check_process()
        return self._record

    def reserve(self, count: int) -> int:
        self._check_process()
        with self._lock:
            _check_count(count, self._record)
            start = self._record.next_index
            self._record = self._record.advanced(start + count)
            return start

    def retire(self) -> files.KeyRecord:
        """The record, leaving this storage exhausted (its key moves elsewhere)."""
        with self._lock:
            record = self._record
            self._record = record.advanced(record.limit)
            return record
