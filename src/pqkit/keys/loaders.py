"""``load_{pem,der}_{private,public}_key``: read a key file, pick the class by OID.

A pre-hash OID (HashML-DSA, HashSLH-DSA) picks its own class, bound to that
pre-hash (:mod:`pqkit.keys.mldsa`, :mod:`pqkit.keys.slhdsa`).

The behaviour follows pyca/cryptography's loaders: a password for a key that is
not encrypted, or none for one that is, is a ``TypeError``; everything wrong with
the data itself (truncated or malformed DER, an unknown OID, wrong lengths,
trailing bytes, a wrong PEM label, a wrong password, a failed consistency check)
is a ``ValueError`` whose message names the defect.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pqkit import der
from pqkit._checks import as_bytes
from pqkit.serialization import pbes2
from pqkit.serialization.pem import pem_decode
from pqkit.serialization.structures import decode_private_key_info, decode_spki

if TYPE_CHECKING:
    from pqkit.keys import PrivateKey, PublicKey

__all__ = [
    "load_der_private_key",
    "load_der_public_key",
    "load_pem_private_key",
    "load_pem_public_key",
]

_PRIVATE_LABEL = "PRIVATE KEY"
_ENCRYPTED_LABEL = "ENCRYPTED PRIVATE KEY"
_PUBLIC_LABEL = "PUBLIC KEY"


def _key_data(data: Any) -> bytes:
    """``data`` as bytes (``TypeError`` otherwise); empty data is a ``ValueError`` that
    says so, rather than a DER or PEM parse error."""
    raw = as_bytes(data, "data")
    if not raw:
        raise ValueError("empty key data (an empty file?): no DER or PEM bytes to load")
    return raw


def _password(password: Any) -> bytes | None:
    if password is None:
        return None
    if isinstance(password, str):
        raise TypeError("password must be bytes (encode the str first), not str")
    return as_bytes(password, "password")


def _is_encrypted(data: bytes) -> bool:
    """EncryptedPrivateKeyInfo starts SEQUENCE { SEQUENCE ...; PrivateKeyInfo with INTEGER."""
    body = der.read_single(data, der.SEQUENCE, "SEQUENCE", "PKCS#8 private key")
    return der.DerReader(body, "PKCS#8 private key").peek_tag() == der.SEQUENCE


def _private_from_der(
    data: bytes, password: bytes | None, encrypted: bool, max_iterations: int
) -> PrivateKey:
    from pqkit.keys import private_key_class

    if encrypted:
        if password is None:
            raise TypeError("the private key is encrypted: a password is needed")
        plain = pbes2.decrypt(data, password, max_iterations=max_iterations)
        try:
            info = decode_private_key_info(plain)
        except ValueError:
            raise ValueError(
                "could not decrypt the private key: wrong password or corrupted data"
            ) from None
    else:
        if password is not None:
            raise TypeError("a password was given but the private key is not encrypted")
        info = decode_private_key_info(data)
    return private_key_class(info.algorithm.name)._from_info(info)


def load_der_private_key(
    data: bytes,
    password: bytes | None = None,
    *,
    max_iterations: int = pbes2.MAX_ITERATIONS,
) -> PrivateKey:
    """The ML-KEM, ML-DSA or SLH-DSA private key (pure or pre-hash OID) in DER PKCS#8
    (encrypted or not) ``data``.

    An encrypted key whose PBKDF2 iteration count exceeds ``max_iterations``
    (default 1 000 000, :data:`pqkit.serialization.pbes2.MAX_ITERATIONS`) is a
    ``ValueError`` before any key derivation: the count is the file writer's choice.
    """
    raw = _key_data(data)
    pw = _password(password)
    limit = pbes2.check_max_iterations(max_iterations)
    return _private_from_der(raw, pw, _is_encrypted(raw), limit)


def load_pem_private_key(
    data: bytes,
    password: bytes | None = None,
    *,
    max_iterations: int = pbes2.MAX_ITERATIONS,
) -> PrivateKey:
    """The private key in a PEM ``PRIVATE KEY`` or ``ENCRYPTED PRIVATE KEY`` block;
    ``max_iterations`` as for :func:`load_der_private_key`."""
    raw = _key_data(data)
    pw = _password(password)
    limit = pbes2.check_max_iterations(max_iterations)
    label, body = pem_decode(raw, (_PRIVATE_LABEL, _ENCRYPTED_LABEL))
    encrypted = _is_encrypted(body)
    if encrypted != (label == _ENCRYPTED_LABEL):
        raise ValueError(f"PEM label {label!r} does not match its contents")
    return _private_from_der(body, pw, encrypted, limit)


def load_der_public_key(data: bytes) -> PublicKey:
    """The ML-KEM, ML-DSA or SLH-DSA public key (pure or pre-hash OID) in DER
    SubjectPublicKeyInfo ``data``."""
    from pqkit.keys import public_key_class

    alg, key = decode_spki(_key_data(data))
    return public_key_class(alg.name).from_public_bytes(key)


def load_pem_public_key(data: bytes) -> PublicKey:
    """The public key in a PEM ``PUBLIC KEY`` block."""
    _, body = pem_decode(_key_data(data), (_PUBLIC_LABEL,))
    return load_der_public_key(body)
