"""FrodoKEM's kernel contract (draft-longa-cfrg-frodokem §6; ISO/IEC 18033-2 Amd 2):
the error sampling, the generation of A by SHAKE128 and the four matrix products
over Z_q, q = 2^D. The shared rules of every contract are in :mod:`pqkit.arith.api`.

Matrices are uint16 arrays, row-major, as the specification writes them; values
mod q are canonical in [0, q) at the boundary (inputs may hold any uint16: only
their value mod q counts); error matrices are uint16 holding the two's-complement
(mod 2^16) form of their small signed entries. ``logq`` is D (15 or 16). Secret
inputs: S^T, S', E, E', E'' and the sample input r. Kernels never modify their
inputs and return new arrays. No backend branches or indexes on a secret value
(``ref``, the readable oracle, promises nothing of the kind).
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
import numpy.typing as npt

__all__ = ["FrodoKernels"]

U16 = npt.NDArray[np.uint16]


class FrodoKernels(Protocol):
    backend: str

    def sample(self, r: U16, cdf: U16) -> U16:
        """draft-longa-cfrg-frodokem §6.2.2 (Frodo.Sample) on every entry of ``r``
        (uint16, any shape; secret): t = r >> 1, e = #{z < len(cdf) - 1 : t > cdf[z]},
        negated when r & 1; returns uint16 of the same shape (e mod 2^16). ``cdf``
        is T_chi (uint16, public). Comparisons only: no lookup by a secret index."""
        ...

    def shake_a(self, seed_a: bytes, n: int) -> U16:
        """§6.3.2 (Frodo.Gen with SHAKE128): row i of A is SHAKE128(<i>_16 || seedA)
        read as n little-endian uint16; returns uint16 (n, n). Rows are independent:
        backends hash them in a batch. ``seed_a`` is public."""
        ...

    def as_plus_e(self, a: U16, s_t: U16, e: U16, logq: int) -> U16:
        """B = A S + E mod q (§8.1, KeyGen): ``a`` (n, n), ``s_t`` = S^T (nbar, n),
        ``e`` (n, nbar) -> uint16 (n, nbar) in [0, q)."""
        ...

    def sa_plus_e(self, a: U16, s: U16, e: U16, logq: int) -> U16:
        """B' = S' A + E' mod q (§8.2, Encaps): ``a`` (n, n), ``s`` = S' (mbar, n),
        ``e`` = E' (mbar, n) -> uint16 (mbar, n) in [0, q)."""
        ...

    def sb_plus_e(self, b: U16, s: U16, e: U16, logq: int) -> U16:
        """V = S' B + E'' mod q (§8.2): ``b`` (n, nbar), ``s`` = S' (mbar, n),
        ``e`` = E'' (mbar, nbar) -> uint16 (mbar, nbar) in [0, q)."""
        ...

    def bs(self, b: U16, s_t: U16, logq: int) -> U16:
        """B' S mod q (§8.3, Decaps): ``b`` = B' (mbar, n), ``s_t`` = S^T (nbar, n)
        -> uint16 (mbar, nbar) in [0, q)."""
        ...
