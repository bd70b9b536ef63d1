"""The control bits of a Benes network by sorting (spec §2.4.3; Bernstein,
"Verified fast formulas for control bits for permutation networks", 2020), written
once over a backend's sorting network: the ``numpy`` backend passes its bitonic
sort of NumPy rows, the ``jit`` backend its compiled one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.mceliece.params import Params

__all__ = ["Sort", "controlbits_by_sorting"]

Sort = Callable[[npt.NDArray[np.int64]], npt.NDArray[np.int64]]
"""Rows of an int64 array (..., 2^w) -> each row sorted ascending (a new array)."""


def _inverse(sort: Sort, perm: Any) -> npt.NDArray[np.int64]:
    """perm^-1 of each row, by sorting (perm(x) << 16 | x)."""
    perm = np.asarray(perm, dtype=np.int64)
    idx = np.arange(perm.shape[-1], dtype=np.int64)
    return sort((perm << 16) | idx) & 0xFFFF


def _compose(sort: Sort, a: Any, b_inv: Any) -> npt.NDArray[np.int64]:
    """x -> a(b(x)) for each row, given b^-1: sorting (b^-1(y) << 16 | a(y))."""
    return sort((np.asarray(b_inv, dtype=np.int64) << 16) | np.asarray(a, dtype=np.int64)) & 0xFFFF


def controlbits_by_sorting(p: Params, pi: Any, sort: Sort) -> npt.NDArray[np.uint8]:
    """The control bits of the Benes network for pi (the reference's
    ``cbrecursion``), all subnetworks of one depth at once (rows of an array),
    every inverse and product of permutations by ``sort``, a sorting network on
    the rows of an int64 array (no secret-dependent index or branch).

    Depth d has 2^d subnetworks of 2^(m-d) inputs; subnetwork b's first-layer bit
    j is at d 2^(m-1) + j 2^d + b, its last-layer bit j at
    (2m - d - 2) 2^(m-1) + j 2^d + b (the recursion's positions and steps)."""
    m = p.m
    n = p.q
    out = np.zeros(8 * p.cond_bytes, dtype=np.uint8)
    perms = np.asarray(pi, dtype=np.int64)[None, :]
    for d in range(m - 1):
        rows, size = perms.shape
        w = m - d
        half = size // 2
        idx = np.arange(size, dtype=np.int64)
        inv = _inverse(sort, perms)
        # pibar(x) = pi(pi^-1(x ^ 1) ^ 1)
        u = inv[:, idx ^ 1] ^ 1
        pbar = _compose(sort, perms, _inverse(sort, u))
        c = np.minimum(idx, pbar)
        pp = _compose(sort, pbar, _inverse(sort, pbar))
        for _ in range(1, w - 1):
            pinv = _inverse(sort, pp)
            c = np.minimum(c, _compose(sort, c, pinv))
            pp = _compose(sort, pp, pinv)
        f = c[:, 0::2] & 1  # (rows, half)
        big_f = idx[None, :] ^ np.repeat(f, 2, axis=1)
        fpi = _compose(sort, big_f, inv)  # F o pi
        lbits = fpi[:, 0::2] & 1
        # M(y) = Fpi(L(y)) with L(y) = y ^ l_{y >> 1}: a masked swap of pairs
        ev, od = fpi[:, 0::2], fpi[:, 1::2]
        dsw = (ev ^ od) * lbits
        mid = np.empty_like(fpi)
        mid[:, 0::2] = ev ^ dsw
        mid[:, 1::2] = od ^ dsw
        # bit positions: first layer d n/2 + j 2^d + b, last (2m - d - 2) n/2 + ...
        first = (d * (n // 2)) + (np.arange(half)[None, :] << d) + np.arange(rows)[:, None]
        last = ((2 * m - d - 2) * (n // 2)) + (np.arange(half)[None, :] << d)
        out[first.reshape(-1)] = f.reshape(-1)
        out[(last + np.arange(rows)[:, None]).reshape(-1)] = lbits.reshape(-1)
        perms = np.concatenate([mid[:, 0::2] >> 1, mid[:, 1::2] >> 1], axis=0)
    # the middle layer: 2-entry networks, bit = pi(0)
    rows = perms.shape[0]
    out[(m - 1) * (n // 2) + np.arange(rows)] = perms[:, 0]
    return np.packbits(out, bitorder="little")
