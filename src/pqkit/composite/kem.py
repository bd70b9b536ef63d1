"""Composite ML-KEM (draft-ietf-lamps-pq-composite-kem-17).

Keys and ciphertexts are the draft's serializations (§4): public key = ML-KEM ek ||
traditional public key, secret key = 64-byte ML-KEM seed d || z || traditional
private key, ciphertext = ML-KEM ciphertext || traditional ciphertext (RSA-OAEP of a
32-byte secret, or an ephemeral ECDH / X25519 / X448 public key). The combiner
(§3.4):

    ss = SHA3-256(mlkemSS || tradSS || tradCT || tradPK || Label)

Decapsulation (§3.3) runs both halves whatever happens. ML-KEM rejects implicitly;
the traditional half can fail (RSA-OAEP padding, a point not on the curve), and
then the composite fails explicitly (§3.5) with one message that does not say
which half it was.
"""

from __future__ import annotations

from typing import Any, cast

from pqkit import common
from pqkit._checks import as_bytes, as_bytes_len
from pqkit.composite.halves import Halves
from pqkit.composite.params import CATALOG, CompositeKemParams, KeyParts
from pqkit.composite.traditional import KEMS, KEYS, TradKem, TradKey
from pqkit.registry import Algorithm
from pqkit.schemes import RNG, Encapsulation, Kem, KemBase, draw

__all__ = ["SCHEMES", "CompositeKem", "DecapsulationError"]


class DecapsulationError(ValueError):
    """Composite ML-KEM decapsulation failed (draft §3.5, explicit rejection); the
    message does not say which half failed."""


class CompositeKem(Halves, KemBase):
    """A composite ML-KEM algorithm with the ML-KEM API (:class:`pqkit.schemes.Kem`);
    ``using(arith=...)`` binds the ML-KEM half."""

    params: CompositeKemParams
    key: TradKey
    trad: TradKem

    def __init__(self, algorithm: Algorithm, *, arith: str | None = None) -> None:
        super().__init__(algorithm, arith=arith)
        self.params = cast(CompositeKemParams, algorithm.params)
        self.key = KEYS[self.params.key]
        self.trad = KEMS[self.params.key]
        self.label = self.params.label
        self.length_randomness = 32 + self.trad.length_randomness
        from pqkit.registry import kem

        self.mlkem: Kem = kem(self.params.mlkem)
        if arith is not None:
            self.mlkem = self.mlkem.using(arith=arith)

    @property
    def mlx(self) -> Kem:
        """The ML-KEM half (:class:`pqkit.composite.halves.Halves`)."""
        return self.mlkem

    def using(self, *, arith: str | None = None) -> CompositeKem:
        """A copy whose ML-KEM half runs on the arithmetic backend ``arith``."""
        twin = super().using(arith=arith)
        twin.mlkem = self.mlkem.using(arith=arith)
        return twin

    # --- the draft's pieces -------------------------------------------------------------

    def combine(self, mlkem_ss: bytes, trad_ss: bytes, trad_ct: bytes, trad_pk: bytes) -> bytes:
        """KemCombiner (§3.4): SHA3-256(mlkemSS || tradSS || tradCT || tradPK || Label)."""
        return common.sha3_256(mlkem_ss + trad_ss + trad_ct + trad_pk + self.label)

    def expand(self, seed: bytes, trad: Any) -> KeyParts:
        """The ML-KEM key pair of ``seed`` (FIPS 203, Algorithm 16) next to the parsed
        traditional key ``trad``: what decapsulation uses (a key object keeps it)."""
        ek, dk = self.mlkem.keygen_derand(seed)
        return KeyParts(ek + self.key.public_bytes(trad), dk, trad)

    def public_key(self, secret_key: bytes) -> bytes:
        """The public key of a composite secret key (checked); the draft's decapsulation
        needs tradPK, which is derived from the private key here (§10.4)."""
        sk = as_bytes(secret_key, "secret key")
        return self.keygen_derand(sk[:64], sk[64:]).public_key

    # --- encapsulation ---------------------------------------------------------------------

    def _encaps(self, public_key: bytes, randomness: bytes) -> Encapsulation:
        ek, trad_pk, trad = self.split_public_key(public_key)
        mlkem_ss, mlkem_ct = self.mlkem.encaps_derand(ek, randomness[:32])
        trad_ss, trad_ct = self.trad.encaps(trad, randomness[32:])
        return Encapsulation(self.combine(mlkem_ss, trad_ss, trad_ct, trad_pk), mlkem_ct + trad_ct)

    def encaps(self, public_key: bytes, *, rng: RNG | None = None) -> Encapsulation:
        """Composite-ML-KEM.Encaps(pk) (§3.2): ``(shared secret, ciphertext)``; asks
        ``rng`` for ML-KEM's m (32 bytes) and the traditional randomness."""
        self.split_public_key(public_key)  # a bad key fails before any randomness is drawn
        randomness = draw(rng, 32) + self.trad.randomness(rng)
        return self._encaps(public_key, randomness)

    def encaps_derand(self, public_key: bytes, randomness: bytes) -> Encapsulation:
        """Encapsulation with the given randomness (``length_randomness`` bytes): ML-KEM
        m (32 bytes), then the traditional part: the 32-byte secret for RSA-OAEP (the
        OAEP seed is OpenSSL's, so the ciphertext differs from call to call), the
        ephemeral private key for X25519 / X448 (raw) and ECDH (big-endian scalar in
        [1, n))."""
        r = as_bytes_len(randomness, "randomness", self.length_randomness)
        return self._encaps(public_key, r)

    # --- decapsulation ---------------------------------------------------------------------

    def decaps(self, secret_key: bytes, ciphertext: bytes) -> bytes:
        """Composite-ML-KEM.Decaps(sk, ct) (§3.3). Raises :class:`DecapsulationError`
        (a ``ValueError``) if the traditional half fails, after computing both halves;
        a modified ML-KEM half gives ML-KEM's implicit-rejection key instead."""
        ct = as_bytes_len(ciphertext, "ciphertext", self.length_ciphertext)
        return self.decaps_parts(self.expand(*self.split_secret_key(secret_key)), ct)

    def decaps_parts(self, parts: KeyParts, ciphertext: bytes) -> bytes:
        """:meth:`decaps` with the key already expanded (:meth:`expand`)."""
        ct = as_bytes_len(ciphertext, "ciphertext", self.length_ciphertext)
        n = self.params.length_mlkem_ciphertext
        mlkem_ss = self.mlkem.decaps(parts.mlx_secret, ct[:n])
        trad_ss, ok = self.trad.decaps(parts.trad, ct[n:])
        trad_pk = parts.public_key[self.params.length_mlkem_public_key :]
        ss = self.combine(mlkem_ss, trad_ss, ct[n:], trad_pk)
        if not ok:
            raise DecapsulationError(f"{self.name} decapsulation failed")
        return ss


SCHEMES: dict[str, CompositeKem] = {a.name: CompositeKem(a) for a in CATALOG if a.kind == "kem"}
"""Each composite ML-KEM algorithm by canonical name."""
