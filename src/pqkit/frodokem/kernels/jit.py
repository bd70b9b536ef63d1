"""FrodoKEM's ``jit`` kernels: compiled loops (Numba).

The matrix products accumulate in 32-bit integers and keep the low D bits: every
operation is a ring operation mod 2^32, so the result mod q = 2^D is exact whatever
the wrap-around (draft-longa-cfrg-frodokem §6.4 computes mod 2^16 the same way).
The loops are laid out for the vectoriser: a dot product along a contiguous row
(A S, B^T S'^T, B' S) or a row update (S' A). Error entries are read as signed 16-bit
values. Sampling compares with every table entry and adds the sign bits (no branch
or index on the secret sample). A by SHAKE128 hashes its rows through the batched
Keccak of the ``hash`` kernels' jit table.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit import arith
from pqkit.arith._jit import jit
from pqkit.arith.api import kernel_table
from pqkit.frodokem.kernels.contract import FrodoKernels

U16 = npt.NDArray[np.uint16]

backend = "jit"


def _u16(x: Any) -> U16:
    """A C-contiguous, writable uint16 array (what the compiled entries take)."""
    a = np.ascontiguousarray(x, dtype=np.uint16)
    return a if a.flags.writeable else a.copy()


@jit
def _sample(r: Any, cdf: Any, out: Any) -> None:
    m = cdf.shape[0] - 1
    for i in range(r.shape[0]):
        v = np.int32(r[i])
        t = v >> 1
        e = np.int32(0)
        for z in range(m):
            e -= (np.int32(cdf[z]) - t) >> 31  # 1 when t > T[z]: the sign bit
        sign = v & 1
        out[i] = np.uint16((((-sign) ^ e) + sign) & 0xFFFF)


@jit
def _dot_rows(x: Any, y: Any, mask: Any, out: Any) -> None:
    """out[i, k] = (out[i, k] + sum_j x[i, j] * signed(y[k, j])) & mask."""
    n = x.shape[1]
    for i in range(x.shape[0]):
        for k in range(y.shape[0]):
            acc = np.int32(0)
            for j in range(n):
                acc += np.int32(x[i, j]) * np.int32(np.int16(y[k, j]))
            out[i, k] = np.uint16((np.int32(out[i, k]) + acc) & mask)


@jit
def _row_updates(s: Any, a: Any, mask: Any, out: Any) -> None:
    """out[k, :] = (out[k, :] + sum_j signed(s[k, j]) * a[j, :]) & mask, as updates
    of whole rows (A is read row by row)."""
    n = a.shape[1]
    for k in range(s.shape[0]):
        for j in range(a.shape[0]):
            skj = np.uint16(s[k, j])
            for i in range(n):
                out[k, i] = np.uint16(out[k, i] + skj * a[j, i])
        for i in range(n):
            out[k, i] = np.uint16(out[k, i] & mask)


def sample(r: Any, cdf: Any) -> U16:
    r = np.asarray(r, dtype=np.uint16)
    out = np.empty(r.size, dtype=np.uint16)
    _sample(_u16(r).reshape(-1), np.ascontiguousarray(cdf, dtype=np.int64), out)
    shaped: U16 = out.reshape(r.shape)
    return shaped


def shake_a(seed_a: bytes, n: int) -> U16:
    inputs = np.empty((n, 2 + len(seed_a)), dtype=np.uint8)
    inputs[:, 0] = np.arange(n, dtype=np.int64) & 0xFF
    inputs[:, 1] = np.arange(n, dtype=np.int64) >> 8
    inputs[:, 2:] = np.frombuffer(bytes(seed_a), dtype=np.uint8)
    rows = arith.kernels("hash", "jit").shake_many(128, inputs, 2 * n)
    out: U16 = np.ascontiguousarray(rows).view("<u2").astype(np.uint16).reshape(n, n)
    return out


def _mask(logq: int) -> np.int32:
    mask: np.int32 = np.int32((1 << logq) - 1)
    return mask


def as_plus_e(a: Any, s_t: Any, e: Any, logq: int) -> U16:
    out: U16 = _u16(e).copy()
    _dot_rows(_u16(a), _u16(s_t), _mask(logq), out)
    return out


def sa_plus_e(a: Any, s: Any, e: Any, logq: int) -> U16:
    out: U16 = _u16(e).copy()
    _row_updates(_u16(s), _u16(a), _mask(logq), out)
    return out


def sb_plus_e(b: Any, s: Any, e: Any, logq: int) -> U16:
    # (S' B + E'')^T = B^T S'^T + E''^T: the dot products along B's columns
    out_t = _u16(np.asarray(e).T)
    _dot_rows(_u16(np.asarray(b).T), _u16(s), _mask(logq), out_t)
    out: U16 = np.ascontiguousarray(out_t.T)
    return out


def bs(b: Any, s_t: Any, logq: int) -> U16:
    b = np.asarray(b)
    out = np.zeros((b.shape[0], np.asarray(s_t).shape[0]), dtype=np.uint16)
    _dot_rows(_u16(b), _u16(s_t), _mask(logq), out)
    return out


KERNELS = kernel_table(FrodoKernels, globals())
