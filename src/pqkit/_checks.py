"""Argument checks shared by every public entry point.

These give the messages the rest of the library relies on: ``TypeError`` for a
value that is not bytes-like, ``ValueError`` naming the expected length otherwise.
"""

from __future__ import annotations

from typing import Any

__all__ = ["as_bytes", "as_bytes_len", "as_rng_output"]


def as_bytes(value: Any, name: str) -> bytes:
    """Return ``value`` as immutable ``bytes``; raise ``TypeError`` if not bytes-like.

    Accepts ``bytes``, ``bytearray`` and ``memoryview`` (copied, so later changes by
    the caller cannot reach pqkit's state). ``str`` and ``int`` are refused.
    """
    if isinstance(value, bytes):
        return value
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    raise TypeError(f"{name} must be bytes-like, not {type(value).__name__}")


def as_bytes_len(value: Any, name: str, length: int) -> bytes:
    """Like :func:`as_bytes`, and raise ``ValueError`` unless ``len(value) == length``."""
    data = as_bytes(value, name)
    if len(data) != length:
        raise ValueError(f"{name} must be {length} bytes, got {len(data)}")
    return data


def as_rng_output(value: Any, n: int) -> bytes:
    """Check what a caller's ``rng(n)`` returned: exactly ``n`` bytes."""
    if not isinstance(value, (bytes, bytearray, memoryview)):
        raise TypeError(f"rng({n}) must return bytes, not {type(value).__name__}")
    data = bytes(value)
    if len(data) != n:
        raise ValueError(f"rng({n}) returned {len(data)} bytes")
    return data
