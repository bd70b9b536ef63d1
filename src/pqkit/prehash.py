"""The pre-hash functions of HashML-DSA (FIPS 204 §5.4), by their ACVP names.

One table: name -> (OID, hashlib name, output length). The DER encoding of each
OID is computed from its dotted form; SHAKE128 and SHAKE256 give 256 and 512 bits
(FIPS 204 §5.4.1). ``PreHash.function`` hashes a whole message through the
:mod:`pqkit.common` providers; ``PreHash.new`` gives an incremental hasher for
messages streamed in pieces (files of any size in constant memory).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from pqkit import common
from pqkit._checks import as_bytes
from pqkit.der import encode_oid

__all__ = ["PREHASHES", "PreHash", "PreHasher", "lookup"]


class PreHasher:
    """An incremental PH(M): ``update`` with pieces of M, then ``digest`` (once or
    more; it does not end the hasher). SHAKE gives its FIPS 204 output length."""

    __slots__ = ("_hash", "_length", "name")

    def __init__(self, name: str, hash_object: Any, xof_length: int | None) -> None:
        self.name = name
        self._hash = hash_object
        self._length = xof_length

    def update(self, data: Any) -> None:
        """Absorb the next piece of the message."""
        self._hash.update(as_bytes(data, "data"))

    def digest(self) -> bytes:
        """PH(M) of everything absorbed so far."""
        if self._length is not None:
            out: bytes = self._hash.digest(self._length)
            return out
        digest: bytes = self._hash.digest()
        return digest


@dataclass(frozen=True)
class PreHash:
    """A pre-hash function PH of HashML-DSA and its OID (FIPS 204, Algorithm 4)."""

    name: str
    oid: str
    hashlib_name: str
    digest_size: int
    """Output length in bytes (for SHAKE, the length FIPS 204 §5.4.1 fixes)."""

    @property
    def der(self) -> bytes:
        """The DER OBJECT IDENTIFIER element that HashML-DSA puts in M'."""
        return encode_oid(self.oid)

    @property
    def is_xof(self) -> bool:
        """Whether PH is SHAKE128 or SHAKE256 (fixed here to ``digest_size`` bytes)."""
        return self.hashlib_name.startswith("shake_")

    def function(self, data: bytes) -> bytes:
        """PH(``data``) in one call, on the selected :mod:`pqkit.common` provider."""
        if self.hashlib_name == "shake_128":
            return common.shake128_digest(data, self.digest_size)
        if self.hashlib_name == "shake_256":
            return common.shake256_digest(data, self.digest_size)
        one_shot = getattr(common, self.hashlib_name)
        digest: bytes = one_shot(data)
        return digest

    def new(self, data: bytes = b"") -> PreHasher:
        """An incremental hasher (hashlib: the interpreter's OpenSSL or built-ins)
        with ``data`` absorbed; equal to :meth:`function` on the whole message."""
        hasher = PreHasher(
            self.name, hashlib.new(self.hashlib_name), self.digest_size if self.is_xof else None
        )
        if data:
            hasher.update(data)
        return hasher


_NIST_HASHALGS = "2.16.840.1.101.3.4.2"

PREHASHES: dict[str, PreHash] = {
    p.name: p
    for p in (
        PreHash("SHA2-224", f"{_NIST_HASHALGS}.4", "sha224", 28),
        PreHash("SHA2-256", f"{_NIST_HASHALGS}.1", "sha256", 32),
        PreHash("SHA2-384", f"{_NIST_HASHALGS}.2", "sha384", 48),
        PreHash("SHA2-512", f"{_NIST_HASHALGS}.3", "sha512", 64),
        PreHash("SHA2-512/224", f"{_NIST_HASHALGS}.5", "sha512_224", 28),
        PreHash("SHA2-512/256", f"{_NIST_HASHALGS}.6", "sha512_256", 32),
        PreHash("SHA3-224", f"{_NIST_HASHALGS}.7", "sha3_224", 28),
        PreHash("SHA3-256", f"{_NIST_HASHALGS}.8", "sha3_256", 32),
        PreHash("SHA3-384", f"{_NIST_HASHALGS}.9", "sha3_384", 48),
        PreHash("SHA3-512", f"{_NIST_HASHALGS}.10", "sha3_512", 64),
        PreHash("SHAKE-128", f"{_NIST_HASHALGS}.11", "shake_128", 32),
        PreHash("SHAKE-256", f"{_NIST_HASHALGS}.12", "shake_256", 64),
    )
}


def _spelling(name: str) -> str:
    """``name`` without case, '-', '_' or spaces, and SHA-2 names without their '2'
    (SHA-512, sha512, SHA2-512 are one spelling; SHA3-512 stays apart)."""
    return re.sub(r"^SHA2(?=224|256|384|512)", "SHA", re.sub(r"[-_ ]", "", name.upper()))


_SPELLINGS: dict[str, str] = {_spelling(known): known for known in PREHASHES}


def lookup(name: object, *, loose: bool = False) -> PreHash:
    """The pre-hash called ``name``: its ACVP spelling, or with ``loose`` (the
    command line) also any case and the common spellings (``SHA-512``, ``sha512``,
    ``shake256``); ValueError listing them otherwise."""
    if not isinstance(name, str):
        raise TypeError(f"prehash must be a str naming the hash, not {type(name).__name__}")
    if loose:
        name = _SPELLINGS.get(_spelling(name), name)
    try:
        return PREHASHES[name]
    except KeyError:
        raise ValueError(
            f"unknown prehash {name!r} (FIPS 204 §5.4, FIPS 205 §10.2); "
            f"known: {', '.join(PREHASHES)}"
        ) from None
