"""A small bounded, thread-safe LRU cache for decoded key data.

Scheme objects keep what they derive from keys (ML-DSA's A_hat from rho, ML-KEM's
decoded ek) for the keys in use, so repeated operations with one key skip the work.
Keys and values are public, so a hit or miss reveals nothing secret. State derived
from a secret key is never kept here: it lives in the key object that owns the key
(:mod:`pqkit._keystate`; docs/decisions.md, "Issue 28: Hardening II").
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["LruCache"]

_V = TypeVar("_V")


class LruCache(Generic[_V]):
    """At most ``size`` entries; the least recently used one is dropped first."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"cache size must be at least 1, got {size}")
        self._size = size
        self._items: OrderedDict[Hashable, _V] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: Hashable) -> _V | None:
        """The value cached under ``key`` (now the newest entry), or None."""
        with self._lock:
            cached = self._items.get(key)
            if cached is not None:
                self._items.move_to_end(key)
        return cached

    def get_or_make(self, key: Hashable, make: Callable[[], _V]) -> _V:
        """The value cached under ``key``, else ``make()``'s value, stored as the
        newest entry (``make`` runs outside the lock, so two threads may both make
        it; the values are equal). Values are never None."""
        cached = self.get(key)
        if cached is not None:
            return cached
        value = make()
        self.put(key, value)
        return value

    def put(self, key: Hashable, value: _V) -> None:
        """Put ``value`` under ``key`` as the newest entry; drop the oldest past the size."""
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)
