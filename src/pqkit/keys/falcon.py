"""Key objects for Falcon (round-3 specification v1.2, as liboqs 0.16 ships it).

The keys are the specification's (and liboqs's) raw encodings: the public key
``0x00 + logn || h`` and the private key ``0x50 + logn || f || g || F`` (§3.11).
Key files: the round-3 submission assigns no OID and liboqs uses none, and FN-DSA's
(FIPS 206) are not published, so no PKCS#8 / SPKI is written; the files are PEM
blocks around the raw bytes with labels naming the set:
``-----BEGIN FALCON-512 PRIVATE KEY-----`` and ``-----BEGIN FALCON-512 PUBLIC
KEY-----`` (likewise ``FALCON-1024``, ``FALCON-PADDED-512``, ``FALCON-PADDED-1024``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from pqkit._checks import as_bytes
from pqkit.errors import InvalidSignature
from pqkit.keys._raw import RawPrivateKey, RawPublicKey, has_label, key_labels
from pqkit.schemes import RNG
from pqkit.serialization.pem import pem_decode, pem_encode

__all__ = [
    "Falcon512PrivateKey",
    "Falcon512PublicKey",
    "Falcon1024PrivateKey",
    "Falcon1024PublicKey",
    "FalconPadded512PrivateKey",
    "FalconPadded512PublicKey",
    "FalconPadded1024PrivateKey",
    "FalconPadded1024PublicKey",
    "FalconPrivateKey",
    "FalconPublicKey",
    "falcon_private_key_class",
    "is_falcon_pem",
    "load_pem_falcon_key",
]


def _scheme(name: str) -> Any:
    from pqkit import registry

    return registry.sig(name)


class FalconPublicKey(RawPublicKey):
    """A Falcon public key (immutable; the raw ``header || h``)."""

    __slots__ = ()

    @classmethod
    def from_public_bytes(cls, data: bytes) -> FalconPublicKey:
        """The key from its raw encoding; ValueError naming what is malformed."""
        raw = as_bytes(data, f"{cls.algorithm} public key")
        _scheme(cls.algorithm)._public(raw)  # length, header, every h_i < q
        key: FalconPublicKey = cls._wrap(raw)
        return key

    def verify(self, signature: bytes, data: bytes) -> None:
        """Check a signature of ``data``; raise InvalidSignature if it is not one."""
        if not _scheme(self.algorithm).verify(self._raw, data, signature):
            raise InvalidSignature(f"{self.algorithm} signature does not verify")


class FalconPrivateKey(RawPrivateKey):
    """A Falcon private key: the raw ``header || f || g || F`` (G is recomputed).
    Not copyable or picklable; write it with :meth:`private_bytes_pem`."""

    _uncopyable_hint = "write it with private_bytes_pem()"

    __slots__ = ("_public", "_raw")
    public_class: ClassVar[type[FalconPublicKey]]
    _raw: bytes
    _public: bytes

    @classmethod
    def from_private_bytes(cls, data: bytes) -> FalconPrivateKey:
        """The key from its raw encoding; ValueError naming what is malformed (a
        wrong length or header, a non-canonical value, or (f, g, F) that is not a
        Falcon key)."""
        raw = as_bytes(data, f"{cls.algorithm} private key")
        public = _scheme(cls.algorithm).public_key_from_secret(raw)
        key = object.__new__(cls)
        object.__setattr__(key, "_raw", raw)
        object.__setattr__(key, "_public", public)
        return key

    @classmethod
    def generate(cls, *, rng: RNG | None = None) -> FalconPrivateKey:
        return cls.from_private_bytes(_scheme(cls.algorithm).keygen(rng=rng).secret_key)

    def private_bytes_raw(self) -> bytes:
        return self._raw

    def private_bytes_pem(self) -> bytes:
        """``-----BEGIN <NAME> PRIVATE KEY-----`` around the raw key (unencrypted:
        protect the file)."""
        return pem_encode(self._raw, f"{self.algorithm.upper()} PRIVATE KEY")

    def public_key(self) -> FalconPublicKey:
        return self.public_class.from_public_bytes(self._public)

    def sign(self, data: bytes, *, rng: RNG | None = None) -> bytes:
        """A (randomised: Falcon has no other way) signature of ``data``."""
        signature: bytes = _scheme(self.algorithm).sign(self._raw, data, rng=rng)
        return signature


class Falcon512PublicKey(FalconPublicKey):
    __slots__ = ()
    algorithm = "Falcon-512"


class Falcon512PrivateKey(FalconPrivateKey):
    __slots__ = ()
    algorithm = "Falcon-512"
    public_class = Falcon512PublicKey


class Falcon1024PublicKey(FalconPublicKey):
    __slots__ = ()
    algorithm = "Falcon-1024"


class Falcon1024PrivateKey(FalconPrivateKey):
    __slots__ = ()
    algorithm = "Falcon-1024"
    public_class = Falcon1024PublicKey


class FalconPadded512PublicKey(FalconPublicKey):
    __slots__ = ()
    algorithm = "Falcon-padded-512"


class FalconPadded512PrivateKey(FalconPrivateKey):
    __slots__ = ()
    algorithm = "Falcon-padded-512"
    public_class = FalconPadded512PublicKey


class FalconPadded1024PublicKey(FalconPublicKey):
    __slots__ = ()
    algorithm = "Falcon-padded-1024"


class FalconPadded1024PrivateKey(FalconPrivateKey):
    __slots__ = ()
    algorithm = "Falcon-padded-1024"
    public_class = FalconPadded1024PublicKey


_PRIVATE: dict[str, type[FalconPrivateKey]] = {
    cls.algorithm.upper(): cls
    for cls in (
        Falcon512PrivateKey,
        Falcon1024PrivateKey,
        FalconPadded512PrivateKey,
        FalconPadded1024PrivateKey,
    )
}


def falcon_private_key_class(name: str) -> type[FalconPrivateKey]:
    """The private key class of the Falcon set ``name`` (any spelling :func:`pqkit.sig`
    accepts); ValueError for another algorithm."""
    from pqkit import registry

    canonical = registry.algorithm(name, "sig").name
    cls = _PRIVATE.get(canonical.upper())
    if cls is None:
        raise ValueError(f"{name} is not a Falcon set; Falcon sets: {', '.join(_PRIVATE)}")
    return cls


def _labels() -> dict[str, tuple[type[FalconPrivateKey], bool]]:
    """Every Falcon PEM label -> (private key class, holds a private key)."""
    return key_labels(_PRIVATE)


def is_falcon_pem(data: bytes) -> bool:
    """Whether the first PEM block of ``data`` has one of the Falcon key labels."""
    return has_label(data, _labels())


def load_pem_falcon_key(data: bytes) -> FalconPrivateKey | FalconPublicKey:
    """The Falcon private or public key in the first PEM block of ``data``."""
    labels = _labels()
    label, body = pem_decode(as_bytes(data, "data"), tuple(labels))
    cls, private = labels[label]
    if private:
        return cls.from_private_bytes(body)
    return cls.public_class.from_public_bytes(body)
