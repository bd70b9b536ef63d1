"""The scheme object's cache of decoded public values for ML-DSA: A_hat per rho and
NTT(t1 2^d) per public key (verification reuses both)."""

from __future__ import annotations

import numpy as np
import pytest

import pqkit
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
def test_secret_key_state_cached_under_tr(backend: str) -> None:
    """Signing reuses the decoded key and NTT(s1 || s2 || t0) under the public tr,
    with identical signatures; a key with the same tr but other bytes is decoded
    afresh (the same signature as with an empty cache) and replaces the entry."""
    scheme = pqkit.sig("ML-DSA-44").using(arith=backend)  # type: ignore[attr-defined]
    scheme._sk_cache = LruCache(core.SK_CACHE_SIZE)
    p = scheme.params
    pk, sk = scheme.keygen_derand(bytes(range(32)))
    sig = scheme.sign(sk, b"m", deterministic=True)
    assert scheme.verify(pk, b"m", sig)
    ops = scheme._ops()
    state = scheme._sk_cache._items[sk[64 : 64 + p.tr_bytes]]
    assert state.raw == sk and state.small_hat is not None
    with pytest.raises(ValueError, match="read-only"):
        state.small_hat[0, 0] = 1
    dec = core.decode_secret_key(p, ops, sk)
    expect = ops.k.ntt(np.concatenate([dec.s1, dec.s2, dec.t0]))
    assert np.array_equal(state.small_hat, expect)
    assert scheme.sign(sk, b"m", deterministic=True) == sig  # a hit: the same bytes
    assert scheme._sk_cache._items[sk[64 : 64 + p.tr_bytes]] is state
    # A consistent key with this key's tr (so the same cache key) but another K
    # (bytes 32-64, which the decoded state holds): its own decode.
    sk_mixed = sk[:32] + bytes(32) + sk[64:]
    scheme._sk_cache = LruCache(core.SK_CACHE_SIZE)
    fresh = scheme.sign(sk_mixed, b"m", deterministic=True)
    scheme._sk_cache = LruCache(core.SK_CACHE_SIZE)
    scheme.sign(sk, b"m", deterministic=True)
    assert scheme.sign(sk_mixed, b"m", deterministic=True) == fresh != sig
    entry = scheme._sk_cache._items[sk[64 : 64 + p.tr_bytes]]
    assert entry.raw == sk_mixed and len(scheme._sk_cache) == 1


def test_secret_key_cache_bounded_and_threadsafe() -> None:
    import threading

    scheme = pqkit.sig("ML-DSA-44").using(arith="numpy")  # type: ignore[attr-defined]
    scheme._sk_cache = LruCache(2)
    keys = [scheme.keygen_derand(bytes([i]) * 32)[1] for i in range(4)]
    expected = [scheme.sign(sk, b"t", deterministic=True) for sk in keys]
    errors: list[int] = []

    def work(order: list[int]) -> None:
        for i in order:
            if scheme.sign(keys[i], b"t", deterministic=True) != expected[i]:
                errors.append(i)

    threads = [threading.Thread(target=work, args=([j, (j + 1) % 4] * 2,)) for j in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and len(scheme._sk_cache) == 2
