"""The one door to pyasn1 for :mod:`pqkit.x509`: strict, bounded DER decoding.

Every structure comes from pyasn1-alt-modules (RFC 5280, RFC 2986 ...); nothing here
encodes a certificate by hand. :func:`decode` bounds the work an attacker can ask
for before pyasn1 sees a byte: the input size (:data:`MAX_DER_BYTES`), the nesting
depth (:data:`MAX_DEPTH`) and the number of elements (:data:`MAX_ELEMENTS`), by one
iterative walk over the TLVs (ITU-T X.690 §8.1) that also refuses what DER forbids
in a header (indefinite lengths, lengths not in their shortest form). The decoded
value is then encoded again and compared with the input: DER is one encoding per
value (X.690 §10), so anything else (a BOOLEAN TRUE not 0xff, a DEFAULT written
out, an unsorted SET OF) is refused, and what is accepted round-trips byte for
byte. No pyasn1 exception leaves this module: each becomes a ``ValueError`` naming
what was being decoded.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any, TypeVar

from pqkit._extras import require
from pqkit.errors import MissingExtra

__all__ = ["MAX_DEPTH", "MAX_DER_BYTES", "MAX_ELEMENTS", "decode", "encode", "pyasn1_modules"]

MAX_DER_BYTES = 1 << 20
"""The largest certificate, request or CRL accepted (1 MiB: an SLH-DSA-256s
certificate is about 31 kB, a CRL of 10 000 entries about 400 kB)."""

MAX_DEPTH = 32
"""The deepest nesting of constructed values (a certificate needs about 10)."""

MAX_ELEMENTS = 50_000
"""The most TLVs in one structure (a certificate has about 100; bounds a CRL's
entries and an extension list)."""

T = TypeVar("T")

_FEATURE = "X.509 certificates, requests and CRLs"


class _Modules:
    """``pyasn1_modules().rfc5280`` imports ``pyasn1_alt_modules.rfc5280``."""

    def __getattr__(self, name: str) -> Any:
        module = importlib.import_module(f"pyasn1_alt_modules.{name}")
        setattr(self, name, module)
        return module


_MODULES = _Modules()


def pyasn1_modules() -> Any:
    """The ``pyasn1_alt_modules`` modules (``pyasn1_modules().rfc5280``), or
    :class:`pqkit.MissingExtra` naming the ``x509`` extra."""
    require("x509", _FEATURE, "pyasn1")
    if importlib.util.find_spec("pyasn1_alt_modules") is None:
        # pyasn1 without its modules package: the same one line
        raise MissingExtra(_FEATURE, "x509", "pyasn1-alt-modules")
    return _MODULES


def _header(data: bytes, pos: int, end: int, what: str) -> tuple[int, int, int]:
    """(identifier octet, content start, content end) of the TLV at ``pos``."""
    if end - pos < 2:
        raise ValueError(f"{what}: truncated DER (a TLV header at offset {pos})")
    tag = data[pos]
    if tag & 0x1F == 0x1F:
        raise ValueError(f"{what}: multi-octet tag at offset {pos} (not used in X.509)")
    first = data[pos + 1]
    pos += 2
    if first < 0x80:
        length = first
    else:
        count = first & 0x7F
        if count == 0:
            raise ValueError(f"{what}: indefinite length at offset {pos - 2} (BER, not DER)")
        if count > 4 or end - pos < count:
            raise ValueError(f"{what}: bad length field at offset {pos - 2}")
        length = int.from_bytes(data[pos : pos + count], "big")
        if length < 0x80 or data[pos] == 0:
            raise ValueError(f"{what}: length not in shortest form at offset {pos - 2} (not DER)")
        pos += count
    if end - pos < length:
        raise ValueError(f"{what}: truncated DER (a value at offset {pos} runs past its end)")
    return tag, pos, pos + length


def scan(data: bytes, what: str) -> int:
    """Walk the TLVs of ``data`` (exactly one outer value) without recursion and
    return its number of TLVs; ``ValueError`` past :data:`MAX_DEPTH` or
    :data:`MAX_ELEMENTS`, for trailing bytes or a malformed header."""
    if len(data) > MAX_DER_BYTES:
        raise ValueError(f"{what}: {len(data)} bytes is over the limit of {MAX_DER_BYTES}")
    tag, start, stop = _header(data, 0, len(data), what)
    if stop != len(data):
        raise ValueError(f"{what}: {len(data) - stop} bytes after the DER value")
    count = 1
    stack = [(start, stop)] if tag & 0x20 else []
    while stack:
        pos, end = stack.pop()
        if pos == end:
            continue
        tag, start, stop = _header(data, pos, end, what)
        count += 1
        if count > MAX_ELEMENTS:
            raise ValueError(f"{what}: more than {MAX_ELEMENTS} DER elements")
        stack.append((stop, end))
        if tag & 0x20:
            if len(stack) > MAX_DEPTH:
                raise ValueError(f"{what}: DER nesting deeper than {MAX_DEPTH}")
            stack.append((start, stop))
    return count


def decode(data: bytes, spec: T, what: str) -> T:
    """``data`` decoded as the pyasn1 ``spec`` (an instance), strict DER, bounded."""
    require("x509", _FEATURE, "pyasn1")
    from pyasn1.codec.der import decoder, encoder
    from pyasn1.error import PyAsn1Error

    scan(data, what)
    try:
        value, rest = decoder.decode(data, asn1Spec=spec)
        again = encoder.encode(value)
    except (PyAsn1Error, ValueError, TypeError, IndexError, KeyError, RecursionError) as exc:
        reason = " ".join(str(exc).split())[:200]
        raise ValueError(f"{what}: malformed DER ({reason})") from None
    if rest:
        raise ValueError(f"{what}: {len(rest)} bytes after the DER value")
    if again != data:
        raise ValueError(f"{what}: not DER (the value does not re-encode to the same bytes)")
    return value  # type: ignore[no-any-return]


def encode(value: Any, what: str = "value") -> bytes:
    """The DER of a pyasn1 value; ``ValueError`` naming ``what`` if incomplete."""
    from pyasn1.codec.der import encoder
    from pyasn1.error import PyAsn1Error

    try:
        return bytes(encoder.encode(value))
    except PyAsn1Error as exc:
        raise ValueError(f"{what}: cannot encode ({' '.join(str(exc).split())[:200]})") from None
