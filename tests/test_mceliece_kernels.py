"""Classic McEliece's kernels: every fast backend against the ``ref`` oracle
(differential tests on real key-generation inputs, random inputs and edge cases),
and properties the oracle itself must have (the Benes network of the control bits
gives the support; decoding recovers the error vector)."""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import pytest
from helpers import FAST_BACKENDS
from hypothesis import given, settings
from hypothesis import strategies as st

from pqkit import arith, common
from pqkit.mceliece.kernels.tables import bitrev, exp_log, gf_mul_slow
from pqkit.mceliece.params import PARAMS, Params
from pqkit.mceliece.scheme import _le16

SMALL = ("Classic-McEliece-348864", "Classic-McEliece-348864f")
M13 = "Classic-McEliece-460896f"  # a 13-bit field, t = 96


def kernels(backend: str) -> Any:
    return arith.kernels("mceliece", backend)


REF = kernels("ref")


@cache
def expansion(name: str, seed: bytes = bytes(32)) -> tuple[Any, ...]:
    """The first key-generation attempt of delta = seed that passes Irreducible and
    FieldOrdering: (f, g, a, pi, H~) on ``ref``."""
    p = PARAMS[name]
    n8 = p.n // 8
    rlen = n8 + 4 * p.q + 2 * p.t + 32
    delta = seed
    while True:
        r = common.shake256_digest(b"\x40" + delta, rlen)
        delta = r[-32:]
        f = _le16(r[rlen - 32 - 2 * p.t :], p.t, p.m)
        g = REF.irreducible(p, f)
        a = np.frombuffer(r, dtype="<u4", count=p.q, offset=n8)
        pi = REF.field_ordering(p, a)
        if g is not None and pi is not None:
            return f, g, a, pi, REF.parity_check(p, g, pi)


def reduced(name: str) -> tuple[Params, Any, Any, Any]:
    """(params, g, H~, pi) of the first attempt whose H~ reduces (ref)."""
    p = PARAMS[name]
    for i in range(40):
        _, g, _, pi, h = expansion(name, bytes([i]) * 32)
        if REF.systematic(p, h, pi) is not None:
            return p, g, h, pi
    raise AssertionError("no attempt reduced")  # pragma: no cover


@pytest.fixture(params=FAST_BACKENDS)
def fast(request: pytest.FixtureRequest) -> Any:
    return kernels(request.param)


def test_the_tables_are_a_field() -> None:
    for p in (PARAMS[SMALL[0]], PARAMS[M13]):
        exp, log = exp_log(p.m, p.field_poly)
        assert all(exp[log[v]] == v for v in range(1, p.q))
        assert len(set(exp[: p.q - 1])) == p.q - 1  # a generator of the unit group
        assert gf_mul_slow(exp[1], exp[5], p.m, p.field_poly) == exp[6]
        assert bitrev(1, p.m) == 1 << (p.m - 1)


@pytest.mark.parametrize("name", [*SMALL, M13])
def test_irreducible_matches_ref(fast: Any, name: str) -> None:
    p = PARAMS[name]
    f = expansion(name)[0]
    assert np.array_equal(fast.irreducible(p, f), REF.irreducible(p, f))
    # beta in GF(2^m) itself: its minimal polynomial has degree 1, not t
    flat = np.zeros(p.t, dtype=np.uint16)
    flat[0] = 5
    assert REF.irreducible(p, flat) is None
    assert fast.irreducible(p, flat) is None


@pytest.mark.parametrize("name", [SMALL[0], M13])
def test_field_ordering_matches_ref(fast: Any, name: str) -> None:
    p = PARAMS[name]
    a = expansion(name)[2]
    assert np.array_equal(fast.field_ordering(p, a), REF.field_ordering(p, a))
    dup = np.array(a, dtype=np.uint32)
    dup[7] = dup[1000]
    assert REF.field_ordering(p, dup) is None
    assert fast.field_ordering(p, dup) is None


@pytest.mark.parametrize("name", [SMALL[0], M13])
def test_parity_check_matches_ref(fast: Any, name: str) -> None:
    p = PARAMS[name]
    _, g, _, pi, h = expansion(name)
    assert np.array_equal(fast.parity_check(p, g, pi), h)


@pytest.mark.parametrize("name", SMALL)
def test_systematic_matches_ref(fast: Any, name: str) -> None:
    p, _, h, pi = reduced(name)
    want = REF.systematic(p, h, pi)
    got = fast.systematic(p, h, pi)
    assert want is not None and got is not None
    assert np.array_equal(got[0], want[0])
    assert np.array_equal(got[1], want[1])
    assert got[2] == want[2]
    if p.semi:
        assert bin(want[2]).count("1") == 32
        assert not np.array_equal(want[1], pi) or want[2] == (1 << 32) - 1
    # a matrix whose first column is zero cannot be reduced
    broken = h.copy()
    broken[:, 0] &= ~np.uint64(1)
    assert REF.systematic(p, broken, pi) is None
    assert fast.systematic(p, broken, pi) is None


def test_semi_systematic_window_of_low_rank_fails(fast: Any) -> None:
    p, _, h, pi = reduced(SMALL[1])
    # the last 32 rows equal to the first: rank below 32 in the window
    broken = h.copy()
    broken[p.mt - 32 :] = broken[:32]
    assert REF.systematic(p, broken, pi) is None
    assert fast.systematic(p, broken, pi) is None


@pytest.mark.parametrize("name", [SMALL[0], M13])
def test_controlbits_match_ref_and_give_the_support(fast: Any, name: str) -> None:
    p = PARAMS[name]
    pi = expansion(name)[3]
    cb = REF.controlbits(p, pi)
    assert cb.shape == (p.cond_bytes,)
    assert np.array_equal(fast.controlbits(p, pi), cb)
    alpha = [bitrev(int(v), p.m) for v in pi[: p.n]]
    assert REF.support(p, cb).tolist() == alpha
    assert fast.support(p, cb).tolist() == alpha


@settings(max_examples=5, deadline=None)
@given(st.binary(min_size=1, max_size=32))
def test_controlbits_of_random_permutations(seed: bytes) -> None:
    p = PARAMS[SMALL[0]]
    keys = np.frombuffer(common.shake256_digest(seed, 4 * p.q), dtype="<u4")
    pi = sorted(range(p.q), key=lambda i: (int(keys[i]), i))
    cb = REF.controlbits(p, np.array(pi))
    for backend in FAST_BACKENDS:
        assert np.array_equal(kernels(backend).controlbits(p, np.array(pi)), cb)
    assert REF.support(p, cb).tolist() == [bitrev(v, p.m) for v in pi[: p.n]]


@settings(max_examples=10, deadline=None)
@given(st.binary(min_size=256, max_size=256), st.sampled_from([SMALL[0], M13]))
def test_fixed_weight_matches_ref(data: bytes, name: str) -> None:
    p = PARAMS[name]
    buf = np.frombuffer(common.shake256_digest(data, p.weight_bytes), dtype=np.uint8)
    want = REF.fixed_weight(p, buf)
    for backend in FAST_BACKENDS:
        got = kernels(backend).fixed_weight(p, buf)
        assert (got is None) == (want is None)
        if want is not None:
            assert np.array_equal(got, want)
            assert int(np.unpackbits(want).sum()) == p.t


def test_fixed_weight_rejects_repeats_and_short_draws(fast: Any) -> None:
    p = PARAMS[SMALL[0]]
    repeated = np.zeros(p.weight_bytes, dtype=np.uint8)  # every index 0
    high = np.full(p.weight_bytes, 0xFF, dtype=np.uint8)  # every index 4095 >= n
    for buf in (repeated, high):
        assert REF.fixed_weight(p, buf) is None
        assert fast.fixed_weight(p, buf) is None


def _weight_t(p: Params, seed: bytes) -> Any:
    buf = common.shake256_digest(seed, 4 * p.weight_bytes)
    for i in range(4):
        e = REF.fixed_weight(
            p, np.frombuffer(buf, dtype=np.uint8)[i * p.weight_bytes :][: p.weight_bytes]
        )
        if e is not None:
            return e
    raise AssertionError("no weight-t vector")  # pragma: no cover


@cache
def key_pair(name: str) -> tuple[bytes, bytes]:
    from pqkit import kem

    return tuple(kem(name).using(arith="ref").keygen_derand(bytes(32)))  # type: ignore[return-value]


@pytest.mark.parametrize("name", SMALL)
def test_encode_and_decode_match_ref(fast: Any, name: str) -> None:
    pk, sk = key_pair(name)
    p = PARAMS[name]
    g = _le16(sk[40:], p.t, p.m)
    cb = np.frombuffer(sk, dtype=np.uint8, count=p.cond_bytes, offset=40 + 2 * p.t)
    alpha = REF.support(p, cb)
    pkv = np.frombuffer(pk, dtype=np.uint8)
    e = _weight_t(p, name.encode())
    c = REF.encode(p, pkv, e)
    assert np.array_equal(fast.encode(p, pkv, e), c)
    s = REF.syndrome(p, g, alpha, np.concatenate([c, np.zeros(p.n // 8 - c.size, np.uint8)]))
    assert np.array_equal(
        fast.syndrome(p, g, alpha, np.concatenate([c, np.zeros(p.n // 8 - c.size, np.uint8)])), s
    )
    loc = REF.berlekamp_massey(p, s)
    assert np.array_equal(fast.berlekamp_massey(p, s), loc)
    assert np.array_equal(fast.evaluate(p, loc, alpha), REF.evaluate(p, loc, alpha))
    for backend_kernels in (REF, fast):
        got, ok = backend_kernels.decode(p, g, alpha, c)
        assert ok == 1 and np.array_equal(got, e)
    # a syndrome of weight t + 1: decoding fails, both say so
    bad = c.copy()
    bad[0] ^= 1
    e_ref, ok_ref = REF.decode(p, g, alpha, bad)
    e_fast, ok_fast = fast.decode(p, g, alpha, bad)
    assert ok_ref == ok_fast == 0
    assert np.array_equal(e_fast, e_ref)


@settings(max_examples=5, deadline=None)
@given(st.binary(min_size=32, max_size=32))
def test_berlekamp_massey_on_random_syndromes(data: bytes) -> None:
    p = PARAMS[M13]
    s = _le16(common.shake256_digest(data, 4 * p.t), 2 * p.t, p.m)
    want = REF.berlekamp_massey(p, s)
    for backend in FAST_BACKENDS:
        assert np.array_equal(kernels(backend).berlekamp_massey(p, s), want)


def test_kernels_do_not_modify_their_inputs(fast: Any) -> None:
    p, _, h, pi = reduced(SMALL[1])
    h0, pi0 = h.copy(), pi.copy()
    fast.systematic(p, h, pi)
    fast.controlbits(p, pi)
    assert np.array_equal(h, h0) and np.array_equal(pi, pi0)
