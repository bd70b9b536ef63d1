"""SubjectPublicKeyInfo <-> key objects for :mod:`pqkit.x509`: pqkit keys through
:mod:`pqkit.keys` (every OID it knows), the others through pyca/cryptography."""

from __future__ import annotations

from typing import Any

from pqkit.keys import PrivateKey, PublicKey, load_der_public_key
from pqkit.x509._asn1 import decode, pyasn1_modules

__all__ = ["public_key_from_spki", "spki_algorithm_oid", "spki_der", "spki_public_bits"]


def _spki(data: bytes) -> Any:
    return decode(data, pyasn1_modules().rfc5280.SubjectPublicKeyInfo(), "SubjectPublicKeyInfo")


def spki_algorithm_oid(data: bytes) -> str:
    return str(_spki(data)["algorithm"]["algorithm"])


def spki_public_bits(data: bytes) -> bytes:
    """The subjectPublicKey BIT STRING's octets (RFC 5280 §4.1.2.7)."""
    return bytes(_spki(data)["subjectPublicKey"].asOctets())


def public_key_from_spki(data: bytes) -> Any:
    """The key object of a DER SubjectPublicKeyInfo: a pqkit public key for an OID
    pqkit knows, a pyca key otherwise (the ``openssl`` extra)."""
    from pqkit.serialization.algorithms import by_oid

    oid = spki_algorithm_oid(data)
    if by_oid(oid) is not None:
        return load_der_public_key(data)
    from pqkit._extras import require

    require("openssl", f"public keys of algorithm {oid} (not a pqkit algorithm)")
    from cryptography.exceptions import UnsupportedAlgorithm
    from cryptography.hazmat.primitives.serialization import load_der_public_key as pyca_load

    try:
        return pyca_load(data)
    except (ValueError, UnsupportedAlgorithm) as exc:
        raise ValueError(f"public key of algorithm {oid}: {exc}") from None


def spki_der(public_key: Any) -> bytes:
    """The DER SubjectPublicKeyInfo of a pqkit or pyca public key (a private key's
    public half is taken)."""
    from pqkit.serialization import Encoding, PublicFormat

    if isinstance(public_key, PrivateKey):
        public_key = public_key.public_key()
    if isinstance(public_key, PublicKey):
        return public_key.public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
    if hasattr(public_key, "public_bytes") and type(public_key).__module__.startswith(
        "cryptography"
    ):
        if hasattr(public_key, "public_key") and not hasattr(public_key, "verify"):
            public_key = public_key.public_key()
        from cryptography.hazmat.primitives import serialization as s

        try:
            der: bytes = public_key.public_bytes(
                s.Encoding.DER, s.PublicFormat.SubjectPublicKeyInfo
            )
        except TypeError:
            der = public_key.public_key().public_bytes(
                s.Encoding.DER, s.PublicFormat.SubjectPublicKeyInfo
            )
        return der
    raise TypeError(
        f"public_key must be a pqkit or pyca/cryptography key, not {type(public_key).__name__}"
    )
