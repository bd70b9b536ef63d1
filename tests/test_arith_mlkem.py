"""Properties of the ML-KEM kernels beyond the differential suite
(test_arith_differential.py): a ring identity on every backend, and the internals
of the ``numpy`` backend (its float reduction and the NTT stage split)."""

from __future__ import annotations

import numpy as np
import pytest

from pqkit import arith
from pqkit.mlkem.kernels import numpy as numpy_mlkem
from pqkit.mlkem.kernels.tables import MLKEM_Q as Q


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
        # the table, built from 16 lane sums (start-up), is these unit vectors' images
        assert np.array_equal(rows[:, 16 * h : 16 * h + 16].astype(np.float64), V._NTT_LOW_T[h])
    inverse = eye.copy()
    V._intt_layers(inverse, V.NTT_LOW_LENGTHS[::-1], 127)
    for h in range(16):
        block = inverse[16 * h : 16 * h + 16, 16 * h : 16 * h + 16]
        assert np.array_equal(block.astype(np.float64), V._INTT_LOW_T[h])


@pytest.mark.parametrize(("du", "dv"), [(10, 4), (11, 5)])
def test_fused_compress_encode_exact_for_every_residue(du: int, dv: int) -> None:
    """The float Compress_du / Compress_dv + ByteEncode of the numpy K-PKE.Encrypt
    (nudged reciprocal, mod 2^d as an integer mask) on every x in [0, q), and on
    x + j q for the largest j its inputs reach (they are not reduced: below
    2^27.4), against the kernel table's own compress and byte_encode (checked
    against ref by the differential suite)."""
    K = arith.kernels("mlkem", "numpy")
    k = 3
    x = np.arange(4 * 16 * (k + 1) * 16, dtype=np.int64) % Q  # 4096 values: every residue
    top = (int(2**27.4) // Q - 1) * Q
    for block in x.reshape(4, 16 * (k + 1) * 16):
        natural = block.reshape(16, k + 1, 16).transpose(1, 0, 2).reshape(k + 1, 256)
        want = np.concatenate(
            [
                K.byte_encode(K.compress(natural[:k], du), du).reshape(-1),
                K.byte_encode(K.compress(natural[k], dv), dv),
            ]
        )
        for lift in (0, top):
            h_major = (block + lift).reshape(16, k + 1, 16).astype(np.float64)
            assert np.array_equal(numpy_mlkem._compress_encode(h_major, k, du, dv), want)


def test_decrypt_compress1_of_unreduced_sums() -> None:
    """The numpy K-PKE.Decrypt takes Compress_1 of x = w + 2 j q without reducing
    it: floor((4 x + q) / (2 q)) mod 2 by the nudged reciprocal, exact on all of
    [0, 2^28) (checked here in strides, and on every residue near both ends)."""
    inv = numpy_mlkem._INV2Q_NUDGED
    x = np.concatenate(
        [np.arange(0, 4 * Q), np.arange(0, 2**28, 997), np.arange(2**28 - 4 * Q, 2**28)]
    )
    t = x.astype(np.float64) * (4 * inv)
    t += Q * inv
    assert np.array_equal(t.astype(np.int64) & 1, ((4 * x + Q) // (2 * Q)) & 1)
    w = np.arange(Q)
    assert np.array_equal(((4 * w + Q) // (2 * Q)) & 1, (w >= 833) & (w <= 2496))
