"""ML-KEM's constant tables (FIPS 203), computed from their definitions.

One owner for q, the NTT roots and the derived factors, imported by every backend
(``ref``, ``numpy``, ``jit``). Nothing here is secret and nothing is typed in as a
table: each value is computed at import from the primitive root and the bit
reversal the standard defines (tests/test_arith_tables.py checks the definitions).
"""

from __future__ import annotations

from pqkit.arith.tables import bitrev7

__all__ = ["MLKEM_GAMMAS", "MLKEM_N_INV", "MLKEM_Q", "MLKEM_ZETA", "MLKEM_ZETAS"]

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
