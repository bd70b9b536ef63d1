"""Files for the ``pqkit`` commands: bounded reads of regular files, streamed
messages, and safe writes.

Inputs: ``-`` is standard input; any other path must be a regular file (a FIFO,
a device such as ``/dev/zero`` or a folder is refused at once: it is opened
non-blocking and checked with ``fstat`` before any read), and no more than the
expected length plus one byte is ever read. Outputs: ``-`` is standard output
(binary data is refused only when that is a terminal); files are never
overwritten without ``--force``, never equal to an input, secrets get mode 0600,
and ``--force`` writes a temporary file renamed over the target.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Iterator, Sequence
from typing import IO, Protocol

from pqkit._files import create_file, replace_file

__all__ = [
    "CHUNK_SIZE",
    "STDIO",
    "Sink",
    "check_outputs",
    "open_input",
    "read_input",
    "stream_into",
    "write_output",
]

CHUNK_SIZE = 1 << 20
"""Bytes read at a time from a message file."""

STDIO = "-"
"""The path that means standard input (for inputs) or standard output (for outputs)."""


class Sink(Protocol):
    """Anything with ``update(bytes)``: a hasher."""

    def update(self, data: bytes, /) -> None: ...


def _open_regular(path: str, what: str) -> int:
    """A file descriptor of ``path`` opened for reading, after checking it is a regular
    file (O_NONBLOCK: opening a FIFO does not wait for a writer)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise OSError(f"{what} {path!r} does not exist") from None
    except IsADirectoryError:
        raise OSError(f"{what} {path!r} is a directory") from None
    except PermissionError:
        raise OSError(f"{what} {path!r} cannot be read (permission denied)") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise OSError(f"{what} {path!r} is a directory")
        if not stat.S_ISREG(mode):
            raise OSError(f"{what} {path!r} is not a regular file (use '-' for standard input)")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


@contextlib.contextmanager
def open_input(path: str, what: str) -> Iterator[IO[bytes]]:
    """``path`` opened for reading (``-``: standard input); regular files only."""
    if path == STDIO:
        yield sys.stdin.buffer
        return
    with os.fdopen(_open_regular(path, what), "rb") as f:
        yield f


def _read_at_most(source: IO[bytes], n: int) -> bytes:
    pieces: list[bytes] = []
    left = n
    while left > 0:
        piece = source.read(min(left, CHUNK_SIZE))
        if not piece:
            break
        pieces.append(piece)
        left -= len(piece)
    return b"".join(pieces)


def read_input(path: str, what: str, limit: int, *, oversize_ok: bool = False) -> bytes:
    """The contents of ``path`` (``-``: standard input), at most ``limit`` bytes.

    Reads at most ``limit + 1`` bytes; if there are more, ValueError, or with
    ``oversize_ok`` those ``limit + 1`` bytes (for a caller that rejects them itself).
    """
    with open_input(path, what) as source:
        data = _read_at_most(source, limit + 1)
    if len(data) > limit and not oversize_ok:
        shown = "standard input" if path == STDIO else repr(path)
        raise ValueError(f"{what} {shown} is too large: more than {limit} bytes")
    return data


def stream_into(source: IO[bytes], sink: Sink, chunk_size: int = CHUNK_SIZE) -> None:
    """Feed ``source`` to ``sink.update`` ``chunk_size`` bytes at a time."""
    while True:
        chunk = source.read(chunk_size)
        if not chunk:
            return
        sink.update(chunk)


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def check_outputs(outputs: Sequence[str], force: bool, inputs: Sequence[str] = ()) -> None:
    """Refuse, before any work, outputs that exist (without ``--force``), that are
    named twice, that are also an input, or two uses of standard input."""
    stdin_uses = [p for p in inputs if p == STDIO]
    if len(stdin_uses) > 1:
        raise ValueError("standard input ('-') can be only one of the inputs")
    seen: set[str] = set()
    for path in outputs:
        if path == STDIO:
            if STDIO in seen:
                raise ValueError("standard output ('-') is named for two outputs")
            seen.add(STDIO)
            continue
        resolved = os.path.realpath(path)
        if resolved in seen:
            raise ValueError(f"{path!r} is named for two outputs")
        seen.add(resolved)
        for source in inputs:
            if source != STDIO and _same_file(path, source):
                raise ValueError(f"output {path!r} is also an input; write somewhere else")
        if not force and os.path.lexists(path):
            raise ValueError(f"{path!r} exists; use --force to overwrite it")


def write_output(path: str, data: bytes, *, secret: bool, force: bool, binary: bool) -> None:
    """Write ``data`` to ``path`` (``-``: standard output, refused for ``binary`` data
    when that is a terminal): mode 0600 if ``secret``, else 0644 less the umask."""
    if path == STDIO:
        if binary and sys.stdout.isatty():
            raise ValueError(
                "refusing to write binary data to the terminal; redirect it or use -o FILE"
            )
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    if force:
        # A fresh file beside the target renamed over it: the target never holds a
        # mix and a secret never inherits loose permissions.
        replace_file(path, data, secret=secret)
    else:
        create_file(path, data, secret=secret)
