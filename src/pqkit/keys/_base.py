"""What every key class shares: construction doors, raw bytes, PKCS#8 / SPKI output.

A concrete class (``MLKEM768PrivateKey`` ...) only names its
:class:`~pqkit.serialization.algorithms.KeyAlgorithm`; the family classes
(:mod:`pqkit.keys.mlkem`, :mod:`pqkit.keys.mldsa`) add the operations and the
family's consistency checks. Key objects are immutable; a private key holds the
seed (when it has one), the FIPS expanded secret key and the public key.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from pqkit._checks import as_bytes_len
from pqkit._keystate import KeyState, holding
from pqkit._secret import Uncopyable
from pqkit.keys._pyca import identify, pyca_class
from pqkit.schemes import RNG, draw
from pqkit.serialization import pbes2
from pqkit.serialization.algorithms import KeyAlgorithm, by_name
from pqkit.serialization.options import (
    Encoding,
    KeyForm,
    PrivateFormat,
    PublicFormat,
    coerce,
    encryption_password,
)
from pqkit.serialization.pem import pem_encode
from pqkit.serialization.structures import (
    PrivateKeyInfo,
    encode_private_key_info,
    encode_spki,
)

__all__ = ["PrivateKey", "PublicKey", "SchemeSigner", "Signer"]

PublicT = TypeVar("PublicT", bound="PublicKey")
PrivateT = TypeVar("PrivateT", bound="PrivateKey")


def as_context(context: Any) -> bytes:
    """The checked context string of a signing key method (the check of
    :mod:`pqkit.messages`, imported lazily: it needs NumPy)."""
    from pqkit.messages import context as check_context

    return check_context(context, "context")


def prehash_m_prime(digest: Any, algorithm: Any, context: Any) -> bytes:
    """M' of HashML-DSA / HashSLH-DSA from PH(M) (:func:`pqkit.messages.prehash_m_prime`)."""
    from pqkit.messages import prehash_m_prime as build

    return build(digest, algorithm, as_context(context))


def bound_prehash(alg: KeyAlgorithm, requested: Any) -> str:
    """The pre-hash a HashML-DSA / HashSLH-DSA key signs with: its OID's
    (``alg.prehash``); ``requested`` (an ACVP name, or None for the bound one) must
    be that one, else ``ValueError``: a pre-hash OID binds the key to one PH."""
    from pqkit.prehash import lookup

    bound = alg.prehash
    if bound is None:  # pragma: no cover - only the pre-hash classes call this
        raise RuntimeError(f"{alg.name} is not a pre-hash algorithm")
    if requested is not None and lookup(requested).name != bound:
        raise ValueError(
            f"this {alg.name} key is bound to the pre-hash {bound} by its OID "
            f"{alg.oid}; it does not sign or verify with {requested}"
        )
    return bound


def bound_digest(alg: KeyAlgorithm, data: Any) -> bytes:
    """PH(``data``) with the pre-hash the OID of ``alg`` binds (FIPS 204 §5.4,
    FIPS 205 §10.2)."""
    from pqkit._checks import as_bytes
    from pqkit.prehash import lookup

    return lookup(bound_prehash(alg, None)).function(as_bytes(data, "data"))


def refuse_pure(alg: KeyAlgorithm, operation: str) -> ValueError:
    """The error of a pure-only operation (mu) on a key bound to a pre-hash."""
    return ValueError(
        f"{operation} is pure {alg.family}; this {alg.name} key (OID {alg.oid}) signs "
        f"only with the pre-hash {alg.prehash}"
    )


class BoundPrehashVerifier:
    """What a public key under a pre-hash OID does differently (HashML-DSA, FIPS 204
    Algorithm 5; HashSLH-DSA, FIPS 205 Algorithm 25): ``verify`` hashes the message
    with the OID's pre-hash, and ``verify_prehashed`` accepts no other. Mixed in
    before the family's public key class, whose ``verify_prehashed`` checks."""

    __slots__ = ()
    algorithm: ClassVar[KeyAlgorithm]

    def verify(self, signature: Any, data: Any, context: Any = None) -> None:
        """Check a signature over ``data``, which is hashed here with the OID's
        pre-hash; raise InvalidSignature if bad."""
        self.verify_prehashed(signature, bound_digest(self.algorithm, data), None, context)

    def verify_prehashed(
        self, signature: Any, digest: Any, algorithm: str | None = None, context: Any = None
    ) -> None:
        """Check a signature over ``digest`` = PH(M). ``algorithm`` may be left out;
        given, it must be the OID's pre-hash (``ValueError`` otherwise)."""
        prehash = bound_prehash(self.algorithm, algorithm)
        super().verify_prehashed(signature, digest, prehash, context)  # type: ignore[misc]


class Signer:
    """The public signing of a private key (pyca's ``sign(data, context)`` and
    ``sign_prehashed``), written once for every signature family: a family gives
    :meth:`_sign_data` and :meth:`_sign_digest` (:class:`SchemeSigner` for the
    families on :class:`pqkit.schemes.SignatureBase`'s key layout, the composites
    their own)."""

    __slots__ = ()

    def sign(
        self,
        data: Any,
        context: Any = None,
        *,
        deterministic: bool = False,
        rng: RNG | None = None,
    ) -> bytes:
        """A signature over ``data`` (pure; under a pre-hash OID, ``data`` hashed with
        the OID's pre-hash), hedged unless ``deterministic``."""
        return self._sign_data(data, context, deterministic, rng)

    def _sign_data(self, data: Any, context: Any, deterministic: bool, rng: RNG | None) -> bytes:
        raise NotImplementedError

    def sign_prehashed(
        self,
        digest: Any,
        algorithm: str | None = None,
        context: Any = None,
        *,
        deterministic: bool = False,
        rng: RNG | None = None,
    ) -> bytes:
        """A pre-hash signature (HashML-DSA, FIPS 204 Algorithm 4; HashSLH-DSA, FIPS 205
        Algorithm 23) over ``digest`` = PH(M): the caller hashes M (in pieces, for a
        large file) with the pre-hash ``algorithm``, named as ACVP does ("SHA2-512",
        "SHAKE-128" (32 bytes), "SHAKE-256" (64 bytes), ...). A key under a pre-hash
        OID may leave ``algorithm`` out; given, it must be the OID's pre-hash
        (``ValueError`` otherwise); other keys need it (``TypeError``)."""
        return self._sign_digest(digest, algorithm, context, deterministic, rng)

    def _sign_digest(
        self, digest: Any, algorithm: str | None, context: Any, deterministic: bool, rng: RNG | None
    ) -> bytes:
        raise NotImplementedError


class SchemeSigner(Signer):
    """The signing of a signature family's private key (ML-DSA, SLH-DSA), written
    once: pure signing (FIPS 204 Algorithm 2, FIPS 205 Algorithm 22) and pre-hash
    signing (FIPS 204 Algorithm 4, FIPS 205 Algorithm 23) through the family's
    scheme object. The family gives :meth:`_signer` (its scheme object) and
    :meth:`_internal_randomness` (what ``sign_internal`` takes); mixed in before
    :class:`PrivateKey`."""

    __slots__ = ()
    algorithm: ClassVar[KeyAlgorithm]
    _expanded: bytes

    def _signer(self) -> Any:
        raise NotImplementedError

    def _internal_randomness(self, deterministic: bool, rng: RNG | None) -> bytes | None:
        raise NotImplementedError

    if TYPE_CHECKING:  # PrivateKey's, after this class in the order of bases

        def _holding(self) -> contextlib.AbstractContextManager[None]: ...

    def _sign_data(self, data: Any, context: Any, deterministic: bool, rng: RNG | None) -> bytes:
        from pqkit._checks import as_bytes

        msg = as_bytes(data, "data")
        ctx = as_context(context)
        with self._holding():  # a decoded sk is kept in this key (pqkit._keystate)
            signature: bytes = self._signer().sign(
                self._expanded, msg, ctx, deterministic=deterministic, rng=rng
            )
        return signature

    def _sign_digest(
        self, digest: Any, algorithm: str | None, context: Any, deterministic: bool, rng: RNG | None
    ) -> bytes:
        m_prime = prehash_m_prime(digest, algorithm, context)
        randomness = self._internal_randomness(deterministic, rng)
        with self._holding():
            signature: bytes = self._signer().sign_internal(self._expanded, m_prime, randomness)
        return signature


class BoundPrehashSigner:
    """What a private key under a pre-hash OID does differently (HashML-DSA, FIPS 204
    Algorithm 4; HashSLH-DSA, FIPS 205 Algorithm 23): ``sign`` hashes the message
    with the OID's pre-hash, and ``sign_prehashed`` accepts no other. Mixed in
    before the family's private key class (a :class:`SchemeSigner`), which signs."""

    __slots__ = ()
    algorithm: ClassVar[KeyAlgorithm]

    def _sign_data(self, data: Any, context: Any, deterministic: bool, rng: RNG | None) -> bytes:
        digest = bound_digest(self.algorithm, data)
        return self._sign_digest(digest, None, context, deterministic, rng)

    def _sign_digest(
        self, digest: Any, algorithm: str | None, context: Any, deterministic: bool, rng: RNG | None
    ) -> bytes:
        prehash = bound_prehash(self.algorithm, algorithm)
        signature: bytes = super()._sign_digest(  # type: ignore[misc]
            digest, prehash, context, deterministic, rng
        )
        return signature


def pairwise_check(name: str, scheme: Any, public: bytes, expanded: bytes, m: bytes) -> None:
    """A KEM key's pairwise consistency test (FIPS 203 §7.1 allows one): an
    encapsulation to ``public`` with randomness ``m`` must decapsulate with
    ``expanded``. It catches a corrupted secret part that no hash check can see;
    the ciphertext and the secrets are discarded."""
    shared, ct = scheme.encaps_derand(public, m)
    if not hmac.compare_digest(scheme.decaps(expanded, ct), shared):
        raise ValueError(
            f"{name} expanded private key fails the pairwise consistency test "
            "(an encapsulation to its own public key does not decapsulate)"
        )


def algorithm_named(name: str) -> KeyAlgorithm:
    """The table entry of parameter set ``name`` (for the concrete key classes)."""
    alg = by_name(name)
    if alg is None:  # pragma: no cover - the table lists every parameter set
        raise RuntimeError(f"{name} missing from the algorithm table")
    return alg


def _concrete(cls: type[Any]) -> KeyAlgorithm:
    alg: KeyAlgorithm | None = cls.__dict__.get("algorithm")
    if alg is None:
        raise TypeError(
            f"{cls.__name__} is a base class; use a parameter-set class such as "
            "MLKEM768PrivateKey or MLDSA65PublicKey"
        )
    return alg


class PublicKey:
    """A public key of one parameter set; equal to another with the same bytes."""

    __slots__ = ("_public",)

    algorithm: ClassVar[KeyAlgorithm]
    """The parameter set (name, OID, sizes); set by each concrete class."""

    _public: bytes

    def __init__(self) -> None:
        raise TypeError(
            f"{type(self).__name__} cannot be created directly; use from_public_bytes() "
            "or a private key's public_key()"
        )

    @classmethod
    def _wrap(cls: type[PublicT], raw: bytes) -> PublicT:
        key = object.__new__(cls)
        object.__setattr__(key, "_public", raw)
        return key

    @classmethod
    def _check_public(cls, raw: bytes) -> None:
        """The family's input check on a raw public key (ValueError if it fails)."""

    @classmethod
    def from_public_bytes(cls: type[PublicT], data: bytes) -> PublicT:
        """The key whose raw FIPS encoding is ``data`` (length and family checks)."""
        alg = _concrete(cls)
        raw = as_bytes_len(data, f"{alg.name} public key", alg.public_key_length)
        cls._check_public(raw)
        return cls._wrap(raw)

    def public_bytes_raw(self) -> bytes:
        """The raw FIPS 203 ek / FIPS 204 pk."""
        return self._public

    def public_bytes(self, encoding: Encoding, format: PublicFormat) -> bytes:
        """The key as SubjectPublicKeyInfo (PEM or DER), or raw with ``(Raw, Raw)``."""
        enc = coerce(Encoding, encoding, "encoding")
        fmt = coerce(PublicFormat, format, "format")
        if (enc is Encoding.Raw) != (fmt is PublicFormat.Raw):
            raise ValueError("Raw encoding goes with Raw format, and only with it")
        if fmt is PublicFormat.Raw:
            return self._public
        spki = encode_spki(self.algorithm, self._public)
        return spki if enc is Encoding.DER else pem_encode(spki, "PUBLIC KEY")

    def to_cryptography_key(self) -> object:
        """The same public key as a pyca/cryptography key object (:mod:`pqkit.keys.pyca`;
        each parameter set's class gives the pyca type it returns)."""
        return pyca_class(self.algorithm.name, "Public").from_public_bytes(self.public_bytes_raw())

    @classmethod
    def from_cryptography_key(cls: type[PublicT], key: Any) -> PublicT:
        """The pqkit public key of a pyca/cryptography public key of this class's set."""
        return _converted(cls, key)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PublicKey):
            return NotImplemented
        return type(self) is type(other) and self._public == other._public

    def __hash__(self) -> int:
        return hash((self.algorithm.name, self._public))

    def __repr__(self) -> str:
        fingerprint = hashlib.sha256(self._public).hexdigest()[:16]
        return f"<{type(self).__name__} sha256:{fingerprint}>"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __copy__(self: PublicT) -> PublicT:
        return self

    def __deepcopy__(self: PublicT, memo: dict[int, Any]) -> PublicT:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self).from_public_bytes, (self._public,))


class PrivateKey(Uncopyable):
    """A private key of one parameter set. ``repr`` never shows secret bytes.

    ``copy.copy``, ``copy.deepcopy`` and pickling raise ``TypeError`` (the key's
    secrets stay in this one object); serialise it with ``private_bytes()``.
    """

    __slots__ = ("_expanded", "_public", "_seed", "_state")
    _uncopyable_hint = "serialise it with private_bytes()"

    algorithm: ClassVar[KeyAlgorithm]
    _public_class: ClassVar[type[PublicKey]]

    _seed: bytes | None
    _expanded: bytes
    _public: bytes
    _state: KeyState
    """The secret state the scheme derives from this key on use (decoded key,
    check verdicts): kept here only, dropped with the key (:mod:`pqkit._keystate`)."""

    def __init__(self) -> None:
        raise TypeError(
            f"{type(self).__name__} cannot be created directly; use generate(), "
            "from_seed_bytes(), from_expanded_bytes() or a load_* function"
        )

    @classmethod
    def _make(cls: type[PrivateT], seed: bytes | None, expanded: bytes, public: bytes) -> PrivateT:
        key = object.__new__(cls)
        object.__setattr__(key, "_seed", seed)
        object.__setattr__(key, "_expanded", expanded)
        object.__setattr__(key, "_public", public)
        object.__setattr__(key, "_state", KeyState())
        return key

    def _holding(self) -> contextlib.AbstractContextManager[None]:
        """The scope in which the scheme keeps this key's derived state in the key."""
        return holding(self._state)

    # --- the family's hooks -----------------------------------------------------------

    @classmethod
    def _keygen(cls, seed: bytes) -> tuple[bytes, bytes]:
        """``(public key, expanded secret key)`` derived from ``seed`` by the scheme's
        ``keygen_derand``: FIPS 203, Algorithm 16 on d || z, FIPS 204, Algorithm 6 on
        xi, FIPS 205, Algorithm 18 on SK.seed || SK.prf || PK.seed."""
        from pqkit.registry import algorithm

        pk, sk = algorithm(cls.algorithm.parameter_set).scheme().keygen_derand(seed)
        return bytes(pk), bytes(sk)

    @classmethod
    def _check_expanded(cls, expanded: bytes) -> bytes:
        """Validate an expanded secret key; return its public key (ValueError if bad)."""
        raise NotImplementedError

    # --- construction -----------------------------------------------------------------

    @classmethod
    def generate(cls: type[PrivateT], *, rng: RNG | None = None) -> PrivateT:
        """A new key from a fresh seed: one call ``rng(seed_length)`` (``os.urandom``)."""
        alg = _concrete(cls)
        return cls.from_seed_bytes(draw(rng, alg.seed_length))

    @classmethod
    def from_seed_bytes(cls: type[PrivateT], seed: bytes) -> PrivateT:
        """The key derived from its seed: 64 bytes d || z (ML-KEM), 32 bytes xi (ML-DSA)."""
        alg = _concrete(cls)
        seed = as_bytes_len(seed, f"{alg.name} seed", alg.seed_length)
        public, expanded = cls._keygen(seed)
        return cls._make(seed, expanded, public)

    @classmethod
    def from_expanded_bytes(cls: type[PrivateT], data: bytes) -> PrivateT:
        """The key from its FIPS expanded form (FIPS 203 dk / FIPS 204 sk), checked.

        Such a key has no seed: ``private_bytes_raw`` and the ``seed`` form refuse it.
        """
        alg = _concrete(cls)
        expanded = as_bytes_len(data, f"{alg.name} expanded private key", alg.expanded_key_length)
        public = cls._check_expanded(expanded)
        return cls._make(None, expanded, public)

    @classmethod
    def _from_info(cls: type[PrivateT], info: PrivateKeyInfo) -> PrivateT:
        """The key from a parsed PKCS#8 structure, with every consistency check."""
        alg = _concrete(cls)
        if info.seed is not None:
            key = cls.from_seed_bytes(info.seed)
            if info.expanded is not None and not hmac.compare_digest(key._expanded, info.expanded):
                raise ValueError(
                    f"inconsistent {alg.name} private key: the expandedKey of the 'both' form "
                    f"is not the key derived from its seed ({_rfc(alg)} seed consistency check)"
                )
        elif info.expanded is not None:
            key = cls.from_expanded_bytes(info.expanded)
        else:  # pragma: no cover - the parser always fills one
            raise ValueError(f"{alg.name} private key has neither seed nor expandedKey")
        if info.public_key is not None and info.public_key != key._public:
            raise ValueError(
                f"inconsistent {alg.name} private key: its publicKey field does not match "
                "the key derived from the private key"
            )
        return key

    # --- output -----------------------------------------------------------------------

    def public_key(self) -> PublicKey:
        """The matching public key."""
        return self._public_class._wrap(self._public)

    def private_bytes_raw(self) -> bytes:
        """The seed (64 bytes d || z for ML-KEM, 32 bytes xi for ML-DSA).

        ``ValueError`` for a key imported from an expanded key alone, which has none.
        """
        if self._seed is None:
            raise ValueError(
                f"this {self.algorithm.name} key was loaded from an expanded key and has no "
                "seed; use private_bytes_expanded() or form='expanded'"
            )
        return self._seed

    def private_bytes_expanded(self) -> bytes:
        """The FIPS expanded secret key: FIPS 203 dk or FIPS 204 sk."""
        return self._expanded

    def private_bytes(
        self,
        encoding: Encoding,
        format: PrivateFormat,
        encryption_algorithm: Any,
        *,
        form: KeyForm = "seed",
        include_public_key: bool = False,
    ) -> bytes:
        """PKCS#8 in PEM or DER, optionally password-encrypted; or the raw seed.

        ``form`` picks the RFC 9935 / RFC 9881 CHOICE: ``"seed"`` (the default and
        the RFCs' recommendation), ``"expanded"`` or ``"both"``.
        ``include_public_key`` writes OneAsymmetricKey v2 with the publicKey field
        (RFC 5958 §2), as some producers do; the default is v1 without it.
        ``encryption_algorithm`` is ``NoEncryption()`` or
        ``BestAvailableEncryption(password)`` (needs ``cryptography``).
        """
        enc = coerce(Encoding, encoding, "encoding")
        fmt = coerce(PrivateFormat, format, "format")
        password, iterations = encryption_password(encryption_algorithm)
        if not isinstance(include_public_key, bool):
            raise TypeError(
                f"include_public_key must be bool, not {type(include_public_key).__name__}"
            )
        if (enc is Encoding.Raw) != (fmt is PrivateFormat.Raw):
            raise ValueError("Raw encoding goes with Raw format, and only with it")
        if fmt is PrivateFormat.Raw:
            if password is not None:
                raise ValueError("a Raw private key cannot be encrypted")
            if include_public_key:
                raise ValueError("the Raw format is the seed alone; it holds no public key")
            if form != "seed":
                raise ValueError("the Raw format is the seed; use private_bytes_expanded()")
            return self.private_bytes_raw()
        if form not in ("seed", "expanded", "both"):
            raise ValueError(f"unknown private key form {form!r}; use 'seed', 'expanded' or 'both'")
        if form != "expanded" and self._seed is None:
            self.private_bytes_raw()  # raises the "no seed" error
        public = self._public if include_public_key else None
        der = encode_private_key_info(self.algorithm, form, self._seed, self._expanded, public)
        label = "PRIVATE KEY"
        if password is not None:
            der = pbes2.encrypt(der, password, iterations=iterations)
            label = "ENCRYPTED PRIVATE KEY"
        return der if enc is Encoding.DER else pem_encode(der, label)

    def to_cryptography_key(self) -> object:
        """The same private key as a pyca/cryptography key object (:mod:`pqkit.keys.pyca`;
        each parameter set's class gives the pyca type it returns).

        Goes over as the seed: ``ValueError`` for a key loaded from an expanded key alone.
        """
        cls = pyca_class(self.algorithm.name, "Private")
        if self._seed is None:
            raise ValueError(
                f"this {self.algorithm.name} key was loaded from an expanded key and has no "
                "seed; pyca/cryptography builds private keys only from the seed"
            )
        return cls.from_seed_bytes(self._seed)

    @classmethod
    def from_cryptography_key(cls: type[PrivateT], key: Any) -> PrivateT:
        """The pqkit private key of a pyca/cryptography private key of this class's set."""
        return _converted(cls, key)

    def __repr__(self) -> str:
        has = "seed" if self._seed is not None else "expanded key only"
        return f"<{type(self).__name__} ({has}; secret not shown)>"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")


KeyT = TypeVar("KeyT", bound="PublicKey | PrivateKey")


_CLASSES: dict[str, type[PrivateKey]] = {}


def _key_classes() -> dict[str, type[PrivateKey]]:
    """The private key class of every parameter set with a key format, by name, in
    the registry's order: the concrete subclasses of :class:`PrivateKey` (the package
    imports every key module, so each is defined before this can be called)."""
    if _CLASSES:
        return _CLASSES
    found: dict[str, type[PrivateKey]] = {}
    todo = list(PrivateKey.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if "algorithm" in vars(cls):
            found[cls.algorithm.name] = cls
    from pqkit.registry import algorithms
    from pqkit.serialization.algorithms import PREHASH_ALGORITHMS

    names = [a.name for a in algorithms()] + [a.name for a in PREHASH_ALGORITHMS]
    _CLASSES.update({name: found[name] for name in names if name in found})
    return _CLASSES


def private_key_class(name: str) -> type[PrivateKey]:
    """The private key class of the parameter set ``name`` ("ML-KEM-768", "mldsa65",
    "HashML-DSA-65-with-SHA512", ...)."""
    from pqkit.errors import UnknownAlgorithm

    alg = by_name(name) if isinstance(name, str) else None
    classes = _key_classes()
    if alg is None or alg.name not in classes:
        if not isinstance(name, str):
            raise TypeError(f"algorithm name must be str, not {type(name).__name__}")
        raise UnknownAlgorithm(name, list(classes))
    return classes[alg.name]


def public_key_class(name: str) -> type[PublicKey]:
    """The public key class of the parameter set ``name``."""
    return private_key_class(name)._public_class


def from_pyca(key: Any) -> PrivateKey | PublicKey:
    """The pqkit key object of a pyca/cryptography ML-KEM or ML-DSA key (the
    private key from its seed, the public key from its raw bytes, with pqkit's own
    checks); ``TypeError`` for any other object."""
    name, private = identify(key)
    cls = private_key_class(name)
    if private:
        return cls.from_seed_bytes(key.private_bytes_raw())
    return cls._public_class.from_public_bytes(key.public_bytes_raw())


def _converted(cls: type[KeyT], key: Any) -> KeyT:
    """``from_cryptography_key`` of a key class: convert, then check the class."""
    ours = from_pyca(key)
    if not isinstance(ours, cls):
        raise TypeError(
            f"{cls.__name__}.from_cryptography_key got a {type(key).__name__}, which "
            f"converts to {type(ours).__name__}"
        )
    return ours


def _rfc(alg: KeyAlgorithm) -> str:
    return "RFC 9935" if alg.family == "ML-KEM" else "RFC 9881"
