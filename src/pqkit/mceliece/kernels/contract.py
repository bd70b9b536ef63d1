"""Classic McEliece's kernel contract (round 4 specification): the steps of key
generation, encapsulation and decapsulation that do arithmetic over GF(2) and
GF(2^m) (:class:`McElieceKernels`). The shared rules of every contract are in
:mod:`pqkit.arith.api`.

Every kernel takes the parameter set ``p`` (:class:`pqkit.mceliece.params.Params`)
first. Field elements are integers in [0, 2^m) (uint16 arrays); polynomials are
coefficient arrays, lowest degree first; bit vectors of length n are n / 8 bytes
(uint8), bit i = bit i % 8 of byte i // 8; a binary matrix is a uint64 array
``(rows, words(columns))``, bit j of row r = bit j % 64 of word j // 64. Kernels
never modify their inputs. "Secret" marks inputs whose values must not steer
branches, indices or divisions in a constant-time backend; the failure verdicts
(None, 0) are declassified, as in the reference implementation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from pqkit.mceliece.params import Params

__all__ = ["McElieceKernels", "reduce_rows", "words"]

_U8 = npt.NDArray[np.uint8]
_U16 = npt.NDArray[np.uint16]


def words(nbits: int) -> int:
    """64-bit words holding ``nbits`` bits."""
    return (nbits + 63) // 64


def reduce_rows(
    p: Params, move_columns: Callable[[int], int | None], pivot: Callable[[int], bool]
) -> int | None:
    """Spec §2.2.1's loop, which every backend's ``systematic`` runs on its own rows:
    ``pivot(r)`` makes column r the pivot of row r (False where no row has it), and
    the ``f`` sets first call ``move_columns(r0)`` at row r0 = m t - 32. Returns c
    (2^32 - 1 for the plain sets), or None where the reduction fails."""
    pivots = 0xFFFFFFFF
    for r in range(p.mt):
        if p.semi and r == p.mt - 32:
            moved = move_columns(r)
            if moved is None:
                return None
            pivots = moved
        if not pivot(r):
            return None
    return pivots


class McElieceKernels(Protocol):
    """Kernels for one parameter set ``p`` (passed to each)."""

    backend: str

    def irreducible(self, p: Params, f: Any) -> _U16 | None:
        """Spec §2.4.1: the minimal polynomial of beta = f (t coefficients, secret)
        in GF(2^m)[y]/F(y): g_0 .. g_{t-1} (g_t = 1), or None if its degree is
        below t."""
        ...

    def field_ordering(self, p: Params, a: Any) -> npt.NDArray[np.int64] | None:
        """Spec §2.4.2: the 2^m 32-bit values a (secret) sorted with their indices;
        pi (2^m,) with a_pi(0) < a_pi(1) < ..., or None if two values are equal."""
        ...

    def evaluate(self, p: Params, poly: Any, points: Any) -> _U16:
        """poly(x) (poly secret, any degree) at each of ``points`` (secret)."""
        ...

    def parity_check(self, p: Params, g: Any, pi: Any) -> npt.NDArray[np.uint64]:
        """Spec §2.2.2 (MatGen) before reduction: (m t, words(n)) rows, row i m + k,
        column j = bit k of alpha_j^i / g(alpha_j), alpha_j = bitrev(pi(j)). g (t,)
        and pi (2^m,) secret."""
        ...

    def systematic(
        self, p: Params, mat: Any, pi: Any
    ) -> tuple[_U8, npt.NDArray[np.int64], int] | None:
        """Spec §2.2.1: reduce the (m t, words(n)) matrix to [I | T] (the ``f`` sets:
        semi-systematic, columns moved within m t - 32 .. m t + 31 and pi with
        them); (T as m t rows of ceil(k / 8) bytes, pi, the pivot word c), or None
        if the reduction fails. mat and pi (2^m,) secret."""
        ...

    def controlbits(self, p: Params, pi: Any) -> _U8:
        """The cond_bytes control bits of the Benes network for the permutation pi
        of 2^m (secret), as the reference's ``controlbitsfrompermutation``."""
        ...

    def support(self, p: Params, cb: Any) -> _U16:
        """alpha (n,): the Benes network of the control bits cb (secret) applied
        to (bitrev(0), .., bitrev(2^m - 1)), first n entries."""
        ...

    def fixed_weight(self, p: Params, buf: Any) -> _U8 | None:
        """Spec §2.4.4 on one draw of ``p.weight_bytes`` random bytes (secret): e
        (n / 8 bytes, weight t), or None if the draw is rejected."""
        ...

    def encode(self, p: Params, pk: Any, e: Any) -> _U8:
        """Spec §2.2.3: the syndrome C = (I | T) e, ceil(m t / 8) bytes; pk public,
        e (secret) n / 8 bytes."""
        ...

    def syndrome(self, p: Params, g: Any, alpha: Any, r: Any) -> _U16:
        """The 2t values sum_i r_i alpha_i^j / g(alpha_i)^2 (all inputs secret;
        r n / 8 bytes)."""
        ...

    def berlekamp_massey(self, p: Params, s: Any) -> _U16:
        """The reversed error locator (t + 1 coefficients) of the 2t syndrome
        values s (secret)."""
        ...

    def decode(self, p: Params, g: Any, alpha: Any, c: Any) -> tuple[_U8, int]:
        """Spec §2.2.4: (e, 1) with weight(e) = t and the same syndrome as C, else
        (e, 0); g, alpha secret, c public; the verdict is a value, not a branch."""
        ...
