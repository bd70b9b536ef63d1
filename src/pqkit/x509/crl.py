"""Certificate revocation lists (RFC 5280 §5): :class:`CertificateRevocationList`
and its loaders."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any

from pqkit.x509._signed import Signed, to_time
from pqkit.x509.extensions import AuthorityKeyIdentifier, CRLNumber, Extensions
from pqkit.x509.name import Name

__all__ = [
    "MAX_REVOKED",
    "CertificateRevocationList",
    "RevokedCertificate",
    "load_der_x509_crl",
    "load_pem_x509_crl",
]

MAX_REVOKED = 10_000
"""The most entries read from one CRL."""


class RevokedCertificate:
    """One entry of a CRL: ``serial_number`` and ``revocation_date_utc``."""

    __slots__ = ("revocation_date_utc", "serial_number")

    def __init__(self, serial_number: int, revocation_date_utc: datetime.datetime) -> None:
        self.serial_number = serial_number
        self.revocation_date_utc = revocation_date_utc

    def __repr__(self) -> str:
        return f"<RevokedCertificate(serial={self.serial_number})>"


class CertificateRevocationList(
    Signed, label="X509 CRL", what="CRL", spec="rfc5280.CertificateList"
):
    """A parsed CRL."""

    def __init__(self, der: bytes, value: Any) -> None:
        super().__init__(der, value)
        tbs = value["tbsCertList"]
        from pqkit.x509._asn1 import encode

        if encode(tbs["signature"]) != self._sigalg:  # RFC 5280 §5.1.1.2
            raise ValueError("CRL: inner and outer signature algorithms differ (RFC 5280 §5.1.1.2)")
        self._issuer = Name._from_asn1(tbs["issuer"])
        self._this_update = to_time(tbs["thisUpdate"])
        next_update = tbs["nextUpdate"]
        self._next_update = to_time(next_update) if next_update.isValue else None
        revoked = tbs["revokedCertificates"]
        if revoked.isValue and len(revoked) > MAX_REVOKED:
            raise ValueError(f"CRL: {len(revoked)} entries (the limit is {MAX_REVOKED})")
        self._revoked = {}
        for entry in revoked if revoked.isValue else ():
            serial = int(entry["userCertificate"])
            self._revoked[serial] = RevokedCertificate(serial, to_time(entry["revocationDate"]))
        extensions = tbs["crlExtensions"]
        self._extensions = (
            Extensions._from_asn1(extensions, "CRL") if extensions.isValue else Extensions([])
        )

    @property
    def issuer(self) -> Name:
        return self._issuer

    @property
    def last_update_utc(self) -> datetime.datetime:
        return self._this_update

    @property
    def next_update_utc(self) -> datetime.datetime | None:
        return self._next_update

    @property
    def extensions(self) -> Extensions:
        return self._extensions

    @property
    def tbs_certlist_bytes(self) -> bytes:
        return self._tbs

    @property
    def crl_number(self) -> int | None:
        value = self._extensions.find(CRLNumber)
        return None if value is None else int(value.crl_number)

    @property
    def authority_key_identifier(self) -> bytes | None:
        aki = self._extensions.find(AuthorityKeyIdentifier)
        return None if aki is None else aki.key_identifier

    def get_revoked_certificate_by_serial_number(self, serial: int) -> RevokedCertificate | None:
        return self._revoked.get(serial)

    def __iter__(self) -> Iterator[RevokedCertificate]:
        return iter(self._revoked.values())

    def __len__(self) -> int:
        return len(self._revoked)

    def is_signature_valid(self, public_key: Any) -> bool:
        """Whether the CRL's signature verifies with ``public_key`` (its issuer's)."""
        from pqkit.errors import InvalidSignature

        try:
            self._check_signature(public_key)
        except (InvalidSignature, ValueError, TypeError):
            return False
        return True

    def verify_directly_issued_by(self, issuer: Any) -> None:
        """``issuer`` (a Certificate) issued this CRL: names match (``ValueError``)
        and the signature verifies (:class:`pqkit.InvalidSignature`)."""
        if self._issuer != issuer.subject:
            raise ValueError(
                f"CRL issuer {self._issuer.rfc4514_string()!r} is not the subject of the "
                f"issuer certificate ({issuer.subject.rfc4514_string()!r})"
            )
        self._check_signature(issuer.public_key())

    def __repr__(self) -> str:
        return f"<CertificateRevocationList(issuer={self._issuer.rfc4514_string()})>"


def load_der_x509_crl(data: bytes) -> CertificateRevocationList:
    """The CRL in DER ``data`` (strict DER, bounded)."""
    return CertificateRevocationList._load_der(data)


def load_pem_x509_crl(data: bytes) -> CertificateRevocationList:
    """The CRL in the first ``X509 CRL`` PEM block of ``data``."""
    return CertificateRevocationList._load_pem(data)
