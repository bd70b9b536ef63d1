"""Builders for certificates, requests and CRLs in pyca/cryptography's shape: each
method returns a new builder, ``sign(private_key)`` makes the structure (through
pyasn1-alt-modules' RFC 5280 / RFC 2986 types) and returns it parsed.

``sign`` takes any pqkit signature key (ML-DSA, HashML-DSA, SLH-DSA, HashSLH-DSA,
composite ML-DSA) or a pyca ECDSA / RSA / Ed25519 / Ed448 key, and an optional
hash for the classical ones (:mod:`pqkit.x509.algorithms`). Subject keys may be
any pqkit public key, KEM keys included (RFC 9935: such a certificate's keyUsage
is keyEncipherment alone, which :class:`CertificateBuilder` checks).
"""

from __future__ import annotations

import datetime
import os
from typing import Any

from pqkit.x509 import algorithms
from pqkit.x509._asn1 import decode, encode, pyasn1_modules
from pqkit.x509._keys import spki_der
from pqkit.x509._signed import from_time
from pqkit.x509.certificate import Certificate
from pqkit.x509.crl import CertificateRevocationList
from pqkit.x509.csr import EXTENSION_REQUEST, STATEMENT_OF_POSSESSION, CertificateSigningRequest
from pqkit.x509.extensions import (
    MAX_EXTENSIONS,
    Extensions,
    KeyUsage,
    extension_of,
)
from pqkit.x509.name import Name

__all__ = [
    "CertificateBuilder",
    "CertificateRevocationListBuilder",
    "CertificateSigningRequestBuilder",
    "RevokedCertificateBuilder",
    "random_serial_number",
]


def random_serial_number() -> int:
    """A positive serial number of 159 random bits (RFC 5280 §4.1.2.2: at most 20
    octets; CA/B Forum: at least 64 bits of randomness), from ``os.urandom``."""
    return int.from_bytes(os.urandom(20), "big") >> 1 or 1


class _Builder:
    __slots__ = ("_fields",)

    def __init__(self, **fields: Any) -> None:
        self._fields: dict[str, Any] = {"extensions": (), **fields}

    def _with(self, name: str, value: Any, *, once: bool = True) -> Any:
        if once and self._fields.get(name) is not None:
            raise ValueError(f"the {name.replace('_', ' ')} may only be set once")
        return type(self)(**{**self._fields, name: value})

    def add_extension(self, extval: Any, critical: bool) -> Any:
        """Add an extension (:class:`~pqkit.x509.BasicConstraints`, ...); each type once."""
        extension = extension_of(extval, critical)
        if any(e.oid == extension.oid for e in self._fields["extensions"]):
            raise ValueError(f"extension {extension.oid} was already added")
        if len(self._fields["extensions"]) >= MAX_EXTENSIONS:
            raise ValueError(f"more than {MAX_EXTENSIONS} extensions")
        return self._with("extensions", (*self._fields["extensions"], extension), once=False)

    def _need(self, *names: str) -> None:
        missing = [n.replace("_", " ") for n in names if self._fields.get(n) is None]
        if missing:
            raise ValueError(f"{type(self).__name__}.sign needs: {', '.join(missing)}")


def _name(value: Any, what: str) -> Name:
    if not isinstance(value, Name):
        raise TypeError(f"{what} must be a pqkit.x509.Name, not {type(value).__name__}")
    return value


def _asn1_name(name: Name) -> Any:
    return decode(name.public_bytes(), pyasn1_modules().rfc5280.Name(), "name")


def _algorithm_identifier(der: bytes) -> Any:
    return decode(der, pyasn1_modules().rfc5280.AlgorithmIdentifier(), "AlgorithmIdentifier")


def _bits(signature: bytes) -> Any:
    from pyasn1.type import univ

    return univ.BitString.fromOctetString(signature)


def _signed(
    outer: Any, field: str, tbs: Any, private_key: Any, algorithm: Any, rsa_padding: str
) -> bytes:
    """The DER of ``outer`` (Certificate, CertificateList): ``tbs`` in ``field``, then
    its signature by ``private_key`` (RFC 5280 §4.1, §5.1)."""
    identifier, signature = algorithms.sign(
        private_key, encode(tbs, field), hash_algorithm=algorithm, rsa_padding=rsa_padding
    )
    outer[field] = tbs
    outer["signatureAlgorithm"] = _algorithm_identifier(identifier)
    outer["signature"] = _bits(signature)
    return encode(outer, field)


def _time(value: Any, what: str) -> datetime.datetime:
    if not isinstance(value, datetime.datetime):
        raise TypeError(f"{what} must be a datetime, not {type(value).__name__}")
    return value


def _serial(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError("serial_number must be an int")
    if value <= 0 or value.bit_length() > 159:
        raise ValueError("serial_number must be positive and at most 159 bits (RFC 5280 §4.1.2.2)")
    return value


def _is_kem(public_key: Any) -> bool:
    from pqkit.keys import PublicKey

    return isinstance(public_key, PublicKey) and public_key.algorithm.is_kem


class CertificateBuilder(_Builder):
    """A certificate (RFC 5280 §4.1), version 3."""

    __slots__ = ()

    def subject_name(self, name: Name) -> CertificateBuilder:
        return self._with("subject_name", _name(name, "subject_name"))  # type: ignore[no-any-return]

    def issuer_name(self, name: Name) -> CertificateBuilder:
        return self._with("issuer_name", _name(name, "issuer_name"))  # type: ignore[no-any-return]

    def public_key(self, key: Any) -> CertificateBuilder:
        """The subject's public key: any pqkit public key, or a pyca one."""
        spki_der(key)  # TypeError for what is not a key
        return self._with("public_key", key)  # type: ignore[no-any-return]

    def serial_number(self, number: int) -> CertificateBuilder:
        return self._with("serial_number", _serial(number))  # type: ignore[no-any-return]

    def not_valid_before(self, time: datetime.datetime) -> CertificateBuilder:
        return self._with("not_valid_before", _time(time, "not_valid_before"))  # type: ignore[no-any-return]

    def not_valid_after(self, time: datetime.datetime) -> CertificateBuilder:
        return self._with("not_valid_after", _time(time, "not_valid_after"))  # type: ignore[no-any-return]

    def sign(
        self, private_key: Any, algorithm: Any = None, *, rsa_padding: str = "pkcs1v15"
    ) -> Certificate:
        """The certificate, signed by ``private_key`` (the issuer's)."""
        f = self._fields
        self._need(
            "subject_name",
            "issuer_name",
            "public_key",
            "serial_number",
            "not_valid_before",
            "not_valid_after",
        )
        if f["not_valid_after"] < f["not_valid_before"]:
            raise ValueError("not_valid_after is before not_valid_before")
        extensions = Extensions(f["extensions"])
        if _is_kem(f["public_key"]):
            usage = extensions.find(KeyUsage)
            if usage is not None and usage.names() != ["key_encipherment"]:
                raise ValueError(
                    "a KEM key's certificate may only have keyUsage keyEncipherment (RFC 9935 §5)"
                )
        rfc5280 = pyasn1_modules().rfc5280
        sigalg = algorithms.signature_algorithm_identifier(
            private_key, hash_algorithm=algorithm, rsa_padding=rsa_padding
        )
        tbs = rfc5280.TBSCertificate()
        tbs["version"] = "v3"
        tbs["serialNumber"] = f["serial_number"]
        tbs["signature"] = _algorithm_identifier(sigalg)
        tbs["issuer"] = _asn1_name(f["issuer_name"])
        tbs["validity"]["notBefore"] = from_time(f["not_valid_before"], "not_valid_before")
        tbs["validity"]["notAfter"] = from_time(f["not_valid_after"], "not_valid_after")
        tbs["subject"] = _asn1_name(f["subject_name"])
        tbs["subjectPublicKeyInfo"] = decode(
            spki_der(f["public_key"]), rfc5280.SubjectPublicKeyInfo(), "SubjectPublicKeyInfo"
        )
        if len(extensions):
            extensions._to_asn1(tbs["extensions"])
        signed = _signed(
            rfc5280.Certificate(), "tbsCertificate", tbs, private_key, algorithm, rsa_padding
        )
        return Certificate._load_der(signed)


class CertificateSigningRequestBuilder(_Builder):
    """A PKCS#10 request (RFC 2986). ``sign(key)`` signs with the subject key; for
    a KEM subject key, set it with :meth:`public_key` and name the signer's
    certificate with :meth:`possession_statement` (RFC 9883), then sign with that
    certificate's key."""

    __slots__ = ()

    def subject_name(self, name: Name) -> CertificateSigningRequestBuilder:
        return self._with("subject_name", _name(name, "subject_name"))  # type: ignore[no-any-return]

    def public_key(self, key: Any) -> CertificateSigningRequestBuilder:
        """The key the request is for, when it is not the signing key (a KEM key)."""
        spki_der(key)
        return self._with("public_key", key)  # type: ignore[no-any-return]

    def possession_statement(
        self, signer_certificate: Certificate, *, include_certificate: bool = True
    ) -> CertificateSigningRequestBuilder:
        """Add RFC 9883's statementOfPossession naming ``signer_certificate``."""
        if not isinstance(signer_certificate, Certificate):
            raise TypeError("signer_certificate must be a pqkit.x509.Certificate")
        return self._with(  # type: ignore[no-any-return]
            "possession", (signer_certificate, bool(include_certificate))
        )

    def sign(
        self, private_key: Any, algorithm: Any = None, *, rsa_padding: str = "pkcs1v15"
    ) -> CertificateSigningRequest:
        f = self._fields
        self._need("subject_name")
        subject_key = f.get("public_key")
        if subject_key is None:
            subject_key = private_key
        signer_spki = spki_der(private_key)
        if spki_der(subject_key) != signer_spki and f.get("possession") is None:
            raise ValueError(
                "the request is for another key than the signing key: add a "
                "possession_statement naming the signer's certificate (RFC 9883)"
            )
        if _is_kem(subject_key) and f.get("possession") is None:
            raise ValueError(
                "a KEM key cannot sign its request: use possession_statement (RFC 9883)"
            )
        rfc2986 = pyasn1_modules().rfc2986
        rfc5280 = pyasn1_modules().rfc5280
        from pyasn1.type import univ

        info = rfc2986.CertificationRequestInfo()
        info["version"] = 0
        info["subject"] = decode(f["subject_name"].public_bytes(), rfc2986.Name(), "name")
        info["subjectPKInfo"] = decode(
            spki_der(subject_key), rfc2986.SubjectPublicKeyInfo(), "SubjectPublicKeyInfo"
        )
        attributes = info["attributes"]
        if f["extensions"]:
            requested = Extensions(f["extensions"])._to_asn1(rfc5280.Extensions())
            attributes.append(_attribute(EXTENSION_REQUEST, encode(requested)))
        if f.get("possession") is not None:
            signer, include = f["possession"]
            if spki_der(signer.public_key()) != signer_spki:
                raise ValueError(
                    "the signing key is not the key of the possession statement's certificate"
                )
            rfc9883 = pyasn1_modules().rfc9883
            statement = rfc9883.PrivateKeyPossessionStatement()
            statement["signer"]["issuer"] = decode(
                signer.issuer.public_bytes(), rfc5280.Name(), "name"
            )
            statement["signer"]["serialNumber"] = univ.Integer(signer.serial_number)
            if include:
                statement["cert"] = decode(
                    signer.public_bytes(_der()), rfc5280.Certificate(), "certificate"
                )
            attributes.append(_attribute(STATEMENT_OF_POSSESSION, encode(statement)))
        info_der = encode(info, "CertificationRequestInfo")
        identifier, signature = algorithms.sign(
            private_key, info_der, hash_algorithm=algorithm, rsa_padding=rsa_padding
        )
        request = rfc2986.CertificationRequest()
        request["certificationRequestInfo"] = info
        request["signatureAlgorithm"] = decode(
            identifier, rfc2986.AlgorithmIdentifier(), "AlgorithmIdentifier"
        )
        request["signature"] = _bits(signature)
        return CertificateSigningRequest._load_der(encode(request, "certificate request"))


def _der() -> Any:
    from pqkit.serialization import Encoding

    return Encoding.DER


def _attribute(oid: str, value_der: bytes) -> Any:
    from pyasn1.type import univ

    rfc2986 = pyasn1_modules().rfc2986
    attribute = rfc2986.Attribute()
    attribute["type"] = univ.ObjectIdentifier(oid)
    attribute["values"].append(value_der)
    return attribute


class RevokedCertificateBuilder(_Builder):
    """One CRL entry: serial number and revocation date."""

    __slots__ = ()

    def serial_number(self, number: int) -> RevokedCertificateBuilder:
        return self._with("serial_number", _serial(number))  # type: ignore[no-any-return]

    def revocation_date(self, time: datetime.datetime) -> RevokedCertificateBuilder:
        return self._with("revocation_date", _time(time, "revocation_date"))  # type: ignore[no-any-return]

    def build(self) -> tuple[int, datetime.datetime]:
        self._need("serial_number", "revocation_date")
        return self._fields["serial_number"], self._fields["revocation_date"]


class CertificateRevocationListBuilder(_Builder):
    """A CRL (RFC 5280 §5.1), version 2."""

    __slots__ = ()

    def issuer_name(self, name: Name) -> CertificateRevocationListBuilder:
        return self._with("issuer_name", _name(name, "issuer_name"))  # type: ignore[no-any-return]

    def last_update(self, time: datetime.datetime) -> CertificateRevocationListBuilder:
        return self._with("last_update", _time(time, "last_update"))  # type: ignore[no-any-return]

    def next_update(self, time: datetime.datetime) -> CertificateRevocationListBuilder:
        return self._with("next_update", _time(time, "next_update"))  # type: ignore[no-any-return]

    def add_revoked_certificate(self, revoked: Any) -> CertificateRevocationListBuilder:
        """Add an entry: the result of ``RevokedCertificateBuilder().build()``."""
        if not (isinstance(revoked, tuple) and len(revoked) == 2):
            raise TypeError("revoked must be RevokedCertificateBuilder().....build()")
        entries = (*(self._fields.get("revoked") or ()), revoked)
        return self._with("revoked", entries, once=False)  # type: ignore[no-any-return]

    def sign(
        self, private_key: Any, algorithm: Any = None, *, rsa_padding: str = "pkcs1v15"
    ) -> CertificateRevocationList:
        f = self._fields
        self._need("issuer_name", "last_update", "next_update")
        rfc5280 = pyasn1_modules().rfc5280
        sigalg = algorithms.signature_algorithm_identifier(
            private_key, hash_algorithm=algorithm, rsa_padding=rsa_padding
        )
        tbs = rfc5280.TBSCertList()
        tbs["version"] = "v2"
        tbs["signature"] = _algorithm_identifier(sigalg)
        tbs["issuer"] = _asn1_name(f["issuer_name"])
        tbs["thisUpdate"] = from_time(f["last_update"], "last_update")
        tbs["nextUpdate"] = from_time(f["next_update"], "next_update")
        for serial, date in f.get("revoked") or ():
            entry = tbs["revokedCertificates"].componentType.clone()
            entry["userCertificate"] = serial
            entry["revocationDate"] = from_time(date, "revocation_date")
            tbs["revokedCertificates"].append(entry)
        if f["extensions"]:
            Extensions(f["extensions"])._to_asn1(tbs["crlExtensions"])
        signed = _signed(
            rfc5280.CertificateList(), "tbsCertList", tbs, private_key, algorithm, rsa_padding
        )
        return CertificateRevocationList._load_der(signed)
