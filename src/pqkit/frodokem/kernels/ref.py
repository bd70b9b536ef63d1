"""FrodoKEM's ``ref`` kernels: plain Python integers, reading like the
specification (draft-longa-cfrg-frodokem §6); the oracle of the differential
tests. NOT constant-time (it branches on secrets) and never a default."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit import common
from pqkit.arith.api import kernel_table
from pqkit.frodokem.kernels.contract import FrodoKernels

U16 = npt.NDArray[np.uint16]

backend = "ref"


def _rows(x: Any) -> list[list[int]]:
    return [[int(v) for v in row] for row in np.asarray(x, dtype=np.uint16).tolist()]


def _matrix(rows: list[list[int]], logq: int) -> U16:
    q = 1 << logq
    return np.array([[v % q for v in row] for row in rows], dtype=np.uint16)


def _signed(v: int) -> int:
    """A uint16 error entry as the small integer it stands for."""
    return v - 0x10000 if v >= 0x8000 else v


def sample(r: Any, cdf: Any) -> U16:
    """§6.2.2, Frodo.Sample."""
    table = [int(t) for t in np.asarray(cdf).tolist()]
    flat = np.asarray(r, dtype=np.uint16)
    out = []
    for value in flat.reshape(-1).tolist():
        t = value >> 1
        e = 0
        for z in range(len(table) - 1):
            if t > table[z]:
                e += 1
        if value & 1:
            e = -e
        out.append(e % 0x10000)
    return np.array(out, dtype=np.uint16).reshape(flat.shape)


def shake_a(seed_a: bytes, n: int) -> U16:
    """§6.3.2: one SHAKE128 call per row."""
    rows = []
    for i in range(n):
        row = common.shake128_digest(i.to_bytes(2, "little") + bytes(seed_a), 2 * n)
        rows.append([int.from_bytes(row[2 * j : 2 * j + 2], "little") for j in range(n)])
    return np.array(rows, dtype=np.uint16)


def as_plus_e(a: Any, s_t: Any, e: Any, logq: int) -> U16:
    A, S_t, E = _rows(a), _rows(s_t), _rows(e)
    n, nbar = len(A), len(S_t)
    out = [
        [E[i][k] + sum(A[i][j] * _signed(S_t[k][j]) for j in range(n)) for k in range(nbar)]
        for i in range(n)
    ]
    return _matrix(out, logq)


def sa_plus_e(a: Any, s: Any, e: Any, logq: int) -> U16:
    A, S, E = _rows(a), _rows(s), _rows(e)
    n, mbar = len(A), len(S)
    out = [
        [E[k][i] + sum(_signed(S[k][j]) * A[j][i] for j in range(n)) for i in range(n)]
        for k in range(mbar)
    ]
    return _matrix(out, logq)


def sb_plus_e(b: Any, s: Any, e: Any, logq: int) -> U16:
    B, S, E = _rows(b), _rows(s), _rows(e)
    n, nbar, mbar = len(B), len(B[0]) if B else 0, len(S)
    out = [
        [E[k][i] + sum(_signed(S[k][j]) * B[j][i] for j in range(n)) for i in range(nbar)]
        for k in range(mbar)
    ]
    return _matrix(out, logq)


def bs(b: Any, s_t: Any, logq: int) -> U16:
    B, S_t = _rows(b), _rows(s_t)
    n = len(B[0]) if B else 0
    out = [[sum(row[k] * _signed(col[k]) for k in range(n)) for col in S_t] for row in B]
    return _matrix(out, logq)


KERNELS = kernel_table(FrodoKernels, globals())
