"""Key objects for the hybrid KEMs (X-Wing, MLKEM768-P256, MLKEM1024-P384).

The private key is the 32-byte seed (the drafts' decapsulation key); the public key
is the raw ``ek_PQ || ek_T``. Key files: neither draft-irtf-cfrg-concrete-hybrid-
kems nor the LAMPS composite-KEM draft gives these KEMs an OID (the composite-KEM
OIDs name a different combiner), so the files are PEM blocks around the raw bytes
with labels naming the KEM: ``-----BEGIN X-WING SEED PRIVATE KEY-----`` (32 bytes)
and ``-----BEGIN X-WING PUBLIC KEY-----``; likewise ``MLKEM768-P256 ...`` and
``MLKEM1024-P384 ...``. (draft-connolly-cfrg-xwing-kem does list a private-arc
OID for X-Wing, :data:`XWING_OID`; PKCS#8 / SPKI with it is not written yet.)
"""

from __future__ import annotations

from typing import Any, ClassVar, NoReturn

from pqkit._checks import as_bytes, as_bytes_len
from pqkit._secret import Uncopyable
from pqkit.schemes import RNG, Encapsulation
from pqkit.serialization.pem import pem_decode, pem_encode

__all__ = [
    "XWING_OID",
    "HybridPrivateKey",
    "HybridPublicKey",
    "MLKEM768P256PrivateKey",
    "MLKEM768P256PublicKey",
    "MLKEM1024P384PrivateKey",
    "MLKEM1024P384PublicKey",
    "XWingPrivateKey",
    "XWingPublicKey",
    "hybrid_private_key_class",
    "is_hybrid_pem",
    "load_pem_hybrid_key",
    "load_pem_hybrid_private_key",
    "load_pem_hybrid_public_key",
]

XWING_OID = "1.3.6.1.4.1.62253.25722"
"""id-XWing of draft-connolly-cfrg-xwing-kem (private arc); not used for files yet."""


def _scheme(name: str) -> Any:
    from pqkit.registry import kem

    return kem(name)


class HybridPublicKey:
    """A hybrid encapsulation key (raw bytes, checked on import)."""

    __slots__ = ("_raw",)
    algorithm: ClassVar[str]
    _raw: bytes

    @classmethod
    def from_public_bytes(cls, data: bytes) -> HybridPublicKey:
        """Import raw ``ek_PQ || ek_T``: length, the ML-KEM modulus check and the
        curve point are checked (``ValueError``)."""
        raw = as_bytes_len(
            data, f"{cls.algorithm} public key", _scheme(cls.algorithm).length_public_key
        )
        cls._check_raw(raw)
        key = object.__new__(cls)
        object.__setattr__(key, "_raw", raw)
        return key

    @classmethod
    def _check_raw(cls, raw: bytes) -> None:
        """The checks of an imported key of the right length (``ValueError``)."""
        scheme = _scheme(cls.algorithm)
        n = scheme.params.length_mlkem_public_key
        scheme.pq.check_encapsulation_key(raw[:n])
        scheme.group.check_element(raw[n:], "public key")

    def public_bytes_raw(self) -> bytes:
        return self._raw

    def public_bytes_pem(self) -> bytes:
        """``-----BEGIN <NAME> PUBLIC KEY-----`` around the raw key."""
        return pem_encode(self._raw, f"{self.algorithm.upper()} PUBLIC KEY")

    def encapsulate(self, *, rng: RNG | None = None) -> Encapsulation:
        """``(shared_secret, ciphertext)``."""
        return Encapsulation(*_scheme(self.algorithm).encaps(self._raw, rng=rng))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, type(self)) and other._raw == self._raw

    def __hash__(self) -> int:
        return hash((self.algorithm, self._raw))

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"

    def __reduce__(self) -> tuple[Any, tuple[bytes]]:
        # Public data: a copy or pickle is rebuilt through the checked constructor.
        return (type(self).from_public_bytes, (self._raw,))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def to_cryptography_key(self) -> NoReturn:
        """pyca/cryptography has no hybrid KEM keys: always raises
        ``cryptography.exceptions.UnsupportedAlgorithm`` (:mod:`pqkit.keys.pyca`)."""
        from pqkit.keys._pyca import not_convertible

        not_convertible(self.algorithm)


class HybridPrivateKey(Uncopyable):
    """A hybrid decapsulation key: the 32-byte seed. Not copyable or picklable
    (:class:`pqkit._secret.Uncopyable`); write it with :meth:`private_bytes_pem`."""

    _uncopyable_hint = "write it with private_bytes_pem()"

    __slots__ = ("_seed",)
    algorithm: ClassVar[str]
    public_class: ClassVar[type[HybridPublicKey]]
    _seed: bytes

    @classmethod
    def from_seed_bytes(cls, seed: bytes) -> HybridPrivateKey:
        key = object.__new__(cls)
        object.__setattr__(key, "_seed", as_bytes_len(seed, f"{cls.algorithm} seed", 32))
        return key

    @classmethod
    def generate(cls, *, rng: RNG | None = None) -> HybridPrivateKey:
        return cls.from_seed_bytes(_scheme(cls.algorithm).keygen(rng=rng).secret_key)

    def private_bytes_raw(self) -> bytes:
        """The 32-byte seed."""
        return self._seed

    def private_bytes_pem(self) -> bytes:
        """``-----BEGIN <NAME> SEED PRIVATE KEY-----`` around the 32-byte seed
        (unencrypted: protect the file)."""
        return pem_encode(self._seed, f"{self.algorithm.upper()} SEED PRIVATE KEY")

    def public_key(self) -> HybridPublicKey:
        pk = _scheme(self.algorithm).keygen_derand(self._seed).public_key
        return self.public_class.from_public_bytes(pk)

    def decapsulate(self, ciphertext: bytes) -> bytes:
        """The shared secret of ``ciphertext``."""
        return bytes(_scheme(self.algorithm).decaps(self._seed, ciphertext))

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def to_cryptography_key(self) -> NoReturn:
        """pyca/cryptography has no hybrid KEM keys: always raises
        ``cryptography.exceptions.UnsupportedAlgorithm`` (:mod:`pqkit.keys.pyca`)."""
        from pqkit.keys._pyca import not_convertible

        not_convertible(self.algorithm)


class XWingPublicKey(HybridPublicKey):
    __slots__ = ()
    algorithm = "X-Wing"


class XWingPrivateKey(HybridPrivateKey):
    __slots__ = ()
    algorithm = "X-Wing"
    public_class = XWingPublicKey


class MLKEM768P256PublicKey(HybridPublicKey):
    __slots__ = ()
    algorithm = "MLKEM768-P256"


class MLKEM768P256PrivateKey(HybridPrivateKey):
    __slots__ = ()
    algorithm = "MLKEM768-P256"
    public_class = MLKEM768P256PublicKey


class MLKEM1024P384PublicKey(HybridPublicKey):
    __slots__ = ()
    algorithm = "MLKEM1024-P384"


class MLKEM1024P384PrivateKey(HybridPrivateKey):
    __slots__ = ()
    algorithm = "MLKEM1024-P384"
    public_class = MLKEM1024P384PublicKey


_PRIVATE: dict[str, type[HybridPrivateKey]] = {
    c.algorithm.upper(): c
    for c in (XWingPrivateKey, MLKEM768P256PrivateKey, MLKEM1024P384PrivateKey)
}
_OTHERS: dict[str, type[HybridPrivateKey]] = {}


def register_raw_pem_keys(classes: dict[str, type[HybridPrivateKey]]) -> None:
    """Add the private key classes (upper-case name -> class) of another KEM whose
    key files are raw PEM blocks (:mod:`pqkit.keys.mceliece` registers its own when
    :mod:`pqkit.keys` is imported)."""
    _OTHERS.update(classes)


def raw_classes() -> dict[str, type[HybridPrivateKey]]:
    """Every KEM whose key files are raw PEM blocks, upper-case name -> class."""
    return {**_PRIVATE, **_OTHERS}


def hybrid_private_key_class(name: str) -> type[HybridPrivateKey]:
    """The private key class of the KEM ``name`` with raw-PEM key files (a hybrid
    KEM or Classic McEliece; any spelling or alias :func:`pqkit.kem` accepts)."""
    from pqkit import registry

    canonical = registry.algorithm(name, "kem").name
    classes = raw_classes()
    cls = classes.get(canonical.upper())
    if cls is None:
        raise ValueError(f"{name} has no raw-PEM key files; those that do: {', '.join(classes)}")
    return cls


def load_pem_hybrid_private_key(data: bytes) -> HybridPrivateKey:
    """The private key in a ``<NAME> SEED PRIVATE KEY`` PEM block."""
    classes = raw_classes()
    labels = tuple(f"{n} SEED PRIVATE KEY" for n in classes)
    label, body = pem_decode(as_bytes(data, "data"), labels)
    return classes[label.removesuffix(" SEED PRIVATE KEY")].from_seed_bytes(body)


def load_pem_hybrid_public_key(data: bytes) -> HybridPublicKey:
    """The public key in a ``<NAME> PUBLIC KEY`` PEM block."""
    classes = raw_classes()
    labels = tuple(f"{n} PUBLIC KEY" for n in classes)
    label, body = pem_decode(as_bytes(data, "data"), labels)
    return classes[label.removesuffix(" PUBLIC KEY")].public_class.from_public_bytes(body)


def _labels() -> dict[str, tuple[type[HybridPrivateKey], bool]]:
    """Every raw-PEM key label -> (private key class, holds a private key)."""
    out: dict[str, tuple[type[HybridPrivateKey], bool]] = {}
    for name, cls in raw_classes().items():
        out[f"{name} SEED PRIVATE KEY"] = (cls, True)
        out[f"{name} PUBLIC KEY"] = (cls, False)
    return out


def is_hybrid_pem(data: bytes) -> bool:
    """Whether the first PEM block of ``data`` has one of the hybrid key labels."""
    head = as_bytes(data, "data")[:4096]
    return any(f"-----BEGIN {label}-----".encode() in head for label in _labels())


def load_pem_hybrid_key(data: bytes) -> HybridPrivateKey | HybridPublicKey:
    """The hybrid private or public key in the first PEM block of ``data``."""
    labels = _labels()
    label, body = pem_decode(as_bytes(data, "data"), tuple(labels))
    cls, private = labels[label]
    if private:
        return cls.from_seed_bytes(body)
    return cls.public_class.from_public_bytes(body)
