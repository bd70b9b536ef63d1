"""A small bounded, thread-safe LRU cache for decoded public data.

Scheme objects keep what they derive from *public* inputs (ML-DSA's A_hat from
rho) for the keys in use, so repeated operations with one key skip the work.
Only public data may be cached: a hit or miss must reveal nothing secret.
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

    def get_or_make(self, key: Hashable, make: Callable[[], _V]) -> _V:
        """The value cached under ``key``, else ``make()`` (called outside the
        lock, so two threads may both make it; the values are equal)."""
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        value = make()
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)
        return value
