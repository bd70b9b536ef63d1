"""pqkit._lru.LruCache, and the ML-DSA scheme objects' A_hat cache built on it."""

from __future__ import annotations

import threading

import pytest

import pqkit
from pqkit._lru import LruCache


def test_lru_keeps_the_most_recent() -> None:
    cache: LruCache[int] = LruCache(2)
    made: list[str] = []

    def maker(key: str) -> int:
        made.append(key)
        return len(made)

    assert cache.get_or_make("a", lambda: maker("a")) == 1
    assert cache.get_or_make("b", lambda: maker("b")) == 2
    assert cache.get_or_make("a", lambda: maker("a")) == 1  # hit, "a" now newest
    assert cache.get_or_make("c", lambda: maker("c")) == 3  # drops "b"
    assert len(cache) == 2
    assert cache.get_or_make("b", lambda: maker("b")) == 4  # made again
    assert made == ["a", "b", "c", "b"]


def test_lru_size_is_checked() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        LruCache(0)


def test_lru_is_thread_safe() -> None:
    cache: LruCache[int] = LruCache(4)

    def work() -> None:
        for i in range(200):
            assert cache.get_or_make(i % 6, lambda i=i: i % 6) == i % 6  # type: ignore[misc]

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(cache) == 4


def test_mldsa_caches_a_hat_per_scheme_object() -> None:
    dsa = pqkit.sig("ML-DSA-44")
    pk, sk = dsa.keygen_derand(bytes(32))
    sig = dsa.sign(sk, b"m", deterministic=True)
    cache = dsa._a_cache  # type: ignore[attr-defined]
    assert len(cache) >= 1
    assert dsa.using(arith="ref")._a_cache is cache  # type: ignore[attr-defined]
    assert pqkit.sig("ML-DSA-65")._a_cache is not cache  # type: ignore[attr-defined]
    assert dsa.verify(pk, b"m", sig)
