"""Parameter sets of the Dilithium family (FIPS 204, Table 1; Dilithium v3.1, Table 2).

One frozen dataclass describes every member: ML-DSA and round-3 Dilithium share
the lattice parameters and differ only in the lengths of ``tr`` and of the
challenge seed ``c_tilde`` and in how key generation expands its seed
(``keygen_domain``: FIPS 204 appends k and l to xi, round 3 does not).
"""

from __future__ import annotations

from dataclasses import dataclass

from pqkit.registry import Algorithm

__all__ = [
    "CATALOG",
    "DILITHIUM2",
    "DILITHIUM3",
    "DILITHIUM5",
    "ML_DSA_44",
    "ML_DSA_65",
    "ML_DSA_87",
    "D",
    "Params",
    "Q",
]

Q = 8380417
D = 13


@dataclass(frozen=True)
class Params:
    """One parameter set; the byte lengths follow from the fields."""

    name: str
    k: int
    l: int  # noqa: E741 - the spec's name
    eta: int
    tau: int
    gamma1: int
    gamma2: int
    omega: int
    c_tilde_bytes: int
    """lambda / 4 in FIPS 204; 32 at every level in Dilithium 3.1."""
    tr_bytes: int
    """64 in FIPS 204; 32 in Dilithium 3.1."""
    keygen_domain: bool
    """FIPS 204, Algorithm 6 line 2: H(xi || k || l); round 3 hashes the seed alone."""
    nist_level: int

    @property
    def beta(self) -> int:
        """beta = tau * eta (FIPS 204, Table 1)."""
        return self.tau * self.eta

    @property
    def signing(self) -> tuple[int, int, int, int, int]:
        """(tau, gamma1, gamma2, omega, c_tilde_bytes): the parameters of a signature's
        shape, in the order the compiled sign and verify kernels take them."""
        return (self.tau, self.gamma1, self.gamma2, self.omega, self.c_tilde_bytes)

    @property
    def eta_bits(self) -> int:
        """bitlen(2 eta): the width of a packed s1/s2 coefficient."""
        return (2 * self.eta).bit_length()

    @property
    def z_bits(self) -> int:
        """bitlen(2 gamma1 - 1) = 1 + bitlen(gamma1 - 1): the width of a packed z coefficient."""
        return (2 * self.gamma1 - 1).bit_length()

    @property
    def w1_bits(self) -> int:
        """bitlen((q - 1) / (2 gamma2) - 1): the width of a w1 coefficient in w1Encode."""
        return ((Q - 1) // (2 * self.gamma2) - 1).bit_length()

    @property
    def length_seed(self) -> int:
        """Key-generation seed xi: 32 bytes (FIPS 204, Algorithm 6)."""
        return 32

    @property
    def length_public_key(self) -> int:
        # FIPS 204, Algorithm 22 (pkEncode): rho || 10-bit t1
        return 32 + 32 * self.k * 10

    @property
    def length_secret_key(self) -> int:
        # FIPS 204, Algorithm 24 (skEncode): rho || K || tr || s1 || s2 || t0
        return 64 + self.tr_bytes + 32 * ((self.k + self.l) * self.eta_bits + D * self.k)

    @property
    def length_signature(self) -> int:
        # FIPS 204, Algorithm 26 (sigEncode): c_tilde || z || hints
        return self.c_tilde_bytes + 32 * self.l * self.z_bits + self.omega + self.k


_G88 = (Q - 1) // 88
_G32 = (Q - 1) // 32

ML_DSA_44 = Params("ML-DSA-44", 4, 4, 2, 39, 1 << 17, _G88, 80, 32, 64, True, 2)
ML_DSA_65 = Params("ML-DSA-65", 6, 5, 4, 49, 1 << 19, _G32, 55, 48, 64, True, 3)
ML_DSA_87 = Params("ML-DSA-87", 8, 7, 2, 60, 1 << 19, _G32, 75, 64, 64, True, 5)

DILITHIUM2 = Params("Dilithium2", 4, 4, 2, 39, 1 << 17, _G88, 80, 32, 32, False, 2)
DILITHIUM3 = Params("Dilithium3", 6, 5, 4, 49, 1 << 19, _G32, 55, 32, 32, False, 3)
DILITHIUM5 = Params("Dilithium5", 8, 7, 2, 60, 1 << 19, _G32, 75, 32, 32, False, 5)

_SIG_OID = "2.16.840.1.101.3.4.3."  # NIST sigAlgs arc, id-ml-dsa-* (RFC 9881 §2)
_FIPS204 = "pqkit.mldsa.fips204"
_ROUND3 = "pqkit.mldsa.round3"
_ROUND3_SETS = (DILITHIUM2, DILITHIUM3, DILITHIUM5)

CATALOG: tuple[Algorithm, ...] = (
    Algorithm("ML-DSA-44", "sig", "ML-DSA", _FIPS204, ML_DSA_44, _SIG_OID + "17"),
    Algorithm("ML-DSA-65", "sig", "ML-DSA", _FIPS204, ML_DSA_65, _SIG_OID + "18"),
    Algorithm("ML-DSA-87", "sig", "ML-DSA", _FIPS204, ML_DSA_87, _SIG_OID + "19"),
    *(
        Algorithm(p.name, "sig", "Dilithium", _ROUND3, p)
        for p in (DILITHIUM2, DILITHIUM3, DILITHIUM5)
    ),
    *(
        Algorithm(f"{p.name}-AES", "sig", "Dilithium-AES", _ROUND3, p)
        for p in (DILITHIUM2, DILITHIUM3, DILITHIUM5)
    ),
)
