"""ML-KEM (FIPS 203): the FIPS 203 FO transform on K-PKE with the SHA-3 suite."""

from __future__ import annotations

import numpy as np

from pqkit._checks import as_bytes_len
from pqkit.arith.api import MLKEMKernels, Poly
from pqkit.mlkem import kpke
from pqkit.mlkem.params import CATALOG, Q
from pqkit.mlkem.scheme import KpkeKem, bytes_equal, masked_select
from pqkit.mlkem.symmetric import FIPS203, SuiteOps
from pqkit.registry import Algorithm
from pqkit.schemes import Encapsulation, KeyPair

__all__ = ["MLKEM", "SCHEMES"]


class MLKEM(KpkeKem):
    """ML-KEM-512/768/1024 (FIPS 203, Algorithms 16-21)."""

    BATCH = "pqkit.mlkem.batch:MLKEMBatch"

    def __init__(self, algorithm: Algorithm, *, arith: str | None = None) -> None:
        super().__init__(algorithm, FIPS203, arith=arith)

    def _keygen_internal(self, ops: SuiteOps, K: MLKEMKernels, d: bytes, z: bytes) -> KeyPair:
        """FIPS 203, Algorithm 16 (ML-KEM.KeyGen_internal)."""
        ek_pke, dk_pke = kpke.keygen(self.params, ops, K, d, append_k=True)  # line 1
        ek = ek_pke  # line 2
        dk = dk_pke + ek + ops.H(ek) + z  # line 3
        return KeyPair(ek, dk)

    def _encaps_internal(
        self, ops: SuiteOps, K: MLKEMKernels, ek: bytes, m: bytes, t_hat: Poly | None
    ) -> Encapsulation:
        """FIPS 203, Algorithm 17 (ML-KEM.Encaps_internal)."""
        K_, r = ops.G(m + ops.H(ek))  # line 1
        c = kpke.encrypt(self.params, ops, K, ek, m, r, t_hat)  # line 2
        return Encapsulation(K_, c)

    def _decaps_internal(self, ops: SuiteOps, K: MLKEMKernels, dk: bytes, c: bytes) -> bytes:
        """FIPS 203, Algorithm 18 (ML-KEM.Decaps_internal)."""
        k = self.params.k
        dk_pke = dk[: 384 * k]  # line 1
        ek_pke = dk[384 * k : 768 * k + 32]  # line 2
        h = dk[768 * k + 32 : 768 * k + 64]  # line 3
        z = dk[768 * k + 64 :]  # line 4
        m_prime = kpke.decrypt(self.params, K, dk_pke, c)  # line 5
        K_prime, r_prime = ops.G(m_prime + h)  # line 6
        K_bar = ops.J(z + c)  # line 7
        c_prime = kpke.encrypt(self.params, ops, K, ek_pke, m_prime, r_prime)  # line 8
        # Lines 9-11: K' unless c != c', then K_bar; a masked select, no branch.
        return masked_select(bytes_equal(c, c_prime), K_prime, K_bar)

    def check_encapsulation_key(self, ek: bytes) -> None:
        """Run the FIPS 203 §7.2 input checks on ``ek`` without encapsulating: the
        type check (bytes, length) and the modulus check. ``ValueError`` naming the
        failed check; key objects call this when they load a public key."""
        ek = as_bytes_len(ek, "encapsulation key", self.length_public_key)
        self._check_encapsulation_key(ek, self._tools()[1])

    def check_decapsulation_key(self, dk: bytes) -> None:
        """Run the FIPS 203 §7.3 input checks on ``dk`` without decapsulating: the
        type check (bytes, length) and the hash check. ``ValueError`` naming the
        failed check."""
        dk = as_bytes_len(dk, "decapsulation key", self.length_secret_key)
        self._check_decapsulation_key(dk, self._tools()[0])

    def _check_encapsulation_key(self, ek: bytes, K: MLKEMKernels) -> Poly:
        """FIPS 203 §7.2, check 2 (modulus check): ByteEncode_12(ByteDecode_12(ek))
        must give back the first 384 k bytes of ek (the type check, the length, is
        done by the caller). Returns the decoded t_hat for K-PKE.Encrypt."""
        k = self.params.k
        t = np.frombuffer(ek, dtype=np.uint8, count=384 * k).reshape(k, 384)
        t_hat = K.byte_decode(t, 12)
        if not np.array_equal(K.byte_encode(t_hat, 12), t):
            raise ValueError(
                "FIPS 203 §7.2 modulus check failed: the encapsulation key holds a "
                f"coefficient that is not reduced modulo q = {Q}"
            )
        return t_hat

    def _check_decapsulation_key(self, dk: bytes, ops: SuiteOps) -> None:
        """FIPS 203 §7.3, check 3 (hash check): H(dk[384k : 768k + 32]) must equal
        dk[768k + 32 : 768k + 64] (the type checks, lengths, are done by the caller)."""
        k = self.params.k
        if not bytes_equal(ops.H(dk[384 * k : 768 * k + 32]), dk[768 * k + 32 : 768 * k + 64]):
            raise ValueError(
                "FIPS 203 §7.3 hash check failed: H(ek) stored in the decapsulation key "
                "does not match the encapsulation key inside it"
            )


SCHEMES: dict[str, MLKEM] = {a.name: MLKEM(a) for a in CATALOG if a.family == "ML-KEM"}
