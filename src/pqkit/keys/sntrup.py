"""sntrup761 key objects.

No OID is assigned to sntrup761, so, as for the hybrid KEMs (:mod:`pqkit.keys.hybrid`,
whose raw-PEM key machinery these classes share), key files are PEM blocks around raw
bytes: the private key is the whole 1763-byte secret key of the submission (it has no
seed form) in ``-----BEGIN SNTRUP761 PRIVATE KEY-----``; the public key (1158 bytes)
in ``-----BEGIN SNTRUP761 PUBLIC KEY-----``.
"""

from __future__ import annotations

from typing import Any

from pqkit.keys.hybrid import HybridPrivateKey, HybridPublicKey, register_raw_keys

__all__ = ["Sntrup761PrivateKey", "Sntrup761PublicKey"]


def _scheme(name: str) -> Any:
    from pqkit.registry import kem

    return kem(name)


class Sntrup761PublicKey(HybridPublicKey):
    """An sntrup761 public key (1158 bytes; every string of that length decodes)."""

    __slots__ = ()
    algorithm = "sntrup761"

    @classmethod
    def _check(cls, raw: bytes) -> None:
        return None  # Rq_decode reduces every digit: no check is defined


class Sntrup761PrivateKey(HybridPrivateKey):
    """An sntrup761 private key: the 1763-byte secret key (f, 1/g, pk, rho, Hash4(pk))."""

    __slots__ = ()
    algorithm = "sntrup761"
    public_class = Sntrup761PublicKey
    private_label = "PRIVATE KEY"

    @classmethod
    def _length(cls) -> int:
        return int(_scheme(cls.algorithm).length_secret_key)

    def _public_raw(self) -> bytes:
        n = (761 + 3) // 4  # Small_bytes: the public key follows f and 1/g
        return self._seed[2 * n : 2 * n + _scheme(self.algorithm).length_public_key]


register_raw_keys({Sntrup761PrivateKey.algorithm.upper(): Sntrup761PrivateKey})
