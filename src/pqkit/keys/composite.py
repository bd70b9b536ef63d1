"""Composite ML-DSA and composite ML-KEM key objects in the pyca shape, with the
drafts' SPKI and PKCS#8 (draft-ietf-lamps-pq-composite-sigs-19 and
draft-ietf-lamps-pq-composite-kem-17, §4 and §5).

A public key is ML-x pk || traditional public key; a private key is ML-x seed ||
traditional private key, one raw string in the PKCS#8 privateKey OCTET STRING
(``private_bytes_raw``, ``from_private_bytes``). Loading checks both halves (the
ML-x lengths, the traditional key's type, size or curve, that a point is on its
curve) and that the key's public half is the one a PKCS#8 publicKey field gives.

One class pair per OID, named after the draft's name with ``_`` for ``-``:
``MLDSA65_ECDSA_P256_SHA512PrivateKey``, ``MLKEM768_X25519_SHA3_256PublicKey`` ...
(made from the catalogue below); ``CompositeSigPrivateKey`` and the other family
bases serve ``isinstance``. The traditional key is parsed once per key object.
pyca/cryptography (the ``openssl`` extra) does the traditional half; without it,
loading or using a composite key raises :class:`pqkit.MissingExtra`.
The ``sign`` / ``sign_prehashed`` signatures repeat the other key classes' on purpose.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar, cast

from pqkit._checks import as_bytes
from pqkit.errors import InvalidSignature
from pqkit.keys._base import PrivateKey, PublicKey, Signer, _concrete, as_context
from pqkit.schemes import RNG, Encapsulation

__all__ = [
    "CompositeKemPrivateKey",
    "CompositeKemPublicKey",
    "CompositePrivateKey",
    "CompositePublicKey",
    "CompositeSigPrivateKey",
    "CompositeSigPublicKey",
    "MLDSA44_ECDSA_P256_SHA256PrivateKey",
    "MLDSA44_ECDSA_P256_SHA256PublicKey",
    "MLDSA44_Ed25519_SHA512PrivateKey",
    "MLDSA44_Ed25519_SHA512PublicKey",
    "MLDSA44_RSA2048_PKCS15_SHA256PrivateKey",
    "MLDSA44_RSA2048_PKCS15_SHA256PublicKey",
    "MLDSA44_RSA2048_PSS_SHA256PrivateKey",
    "MLDSA44_RSA2048_PSS_SHA256PublicKey",
    "MLDSA65_ECDSA_P256_SHA512PrivateKey",
    "MLDSA65_ECDSA_P256_SHA512PublicKey",
    "MLDSA65_ECDSA_P384_SHA512PrivateKey",
    "MLDSA65_ECDSA_P384_SHA512PublicKey",
    "MLDSA65_ECDSA_brainpoolP256r1_SHA512PrivateKey",
    "MLDSA65_ECDSA_brainpoolP256r1_SHA512PublicKey",
    "MLDSA65_Ed25519_SHA512PrivateKey",
    "MLDSA65_Ed25519_SHA512PublicKey",
    "MLDSA65_RSA3072_PKCS15_SHA512PrivateKey",
    "MLDSA65_RSA3072_PKCS15_SHA512PublicKey",
    "MLDSA65_RSA3072_PSS_SHA512PrivateKey",
    "MLDSA65_RSA3072_PSS_SHA512PublicKey",
    "MLDSA65_RSA4096_PKCS15_SHA512PrivateKey",
    "MLDSA65_RSA4096_PKCS15_SHA512PublicKey",
    "MLDSA65_RSA4096_PSS_SHA512PrivateKey",
    "MLDSA65_RSA4096_PSS_SHA512PublicKey",
    "MLDSA87_ECDSA_P384_SHA512PrivateKey",
    "MLDSA87_ECDSA_P384_SHA512PublicKey",
    "MLDSA87_ECDSA_P521_SHA512PrivateKey",
    "MLDSA87_ECDSA_P521_SHA512PublicKey",
    "MLDSA87_ECDSA_brainpoolP384r1_SHA512PrivateKey",
    "MLDSA87_ECDSA_brainpoolP384r1_SHA512PublicKey",
    "MLDSA87_Ed448_SHAKE256PrivateKey",
    "MLDSA87_Ed448_SHAKE256PublicKey",
    "MLDSA87_RSA3072_PSS_SHA512PrivateKey",
    "MLDSA87_RSA3072_PSS_SHA512PublicKey",
    "MLDSA87_RSA4096_PSS_SHA512PrivateKey",
    "MLDSA87_RSA4096_PSS_SHA512PublicKey",
    "MLKEM768_ECDH_P256_SHA3_256PrivateKey",
    "MLKEM768_ECDH_P256_SHA3_256PublicKey",
    "MLKEM768_ECDH_P384_SHA3_256PrivateKey",
    "MLKEM768_ECDH_P384_SHA3_256PublicKey",
    "MLKEM768_ECDH_brainpoolP256r1_SHA3_256PrivateKey",
    "MLKEM768_ECDH_brainpoolP256r1_SHA3_256PublicKey",
    "MLKEM768_RSA2048_SHA3_256PrivateKey",
    "MLKEM768_RSA2048_SHA3_256PublicKey",
    "MLKEM768_RSA3072_SHA3_256PrivateKey",
    "MLKEM768_RSA3072_SHA3_256PublicKey",
    "MLKEM768_RSA4096_SHA3_256PrivateKey",
    "MLKEM768_RSA4096_SHA3_256PublicKey",
    "MLKEM768_X25519_SHA3_256PrivateKey",
    "MLKEM768_X25519_SHA3_256PublicKey",
    "MLKEM1024_ECDH_P384_SHA3_256PrivateKey",
    "MLKEM1024_ECDH_P384_SHA3_256PublicKey",
    "MLKEM1024_ECDH_P521_SHA3_256PrivateKey",
    "MLKEM1024_ECDH_P521_SHA3_256PublicKey",
    "MLKEM1024_ECDH_brainpoolP384r1_SHA3_256PrivateKey",
    "MLKEM1024_ECDH_brainpoolP384r1_SHA3_256PublicKey",
    "MLKEM1024_RSA3072_SHA3_256PrivateKey",
    "MLKEM1024_RSA3072_SHA3_256PublicKey",
    "MLKEM1024_X448_SHA3_256PrivateKey",
    "MLKEM1024_X448_SHA3_256PublicKey",
]

_PrivT = TypeVar("_PrivT", bound="CompositePrivateKey")
_PubT = TypeVar("_PubT", bound="CompositePublicKey")


@cache
def _scheme(name: str) -> Any:
    from pqkit.registry import algorithm

    return algorithm(name).scheme()


class CompositePublicKey(PublicKey):
    """A composite public key (ML-x pk || traditional public key); family base."""

    __slots__ = ()

    def to_cryptography_key(self) -> NoReturn:
        """pyca/cryptography has no composite keys."""
        from pqkit.keys._pyca import not_convertible

        not_convertible(self.algorithm.name)

    @classmethod
    def from_public_bytes(cls: type[_PubT], data: bytes) -> _PubT:
        """The key whose draft encoding is ``data``; ``ValueError`` naming the half
        (length, RSA size, curve, point) that is wrong."""
        alg = _concrete(cls)
        raw = as_bytes(data, f"{alg.name} public key")
        _scheme(alg.name).split_public_key(raw)
        return cls._wrap(raw)


class CompositePrivateKey(PrivateKey):
    """A composite private key (ML-x seed || traditional private key); family base.
    It keeps the key taken apart (:class:`pqkit.composite.params.KeyParts`: the
    expanded ML-x key and the parsed traditional key) for its operations."""

    __slots__ = ("_parts",)
    _parts: Any

    def to_cryptography_key(self) -> NoReturn:
        """pyca/cryptography has no composite keys."""
        from pqkit.keys._pyca import not_convertible

        not_convertible(self.algorithm.name)

    @classmethod
    def generate(cls: type[_PrivT], *, rng: RNG | None = None) -> _PrivT:
        """A new key: the ML-x seed from ``rng`` (os.urandom), the traditional key from
        pyca's generator."""
        alg = _concrete(cls)
        return cls.from_private_bytes(_scheme(alg.name).keygen(rng=rng).secret_key)

    @classmethod
    def from_seed_bytes(cls: type[_PrivT], seed: bytes) -> _PrivT:
        """Refused: a composite key is not derived from a seed alone."""
        raise TypeError(
            f"{_concrete(cls).name} keys are an ML-x seed and a traditional private key; "
            "use from_private_bytes(seed || traditional key) or generate()"
        )

    @classmethod
    def from_private_bytes(cls: type[_PrivT], data: bytes) -> _PrivT:
        """The key from its draft encoding, ML-x seed || traditional private key (what
        ``private_bytes_raw`` returns), both halves checked."""
        alg = _concrete(cls)
        raw = as_bytes(data, f"{alg.name} private key")
        scheme = _scheme(alg.name)
        parts = scheme.expand(*scheme.split_secret_key(raw))
        key = cls._make(raw[: alg.seed_length], raw, parts.public_key)
        object.__setattr__(key, "_parts", parts)
        return key

    @classmethod
    def from_expanded_bytes(cls: type[_PrivT], data: bytes) -> _PrivT:
        """The same as :meth:`from_private_bytes` (a composite key has one form)."""
        return cls.from_private_bytes(data)

    def private_bytes_raw(self) -> bytes:
        """ML-x seed || traditional private key (the PKCS#8 privateKey contents)."""
        return self._expanded


class CompositeSigPublicKey(CompositePublicKey):
    """A composite ML-DSA verification key; base of the OID classes."""

    __slots__ = ()

    def verify(self, signature: Any, data: Any, context: Any = None) -> None:
        """Check a composite signature over ``data`` (draft §3.3); raise InvalidSignature
        if it is malformed or either half fails."""
        sig = as_bytes(signature, "signature")
        msg = as_bytes(data, "data")
        if not _scheme(self.algorithm.name).verify(self._public, msg, sig, as_context(context)):
            raise InvalidSignature(f"{self.algorithm.name} signature does not verify")

    def verify_prehashed(
        self, signature: Any, digest: Any, algorithm: str | None = None, context: Any = None
    ) -> None:
        """Check a signature over ``digest`` = PH(M) (the OID's PH; ``algorithm``, if
        given, must name it); raise InvalidSignature if bad."""
        scheme = _scheme(self.algorithm.name)
        scheme._own_prehash(algorithm)
        m_prime = scheme.message_representative(as_bytes(digest, "digest"), as_context(context))
        if not scheme.verify_internal(self._public, m_prime, as_bytes(signature, "signature")):
            raise InvalidSignature(f"{self.algorithm.name} signature does not verify")


class CompositeSigPrivateKey(Signer, CompositePrivateKey):
    """A composite ML-DSA signing key; base of the OID classes."""

    __slots__ = ()

    def public_key(self) -> CompositeSigPublicKey:
        """The matching verification key."""
        return cast(CompositeSigPublicKey, super().public_key())

    def _sign_data(self, data: Any, context: Any, deterministic: bool, rng: RNG | None) -> bytes:
        """A composite signature over ``data`` (draft §3.2), hashed with the OID's PH;
        the ML-DSA half is hedged unless ``deterministic``."""
        digest = _scheme(self.algorithm.name).prehash(as_bytes(data, "data"))
        return self._sign_digest(digest, None, context, deterministic, rng)

    def _sign_digest(
        self, digest: Any, algorithm: str | None, context: Any, deterministic: bool, rng: RNG | None
    ) -> bytes:
        """A composite signature over ``digest`` = PH(M), the OID's pre-hash of the
        message (a caller hashing a large file in pieces); ``algorithm``, if given,
        must name that PH."""
        scheme = _scheme(self.algorithm.name)
        scheme._own_prehash(algorithm)
        m_prime = scheme.message_representative(as_bytes(digest, "digest"), as_context(context))
        return cast(
            bytes, scheme.sign_parts(self._parts, m_prime, deterministic=deterministic, rng=rng)
        )


class CompositeKemPublicKey(CompositePublicKey):
    """A composite ML-KEM encapsulation key; base of the OID classes."""

    __slots__ = ()

    def encapsulate(self, *, rng: RNG | None = None) -> Encapsulation:
        """``(shared_secret, ciphertext)`` (draft §3.2)."""
        return cast(Encapsulation, _scheme(self.algorithm.name).encaps(self._public, rng=rng))


class CompositeKemPrivateKey(CompositePrivateKey):
    """A composite ML-KEM decapsulation key; base of the OID classes."""

    __slots__ = ()

    def public_key(self) -> CompositeKemPublicKey:
        """The matching encapsulation key."""
        return cast(CompositeKemPublicKey, super().public_key())

    def decapsulate(self, ciphertext: Any) -> bytes:
        """The shared secret (draft §3.3); ``ValueError`` (one message, whichever half
        failed) if the traditional half fails."""
        ct = as_bytes(ciphertext, "ciphertext")
        return cast(bytes, _scheme(self.algorithm.name).decaps_parts(self._parts, ct))


def _make_classes() -> dict[str, type[Any]]:
    from pqkit.serialization.algorithms import ALGORITHMS

    made: dict[str, type[Any]] = {}
    for alg in ALGORITHMS:
        if not alg.composite:
            continue
        sig = alg.kind == "sig"
        kind = "composite ML-DSA" if sig else "composite ML-KEM"
        public_base = CompositeSigPublicKey if sig else CompositeKemPublicKey
        private_base = CompositeSigPrivateKey if sig else CompositeKemPrivateKey
        stem = alg.class_stem
        public_cls = type(
            f"{stem}PublicKey",
            (public_base,),
            {
                "__slots__": (),
                "__doc__": f"A {alg.name} public key ({kind}, OID {alg.oid}).",
                "__module__": __name__,
                "algorithm": alg,
            },
        )
        private_cls = type(
            f"{stem}PrivateKey",
            (private_base,),
            {
                "__slots__": (),
                "__doc__": f"A {alg.name} private key ({kind}, OID {alg.oid}).",
                "__module__": __name__,
                "algorithm": alg,
                "_public_class": public_cls,
            },
        )
        made[public_cls.__name__] = public_cls
        made[private_cls.__name__] = private_cls
    return made


_CLASSES = _make_classes()
if set(_CLASSES) != set(__all__) - {n for n in __all__ if n.startswith("Composite")}:
    raise RuntimeError("pqkit.keys.composite: __all__ does not list the composite classes")
globals().update(_CLASSES)

if TYPE_CHECKING:  # the classes made below, for type checkers

    class MLDSA44_RSA2048_PSS_SHA256PublicKey(CompositeSigPublicKey): ...

    class MLDSA44_RSA2048_PSS_SHA256PrivateKey(CompositeSigPrivateKey): ...

    class MLDSA44_RSA2048_PKCS15_SHA256PublicKey(CompositeSigPublicKey): ...

    class MLDSA44_RSA2048_PKCS15_SHA256PrivateKey(CompositeSigPrivateKey): ...

    class MLDSA44_Ed25519_SHA512PublicKey(CompositeSigPublicKey): ...

    class MLDSA44_Ed25519_SHA512PrivateKey(CompositeSigPrivateKey): ...

    class MLDSA44_ECDSA_P256_SHA256PublicKey(CompositeSigPublicKey): ...

    class MLDSA44_ECDSA_P256_SHA256PrivateKey(CompositeSigPrivateKey): ...

    class MLDSA65_RSA3072_PSS_SHA512PublicKey(CompositeSigPublicKey): ...

    class MLDSA65_RSA3072_PSS_SHA512PrivateKey(CompositeSigPrivateKey): ...

    class MLDSA65_RSA3072_PKCS15_SHA512PublicKey(CompositeSigPublicKey): ...

    class MLDSA65_RSA3072_PKCS15_SHA512PrivateKey(CompositeSigPrivateKey): ...

    class MLDSA65_RSA4096_PSS_SHA512PublicKey(CompositeSigPublicKey): ...

    class MLDSA65_RSA4096_PSS_SHA512PrivateKey(CompositeSigPrivateKey): ...

    class MLDSA65_RSA4096_PKCS15_SHA512PublicKey(CompositeSigPublicKey): ...

    class MLDSA65_RSA4096_PKCS15_SHA512PrivateKey(CompositeSigPrivateKey): ...

    class MLDSA65_ECDSA_P256_SHA512PublicKey(CompositeSigPublicKey): ...

    class MLDSA65_ECDSA_P256_SHA512PrivateKey(CompositeSigPrivateKey): ...

    class MLDSA65_ECDSA_P384_SHA512PublicKey(CompositeSigPublicKey): ...

    class MLDSA65_ECDSA_P384_SHA512PrivateKey(CompositeSigPrivateKey): ...

    class MLDSA65_ECDSA_brainpoolP256r1_SHA512PublicKey(CompositeSigPublicKey): ...

    class MLDSA65_ECDSA_brainpoolP256r1_SHA512PrivateKey(CompositeSigPrivateKey): ...

    class MLDSA65_Ed25519_SHA512PublicKey(CompositeSigPublicKey): ...

    class MLDSA65_Ed25519_SHA512PrivateKey(CompositeSigPrivateKey): ...

    class MLDSA87_ECDSA_P384_SHA512PublicKey(CompositeSigPublicKey): ...

    class MLDSA87_ECDSA_P384_SHA512PrivateKey(CompositeSigPrivateKey): ...

    class MLDSA87_ECDSA_brainpoolP384r1_SHA512PublicKey(CompositeSigPublicKey): ...

    class MLDSA87_ECDSA_brainpoolP384r1_SHA512PrivateKey(CompositeSigPrivateKey): ...

    class MLDSA87_Ed448_SHAKE256PublicKey(CompositeSigPublicKey): ...

    class MLDSA87_Ed448_SHAKE256PrivateKey(CompositeSigPrivateKey): ...

    class MLDSA87_RSA3072_PSS_SHA512PublicKey(CompositeSigPublicKey): ...

    class MLDSA87_RSA3072_PSS_SHA512PrivateKey(CompositeSigPrivateKey): ...

    class MLDSA87_RSA4096_PSS_SHA512PublicKey(CompositeSigPublicKey): ...

    class MLDSA87_RSA4096_PSS_SHA512PrivateKey(CompositeSigPrivateKey): ...

    class MLDSA87_ECDSA_P521_SHA512PublicKey(CompositeSigPublicKey): ...

    class MLDSA87_ECDSA_P521_SHA512PrivateKey(CompositeSigPrivateKey): ...

    class MLKEM768_RSA2048_SHA3_256PublicKey(CompositeKemPublicKey): ...

    class MLKEM768_RSA2048_SHA3_256PrivateKey(CompositeKemPrivateKey): ...

    class MLKEM768_RSA3072_SHA3_256PublicKey(CompositeKemPublicKey): ...

    class MLKEM768_RSA3072_SHA3_256PrivateKey(CompositeKemPrivateKey): ...

    class MLKEM768_RSA4096_SHA3_256PublicKey(CompositeKemPublicKey): ...

    class MLKEM768_RSA4096_SHA3_256PrivateKey(CompositeKemPrivateKey): ...

    class MLKEM768_X25519_SHA3_256PublicKey(CompositeKemPublicKey): ...

    class MLKEM768_X25519_SHA3_256PrivateKey(CompositeKemPrivateKey): ...

    class MLKEM768_ECDH_P256_SHA3_256PublicKey(CompositeKemPublicKey): ...

    class MLKEM768_ECDH_P256_SHA3_256PrivateKey(CompositeKemPrivateKey): ...

    class MLKEM768_ECDH_P384_SHA3_256PublicKey(CompositeKemPublicKey): ...

    class MLKEM768_ECDH_P384_SHA3_256PrivateKey(CompositeKemPrivateKey): ...

    class MLKEM768_ECDH_brainpoolP256r1_SHA3_256PublicKey(CompositeKemPublicKey): ...

    class MLKEM768_ECDH_brainpoolP256r1_SHA3_256PrivateKey(CompositeKemPrivateKey): ...

    class MLKEM1024_RSA3072_SHA3_256PublicKey(CompositeKemPublicKey): ...

    class MLKEM1024_RSA3072_SHA3_256PrivateKey(CompositeKemPrivateKey): ...

    class MLKEM1024_ECDH_P384_SHA3_256PublicKey(CompositeKemPublicKey): ...

    class MLKEM1024_ECDH_P384_SHA3_256PrivateKey(CompositeKemPrivateKey): ...

    class MLKEM1024_ECDH_brainpoolP384r1_SHA3_256PublicKey(CompositeKemPublicKey): ...

    class MLKEM1024_ECDH_brainpoolP384r1_SHA3_256PrivateKey(CompositeKemPrivateKey): ...

    class MLKEM1024_X448_SHA3_256PublicKey(CompositeKemPublicKey): ...

    class MLKEM1024_X448_SHA3_256PrivateKey(CompositeKemPrivateKey): ...

    class MLKEM1024_ECDH_P521_SHA3_256PublicKey(CompositeKemPublicKey): ...

    class MLKEM1024_ECDH_P521_SHA3_256PrivateKey(CompositeKemPrivateKey): ...
