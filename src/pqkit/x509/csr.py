"""Certification requests (PKCS#10, RFC 2986): :class:`CertificateSigningRequest`
and its loaders.

A request is signed by the key it asks a certificate for (RFC 2986 §3). A KEM key
cannot sign (RFC 9935 §6 leaves proof of possession for ML-KEM to other means): a
request for a KEM key follows RFC 9883 instead. It is signed by a signature key
the requester already holds a certificate for, and carries the
``statementOfPossession`` attribute (id-at-statementOfPossession, RFC 9883 §4)
naming that certificate (issuer and serial, and optionally the certificate itself).
:meth:`CertificateSigningRequest.verify_possession_statement` checks such a
request against the signer's certificate.
"""

from __future__ import annotations

from typing import Any

from pqkit.x509._asn1 import decode, encode, pyasn1_modules
from pqkit.x509._signed import Signed, SubjectKey
from pqkit.x509.extensions import Extensions
from pqkit.x509.name import Name

__all__ = [
    "EXTENSION_REQUEST",
    "STATEMENT_OF_POSSESSION",
    "CertificateSigningRequest",
    "load_der_x509_csr",
    "load_pem_x509_csr",
]

EXTENSION_REQUEST = "1.2.840.113549.1.9.14"
"""PKCS#9 extensionRequest (RFC 2985 §5.4.2): the extensions asked for."""

STATEMENT_OF_POSSESSION = "1.3.6.1.4.1.22112.2.1"
"""id-at-statementOfPossession (RFC 9883 §4)."""

MAX_ATTRIBUTES = 16
"""The most attributes read in one request."""


class CertificateSigningRequest(
    SubjectKey,
    Signed,
    label="CERTIFICATE REQUEST",
    what="certificate request",
    spec="rfc2986.CertificationRequest",
):
    """A parsed PKCS#10 request."""

    def __init__(self, der: bytes, value: Any) -> None:
        super().__init__(der, value)
        info = value["certificationRequestInfo"]
        if int(info["version"]) != 0:
            raise ValueError("certificate request: version must be 1 (0), RFC 2986 §4.1")
        self._subject = Name._from_asn1(info["subject"])
        self._spki = encode(info["subjectPKInfo"])
        self._spki_oid = str(info["subjectPKInfo"]["algorithm"]["algorithm"])
        attributes = info["attributes"]
        if len(attributes) > MAX_ATTRIBUTES:
            raise ValueError(f"certificate request: more than {MAX_ATTRIBUTES} attributes")
        self._attributes: dict[str, list[bytes]] = {}
        for attribute in attributes:
            oid = str(attribute["type"])
            if oid in self._attributes:
                raise ValueError(f"certificate request: attribute {oid} appears twice")
            self._attributes[oid] = [bytes(v) for v in attribute["values"]]
        self._extensions = Extensions([])
        if EXTENSION_REQUEST in self._attributes:
            values = self._attributes[EXTENSION_REQUEST]
            if len(values) != 1:
                raise ValueError("certificate request: extensionRequest with other than one value")
            spec = pyasn1_modules().rfc5280.Extensions()
            self._extensions = Extensions._from_asn1(
                decode(values[0], spec, "extensionRequest"), "certificate request"
            )

    @property
    def subject(self) -> Name:
        return self._subject

    @property
    def extensions(self) -> Extensions:
        return self._extensions

    @property
    def attributes(self) -> dict[str, list[bytes]]:
        """Attribute OID -> the DER of its values."""
        return {oid: list(values) for oid, values in self._attributes.items()}

    @property
    def tbs_certrequest_bytes(self) -> bytes:
        return self._tbs

    def _statement(self) -> Any:
        values = self._attributes.get(STATEMENT_OF_POSSESSION)
        if values is None:
            return None
        if len(values) != 1:
            raise ValueError("statementOfPossession with other than one value (RFC 9883 §4)")
        spec = pyasn1_modules().rfc9883.PrivateKeyPossessionStatement()
        return decode(values[0], spec, "statementOfPossession")

    @property
    def possession_statement(self) -> tuple[Name, int] | None:
        """(issuer, serial number) of the signer certificate named by an RFC 9883
        statementOfPossession, or None."""
        statement = self._statement()
        if statement is None:
            return None
        signer = statement["signer"]
        return Name._from_asn1(signer["issuer"]), int(signer["serialNumber"])

    @property
    def possession_certificate(self) -> Any:
        """The signer certificate carried in the statementOfPossession (its
        optional ``cert``), or None."""
        from pqkit.x509.certificate import Certificate

        statement = self._statement()
        if statement is None or not statement["cert"].isValue:
            return None
        return Certificate._load_der(encode(statement["cert"]))

    @property
    def is_signature_valid(self) -> bool:
        """Whether the request is signed by its own subject key (RFC 2986). False for
        a KEM key's request (see :meth:`verify_possession_statement`)."""
        from pqkit.errors import InvalidSignature

        try:
            self._check_signature(self.public_key())
        except (InvalidSignature, ValueError, TypeError):
            return False
        return True

    def verify_possession_statement(self, signer_certificate: Any) -> None:
        """Check an RFC 9883 request: its statementOfPossession names
        ``signer_certificate`` (issuer and serial), the request's subject is that
        certificate's subject (RFC 9883 §5), and the request's signature verifies
        with that certificate's key. ``ValueError`` / :class:`pqkit.InvalidSignature`
        otherwise."""
        from pqkit.x509.certificate import Certificate

        if not isinstance(signer_certificate, Certificate):
            raise TypeError("signer_certificate must be a pqkit.x509.Certificate")
        statement = self.possession_statement
        if statement is None:
            raise ValueError("the request has no statementOfPossession attribute (RFC 9883)")
        issuer, serial = statement
        if issuer != signer_certificate.issuer or serial != signer_certificate.serial_number:
            raise ValueError("the statementOfPossession names another certificate")
        if self._subject != signer_certificate.subject:
            raise ValueError(
                "the request's subject is not the signer certificate's subject (RFC 9883 §5)"
            )
        self._check_signature(signer_certificate.public_key())

    def __repr__(self) -> str:
        return f"<CertificateSigningRequest(subject={self._subject.rfc4514_string()})>"


def load_der_x509_csr(data: bytes) -> CertificateSigningRequest:
    """The PKCS#10 request in DER ``data`` (strict DER, bounded)."""
    return CertificateSigningRequest._load_der(data)


def load_pem_x509_csr(data: bytes) -> CertificateSigningRequest:
    """The request in the first ``CERTIFICATE REQUEST`` PEM block of ``data``."""
    return CertificateSigningRequest._load_pem(data)
