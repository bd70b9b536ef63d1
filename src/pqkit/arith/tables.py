"""The constant tables of the arithmetic backends, computed from their definitions.

One owner for q, n, the NTT roots and the derived factors, imported by every
backend (``ref``, ``numpy``, ``jit``); the ``ref`` modules re-export them for
readers who follow FIPS 203 / FIPS 204 there. Nothing here is secret and nothing
is typed in as a table: each value is computed at import from the primitive root
and the bit reversal the standards define, and tests/test_arith_tables.py checks
the definitions (primitive root, first entries of the appendices).
"""

from __future__ import annotations

__all__ = [
    "MLDSA_D",
    "MLDSA_DECOMPOSE",
    "MLDSA_N_INV",
    "MLDSA_Q",
    "MLDSA_ZETA",
    "MLDSA_ZETAS",
    "MLKEM_GAMMAS",
    "MLKEM_N_INV",
    "MLKEM_Q",
    "MLKEM_ZETA",
    "MLKEM_ZETAS",
    "N",
    "bitrev7",
    "bitrev8",
]

N = 256
"""Coefficients per polynomial in both standards (FIPS 203 §2.3, FIPS 204 §2.3)."""


def _bitrev(i: int, bits: int) -> int:
    return int(f"{i:0{bits}b}"[::-1], 2)


def bitrev7(i: int) -> int:
    """BitRev7(i): the 7-bit reversal of ``i`` (FIPS 203 §4.3)."""
    return _bitrev(i, 7)


def bitrev8(m: int) -> int:
    """BitRev8(m): the 8-bit reversal of ``m`` (FIPS 204, Algorithm 43 (BitRev8))."""
    return _bitrev(m, 8)


# --- ML-KEM (FIPS 203) ----------------------------------------------------------------

MLKEM_Q = 3329
"""The ML-KEM modulus q = 2^8 * 13 + 1 (FIPS 203 §2.4)."""
MLKEM_ZETA = 17
"""The primitive 256-th root of unity mod q that FIPS 203 §4.3 fixes."""

MLKEM_ZETAS: tuple[int, ...] = tuple(pow(MLKEM_ZETA, bitrev7(i), MLKEM_Q) for i in range(128))
"""zeta^BitRev7(i) mod q, i = 0..127 (FIPS 203, Appendix A)."""

MLKEM_GAMMAS: tuple[int, ...] = tuple(
    pow(MLKEM_ZETA, 2 * bitrev7(i) + 1, MLKEM_Q) for i in range(128)
)
"""zeta^(2 BitRev7(i) + 1) mod q, i = 0..127: the moduli of the degree-1 residues
(FIPS 203, Appendix A, second table)."""

MLKEM_N_INV = pow(128, -1, MLKEM_Q)
"""128^-1 mod q = 3303: the final factor of FIPS 203, Algorithm 10 (NTT^-1), line 14."""


# --- ML-DSA (FIPS 204) ----------------------------------------------------------------

MLDSA_Q = 8380417
"""The ML-DSA modulus q = 2^23 - 2^13 + 1 (FIPS 204 §4)."""
MLDSA_D = 13
"""Dropped bits of t (FIPS 204, Table 1)."""
MLDSA_ZETA = 1753
"""The primitive 512-th root of unity mod q that FIPS 204 §2.5 fixes."""

MLDSA_ZETAS: tuple[int, ...] = tuple(pow(MLDSA_ZETA, bitrev8(k), MLDSA_Q) for k in range(N))
"""zetas[k] = zeta^BitRev8(k) mod q (FIPS 204, Appendix B)."""

MLDSA_N_INV = pow(256, -1, MLDSA_Q)
"""256^-1 mod q = 8347681: the final factor of FIPS 204, Algorithm 42 (NTT^-1), line 21."""


def _decompose_constants(gamma2: int, shift: int) -> tuple[int, int]:
    """(m, shift) with m = round(2^shift 128 / (2 gamma2)): HighBits(r) (FIPS 204,
    Algorithm 37) as ((ceil(r / 128) m + 2^(shift - 1)) >> shift), a fixed-point
    round(r / (2 gamma2)) with no division; the wrap (q - 1) / (2 gamma2) -> 0 is
    the backend's. 2 gamma2 is a multiple of 128, so r / 128 loses nothing the
    rounding needs; the shifts are the smallest at which every r in [0, q) rounds
    right (tests/test_arith_differential.py checks all of them against ``ref``)."""
    return ((1 << shift) * 128 + gamma2) // (2 * gamma2), shift


MLDSA_DECOMPOSE: dict[int, tuple[int, int]] = {
    (MLDSA_Q - 1) // 32: _decompose_constants((MLDSA_Q - 1) // 32, 22),  # (1025, 22)
    (MLDSA_Q - 1) // 88: _decompose_constants((MLDSA_Q - 1) // 88, 24),  # (11275, 24)
}
"""Per gamma2 of FIPS 204 (Table 1): the multiply-and-shift constants of HighBits."""
