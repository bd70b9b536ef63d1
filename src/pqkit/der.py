"""A small, strict DER encoder and decoder (ITU-T X.690 §8 and §10).

Only what the key formats need: single-byte tags (tag numbers 0-30), definite
lengths in their shortest form, and the primitive types INTEGER, BIT STRING,
OCTET STRING, NULL and OBJECT IDENTIFIER. The decoder accepts DER only: an
indefinite length, a length or integer with superfluous leading bytes, a
sub-identifier with a leading 0x80 byte, or bytes left over after a structure
are each a ``ValueError`` naming the defect. Nothing here is secret-dependent
except the contents it copies.
"""

from __future__ import annotations

__all__ = [
    "BIT_STRING",
    "CONTEXT_0",
    "CONTEXT_1",
    "CONTEXT_CONSTRUCTED_0",
    "CONTEXT_CONSTRUCTED_1",
    "INTEGER",
    "MAX_ARC_OCTETS",
    "MAX_INTEGER_OCTETS",
    "MAX_OID_OCTETS",
    "NULL",
    "OBJECT_IDENTIFIER",
    "OCTET_STRING",
    "SEQUENCE",
    "SET",
    "DerReader",
    "decode_bit_string",
    "decode_integer",
    "decode_oid",
    "encode_bit_string",
    "encode_integer",
    "encode_length",
    "encode_null",
    "encode_octet_string",
    "encode_oid",
    "encode_sequence",
    "encode_tlv",
    "oid_to_der",
    "read_single",
]

# Identifier octets (X.690 §8.1.2): universal class, primitive unless noted.
INTEGER = 0x02
BIT_STRING = 0x03
OCTET_STRING = 0x04
NULL = 0x05
OBJECT_IDENTIFIER = 0x06
SEQUENCE = 0x30  # constructed
SET = 0x31  # constructed
CONTEXT_0 = 0x80  # [0] IMPLICIT, primitive
CONTEXT_1 = 0x81  # [1] IMPLICIT, primitive
CONTEXT_CONSTRUCTED_0 = 0xA0  # [0], constructed
CONTEXT_CONSTRUCTED_1 = 0xA1  # [1], constructed

_MAX_LENGTH_OCTETS = 4  # lengths up to 4 GiB; key files are a few kilobytes

MAX_OID_OCTETS = 64
"""Longest OBJECT IDENTIFIER content accepted. The OIDs pqkit knows are 9-11 octets;
64 leaves room for any registered arc while keeping decoding trivially cheap (an
unbounded OID of one huge arc costs quadratic time in its length to decode)."""
MAX_ARC_OCTETS = 20
"""Longest sub-identifier accepted: 140 bits, enough for the 128-bit UUID arcs of
ITU-T X.667 (2.25.<uuid>), the largest arcs in use."""
MAX_INTEGER_OCTETS = 8
"""Longest INTEGER :func:`decode_integer` accepts by default: the key formats' integers
(a version, an iteration count, a key length) are small; a bound keeps an attacker's
megabyte INTEGER from reaching ``int``/``str`` conversions, which are not linear."""


# --- encoding ---------------------------------------------------------------------


def encode_length(n: int) -> bytes:
    """The DER length octets for ``n`` content bytes (X.690 §10.1: shortest form)."""
    if n < 0:
        raise ValueError(f"a DER length cannot be negative, got {n}")
    if n < 0x80:
        return bytes([n])
    body = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(body)]) + body


def encode_tlv(tag: int, content: bytes) -> bytes:
    """Tag, length and ``content``."""
    return bytes([tag]) + encode_length(len(content)) + content


def encode_sequence(*parts: bytes) -> bytes:
    """A SEQUENCE of already-encoded elements."""
    return encode_tlv(SEQUENCE, b"".join(parts))


def encode_integer(value: int) -> bytes:
    """A two's-complement INTEGER in the fewest octets (X.690 §8.3)."""
    length = (value + (value < 0)).bit_length() // 8 + 1
    return encode_tlv(INTEGER, value.to_bytes(length, "big", signed=True))


def encode_octet_string(data: bytes) -> bytes:
    """An OCTET STRING (primitive)."""
    return encode_tlv(OCTET_STRING, data)


def encode_bit_string(data: bytes) -> bytes:
    """A BIT STRING of whole octets (zero unused bits)."""
    return encode_tlv(BIT_STRING, b"\x00" + data)


def encode_null() -> bytes:
    """NULL."""
    return encode_tlv(NULL, b"")


def oid_to_der(dotted: str) -> bytes:
    """The content octets of the OBJECT IDENTIFIER ``dotted`` (X.690 §8.19)."""
    try:
        arcs = [int(part) for part in dotted.split(".")]
    except ValueError:
        raise ValueError(f"not a dotted object identifier: {dotted!r}") from None
    if len(arcs) < 2 or arcs[0] > 2 or (arcs[0] < 2 and arcs[1] > 39) or min(arcs) < 0:
        raise ValueError(f"not a valid object identifier: {dotted!r}")
    out = bytearray()
    for arc in [40 * arcs[0] + arcs[1], *arcs[2:]]:
        chunk = [arc & 0x7F]
        arc >>= 7
        while arc:
            chunk.append(0x80 | (arc & 0x7F))
            arc >>= 7
        out.extend(reversed(chunk))
    return bytes(out)


def encode_oid(dotted: str) -> bytes:
    """An OBJECT IDENTIFIER element."""
    return encode_tlv(OBJECT_IDENTIFIER, oid_to_der(dotted))


# --- decoding ---------------------------------------------------------------------


class DerReader:
    """Reads consecutive DER elements from ``data``; ``what`` names it in messages.

    ``read()`` returns ``(tag, content)``; ``expect(tag, name)`` also checks the tag;
    ``finish()`` raises unless every byte was consumed.
    """

    __slots__ = ("_data", "_pos", "what")

    def __init__(self, data: bytes, what: str) -> None:
        self._data = data
        self._pos = 0
        self.what = what

    def at_end(self) -> bool:
        """True when every byte has been read."""
        return self._pos == len(self._data)

    def peek_tag(self) -> int | None:
        """The tag of the next element, or None at the end."""
        return None if self.at_end() else self._data[self._pos]

    def read(self) -> tuple[int, bytes]:
        """The next element as ``(tag, content)``."""
        data, pos, what = self._data, self._pos, self.what
        if pos >= len(data):
            raise ValueError(f"{what}: truncated DER (expected another element)")
        tag = data[pos]
        if tag & 0x1F == 0x1F:
            raise ValueError(f"{what}: multi-byte DER tags are not supported")
        pos += 1
        if pos >= len(data):
            raise ValueError(f"{what}: truncated DER (no length octets)")
        first = data[pos]
        pos += 1
        if first < 0x80:
            length = first
        elif first == 0x80:
            raise ValueError(f"{what}: indefinite lengths are not allowed in DER")
        else:
            count = first & 0x7F
            if count > _MAX_LENGTH_OCTETS:
                raise ValueError(f"{what}: DER length field of {count} octets is too long")
            if pos + count > len(data):
                raise ValueError(f"{what}: truncated DER (length octets)")
            body = data[pos : pos + count]
            pos += count
            if body[0] == 0:
                raise ValueError(f"{what}: non-minimal DER length (leading zero octet)")
            length = int.from_bytes(body, "big")
            if length < 0x80:
                raise ValueError(f"{what}: non-minimal DER length (long form for {length})")
        if pos + length > len(data):
            raise ValueError(
                f"{what}: truncated DER (element needs {length} bytes, {len(data) - pos} left)"
            )
        self._pos = pos + length
        return tag, data[pos : pos + length]

    def expect(self, tag: int, name: str) -> bytes:
        """The content of the next element, which must have ``tag``."""
        if self.at_end():
            raise ValueError(f"{self.what}: truncated DER (missing {name})")
        got, content = self.read()
        if got != tag:
            raise ValueError(f"{self.what}: expected {name} (tag 0x{tag:02x}), got tag 0x{got:02x}")
        return content

    def finish(self) -> None:
        """Raise ``ValueError`` if bytes remain."""
        if not self.at_end():
            raise ValueError(
                f"{self.what}: {len(self._data) - self._pos} unexpected trailing bytes"
            )


def read_single(data: bytes, tag: int, name: str, what: str) -> bytes:
    """The content of the one element that makes up all of ``data``."""
    reader = DerReader(data, what)
    content = reader.expect(tag, name)
    reader.finish()
    return content


def decode_integer(content: bytes, what: str, *, max_octets: int = MAX_INTEGER_OCTETS) -> int:
    """An INTEGER's value from its content octets, which must be minimal (X.690 §8.3.2)
    and at most ``max_octets`` long."""
    if not content:
        raise ValueError(f"{what}: empty INTEGER")
    if len(content) > max_octets:
        raise ValueError(
            f"{what}: INTEGER of {len(content)} octets is too long (at most {max_octets})"
        )
    if len(content) > 1 and (
        (content[0] == 0x00 and content[1] < 0x80) or (content[0] == 0xFF and content[1] >= 0x80)
    ):
        raise ValueError(f"{what}: non-minimal INTEGER encoding")
    return int.from_bytes(content, "big", signed=True)


def decode_oid(content: bytes, what: str) -> str:
    """The dotted form of an OBJECT IDENTIFIER from its content octets.

    At most :data:`MAX_OID_OCTETS` octets and :data:`MAX_ARC_OCTETS` per
    sub-identifier, checked before any arithmetic, so the cost is linear in the
    input whatever its size.
    """
    if not content:
        raise ValueError(f"{what}: empty OBJECT IDENTIFIER")
    if len(content) > MAX_OID_OCTETS:
        raise ValueError(
            f"{what}: OBJECT IDENTIFIER of {len(content)} octets is too long "
            f"(at most {MAX_OID_OCTETS})"
        )
    if content[-1] & 0x80:
        raise ValueError(f"{what}: truncated OBJECT IDENTIFIER")
    arcs: list[int] = []
    value = 0
    octets = 0
    start = True
    for byte in content:
        if start and byte == 0x80:
            raise ValueError(f"{what}: non-minimal OBJECT IDENTIFIER sub-identifier")
        octets += 1
        if octets > MAX_ARC_OCTETS:
            raise ValueError(
                f"{what}: OBJECT IDENTIFIER sub-identifier longer than {MAX_ARC_OCTETS} octets"
            )
        value = (value << 7) | (byte & 0x7F)
        start = not byte & 0x80
        if start:
            arcs.append(value)
            value = 0
            octets = 0
    first = arcs[0]
    head = [0, first] if first < 40 else [1, first - 40] if first < 80 else [2, first - 80]
    return ".".join(str(arc) for arc in head + arcs[1:])


def decode_bit_string(content: bytes, what: str) -> bytes:
    """The octets of a BIT STRING that must hold whole octets (no unused bits)."""
    if not content:
        raise ValueError(f"{what}: empty BIT STRING")
    if content[0] != 0:
        raise ValueError(f"{what}: BIT STRING with {content[0]} unused bits (expected 0)")
    return content[1:]
