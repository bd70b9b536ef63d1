"""Certification path validation in the spirit of RFC 5280 §6, with the shape of
pyca/cryptography's ``x509.verification`` (its ``PolicyBuilder`` is the model)::

    verifier = PolicyBuilder().store(Store(roots)).time(now).crls(crls).build()
    chain = verifier.verify(leaf, intermediates)   # leaf first, trust anchor last

What is checked, for every certificate of the path (RFC 5280 §6.1.3, §6.1.4):

- the signature, with the key of the next certificate (the trust anchor is trusted
  as it is: its own signature is not checked, as RFC 5280 §6.1.1 (d) lets it be);
- validity at the policy's time (default: now), the trust anchor's included;
- name chaining: the issuer name is the next certificate's subject, and where both
  are present the authorityKeyIdentifier is the next one's subjectKeyIdentifier;
- every CA certificate: basicConstraints cA (§6.1.4 (k)), keyUsage keyCertSign
  when keyUsage is present (§6.1.4 (n)), pathLenConstraint (§6.1.4 (m));
- the leaf: the policy's extended key usage, when one is asked for and the leaf
  has the extension (anyExtendedKeyUsage satisfies it);
- no unknown critical extension (§6.1.4 (o));
- revocation, when CRLs are given: a CRL whose issuer is the certificate's issuer,
  signed by the issuer's key (keyUsage cRLSign when keyUsage is present), current
  at the policy's time; a certificate listed there is refused. A certificate
  whose issuer has no CRL among those given is not refused for that
  (``require_crls()`` makes it so).

Each failure is a :class:`VerificationError` naming the certificate (its subject)
and the check. The work is bounded: :data:`MAX_CHAIN_DEPTH` certificates in a
path, :data:`MAX_INTERMEDIATES` untrusted certificates, :data:`MAX_CANDIDATES`
issuer candidates tried in all (each is a signature check).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from typing import Any

from pqkit.errors import InvalidSignature
from pqkit.x509.certificate import Certificate
from pqkit.x509.crl import CertificateRevocationList
from pqkit.x509.extensions import (
    AuthorityKeyIdentifier,
    BasicConstraints,
    ExtendedKeyUsage,
    ExtendedKeyUsageOID,
    KeyUsage,
    SubjectAlternativeName,
    SubjectKeyIdentifier,
)

__all__ = [
    "DEFAULT_CHAIN_DEPTH",
    "MAX_CANDIDATES",
    "MAX_CHAIN_DEPTH",
    "MAX_INTERMEDIATES",
    "PolicyBuilder",
    "Store",
    "VerificationError",
    "Verifier",
]

MAX_CHAIN_DEPTH = 16
"""The longest path accepted (leaf and trust anchor included); ``max_chain_depth``
may lower it."""

DEFAULT_CHAIN_DEPTH = 8

MAX_INTERMEDIATES = 64
"""The most untrusted certificates given to one ``verify``."""

MAX_CANDIDATES = 64
"""The most issuer candidates (signature checks) one ``verify`` tries."""

MAX_CRLS = 64

_HANDLED = {
    cls.oid
    for cls in (
        AuthorityKeyIdentifier,
        BasicConstraints,
        ExtendedKeyUsage,
        KeyUsage,
        SubjectAlternativeName,
        SubjectKeyIdentifier,
    )
}


class VerificationError(ValueError):
    """A path that does not validate; the message names the certificate and the
    check. ``certificate`` is the certificate at fault (None when no path was
    found at all)."""

    def __init__(self, message: str, certificate: Certificate | None = None) -> None:
        super().__init__(message)
        self.certificate = certificate


def _who(certificate: Certificate) -> str:
    return f"certificate {certificate.subject.rfc4514_string()!r}"


def _at(moment: datetime.datetime) -> str:
    return f"{moment:%Y-%m-%d %H:%M:%S} UTC"


class Store:
    """The trust anchors."""

    def __init__(self, certs: Iterable[Certificate]) -> None:
        self._certs = tuple(certs)
        if not self._certs:
            raise ValueError("a Store needs at least one trust anchor")
        for cert in self._certs:
            if not isinstance(cert, Certificate):
                raise TypeError(f"a Store holds Certificate objects, not {type(cert).__name__}")

    @property
    def certificates(self) -> tuple[Certificate, ...]:
        return self._certs


class PolicyBuilder:
    """The policy of a :class:`Verifier`; each method returns a new builder."""

    def __init__(self, **fields: Any) -> None:
        self._fields: dict[str, Any] = fields

    def _with(self, name: str, value: Any) -> PolicyBuilder:
        if name in self._fields:
            raise ValueError(f"{name} may only be set once")
        return PolicyBuilder(**{**self._fields, name: value})

    def store(self, store: Store) -> PolicyBuilder:
        if not isinstance(store, Store):
            raise TypeError("store must be a pqkit.x509.verification.Store")
        return self._with("store", store)

    def time(self, time: datetime.datetime) -> PolicyBuilder:
        if not isinstance(time, datetime.datetime):
            raise TypeError("time must be a datetime")
        if time.tzinfo is None:
            time = time.replace(tzinfo=datetime.timezone.utc)
        return self._with("time", time)

    def max_chain_depth(self, depth: int) -> PolicyBuilder:
        """The most certificates in a path beyond the leaf (pyca's meaning), at
        most ``MAX_CHAIN_DEPTH - 1``."""
        if not isinstance(depth, int) or isinstance(depth, bool):
            raise TypeError("max_chain_depth must be an int")
        if not 0 <= depth < MAX_CHAIN_DEPTH:
            raise ValueError(f"max_chain_depth must be 0 to {MAX_CHAIN_DEPTH - 1}")
        return self._with("max_chain_depth", depth)

    def crls(self, crls: Iterable[CertificateRevocationList]) -> PolicyBuilder:
        items = tuple(crls)
        if len(items) > MAX_CRLS:
            raise ValueError(f"more than {MAX_CRLS} CRLs")
        for crl in items:
            if not isinstance(crl, CertificateRevocationList):
                raise TypeError("crls must be CertificateRevocationList objects")
        return self._with("crls", items)

    def require_crls(self) -> PolicyBuilder:
        """Refuse a certificate whose issuer has no CRL among those given."""
        return self._with("require_crls", True)

    def extended_key_usage(self, oid: str) -> PolicyBuilder:
        """The key purpose the leaf must allow (when it has extendedKeyUsage)."""
        if not isinstance(oid, str):
            raise TypeError("extended_key_usage must be a dotted OID str")
        return self._with("eku", oid)

    def build(self) -> Verifier:
        if "store" not in self._fields:
            raise ValueError("PolicyBuilder needs a store")
        return Verifier(
            self._fields["store"],
            self._fields.get("time") or datetime.datetime.now(datetime.timezone.utc),
            self._fields.get("max_chain_depth", DEFAULT_CHAIN_DEPTH),
            self._fields.get("crls", ()),
            bool(self._fields.get("require_crls")),
            self._fields.get("eku"),
        )

    build_client_verifier = build


class Verifier:
    """Validates paths under one policy (made by :class:`PolicyBuilder`)."""

    def __init__(
        self,
        store: Store,
        time: datetime.datetime,
        max_chain_depth: int,
        crls: Sequence[CertificateRevocationList],
        require_crls: bool,
        eku: str | None,
    ) -> None:
        self.store = store
        self.validation_time = time
        self.max_chain_depth = max_chain_depth
        self._crls = tuple(crls)
        self._require_crls = require_crls
        self._eku = eku

    def verify(
        self, leaf: Certificate, intermediates: Iterable[Certificate] = ()
    ) -> list[Certificate]:
        """The validated path, leaf first and trust anchor last;
        :class:`VerificationError` naming the certificate and the check otherwise."""
        if not isinstance(leaf, Certificate):
            raise TypeError(f"leaf must be a Certificate, not {type(leaf).__name__}")
        untrusted = tuple(intermediates)
        if len(untrusted) > MAX_INTERMEDIATES:
            raise VerificationError(
                f"{len(untrusted)} intermediate certificates (the limit is {MAX_INTERMEDIATES})"
            )
        for cert in untrusted:
            if not isinstance(cert, Certificate):
                raise TypeError("intermediates must be Certificate objects")
        self._budget = MAX_CANDIDATES
        self._check_own(leaf, 0)
        anchors = self.store.certificates
        if leaf in anchors:
            return [leaf]
        errors: list[VerificationError] = []
        path = self._build([leaf], untrusted, anchors, errors)
        if path is not None:
            return path
        if errors:
            raise errors[0]
        raise VerificationError(
            f"{_who(leaf)}: no issuer found (issuer {leaf.issuer.rfc4514_string()!r} is "
            "neither a trust anchor nor among the intermediates)",
            leaf,
        )

    # --- path building ---------------------------------------------------------------

    def _candidates(self, cert: Certificate, pool: Iterable[Certificate]) -> list[Certificate]:
        out = []
        for issuer in pool:
            if issuer.subject != cert.issuer:
                continue
            aki, ski = cert.authority_key_identifier, issuer.subject_key_identifier
            if aki is not None and ski is not None and aki != ski:
                continue
            out.append(issuer)
        return out

    def _build(
        self,
        path: list[Certificate],
        untrusted: tuple[Certificate, ...],
        anchors: tuple[Certificate, ...],
        errors: list[VerificationError],
    ) -> list[Certificate] | None:
        cert = path[-1]
        for anchor in self._candidates(cert, anchors):
            try:
                self._link(cert, anchor, path)
            except VerificationError as exc:
                errors.append(exc)
                continue
            return [*path, anchor]
        if len(path) > self.max_chain_depth:  # the next would exceed the depth
            if self._candidates(cert, untrusted):
                errors.append(
                    VerificationError(
                        f"{_who(cert)}: the path is longer than max_chain_depth "
                        f"({self.max_chain_depth} certificates above the leaf)",
                        cert,
                    )
                )
            return None
        for issuer in self._candidates(cert, untrusted):
            if issuer in path:
                continue  # a loop
            try:
                self._link(cert, issuer, path)
            except VerificationError as exc:
                errors.append(exc)
                continue
            found = self._build([*path, issuer], untrusted, anchors, errors)
            if found is not None:
                return found
        return None

    # --- the checks ------------------------------------------------------------------

    def _link(self, cert: Certificate, issuer: Certificate, path: list[Certificate]) -> None:
        """``issuer`` may issue ``cert`` at position len(path) - 1 of the path."""
        if self._budget <= 0:
            raise VerificationError(
                f"{_who(cert)}: more than {MAX_CANDIDATES} issuer candidates tried", cert
            )
        self._budget -= 1
        self._check_own(issuer, len(path))
        self._check_ca(issuer, len(path))
        try:
            cert.verify_directly_issued_by(issuer)
        except InvalidSignature:
            raise VerificationError(
                f"{_who(cert)}: the signature does not verify with the key of {_who(issuer)}",
                cert,
            ) from None
        except (ValueError, TypeError) as exc:
            raise VerificationError(f"{_who(cert)}: signature check failed: {exc}", cert) from None
        self._check_revocation(cert, issuer)

    def _check_own(self, cert: Certificate, position: int) -> None:
        """Validity, critical extensions, and for the leaf the key purpose."""
        now = self.validation_time
        if now < cert.not_valid_before_utc:
            raise VerificationError(
                f"{_who(cert)}: not yet valid (valid from {_at(cert.not_valid_before_utc)})",
                cert,
            )
        if now > cert.not_valid_after_utc:
            raise VerificationError(
                f"{_who(cert)}: expired (valid until {_at(cert.not_valid_after_utc)})",
                cert,
            )
        for extension in cert.extensions:
            if extension.critical and extension.oid not in _HANDLED:
                raise VerificationError(
                    f"{_who(cert)}: unknown critical extension {extension.oid}", cert
                )
        if position == 0 and self._eku is not None:
            eku = cert.extensions.find(ExtendedKeyUsage)
            if eku is not None and not (
                self._eku in eku.usages or ExtendedKeyUsageOID.ANY_EXTENDED_KEY_USAGE in eku.usages
            ):
                raise VerificationError(
                    f"{_who(cert)}: extendedKeyUsage does not allow {self._eku}", cert
                )

    def _check_ca(self, issuer: Certificate, below: int) -> None:
        """``issuer`` acts as a CA with ``below`` certificates under it."""
        constraints = issuer.basic_constraints
        if constraints is None or not constraints.ca:
            raise VerificationError(
                f"{_who(issuer)}: not a CA (basicConstraints cA is not set), yet it issues "
                "a certificate of the path",
                issuer,
            )
        usage = issuer.key_usage
        if usage is not None and not usage.key_cert_sign:
            raise VerificationError(
                f"{_who(issuer)}: keyUsage lacks keyCertSign, yet it issues a certificate "
                "of the path (wrong key usage)",
                issuer,
            )
        # RFC 5280 §6.1.4 (l), (m): the CA certificates below it, the leaf not counted
        if constraints.path_length is not None and below - 1 > constraints.path_length:
            raise VerificationError(
                f"{_who(issuer)}: pathLenConstraint {constraints.path_length} is exceeded "
                f"({below - 1} CA certificates below it)",
                issuer,
            )

    def _check_revocation(self, cert: Certificate, issuer: Certificate) -> None:
        if not self._crls:
            return
        covering = [crl for crl in self._crls if crl.issuer == cert.issuer]
        checked = False
        for crl in covering:
            aki = crl.authority_key_identifier
            ski = issuer.subject_key_identifier
            if aki is not None and ski is not None and aki != ski:
                continue
            usage = issuer.key_usage
            if usage is not None and not usage.crl_sign:
                raise VerificationError(
                    f"{_who(issuer)}: keyUsage lacks cRLSign, yet it signed the CRL given", issuer
                )
            if not crl.is_signature_valid(issuer.public_key()):
                raise VerificationError(
                    f"the CRL of {_who(issuer)}: its signature does not verify", cert
                )
            now = self.validation_time
            if crl.last_update_utc > now or (
                crl.next_update_utc is not None and crl.next_update_utc < now
            ):
                raise VerificationError(
                    f"the CRL of {_who(issuer)}: not current at the validation time", cert
                )
            checked = True
            entry = crl.get_revoked_certificate_by_serial_number(cert.serial_number)
            if entry is not None:
                raise VerificationError(
                    f"{_who(cert)}: revoked (serial {cert.serial_number:#x}, on "
                    f"{_at(entry.revocation_date_utc)})",
                    cert,
                )
        if not checked and self._require_crls:
            raise VerificationError(f"{_who(cert)}: no CRL of its issuer was given", cert)
