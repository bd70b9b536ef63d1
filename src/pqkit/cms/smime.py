"""CMS messages in the forms producers write them: DER / BER, PEM (``CMS`` or
``PKCS7`` label, RFC 7468 §9), and S/MIME (RFC 8551): ``application/pkcs7-mime``
(an enveloped or signed message in base64) and ``multipart/signed`` (detached
signature, RFC 1847 / RFC 8551 §3.5.3).
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any

from pqkit._checks import as_bytes
from pqkit.cms._asn1 import MAX_INPUT
from pqkit.serialization.pem import pem_decode, pem_encode

__all__ = [
    "MultipartSigned",
    "from_pem",
    "read",
    "split_multipart_signed",
    "to_pem",
    "to_smime",
    "to_smime_multipart",
]

PEM_LABEL = "CMS"
_LABELS = ("CMS", "PKCS7")
_HEADER_END = re.compile(rb"\r?\n\r?\n")
_BOUNDARY = re.compile(rb'boundary="?([^";\r\n]+)"?', re.IGNORECASE)


def to_pem(der: bytes) -> bytes:
    """``der`` as a ``-----BEGIN CMS-----`` block."""
    return pem_encode(der, PEM_LABEL)


def from_pem(data: bytes) -> bytes:
    """The DER (or BER) of the first ``CMS`` / ``PKCS7`` PEM block of ``data``."""
    return pem_decode(data, _LABELS, limit=MAX_INPUT * 2)[1]


def _headers(data: bytes) -> tuple[dict[str, bytes], bytes]:
    match = _HEADER_END.search(data)
    if match is None:
        raise ValueError("S/MIME: no blank line after the MIME headers")
    head = data[: match.start()]
    headers: dict[str, bytes] = {}
    last = ""
    for line in re.split(rb"\r?\n", head):
        if line[:1] in (b" ", b"\t") and last:
            headers[last] += b" " + line.strip()
            continue
        name, sep, value = line.partition(b":")
        if not sep:
            raise ValueError("S/MIME: a header line without ':'")
        last = name.strip().decode("ascii", "replace").lower()
        headers[last] = value.strip()
    return headers, data[match.end() :]


def _b64(body: bytes) -> bytes:
    try:
        return base64.b64decode(b"".join(body.split()), validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("S/MIME: the body is not valid base64") from None


def to_smime(der: bytes, smime_type: str) -> bytes:
    """``der`` as an ``application/pkcs7-mime`` entity (RFC 8551 §3.2), CRLF
    line ends; ``smime_type`` is ``enveloped-data``, ``authEnveloped-data`` or
    ``signed-data``."""
    body = base64.encodebytes(der).replace(b"\n", b"\r\n")
    return (
        b"MIME-Version: 1.0\r\n"
        b'Content-Disposition: attachment; filename="smime.p7m"\r\n'
        b"Content-Type: application/pkcs7-mime; smime-type=" + smime_type.encode() + b"; "
        b'name="smime.p7m"\r\n'
        b"Content-Transfer-Encoding: base64\r\n\r\n" + body
    )


def to_smime_multipart(content: bytes, der: bytes, micalg: str, boundary: bytes) -> bytes:
    """A ``multipart/signed`` entity (RFC 8551 §3.5.3): ``content`` (a MIME entity,
    the signed bytes) then the detached signature ``der``."""
    sig = base64.encodebytes(der).replace(b"\n", b"\r\n")
    return (
        b"MIME-Version: 1.0\r\n"
        b'Content-Type: multipart/signed; protocol="application/pkcs7-signature"; '
        b"micalg=" + micalg.encode() + b'; boundary="' + boundary + b'"\r\n\r\n'
        b"This is an S/MIME signed message\r\n\r\n"
        b"--" + boundary + b"\r\n" + content + b"\r\n"
        b"--" + boundary + b"\r\n"
        b'Content-Type: application/pkcs7-signature; name="smime.p7s"\r\n'
        b"Content-Transfer-Encoding: base64\r\n"
        b'Content-Disposition: attachment; filename="smime.p7s"\r\n\r\n'
        + sig
        + b"\r\n--"
        + boundary
        + b"--\r\n"
    )


class MultipartSigned:
    """The two parts of a ``multipart/signed`` entity: the signed content (exact
    bytes of the first part) and the signature (DER / BER)."""

    __slots__ = ("content", "signature")

    def __init__(self, content: bytes, signature: bytes) -> None:
        self.content = content
        self.signature = signature


def split_multipart_signed(data: bytes) -> MultipartSigned:
    """The parts of a ``multipart/signed`` entity (RFC 1847 §2.1): the first part's
    bytes as they stand (what was signed) and the decoded signature."""
    headers, body = _headers(data)
    ctype = headers.get("content-type", b"")
    match = _BOUNDARY.search(ctype)
    if not ctype.lower().startswith(b"multipart/signed") or match is None:
        raise ValueError("S/MIME: not a multipart/signed entity with a boundary")
    delimiter = b"--" + match.group(1)
    # RFC 2046 §5.1.1: the CRLF before a delimiter belongs to the delimiter.
    parts = re.split(rb"(?:\r?\n)?" + re.escape(delimiter) + rb"(?:--)?[ \t]*\r?\n?", body)
    pieces = parts[1:-1]  # between the preamble and the epilogue
    if len(pieces) < 2:
        raise ValueError("S/MIME: multipart/signed needs two parts")
    sig_headers, sig_body = _headers(pieces[1])
    kind = sig_headers.get("content-type", b"").lower()
    if b"pkcs7-signature" not in kind:
        raise ValueError("S/MIME: the second part is not application/pkcs7-signature")
    return MultipartSigned(pieces[0], _b64(sig_body))


def read(data: Any) -> bytes:
    """The CMS bytes of ``data`` in any form: PEM, S/MIME ``application/pkcs7-mime``
    or raw DER / BER (returned as is)."""
    raw = as_bytes(data, "data")
    if len(raw) > 2 * MAX_INPUT:
        raise ValueError(f"CMS input of {len(raw)} bytes is too large")
    head = raw[:64].lstrip()
    if head.startswith(b"-----BEGIN"):
        return from_pem(raw)
    if head[:1] in (b"0",) or not head[:1].isalpha():
        return raw
    headers, body = _headers(raw)
    ctype = headers.get("content-type", b"").lower()
    if b"pkcs7-mime" not in ctype:
        raise ValueError(
            "S/MIME: expected application/pkcs7-mime (multipart/signed needs its content "
            "checked as detached: use split_multipart_signed)"
        )
    return _b64(body)
