"""The hashing of the batch paths, one small function per hash shape.

Every batched SHA-3 / SHAKE call of :mod:`pqkit.mlkem.batch` and
:mod:`pqkit.mldsa.batch` goes through these functions, so the provider behind
them can be swapped in one place (the compiled n-way Keccak of
``pqkit.arith``'s hash kernels, when it lands). Today they call the active
:mod:`pqkit.common` SHA-3 provider, one input at a time.

Shapes: ``rows`` is a C-contiguous uint8 array ``(n, L)`` (every input the same
length); the result is a new uint8 array ``(n, out_len)``. :func:`shake_list`
takes inputs of different lengths.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from pqkit.common import provider

__all__ = ["concat_rows", "sha3_rows", "shake_list", "shake_rows"]

U8 = npt.NDArray[np.uint8]


def shake_rows(bits: int, rows: U8, out_len: int) -> U8:
    """Row i: the first ``out_len`` bytes of SHAKE``bits``(rows[i]) (FIPS 202 §6.2)."""
    if rows.shape[0] == 0:
        return np.zeros((0, out_len), dtype=np.uint8)
    data = np.ascontiguousarray(rows, dtype=np.uint8).tobytes()
    width = rows.shape[1]
    inputs = (
        [data[i : i + width] for i in range(0, len(data), width)] if width else [b""] * len(rows)
    )
    return provider("sha3").shake_many(bits, inputs, out_len)


def sha3_rows(bits: int, rows: U8) -> U8:
    """Row i: SHA3-``bits``(rows[i]) (FIPS 202 §6.1), ``bits // 8`` bytes."""
    p = provider("sha3")
    data = np.ascontiguousarray(rows, dtype=np.uint8).tobytes()
    width = rows.shape[1]
    out = b"".join(p.sha3(bits, data[i * width : (i + 1) * width]) for i in range(rows.shape[0]))
    return np.frombuffer(bytearray(out), dtype=np.uint8).reshape(rows.shape[0], bits // 8)


def shake_list(bits: int, inputs: Sequence[bytes], out_len: int) -> U8:
    """Row i: the first ``out_len`` bytes of SHAKE``bits``(inputs[i]); inputs may
    differ in length (messages)."""
    if not inputs:
        return np.zeros((0, out_len), dtype=np.uint8)
    return provider("sha3").shake_many(bits, list(inputs), out_len)


def concat_rows(*parts: U8) -> U8:
    """Concatenate uint8 blocks along the last axis, broadcasting a single row
    ``(1, L)`` against the others' row count."""
    n = max(p.shape[0] for p in parts)
    return np.concatenate([np.broadcast_to(p, (n, p.shape[1])) for p in parts], axis=1)
