"""HQC key objects (HQC-1, HQC-3, HQC-5).

No OID is assigned to HQC (neither NIST nor a LAMPS draft gives one yet), so, as
for the hybrid KEMs (:mod:`pqkit.keys.hybrid`, whose raw-PEM key machinery these
classes share), key files are PEM blocks around raw bytes with labels naming the
parameter set: ``-----BEGIN HQC-1 SEED PRIVATE KEY-----`` around the 32-byte
seed_kem (the decapsulation key dk is derived from it on import) and
``-----BEGIN HQC-1 PUBLIC KEY-----`` around the encapsulation key ek.
"""

from __future__ import annotations

from typing import Any, cast

from pqkit._checks import as_bytes_len
from pqkit.keys.hybrid import HybridPrivateKey, HybridPublicKey, register_raw_keys

__all__ = [
    "HQC1PrivateKey",
    "HQC1PublicKey",
    "HQC3PrivateKey",
    "HQC3PublicKey",
    "HQC5PrivateKey",
    "HQC5PublicKey",
    "HQCPrivateKey",
    "HQCPublicKey",
]


def _scheme(name: str) -> Any:
    from pqkit.registry import kem

    return kem(name)


class HQCPublicKey(HybridPublicKey):
    """An HQC encapsulation key ek = seed_ek || s (raw bytes; only the length is
    checked: the specification defines no other check)."""

    __slots__ = ()

    @classmethod
    def _check(cls, raw: bytes) -> None:
        return None  # HQC defines no check of ek beyond its length


class HQCPrivateKey(HybridPrivateKey):
    """An HQC decapsulation key, held as its 32-byte seed_kem and the dk derived from
    it (HQC-KEM.KeyGen); the PEM file holds the seed only."""

    __slots__ = ("_dk",)
    _dk: bytes

    @classmethod
    def from_seed_bytes(cls, seed: bytes) -> HQCPrivateKey:
        key = object.__new__(cls)
        raw = as_bytes_len(seed, f"{cls.algorithm} seed", 32)
        object.__setattr__(key, "_seed", raw)
        object.__setattr__(key, "_dk", _scheme(cls.algorithm).keygen_derand(raw).secret_key)
        return key

    @classmethod
    def generate(cls, *, rng: Any = None) -> HQCPrivateKey:
        from pqkit.schemes import draw

        return cls.from_seed_bytes(draw(rng, 32))

    def private_bytes_expanded(self) -> bytes:
        """The decapsulation key dk = ek || seed_dk || sigma || seed_kem (what the
        scheme API and liboqs call the secret key)."""
        return self._dk

    def public_key(self) -> HQCPublicKey:
        pk = self._dk[: _scheme(self.algorithm).length_public_key]
        return cast(HQCPublicKey, self.public_class.from_public_bytes(pk))

    def decapsulate(self, ciphertext: bytes) -> bytes:
        """The shared secret of ``ciphertext`` (implicit rejection: a bad one gives
        the rejection key)."""
        return bytes(_scheme(self.algorithm).decaps(self._dk, ciphertext))


class HQC1PublicKey(HQCPublicKey):
    __slots__ = ()
    algorithm = "HQC-1"


class HQC1PrivateKey(HQCPrivateKey):
    __slots__ = ()
    algorithm = "HQC-1"
    public_class = HQC1PublicKey


class HQC3PublicKey(HQCPublicKey):
    __slots__ = ()
    algorithm = "HQC-3"


class HQC3PrivateKey(HQCPrivateKey):
    __slots__ = ()
    algorithm = "HQC-3"
    public_class = HQC3PublicKey


class HQC5PublicKey(HQCPublicKey):
    __slots__ = ()
    algorithm = "HQC-5"


class HQC5PrivateKey(HQCPrivateKey):
    __slots__ = ()
    algorithm = "HQC-5"
    public_class = HQC5PublicKey


PRIVATE: dict[str, type[HybridPrivateKey]] = {
    c.algorithm.upper(): c for c in (HQC1PrivateKey, HQC3PrivateKey, HQC5PrivateKey)
}
"""PEM label stem -> private key class (read by :mod:`pqkit.keys.hybrid`'s loaders)."""

register_raw_keys(PRIVATE)
