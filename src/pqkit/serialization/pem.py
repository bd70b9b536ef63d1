"""PEM (RFC 7468): textual encoding of DER with a label.

Writing follows RFC 7468 §2 "strict" form: base64 in lines of 64 characters,
``\\n`` line ends, a final newline. Reading takes the first encapsulated block:
text before it is ignored (RFC 7468 §2 allows explanatory text), whitespace
inside the base64 body is ignored, and the body must be valid base64 with
correct padding. A missing or different label is a ``ValueError`` naming both.
"""

from __future__ import annotations

import base64
import binascii
import re

__all__ = ["MAX_PEM_BYTES", "pem_decode", "pem_encode"]

MAX_PEM_BYTES = 1 << 21
"""Largest PEM input read (2 MiB). The biggest key file pqkit writes (a Classic
McEliece 8192128 public key) is about 1.84 MB; the bound keeps the scan for the BEGIN line,
the whitespace removal and the base64 decoding of an attacker's file small."""

_BEGIN = re.compile(rb"-----BEGIN ([\x21-\x2c\x2e-\x7e](?:[- ]?[\x21-\x2c\x2e-\x7e])*)?-----")


def pem_encode(der: bytes, label: str) -> bytes:
    """``der`` as a PEM block with ``label`` (e.g. ``"PRIVATE KEY"``)."""
    body = base64.b64encode(der)
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    head = f"-----BEGIN {label}-----\n".encode("ascii")
    tail = f"-----END {label}-----\n".encode("ascii")
    return head + b"".join(line + b"\n" for line in lines) + tail


def pem_decode(
    data: bytes, labels: tuple[str, ...], *, limit: int = MAX_PEM_BYTES
) -> tuple[str, bytes]:
    """``(label, der)`` of the first PEM block in ``data``; its label must be in ``labels``.
    ``limit`` bounds the input (default :data:`MAX_PEM_BYTES`, for key files)."""
    wanted = " or ".join(repr(label) for label in labels)
    if len(data) > limit:
        raise ValueError(
            f"PEM input of {len(data)} bytes is too large (at most {limit}"
            + ("; key files are a few kilobytes)" if limit == MAX_PEM_BYTES else ")")
        )
    match = _BEGIN.search(data)
    if match is None:
        raise ValueError(f"no PEM block found (expected a {wanted} block)")
    label = (match.group(1) or b"").decode("ascii")
    if label not in labels:
        raise ValueError(f"wrong PEM label {label!r} (expected {wanted})")
    end_marker = f"-----END {label}-----".encode("ascii")
    end = data.find(end_marker, match.end())
    if end < 0:
        raise ValueError(f"PEM block {label!r} has no matching END line")
    body = data[match.end() : end]
    compact = b"".join(body.split())
    try:
        der = base64.b64decode(compact, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError(f"PEM block {label!r}: invalid base64 body") from None
    if not der:
        raise ValueError(f"PEM block {label!r} is empty")
    return label, der
