"""The plans of the variable-radix Encode / Decode (round-3 submission §3.2) for a
row of equal radices: which bytes each merging level writes or reads. The radices
are public constants, so every count and position here is too; the backends only
replay a plan (:mod:`.numpy`, :mod:`.jit`)."""

from __future__ import annotations

import functools
from dataclasses import dataclass

__all__ = ["Level", "Plan", "plan"]


@dataclass(frozen=True)
class Level:
    """One merging level: ``radices`` of its entries; per pair i (entries 2i, 2i+1)
    the bytes Encode writes (``emit[i]``) and Decode reads (``take[i]``, the same
    count), and the merged radix ``merged[i]``."""

    radices: tuple[int, ...]
    emit: tuple[int, ...]
    merged: tuple[int, ...]


@dataclass(frozen=True)
class Plan:
    levels: tuple[Level, ...]
    top: int
    """The radix of the single entry left after the last level."""
    top_bytes: int
    """Bytes the single entry is written in."""
    length: int
    """Total bytes."""


@functools.cache
def plan(n: int, radix: int) -> Plan:
    """The plan of Encode / Decode for ``n`` entries of radix ``radix``."""
    levels = []
    radices = (radix,) * n
    total = 0
    while len(radices) > 1:
        emit, merged = [], []
        for i in range(0, len(radices) - 1, 2):
            m = radices[i] * radices[i + 1]
            k = 0
            while m >= 16384:
                k += 1
                m = (m + 255) >> 8
            emit.append(k)
            merged.append(m)
        levels.append(Level(radices, tuple(emit), tuple(merged)))
        total += sum(emit)
        radices = tuple(merged) + ((radices[-1],) if len(radices) % 2 else ())
    top, top_bytes = radices[0], 0
    m = top
    while m > 1:
        top_bytes += 1
        m = (m + 255) >> 8
    return Plan(tuple(levels), top, top_bytes, total + top_bytes)
