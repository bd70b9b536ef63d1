"""Properties of the ML-KEM kernels beyond the differential suite
(test_arith_differential.py): a ring identity on every backend, and the internals
of the ``numpy`` backend (its float reduction and the NTT stage split)."""

from __future__ import annotations

import numpy as np

from pqkit import arith
from pqkit.arith import numpy_mlkem
from pqkit.arith.tables import MLKEM_Q as Q


def test_basemul_acc_is_ntt_multiplication(arith_backend: str) -> None:
    # The product of X and X^255 is X^256 = -1 in Z_q[X]/(X^256 + 1).
    K = arith.kernels("mlkem", arith_backend)
    x = np.zeros(256, dtype=np.int64)
    x[1] = 1
    y = np.zeros(256, dtype=np.int64)
    y[255] = 1
    prod = K.intt(K.basemul_acc(K.ntt(x)[None], K.ntt(y)[None]))
    want = np.zeros(256, dtype=np.int64)
    want[0] = Q - 1
    assert np.array_equal(prod, want)


def test_float_reduction_exact_at_the_edges() -> None:
    # Multiples of q and their neighbours up to the 2^43 bound of the NTT products.
    n = np.unique(np.concatenate([np.arange(0, 4096), np.geomspace(1, 2**43 / Q - 2, 4000)]))
    n = np.floor(n).astype(np.int64)
    x = np.concatenate([n * Q, n * Q + 1, n * Q + Q - 1, n[1:] * Q - 1])
    x = x[(x >= 0) & (x < 2**43)]
    got = numpy_mlkem._reduce_f64(x.astype(np.float64))
    assert np.array_equal(got, x % Q)
    # Barrett on int64 below 2^28, every residue class at the top of the range.
    y = np.concatenate([np.arange(0, 100_000), np.arange(2**28 - 100_000, 2**28)])
    assert np.array_equal(numpy_mlkem._barrett(y), y % Q)


def test_ntt_stage_split_is_exact() -> None:
    """The high layers (len 128..16) act on each low lane l with the same 16 x 16
    matrix, and the low layers (len 8..2) never mix different high indices h: the
    structure the numpy NTT's two matrix stages rely on, on all 256 unit vectors."""
    V = numpy_mlkem
    eye = np.eye(256, dtype=np.int64)
    high = eye.copy()
    nxt = V._ntt_layers(high, V.NTT_HIGH_LENGTHS, 1)
    low = eye.copy()
    V._ntt_layers(low, V.NTT_LOW_LENGTHS, nxt)
    idx = np.arange(16)
    for lane in range(16):
        block = high[16 * idx + lane][:, 16 * idx + lane]  # [h', h]
        assert np.array_equal(block.T.astype(np.float64), V._NTT_HIGH)
        others = np.delete(high[16 * idx + lane], 16 * idx + lane, axis=1)
        assert not others.any()
    for h in range(16):
        rows = low[16 * h : 16 * h + 16]
        assert not np.delete(rows, np.arange(16 * h, 16 * h + 16), axis=1).any()
