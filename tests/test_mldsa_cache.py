"""The scheme object's cache of decoded public values for ML-DSA: A_hat per rho and
NTT(t1 2^d) per public key (verification reuses both); the decoded secret key kept
only in the key object that signs (pqkit._keystate)."""

from __future__ import annotations

import gc

import numpy as np
import pytest

import pqkit
from pqkit import arith
from pqkit._keystate import MLDSA_SK, KeyState, holding
from pqkit._lru import LruCache
from pqkit.mldsa import core


@pytest.mark.parametrize("backend", ["numpy", "ref"])
def test_t1_hat_cached_and_equal(backend: str) -> None:
    scheme = pqkit.sig("ML-DSA-44").using(arith=backend)  # type: ignore[attr-defined]
    scheme._a_cache = LruCache(core.A_CACHE_SIZE)  # this test's own cache
    pk, sk = scheme.keygen_derand(bytes(range(32)))
    sig = scheme.sign(sk, b"m", deterministic=True)
    assert scheme.verify(pk, b"m", sig)
    ops = scheme._ops()
    p = scheme.params
    cached = core.t1_hat_cached(p, ops, pk)
    assert core.t1_hat_cached(p, ops, bytes(bytearray(pk))) is cached
    _, t1 = core.pk_decode(p, ops, pk)
    assert np.array_equal(cached, ops.k.ntt(t1 << 13))
    with pytest.raises(ValueError, match="read-only"):
        cached[0, 0] = 1
    assert ("t1_hat", pk) in scheme._a_cache._items
    # Cached again and again: the same verdicts, for a good and a wrong message.
    for _ in range(2):
        assert scheme.verify(pk, b"m", sig)
        assert not scheme.verify(pk, b"n", sig)
    # Another key of the same length: its own entry, its own verdict.
    pk2, _ = scheme.keygen_derand(bytes(32))
    assert not scheme.verify(pk2, b"m", sig)
    assert ("t1_hat", pk2) in scheme._a_cache._items


@pytest.mark.parametrize("backend", ["numpy", "ref"])
def test_secret_key_state_kept_in_the_key_object(backend: str) -> None:
    """Signing in a key object's scope reuses the decoded key, NTT(s1) and the
    challenge_prepare form of s1 || s2 || t0 kept in that key object, with identical
    signatures; a key with the same tr but other bytes is decoded afresh (the same
    signature as with nothing kept) and replaces the state."""
    scheme = pqkit.sig("ML-DSA-44").using(arith=backend)  # type: ignore[attr-defined]
    p = scheme.params
    pk, sk = scheme.keygen_derand(bytes(range(32)))
    held = KeyState()
    with holding(held):
        sig = scheme.sign(sk, b"m", deterministic=True)
    assert scheme.verify(pk, b"m", sig)
    ops = scheme._ops()
    state = held.get(MLDSA_SK)
    assert state.raw == sk and state.s1_hat is not None and state.challenge is not None
    for kept in (state.s1_hat, state.challenge):
        with pytest.raises(ValueError, match="read-only"):
            kept[0, 0] = 1
    dec = core.decode_secret_key(p, ops, sk)
    assert np.array_equal(state.s1_hat, ops.k.ntt(dec.s1))
    small = np.concatenate([dec.s1, dec.s2, dec.t0])
    assert np.array_equal(state.challenge, ops.k.challenge_prepare(small))
    with holding(held):
        assert scheme.sign(sk, b"m", deterministic=True) == sig  # a hit: the same bytes
    assert held.get(MLDSA_SK) is state
    # A consistent key with this key's tr but another K (bytes 32-64, which the
    # decoded state holds): its own decode.
    sk_mixed = sk[:32] + bytes(32) + sk[64:]
    fresh = scheme.sign(sk_mixed, b"m", deterministic=True)  # the bytes API: nothing kept
    with holding(held):
        assert scheme.sign(sk_mixed, b"m", deterministic=True) == fresh != sig
    assert held.get(MLDSA_SK).raw == sk_mixed and len(held) == 2  # the sk and its check


@pytest.mark.parametrize("backend", ["numpy", "ref"])
def test_bytes_api_keeps_no_secret_state(backend: str) -> None:
    """Issue 28 item 4: signing with sk as bytes leaves no decoded key behind."""
    scheme = pqkit.sig("ML-DSA-44").using(arith=backend)  # type: ignore[attr-defined]
    _, sk = scheme.keygen_derand(bytes([3]) * 32)

    def live() -> int:
        gc.collect()
        # type(), not isinstance(): a dead weakref.proxy raises ReferenceError
        return sum(type(o) is core.SecretKey for o in gc.get_objects())

    before = live()
    for _ in range(2):
        scheme.sign(sk, b"m")
    assert live() == before


def test_key_objects_threadsafe() -> None:
    import threading

    from pqkit.keys import MLDSA44PrivateKey

    with arith.use("numpy"):
        keys = [MLDSA44PrivateKey.from_seed_bytes(bytes([i]) * 32) for i in range(4)]
        expected = [k.sign(b"t", deterministic=True) for k in keys]
    errors: list[int] = []

    def work(order: list[int]) -> None:
        with arith.use("numpy"):
            for i in order:
                if keys[i].sign(b"t", deterministic=True) != expected[i]:
                    errors.append(i)

    threads = [threading.Thread(target=work, args=([j, (j + 1) % 4] * 2,)) for j in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert all(k._state.get(MLDSA_SK).raw == k.private_bytes_expanded() for k in keys)


@pytest.mark.parametrize("backend", ["ref", "numpy"])
def test_t1_hat_and_ntt_on_miss_and_hit(backend: str) -> None:
    """Issue 26: verification transforms z || c together with t1 2^d when the key is
    new (one NTT call); the results equal separate transforms, missed or cached."""
    scheme = pqkit.sig("ML-DSA-44").using(arith=backend)  # type: ignore[attr-defined]
    scheme._a_cache = LruCache(core.A_CACHE_SIZE)
    pk, _ = scheme.keygen_derand(bytes([5]) * 32)
    ops, p = scheme._ops(), scheme.params
    rows = np.random.default_rng(1).integers(0, 8380417, (5, 256))
    _, t1 = core.pk_decode(p, ops, pk)
    for _ in range(2):  # a miss, then a hit
        t1_hat, hats = core.t1_hat_and_ntt(p, ops, pk, rows)
        assert np.array_equal(t1_hat, ops.k.ntt(t1 << 13))
        assert np.array_equal(hats, ops.k.ntt(rows))
    assert core.t1_hat_cached(p, ops, pk) is t1_hat
