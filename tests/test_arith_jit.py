"""Internals of the ``jit`` (Numba) backend that the differential suite
(test_arith_differential.py, which runs ``jit`` against ``ref`` with every other
backend) does not reach: the boundary wrappers and the float reduction of the
ML-DSA NTT. Skipped as a whole where Numba is not installed."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba", reason="the jit arithmetic backend needs numba (pqkit[jit])")

from pqkit import arith
from pqkit.arith.api import kernel_names
from pqkit.mldsa.kernels.contract import MLDSAKernels
from pqkit.mldsa.kernels.tables import MLDSA_Q
from pqkit.mlkem.kernels.compose import COMPOSITES
from pqkit.mlkem.kernels.contract import MLKEMKernels
from pqkit.mlkem.kernels.tables import MLKEM_Q

JK = arith.kernels("mlkem", "jit")
RK = arith.kernels("mlkem", "ref")


def test_every_kernel_compiled() -> None:
    """jit has every kernel of its own, fused K-PKE included (measured faster than
    the composed one: benchmarks/arith_compose.py)."""
    from pqkit.mldsa.kernels import jit as jit_mldsa
    from pqkit.mlkem.kernels import jit as jit_mlkem

    # kpke_keygen is composed over the jit primitives: key generation on jit runs
    # the whole-operation kernel (arith/jit_mlkem_ops.py), not the kernel table.
    composed = frozenset({"kpke_keygen"})
    assert set(kernel_names(MLKEMKernels)) - composed == set(jit_mlkem.KERNELS)
    # ML-DSA's challenge products are composed over the jit primitives: signing on
    # jit runs the whole-operation kernel; they serve Dilithium-AES's step path.
    dsa_composed = frozenset({"challenge_prepare", "challenge_mul"})
    assert set(kernel_names(MLDSAKernels)) - dsa_composed == set(jit_mldsa.KERNELS)
    assert arith.kernels("mldsa", "jit").composed == dsa_composed
    assert JK.composed == composed
    for name in set(kernel_names(MLKEMKernels)) - composed:
        assert getattr(JK, name) is jit_mlkem.KERNELS[name]
    assert set(COMPOSITES) - composed <= set(jit_mlkem.KERNELS)


def test_kem_boundary() -> None:
    rng = np.random.default_rng(5)
    f = rng.integers(0, MLKEM_Q, (2, 3, 256))
    _same: Any = np.testing.assert_array_equal
    _same(JK.ntt(f.astype(np.int32)), RK.ntt(f))  # other integer dtypes are accepted
    ro = np.frombuffer(JK.byte_encode(f, 12).tobytes(), dtype=np.uint8).reshape(2, 3, 384)
    _same(JK.byte_decode(ro, 12), f)  # read-only input
    with pytest.raises(ValueError):
        JK.ntt(np.zeros(256, dtype=np.float64))
    with pytest.raises(ValueError):
        JK.basemul_acc(f, f, np.zeros((2, 2, 2, 256), dtype=np.int64))  # numpy's layout
    out = JK.ntt(f)
    out += 1  # results are fresh, writable arrays
    assert out.flags.writeable and out.dtype == np.int64


def test_dsa_float_reduction_at_the_edges() -> None:
    from pqkit.mldsa.kernels.jit import _reduce_f64

    # Integers around multiples of q and half-multiples, up to the 2^50 of the NTT.
    q = MLDSA_Q
    k = np.unique(np.concatenate([np.arange(0, 2000), np.geomspace(1, 2**50 / q, 3000)]))
    k = np.floor(k).astype(np.int64)
    half = (q - 1) // 2
    x = np.concatenate([k * q + d for d in (0, 1, -1, half, half + 1, -half, -half - 1)])
    x = np.concatenate([x, -x])
    x = x[np.abs(x) < 2**50]
    got = np.array([_reduce_f64(float(v)) for v in x.tolist()])
    assert np.all(got == np.round(got))
    r = got.astype(np.int64)
    assert np.all((r - x) % q == 0)
    assert np.all(np.abs(r) <= half + 4)


@pytest.mark.parametrize("rows", [7, 8, 9, 24])
def test_kem_ntts_in_lock_step_equal_the_reference(rows: int) -> None:
    """From 8 rows on the ML-KEM NTTs transform the rows in lock-step (a transposed
    loop); below, row by row. Both give ref's rows, at the extremes too (every
    coefficient q - 1 or 0, alternating q // 2 and q // 2 + 1)."""
    rng = np.random.default_rng(rows)
    f = rng.integers(0, MLKEM_Q, (rows, 256))
    f[0] = MLKEM_Q - 1
    f[1] = 0
    f[2, ::2] = MLKEM_Q // 2
    f[2, 1::2] = MLKEM_Q // 2 + 1
    np.testing.assert_array_equal(JK.ntt(f), RK.ntt(f))
    np.testing.assert_array_equal(JK.intt(f), RK.intt(f))
    np.testing.assert_array_equal(JK.intt(JK.ntt(f)), f)


def test_put_copies_into_a_slice_and_checks_the_length() -> None:
    """``_jit.put``, the loop the compiled kernels copy with instead of slice
    assignment (compile time: docs/decisions.md, "Compile time, third round")."""
    from pqkit.arith._jit import put

    dst = np.zeros(10, dtype=np.uint8)
    src = np.arange(1, 5, dtype=np.uint8)
    put(dst[3:7], src)
    assert dst.tolist() == [0, 0, 0, 1, 2, 3, 4, 0, 0, 0]
    assert src.tolist() == [1, 2, 3, 4]  # the source is not modified
    with pytest.raises(ValueError, match="put: the arrays differ in length"):
        put(dst[3:6], src)


def _dsa_extremes(rows: int, seed: int) -> Any:
    """Canonical ML-DSA rows with the extremes: all q - 1, all 0, alternating q // 2
    and q // 2 + 1, the rest random."""
    q = MLDSA_Q
    f = np.random.default_rng(seed).integers(0, q, (rows, 256))
    f[0] = q - 1
    f[1] = 0
    f[2, ::2] = q // 2
    f[2, 1::2] = q // 2 + 1
    return f


@pytest.mark.parametrize("rows", [3, 8, 17])
def test_dsa_ntts_with_merged_layers_equal_the_reference(rows: int) -> None:
    """The ML-DSA NTTs run three layers a pass, the short ones on a transposed
    block (docs/decisions.md, "Issue 26: ML-DSA signing"): ref's results, for
    canonical rows and for the signed (-q, q) rows signing transforms."""
    dk, rk = arith.kernels("mldsa", "jit"), arith.kernels("mldsa", "ref")
    f = _dsa_extremes(rows, rows)
    signed = f.copy()
    signed[1] = -(MLDSA_Q - 1)
    signed[3:] -= MLDSA_Q // 2
    np.testing.assert_array_equal(dk.ntt(f), rk.ntt(f))
    np.testing.assert_array_equal(dk.ntt(signed), rk.ntt(signed % MLDSA_Q))
    np.testing.assert_array_equal(dk.intt(f), rk.intt(f))
    np.testing.assert_array_equal(dk.intt(dk.ntt(signed)), signed % MLDSA_Q)


@pytest.mark.parametrize(("k", "l"), [(4, 4), (6, 5), (8, 7)])
def test_dsa_products_fused_with_the_inverse_ntt_equal_the_reference(k: int, l: int) -> None:  # noqa: E741
    """``_mat_vec_intt``, ``_mat_vec_sub_intt`` and ``_mul_intt`` (the products
    reduced as they enter the inverse transform) give ref's NTT^-1(A o v),
    NTT^-1(A o v - t o c) and NTT^-1(a o c), extremes included."""
    from pqkit.mldsa.kernels.jit import _mat_vec_intt, _mat_vec_sub_intt, _mul_intt

    rk = arith.kernels("mldsa", "ref")
    a = _dsa_extremes(k * l, k).reshape(k, l, 256)
    v = _dsa_extremes(l, l)
    np.testing.assert_array_equal(_mat_vec_intt(a, v), rk.intt(rk.pointwise_acc(a, v[None])))
    t = _dsa_extremes(k, k + 1)
    c_t = (rk.pointwise_acc(a, v[None]) - rk.pointwise_mul(t, v[0][None])) % MLDSA_Q
    np.testing.assert_array_equal(_mat_vec_sub_intt(a, v, t, v[0].copy()), rk.intt(c_t))
    c = v[0].copy()
    rows = a.reshape(-1, 256)
    np.testing.assert_array_equal(_mul_intt(rows, c), rk.intt(rk.pointwise_mul(rows, c[None])))


def test_dsa_norm_check_flags_exactly_the_bound() -> None:
    """``_norm_at_least(a, bound)`` is ``||a||_inf >= bound`` (FIPS 204 §2.3) for flat
    inputs in (-q, q), at the bound and one below, positive and negative."""
    from pqkit.mldsa.kernels.jit import _norm_at_least

    q = MLDSA_Q
    for bound in (1, 2**17 - 39 * 2, (q - 1) // 88, (q - 1) // 2):
        for x in (bound - 1, bound, -(bound - 1), -bound, q - bound, q - bound + 1):
            a = np.zeros(256 * 3, dtype=np.int64)
            a[517] = x
            centred = ((x % q) + (q - 1) // 2) % q - (q - 1) // 2
            assert _norm_at_least(a, bound) == int(abs(centred) >= bound), (bound, x)


def test_dsa_transforms_in_the_signing_order_p() -> None:
    """Signing keeps NTT-domain values in the order P (no transposes around the
    short layers): ``_ntt_p`` is ``_to_p`` of the NTT, and the fused inverse
    transforms read P and give the standard results."""
    from pqkit.mldsa.kernels.jit import (
        _mat_vec_intt,
        _mat_vec_intt_p,
        _mul_intt,
        _mul_intt_p,
        _ntt,
        _ntt_p,
        _to_p,
    )

    f = _dsa_extremes(11, 3)
    p = _to_p(f)
    assert sorted(p[3].tolist()) == sorted(f[3].tolist())  # a permutation of each row
    assert not np.array_equal(p[3], f[3])
    np.testing.assert_array_equal(_ntt_p(f), _to_p(_ntt(f)))
    np.testing.assert_array_equal(_mul_intt_p(p, p[5]), _mul_intt(f, f[5]))
    a = f[:10].reshape(2, 5, 256)
    a_p = p[:10].reshape(2, 5, 256)
    np.testing.assert_array_equal(_mat_vec_intt_p(a_p, p[5:10]), _mat_vec_intt(a, f[5:10]))
