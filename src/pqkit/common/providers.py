"""What a symmetric backend provides (docs/architecture.md §5).

A backend is a module-level object implementing one or more of the three
families below. ``pqkit.common`` picks one provider per family for each call
(see :mod:`pqkit.common.select`); scheme code never talks to a provider directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

__all__ = ["AesEcb", "AesProvider", "Keystream", "Sha2Provider", "Sha3Provider", "Xof"]

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
    """AES-256 under one key (FIPS 197): single blocks, or many blocks in one call."""

    def encrypt_block(self, block: bytes) -> bytes:
        """Encrypt one 16-byte block."""
        ...

    def encrypt_blocks(self, data: bytes) -> bytes:
        """Encrypt each 16-byte block of ``data`` (a multiple of 16 bytes): ECB."""
        ...


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


class Sha2Provider(Protocol):
    """The SHA-2 family of FIPS 180-4, by hashlib name (see ``SHA2_NAMES``)."""

    name: str

    def sha2(self, name: str, data: bytes) -> bytes: ...


class AesProvider(Protocol):
    """AES-256 in ECB (single blocks) and CTR (128-bit big-endian counter) modes."""

    name: str

    def ecb(self, key: bytes) -> AesEcb: ...

    def ctr(self, key: bytes, counter_block: bytes) -> Keystream: ...
