"""SignedData (RFC 5652 §5): one or more signers of any pqkit signature algorithm
(ML-DSA per RFC 9882, SLH-DSA per RFC 9814, the pre-hash OIDs, composite ML-DSA)
or a classical pyca key; attached or detached content; signed attributes
(content-type, message-digest, signing-time, CMSAlgorithmProtection RFC 6211).

Which OID signs how is :mod:`pqkit.x509.algorithms`' question (its ``sign`` and
``verify``); certificates are :mod:`pqkit.x509`'s and their paths are validated by
:mod:`pqkit.x509.verification`. Signatures are checked over the bytes received:
the signed attributes as they stand in the input (RFC 5652 §5.4 requires their DER;
an input whose signed attributes are not DER is refused rather than re-encoded).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pqkit._checks import as_bytes
from pqkit.cms import _asn1
from pqkit.cms.digests import by_oid, digest_content, for_key

__all__ = [
    "MAX_ATTRIBUTES",
    "MAX_CERTIFICATES",
    "MAX_SIGNERS",
    "SignedDataError",
    "Signer",
    "VerifiedData",
    "VerifiedSigner",
    "sign",
    "verify",
]

MAX_SIGNERS = 16
"""Most SignerInfos read from one message (each costs a signature check)."""
MAX_CERTIFICATES = 64
"""Most certificates read from one message."""
MAX_ATTRIBUTES = 64
"""Most signed attributes of one SignerInfo (each is checked)."""

_ID_DATA = "1.2.840.113549.1.7.1"
_ID_SIGNED = "1.2.840.113549.1.7.2"
_CONTENT_TYPE = "1.2.840.113549.1.9.3"
_MESSAGE_DIGEST = "1.2.840.113549.1.9.4"
_SIGNING_TIME = "1.2.840.113549.1.9.5"
_ALGORITHM_PROTECTION = "1.2.840.113549.1.9.52"


class SignedDataError(Exception):
    """A SignedData that does not verify; ``signer`` names the signer (its
    certificate's subject, or its identifier when no certificate was found) and
    ``check`` the check that failed."""

    def __init__(self, signer: str, check: str) -> None:
        self.signer = signer
        self.check = check
        super().__init__(f"signer {signer}: {check}")


@dataclass(frozen=True)
class Signer:
    """One signer: its private key (pqkit or pyca) and certificate
    (``pqkit.x509.Certificate``). ``key_identifier=True`` names the signer by its
    subject key identifier (SignerInfo version 3), else by issuer and serial."""

    private_key: Any
    certificate: Any
    key_identifier: bool = False


@dataclass(frozen=True)
class VerifiedSigner:
    """A verified signer: its certificate, the chain to the trust anchor (leaf
    first; empty when no trust was asked for), the digest algorithm's name and the
    signing time when the signed attributes hold one."""

    certificate: Any
    chain: list[Any]
    digest_algorithm: str
    signing_time: datetime.datetime | None


@dataclass(frozen=True)
class VerifiedData:
    """What :func:`verify` found: the content (None when detached) and each signer."""

    content: bytes | None
    content_type: str
    signers: list[VerifiedSigner] = field(default_factory=list)


def _x509() -> Any:
    from pqkit import x509

    return x509


def _any(m: Any, der: bytes) -> Any:
    return m.univ.Any(der)


def _attribute(m: Any, oid: str, value: Any) -> Any:
    attr = m.rfc5652.Attribute()
    attr["attrType"] = m.univ.ObjectIdentifier(oid)
    attr["attrValues"][0] = _any(m, _asn1.encode(value))
    return attr


def _algorithm_identifier(m: Any, der: bytes) -> Any:
    return _asn1.decode(der, m.rfc5280.AlgorithmIdentifier(), "AlgorithmIdentifier")


def _digest_identifier(m: Any, oid: str) -> Any:
    alg = m.rfc5280.AlgorithmIdentifier()
    alg["algorithm"] = m.univ.ObjectIdentifier(oid)
    return alg


def _signed_attributes(
    m: Any, content_type: str, digest: bytes, digest_oid: str, sig_alg: bytes, when: Any
) -> Any:
    attrs = m.rfc5652.SignedAttributes().subtype(
        implicitTag=m.tag.Tag(m.tag.tagClassContext, m.tag.tagFormatConstructed, 0)
    )
    attrs[0] = _attribute(m, _CONTENT_TYPE, m.univ.ObjectIdentifier(content_type))
    attrs[1] = _attribute(m, _MESSAGE_DIGEST, m.univ.OctetString(digest))
    i = 2
    if when is not None:
        t = m.rfc5280.Time()
        moment = when.astimezone(datetime.timezone.utc)
        # RFC 5652 §11.3: UTCTime for 1950-2049, GeneralizedTime otherwise.
        if 1950 <= moment.year < 2050:
            t["utcTime"] = m.useful.UTCTime(moment.strftime("%y%m%d%H%M%SZ"))
        else:
            t["generalTime"] = m.useful.GeneralizedTime(moment.strftime("%Y%m%d%H%M%SZ"))
        attrs[i] = _attribute(m, _SIGNING_TIME, t)
        i += 1
    protection = m.rfc6211.CMSAlgorithmProtection()
    protection["digestAlgorithm"] = _digest_identifier(m, digest_oid)
    sig = protection["signatureAlgorithm"]
    parsed = _algorithm_identifier(m, sig_alg)
    sig["algorithm"] = parsed["algorithm"]
    if parsed["parameters"].isValue:
        sig["parameters"] = parsed["parameters"]
    attrs[i] = _attribute(m, _ALGORITHM_PROTECTION, protection)
    return attrs


def sign(
    data: Any,
    signers: Sequence[Signer],
    *,
    detached: bool = False,
    include_certificates: bool = True,
    certificates: Sequence[Any] = (),
    signed_attributes: bool = True,
    signing_time: datetime.datetime | bool | None = True,
) -> bytes:
    """The DER of a ContentInfo holding a SignedData of ``data`` (bytes, or a binary
    file object with ``detached=True``: hashed in chunks) by every signer.

    ``include_certificates`` puts the signers' certificates in the message, and
    ``certificates`` adds more (intermediates). Signed attributes (the default)
    hold content-type, message-digest, signing-time (now, or the given datetime;
    False leaves it out) and CMSAlgorithmProtection; without them the signature is
    over the content itself (attached bytes only)."""
    from pqkit.x509 import algorithms

    m = _asn1.modules()
    if isinstance(signers, Signer):
        signers = [signers]
    if not 1 <= len(signers) <= MAX_SIGNERS:
        raise ValueError(f"between 1 and {MAX_SIGNERS} signers, not {len(signers)}")
    streamed = not isinstance(data, (bytes, bytearray, memoryview))
    if streamed and not detached:
        raise ValueError("a content stream is signed detached (detached=True)")
    if streamed and not signed_attributes:
        raise ValueError("a content stream needs signed attributes (its digest is signed)")
    content = None if streamed else as_bytes(data, "data")
    when: datetime.datetime | None
    if signing_time is True:
        when = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    elif signing_time is False or signing_time is None:
        when = None
    else:
        when = signing_time
    digest_algorithms = m.rfc5652.DigestAlgorithmIdentifiers()
    infos = m.rfc5652.SignerInfos()
    digests: dict[str, bytes] = {}
    version = 1
    for i, signer in enumerate(signers):
        if not isinstance(signer, Signer):
            raise TypeError(f"signers must be pqkit.cms.Signer objects, not {type(signer)}")
        hash_alg = for_key(signer.private_key)
        if hash_alg.oid not in digests:
            source = data if content is None else content
            if streamed and digests:
                raise ValueError("a content stream is read once: all signers need one digest")
            digests[hash_alg.oid] = digest_content(hash_alg, source)
            digest_algorithms[len(digest_algorithms)] = _digest_identifier(m, hash_alg.oid)
        si = m.rfc5652.SignerInfo()
        cert = signer.certificate
        sid = si["sid"]
        if signer.key_identifier:
            ski = cert.subject_key_identifier
            if ski is None:
                raise ValueError("the signer certificate has no subject key identifier")
            si["version"] = 3
            version = 3
            sid["subjectKeyIdentifier"] = sid["subjectKeyIdentifier"].clone(bytes(ski))
        else:
            si["version"] = 1
            ias = sid["issuerAndSerialNumber"]
            ias["issuer"] = _asn1.decode(cert.issuer.public_bytes(), m.rfc5280.Name(), "issuer")
            ias["serialNumber"] = cert.serial_number
        si["digestAlgorithm"] = _digest_identifier(m, hash_alg.oid)
        sig_alg = algorithms.signature_algorithm_identifier(signer.private_key)
        if signed_attributes:
            attrs = _signed_attributes(
                m, _ID_DATA, digests[hash_alg.oid], hash_alg.oid, sig_alg, when
            )
            si["signedAttrs"] = attrs
            # RFC 5652 §5.4: the signature is over the DER of the attributes as a SET OF.
            to_sign = _asn1.encode(attrs)
            to_sign = b"\x31" + to_sign[1:]
        else:
            assert content is not None
            to_sign = content
        alg_der, signature = algorithms.sign(signer.private_key, to_sign)
        si["signatureAlgorithm"] = _algorithm_identifier(m, alg_der)
        si["signature"] = signature
        infos[i] = si
    sd = m.rfc5652.SignedData()
    sd["version"] = version
    sd["digestAlgorithms"] = digest_algorithms
    eci = sd["encapContentInfo"]
    eci["eContentType"] = m.univ.ObjectIdentifier(_ID_DATA)
    if not detached:
        assert content is not None
        eci["eContent"] = eci["eContent"].clone(content)
    if include_certificates or certificates:
        certs = sd["certificates"]
        pool = [s.certificate for s in signers] if include_certificates else []
        for n, cert in enumerate([*pool, *certificates]):
            choice = m.rfc5652.CertificateChoices()
            choice["certificate"] = _asn1.decode(
                _certificate_der(cert), m.rfc5280.Certificate(), "certificate"
            )
            certs[n] = choice
    sd["signerInfos"] = infos
    ci = m.rfc5652.ContentInfo()
    ci["contentType"] = m.univ.ObjectIdentifier(_ID_SIGNED)
    ci["content"] = _asn1.encode(sd)
    return _asn1.encode(ci)


def _certificate_der(cert: Any) -> bytes:
    from pqkit.serialization import Encoding

    der: bytes = cert.public_bytes(Encoding.DER)
    return der


def _attr_values(attrs: Any) -> dict[str, list[Any]]:
    found: dict[str, list[Any]] = {}
    for attr in attrs:
        oid = _asn1.oid(attr["attrType"])
        if oid in found:
            # RFC 5652 §5.3: each attribute type appears once in signedAttrs.
            raise ValueError(f"signed attribute {oid} appears more than once")
        found[oid] = [bytes(v) for v in attr["attrValues"]]
    return found


def _single(values: dict[str, list[Any]], oid: str, what: str) -> bytes | None:
    got = values.get(oid)
    if got is None:
        return None
    if len(got) != 1:
        raise ValueError(f"the {what} attribute has {len(got)} values (exactly one allowed)")
    value: bytes = got[0]
    return value


def _signing_time(m: Any, der: bytes) -> datetime.datetime:
    t = _asn1.decode(der, m.rfc5280.Time(), "signing-time")
    value = t.getComponent()
    moment: datetime.datetime = value.asDateTime
    return moment.astimezone(datetime.timezone.utc)


def _same_algorithm(a: Any, b: Any) -> bool:
    return _asn1.encode(a) == _asn1.encode(b)


def _check_protection(m: Any, der: bytes, si: Any) -> None:
    """RFC 6211 §3: the protected algorithms are those of the SignerInfo."""
    p = _asn1.decode(der, m.rfc6211.CMSAlgorithmProtection(), "CMSAlgorithmProtection")
    if not _same_algorithm(p["digestAlgorithm"], si["digestAlgorithm"]):
        raise ValueError("CMSAlgorithmProtection names another digest algorithm")
    if p["macAlgorithm"].isValue or not p["signatureAlgorithm"].isValue:
        raise ValueError("CMSAlgorithmProtection of a SignerInfo needs a signatureAlgorithm only")
    sig = m.rfc5280.AlgorithmIdentifier()
    sig["algorithm"] = p["signatureAlgorithm"]["algorithm"]
    if p["signatureAlgorithm"]["parameters"].isValue:
        sig["parameters"] = p["signatureAlgorithm"]["parameters"]
    if not _same_algorithm(sig, si["signatureAlgorithm"]):
        raise ValueError("CMSAlgorithmProtection names another signature algorithm")


def _find_signer(m: Any, sid: Any, pool: Sequence[Any]) -> Any:
    name = sid.getName()
    for cert in pool:
        if name == "subjectKeyIdentifier":
            if cert.subject_key_identifier == bytes(sid[name]):
                return cert
        else:
            ias = sid[name]
            if (
                int(ias["serialNumber"]) == cert.serial_number
                and _asn1.encode(ias["issuer"]) == cert.issuer.public_bytes()
            ):
                return cert
    return None


def _sid_text(sid: Any) -> str:
    name = sid.getName()
    if name == "subjectKeyIdentifier":
        return f"with key identifier {bytes(sid[name]).hex()}"
    return f"with serial number {int(sid[name]['serialNumber'])}"


def _received_attributes(raw: bytes, m: Any, attrs: Any) -> bytes:
    """The signed attributes' bytes as received, with the SET OF tag (RFC 5652
    §5.4); ``ValueError`` if the input does not hold their DER."""
    der = _asn1.encode(attrs)
    if der not in raw:
        raise ValueError("the signed attributes are not DER (RFC 5652 §5.4)")
    return b"\x31" + der[1:]


def verify(
    data: Any,
    *,
    content: Any = None,
    certificates: Sequence[Any] = (),
    trust: Any = None,
    unverified_chain: bool = False,
    time: datetime.datetime | None = None,
) -> VerifiedData:
    """Verify every signer of a SignedData ContentInfo (BER or DER).

    ``content`` is the detached content (bytes or a binary file, hashed in chunks);
    ``certificates`` more certificates to find signers and intermediates among
    (besides those in the message). ``trust`` is the trust anchors (a list of
    ``pqkit.x509.Certificate`` or a ``pqkit.x509.verification.Store``): each signer's
    certificate must chain to one, at ``time`` (default now). Without ``trust``,
    ``unverified_chain=True`` must say that only the signatures are checked.

    Raises :class:`SignedDataError` naming the signer and the failed check."""
    m = _asn1.modules()
    if trust is None and not unverified_chain:
        raise ValueError("give trust anchors (trust=...) or say unverified_chain=True")
    raw = as_bytes(data, "data")
    ci = _asn1.decode(raw, m.rfc5652.ContentInfo(), "CMS message")
    if _asn1.oid(ci["contentType"]) != _ID_SIGNED:
        raise ValueError(f"CMS content type {_asn1.oid(ci['contentType'])} is not SignedData")
    sd = _asn1.decode(bytes(ci["content"]), m.rfc5652.SignedData(), "SignedData")
    infos = sd["signerInfos"]
    if len(infos) == 0:
        raise ValueError("SignedData without signers")
    if len(infos) > MAX_SIGNERS:
        raise ValueError(f"more than {MAX_SIGNERS} signers in the message")
    x509 = _x509()
    pool: list[Any] = list(certificates)
    if sd["certificates"].isValue:
        if len(sd["certificates"]) > MAX_CERTIFICATES:
            raise ValueError(f"more than {MAX_CERTIFICATES} certificates in the message")
        for choice in sd["certificates"]:
            if choice.getName() == "certificate":
                pool.append(x509.load_der_x509_certificate(_asn1.encode(choice["certificate"])))
    eci = sd["encapContentInfo"]
    content_type = _asn1.oid(eci["eContentType"])
    attached = bytes(eci["eContent"]) if eci["eContent"].isValue else None
    if attached is not None and content is not None:
        raise ValueError("the content is attached: no detached content to give")
    if attached is None and content is None:
        raise ValueError("the content is detached: give it (content=...)")
    source = attached if attached is not None else content
    digests: dict[str, bytes] = {}
    results: list[VerifiedSigner] = []
    for si in infos:
        sid_text = _sid_text(si["sid"])
        cert = _find_signer(m, si["sid"], pool)
        if cert is None:
            raise SignedDataError(sid_text, "no certificate of this signer was found")
        who = cert.subject.rfc4514_string()
        try:
            hash_alg = by_oid(_asn1.oid(si["digestAlgorithm"]["algorithm"]))
        except ValueError as exc:
            raise SignedDataError(who, str(exc)) from None
        if hash_alg.oid not in digests:
            if attached is None and digests and not isinstance(source, (bytes, bytearray)):
                raise SignedDataError(who, "a content stream is read once: one digest only")
            digests[hash_alg.oid] = digest_content(hash_alg, source)
        digest = digests[hash_alg.oid]
        when = None
        try:
            if si["signedAttrs"].isValue:
                if len(si["signedAttrs"]) > MAX_ATTRIBUTES:
                    raise ValueError(f"more than {MAX_ATTRIBUTES} signed attributes")
                values = _attr_values(si["signedAttrs"])
                ct = _single(values, _CONTENT_TYPE, "content-type")
                md = _single(values, _MESSAGE_DIGEST, "message-digest")
                if ct is None or md is None:
                    raise ValueError("signed attributes without content-type or message-digest")
                got_ct = _asn1.oid(_asn1.decode(ct, m.univ.ObjectIdentifier(), "content-type"))
                if got_ct != content_type:
                    raise ValueError("the content-type attribute differs from eContentType")
                got_md = bytes(_asn1.decode(md, m.univ.OctetString(), "message-digest"))
                if got_md != digest:
                    raise ValueError("message digest mismatch (the content was changed)")
                st = _single(values, _SIGNING_TIME, "signing-time")
                when = None if st is None else _signing_time(m, st)
                protection = _single(values, _ALGORITHM_PROTECTION, "CMSAlgorithmProtection")
                if protection is not None:
                    _check_protection(m, protection, si)
                signed = _received_attributes(raw, m, si["signedAttrs"])
            else:
                if content_type != _ID_DATA:
                    raise ValueError("no signed attributes on a content type other than data")
                if not isinstance(source, (bytes, bytearray)):
                    raise ValueError("a streamed content needs signed attributes")
                signed = bytes(source)
        except ValueError as exc:
            raise SignedDataError(who, str(exc)) from None
        from pqkit.errors import InvalidSignature
        from pqkit.x509 import algorithms

        try:
            algorithms.verify(
                cert.public_key(),
                _asn1.encode(si["signatureAlgorithm"]),
                signed,
                bytes(si["signature"]),
            )
        except InvalidSignature:
            raise SignedDataError(who, "the signature does not verify") from None
        except (ValueError, TypeError) as exc:
            raise SignedDataError(who, f"signature check refused: {exc}") from None
        chain = [] if trust is None else _chain(cert, pool, trust, time, who)
        results.append(VerifiedSigner(cert, chain, hash_alg.name, when))
    return VerifiedData(attached, content_type, results)


def _chain(cert: Any, pool: list[Any], trust: Any, time: Any, who: str) -> list[Any]:
    """The signer's path to a trust anchor through :mod:`pqkit.x509.verification`."""
    from pqkit.x509 import verification

    store = trust if isinstance(trust, verification.Store) else verification.Store(list(trust))
    builder = verification.PolicyBuilder().store(store)
    if time is not None:
        builder = builder.time(time)
    verifier = builder.build()
    intermediates = [c for c in pool if c is not cert]
    try:
        chain: list[Any] = verifier.verify(cert, intermediates)
    except verification.VerificationError as exc:
        raise SignedDataError(who, f"certificate path: {exc}") from None
    return chain
