"""Falcon's batch view: the loop view of :mod:`pqkit.batch`, except that the
compressed sets' signatures have no fixed length. For Falcon-512 / Falcon-1024,
``sign`` returns a list of ``bytes`` and ``verify`` takes any sequence of
signatures (each its own length); the padded sets keep the array rows of every
other scheme. ``deterministic=True`` is refused as by the scheme object."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from pqkit.batch import SignatureBatch, as_messages

__all__ = ["FalconBatch"]


class FalconBatch(SignatureBatch):
    """The batch view of one Falcon parameter set: :class:`SignatureBatch`'s
    ``sign`` / ``verify``, with the compressed sets' signatures as bytes of any
    length."""

    def _signature_rows(self, sigs: list[bytes]) -> Any:
        """Compressed sets: the list of ``bytes`` itself (no fixed length)."""
        s: Any = self.scheme
        return super()._signature_rows(sigs) if s.params.padded else sigs

    def _signatures(self, signatures: Any) -> tuple[Any, Callable[[int], bytes | None]]:
        """Compressed sets: any sequence of signatures, each its own length."""
        s: Any = self.scheme
        if s.params.padded or isinstance(signatures, np.ndarray):
            return super()._signatures(signatures)
        sigs = as_messages(signatures, "signatures")
        return sigs, sigs.item
