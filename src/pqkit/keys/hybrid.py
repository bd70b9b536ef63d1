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

from typing import Any, ClassVar

from pqkit._checks import as_bytes, as_bytes_len
from pqkit.keys._raw import RawPrivateKey, RawPublicKey, has_label, key_labels
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
    "register_raw_keys",
]

XWING_OID = "1.3.6.1.4.1.62253.25722"
"""id-XWing of draft-connolly-cfrg-xwing-kem (private arc); not used for files yet."""


def _scheme(name: str) -> Any:
    from pqkit.registry import kem

    return kem(name)


class HybridPublicKey(RawPublicKey):
    """A hybrid encapsulation key (raw bytes, checked on import)."""

    __slots__ = ()

    @classmethod
    def from_public_bytes(cls, data: bytes) -> HybridPublicKey:
        """Import raw ``ek_PQ || ek_T``: length, the ML-KEM modulus check and the
        curve point are checked (``ValueError``)."""
        raw = as_bytes_len(
            data, f"{cls.algorithm} public key", _scheme(cls.algorithm).length_public_key
        )
        cls._check(raw)
        key: HybridPublicKey = cls._wrap(raw)
        return key

    @classmethod
    def _check(cls, raw: bytes) -> None:
        """The checks of an imported key beyond its length (``ValueError``); a family
        whose specification defines none overrides this with a no-op."""
        scheme = _scheme(cls.algorithm)
        n = scheme.params.length_mlkem_public_key
        scheme.pq.check_encapsulation_key(raw[:n])
        scheme.group.check_element(raw[n:], "public key")

    def encapsulate(self, *, rng: RNG | None = None) -> Encapsulation:
        """``(shared_secret, ciphertext)``."""
        return Encapsulation(*_scheme(self.algorithm).encaps(self._raw, rng=rng))


class HybridPrivateKey(RawPrivateKey):
    """A hybrid decapsulation key: the 32-byte seed. Not copyable or picklable
    (:class:`pqkit._secret.Uncopyable`); write it with :meth:`private_bytes_pem`."""

    _uncopyable_hint = "write it with private_bytes_pem()"

    __slots__ = ("_seed",)
    public_class: ClassVar[type[HybridPublicKey]]
    private_label: ClassVar[str] = "SEED PRIVATE KEY"
    _seed: bytes

    @classmethod
    def _length(cls) -> int:
        """The length of the private key bytes in the file (a 32-byte seed here)."""
        return 32

    @classmethod
    def from_seed_bytes(cls, seed: bytes) -> HybridPrivateKey:
        key = object.__new__(cls)
        data = as_bytes_len(seed, f"{cls.algorithm} seed", cls._length())
        object.__setattr__(key, "_seed", data)
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
        return pem_encode(self._seed, f"{self.algorithm.upper()} {self.private_label}")

    def _public_raw(self) -> bytes:
        return bytes(_scheme(self.algorithm).keygen_derand(self._seed).public_key)

    def public_key(self) -> HybridPublicKey:
        return self.public_class.from_public_bytes(self._public_raw())

    def decapsulate(self, ciphertext: bytes) -> bytes:
        """The shared secret of ``ciphertext``."""
        return bytes(_scheme(self.algorithm).decaps(self._seed, ciphertext))


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


_HYBRID = {
    c.algorithm.upper(): c
    for c in (XWingPrivateKey, MLKEM768P256PrivateKey, MLKEM1024P384PrivateKey)
}


_RAW: dict[str, type[HybridPrivateKey]] = dict(_HYBRID)


def register_raw_keys(classes: dict[str, type[HybridPrivateKey]]) -> None:
    """Add private key classes (by PEM label stem) whose key files are raw PEM
    blocks as the hybrid KEMs' are: another family's key module (HQC, sntrup761,
    Classic McEliece ...) registers its classes when :mod:`pqkit.keys` imports it."""
    _RAW.update(classes)


def _raw_classes() -> dict[str, type[HybridPrivateKey]]:
    """Every private key class with raw-PEM key files, by PEM label stem."""
    return _RAW


def hybrid_private_key_class(name: str) -> type[HybridPrivateKey]:
    """The private key class of the hybrid KEM (or HQC parameter set) ``name`` (any
    spelling or alias :func:`pqkit.kem` accepts)."""
    from pqkit import registry

    canonical = registry.algorithm(name, "kem").name
    classes = _raw_classes()
    cls = classes.get(canonical.upper())
    if cls is None:
        raise ValueError(
            f"{name} is not a hybrid KEM (nor HQC); raw-PEM KEMs: {', '.join(classes)}"
        )
    return cls


def load_pem_hybrid_private_key(data: bytes) -> HybridPrivateKey:
    """The private key in a ``<NAME> SEED PRIVATE KEY`` PEM block (or the label its
    class names: ``SNTRUP761 PRIVATE KEY`` ...)."""
    labels = {f"{n} {c.private_label}": c for n, c in _raw_classes().items()}
    label, body = pem_decode(as_bytes(data, "data"), tuple(labels))
    return labels[label].from_seed_bytes(body)


def load_pem_hybrid_public_key(data: bytes) -> HybridPublicKey:
    """The hybrid public key in a ``<NAME> PUBLIC KEY`` PEM block."""
    classes = _raw_classes()
    labels = tuple(f"{n} PUBLIC KEY" for n in classes)
    label, body = pem_decode(as_bytes(data, "data"), labels)
    return classes[label.removesuffix(" PUBLIC KEY")].public_class.from_public_bytes(body)


def _labels() -> dict[str, tuple[type[HybridPrivateKey], bool]]:
    """Every hybrid PEM label -> (private key class, holds a private key)."""
    return key_labels(_raw_classes())


def is_hybrid_pem(data: bytes) -> bool:
    """Whether the first PEM block of ``data`` has one of the hybrid key labels."""
    return has_label(data, _labels())


def load_pem_hybrid_key(data: bytes) -> HybridPrivateKey | HybridPublicKey:
    """The hybrid private or public key in the first PEM block of ``data``."""
    labels = _labels()
    label, body = pem_decode(as_bytes(data, "data"), tuple(labels))
    cls, private = labels[label]
    if private:
        return cls.from_seed_bytes(body)
    return cls.public_class.from_public_bytes(body)
