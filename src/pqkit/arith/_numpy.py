"""Helpers shared by the ``numpy`` kernel modules."""

from __future__ import annotations

import functools
import itertools

import numpy as np
import numpy.typing as npt

from pqkit.arith.tables import N

__all__ = ["first_accepted"]


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
