"""Helpers shared by the ``numpy`` kernel modules."""

from __future__ import annotations

import functools
import itertools

import numpy as np
import numpy.typing as npt

from pqkit.arith.tables import N

__all__ = ["first_accepted", "lane_sums", "stage_matrices"]


@functools.cache
def _row_bounds(rows: int, width: int) -> npt.NDArray[np.int64]:
    """Where each of ``rows`` rows of ``width`` candidates begins, and the end."""
    return np.arange(rows + 1) * width


def first_accepted(
    cand: npt.NDArray[np.integer], accept: npt.NDArray[np.bool_], rows: int, width: int
) -> tuple[npt.NDArray[np.int64], list[int]]:
    """The compaction step of rejection sampling on **public** data (the matrix
    samplers of FIPS 203 and FIPS 204, seeded by the public rho): ``rows`` rows of
    ``width`` candidates laid end to end in ``cand`` (1-D), ``accept`` their verdicts.
    Returns each row's first min(count, 256) accepted values in order, zeros after,
    as int64 (rows, 256), and the counts capped at 256 (Python ints). The positions
    of the accepted values index the candidates directly: public data only."""
    accepted = accept.nonzero()[0]
    starts = accepted.searchsorted(_row_bounds(rows, width)).tolist()
    counts = [min(b - a, N) for a, b in itertools.pairwise(starts)]
    if min(counts) == N:  # every row has its 256 values (the usual case)
        first = np.concatenate([accepted[a : a + N] for a in starts[:-1]])
        out: npt.NDArray[np.int64] = cand.take(first).astype(np.int64).reshape(rows, N)
        return out, counts
    out = np.zeros((rows, N), dtype=np.int64)
    for r, (a, count) in enumerate(zip(starts, counts, strict=False)):
        out[r, :count] = cand[accepted[a : a + count]]
    return out, counts


# The float64 NTTs of the numpy backends (ML-KEM, ML-DSA) as two matrix stages on
# the index n = 16 h + l: one that mixes only the high bits h, one that mixes only
# the low bits l. Each family runs its own layers (FIPS 203 Algorithms 9-10, FIPS 204
# Algorithms 41-42) on these inputs; the matrices are taken from the images.


def lane_sums() -> npt.NDArray[np.int64]:
    """(16, 256): row l' is the sum over h of the unit vectors e_(16 h + l'): 16 rows
    carry what 256 unit vectors would through the low layers (start-up time)."""
    return np.tile(np.eye(16, dtype=np.int64), 16)


def stage_matrices(
    high_map: npt.NDArray[np.int64], low_map: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The matrices of the two stages on index n = 16 h + l.

    ``high_map`` (16, 256): row h' is the image of the unit vector e_(16 h') under
    the layers that mix only the high bits, so M[h, h'] = high_map[h', 16 h] (the
    same for every low lane l: tests/test_arith_mlkem.py checks this on all 256
    unit vectors). ``low_map`` (16, 256): row l' is the image of the sum of e_(16 h + l')
    over every h (:func:`lane_sums`) under the layers that mix only the low bits,
    which never mix different h: its block h is the image of e_(16 h + l') alone.
    Per h, written transposed for row-vector products:
    out[16 h + l] = sum_l' T[h, l', l] f[16 h + l'], T[h, l', l] = low_map[l', 16 h + l]."""
    idx = np.arange(16)
    m_high = high_map[idx[None, :], 16 * idx[:, None]]
    m_low_t = low_map.reshape(16, 16, 16).transpose(1, 0, 2)
    return m_high.astype(np.float64), np.ascontiguousarray(m_low_t, dtype=np.float64)
