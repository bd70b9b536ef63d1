"""Round-3 Kyber and Kyber-90s (Kyber v3.02): the round-3 FO transform on K-PKE.

The differences from ML-KEM (NIST-KAT-FORMAT.md §7 and the v3.02 specification):
K-PKE.KeyGen hashes d alone (no k byte); encapsulation first hashes its 32 random
bytes (m = H(m)), derives (K_bar, r) = G(m || H(pk)) and outputs
K = KDF(K_bar || H(c)); decapsulation replaces K_bar by z on a failed
re-encryption, KDF(z || H(c)). Round 3 has no modulus or hash check on keys, only
length checks. Kyber-90s is the same with the SHA-2/AES suite.
"""

from __future__ import annotations

from typing import Any

from pqkit.arith.api import MLKEMKernels
from pqkit.mlkem import kpke
from pqkit.mlkem.params import CATALOG
from pqkit.mlkem.scheme import KpkeKem, bytes_equal, masked_select
from pqkit.mlkem.symmetric import FIPS203, KYBER90S, Suite, SuiteOps
from pqkit.registry import Algorithm
from pqkit.schemes import Encapsulation, KeyPair

_SUITES: dict[str, Suite] = {"Kyber": FIPS203, "Kyber-90s": KYBER90S}
"""The symmetric suite of each round-3 family."""

__all__ = ["SCHEMES", "KyberR3"]


class KyberR3(KpkeKem):
    """Kyber512/768/1024 and their -90s variants (CCA transform of Kyber v3.02,
    Algorithms 7-9 of the round-3 specification: Kyber.CCAKEM)."""

    KEYGEN_DRAWS = (32, 32)
    """d, then z: the two ``randombytes`` calls of the round-3 reference code's
    crypto_kem_keypair, which its NIST KAT files were made with."""

    def __init__(self, algorithm: Algorithm, *, arith: str | None = None) -> None:
        super().__init__(algorithm, _SUITES[algorithm.family], arith=arith)

    def _keygen_internal(self, ops: SuiteOps, K: MLKEMKernels, d: bytes, z: bytes) -> KeyPair:
        """Kyber.CCAKEM.KeyGen: (pk, sk' || pk || H(pk) || z)."""
        pk, sk_pke = kpke.keygen(self.params, ops, K, d, append_k=False)
        return KeyPair(pk, sk_pke + pk + ops.H(pk) + z)

    def _encaps_internal(
        self, ops: SuiteOps, K: MLKEMKernels, ek: bytes, m: bytes, state: Any
    ) -> Encapsulation:
        """Kyber.CCAKEM.Enc with the 32 random bytes ``m`` (hashed before use);
        ``state`` is None (round 3 has no key check to decode the key)."""
        m = ops.H(m)  # "do not release system RNG output"
        K_bar, r = ops.G(m + ops.H(ek))
        c = kpke.encrypt(self.params, ops, K, ek, m, r)
        return Encapsulation(ops.J(K_bar + ops.H(c)), c)

    def _decaps_internal(
        self, ops: SuiteOps, K: MLKEMKernels, dk: bytes, c: bytes, state: Any = None
    ) -> bytes:
        """Kyber.CCAKEM.Dec: implicit rejection with KDF(z || H(c))."""
        k = self.params.k
        sk_pke = dk[: 384 * k]
        pk = dk[384 * k : 768 * k + 32]
        h = dk[768 * k + 32 : 768 * k + 64]
        z = dk[768 * k + 64 :]
        m_prime = kpke.decrypt(self.params, K, sk_pke, c)
        K_bar_prime, r_prime = ops.G(m_prime + h)
        c_prime = kpke.encrypt(self.params, ops, K, pk, m_prime, r_prime)
        # Both candidates computed; a masked select, no branch.
        pre_key = masked_select(bytes_equal(c, c_prime), K_bar_prime, z)
        return ops.J(pre_key + ops.H(c))


SCHEMES: dict[str, KyberR3] = {a.name: KyberR3(a) for a in CATALOG if a.family in _SUITES}
