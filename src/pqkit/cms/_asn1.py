"""Bounded decoding of CMS input (BER as producers write it) and strict DER output.

Every CMS structure comes from pyasn1-alt-modules (RFC 5652, 5083, 5084, 8619,
9629); nothing here encodes a CMS structure by hand. What is here keeps hostile
input away from pyasn1: the size is bounded first, then a small iterative scan of
the BER tag-length-value frames bounds the nesting depth and the number of
elements (pyasn1 decodes recursively and has no limit of its own on either), and
every pyasn1 exception becomes a ``ValueError`` naming what failed.
"""

from __future__ import annotations

from typing import Any

from pqkit._checks import as_bytes
from pqkit._extras import require

__all__ = [
    "MAX_DEPTH",
    "MAX_ELEMENTS",
    "MAX_INPUT",
    "decode",
    "definite",
    "encode",
    "modules",
    "oid",
    "scan",
]

MAX_INPUT = 64 << 20
"""Largest CMS message decoded in memory (64 MiB); large contents go detached."""
MAX_DEPTH = 32
"""Deepest nesting of constructed BER elements (CMS needs about a dozen levels)."""
MAX_ELEMENTS = 200_000
"""Most BER elements in one message (a counter of everything the scan walks)."""


def modules() -> Any:
    """The pyasn1 / pyasn1-alt-modules namespace (``MissingExtra`` without the extra)."""
    # pyasn1-alt-modules with RFC 9629 (0.4.5 on; it brings pyasn1), then pyca.
    require("cms", "CMS messages (pqkit.cms)", "pyasn1_alt_modules.rfc9629")
    require("openssl", "CMS messages (pqkit.cms)", "cryptography.hazmat.primitives.keywrap")
    from pqkit.cms import _mods

    return _mods


def scan(data: bytes, what: str, *, max_depth: int = MAX_DEPTH) -> bool:
    """Walk the BER frames of ``data`` (X.690 §8.1) without building anything:
    ``ValueError`` if the nesting is deeper than ``max_depth``, if there are more
    than :data:`MAX_ELEMENTS` elements, or if a length runs past its parent.
    Returns whether an indefinite length was seen."""
    n = len(data)
    indefinite = False
    # Stack of ends of the open constructed elements; -1 for an indefinite length.
    stack: list[int] = []
    pos = 0
    count = 0
    while True:
        while stack and stack[-1] >= 0 and pos == stack[-1]:
            stack.pop()
        if not stack and pos > 0:
            break
        if pos >= n:
            raise ValueError(f"{what}: truncated BER (an element runs past the end)")
        if stack and stack[-1] < 0 and data[pos : pos + 2] == b"\x00\x00":
            stack.pop()
            pos += 2
            if not stack:
                break
            continue
        count += 1
        if count > MAX_ELEMENTS:
            raise ValueError(f"{what}: more than {MAX_ELEMENTS} BER elements")
        first = data[pos]
        pos += 1
        if first & 0x1F == 0x1F:  # high tag number form
            for _ in range(5):
                if pos >= n:
                    raise ValueError(f"{what}: truncated BER tag")
                pos += 1
                if not data[pos - 1] & 0x80:
                    break
            else:
                raise ValueError(f"{what}: BER tag number too large")
        if pos >= n:
            raise ValueError(f"{what}: truncated BER length")
        octet = data[pos]
        pos += 1
        constructed = bool(first & 0x20)
        if octet == 0x80:
            if not constructed:
                raise ValueError(f"{what}: indefinite length on a primitive element")
            length = -1
            indefinite = True
        elif octet & 0x80:
            size = octet & 0x7F
            if size > 8 or pos + size > n:
                raise ValueError(f"{what}: bad BER length")
            length = int.from_bytes(data[pos : pos + size], "big")
            pos += size
        else:
            length = octet
        limit = next((end for end in reversed(stack) if end >= 0), n)
        if length >= 0 and pos + length > limit:
            raise ValueError(f"{what}: a BER length runs past its container")
        if constructed:
            if len(stack) >= max_depth:
                raise ValueError(f"{what}: BER nesting deeper than {max_depth}")
            if length == 0:
                continue
            stack.append(pos + length if length >= 0 else -1)
            continue
        pos += length
    if pos != n:
        raise ValueError(f"{what}: {n - pos} trailing bytes after the message")
    return indefinite


def _header(data: bytes, pos: int) -> tuple[int, int, int]:
    """(end of the identifier octets, length or -1, start of the contents) of the
    element at ``pos`` (already checked by :func:`scan`)."""
    start = pos
    pos += 1
    if data[start] & 0x1F == 0x1F:
        while data[pos] & 0x80:
            pos += 1
        pos += 1
    tag_end = pos
    octet = data[pos]
    pos += 1
    if octet == 0x80:
        return tag_end, -1, pos
    if octet & 0x80:
        size = octet & 0x7F
        return tag_end, int.from_bytes(data[pos : pos + size], "big"), pos + size
    return tag_end, octet, pos


def _length(n: int) -> bytes:
    """X.690 §10.1: the definite length octets of ``n``, shortest form."""
    if n < 0x80:
        return bytes([n])
    body = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(body)]) + body


def _definite(data: bytes, pos: int, end: int) -> tuple[bytes, int]:
    """The elements from ``pos`` to ``end`` (-1: to an end-of-contents) with every
    indefinite length made definite; nothing else changes (X.690 §8.1.3)."""
    out: list[bytes] = []
    while True:
        if end < 0 and data[pos : pos + 2] == b"\x00\x00":
            return b"".join(out), pos + 2
        if end >= 0 and pos >= end:
            return b"".join(out), pos
        tag_end, length, body = _header(data, pos)
        if data[pos] & 0x20:
            inner, after = _definite(data, body, -1 if length < 0 else body + length)
        else:
            inner, after = data[body : body + length], body + length
        out.append(data[pos:tag_end] + _length(len(inner)) + inner)
        pos = after


def definite(data: bytes) -> bytes:
    """``data`` (BER that :func:`scan` accepted) with definite lengths only: pyasn1
    loses end-of-contents octets inside an open type (ANY) of indefinite length."""
    return _definite(data, 0, len(data))[0]


def decode(data: Any, spec: Any, what: str) -> Any:
    """``data`` (BER or DER) decoded as ``spec`` after the size and frame checks;
    a ``ValueError`` naming ``what`` for anything pyasn1 refuses."""
    raw = as_bytes(data, what)
    if len(raw) > MAX_INPUT:
        raise ValueError(f"{what} of {len(raw)} bytes is too large (at most {MAX_INPUT})")
    if not raw:
        raise ValueError(f"{what} is empty")
    if scan(raw, what):
        raw = definite(raw)
    mods = modules()
    try:
        value, rest = mods.ber_decoder.decode(raw, asn1Spec=spec)
    except mods.PyAsn1Error as exc:
        raise ValueError(f"{what}: malformed ASN.1 ({' '.join(str(exc).split())[:200]})") from None
    if rest:
        raise ValueError(f"{what}: {len(rest)} trailing bytes")
    return value


def encode(value: Any) -> bytes:
    """Strict DER of a pyasn1 value (SET OF sorted, definite lengths)."""
    out: bytes = modules().der_encoder.encode(value)
    return out


def oid(value: Any) -> str:
    """The dotted text of a pyasn1 OBJECT IDENTIFIER."""
    return ".".join(str(arc) for arc in tuple(value))
