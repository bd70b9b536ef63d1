"""Fresh keys for every timed call: the key ring every speed tool uses.

A benchmark that hands the same key to every call measures a warm cache: pqkit
keeps the decoded form of recently used keys (the matrix A_hat and t_hat of an
ML-KEM encapsulation key, ML-DSA's A_hat and secret vectors), and other libraries
keep key objects already parsed. A TLS handshake or a C benchmark meets a new key
each time. So the speed tools time each operation with a fresh key per call by
default, cycling through :data:`KEY_RING` key pairs made beforehand, and report
the one-key-reused figure beside it, labelled (:data:`ONE_KEY`).
"""

from __future__ import annotations

import itertools
import sys
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

__all__ = ["KEY_RING", "ONE_KEY", "RING_BUDGET_S", "cycling", "make_ring"]

_T = TypeVar("_T")

KEY_RING = 64
"""Key pairs per parameter set in a fresh-key measurement: twice the largest
cache of decoded keys in pqkit (32 ML-KEM keys, 16 ML-DSA keys per scheme
object: tests/test_speed.py checks it), so that cycling through them every call
meets a key the cache has already dropped."""

RING_BUDGET_S = 2.0
"""Seconds ``pqkit speed`` spends making one parameter set's ring at most: SLH-DSA's
small sets take seconds per key pair and signature in Python. A ring cut short is
named on stderr (for ML-KEM and ML-DSA on the default backends, 64 key pairs take
well under a second)."""

ONE_KEY = "one key"
"""The label of the figures measured with one key reused on every call."""


def cycling(items: Sequence[_T]) -> Callable[[], _T]:
    """A function returning ``items[0]``, ``items[1]``, ... on successive calls, round
    and round. The one-key figures use it too, over a single item, so both pay the
    same step."""
    if not items:
        raise ValueError("cycling needs at least one item")
    return itertools.cycle(items).__next__


def make_ring(
    make: Callable[[], _T], name: str, *, size: int = KEY_RING, budget: float | None = None
) -> list[_T]:
    """``size`` results of ``make()`` (a key pair and what the timed calls need with
    it), or as many as ``budget`` seconds allow (at least one); a ring cut short is
    named on stderr, as then caches of decoded keys may serve some calls."""
    if size < 1:
        raise ValueError(f"size must be >= 1, got {size}")
    start = time.perf_counter()
    ring = [make()]
    while len(ring) < size:
        if budget is not None and time.perf_counter() - start > budget:
            print(
                f"note: {name}: {len(ring)} fresh key pairs instead of {size} "
                f"(set-up budget {budget:g} s): caches of decoded keys may serve some calls",
                file=sys.stderr,
            )
            break
        ring.append(make())
    return ring
