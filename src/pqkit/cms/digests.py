"""The message digest of a SignedData signer: which hash each key signs with, and
hashing contents of any size in chunks.

RFC 9882 §3.3 (ML-DSA: SHA-512), RFC 9814 §4 (SLH-DSA: SHA-256 for the SHA2-128
sets, SHA-512 for the other SHA2 sets, SHAKE128 / SHAKE256 with 256 / 512-bit
output for the SHAKE sets); a pre-hash or composite OID signs with the hash its
OID binds (``KeyAlgorithm.prehash``); classical keys as RFC 5754 / RFC 8419
(ECDSA with the curve's hash, RSA SHA-256, Ed25519 SHA-512, Ed448 SHAKE256).
The hashes and their OIDs are :data:`pqkit.prehash.PREHASHES`.
"""

from __future__ import annotations

from typing import Any

from pqkit.prehash import PREHASHES, PreHash, lookup

__all__ = ["CHUNK", "by_oid", "digest_content", "for_key"]

CHUNK = 1 << 20
"""Bytes read at a time from a content stream (memory bounded by this, not the file)."""


def for_key(key: Any) -> PreHash:
    """The digest algorithm a signer with ``key`` (a pqkit or pyca private key) uses."""
    alg = getattr(key, "algorithm", None)
    if alg is not None and hasattr(alg, "family"):
        if alg.prehash is not None:
            return lookup(alg.prehash)
        if alg.family == "SLH-DSA":
            # RFC 9814 §4: the digest matches the set's hash and security level.
            shake = "SHAKE" in alg.name
            level = alg.name.split("-")[-1][:3]
            if shake:
                return PREHASHES["SHAKE-128" if level == "128" else "SHAKE-256"]
            return PREHASHES["SHA2-256" if level == "128" else "SHA2-512"]
        return PREHASHES["SHA2-512"]
    name = type(key).__name__
    if "Ed448" in name:
        return PREHASHES["SHAKE-256"]
    if "Ed25519" in name:
        return PREHASHES["SHA2-512"]
    curve = getattr(getattr(key, "curve", None), "key_size", 0)
    if curve > 384:
        return PREHASHES["SHA2-512"]
    if curve > 256:
        return PREHASHES["SHA2-384"]
    return PREHASHES["SHA2-256"]


def by_oid(oid: str) -> PreHash:
    """The digest algorithm of a digestAlgorithm OID (``ValueError`` if unknown)."""
    for known in PREHASHES.values():
        if known.oid == oid:
            return known
    raise ValueError(f"unsupported digest algorithm {oid}")


def digest_content(algorithm: PreHash, content: Any) -> bytes:
    """The digest of ``content``: bytes, or a binary file object read in
    :data:`CHUNK`-byte pieces (memory bounded by the chunk, not the content)."""
    if isinstance(content, (bytes, bytearray, memoryview)):
        return algorithm.new(bytes(content)).digest()
    read = getattr(content, "read", None)
    if read is None:
        raise TypeError(f"content must be bytes or a binary file, not {type(content).__name__}")
    hasher = algorithm.new()
    while True:
        piece = read(CHUNK)
        if not piece:
            return hasher.digest()
        if not isinstance(piece, bytes):
            raise TypeError("content must be opened in binary mode")
        hasher.update(piece)
