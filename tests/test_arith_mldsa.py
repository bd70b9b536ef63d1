"""Differential tests of the ML-DSA kernels: every ``numpy`` kernel against its
``ref`` twin, on edge inputs and Hypothesis-drawn ones, plus the tables and
identities the kernels rest on."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pqkit import arith
from pqkit.arith import numpy_mldsa, ref_mldsa
from pqkit.arith.api import MLDSAKernels, kernel_names
from pqkit.arith.ref_mldsa import ZETAS, Q

REF = arith.kernels("mldsa", "ref")
NP = arith.kernels("mldsa", "numpy")
GAMMA2 = ((Q - 1) // 88, (Q - 1) // 32)

_EDGES = np.array(
    [0, 1, 2, Q - 1, Q - 2, (Q - 1) // 2, (Q + 1) // 2, 4095, 4096, 4097, 8191, 8192]
    + [g + d for g in (95232, 261888, 190464, 523776) for d in (-1, 0, 1)]
    + [Q - 1 - g + d for g in (95232, 261888) for d in (-1, 0, 1)],
    dtype=np.int64,
)


def _poly(data: list[int]) -> npt.NDArray[np.int64]:
    arr = np.array((data * (256 // len(data) + 1))[:256], dtype=np.int64)
    return arr


canonical = st.lists(st.integers(0, Q - 1), min_size=1, max_size=256).map(_poly)
signed = st.lists(st.integers(-(Q - 1), Q - 1), min_size=1, max_size=256).map(_poly)


def _edge_polys() -> npt.NDArray[np.int64]:
    rng = np.random.default_rng(204)
    rows = [_poly(_EDGES.tolist()), np.zeros(256, np.int64), np.full(256, Q - 1, np.int64)]
    rows.append(rng.integers(0, Q, 256))
    return np.stack(rows)


def test_every_kernel_in_both_backends() -> None:
    names = kernel_names(MLDSAKernels)
    assert set(names) <= set(ref_mldsa.KERNELS)
    assert set(names) <= set(numpy_mldsa.KERNELS)
    assert NP.backend == "numpy" and REF.backend == "ref"


def test_zetas_from_definition() -> None:
    # zeta = 1753 is a primitive 512th root of unity mod q (FIPS 204 §2.5)
    assert pow(1753, 256, Q) == Q - 1
    assert ZETAS[0] == 1 and ZETAS[1] == 4808194  # FIPS 204, Appendix B
    assert ZETAS[2:4] == (3765607, 3761513)
    assert len(set(ZETAS)) == 256


def test_ntt_is_a_ring_map() -> None:
    # NTT^-1(NTT(a) ∘ NTT(b)) is the negacyclic product a * b mod (X^256 + 1)
    rng = np.random.default_rng(1)
    a, b = rng.integers(0, Q, 256), rng.integers(-5, 6, 256)
    full = np.zeros(512, dtype=object)
    for i in range(256):
        full[i : i + 256] += int(a[i]) * b.astype(object)
    expected = np.array([(full[i] - full[i + 256]) % Q for i in range(256)], dtype=np.int64)
    for k in (REF, NP):
        got = k.intt(k.pointwise_mul(k.ntt(a), k.ntt(b)))
        assert (got == expected).all()


@pytest.mark.parametrize("name", ["ntt", "intt"])
def test_transforms_edges(name: str) -> None:
    x = _edge_polys()
    for inp in (x, x - (Q - 1), -x):
        assert (getattr(NP, name)(inp) == getattr(REF, name)(inp)).all()


@settings(max_examples=30, deadline=None)
@given(signed)
def test_ntt_hypothesis(a: npt.NDArray[np.int64]) -> None:
    assert (NP.ntt(a) == REF.ntt(a)).all()
    assert (NP.intt(a) == REF.intt(a)).all()
    assert (NP.intt(NP.ntt(a)) == a % Q).all()


@settings(max_examples=30, deadline=None)
@given(canonical, canonical)
def test_pointwise_hypothesis(a: npt.NDArray[np.int64], b: npt.NDArray[np.int64]) -> None:
    assert (NP.pointwise_mul(a, b) == REF.pointwise_mul(a, b)).all()
    m = np.stack([a, b, a, b, a, b, a])  # l = 7, the largest FIPS 204 matrix width
    v = np.stack([b, a, b, a, b, a, b])
    assert (NP.pointwise_acc(m, v) == REF.pointwise_acc(m, v)).all()


def test_pointwise_edges() -> None:
    x = _edge_polys()
    full = np.full((7, 256), Q - 1, dtype=np.int64)
    assert (NP.pointwise_acc(full, full) == REF.pointwise_acc(full, full)).all()
    assert (NP.pointwise_mul(x, x[::-1]) == REF.pointwise_mul(x, x[::-1])).all()


def test_rounding_exhaustive_sample() -> None:
    # every r in a band around each rounding boundary, plus a stride over [0, q)
    r = np.unique(
        np.concatenate(
            [np.arange(0, Q, 997), np.arange(Q - 3000, Q)]
            + [np.arange(max(0, c - 300), min(Q, c + 300)) for c in _EDGES]
        )
    )
    r = r[: len(r) // 256 * 256].reshape(-1, 256)
    for got, want in zip(NP.power2round(r), REF.power2round(r), strict=True):
        assert (got == want).all()
    for g2 in GAMMA2:
        for got, want in zip(NP.decompose(r, g2), REF.decompose(r, g2), strict=True):
            assert (got == want).all()
        for hint in (np.zeros_like(r), np.ones_like(r)):
            assert (NP.use_hint(hint, r, g2) == REF.use_hint(hint, r, g2)).all()
        z = np.roll(r, 1, axis=-1)
        assert (NP.make_hint(z, r, g2) == REF.make_hint(z, r, g2)).all()
        small = (r % 600).astype(np.int64)
        assert (NP.make_hint(small, r, g2) == REF.make_hint(small, r, g2)).all()


def test_cctv_worked_example() -> None:
    # CCTV's worked example of the field-operation test, r = 6 010 000
    r = np.full((1, 256), 6010000, dtype=np.int64)
    for k in (REF, NP):
        r1, r0 = k.power2round(r)
        assert (int(r1[0, 0]), int(r0[0, 0]) % Q) == (734, 8377489)
        assert int(k.decompose(r, (Q - 1) // 88)[0][0, 0]) == 32
        assert int(k.use_hint(np.ones_like(r), r, (Q - 1) // 88)[0, 0]) == 31
        assert int(k.decompose(r, (Q - 1) // 88)[1][0, 0]) == -84848
        assert int(k.decompose(r, (Q - 1) // 32)[0][0, 0]) == 11
        assert int(k.use_hint(np.ones_like(r), r, (Q - 1) // 32)[0, 0]) == 12
        assert int(k.decompose(r, (Q - 1) // 32)[1][0, 0]) == 248464
        assert int(k.infinity_norm(r)[0]) == 2370417


@settings(max_examples=30, deadline=None)
@given(signed)
def test_norm_hypothesis(a: npt.NDArray[np.int64]) -> None:
    assert (NP.infinity_norm(a) == REF.infinity_norm(a)).all()
    assert (NP.infinity_norm(a % Q) == REF.infinity_norm(a)).all()


@settings(max_examples=40, deadline=None)
@given(st.binary(min_size=0, max_size=900))
def test_rej_uniform_hypothesis(data: bytes) -> None:
    buf = np.frombuffer(data[: len(data) // 3 * 3], dtype=np.uint8)[None]
    _check_pair(NP.rej_uniform(buf), REF.rej_uniform(buf))


def test_rej_uniform_edges() -> None:
    # candidates q - 1 (accepted), q (rejected), 2^23 - 1 (rejected), top bit set
    cands = [Q - 1, Q, (1 << 23) - 1, 0, 1 | (1 << 23)]
    data = b"".join(c.to_bytes(3, "little") for c in cands * 60)
    buf = np.frombuffer(data, dtype=np.uint8)[None]
    _check_pair(NP.rej_uniform(buf), REF.rej_uniform(buf))


@pytest.mark.parametrize("eta", [2, 4])
@settings(max_examples=30, deadline=None)
@given(data=st.binary(min_size=0, max_size=300))
def test_rej_bounded_hypothesis(eta: int, data: bytes) -> None:
    buf = np.frombuffer(data, dtype=np.uint8)[None]
    _check_pair(NP.rej_bounded(buf, eta), REF.rej_bounded(buf, eta))


@pytest.mark.parametrize("eta", [2, 4])
def test_rej_bounded_edges(eta: int) -> None:
    buf = np.arange(256, dtype=np.uint8).reshape(2, 128)
    _check_pair(NP.rej_bounded(buf, eta), REF.rej_bounded(buf, eta))


@pytest.mark.parametrize("tau", [39, 49, 60])
@settings(max_examples=20, deadline=None)
@given(data=st.binary(min_size=0, max_size=200))
def test_sample_in_ball_hypothesis(tau: int, data: bytes) -> None:
    buf = np.frombuffer(data, dtype=np.uint8)[None]
    got, want = NP.sample_in_ball(buf, tau), REF.sample_in_ball(buf, tau)
    assert (got[1] == want[1]).all()
    if want[1].all():
        assert (got[0] == want[0]).all()
        assert int(np.abs(got[0]).sum()) == tau


@pytest.mark.parametrize("width", [3, 4, 6, 10, 13, 18, 20])
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_bit_packing_hypothesis(width: int, data: Any) -> None:
    values = data.draw(st.lists(st.integers(0, (1 << width) - 1), min_size=1, max_size=256))
    a = _poly(values)
    packed = NP.bit_pack(a, width)
    assert packed.tobytes() == REF.bit_pack(a, width).tobytes()
    assert (NP.bit_unpack(packed, width) == a).all()
    assert (REF.bit_unpack(packed, width) == a).all()


def test_batch_axes() -> None:
    rng = np.random.default_rng(3)
    x = rng.integers(0, Q, (2, 3, 256))
    for name in ("ntt", "intt"):
        assert getattr(NP, name)(x).shape == (2, 3, 256)
        assert (getattr(NP, name)(x)[1, 2] == getattr(REF, name)(x[1, 2])).all()
    m = rng.integers(0, Q, (2, 4, 3, 256))
    v = rng.integers(0, Q, (2, 1, 3, 256))
    assert (NP.pointwise_acc(m, v) == REF.pointwise_acc(m, v)).all()
    assert NP.infinity_norm(x).shape == (2, 3)


def test_inputs_not_modified() -> None:
    x = _edge_polys()
    keep = x.copy()
    for k in (NP, REF):
        k.ntt(x), k.intt(x), k.power2round(x), k.decompose(x, GAMMA2[0])
        k.make_hint(x, x, GAMMA2[1]), k.use_hint(x & 1, x, GAMMA2[1]), k.infinity_norm(x)
        assert (x == keep).all()


def _check_pair(got: tuple[Any, Any], want: tuple[Any, Any]) -> None:
    assert (got[1] == want[1]).all()
    assert (got[0] == want[0]).all()
