"""X.509 certificates (RFC 5280 §4): :class:`Certificate` and its loaders, in
pyca/cryptography's shape. Any signature algorithm loads; the subject public key
is a pqkit key for every OID :mod:`pqkit.keys` knows (ML-KEM, ML-DSA, SLH-DSA,
the pre-hash OIDs, the composites, FrodoKEM) and a pyca key otherwise."""

from __future__ import annotations

import datetime
from typing import Any

from pqkit.x509._asn1 import encode
from pqkit.x509._signed import Signed, SubjectKey, to_time
from pqkit.x509.extensions import (
    AuthorityKeyIdentifier,
    BasicConstraints,
    Extensions,
    KeyUsage,
    SubjectKeyIdentifier,
)
from pqkit.x509.name import Name

__all__ = [
    "Certificate",
    "load_der_x509_certificate",
    "load_pem_x509_certificate",
    "load_pem_x509_certificates",
]


class Certificate(
    SubjectKey, Signed, label="CERTIFICATE", what="certificate", spec="rfc5280.Certificate"
):
    """A parsed certificate. Equal certificates are equal byte strings."""

    def __init__(self, der: bytes, value: Any) -> None:
        super().__init__(der, value)
        tbs = value["tbsCertificate"]
        self._version = int(tbs["version"])
        if self._version not in (0, 1, 2):
            raise ValueError(f"certificate: unknown version {self._version + 1}")
        if encode(tbs["signature"]) != self._sigalg:  # RFC 5280 §4.1.1.2
            raise ValueError(
                "certificate: the signature algorithm inside the signed part differs "
                "from the outer one (RFC 5280 §4.1.1.2)"
            )
        serial = int(tbs["serialNumber"])
        if serial.bit_length() > 20 * 8:  # RFC 5280 §4.1.2.2: at most 20 octets
            raise ValueError("certificate: serial number longer than 20 octets")
        self._serial = serial
        self._issuer = Name._from_asn1(tbs["issuer"])
        self._subject = Name._from_asn1(tbs["subject"])
        self._not_before = to_time(tbs["validity"]["notBefore"])
        self._not_after = to_time(tbs["validity"]["notAfter"])
        self._spki = encode(tbs["subjectPublicKeyInfo"])
        self._spki_oid = str(tbs["subjectPublicKeyInfo"]["algorithm"]["algorithm"])
        extensions = tbs["extensions"]
        if extensions.isValue and self._version != 2:
            raise ValueError("certificate: extensions in a certificate that is not v3")
        self._extensions = (
            Extensions._from_asn1(extensions, f"certificate {self._subject.rfc4514_string()!r}")
            if extensions.isValue
            else Extensions([])
        )

    @property
    def version(self) -> int:
        """1, 2 or 3."""
        return self._version + 1

    @property
    def serial_number(self) -> int:
        return self._serial

    @property
    def issuer(self) -> Name:
        return self._issuer

    @property
    def subject(self) -> Name:
        return self._subject

    @property
    def not_valid_before_utc(self) -> datetime.datetime:
        return self._not_before

    @property
    def not_valid_after_utc(self) -> datetime.datetime:
        return self._not_after

    @property
    def tbs_certificate_bytes(self) -> bytes:
        """The DER TBSCertificate as it stands in the input (what the signature covers)."""
        return self._tbs

    @property
    def extensions(self) -> Extensions:
        return self._extensions

    @property
    def subject_key_identifier(self) -> bytes | None:
        ski = self._extensions.find(SubjectKeyIdentifier)
        return None if ski is None else ski.digest

    @property
    def authority_key_identifier(self) -> bytes | None:
        aki = self._extensions.find(AuthorityKeyIdentifier)
        return None if aki is None else aki.key_identifier

    @property
    def basic_constraints(self) -> BasicConstraints | None:
        return self._extensions.find(BasicConstraints)  # type: ignore[no-any-return]

    @property
    def key_usage(self) -> KeyUsage | None:
        return self._extensions.find(KeyUsage)  # type: ignore[no-any-return]

    def fingerprint(self, algorithm: str = "sha256") -> bytes:
        import hashlib

        return hashlib.new(algorithm, self._der).digest()

    def verify_directly_issued_by(self, issuer: Certificate) -> None:
        """Check that ``issuer`` issued this certificate: this certificate's issuer
        name is ``issuer``'s subject (``ValueError`` otherwise) and its signature
        verifies with ``issuer``'s public key (:class:`pqkit.InvalidSignature`
        otherwise), as pyca's method of that name."""
        if not isinstance(issuer, Certificate):
            raise TypeError(f"issuer must be a Certificate, not {type(issuer).__name__}")
        if self._issuer != issuer.subject:
            raise ValueError(
                f"issuer name {self._issuer.rfc4514_string()!r} is not the subject of the "
                f"issuer certificate ({issuer.subject.rfc4514_string()!r})"
            )
        self._check_signature(issuer.public_key())

    def __repr__(self) -> str:
        return f"<Certificate(subject={self._subject.rfc4514_string()}, serial={self._serial})>"


def load_der_x509_certificate(data: bytes) -> Certificate:
    """The certificate in DER ``data`` (strict DER, at most 1 MiB); ``ValueError``
    naming the defect otherwise."""
    return Certificate._load_der(data)


def load_pem_x509_certificate(data: bytes) -> Certificate:
    """The certificate in the first ``CERTIFICATE`` PEM block of ``data``."""
    return Certificate._load_pem(data)


def load_pem_x509_certificates(data: bytes) -> list[Certificate]:
    """Every certificate of the ``CERTIFICATE`` PEM blocks of ``data`` (at most 64)."""
    return Certificate._load_pems(data)
