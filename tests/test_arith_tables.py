"""The constant tables (pqkit.arith.tables) against their definitions in FIPS 203 and
FIPS 204: primitive roots, bit reversal, the first entries of the appendices, and
the derived factors that were literals before (3303, 8347681, the HighBits
constants 1025 and 11275)."""

from __future__ import annotations

from pqkit.arith.tables import bitrev7, bitrev8
from pqkit.mldsa.kernels import ref as ref_mldsa
from pqkit.mldsa.kernels.tables import (
    MLDSA_DECOMPOSE,
    MLDSA_N_INV,
    MLDSA_Q,
    MLDSA_ZETA,
    MLDSA_ZETAS,
)
from pqkit.mlkem.kernels import ref as ref_mlkem
from pqkit.mlkem.kernels.tables import MLKEM_GAMMAS, MLKEM_N_INV, MLKEM_Q, MLKEM_ZETA, MLKEM_ZETAS


def _order(g: int, q: int) -> int:
    n, x = 1, g
    while x != 1:
        x, n = x * g % q, n + 1
    return n


def test_mlkem_tables() -> None:
    assert [bitrev7(i) for i in (0, 1, 64, 127)] == [0, 64, 1, 127]
    assert _order(MLKEM_ZETA, MLKEM_Q) == 256  # a primitive 256-th root of unity
    assert MLKEM_ZETAS[:4] == (1, 1729, 2580, 3289)  # FIPS 203 Appendix A, first entries
    assert MLKEM_GAMMAS[:4] == (17, 3312, 2761, 568)
    assert all(g == MLKEM_ZETAS[i] ** 2 * MLKEM_ZETA % MLKEM_Q for i, g in enumerate(MLKEM_GAMMAS))
    assert MLKEM_N_INV * 128 % MLKEM_Q == 1 and MLKEM_N_INV == 3303  # Algorithm 10 line 14


def test_mldsa_tables() -> None:
    assert [bitrev8(i) for i in (0, 1, 128, 255)] == [0, 128, 1, 255]
    assert _order(MLDSA_ZETA, MLDSA_Q) == 512  # a primitive 512-th root of unity
    assert MLDSA_ZETAS[:4] == (1, 4808194, 3765607, 3761513)  # FIPS 204, Appendix B
    assert len(set(MLDSA_ZETAS)) == 256
    assert MLDSA_N_INV * 256 % MLDSA_Q == 1 and MLDSA_N_INV == 8347681  # Alg. 42 line 21


def test_decompose_constants() -> None:
    """The HighBits multipliers are round(2^shift 128 / (2 gamma2)); their values
    are the ones the reference implementations print (1025 and 11275), and the
    exhaustive test (test_arith_mldsa.py) shows they are right on all of [0, q)."""
    g32, g88 = (MLDSA_Q - 1) // 32, (MLDSA_Q - 1) // 88
    assert {g32: (1025, 22), g88: (11275, 24)} == MLDSA_DECOMPOSE
    for g2, (m, shift) in MLDSA_DECOMPOSE.items():
        assert (2 * g2) % 128 == 0
        assert abs(m - (1 << shift) * 128 / (2 * g2)) <= 0.5


def test_ref_reexports_the_tables() -> None:
    assert ref_mlkem.Q == MLKEM_Q and ref_mlkem.ZETAS is MLKEM_ZETAS
    assert ref_mldsa.Q == MLDSA_Q and ref_mldsa.ZETAS is MLDSA_ZETAS
