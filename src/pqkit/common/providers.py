"""What a symmetric backend provides (docs/architecture.md §5).

A backend is a module-level object implementing one or more of the three
families below. ``pqkit.common`` picks one provider per family for each call
(see :mod:`pqkit.common.select`); scheme code never talks to a provider directly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "AesEcb",
    "AesProvider",
    "Keystream",
    "OneShotPrefixed",
    "PrefixedHash",
    "Sha2Provider",
    "Sha3Provider",
    "Xof",
]

SHA2_NAMES = ("sha224", "sha256", "sha384", "sha512", "sha512_224", "sha512_256")
"""The SHA-2 functions of FIPS 180-4 that pqkit offers, in hashlib's spelling."""


class Xof(Protocol):
    """An extendable-output function (SHAKE128/256) in the absorb-then-squeeze style:
    the incremental API of FIPS 203, Algorithm 2 (SHAKE128example), ``update`` being
    Absorb and ``read`` Squeeze.

    ``update`` may be called until the first ``read``; after that it raises
    ``ValueError``. ``read(a) + read(b)`` equals ``read(a + b)`` on a fresh copy:
    output is squeezed incrementally, never restarted. ``copy`` forks the state.
    """

    def update(self, data: bytes) -> None: ...

    def read(self, n: int) -> bytes: ...

    def copy(self) -> Xof: ...


class Keystream(Protocol):
    """An AES-256-CTR keystream: ``read(n)`` returns the next ``n`` bytes."""

    def read(self, n: int) -> bytes: ...


class AesEcb(Protocol):
    """AES-128 or AES-256 under one key (FIPS 197): single blocks, or many blocks in
    one call."""

    def encrypt_block(self, block: bytes) -> bytes:
        """Encrypt one 16-byte block."""
        ...

    def encrypt_blocks(self, data: bytes) -> bytes:
        """Encrypt each 16-byte block of ``data`` (a multiple of 16 bytes): ECB."""
        ...


class PrefixedHash(Protocol):
    """One hash function with a fixed prefix absorbed, applied to many inputs.

    The batched primitive of the hash-based signatures (SLH-DSA's tweakable hash
    functions): the prefix (PK.seed, padded to a block for SHA-2) is absorbed
    once, and ``many`` hashes each input after it. This is the one place where a
    per-input loop runs; a compiled batched kernel replaces it wholesale.
    """

    def many(self, inputs: Sequence[bytes], n: int) -> list[bytes]:
        """Row i: the first ``n`` bytes of Hash(prefix || inputs[i])."""
        ...


class OneShotPrefixed:
    """A :class:`PrefixedHash` over a one-shot ``digest(data, n)`` function (for
    backends without a copyable state: the prefix is hashed again for each input)."""

    __slots__ = ("_digest", "_prefix")

    def __init__(self, digest: Callable[[bytes, int], bytes], prefix: bytes) -> None:
        self._digest = digest
        self._prefix = prefix

    def many(self, inputs: Sequence[bytes], n: int) -> list[bytes]:
        digest, prefix = self._digest, self._prefix
        return [digest(prefix + x, n) for x in inputs]


class Sha3Provider(Protocol):
    """SHA3-224/256/384/512 and SHAKE128/256 (FIPS 202)."""

    name: str

    def sha3(self, bits: int, data: bytes) -> bytes:
        """SHA3-``bits`` of ``data``; ``bits`` is 224, 256, 384 or 512."""
        ...

    def shake(self, bits: int, data: bytes) -> Xof:
        """A SHAKE``bits`` XOF with ``data`` absorbed; ``bits`` is 128 or 256."""
        ...

    def shake_digest(self, bits: int, data: bytes, n: int) -> bytes:
        """The first ``n`` bytes of SHAKE``bits``(``data``)."""
        ...

    def shake_many(self, bits: int, inputs: Sequence[bytes], n: int) -> npt.NDArray[np.uint8]:
        """A ``(len(inputs), n)`` uint8 array whose row i is SHAKE``bits``(inputs[i])[:n]."""
        ...

    def turboshake(self, bits: int, data: bytes, domain: int) -> Xof:
        """A TurboSHAKE``bits`` XOF (RFC 9861) with domain byte ``domain`` and ``data``
        absorbed; ``bits`` is 128 or 256, ``domain`` in 0x01-0x7F."""
        ...

    def shake_prefixed(self, bits: int, prefix: bytes) -> PrefixedHash:
        """SHAKE``bits`` with ``prefix`` absorbed, for many inputs (:class:`PrefixedHash`)."""
        ...


class Sha2Provider(Protocol):
    """The SHA-2 family of FIPS 180-4, by hashlib name (see ``SHA2_NAMES``)."""

    name: str

    def sha2(self, name: str, data: bytes) -> bytes: ...

    def sha2_prefixed(self, name: str, prefix: bytes) -> PrefixedHash:
        """SHA-2 function ``name`` with ``prefix`` absorbed, for many inputs; the output
        of ``many`` is truncated to its ``n`` (:class:`PrefixedHash`)."""
        ...


class AesProvider(Protocol):
    """AES in ECB (``ecb``: a 16-byte key gives AES-128, a 32-byte key AES-256) and
    AES-256 in CTR (128-bit big-endian counter) modes."""

    name: str

    def ecb(self, key: bytes) -> AesEcb: ...

    def ctr(self, key: bytes, counter_block: bytes) -> Keystream: ...
