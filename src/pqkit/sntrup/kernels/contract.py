"""Streamlined NTRU Prime's kernel contract (sntrup761, round-3 submission §3): the
ring arithmetic of R/q = Z_q[x]/(x^p - x - 1) and R/3, the two inversions, the
constant-time sort behind Short_fromlist, and the variable-radix encodings.
The shared rules of every contract are in :mod:`pqkit.arith.api`.

Arrays: a polynomial is a ``(..., p)`` integer array (any leading batch axes),
p = 761. "Small" coefficients are in {-1, 0, 1}; R/q coefficients ("Fq") are
centred, in [-(q-1)/2, (q-1)/2], q = 4591. Results are new int64 arrays (uint8 for
byte strings). Which inputs are secret is said per kernel; the ``numpy`` and ``jit``
backends treat those without branches, divisions or indices that depend on them.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

__all__ = ["SntrupKernels"]

I64 = npt.NDArray[np.int64]
U8 = npt.NDArray[np.uint8]


class SntrupKernels(Protocol):
    """Kernels for sntrup761 (p = 761, q = 4591)."""

    backend: str

    def rq_mult_small(self, f: Any, g: Any) -> I64:
        """f * g in R/q: f (..., p) Fq, g (..., p) small -> (..., p) Fq (centred).
        Both may be secret (Rq_mult_small of the submission)."""
        ...

    def rq_mult3(self, f: Any) -> I64:
        """3 f in R/q: (..., p) Fq -> (..., p) Fq (Rq_mult3). Secret (decapsulation)."""
        ...

    def r3_mult(self, f: Any, g: Any) -> I64:
        """f * g in R/3: both (..., p) small -> (..., p) small. Secret (decapsulation)."""
        ...

    def r3_recip(self, g: Any) -> tuple[I64, I64]:
        """(1/g in R/3, ok) for g (..., p) small: ``ok`` (...) is 0 where g is
        invertible and -1 where it is not (then the first result is meaningless).
        The divstep iteration of R3_recip, 2p - 1 steps, constant time. Secret."""
        ...

    def rq_recip3(self, f: Any) -> I64:
        """1/(3 f) in R/q for f (..., p) small and invertible (every short f is):
        the divstep iteration of Rq_recip3, 2p - 1 steps, constant time. Secret."""
        ...

    def sort_uint32(self, x: Any) -> I64:
        """The entries of each row of x (..., n), values in [0, 2^32), in ascending
        order, by a data-independent sorting network (crypto_sort_uint32). Secret."""
        ...

    def encode_rq(self, r: Any) -> U8:
        """Rq_encode: (..., p) Fq -> (..., Rq_bytes) uint8, the Encode of r + (q-1)/2
        with every radix q. Public (the public key)."""
        ...

    def decode_rq(self, s: Any) -> I64:
        """Rq_decode: (..., Rq_bytes) uint8 -> (..., p) Fq. Any bytes decode (each
        digit reduced mod q, as the reference's Decode). Public."""
        ...

    def encode_rounded(self, r: Any) -> U8:
        """Rounded_encode: (..., p) Fq, each in 3Z - (q-1)/2 .. (q-1)/2 (the output of
        Round) -> (..., Rounded_bytes) uint8, radix (q + 2) / 3. Secret inputs are
        possible (the re-encryption in decapsulation): multiplications and shifts only."""
        ...

    def decode_rounded(self, s: Any) -> I64:
        """Rounded_decode: (..., Rounded_bytes) uint8 -> (..., p) Fq, 3 R - (q-1)/2.
        Public (the ciphertext)."""
        ...
