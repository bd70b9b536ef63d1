"""What the lattice families' constant tables share: n and the bit reversals.

Each family computes its own q, NTT roots and derived factors from their
definitions in ``pqkit.<family>.kernels.tables`` (nothing is typed in as a table;
tests/test_arith_tables.py checks the definitions).
"""

from __future__ import annotations

from pqkit._moved import moved_attributes

__all__ = ["N", "bitrev7", "bitrev8"]

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


# Deprecated location of the families' constants (each family owns its tables now).
__getattr__ = moved_attributes(
    __name__, ("pqkit.mlkem.kernels.tables", "pqkit.mldsa.kernels.tables")
)
