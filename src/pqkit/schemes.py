"""The shape every scheme object has (DESIGN.md §2).

A scheme object is stateless: one instance per parameter set, shared by all
callers, holding only its parameters. Keys are plain ``bytes``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import NamedTuple, Protocol, runtime_checkable

from pqkit._checks import as_rng_output

__all__ = ["RNG", "Encapsulation", "Kem", "KeyPair", "Signature", "draw"]

RNG = Callable[[int], bytes]
"""Any callable ``rng(n) -> bytes`` returning ``n`` bytes; the default is ``os.urandom``."""


def draw(rng: RNG | None, n: int) -> bytes:
    """Ask ``rng`` (``os.urandom`` if None) for ``n`` bytes and check the answer."""
    if rng is None:
        return os.urandom(n)
    if not callable(rng):
        raise TypeError(f"rng must be a callable rng(n) -> bytes, not {type(rng).__name__}")
    return as_rng_output(rng(n), n)


class KeyPair(NamedTuple):
    """``(public_key, secret_key)``, both ``bytes``."""

    public_key: bytes
    secret_key: bytes


class Encapsulation(NamedTuple):
    """``(shared_secret, ciphertext)``: the order of FIPS 203 and pyca/cryptography."""

    shared_secret: bytes
    ciphertext: bytes


@runtime_checkable
class Kem(Protocol):
    """A key-encapsulation mechanism (ML-KEM, Kyber, Kyber-90s)."""

    name: str
    length_public_key: int
    length_secret_key: int
    length_ciphertext: int
    length_shared_secret: int
    claimed_nist_level: int

    def keygen(self, *, rng: RNG | None = None) -> KeyPair: ...

    def keygen_derand(self, seed: bytes) -> KeyPair: ...

    def encaps(self, public_key: bytes, *, rng: RNG | None = None) -> Encapsulation: ...

    def encaps_derand(self, public_key: bytes, m: bytes) -> Encapsulation: ...

    def decaps(self, secret_key: bytes, ciphertext: bytes) -> bytes: ...


@runtime_checkable
class Signature(Protocol):
    """A signature scheme (ML-DSA, Dilithium, Dilithium-AES)."""

    name: str
    length_public_key: int
    length_secret_key: int
    length_signature: int
    claimed_nist_level: int

    def keygen(self, *, rng: RNG | None = None) -> KeyPair: ...

    def keygen_derand(self, xi: bytes) -> KeyPair: ...

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

    def sign_internal(self, secret_key: bytes, m_prime: bytes, rnd: bytes) -> bytes: ...

    def verify_internal(self, public_key: bytes, m_prime: bytes, signature: bytes) -> bool: ...

    def sign_mu(
        self,
        secret_key: bytes,
        mu: bytes,
        *,
        deterministic: bool = False,
        rnd: bytes | None = None,
        rng: RNG | None = None,
    ) -> bytes: ...

    def verify_mu(self, public_key: bytes, mu: bytes, signature: bytes) -> bool: ...
