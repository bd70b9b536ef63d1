"""One hash function over many rows at once, for the tree hashing of LMS (RFC 8554)
and XMSS (RFC 8391).

Both lay out their hash inputs their own way (LMS: I || u32str(q) || ..., XMSS:
toByte(padding, n) || KEY || M); what they share is "hash every row of a uint8
(count, L) array and keep n bytes". :class:`RowHash` does that on the batched
kernels of :mod:`pqkit.common.kernels` (``sha256_many`` / ``sha512_many`` /
``shake_many``: n-way compressions, compiled on the ``jit`` backend), and
:func:`reference_rows` is the readable twin (hashlib, one row at a time) the
tests hold the kernels to.
"""

from __future__ import annotations

import hashlib
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

__all__ = ["Function", "RowHash", "reference_rows"]

Function = Literal["sha256", "sha512", "shake128", "shake256"]

Rows = npt.NDArray[np.uint8]


def reference_rows(function: Function, rows: Rows, n: int, prefix: bytes = b"") -> Rows:
    """The first ``n`` bytes of ``function`` over ``prefix`` || each row, one hashlib
    call a row."""
    out = np.empty((rows.shape[0], n), dtype=np.uint8)
    for i, row in enumerate(rows):
        data = prefix + row.tobytes()
        if function.startswith("shake"):
            digest = hashlib.new(function, data).digest(n)  # type: ignore[call-arg]
        else:
            digest = hashlib.new(function, data).digest()[:n]
        out[i] = np.frombuffer(digest, dtype=np.uint8)
    return out


class RowHash:
    """``function`` truncated to ``n`` bytes over every row of a (count, L) array.

    ``kernels`` is a hash kernel table (``pqkit.arith.kernels("hash", backend)``);
    None runs :func:`reference_rows`.
    """

    __slots__ = ("function", "kernels", "n")

    def __init__(self, function: Function, n: int, kernels: Any | None) -> None:
        self.function = function
        self.n = n
        self.kernels = kernels

    def __call__(self, rows: Rows, prefix: bytes = b"") -> Rows:
        """``prefix`` || each row, hashed: a prefix common to every row (a key, a
        seed) has its whole blocks compressed once per call by the SHA-2 kernels."""
        n, k = self.n, self.kernels
        if rows.shape[0] == 0:
            return np.empty((0, n), dtype=np.uint8)
        rows = np.ascontiguousarray(rows, dtype=np.uint8)
        if k is None:
            return reference_rows(self.function, rows, n, prefix)
        if self.function == "shake256":
            out: Rows = k.shake_many(256, rows, n, prefix)
            return out
        if self.function == "shake128":
            out = k.shake_many(128, rows, n, prefix)
            return out
        full: Rows = getattr(k, f"{self.function}_many")(rows, prefix)
        return np.ascontiguousarray(full[:, :n])
