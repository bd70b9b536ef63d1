"""The int32 column kernels of the ML-KEM batch operations
(pqkit.mlkem.kernels.jit_cols32) against the int64 ones of pqkit.mlkem.kernels.jit
and the ref backend: the same values, value for value, on random and extreme
columns (the end-to-end rows are compared in test_batch_jit.py)."""

from __future__ import annotations

import numpy as np
import pytest

from pqkit import arith

pytestmark = pytest.mark.skipif(
    "jit" not in arith.available("mlkem"), reason="numba (the jit extra) not installed"
)

Q = 3329


def _columns(cols: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)  # test data only
    w = rng.integers(0, Q, size=(256, cols), dtype=np.int64)
    w[:, 0] = Q - 1  # the largest canonical value
    w[:, 1] = 0
    return w


@pytest.mark.parametrize("cols", [3, 8, 24, 37])
def test_ntt_and_inverse_equal_the_int64_kernels(cols: int) -> None:
    from pqkit.mlkem.kernels import jit, jit_cols32, ref

    w = _columns(cols, cols)
    want = w.copy()
    jit._ntt_cols(want)
    got = w.astype(np.int32)
    jit_cols32._ntt_cols32(got)
    assert got.dtype == np.int32
    assert (got == want).all()
    assert (got < 8 * Q).all() and (got >= 0).all()
    # and the transform itself, reduced, is FIPS 203's NTT (ref)
    assert (got[:, 2] % Q == ref.ntt(w[:, 2].copy()) % Q).all()

    want = w.copy()
    jit._intt_cols(want)
    got = w.astype(np.int32)
    jit_cols32._intt_cols32(got)
    assert (got == want).all()
    assert (got[:, 2] == ref.intt(w[:, 2].copy())).all()


@pytest.mark.parametrize("eta", [2, 3])
@pytest.mark.parametrize("items", [8, 5])
def test_cbd_columns_equal_the_row_kernel(eta: int, items: int) -> None:
    import numba

    from pqkit.mlkem.kernels import jit as kernels
    from pqkit.mlkem.kernels.jit_cols32 import _cbd_cols32

    @numba.njit
    def sample(buf: np.ndarray, first: int, count: int, eta: int) -> np.ndarray:
        out = np.zeros((256, 8 * count), dtype=np.int32)
        _cbd_cols32(buf, first, count, eta, out)
        return out

    rng = np.random.default_rng(eta + items)
    buf = rng.integers(0, 256, size=(items, 5, 64 * eta), dtype=np.uint8)
    got = sample(buf, 1, 3, eta)
    for j in range(3):
        for i in range(8):
            want = kernels.cbd(buf[min(i, items - 1), 1 + j], eta)
            assert (got[:, 8 * j + i] == want).all()


def _cols(v: np.ndarray) -> np.ndarray:
    """(items, polys, 256) -> int32 columns (256, 16 polys), column 16 j + i item
    i's polynomial j."""
    g, polys, _ = v.shape
    return np.ascontiguousarray(v.transpose(2, 1, 0).reshape(256, polys * g), np.int32)


@pytest.mark.parametrize("k", [2, 3, 4])
def test_matvec_columns_equal_the_row_kernel(k: int) -> None:
    from pqkit.mlkem.kernels import jit
    from pqkit.mlkem.kernels.jit_cols32 import _matvec_cols32, _mulcache_cols32

    g = 16
    rng = np.random.default_rng(k)
    a = rng.integers(0, Q, size=(g, k * k, 256), dtype=np.int64)  # entry r k + c: A[r, c]
    t = rng.integers(0, Q, size=(g, k, 256), dtype=np.int64)
    y = rng.integers(0, Q, size=(g, k, 256), dtype=np.int64)
    a[0] = Q - 1  # the largest terms: k = 4 is the int32 bound
    t[0] = Q - 1
    y[0] = Q - 1
    pub, ys = _cols(np.concatenate([a, t], axis=1)), _cols(y)
    z = _mulcache_cols32(ys)
    out = np.empty((256, g * (k + 1)), dtype=np.int32)
    _matvec_cols32(out, pub, ys, z, k, k)  # A^T y, then t^T y (encryption)
    plain = np.empty((256, g * k), dtype=np.int32)
    _matvec_cols32(plain, _cols(a), ys, z, k, 0)  # A y (key generation)
    dot = np.empty((256, g), dtype=np.int32)
    _matvec_cols32(dot, _cols(t), ys, z, k, 0)  # t^T y with k entries (decryption)
    for i in range(g):
        mat = a[i].reshape(k, k, 256)
        for o in range(k):
            want_t = jit.basemul_acc(mat[:, o], y[i])  # sum_j A[j, o] o y[j]
            want = jit.basemul_acc(mat[o], y[i])  # sum_j A[o, j] o y[j]
            assert (out[:, g * o + i] == want_t).all()
            assert (plain[:, g * o + i] == want).all()
        want_v = jit.basemul_acc(t[i], y[i])
        assert (out[:, g * k + i] == want_v).all()
        assert (dot[:, i] == want_v).all()


_SETS = [(2, 10, 4), (3, 10, 4), (4, 11, 5)]  # (k, du, dv) of ML-KEM-512 / 768 / 1024


@pytest.mark.parametrize(("k", "du", "dv"), _SETS)
def test_decrypt_group_equals_the_single_decrypt(k: int, du: int, dv: int) -> None:
    from pqkit.mlkem.kernels import jit
    from pqkit.mlkem.kernels.jit_cols32 import _decrypt_group

    rng = np.random.default_rng(k)
    n_c = 32 * (du * k + dv)
    dks = rng.integers(0, 256, size=(5, 384 * k), dtype=np.uint8)  # some values >= q
    dks[0] = 0xFF  # every 12-bit value 4095: reduced mod q
    dks[1] = 0  # s_hat = 0: m = Compress_1(v'), v' at Compress_1's edges 832 and 2497
    cs = rng.integers(0, 256, size=(7, n_c), dtype=np.uint8)
    cs[0] = 0xFF
    cs[1] = 0
    drows = np.array([0, 1, 2, 3, 4] * 3 + [4], dtype=np.int64)  # repeats, as spare lanes
    crows = np.array([0, 1, 2, 3, 4, 5, 6] * 2 + [6, 6], dtype=np.int64)
    m, cv = _decrypt_group(dks, drows, cs, crows, k, du, dv)
    assert m.shape == (16, 32) and cv.shape == (256, 16 * (k + 1)) and cv.dtype == np.int32
    for i in range(16):
        dk, c = dks[drows[i]], cs[crows[i]]
        assert m[i].tobytes() == jit._kpke_decrypt(dk, c, k, du, dv).tobytes()
        for j in range(k):
            want = jit.byte_decode(c[32 * du * j : 32 * du * (j + 1)], du)
            assert (cv[:, 16 * j + i] == want).all()
        assert (cv[:, 16 * k + i] == jit.byte_decode(c[32 * du * k :], dv)).all()


def test_equal_mask_flags_every_differing_item() -> None:
    from pqkit.mlkem.kernels.jit_cols32 import _equal_mask

    k = 3
    rng = np.random.default_rng(5)
    w = rng.integers(0, 1 << 11, size=(256, 16 * (k + 1)), dtype=np.int32)
    cv = w.copy()
    cv[255, 16 * k + 2] ^= 1  # item 2: the last value of v
    cv[0, 5] ^= 1 << 10  # item 5: the top bit of the first value of u[0]
    cv[128, 16 * 1 + 15] ^= 0x7FF  # item 15: every bit, u[1]
    got = _equal_mask(w, cv, 16)
    assert [int(x) for x in got] == [0 if i in (2, 5, 15) else 0xFF for i in range(16)]
    assert [int(x) for x in _equal_mask(w, cv, 4)] == [0xFF, 0xFF, 0, 0xFF]


@pytest.mark.parametrize(("items", "k"), [(16, 3), (5, 2), (1, 4)])
def test_matrix_columns_equal_the_single_operations_sampler(items: int, k: int) -> None:
    from pqkit.mlkem.kernels import jit_batch, jit_ops

    rng = np.random.default_rng(items + k)
    rhos = rng.integers(0, 256, size=(items, 32), dtype=np.uint8)
    got = jit_batch._matrix_cols(rhos, k, 1)  # one spare group after the entries
    assert got.shape == (256, 16 * (k * k + 1)) and got.dtype == np.int32
    for i in range(16):
        want = jit_ops._sample_matrix(rhos[min(i, items - 1)].copy(), k).reshape(k * k, 256)
        for e in range(k * k):
            assert (got[:, 16 * e + i] == want[e]).all()


def test_reduce_columns_is_exact_below_2_to_15() -> None:
    from pqkit.mlkem.kernels.jit_cols32 import _reduce_cols32

    w = np.arange(1 << 15, dtype=np.int32).reshape(256, 128)  # every NTT output value
    got = w.copy()
    _reduce_cols32(got)
    assert (got == w % Q).all()
