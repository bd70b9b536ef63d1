"""Whole-operation ML-DSA kernels (``pqkit.mldsa.kernels.contract.MLDSAOperations``; the ``jit``
backend's one-call keygen / sign / verify) against their reference twin, the
step-by-step core on the ``numpy`` kernels. (The ACVP suites run on every installed
backend, so on these kernels too.)"""

from __future__ import annotations

import hashlib
import importlib.util
import random

import numpy as np
import pytest
from helpers import load_json

import pqkit
from pqkit._lru import LruCache
from pqkit.arith.ops import operations
from pqkit.messages import m_prime_for
from pqkit.mldsa import core

HAVE_NUMBA = importlib.util.find_spec("numba") is not None
pytestmark = pytest.mark.skipif(not HAVE_NUMBA, reason="the jit backend needs numba")

NAMES = ("ML-DSA-44", "ML-DSA-65", "ML-DSA-87", "Dilithium2", "Dilithium3", "Dilithium5")


def pair(name: str) -> tuple[object, object]:
    scheme = pqkit.sig(name)
    return scheme.using(arith="jit"), scheme.using(arith="numpy")  # type: ignore[attr-defined]


def _sign(scheme: object, sk: bytes, msg: bytes, rnd: bytes) -> bytes:
    if scheme.name.startswith("ML-DSA"):  # type: ignore[attr-defined]
        return scheme.sign(sk, msg, rnd=rnd)  # type: ignore[attr-defined, no-any-return]
    return scheme.sign(sk, msg, deterministic=True)  # type: ignore[attr-defined, no-any-return]


@pytest.mark.parametrize("name", NAMES)
def test_jit_operations_equal_step_path(name: str) -> None:
    fast, slow = pair(name)
    rnd_gen = random.Random(f"mldsa-ops-{name}")
    for trial in range(5):
        xi = bytes([trial]) * 32 if trial < 2 else rnd_gen.randbytes(32)
        kp = fast.keygen_derand(xi)  # type: ignore[attr-defined]
        assert kp == slow.keygen_derand(xi)  # type: ignore[attr-defined]
        pk, sk = kp
        msg = rnd_gen.randbytes(trial * 31)
        rnd = bytes(32) if trial == 0 else rnd_gen.randbytes(32)
        sig = _sign(fast, sk, msg, rnd)
        assert sig == _sign(slow, sk, msg, rnd)
        assert fast.verify(pk, msg, sig) and slow.verify(pk, msg, sig)  # type: ignore[attr-defined]
        # Every region of the signature, one flipped bit: the same verdict (False).
        for pos in (0, len(sig) // 3, len(sig) - 90, len(sig) - 3, len(sig) - 1):
            bad = bytearray(sig)
            bad[pos] ^= 1 << rnd_gen.randrange(8)
            want = slow.verify(pk, msg, bytes(bad))  # type: ignore[attr-defined]
            assert fast.verify(pk, msg, bytes(bad)) == want  # type: ignore[attr-defined]
        assert not fast.verify(pk, msg + b"!", sig)  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ["ML-DSA-44", "ML-DSA-87"])
def test_jit_verify_malformed_hints(name: str) -> None:
    """HintBitUnpack (FIPS 204, Algorithm 21) refusals on both paths: counts out of
    order or above omega, indices not increasing, non-zero padding."""
    fast, slow = pair(name)
    pk, sk = slow.keygen_derand(bytes(32))  # type: ignore[attr-defined]
    sig = bytearray(_sign(slow, sk, b"m", bytes(32)))
    p = slow.params  # type: ignore[attr-defined]
    y0 = len(sig) - (p.omega + p.k)
    cases = []
    for edit in ({p.omega: p.omega + 1}, {p.omega + p.k - 1: 0}, {y0 + p.omega - 1: 7}, {y0: 255}):
        bad = bytearray(sig)
        for pos, value in edit.items():
            bad[pos if pos >= y0 else y0 + pos] = value
        cases.append(bytes(bad))
    zeros = bytes(len(sig))
    maxed = bytes(y0) + b"\xff" * (len(sig) - y0)
    for bad in [*cases, zeros, maxed]:
        want = slow.verify(pk, b"m", bad)  # type: ignore[attr-defined]
        assert fast.verify(pk, b"m", bad) == want  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ["ML-DSA-44", "ML-DSA-65", "ML-DSA-87"])
def test_jit_whole_verify_of_a_new_key(name: str) -> None:
    """Verification of a key the scheme object has not seen runs whole in one
    compiled call (``mldsa_verify`` with no A_hat: tr, mu and ExpandA inside): the
    verdicts are the step path's (a valid signature, another message, another
    context, a flipped bit, the external-mu and M' entry points), the A_hat it hands
    back is ExpandA(rho), read-only, and is what the cache then serves."""
    fast, slow = pair(name)
    fast._a_cache = LruCache(core.A_CACHE_SIZE)  # type: ignore[attr-defined]
    p = slow.params  # type: ignore[attr-defined]
    ops = operations("mldsa", "jit")
    assert ops is not None
    pk, sk = slow.keygen_derand(hashlib.sha256(name.encode()).digest())  # type: ignore[attr-defined]
    msg = b"whole verify"
    sig = slow.sign(sk, msg, ctx=b"c", deterministic=True)  # type: ignore[attr-defined]
    m_prime = m_prime_for(msg, b"c", None)
    params = (*p.signing, p.beta, p.tr_bytes, p.k, p.l)
    ok, a_hat = ops.mldsa_verify(pk, None, m_prime, sig, *params)
    assert ok and not a_hat.flags.writeable
    assert np.array_equal(a_hat, core.expand_a(p, slow._ops(), pk[:32]))  # type: ignore[attr-defined]
    ok, same = ops.mldsa_verify(pk, a_hat, m_prime, sig, *params)
    assert ok and same is a_hat
    assert not ops.mldsa_verify(pk, None, m_prime_for(msg, b"d", None), sig, *params)[0]
    # Through the scheme object, its cache empty: then A_hat is the cached one.
    bad = bytearray(sig)
    bad[len(sig) // 2] ^= 4
    for m, ctx, s in (
        (msg, b"c", sig),
        (msg, b"", sig),
        (b"other", b"c", sig),
        (msg, b"c", bytes(bad)),
    ):
        want = slow.verify(pk, m, s, ctx=ctx)  # type: ignore[attr-defined]
        fast._a_cache = LruCache(core.A_CACHE_SIZE)  # type: ignore[attr-defined]
        assert fast.verify(pk, m, s, ctx=ctx) == want  # type: ignore[attr-defined]
        assert np.array_equal(fast._a_cache.get(pk[:32]), a_hat)  # type: ignore[attr-defined]
    assert fast.verify_internal(pk, m_prime, sig)  # type: ignore[attr-defined]
    mu = slow.mu(pk, msg, b"c")  # type: ignore[attr-defined]
    assert fast.verify_mu(pk, mu, sig) and not fast.verify_mu(pk, mu, bytes(bad))  # type: ignore[attr-defined]


def _spy_checks(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """The ``check`` argument of every whole-signing call on jit, in order."""
    ops = operations("mldsa", "jit")
    real = ops.mldsa_sign  # type: ignore[union-attr]
    seen: list[bool] = []

    def spy(sk: bytes, a_hat: object, m: bytes, rnd: bytes, check: bool, *params: int) -> object:
        seen.append(check)
        return real(sk, a_hat, m, rnd, check, *params)

    monkeypatch.setattr(ops, "mldsa_sign", spy)
    return seen


def test_jit_whole_sign_checks_as_the_step_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Signing on M' in one compiled call (``mldsa_sign``): the signatures are the
    step path's, for a key whose A_hat the scheme object has and one it has not;
    the key's consistency check runs inside on every call of the bytes API, once per
    key object (made from the expanded key: checked when made; a key state that has
    not seen the key: checked on its first signature), and an inconsistent key is
    refused with the step path's error, whichever check fails."""
    from pqkit._keystate import KeyState, holding
    from pqkit.keys import MLDSA65PrivateKey

    fast, slow = pair("ML-DSA-65")
    fast._a_cache = LruCache(core.A_CACHE_SIZE)  # type: ignore[attr-defined]
    seen = _spy_checks(monkeypatch)
    _, sk = slow.keygen_derand(bytes([3]) * 32)  # type: ignore[attr-defined]
    for ctx in (b"", b"c"):  # A_hat expanded inside, then from the cache
        rnd = hashlib.sha256(ctx).digest()
        want = slow.sign(sk, b"msg", ctx=ctx, rnd=rnd)  # type: ignore[attr-defined]
        assert fast.sign(sk, b"msg", ctx=ctx, rnd=rnd) == want  # type: ignore[attr-defined]
    assert fast.sign_internal(sk, b"M'", bytes(32)) == slow.sign_internal(sk, b"M'", bytes(32))  # type: ignore[attr-defined]
    assert seen == [True, True, True]
    key = MLDSA65PrivateKey.from_expanded_bytes(sk)
    with holding(key._state):
        fast.sign(sk, b"m")
        fast.sign(sk, b"m")
    assert seen == [True, True, True, False, False]
    with holding(KeyState()):
        fast.sign(sk, b"m")
        fast.sign(sk, b"m")
    assert seen[-2:] == [True, False]
    flips = ((len(sk) - 1, "t0 is not"), (64, "tr is not"), (0, "t0 is not"))
    for pos, what in flips:
        bad = sk[:pos] + bytes([sk[pos] ^ 1]) + sk[pos + 1 :]
        for scheme in (fast, slow):
            with pytest.raises(ValueError, match=f"secret key: {what}"):
                scheme.sign(bad, b"m", deterministic=True)  # type: ignore[attr-defined]
    # s1 / s2 out of range: the eta = 4 packing's nibble 15.
    off = 64 + slow.params.tr_bytes  # type: ignore[attr-defined]
    bad = sk[:off] + bytes([sk[off] | 0x0F]) + sk[off + 1 :]
    for scheme in (fast, slow):
        with pytest.raises(ValueError, match="coefficient outside"):
            scheme.sign(bad, b"m")  # type: ignore[attr-defined]


def test_jit_expand_a_fills_the_same_cache() -> None:
    fast, slow = pair("ML-DSA-65")
    ops_f, ops_s = fast._ops(), slow._ops()  # type: ignore[attr-defined]
    rho = hashlib.sha256(b"rho").digest()
    p = slow.params  # type: ignore[attr-defined]
    a_fast = operations("mldsa", "jit").mldsa_expand_a(rho, p.k, p.l)  # type: ignore[union-attr]
    assert np.array_equal(a_fast, core.expand_a(p, ops_s, rho))
    assert not a_fast.flags.writeable
    assert core.expand_a_cached(p, ops_f, rho) is core.expand_a_cached(p, ops_s, rho)


def test_sign_attempt_bound_on_both_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(core, "MAX_SIGN_ATTEMPTS", 0)
    for scheme in pair("ML-DSA-44"):
        _, sk = scheme.keygen_derand(bytes(32))  # type: ignore[attr-defined]
        with pytest.raises(RuntimeError, match="no acceptable signature in 0 attempts"):
            scheme.sign(sk, b"m")  # type: ignore[attr-defined]


def test_aes_suite_stays_on_the_step_path() -> None:
    fast, _ = pair("Dilithium2-AES")
    assert core._fast(fast._ops()) is None  # type: ignore[attr-defined]
    assert core._fast(pair("Dilithium2")[0]._ops()) is not None  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ["ML-DSA-44", "ML-DSA-65", "ML-DSA-87"])
def test_jit_cctv_accumulated_100(name: str) -> None:
    scheme = pqkit.sig(name).using(arith="jit")  # type: ignore[attr-defined]
    seeds = hashlib.shake_128(b"").digest(32 * 100)
    acc = hashlib.shake_128()
    for i in range(100):
        pk, sk = scheme.keygen_derand(seeds[32 * i : 32 * i + 32])
        acc.update(pk)
        sig = scheme.sign(sk, b"", b"", deterministic=True)
        acc.update(sig)
        assert scheme.verify(pk, b"", sig, b"")
    expected = load_json("cctv/accumulated.json")["ml_dsa"]["digests"][name]["100"]
    assert acc.hexdigest(32) == expected


def test_encoded_only_secret_key_signs_on_the_step_path() -> None:
    """core.secret_key leaves the decoding to the compiled kernels on jit; handed to
    the step path (another backend), the key is decoded there: the same signature."""
    fast, slow = pair("ML-DSA-65")
    p = slow.params  # type: ignore[attr-defined]
    _, sk = slow.keygen_derand(bytes(range(32)))  # type: ignore[attr-defined]
    ops_f, ops_s = fast._ops(), slow._ops()  # type: ignore[attr-defined]
    encoded = core.secret_key(p, ops_f, sk)
    assert encoded.s1.size == 0 and encoded.raw == sk
    assert core.secret_key(p, ops_s, sk).s1.shape == (p.l, 256)
    mu, rho_pp = bytes(range(64)), bytes(64)
    want = core.sign_mu_internal(p, ops_f, encoded, mu, rho_pp)
    assert core.sign_mu_internal(p, ops_s, encoded, mu, rho_pp) == want


@pytest.mark.parametrize("name", NAMES)
def test_jit_secret_key_check_equals_step_path(name: str) -> None:
    """The compiled consistency check of an expanded secret key (what the byte API
    runs before every signature) refuses what the step path refuses, with the same
    message, in the same order of checks, and returns the same public key."""
    fast, slow = pair(name)
    p = slow.params  # type: ignore[attr-defined]
    pk, sk = slow.keygen_derand(bytes(range(32)))  # type: ignore[attr-defined]
    off = 64 + p.tr_bytes
    mask = (1 << p.eta_bits) - 1

    def edit(pos: int, value: int) -> bytes:
        raw = bytearray(sk)
        raw[pos] = value
        return bytes(raw)

    out_of_range = edit(off, (sk[off] & ~mask & 0xFF) | (2 * p.eta + 1))  # s1[0] < -eta
    cases = {
        "range": out_of_range,
        "range, tr": edit(64, sk[64] ^ 1)[:off] + out_of_range[off:],
        "t0": edit(len(sk) - 1, sk[-1] ^ 0x10),
        "s1 in range": edit(off, (sk[off] & ~mask & 0xFF) | (sk[off] & mask) ^ 1),
        "rho": edit(0, sk[0] ^ 1),
        "tr": edit(64 + p.tr_bytes - 1, sk[64 + p.tr_bytes - 1] ^ 0x80),
    }
    assert fast.public_key_from_secret(sk) == pk  # type: ignore[attr-defined]
    ops = operations("mldsa", "jit")
    a_hat = ops.mldsa_expand_a(sk[:32], p.k, p.l)
    assert ops.mldsa_check_secret(sk, a_hat, p.k, p.l, p.eta, p.eta_bits, p.tr_bytes) == (0, pk)
    for what, bad in cases.items():
        with pytest.raises(ValueError) as want:
            slow.public_key_from_secret(bad)  # type: ignore[attr-defined]
        with pytest.raises(ValueError) as got:
            fast.public_key_from_secret(bad)  # type: ignore[attr-defined]
        assert str(got.value) == str(want.value), what
        with pytest.raises(ValueError, match="secret key"):
            fast.sign(bad, b"m", deterministic=True)  # type: ignore[attr-defined]
