"""Replacing a file without ever exposing a secret: ``replacing(path, secret=...)``.

A secret written over an existing file must not inherit that file's permissions
(a pre-existing 0644 or 0666 file) nor follow a symlink planted at its name. So
the data goes to a new file created beside the target (``tempfile.mkstemp``:
``O_CREAT | O_EXCL``, mode 0600, a fresh random name, so no symlink is followed),
which is renamed over the target (``os.replace``, atomic within one directory)
only when every byte is written; on any error the new file is removed and the
target is left as it was. The rename replaces a symlink at the target, never the
file it points to.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from typing import IO

__all__ = ["replacing"]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def replacing(path: str | os.PathLike[str], *, secret: bool) -> Iterator[IO[bytes]]:
    """A binary file object whose contents replace ``path`` when the block ends
    without an exception: mode 0600 if ``secret``, else 0644 less the umask."""
    target = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(target))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".pqkit-")
    try:
        if not secret:
            os.fchmod(fd, 0o644 & ~_umask())
        with os.fdopen(fd, "wb") as f:
            yield f
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
