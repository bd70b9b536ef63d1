"""Writing files that may hold secrets: never through a path that another process
can have prepared, never with loose permissions, never half-written.

:func:`create_file` makes a new file (``O_EXCL``: it refuses an existing path,
symbolic links included); :func:`replace_file` writes a fresh file beside the
target (created the same way, under a random name) and renames it over the
target, so a reader sees the old contents or the new, never a mix. Secrets get mode
0600; other files 0644 less the umask (applied by the kernel at creation: the
process-wide umask is never changed, so threads may write at once). The command line
(:mod:`pqkit.cli.files`) and the Dask block writer (:mod:`pqkit.batch.dask`) both
write through these.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import BinaryIO

__all__ = ["create_file", "replace_file", "replacing"]


def create_file(path: str | os.PathLike[str], data: bytes, *, secret: bool) -> None:
    """Write ``data`` to the new file ``path`` (FileExistsError if it exists)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600 if secret else 0o644)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(path)
        raise


@contextlib.contextmanager
def replacing(
    path: str | os.PathLike[str], *, secret: bool, durable: bool = False
) -> Iterator[BinaryIO]:
    """A new temporary file beside ``path`` (``O_EXCL``, mode as :func:`create_file`)
    to write in; renamed over ``path`` when the block ends without an error, removed
    otherwise. For streamed output: the target never holds a part, and a secret
    never keeps an existing file's looser mode.

    ``durable``: the new contents are on disk when the block returns (fsync of the
    file before the rename, of the directory after it), as the stateful keys'
    counters need (:mod:`pqkit.stateful.storage`)."""
    directory = os.path.dirname(os.path.abspath(path))
    tmp = os.path.join(directory, f".pqkit-{os.urandom(8).hex()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600 if secret else 0o644)
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if durable:
        dfd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)


def replace_file(
    path: str | os.PathLike[str], data: bytes, *, secret: bool, durable: bool = False
) -> None:
    """Write ``data`` to ``path`` through :func:`replacing`."""
    with replacing(path, secret=secret, durable=durable) as f:
        f.write(data)
