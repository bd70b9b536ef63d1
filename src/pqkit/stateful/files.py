"""The stateful keys' files.

**Private key file** (one file: the key and its counter; replaced whole on every
reservation, :mod:`pqkit.stateful.storage`). All integers big-endian:

=========  ===========  =================================================
bytes      field        meaning
=========  ===========  =================================================
8          magic        ``b"PQKSTFL1"``
1          name length  1..64
...        name         the parameter set, ASCII (``LMS_SHA256_H10_W4``)
8          next index   the first index never reserved (the counter)
8          limit        the number of one-time indices of the key
2          material     length of the key material (at most 4096)
...        material     the scheme's private key (LMS / HSS: I || SEED of the
                        top tree; XMSS: idx-free SK_SEED || SK_PRF || root ||
                        PUB_SEED)
32         check        SHA-256 of every byte before it
=========  ===========  =================================================

The checksum catches a damaged file (the atomic rename means a reader never sees
a torn write). The file is mode 0600 and holds the secret in the clear: protect
it as any private key file.

**Public keys** are SubjectPublicKeyInfo as RFC 9802 writes them: the algorithm
identifier id-alg-hss-lms-hashsig (1.2.840.113549.1.9.16.3.17), id-alg-xmss-hashsig
(1.3.6.1.5.5.7.6.34) or id-alg-xmssmt-hashsig (1.3.6.1.5.5.7.6.35) with absent
parameters, and the raw public key (HSS: u32str(L) || LMS public key, RFC 8554
§6.1; XMSS: the 4-byte OID || root || SEED, RFC 8391 Appendix B) as the BIT STRING.
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from dataclasses import dataclass, replace

from pqkit import der

__all__ = [
    "OID_HSS",
    "OID_XMSS",
    "OID_XMSSMT",
    "KeyRecord",
    "decode_record",
    "decode_spki",
    "encode_record",
    "encode_spki",
]

MAGIC = b"PQKSTFL1"
MAX_NAME = 64
MAX_MATERIAL = 4096
MAX_FILE_BYTES = len(MAGIC) + 1 + MAX_NAME + 8 + 8 + 2 + MAX_MATERIAL + 32

OID_HSS = "1.2.840.113549.1.9.16.3.17"  # RFC 9802 / RFC 9708: id-alg-hss-lms-hashsig
OID_XMSS = "1.3.6.1.5.5.7.6.34"  # RFC 9802: id-alg-xmss-hashsig
OID_XMSSMT = "1.3.6.1.5.5.7.6.35"  # RFC 9802: id-alg-xmssmt-hashsig


@dataclass(frozen=True)
class KeyRecord:
    """What a key file holds (see the module)."""

    name: str
    material: bytes
    next_index: int
    limit: int

    def __repr__(self) -> str:  # never show key material
        return f"KeyRecord({self.name}, next_index={self.next_index}, limit={self.limit})"

    def advanced(self, next_index: int) -> KeyRecord:
        if not self.next_index <= next_index <= self.limit:
            raise ValueError("a key's counter only moves forward, up to its limit")
        return replace(self, next_index=next_index)


def encode_record(record: KeyRecord) -> bytes:
    name = record.name.encode("ascii")
    if not 1 <= len(name) <= MAX_NAME or len(record.material) > MAX_MATERIAL:
        raise ValueError("key record name or material out of bounds")
    body = (
        MAGIC
        + bytes([len(name)])
        + name
        + struct.pack(">QQH", record.next_index, record.limit, len(record.material))
        + record.material
    )
    return body + hashlib.sha256(body).digest()


def decode_record(data: bytes, what: str = "stateful key file") -> KeyRecord:
    """The record in ``data``: ValueError naming what is wrong otherwise."""
    if not isinstance(data, bytes):
        raise TypeError(f"{what} must be bytes, not {type(data).__name__}")
    if len(data) > MAX_FILE_BYTES or len(data) < len(MAGIC) + 1 + 18 + 32:
        raise ValueError(f"{what}: not a pqkit stateful key file (wrong size)")
    if data[: len(MAGIC)] != MAGIC:
        raise ValueError(f"{what}: not a pqkit stateful key file (bad magic)")
    body, check = data[:-32], data[-32:]
    if not hmac.compare_digest(hashlib.sha256(body).digest(), check):
        raise ValueError(f"{what}: checksum mismatch (the file is damaged)")
    at = len(MAGIC)
    size = body[at]
    name_bytes = body[at + 1 : at + 1 + size]
    at += 1 + size
    if not 1 <= size <= MAX_NAME or len(body) < at + 18 or not name_bytes.isascii():
        raise ValueError(f"{what}: bad parameter-set name")
    next_index, limit, length = struct.unpack_from(">QQH", body, at)
    at += 18
    if len(body) != at + length or next_index > limit:
        raise ValueError(f"{what}: inconsistent lengths or counter")
    return KeyRecord(name_bytes.decode("ascii"), body[at:], next_index, limit)


def encode_spki(oid: str, public_key: bytes) -> bytes:
    """RFC 9802 SubjectPublicKeyInfo: AlgorithmIdentifier (parameters absent) and
    the raw public key as the BIT STRING ("Public Key Identifiers": the
    subjectPublicKey BIT STRING contains the raw octet string encoding, no OCTET
    STRING inside; the OCTET STRING types are for use outside a
    SubjectPublicKeyInfo)."""
    algorithm = der.encode_sequence(der.encode_oid(oid))
    return der.encode_sequence(algorithm, der.encode_bit_string(public_key))


def decode_spki(data: bytes) -> tuple[str, bytes]:
    """(OID, raw public key) of an RFC 9802 SubjectPublicKeyInfo."""
    what = "SubjectPublicKeyInfo"
    body = der.read_single(data, der.SEQUENCE, "SEQUENCE", what)
    reader = der.DerReader(body, what)
    inner = der.DerReader(reader.expect(der.SEQUENCE, "AlgorithmIdentifier"), what)
    oid = der.decode_oid(inner.expect(der.OBJECT_IDENTIFIER, "algorithm OID"), what)
    if not inner.at_end():
        raise ValueError(f"{what}: RFC 9802 AlgorithmIdentifier parameters must be absent")
    key = der.decode_bit_string(reader.expect(der.BIT_STRING, "subjectPublicKey"), what)
    reader.finish()
    if oid not in (OID_HSS, OID_XMSS, OID_XMSSMT):
        raise ValueError(f"{what}: OID {oid} is not an RFC 9802 HSS / XMSS / XMSS^MT key")
    return oid, key
