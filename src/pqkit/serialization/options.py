"""Encodings, formats and encryption choices for ``private_bytes`` / ``public_bytes``.

The names and values are those of ``cryptography.hazmat.primitives.serialization``,
so code written for pyca/cryptography reads the same, and pyca's own enum members
and encryption objects are accepted wherever these are.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Literal, TypeVar

from pqkit._checks import as_bytes
from pqkit._secret import Uncopyable
from pqkit.serialization.pbes2 import DEFAULT_ITERATIONS, check_write_iterations

__all__ = [
    "BestAvailableEncryption",
    "Encoding",
    "KeyForm",
    "NoEncryption",
    "PrivateFormat",
    "PublicFormat",
]

KeyForm = Literal["seed", "expanded", "both"]
"""The private-key CHOICE of RFC 9935 / RFC 9881 to write."""


class Encoding(Enum):
    """How the bytes are written: PEM text, DER binary, or the raw key."""

    PEM = "PEM"
    DER = "DER"
    Raw = "Raw"


class PrivateFormat(Enum):
    """PKCS#8 (OneAsymmetricKey, RFC 5958) or the raw seed."""

    PKCS8 = "PKCS8"
    Raw = "Raw"


class PublicFormat(Enum):
    """SubjectPublicKeyInfo (RFC 5280) or the raw FIPS public key."""

    SubjectPublicKeyInfo = "X.509 subjectPublicKeyInfo with PKCS#1"
    Raw = "Raw"


class NoEncryption:
    """Write the private key unencrypted."""

    def __repr__(self) -> str:
        return "NoEncryption()"


class BestAvailableEncryption(Uncopyable):
    """Encrypt PKCS#8 with ``password`` (PBES2: PBKDF2-HMAC-SHA256, AES-256-CBC).

    Needs the ``cryptography`` package. ``iterations`` sets the PBKDF2 rounds:
    600 000 by default (OWASP's figure for PBKDF2-HMAC-SHA256), at least 1 000
    (RFC 8018 §4.2) and at most the loaders' default cap of 1 000 000. It holds
    the password: copying or pickling it raises ``TypeError``.
    """

    _uncopyable_hint = "create another with the password"

    def __init__(self, password: bytes, *, iterations: int = DEFAULT_ITERATIONS) -> None:
        self.password = as_bytes(password, "password")
        if not self.password:
            raise ValueError("password must not be empty")
        self.iterations = check_write_iterations(iterations)

    def __repr__(self) -> str:
        return f"BestAvailableEncryption(<password>, iterations={self.iterations})"


E = TypeVar("E", Encoding, PrivateFormat, PublicFormat)


def coerce(enum: type[E], value: Any, name: str) -> E:
    """``value`` as a member of ``enum``; pyca/cryptography's members map by name."""
    if isinstance(value, enum):
        return value
    if type(value).__name__ == enum.__name__:  # e.g. pyca's Encoding.PEM
        text = str(value)
        for member in enum:
            if text == f"{enum.__name__}.{member.name}":
                return member
        raise ValueError(f"{name} {text} is not supported for these keys")
    raise TypeError(f"{name} must be a {enum.__name__} member, not {type(value).__name__}")


def encryption_password(value: Any) -> tuple[bytes | None, int]:
    """``(password or None, iterations)`` from an encryption choice (pqkit's or pyca's)."""
    if isinstance(value, NoEncryption) or type(value).__name__ == "NoEncryption":
        return None, DEFAULT_ITERATIONS
    if isinstance(value, BestAvailableEncryption):
        return value.password, value.iterations
    password = getattr(value, "password", None)
    if type(value).__name__ == "BestAvailableEncryption" and isinstance(password, bytes):
        if not password:
            raise ValueError("password must not be empty")
        return password, DEFAULT_ITERATIONS
    raise TypeError(
        "encryption_algorithm must be NoEncryption() or BestAvailableEncryption(password), "
        f"not {type(value).__name__}"
    )
