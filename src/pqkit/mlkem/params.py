"""Parameter sets of the K-PKE family (FIPS 203 §8, Table 2; Kyber v3.02 Table 1),
and the family's entries in the algorithm catalogue (:mod:`pqkit.registry`)."""

from __future__ import annotations

from dataclasses import dataclass

from pqkit.registry import Algorithm

__all__ = ["CATALOG", "MLKEM_512", "MLKEM_768", "MLKEM_1024", "Params", "Q"]

Q = 3329
"""The ML-KEM modulus q (FIPS 203 §2.4)."""


@dataclass(frozen=True)
class Params:
    """One parameter set: module rank k, noise widths eta1/eta2, compression du/dv.

    Round-3 Kyber uses the same numbers as ML-KEM at each security level (v3.02,
    with eta1 = 3 for Kyber512), so the same objects serve both.
    """

    k: int
    eta1: int
    eta2: int
    du: int
    dv: int
    nist_level: int

    @property
    def length_public_key(self) -> int:
        """Encapsulation key ek bytes: 384 k + 32 (FIPS 203, Table 3)."""
        return 384 * self.k + 32

    @property
    def length_secret_key(self) -> int:
        """Decapsulation key dk bytes: 768 k + 96 (FIPS 203, Table 3)."""
        return 768 * self.k + 96

    @property
    def length_ciphertext(self) -> int:
        """Ciphertext bytes: 32 (du k + dv) (FIPS 203, Table 3)."""
        return 32 * (self.du * self.k + self.dv)

    @property
    def length_shared_secret(self) -> int:
        """Shared secret bytes: 32."""
        return 32

    @property
    def length_seed(self) -> int:
        """Key-generation seed d || z: 64 bytes (FIPS 203, Algorithm 16)."""
        return 64


MLKEM_512 = Params(k=2, eta1=3, eta2=2, du=10, dv=4, nist_level=1)
MLKEM_768 = Params(k=3, eta1=2, eta2=2, du=10, dv=4, nist_level=3)
MLKEM_1024 = Params(k=4, eta1=2, eta2=2, du=11, dv=5, nist_level=5)

_KEM_OID = "2.16.840.1.101.3.4.4."  # NIST kems arc, id-alg-ml-kem-* (RFC 9935 §3)

CATALOG: tuple[Algorithm, ...] = (
    Algorithm("ML-KEM-512", "kem", "ML-KEM", "pqkit.mlkem.fips203", MLKEM_512, _KEM_OID + "1"),
    Algorithm("ML-KEM-768", "kem", "ML-KEM", "pqkit.mlkem.fips203", MLKEM_768, _KEM_OID + "2"),
    Algorithm("ML-KEM-1024", "kem", "ML-KEM", "pqkit.mlkem.fips203", MLKEM_1024, _KEM_OID + "3"),
    Algorithm("Kyber512", "kem", "Kyber", "pqkit.mlkem.round3", MLKEM_512),
    Algorithm("Kyber768", "kem", "Kyber", "pqkit.mlkem.round3", MLKEM_768),
    Algorithm("Kyber1024", "kem", "Kyber", "pqkit.mlkem.round3", MLKEM_1024),
    Algorithm("Kyber512-90s", "kem", "Kyber-90s", "pqkit.mlkem.round3", MLKEM_512),
    Algorithm("Kyber768-90s", "kem", "Kyber-90s", "pqkit.mlkem.round3", MLKEM_768),
    Algorithm("Kyber1024-90s", "kem", "Kyber-90s", "pqkit.mlkem.round3", MLKEM_1024),
)
"""ML-KEM (FIPS 203) and round-3 Kyber / Kyber-90s share the parameter sets."""
