"""What every Dilithium-family scheme object shares: sizes, backend binding, key
generation and the argument checks. :mod:`pqkit.mldsa.fips204` and
:mod:`pqkit.mldsa.round3` add the message handling of FIPS 204 and of
Dilithium 3.1 on top."""

from __future__ import annotations

import copy
from typing import Any, TypeVar

from pqkit import arith
from pqkit._checks import as_bytes, as_bytes_len
from pqkit.errors import UnknownBackend
from pqkit.mldsa import core
from pqkit.mldsa.params import Params
from pqkit.mldsa.symmetric import Suite
from pqkit.schemes import RNG, KeyPair, draw

__all__ = ["DilithiumScheme"]

_S = TypeVar("_S", bound="DilithiumScheme")


class DilithiumScheme:
    """A stateless scheme object: one parameter set, one symmetric suite, and an
    optional arithmetic backend (None: the usual selection, :mod:`pqkit.arith`)."""

    def __init__(self, params: Params, suite: Suite, *, arith_backend: str | None = None) -> None:
        self.params = params
        self.suite = suite
        self._arith = arith_backend
        self.name = params.name
        self.length_public_key = params.length_public_key
        self.length_secret_key = params.length_secret_key
        self.length_signature = params.length_signature
        self.claimed_nist_level = params.nist_level

    def __repr__(self) -> str:
        bound = f", arith={self._arith!r}" if self._arith else ""
        return f"<{type(self).__name__} {self.name}{bound}>"

    def using(self: _S, *, arith: str | None = None) -> _S:
        """A copy of this scheme bound to the arithmetic backend ``arith``
        (``"numpy"`` or ``"ref"``; None: the usual selection)."""
        if arith is not None and arith not in arith_backends():
            raise UnknownBackend("arith", str(arith), arith_backends())
        twin = copy.copy(self)
        twin._arith = arith
        return twin

    def _ops(self) -> core.Ops:
        return core.ops_for(self.suite, self._arith)

    # --- argument checks ------------------------------------------------------------

    def _public_key(self, public_key: Any) -> bytes:
        return as_bytes_len(public_key, f"{self.name} public key", self.length_public_key)

    def _secret_key(self, ops: core.Ops, secret_key: Any) -> core.SecretKey:
        sk = as_bytes_len(secret_key, f"{self.name} secret key", self.length_secret_key)
        return core.decode_secret_key(self.params, ops, sk)

    def _signature(self, signature: Any) -> bytes | None:
        """The signature bytes, or None when its length is wrong (verify -> False)."""
        sig = as_bytes(signature, "signature")
        return sig if len(sig) == self.length_signature else None

    # --- key generation ---------------------------------------------------------------

    def keygen(self, *, rng: RNG | None = None) -> KeyPair:
        """A fresh key pair; draws the 32-byte seed from ``rng`` (default os.urandom)."""
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
        sk = as_bytes_len(secret_key, f"{self.name} secret key", self.length_secret_key)
        return core.public_key_from_secret(self.params, self._ops(), sk)


def arith_backends() -> list[str]:
    """The arithmetic backends that provide ML-DSA kernels."""
    return arith.available("mldsa")
