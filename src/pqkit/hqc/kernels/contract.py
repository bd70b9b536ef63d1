"""HQC's kernel contract: the arithmetic every backend provides (:class:`HQCKernels`).

Conventions (the HQC specification of 2025-08-22 and its reference code):

- A vector of GF(2)^n, i.e. a polynomial of GF(2)[x]/(x^n - 1), is a ``(W,)``
  uint64 array, W = ceil(n / 64), coefficient i in bit i % 64 of word i // 64
  (little-endian: the byte string of the vector is the array's bytes). Bits at
  positions >= n are zero in every argument and every result.
- A fixed-weight vector is also given by its *support*: a ``(w,)`` int64 array
  of w distinct positions in [0, n).
- Reed-Solomon symbols are bytes (elements of GF(2^8) = GF(2)[a]/(0x11D)), a code
  word ``(n1,)`` uint8; its message is the last k symbols (the code is systematic).
- A duplicated Reed-Muller code word of one symbol is ``multiplicity`` copies of
  the RM(1, 7) code word of that symbol, 128 bits each (two uint64 words);
  a concatenated code word is the ``(n1 * multiplicity * 2,)`` uint64 array of the
  n1 symbols' code words in order.

Secret inputs: every vector and support (x, y, r1, r2, e are secret; so is the
message and every code word of it). Kernels never modify their inputs and return
new arrays. The ``ref`` backend is the readable oracle and is not constant-time.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
import numpy.typing as npt

__all__ = ["U8", "U32", "HQCKernels", "Support", "Words"]

Words = npt.NDArray[np.uint64]
Support = npt.NDArray[np.int64]
U8 = npt.NDArray[np.uint8]
U32 = npt.NDArray[np.uint32]


class HQCKernels(Protocol):
    """Kernels of HQC over GF(2)[x]/(x^n - 1), GF(2^8) and the concatenated code."""

    backend: str

    def support_from_random(self, rand: U32, n: int) -> Support:
        """The support of a fixed-weight vector from w uniform 32-bit words
        (HQC specification, SampleFixedWeightVect$, the reference's
        ``vect_generate_random_support2``): position i is i + floor(rand[i] (n - i)
        / 2^32); then, for i from w - 2 down to 0, a position equal to a later one
        is replaced by i. ``rand`` (w,) uint32 (secret), w < n."""
        ...

    def support_to_vector(self, support: Support, n: int) -> Words:
        """The (W,) vector whose set bits are ``support`` (secret positions)."""
        ...

    def mul_sparse(self, support: Support, dense: Words, n: int) -> Words:
        """The product, in GF(2)[x]/(x^n - 1), of the fixed-weight vector with
        ``support`` (distinct positions) and the vector ``dense``: (W,), or (m, W)
        for m vectors times the same fixed-weight one (result of the same shape)."""
        ...

    def rs_encode(self, msg: U8, delta: int) -> U8:
        """The systematic Reed-Solomon code word (n1,) = (k + 2 delta,) of the message
        ``msg`` (k,): the remainder of msg(x) x^(2 delta) divided by the generator
        polynomial (:func:`pqkit.hqc.kernels.tables.rs_generator`), then msg."""
        ...

    def rs_decode(self, cdw: U8, k: int, delta: int) -> U8:
        """The message (k,) of the received word ``cdw`` (n1,), correcting up to
        ``delta`` symbol errors: syndromes, Berlekamp's error-locator polynomial,
        its roots, the error values (z(x), as the reference code computes them),
        with the reference's fixed control flow; beyond delta errors the result is
        the reference's (a wrong message)."""
        ...

    def rm_encode(self, cdw: U8, multiplicity: int) -> Words:
        """The concatenated code word (n1 * multiplicity * 2,) of the RS code word
        ``cdw`` (n1,): bit j of the RM(1, 7) code word of symbol m is
        m_7 XOR parity(m_0..6 AND j), repeated ``multiplicity`` times."""
        ...

    def rm_decode(self, words: Words, n1: int, multiplicity: int) -> U8:
        """The n1 symbols (n1,) nearest to the received concatenated word ``words``:
        per symbol, the sum of its copies, the Hadamard transform, and its peak
        (largest |value|, the first on ties; bit 7 set where that value is > 0)."""
        ...
