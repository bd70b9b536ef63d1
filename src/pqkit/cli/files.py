"""Files for the ``pqkit`` commands: reading inputs, streaming messages, and writing
outputs safely (never over an existing file without ``--force``; secrets with mode
0600; with ``--force`` through a temporary file renamed over the target).
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Protocol

__all__ = [
    "CHUNK_SIZE",
    "Sink",
    "check_free",
    "open_message",
    "read_file",
    "stream_into",
    "write_file",
]

CHUNK_SIZE = 1 << 20
"""Bytes read at a time from a message file."""


class Sink(Protocol):
    """Anything with ``update(bytes)``: a hasher."""

    def update(self, data: bytes, /) -> None: ...


def read_file(path: str, what: str) -> bytes:
    """The contents of ``path``; OSError naming ``what`` if it is missing or a folder."""
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise OSError(f"{what} {path!r} does not exist") from None
    except IsADirectoryError:
        raise OSError(f"{what} {path!r} is a directory") from None


def check_free(paths: list[str], force: bool) -> None:
    """Refuse (before doing any work) to overwrite existing outputs without --force."""
    seen: set[str] = set()
    for path in paths:
        resolved = os.path.realpath(path)
        if resolved in seen:
            raise ValueError(f"{path!r} is named for two outputs")
        seen.add(resolved)
        if not force and os.path.lexists(path):
            raise ValueError(f"{path!r} exists; use --force to overwrite it")


def write_file(path: str, data: bytes, *, secret: bool, force: bool) -> None:
    """Write ``data`` to ``path``: mode 0600 if ``secret``, else 0644 less the umask."""
    mode = 0o600 if secret else 0o644
    if not force:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(path)
            raise
        return
    # --force: write a fresh file beside the target and rename it over, so the
    # target never holds a mix and a secret never inherits loose permissions.
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".pqkit-")
    try:
        if not secret:
            umask = os.umask(0)
            os.umask(umask)
            os.fchmod(fd, mode & ~umask)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def open_message(path: str) -> Iterator[IO[bytes]]:
    """The message file ``path`` opened for reading (``-``: standard input)."""
    if path == "-":
        yield sys.stdin.buffer
        return
    try:
        f = open(path, "rb")  # noqa: SIM115 - closed below
    except FileNotFoundError:
        raise OSError(f"message file {path!r} does not exist") from None
    with f:
        yield f


def stream_into(source: IO[bytes], sink: Sink, chunk_size: int = CHUNK_SIZE) -> None:
    """Feed ``source`` to ``sink.update`` ``chunk_size`` bytes at a time."""
    while True:
        chunk = source.read(chunk_size)
        if not chunk:
            return
        sink.update(chunk)
