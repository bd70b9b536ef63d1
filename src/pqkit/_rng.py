"""Randomness for every layer: the ``rng`` type and :func:`draw` (below the scheme
bases and the batch machinery, which both use them)."""

from __future__ import annotations

import os
from collections.abc import Callable

from pqkit._checks import as_rng_output

__all__ = ["RNG", "draw"]

RNG = Callable[[int], bytes]
"""Any callable ``rng(n) -> bytes`` returning ``n`` bytes; the default is ``os.urandom``."""


def draw(rng: RNG | None, n: int) -> bytes:
    """Ask ``rng`` (``os.urandom`` if None) for ``n`` bytes and check the answer."""
    if rng is None:
        return os.urandom(n)
    if not callable(rng):
        raise TypeError(f"rng must be a callable rng(n) -> bytes, not {type(rng).__name__}")
    return as_rng_output(rng(n), n)
