"""FrodoKEM's ``numpy`` kernels: vectorised; the matrix products run as float64
BLAS products, exact (every sum is an integer below 2^53: entries of A below 2^16
times errors of at most 12 in magnitude, n <= 1344 terms), then reduced mod q.

The products with A go in slices of :data:`BLOCK` rows of A: a BLAS library
spreads a product over threads from some size on, and on a loaded machine those
threads wait for each other (FrodoKEM-640's S'A took 50 ms that way against 0.3 ms
in slices); each slice stays below the size at which OpenBLAS starts threads."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit import common
from pqkit.arith.api import kernel_table
from pqkit.frodokem.kernels.contract import FrodoKernels

U16 = npt.NDArray[np.uint16]

backend = "numpy"

BLOCK = 16
"""Rows of A per BLAS call: 8 x 16 x 1344 multiply-adds at most, single-threaded."""


def _signed(x: Any) -> npt.NDArray[np.float64]:
    """uint16 error entries as the small signed values they stand for, float64."""
    return np.asarray(x, dtype=np.uint16).view(np.int16).astype(np.float64)


def _reduce(x: npt.NDArray[np.float64], e: Any, logq: int) -> U16:
    """(x + e) mod q for an exact float64 integer matrix x."""
    mask = np.int64((1 << logq) - 1)
    total = x.astype(np.int64) + np.asarray(e, dtype=np.uint16)
    out: U16 = (total & mask).astype(np.uint16)
    return out


def sample(r: Any, cdf: Any) -> U16:
    """Frodo.Sample by comparisons with every table entry: the count of
    (T[z] - t) < 0, from the sign bit of the difference (no index by t)."""
    r = np.asarray(r, dtype=np.uint16)
    t = (r >> np.uint16(1)).astype(np.int32)
    table = np.asarray(cdf, dtype=np.int32)[:-1]
    e = np.zeros(r.shape, dtype=np.int32)
    for bound in table.tolist():  # public: the table's length and values
        e -= (bound - t) >> 31
    sign = (r & np.uint16(1)).astype(np.int32)
    out: U16 = (((-sign) ^ e) + sign).astype(np.uint16)
    return out


def shake_a(seed_a: bytes, n: int) -> U16:
    inputs = [i.to_bytes(2, "little") + bytes(seed_a) for i in range(n)]
    rows = common.shake128_many(inputs, 2 * n)
    return rows.view("<u2").astype(np.uint16).reshape(n, n)


def as_plus_e(a: Any, s_t: Any, e: Any, logq: int) -> U16:
    af = np.asarray(a, dtype=np.uint16).astype(np.float64)
    s = _signed(s_t).T
    x = np.empty((af.shape[0], s.shape[1]))
    for i in range(0, af.shape[0], BLOCK):
        np.matmul(af[i : i + BLOCK], s, out=x[i : i + BLOCK])
    return _reduce(x, e, logq)


def sa_plus_e(a: Any, s: Any, e: Any, logq: int) -> U16:
    af = np.asarray(a, dtype=np.uint16).astype(np.float64)
    sf = _signed(s)
    x = np.zeros((sf.shape[0], af.shape[1]))
    for j in range(0, af.shape[0], BLOCK):
        x += sf[:, j : j + BLOCK] @ af[j : j + BLOCK]
    return _reduce(x, e, logq)


def sb_plus_e(b: Any, s: Any, e: Any, logq: int) -> U16:
    x = _signed(s) @ np.asarray(b, dtype=np.uint16).astype(np.float64)
    return _reduce(x, e, logq)


def bs(b: Any, s_t: Any, logq: int) -> U16:
    x = np.asarray(b, dtype=np.uint16).astype(np.float64) @ _signed(s_t).T
    return _reduce(x, np.zeros(x.shape, dtype=np.uint16), logq)


KERNELS = kernel_table(FrodoKernels, globals())
