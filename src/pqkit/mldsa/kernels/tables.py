"""ML-DSA's constant tables (FIPS 204), computed from their definitions.

One owner for q, the NTT roots and the derived factors, imported by every backend
(``ref``, ``numpy``, ``jit``). Nothing here is secret and nothing is typed in as a
table: each value is computed at import from the primitive root and the bit
reversal the standard defines (tests/test_arith_tables.py checks the definitions).
"""

from __future__ import annotations

from pqkit.arith.tables import N, bitrev8

__all__ = ["MLDSA_D", "MLDSA_DECOMPOSE", "MLDSA_N_INV", "MLDSA_Q", "MLDSA_ZETA", "MLDSA_ZETAS"]

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
