"""The shape every scheme object has (docs/architecture.md, "Public API").

A scheme object is stateless: one instance per parameter set, shared by all
callers, holding only its parameters and an optional arithmetic backend. Keys are
plain ``bytes``. :class:`SchemeBase` is the one base every family builds on: it
owns the backend binding, :meth:`~SchemeBase.using`, ``repr`` and the ``length_*``
attributes (all derived from the algorithm's parameters, see :mod:`pqkit.registry`).
"""

from __future__ import annotations

import copy
import functools
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, Protocol, TypeVar, runtime_checkable

from pqkit._rng import RNG, draw

if TYPE_CHECKING:
    from pqkit.batch import KemBatch, SignatureBatch
    from pqkit.registry import Algorithm

__all__ = [
    "RNG",
    "Encapsulation",
    "Kem",
    "KemBase",
    "KeyPair",
    "SchemeBase",
    "Signature",
    "SignatureBase",
    "draw",
]

_S = TypeVar("_S", bound="SchemeBase")


class KeyPair(NamedTuple):
    """``(public_key, secret_key)``, both ``bytes``."""

    public_key: bytes
    secret_key: bytes


class Encapsulation(NamedTuple):
    """``(shared_secret, ciphertext)``: the order of FIPS 203 and pyca/cryptography."""

    shared_secret: bytes
    ciphertext: bytes


_P = TypeVar("_P")


class _Scheme(Protocol):
    """What every scheme object offers, KEM or signature (:class:`Kem`,
    :class:`Signature`)."""

    name: str
    oid: str | None
    arith: str | None
    length_public_key: int
    length_secret_key: int
    length_seed: int
    claimed_nist_level: int

    def using(self: _P, *, arith: str | None = None) -> _P: ...

    def keygen(self, *, rng: RNG | None = None) -> KeyPair: ...

    def keygen_derand(self, seed: bytes, /) -> KeyPair: ...


@runtime_checkable
class Kem(_Scheme, Protocol):
    """What every key-encapsulation mechanism offers (ML-KEM, Kyber, Kyber-90s, the
    hybrids); :mod:`pqkit.protocols` adds each family's own members. Arguments
    whose names differ between families are positional-only here."""

    length_ciphertext: int
    length_shared_secret: int

    @property
    def batch(self) -> KemBatch: ...

    def encaps(self, public_key: bytes, *, rng: RNG | None = None) -> Encapsulation: ...

    def encaps_derand(self, public_key: bytes, m: bytes, /) -> Encapsulation: ...

    def decaps(self, secret_key: bytes, ciphertext: bytes) -> bytes: ...


@runtime_checkable
class Signature(_Scheme, Protocol):
    """What every signature scheme offers (ML-DSA, SLH-DSA, Dilithium,
    Dilithium-AES); :mod:`pqkit.protocols` adds each family's own members
    (``sign_internal``, whose randomness differs, external mu)."""

    length_signature: int

    @property
    def batch(self) -> SignatureBatch: ...

    def public_key_from_secret(self, secret_key: bytes) -> bytes: ...

    def sign(
        self,
        secret_key: bytes,
        message: bytes,
        ctx: bytes = b"",
        *,
        prehash: str | None = None,
        deterministic: bool = False,
        rnd: bytes | None = None,
        rng: RNG | None = None,
    ) -> bytes: ...

    def verify(
        self,
        public_key: bytes,
        message: bytes,
        signature: bytes,
        ctx: bytes = b"",
        *,
        prehash: str | None = None,
    ) -> bool: ...

    def verify_internal(self, public_key: bytes, m_prime: bytes, signature: bytes) -> bool: ...


@functools.cache
def _arith_kernels() -> Any:
    """:func:`pqkit.arith.kernels`, imported on first use (pqkit.arith imports the
    families, which import this module). Kept here, as an import statement in the
    method cost 0.4 us a call."""
    from pqkit import arith

    return arith.kernels


class SchemeBase:
    """What every scheme object shares.

    ``algorithm`` (a :class:`pqkit.registry.Algorithm`) gives the name, level, OID
    and sizes; ``arith`` binds an arithmetic backend (None: the usual selection of
    :mod:`pqkit.arith`). A family that runs on arithmetic kernels names its kernel
    contract in ``KERNELS`` (``"mlkem"``, ``"mldsa"``); one that does not leaves it
    None (a family built on another scheme passes ``arith`` on to it).
    """

    KERNELS: ClassVar[str | None] = None
    BATCH: ClassVar[str | None] = None
    """``"module:Class"`` of the family's vectorised batch view (None: the loop
    views of :mod:`pqkit.batch`)."""
    _LENGTHS: ClassVar[tuple[str, ...]] = ("length_public_key", "length_secret_key")

    name: str
    oid: str | None
    claimed_nist_level: int
    length_public_key: int
    length_secret_key: int
    length_seed: int

    def __init__(self, algorithm: Algorithm, *, arith: str | None = None) -> None:
        self.algorithm = algorithm
        self.name = algorithm.name
        self.oid = algorithm.oid
        self.claimed_nist_level = algorithm.nist_level
        self.length_seed = algorithm.length_seed
        for field in self._LENGTHS:
            setattr(self, field, int(getattr(algorithm.params, field)))
        self.arith = arith

    def __repr__(self) -> str:
        bound = f", arith={self.arith!r}" if self.arith is not None else ""
        return f"<{type(self).__name__} {self.name}{bound}>"

    def using(self: _S, *, arith: str | None = None) -> _S:
        """A copy of this scheme bound to the arithmetic backend ``arith`` (None:
        the usual selection). An unknown or unavailable backend raises
        :class:`pqkit.UnknownBackend` here, not at the first operation."""
        if arith is not None:
            self._kernels_for(arith)
        twin = copy.copy(self)
        twin.arith = arith
        return twin

    def _kernels(self) -> Any:
        """The kernel table this scheme runs on, resolved for one operation."""
        return self._kernels_for(self.arith)

    def _kernels_for(self, backend: str | None) -> Any:
        if self.KERNELS is None:
            return None
        return _arith_kernels()(self.KERNELS, backend)


class KemBase(SchemeBase):
    """A scheme object for a KEM: adds the ciphertext and shared-secret sizes."""

    _LENGTHS = (*SchemeBase._LENGTHS, "length_ciphertext", "length_shared_secret")

    length_ciphertext: int
    length_shared_secret: int

    @property
    def batch(self) -> KemBatch:
        """Many operations per call, one row per item (:mod:`pqkit.batch`)."""
        from pqkit.batch import kem_batch

        return kem_batch(self)


class SignatureBase(SchemeBase):
    """A scheme object for a signature scheme: adds the signature size."""

    _LENGTHS = (*SchemeBase._LENGTHS, "length_signature")

    length_signature: int

    @property
    def batch(self) -> SignatureBatch:
        """Many operations per call, one row per item (:mod:`pqkit.batch`)."""
        from pqkit.batch import signature_batch

        return signature_batch(self)

    # The public sign / verify, written once for every family: each family gives
    # M' (``_m_prime``, e.g. FIPS 204 Algorithm 2 lines 5-10 / FIPS 205 Algorithm 22
    # lines 5-8) and signs or verifies it (``_sign_m_prime`` / ``_verify_m_prime``).

    def sign(
        self,
        secret_key: bytes,
        message: bytes,
        ctx: bytes = b"",
        *,
        prehash: str | None = None,
        deterministic: bool = False,
        rnd: bytes | None = None,
        rng: RNG | None = None,
    ) -> bytes:
        """The signature of ``message`` under ``ctx``, or of its pre-hash with
        ``prehash`` (an ACVP name such as "SHA2-512"; see
        :data:`pqkit.prehash.PREHASHES`): hedged by default, ``deterministic=True``
        for the deterministic variant, ``rnd`` for the raw randomness (tests)."""
        m_prime = self._m_prime(message, ctx, prehash)
        return self._sign_m_prime(secret_key, m_prime, deterministic, rnd, rng)

    def verify(
        self,
        public_key: bytes,
        message: bytes,
        signature: bytes,
        ctx: bytes = b"",
        *,
        prehash: str | None = None,
    ) -> bool:
        """True for a valid signature of ``message`` (with ``ctx`` / ``prehash`` as
        in :meth:`sign`). False for any malformed signature; raises only for wrong
        types, a wrong-length public key, a context over 255 bytes or an unknown
        prehash name (and TypeError for the likely swap of message and signature,
        see :meth:`_refuse_swapped`, where the family checks it)."""
        m_prime = self._m_prime(message, ctx, prehash)
        return self._verify_m_prime(public_key, m_prime, message, signature)

    def _m_prime(self, message: Any, ctx: Any, prehash: str | None) -> bytes:
        raise NotImplementedError

    def _sign_m_prime(
        self, secret_key: Any, m_prime: bytes, deterministic: bool, rnd: Any, rng: RNG | None
    ) -> bytes:
        raise NotImplementedError

    def _verify_m_prime(
        self, public_key: Any, m_prime: bytes, message: Any, signature: Any
    ) -> bool:
        raise NotImplementedError

    def _refuse_swapped(self, message: bytes, signature: bytes) -> None:
        """TypeError for ``verify(pk, signature, message)``, the likely argument swap.

        The scheme API takes ``verify(public_key, message, signature)`` while the key
        objects take pyca's ``verify(signature, data)``. A "signature" of a length no
        signature of this scheme has next to a "message" of exactly a signature's
        length is that swap: raise instead of returning False (issue 14 item 15).
        A wrong-length signature over a message of any other length stays False.
        """
        n = self.length_signature
        if len(signature) != n and len(message) == n:
            raise TypeError(
                f"{self.name} verify(public_key, message, signature): the signature is "
                f"{len(signature)} bytes and the message is {n} bytes, the length of a "
                f"{self.name} signature; are message and signature swapped? (key objects "
                "take verify(signature, data), the scheme API verify(pk, message, signature))"
            )
