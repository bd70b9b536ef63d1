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


def test_decrypt_columns_equal_the_int64_kernel() -> None:
    from pqkit.mlkem.kernels import jit, jit_cols32

    k, g = 3, 8
    rng = np.random.default_rng(7)
    s = rng.integers(0, Q, size=(256, g * k), dtype=np.int64)
    u = rng.integers(0, Q, size=(256, g * k), dtype=np.int64)  # decompressed: below q
    u[:, 0] = Q - 1
    want = np.empty((256, g), dtype=np.int64)
    jit._decrypt_cols(s, u.copy(), want, k)
    got = jit_cols32._decrypt_cols32(s, u, k)
    assert (got == want).all()


@pytest.mark.parametrize("g", [8, 16])
def test_basemul_columns_equal_the_row_kernel(g: int) -> None:
    import numba

    from pqkit.mlkem.kernels import jit
    from pqkit.mlkem.kernels.jit_cols32 import (
        _barrett_cols32,
        _basemul_cols32,
        _mulcache_cols32,
    )

    @numba.njit
    def products(x: np.ndarray, y: np.ndarray, k: int, g: int) -> np.ndarray:
        z = _mulcache_cols32(y)
        acc = np.zeros((256, g), dtype=np.int32)
        for j in range(k):
            _basemul_cols32(acc, 0, x, g * j, y, z, g * j, g)
        _barrett_cols32(acc)
        return acc

    k = 4  # the most terms summed: the int32 bound
    rng = np.random.default_rng(g)
    a = rng.integers(0, Q, size=(g, k, 256), dtype=np.int64)
    b = rng.integers(0, Q, size=(g, k, 256), dtype=np.int64)
    a[0] = Q - 1
    b[0] = Q - 1
    cols = lambda v: np.ascontiguousarray(v.transpose(2, 1, 0).reshape(256, k * g), np.int32)  # noqa: E731
    got = products(cols(a), cols(b), k, g)
    for i in range(g):
        want = jit.basemul_acc(a[i], b[i])
        assert (got[:, i] == want).all()


@pytest.mark.parametrize(("items", "k"), [(16, 3), (5, 2), (1, 4)])
def test_matrix_columns_equal_the_single_operations_sampler(items: int, k: int) -> None:
    from pqkit.mlkem.kernels import jit_batch, jit_ops

    rng = np.random.default_rng(items + k)
    rhos = rng.integers(0, 256, size=(items, 32), dtype=np.uint8)
    got = jit_batch._matrix_cols(rhos, k)
    assert got.shape == (256, 16 * k * k) and got.dtype == np.int32
    for i in range(16):
        want = jit_ops._sample_matrix(rhos[min(i, items - 1)].copy(), k).reshape(k * k, 256)
        for e in range(k * k):
            assert (got[:, 16 * e + i] == want[e]).all()
