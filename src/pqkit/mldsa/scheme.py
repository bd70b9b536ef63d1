"""What every Dilithium-family scheme object adds to :class:`pqkit.schemes.SignatureBase`:
the suite, key generation and the argument checks. :mod:`pqkit.mldsa.fips204` and
:mod:`pqkit.mldsa.round3` add the message handling of FIPS 204 and of
Dilithium 3.1 on top."""

from __future__ import annotations

import hmac
from typing import Any, cast

from pqkit import _keystate as keystate
from pqkit._checks import as_bytes, as_bytes_len
from pqkit._lru import LruCache
from pqkit.arith.api import Poly
from pqkit.mldsa import core
from pqkit.mldsa.params import Params
from pqkit.mldsa.symmetric import Suite
from pqkit.registry import Algorithm
from pqkit.schemes import RNG, KeyPair, SignatureBase, draw

__all__ = ["DilithiumScheme"]


class DilithiumScheme(SignatureBase):
    """A stateless scheme object: one parameter set, one symmetric suite, and an
    optional arithmetic backend (None: the usual selection, :mod:`pqkit.arith`)."""

    KERNELS = "mldsa"

    params: Params

    def __init__(self, algorithm: Algorithm, suite: Suite, *, arith: str | None = None) -> None:
        super().__init__(algorithm, arith=arith)
        self.params = cast(Params, algorithm.params)
        self.suite = suite
        # Shared by the copies using() makes: A_hat does not depend on the backend.
        self._a_cache: LruCache[Poly] = LruCache(core.A_CACHE_SIZE)

    def _ops(self) -> core.Ops:
        return core.ops_for(self.suite, self.arith, self._a_cache)

    # --- argument checks ------------------------------------------------------------

    def _public_key(self, public_key: Any) -> bytes:
        return as_bytes_len(public_key, f"{self.name} public key", self.length_public_key)

    def _secret_bytes(self, secret_key: Any) -> bytes:
        return as_bytes_len(secret_key, f"{self.name} secret key", self.length_secret_key)

    def _secret_key(self, ops: core.Ops, secret_key: Any) -> core.SecretKey:
        sk = self._secret_bytes(secret_key)
        key = core.secret_key_cached(self.params, ops, sk)  # skDecode's range check
        self._check_consistent(ops, sk, key)
        return key

    def _check_consistent(
        self, ops: core.Ops, sk: bytes, key: core.SecretKey | None = None
    ) -> None:
        """Refuse (ValueError) an expanded secret key whose t0 or tr do not follow from
        its rho, s1 and s2 (:func:`core.public_key_from_secret`).

        Signing with such a key gives signatures that do not verify, or never ends
        (a t0 out of range fails the ct0 check on every attempt). The verdict is kept
        only in the key object that signs (:mod:`pqkit._keystate`; a key object
        notes it when it is made, as its key was checked or derived then); the bytes
        API checks on every call. Inconsistent keys are never noted. ``key``: sk decoded already
        (:func:`core.secret_key_cached`), whose decoding and NTT(s1) the check reuses.
        """

        def check() -> bytes:
            core.public_key_from_secret(self.params, ops, sk, key)
            return sk

        keystate.cached(
            keystate.MLDSA_CONSISTENT, lambda checked: hmac.compare_digest(checked, sk), check
        )

    def _signature(self, signature: Any) -> bytes | None:
        """The signature bytes, or None when its length is wrong (verify -> False)."""
        sig = as_bytes(signature, "signature")
        return sig if len(sig) == self.length_signature else None

    # --- key generation ---------------------------------------------------------------

    def keygen(self, *, rng: RNG | None = None) -> KeyPair:
        """A fresh key pair (FIPS 204, Algorithm 1 (ML-DSA.KeyGen)); draws the 32-byte
        seed xi from ``rng`` (default os.urandom)."""
        return self.keygen_derand(draw(rng, 32))

    def keygen_derand(self, xi: bytes) -> KeyPair:
        """The key pair of the 32-byte seed ``xi`` (FIPS 204, Algorithm 6)."""
        seed = as_bytes_len(xi, "xi", 32)
        pk, sk = core.keygen_internal(self.params, self._ops(), seed)
        return KeyPair(pk, sk)

    def public_key_from_secret(self, secret_key: bytes) -> bytes:
        """Validate an expanded secret key and return its public key.

        ValueError names the failed check: length, s1/s2 range, t0 consistency
        (t0 must be Power2Round(A s1 + s2)'s low part) or tr = H(pk).
        """
        sk = self._secret_bytes(secret_key)
        return core.public_key_from_secret(self.params, self._ops(), sk)
