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
