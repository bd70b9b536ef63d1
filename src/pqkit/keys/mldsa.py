"""ML-DSA key objects (FIPS 204) in the shape of pyca/cryptography's ``mldsa`` module.

``MLDSA65PrivateKey`` ... are the keys of the pure OIDs (id-ml-dsa-*, RFC 9881):
``sign`` / ``verify`` are ML-DSA. ``HashMLDSA65PrivateKey`` ... are the keys of the
pre-hash OIDs (id-hash-ml-dsa-*-with-sha512): the same key bytes, bound to
HashML-DSA with SHA-512 (FIPS 204, Algorithms 4 and 5), so their ``sign`` /
``verify`` hash the message with SHA-512 and sign PH(M). They are not subclasses of
the pure classes: code that asks for an ``MLDSA65PublicKey`` does not get a key
that verifies something else.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar, cast

from pqkit._checks import as_bytes, as_bytes_len
from pqkit._keystate import MLDSA_CONSISTENT
from pqkit.errors import InvalidSignature
from pqkit.keys._base import (
    BoundPrehashSigner,
    BoundPrehashVerifier,
    PrivateKey,
    PublicKey,
    SchemeSigner,
    algorithm_named,
    as_context,
    prehash_m_prime,
    refuse_pure,
)
from pqkit.schemes import RNG

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric import mldsa as pyca_mldsa

    from pqkit.common import Xof
    from pqkit.protocols import MLDSAScheme

__all__ = [
    "HashMLDSA44PrivateKey",
    "HashMLDSA44PublicKey",
    "HashMLDSA65PrivateKey",
    "HashMLDSA65PublicKey",
    "HashMLDSA87PrivateKey",
    "HashMLDSA87PublicKey",
    "HashMLDSAPrivateKey",
    "HashMLDSAPublicKey",
    "MLDSA44PrivateKey",
    "MLDSA44PublicKey",
    "MLDSA65PrivateKey",
    "MLDSA65PublicKey",
    "MLDSA87PrivateKey",
    "MLDSA87PublicKey",
    "MLDSAPrivateKey",
    "MLDSAPublicKey",
    "MuHasher",
]

MU_LENGTH = 64

_P = TypeVar("_P", bound="MLDSAPrivateKey")


@cache
def _scheme(name: str) -> MLDSAScheme:
    from pqkit.registry import sig

    return cast("MLDSAScheme", sig(name))


class MuHasher:
    """Incremental mu = SHAKE256(tr || M', 64) for pure ML-DSA (FIPS 204, Algorithm 7 line 6).

    tr = SHAKE256(pk, 64) and ``M' = 0 || |ctx| || ctx || M`` (FIPS 204, Algorithm 2 line 10).
    Feed M with ``update`` in pieces of any size; ``copy`` forks the state; ``finalize``
    returns the 64-byte mu for ``sign_mu`` / ``verify_mu`` and ends the hasher.
    """

    __slots__ = ("_done", "_xof")

    def __init__(self, public_key: MLDSAPublicKey, context: Any = None) -> None:
        if not isinstance(public_key, MLDSAPublicKey):
            raise TypeError(
                f"public_key must be an ML-DSA public key, not {type(public_key).__name__}"
            )
        if public_key.algorithm.prehash is not None:
            raise refuse_pure(public_key.algorithm, "MuHasher")
        from pqkit.common import shake256, shake256_digest
        from pqkit.messages import m_prime_prefix

        ctx = as_context(context)
        tr = shake256_digest(public_key.public_bytes_raw(), 64)
        self._xof: Xof = shake256(tr + m_prime_prefix(ctx))
        self._done = False

    def update(self, data: Any) -> None:
        """Absorb the next piece of the message."""
        if self._done:
            raise ValueError("this MuHasher is finalized; copy() it before finalize() to go on")
        self._xof.update(as_bytes(data, "data"))

    def copy(self) -> MuHasher:
        """An independent hasher with the same state."""
        if self._done:
            raise ValueError("this MuHasher is finalized")
        twin = object.__new__(MuHasher)
        twin._xof = self._xof.copy()
        twin._done = False
        return twin

    def finalize(self) -> bytes:
        """The 64-byte mu; the hasher accepts nothing afterwards."""
        if self._done:
            raise ValueError("this MuHasher is already finalized")
        self._done = True
        return self._xof.read(MU_LENGTH)


class MLDSAPublicKey(PublicKey):
    """An ML-DSA verification key (FIPS 204 pk); base of the parameter-set classes."""

    __slots__ = ()

    def _check_signature(self, signature: Any) -> bytes | None:
        sig = as_bytes(signature, "signature")
        return sig if len(sig) == self.algorithm.output_length else None

    def verify(self, signature: Any, data: Any, context: Any = None) -> None:
        """Check a pure ML-DSA signature (FIPS 204, Algorithm 3); raise InvalidSignature if bad."""
        sig = self._check_signature(signature)
        msg = as_bytes(data, "data")
        ctx = as_context(context)
        if sig is None or not _scheme(self.algorithm.parameter_set).verify(
            self._public, msg, sig, ctx
        ):
            raise InvalidSignature(f"{self.algorithm.name} signature does not verify")

    def verify_prehashed(
        self, signature: Any, digest: Any, algorithm: str, context: Any = None
    ) -> None:
        """Check a HashML-DSA signature (FIPS 204, Algorithm 5) over ``digest`` = PH(M).

        ``algorithm`` names PH as ACVP does (``"SHA2-512"``, ``"SHAKE-256"``, ...).
        """
        m_prime = prehash_m_prime(digest, algorithm, context)
        sig = self._check_signature(signature)
        scheme = _scheme(self.algorithm.parameter_set)
        if sig is None or not scheme.verify_internal(self._public, m_prime, sig):
            raise InvalidSignature(f"{self.algorithm.name} signature does not verify")

    def verify_mu(self, signature: Any, mu: Any) -> None:
        """Check a signature over an external mu (64 bytes); raise InvalidSignature if bad."""
        mu_bytes = as_bytes_len(mu, "mu", MU_LENGTH)
        sig = self._check_signature(signature)
        if sig is None or not _scheme(self.algorithm.parameter_set).verify_mu(
            self._public, mu_bytes, sig
        ):
            raise InvalidSignature(f"{self.algorithm.name} signature does not verify")

    def mu_hasher(self, context: Any = None) -> MuHasher:
        """An incremental hasher giving mu for messages too large to hold in memory."""
        return MuHasher(self, context)


class MLDSAPrivateKey(SchemeSigner, PrivateKey):
    """An ML-DSA signing key; base of the parameter-set classes."""

    __slots__ = ()

    @classmethod
    def _keygen(cls, seed: bytes) -> tuple[bytes, bytes]:
        """(pk, sk) of xi: FIPS 204, Algorithm 6, through the cached scheme."""
        return _scheme(cls.algorithm.parameter_set).keygen_derand(seed)

    @classmethod
    def _check_expanded(cls, expanded: bytes) -> bytes:
        """Recompute pk from (rho, s1, s2) and check tr and t0 (the scheme's check)."""
        scheme: Any = _scheme(cls.algorithm.parameter_set)
        try:
            public: bytes = scheme.public_key_from_secret(expanded)
        except ValueError as exc:
            raise ValueError(
                f"inconsistent {cls.algorithm.name} expanded private key: {exc}"
            ) from None
        return public

    @classmethod
    def _make(cls: type[_P], seed: bytes | None, expanded: bytes, public: bytes) -> _P:
        """The key, noted as consistent in its own state: a key from a seed is by
        construction, one from expanded bytes passed :meth:`_check_expanded`; so
        signing does not check it again (DilithiumScheme._check_consistent)."""
        key = super()._make(seed, expanded, public)
        key._state._put(MLDSA_CONSISTENT, expanded)
        return key

    def public_key(self) -> MLDSAPublicKey:
        """The matching verification key."""
        return cast(MLDSAPublicKey, super().public_key())

    def _signer(self) -> MLDSAScheme:
        return _scheme(self.algorithm.parameter_set)

    def _internal_randomness(self, deterministic: bool, rng: RNG | None) -> bytes:
        from pqkit.messages import signing_rnd

        return signing_rnd(deterministic, rng)  # rnd of FIPS 204 Algorithm 4 line 5

    def sign_mu(self, mu: Any, *, deterministic: bool = False, rng: RNG | None = None) -> bytes:
        """A signature over an external mu (64 bytes, e.g. from ``mu_hasher``)."""
        mu_bytes = as_bytes_len(mu, "mu", MU_LENGTH)
        with self._holding():
            return _scheme(self.algorithm.parameter_set).sign_mu(
                self._expanded, mu_bytes, deterministic=deterministic, rng=rng
            )


class MLDSA44PublicKey(MLDSAPublicKey):
    """An ML-DSA-44 verification key."""

    __slots__ = ()
    algorithm = algorithm_named("ML-DSA-44")

    if TYPE_CHECKING:

        def to_cryptography_key(self) -> pyca_mldsa.MLDSA44PublicKey: ...


class MLDSA44PrivateKey(MLDSAPrivateKey):
    """An ML-DSA-44 signing key."""

    __slots__ = ()
    algorithm = algorithm_named("ML-DSA-44")
    _public_class = MLDSA44PublicKey

    if TYPE_CHECKING:

        def to_cryptography_key(self) -> pyca_mldsa.MLDSA44PrivateKey: ...

        def public_key(self) -> MLDSA44PublicKey: ...


class MLDSA65PublicKey(MLDSAPublicKey):
    """An ML-DSA-65 verification key."""

    __slots__ = ()
    algorithm = algorithm_named("ML-DSA-65")

    if TYPE_CHECKING:

        def to_cryptography_key(self) -> pyca_mldsa.MLDSA65PublicKey: ...


class MLDSA65PrivateKey(MLDSAPrivateKey):
    """An ML-DSA-65 signing key."""

    __slots__ = ()
    algorithm = algorithm_named("ML-DSA-65")
    _public_class = MLDSA65PublicKey

    if TYPE_CHECKING:

        def to_cryptography_key(self) -> pyca_mldsa.MLDSA65PrivateKey: ...

        def public_key(self) -> MLDSA65PublicKey: ...


class MLDSA87PublicKey(MLDSAPublicKey):
    """An ML-DSA-87 verification key."""

    __slots__ = ()
    algorithm = algorithm_named("ML-DSA-87")

    if TYPE_CHECKING:

        def to_cryptography_key(self) -> pyca_mldsa.MLDSA87PublicKey: ...


class MLDSA87PrivateKey(MLDSAPrivateKey):
    """An ML-DSA-87 signing key."""

    __slots__ = ()
    algorithm = algorithm_named("ML-DSA-87")
    _public_class = MLDSA87PublicKey

    if TYPE_CHECKING:

        def to_cryptography_key(self) -> pyca_mldsa.MLDSA87PrivateKey: ...

        def public_key(self) -> MLDSA87PublicKey: ...


# --- the pre-hash OIDs: HashML-DSA keys --------------------------------------------------


class HashMLDSAPublicKey(BoundPrehashVerifier, MLDSAPublicKey):
    """An ML-DSA verification key under a HashML-DSA OID (``id-hash-ml-dsa-*-with-sha512``):
    it verifies HashML-DSA signatures (FIPS 204, Algorithm 5) with the OID's pre-hash,
    SHA-512, and nothing else. Base of the parameter-set classes."""

    __slots__ = ()

    def verify_mu(self, signature: Any, mu: Any) -> None:
        """Refused (``ValueError``): mu is pure ML-DSA's."""
        raise refuse_pure(self.algorithm, "verify_mu")

    def mu_hasher(self, context: Any = None) -> MuHasher:
        """Refused (``ValueError``): mu is pure ML-DSA's."""
        raise refuse_pure(self.algorithm, "mu_hasher")


class HashMLDSAPrivateKey(BoundPrehashSigner, MLDSAPrivateKey):
    """An ML-DSA signing key under a HashML-DSA OID: ``sign`` makes HashML-DSA
    signatures (FIPS 204, Algorithm 4) with the OID's pre-hash, SHA-512. Base of the
    parameter-set classes."""

    __slots__ = ()

    def public_key(self) -> HashMLDSAPublicKey:
        """The matching verification key (bound to the same pre-hash)."""
        return cast(HashMLDSAPublicKey, super().public_key())

    def sign_mu(self, mu: Any, *, deterministic: bool = False, rng: RNG | None = None) -> bytes:
        """Refused (``ValueError``): mu is pure ML-DSA's."""
        raise refuse_pure(self.algorithm, "sign_mu")


class HashMLDSA44PublicKey(HashMLDSAPublicKey):
    """An ML-DSA-44 verification key bound to HashML-DSA with SHA-512 (OID ...3.4.3.32)."""

    __slots__ = ()
    algorithm = algorithm_named("HashML-DSA-44-with-SHA512")


class HashMLDSA44PrivateKey(HashMLDSAPrivateKey):
    """An ML-DSA-44 signing key bound to HashML-DSA with SHA-512 (OID ...3.4.3.32)."""

    __slots__ = ()
    algorithm = algorithm_named("HashML-DSA-44-with-SHA512")
    _public_class = HashMLDSA44PublicKey


class HashMLDSA65PublicKey(HashMLDSAPublicKey):
    """An ML-DSA-65 verification key bound to HashML-DSA with SHA-512 (OID ...3.4.3.33)."""

    __slots__ = ()
    algorithm = algorithm_named("HashML-DSA-65-with-SHA512")


class HashMLDSA65PrivateKey(HashMLDSAPrivateKey):
    """An ML-DSA-65 signing key bound to HashML-DSA with SHA-512 (OID ...3.4.3.33)."""

    __slots__ = ()
    algorithm = algorithm_named("HashML-DSA-65-with-SHA512")
    _public_class = HashMLDSA65PublicKey


class HashMLDSA87PublicKey(HashMLDSAPublicKey):
    """An ML-DSA-87 verification key bound to HashML-DSA with SHA-512 (OID ...3.4.3.34)."""

    __slots__ = ()
    algorithm = algorithm_named("HashML-DSA-87-with-SHA512")


class HashMLDSA87PrivateKey(HashMLDSAPrivateKey):
    """An ML-DSA-87 signing key bound to HashML-DSA with SHA-512 (OID ...3.4.3.34)."""

    __slots__ = ()
    algorithm = algorithm_named("HashML-DSA-87-with-SHA512")
    _public_class = HashMLDSA87PublicKey
