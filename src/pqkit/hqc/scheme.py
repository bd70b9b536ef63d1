"""HQC-KEM (HQC specification of 2025-08-22, §3.3; the reference code's ``kem.c``),
the scheme objects of HQC-1, HQC-3 and HQC-5.

Randomness: key generation asks ``rng`` for seed_kem (32 bytes), encapsulation for
m (k bytes) then the salt (16 bytes), as the reference code asks its PRNG; so the
SHAKE256 PRNG of the HQC (and liboqs) known-answer tests,
:class:`pqkit.hqc.kat.HqcPrng`, passed as ``rng`` reproduces them.
"""

from __future__ import annotations

from typing import cast

import numpy as np

from pqkit._checks import as_bytes_len
from pqkit._ct import bytes_equal, masked_select
from pqkit.hqc import pke
from pqkit.hqc.kernels.contract import HQCKernels
from pqkit.hqc.params import SALT_BYTES, SEED_BYTES, Params
from pqkit.registry import Algorithm, algorithm
from pqkit.schemes import RNG, Encapsulation, KemBase, KeyPair, draw

__all__ = ["SCHEMES", "HqcKem"]


class HqcKem(KemBase):
    """One HQC parameter set; see :class:`pqkit.schemes.Kem` for the public methods.
    ``length_randomness`` is the bytes of ``encaps_derand``'s m || salt."""

    KERNELS = "hqc"
    KAT_RNG = "pqkit.hqc.kat:HqcPrng"
    """The generator of the family's known-answer tests (``pqkit kat``)."""

    params: Params

    def __init__(self, alg: Algorithm, *, arith: str | None = None) -> None:
        super().__init__(alg, arith=arith)
        self.params = cast(Params, alg.params)
        self.length_randomness = self.params.length_randomness

    def _tools(self) -> HQCKernels:
        return cast(HQCKernels, self._kernels())

    # --- key generation -----------------------------------------------------------

    def keygen(self, *, rng: RNG | None = None) -> KeyPair:
        """A new key pair; asks ``rng`` for seed_kem (32 bytes)."""
        return self._keygen(draw(rng, SEED_BYTES))

    def keygen_derand(self, seed: bytes) -> KeyPair:
        """The key pair of the 32-byte seed_kem (HQC-KEM.KeyGen with its randomness)."""
        return self._keygen(as_bytes_len(seed, "seed (seed_kem)", SEED_BYTES))

    def _keygen(self, seed_kem: bytes) -> KeyPair:
        p = self.params
        ctx = pke.xof(seed_kem)
        seed_pke = ctx.read(SEED_BYTES)
        sigma = ctx.read(p.k)
        ek, dk_pke = pke.keygen(seed_pke, p, self._tools())
        return KeyPair(ek, ek + dk_pke + sigma + seed_kem)

    # --- encapsulation ------------------------------------------------------------

    def encaps(self, public_key: bytes, *, rng: RNG | None = None) -> Encapsulation:
        """(shared_secret, ciphertext); asks ``rng`` for m (k bytes), then the salt
        (16 bytes)."""
        ek = as_bytes_len(public_key, "public key", self.length_public_key)
        m = draw(rng, self.params.k)
        salt = draw(rng, SALT_BYTES)
        return self._encaps(ek, m, salt)

    def encaps_derand(self, public_key: bytes, m: bytes) -> Encapsulation:
        """Encapsulation with its randomness given: ``m`` is m || salt
        (``length_randomness`` = k + 16 bytes)."""
        ek = as_bytes_len(public_key, "public key", self.length_public_key)
        coins = as_bytes_len(m, "m || salt", self.length_randomness)
        return self._encaps(ek, coins[: self.params.k], coins[self.params.k :])

    def _encaps(self, ek: bytes, m: bytes, salt: bytes) -> Encapsulation:
        p = self.params
        k_theta = pke.hash_g(pke.hash_h(ek), m, salt)
        c = pke.encrypt(ek, m, k_theta[32:], p, self._tools())
        return Encapsulation(k_theta[:32], c.to_bytes(p) + salt)

    # --- decapsulation ------------------------------------------------------------

    def decaps(self, secret_key: bytes, ciphertext: bytes) -> bytes:
        """The shared secret of ``ciphertext``; a ciphertext that does not re-encrypt
        to itself gives the rejection key J(H(ek), sigma, c) (implicit rejection,
        chosen by a byte mask, the comparison reading both to the end)."""
        p = self.params
        dk = as_bytes_len(secret_key, "secret key", self.length_secret_key)
        c = as_bytes_len(ciphertext, "ciphertext", self.length_ciphertext)
        K = self._tools()
        n_pk = self.length_public_key
        ek, dk_pke = dk[:n_pk], dk[n_pk : n_pk + SEED_BYTES]
        sigma = dk[n_pk + SEED_BYTES : n_pk + SEED_BYTES + p.k]
        u = pke.vector_from_bytes(c[: p.n_bytes], p)
        v_bytes = c[p.n_bytes : p.n_bytes + p.n1n2_bytes]
        v = np.frombuffer(v_bytes, dtype="<u8").astype(np.uint64)
        salt = c[p.n_bytes + p.n1n2_bytes :]
        m_prime = pke.decrypt(dk_pke, u, v, p, K)
        h_ek = pke.hash_h(ek)
        k_theta = pke.hash_g(h_ek, m_prime, salt)
        c_prime = pke.encrypt(ek, m_prime, k_theta[32:], p, K).to_bytes(p) + salt
        k_bar = pke.hash_j(h_ek, sigma, c)
        return masked_select(bytes_equal(c, c_prime), k_theta[:32], k_bar)


SCHEMES = {name: HqcKem(algorithm(name)) for name in ("HQC-1", "HQC-3", "HQC-5")}
