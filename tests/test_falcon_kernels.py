"""Falcon's kernels: every fast backend against the ``ref`` oracle, bit for bit
(the floating-point kernels in particular: the same IEEE-754 binary64 operations
in the reference's order), whole signatures identical on every backend, and the
FFT roots table against its definition."""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import numpy as np
import pytest
from helpers import FAST_BACKENDS

import pqkit
from pqkit import arith
from pqkit.common import CtrDrbg
from pqkit.falcon.kernels import scalar
from pqkit.falcon.kernels.tables import GM, SIGMA_MIN, Q
from pqkit.falcon.prng import ChaChaPrng

SIZES = (2, 4, 16, 64, 512, 1024)


@cache
def _table(backend: str) -> Any:
    return arith.kernels("falcon", backend)


def _same(a: Any, b: Any) -> bool:
    """Bitwise equality of float arrays (so -0.0 != 0.0 and NaN == NaN)."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    return a.shape == b.shape and a.tobytes() == b.tobytes()


def _reals(rng: np.random.Generator, n: int, scale: float = 1e3) -> Any:
    return rng.normal(size=n) * scale


@pytest.mark.parametrize("backend", FAST_BACKENDS)
@pytest.mark.parametrize("n", SIZES)
def test_float_kernels_match_ref(backend: str, n: int) -> None:
    fast, ref = _table(backend), _table("ref")
    rng = np.random.default_rng(n)
    for _ in range(3):
        a, b = _reals(rng, n), _reals(rng, n, 1e-3)
        for name in ("fft", "ifft", "poly_neg", "poly_mulselfadj"):
            assert _same(getattr(fast, name)(a), getattr(ref, name)(a)), name
        for name in ("poly_add", "poly_mul", "poly_muladj"):
            assert _same(getattr(fast, name)(a, b), getattr(ref, name)(a, b)), name
        assert _same(fast.poly_mulconst(a, 1 / 12289), ref.poly_mulconst(a, 1 / 12289))
        assert _same(fast.ifft(fast.fft(a)), ref.ifft(ref.fft(a)))


@pytest.mark.parametrize("backend", FAST_BACKENDS)
@pytest.mark.parametrize("n", (512, 1024))
def test_ntt_kernels_match_ref(backend: str, n: int) -> None:
    fast, ref = _table(backend), _table("ref")
    rng = np.random.default_rng(7)
    for a, b in (
        (rng.integers(0, Q, n), rng.integers(0, Q, n)),
        (np.full(n, Q - 1), np.full(n, Q - 1)),
        (np.zeros(n, dtype=np.int64), rng.integers(0, Q, n)),
    ):
        assert np.array_equal(fast.ntt_mul(a, b), ref.ntt_mul(a, b))
        got, ok = fast.ntt_div(a, b)
        want, want_ok = ref.ntt_div(a, b)
        assert ok == want_ok
        if want_ok:
            assert np.array_equal(got, want)
            assert np.array_equal(ref.ntt_mul(got, b), a % Q)
    # the zero polynomial is not invertible
    assert fast.ntt_div(np.ones(n, dtype=np.int64), np.zeros(n, dtype=np.int64))[1] is False


def _gram(k: Any, logn: int) -> tuple[Any, ...]:
    """The target and Gram matrix of a real key, built as signing builds them
    (Sign, §3.10, Algorithm 10 lines 2-5)."""
    from pqkit.falcon import core
    from pqkit.falcon.kernels.tables import INV_Q

    s = pqkit.sig("Falcon-512" if logn == 9 else "Falcon-1024")
    f, g, F, G = s._secret(s.keygen_derand(bytes(range(48)))[1])  # type: ignore[attr-defined]
    hm = core.hash_to_point(bytes(40), b"message", 1 << logn)
    b00 = k.fft(g.astype(np.float64))
    b01 = k.poly_neg(k.fft(f.astype(np.float64)))
    b10 = k.fft(G.astype(np.float64))
    b11 = k.poly_neg(k.fft(F.astype(np.float64)))
    g00 = k.poly_add(k.poly_mulselfadj(b00), k.poly_mulselfadj(b01))
    g01 = k.poly_add(k.poly_muladj(b01, b11), k.poly_muladj(b00, b10))
    g11 = k.poly_add(k.poly_mulselfadj(b10), k.poly_mulselfadj(b11))
    th = k.fft(hm.astype(np.float64))
    t1 = k.poly_mulconst(k.poly_mul(th, b01), -INV_Q)
    t0 = k.poly_mulconst(k.poly_mul(th, b11), INV_Q)
    return t0, t1, g00, g01, g11


@pytest.mark.parametrize("backend", ("numpy", "jit"))
def test_ff_sampling_refuses_an_unknown_logn(backend: str) -> None:
    args = _gram(_table("ref"), 9)
    with pytest.raises(ValueError, match="logn must be 9 or 10, got 8"):
        _table(backend).ff_sampling(ChaChaPrng(bytes(56)), args[:2], args[2:], 8, 1.0)


@pytest.mark.parametrize("backend", FAST_BACKENDS)
@pytest.mark.parametrize("logn", (9, 10))
def test_ff_sampling_matches_ref(backend: str, logn: int) -> None:
    fast, ref = _table(backend), _table("ref")
    args = _gram(ref, logn)
    for seed in (bytes(56), bytes(range(56)), b"\xff" * 56):  # the last: counter wraps
        p_fast, p_ref = ChaChaPrng(seed), ChaChaPrng(seed)
        z_fast = fast.ff_sampling(p_fast, args[:2], args[2:], logn, SIGMA_MIN[logn])
        z_ref = ref.ff_sampling(p_ref, args[:2], args[2:], logn, SIGMA_MIN[logn])
        assert _same(z_fast[0], z_ref[0]) and _same(z_fast[1], z_ref[1])
        # the generator's state came back: the next draws agree
        assert [p_fast.u8() for _ in range(600)] == [p_ref.u8() for _ in range(600)]
        assert p_fast.u64() == p_ref.u64()


@cache
def _signature(name: str, backend: str) -> bytes:
    s = pqkit.sig(name).using(arith=backend)
    _pk, sk = s.keygen_derand(bytes(range(48)))
    return s.sign(sk, b"same bits", rng=CtrDrbg(bytes(48)))


@pytest.mark.parametrize("backend", FAST_BACKENDS)
@pytest.mark.parametrize("name", ["Falcon-512", "Falcon-1024", "Falcon-padded-512"])
def test_signatures_are_bit_identical(backend: str, name: str) -> None:
    assert _signature(name, backend) == _signature(name, "ref")


@pytest.mark.skipif("jit" not in FAST_BACKENDS, reason="Numba is not installed")
@pytest.mark.parametrize("name", ["Falcon-512", "Falcon-1024"])
def test_numpy_and_compiled_signatures_are_bit_identical(name: str) -> None:
    s_np = pqkit.sig(name).using(arith="numpy")
    s_jit = pqkit.sig(name).using(arith="jit")
    pk, sk = s_np.keygen_derand(bytes(48))
    for i in range(3):
        seed = bytes([i]) * 48
        a = s_np.sign(sk, b"m%d" % i, rng=CtrDrbg(seed))
        b = s_jit.sign(sk, b"m%d" % i, rng=CtrDrbg(seed))
        assert a == b and s_jit.verify(pk, b"m%d" % i, a)


def test_fft_roots_are_the_definition() -> None:
    # entry k (2^j <= k < 2^(j+1)) is exp(i pi (2 rev_j(k - 2^j) + 1) / 2^(j+1))
    for k in range(1, 1024):
        j = k.bit_length() - 1
        rev = int(format(k - (1 << j), f"0{j}b")[::-1], 2) if j else 0
        angle = math.pi * (2 * rev + 1) / (1 << (j + 1))
        re, im = GM[k]
        assert abs(re - math.cos(angle)) <= 2 * math.ulp(1.0)
        assert abs(im - math.sin(angle)) <= 2 * math.ulp(1.0)


def test_scalar_fft_inverts() -> None:
    a = [float(v) for v in np.random.default_rng(3).integers(-100, 100, 512)]
    back = scalar.ifft(scalar.fft(a))
    assert max(abs(x - y) for x, y in zip(a, back, strict=True)) < 1e-9
