"""Constant-time-style helpers every KEM's implicit rejection shares: a byte-mask
select and an equality test that reads both inputs to the end."""

from __future__ import annotations

import hmac

import numpy as np

__all__ = ["bytes_equal", "masked_select"]


def masked_select(equal: bool, if_equal: bytes, otherwise: bytes) -> bytes:
    """``if_equal`` when ``equal`` else ``otherwise``, through a byte mask rather
    than a branch (both inputs are always computed and read)."""
    mask = np.uint8((-int(equal)) & 0xFF)
    a = np.frombuffer(if_equal, dtype=np.uint8)
    b = np.frombuffer(otherwise, dtype=np.uint8)
    diff = a ^ b
    diff &= mask
    diff ^= b  # b ^ ((a ^ b) & mask): a where the mask is 0xFF, b where it is 0
    return diff.tobytes()


def bytes_equal(a: bytes, b: bytes) -> bool:
    """Constant-time-style equality of two byte strings (``hmac.compare_digest``)."""
    return hmac.compare_digest(a, b)
