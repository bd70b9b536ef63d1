"""The pre-hash functions of HashML-DSA (FIPS 204 §5.4), by their ACVP names.

One table: name -> (OID, function). The DER encoding of each OID is computed from
its dotted form; SHAKE128 and SHAKE256 give 256 and 512 bits (FIPS 204 §5.4.1).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pqkit import common
from pqkit.der import encode_oid

__all__ = ["PREHASHES", "PreHash", "lookup"]


@dataclass(frozen=True)
class PreHash:
    """A pre-hash function PH of HashML-DSA and its OID (FIPS 204, Algorithm 4)."""

    name: str
    oid: str
    function: Callable[[bytes], bytes]

    @property
    def der(self) -> bytes:
        """The DER OBJECT IDENTIFIER element that HashML-DSA puts in M'."""
        return encode_oid(self.oid)


def _shake128_256(data: bytes) -> bytes:
    return common.shake128_digest(data, 32)


def _shake256_512(data: bytes) -> bytes:
    return common.shake256_digest(data, 64)


_NIST_HASHALGS = "2.16.840.1.101.3.4.2"

PREHASHES: dict[str, PreHash] = {
    p.name: p
    for p in (
        PreHash("SHA2-224", f"{_NIST_HASHALGS}.4", common.sha224),
        PreHash("SHA2-256", f"{_NIST_HASHALGS}.1", common.sha256),
        PreHash("SHA2-384", f"{_NIST_HASHALGS}.2", common.sha384),
        PreHash("SHA2-512", f"{_NIST_HASHALGS}.3", common.sha512),
        PreHash("SHA2-512/224", f"{_NIST_HASHALGS}.5", common.sha512_224),
        PreHash("SHA2-512/256", f"{_NIST_HASHALGS}.6", common.sha512_256),
        PreHash("SHA3-224", f"{_NIST_HASHALGS}.7", common.sha3_224),
        PreHash("SHA3-256", f"{_NIST_HASHALGS}.8", common.sha3_256),
        PreHash("SHA3-384", f"{_NIST_HASHALGS}.9", common.sha3_384),
        PreHash("SHA3-512", f"{_NIST_HASHALGS}.10", common.sha3_512),
        PreHash("SHAKE-128", f"{_NIST_HASHALGS}.11", _shake128_256),
        PreHash("SHAKE-256", f"{_NIST_HASHALGS}.12", _shake256_512),
    )
}


def lookup(name: object) -> PreHash:
    """The pre-hash called ``name`` (ACVP spelling); ValueError listing them otherwise."""
    if not isinstance(name, str):
        raise TypeError(f"prehash must be a str naming the hash, not {type(name).__name__}")
    try:
        return PREHASHES[name]
    except KeyError:
        raise ValueError(
            f"unknown prehash {name!r} (FIPS 204 §5.4); known: {', '.join(PREHASHES)}"
        ) from None
