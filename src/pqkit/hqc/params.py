"""Parameter sets of HQC (the HQC specification of 2025-08-22, §2.6 / Table 5, the
version liboqs 0.16 ships as HQC-1, HQC-3 and HQC-5), and the family's entries in
the algorithm catalogue (:mod:`pqkit.registry`). Light: no NumPy."""

from __future__ import annotations

from dataclasses import dataclass

from pqkit.registry import Algorithm

__all__ = ["CATALOG", "HQC_1", "HQC_3", "HQC_5", "SALT_BYTES", "SEED_BYTES", "Params"]

SEED_BYTES = 32
"""Bytes of every seed (seed_kem, seed_pke, seed_dk, seed_ek, theta) and of H(ek)."""
SALT_BYTES = 16
"""Bytes of the encapsulation salt."""


@dataclass(frozen=True)
class Params:
    """One HQC parameter set.

    ``n`` is the length of the ring GF(2)[x]/(x^n - 1); the concatenated code is a
    Reed-Solomon code [n1, k] over GF(2^8) correcting ``delta`` errors, each symbol
    encoded by a duplicated Reed-Muller RM(1, 7) code of length n2 = 128 * multiplicity.
    ``omega`` is the weight of the secret x, y; ``omega_r`` of r1, r2 and ``omega_e``
    of e; ``k`` bytes is the message (the security level in bytes).
    """

    n: int
    n1: int
    n2: int
    k: int
    delta: int
    omega: int
    omega_r: int
    omega_e: int
    nist_level: int

    @property
    def words(self) -> int:
        """64-bit words of a vector of GF(2)^n."""
        return (self.n + 63) // 64

    @property
    def n_bytes(self) -> int:
        """Bytes of a vector of GF(2)^n."""
        return (self.n + 7) // 8

    @property
    def n1n2(self) -> int:
        """Bits of a concatenated code word."""
        return self.n1 * self.n2

    @property
    def n1n2_bytes(self) -> int:
        return (self.n1n2 + 7) // 8

    @property
    def multiplicity(self) -> int:
        """Copies of each RM(1, 7) code word in a duplicated Reed-Muller code word."""
        return self.n2 // 128

    @property
    def length_public_key(self) -> int:
        """ek = seed_ek || s."""
        return SEED_BYTES + self.n_bytes

    @property
    def length_secret_key(self) -> int:
        """dk = ek || seed_dk || sigma || seed_kem."""
        return self.length_public_key + SEED_BYTES + self.k + SEED_BYTES

    @property
    def length_ciphertext(self) -> int:
        """c = u || v || salt."""
        return self.n_bytes + self.n1n2_bytes + SALT_BYTES

    @property
    def length_shared_secret(self) -> int:
        return 32

    @property
    def length_seed(self) -> int:
        """Key generation seed seed_kem: 32 bytes."""
        return SEED_BYTES

    @property
    def length_randomness(self) -> int:
        """Encapsulation randomness m || salt: k + 16 bytes."""
        return self.k + SALT_BYTES


HQC_1 = Params(
    n=17669, n1=46, n2=384, k=16, delta=15, omega=66, omega_r=75, omega_e=75, nist_level=1
)
HQC_3 = Params(
    n=35851, n1=56, n2=640, k=24, delta=16, omega=100, omega_r=114, omega_e=114, nist_level=3
)
HQC_5 = Params(
    n=57637, n1=90, n2=640, k=32, delta=29, omega=131, omega_r=149, omega_e=149, nist_level=5
)

CATALOG: tuple[Algorithm, ...] = (
    Algorithm("HQC-1", "kem", "HQC", "pqkit.hqc.scheme", HQC_1),
    Algorithm("HQC-3", "kem", "HQC", "pqkit.hqc.scheme", HQC_3),
    Algorithm("HQC-5", "kem", "HQC", "pqkit.hqc.scheme", HQC_5),
)
"""No OID is assigned to HQC (no draft assigns one yet): keys are raw bytes."""
