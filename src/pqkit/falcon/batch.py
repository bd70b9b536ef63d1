"""Falcon's batch view: the loop view of :mod:`pqkit.batch`, except that the
compressed sets' signatures have no fixed length. For Falcon-512 / Falcon-1024,
``sign`` returns a list of ``bytes`` and ``verify`` takes any sequence of
signatures (each its own length); the padded sets keep the array rows of every
other scheme. ``deterministic=True`` is refused as by the scheme object."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.batch import SignatureBatch, as_messages, as_rows, batch_size, call_row
from pqkit.schemes import RNG

__all__ = ["FalconBatch"]


class FalconBatch(SignatureBatch):
    """The batch view of one Falcon parameter set."""

    def sign(  # compressed sets: a list of bytes (Any covers both)
        self,
        sks: Any,
        messages: Any,
        ctx: bytes = b"",
        *,
        deterministic: bool = False,
        rnd: Any = None,
        rng: RNG | None = None,
        workers: int | None = None,
    ) -> Any:
        """Row i is ``sign(sks[i], messages[i], rng=rng)``, rows signed in order."""
        s: Any = self.scheme
        if s.params.padded:
            return super().sign(
                sks, messages, ctx, deterministic=deterministic, rnd=rnd, rng=rng, workers=workers
            )
        keys = as_rows(sks, "sks", s.length_secret_key)
        msgs = as_messages(messages)
        n = batch_size(sks=keys, messages=msgs)
        return [
            call_row(
                i,
                s.sign,
                keys.row(i),
                msgs.item(i),
                ctx,
                deterministic=deterministic,
                rnd=rnd,
                rng=rng,
            )
            for i in range(n)
        ]

    def verify(
        self,
        pks: Any,
        messages: Any,
        signatures: Any,
        ctx: bytes = b"",
        *,
        workers: int | None = None,
    ) -> npt.NDArray[np.bool_]:
        """Row i is ``verify(pks[i], messages[i], signatures[i])``: False for a
        malformed signature; signatures may be a sequence of any lengths."""
        s: Any = self.scheme
        if s.params.padded or isinstance(signatures, np.ndarray):
            return super().verify(pks, messages, signatures, ctx, workers=workers)
        keys = as_rows(pks, "pks", s.length_public_key)
        msgs = as_messages(messages)
        sigs = as_messages(signatures, "signatures")
        n = batch_size(pks=keys, messages=msgs, signatures=sigs)
        return np.array(
            [s.verify(keys.row(i), msgs.item(i), sigs.item(i), ctx) for i in range(n)],
            dtype=bool,
        )
