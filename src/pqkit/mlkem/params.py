"""Parameter sets of the K-PKE family (FIPS 203 §8, Table 2; Kyber v3.02 Table 1)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MLKEM_512", "MLKEM_768", "MLKEM_1024", "Params"]


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
    def ek_length(self) -> int:
        """Encapsulation (public) key bytes: 384 k + 32."""
        return 384 * self.k + 32

    @property
    def dk_pke_length(self) -> int:
        """K-PKE decryption key bytes: 384 k."""
        return 384 * self.k

    @property
    def dk_length(self) -> int:
        """Decapsulation (secret) key bytes: 768 k + 96."""
        return 768 * self.k + 96

    @property
    def ct_length(self) -> int:
        """Ciphertext bytes: 32 (du k + dv)."""
        return 32 * (self.du * self.k + self.dv)


MLKEM_512 = Params(k=2, eta1=3, eta2=2, du=10, dv=4, nist_level=1)
MLKEM_768 = Params(k=3, eta1=2, eta2=2, du=10, dv=4, nist_level=3)
MLKEM_1024 = Params(k=4, eta1=2, eta2=2, du=11, dv=5, nist_level=5)
