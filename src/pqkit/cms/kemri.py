"""KEMRecipientInfo (RFC 9629): the key-encryption key of one KEM recipient.

The sender encapsulates to the recipient's KEM public key (ML-KEM, RFC 9936;
composite ML-KEM; FrodoKEM), derives KEK = KDF(ss, kekLength, DER of
CMSORIforKEMOtherInfo) with HKDF (RFC 8619: empty salt) and wraps the
content-encryption key with AES key wrap (RFC 3394). The recipient reverses it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pqkit._checks import as_bytes
from pqkit.cms import _asn1

__all__ = ["KDFS", "WRAPS", "Recipient", "derive_kek", "recipient_info", "unwrap_cek"]

KDFS: dict[str, str] = {
    "HKDF-SHA256": "1.2.840.113549.1.9.16.3.28",
    "HKDF-SHA384": "1.2.840.113549.1.9.16.3.29",
    "HKDF-SHA512": "1.2.840.113549.1.9.16.3.30",
}
"""RFC 8619 §3: the HKDF OIDs (the names are the ``kdf=`` options)."""

WRAPS: dict[str, tuple[str, int]] = {
    "AES-128-WRAP": ("2.16.840.1.101.3.4.1.5", 16),
    "AES-192-WRAP": ("2.16.840.1.101.3.4.1.25", 24),
    "AES-256-WRAP": ("2.16.840.1.101.3.4.1.45", 32),
}
"""RFC 3565 §2.3.2: the AES key-wrap OIDs and their KEK length (``wrap=`` options)."""

MAX_KEM_CIPHERTEXT = 1 << 20
"""Largest kemct accepted (Classic McEliece's are the largest KEM ciphertexts
pqkit knows, well under this)."""


@dataclass(frozen=True)
class Recipient:
    """Who a message is encrypted to: a KEM public key (``pqkit.keys``) and how the
    message names it (RFC 5652 §6.2.1 RecipientIdentifier): the subject key
    identifier, or the issuer (Name DER) and serial number of its certificate.
    :meth:`from_certificate` takes all three from a certificate."""

    public_key: Any
    subject_key_identifier: bytes | None = None
    issuer: bytes | None = None
    serial_number: int | None = None

    def __post_init__(self) -> None:
        alg = getattr(self.public_key, "algorithm", None)
        if not getattr(alg, "is_kem", False):
            raise TypeError(
                "a recipient needs a KEM public key from pqkit.keys (ML-KEM, composite "
                f"ML-KEM, FrodoKEM), not {type(self.public_key).__name__}"
            )
        by_name = self.issuer is not None and self.serial_number is not None
        if self.subject_key_identifier is None and not by_name:
            raise ValueError(
                "a recipient needs a subject_key_identifier or an issuer and serial_number"
            )

    @classmethod
    def from_certificate(cls, certificate: Any) -> Recipient:
        """The recipient of a certificate (``pqkit.x509.Certificate``): its key, and
        its subject key identifier when it has one, else its issuer and serial."""
        ski = certificate.subject_key_identifier
        if ski is not None:
            return cls(certificate.public_key(), subject_key_identifier=bytes(ski))
        return cls(
            certificate.public_key(),
            issuer=certificate.issuer.public_bytes(),
            serial_number=certificate.serial_number,
        )

    def rid(self) -> Any:
        """The RecipientIdentifier (RFC 5652 §6.2.1), SKI first."""
        m = _asn1.modules()
        rid = m.rfc5652.RecipientIdentifier()
        if self.subject_key_identifier is not None:
            rid["subjectKeyIdentifier"] = rid["subjectKeyIdentifier"].clone(
                self.subject_key_identifier
            )
            return rid
        issuer = _asn1.decode(self.issuer, m.rfc5280.Name(), "recipient issuer name")
        ias = rid["issuerAndSerialNumber"]
        ias["issuer"] = issuer
        ias["serialNumber"] = self.serial_number
        return rid

    def matches(self, rid: Any) -> bool:
        """Whether a received RecipientIdentifier names this recipient."""
        name = rid.getName()
        if name == "subjectKeyIdentifier":
            return self.subject_key_identifier == bytes(rid[name])
        if self.issuer is None or self.serial_number is None:
            return False
        ias = rid[name]
        return (
            int(ias["serialNumber"]) == self.serial_number
            and _asn1.encode(ias["issuer"]) == self.issuer
        )


def _algorithm(oid: str, null_parameters: bool = False) -> Any:
    m = _asn1.modules()
    alg = m.rfc5280.AlgorithmIdentifier()
    alg["algorithm"] = m.univ.ObjectIdentifier(oid)
    if null_parameters:
        alg["parameters"] = m.der_encoder.encode(m.univ.Null(""))
    return alg


def _other_info(wrap: Any, kek_length: int, ukm: bytes | None) -> bytes:
    """DER of CMSORIforKEMOtherInfo (RFC 9629 §5): the HKDF info."""
    m = _asn1.modules()
    info = m.rfc9629.CMSORIforKEMOtherInfo()
    info["wrap"] = wrap
    info["kekLength"] = kek_length
    if ukm is not None:
        info["ukm"] = info["ukm"].clone(ukm)
    return _asn1.encode(info)


def derive_kek(kdf_oid: str, ss: bytes, kek_length: int, info: bytes) -> bytes:
    """KEK = HKDF(salt = empty, IKM = ss, info, L = kekLength) (RFC 8619 §2,
    RFC 9629 §5)."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    by_oid: dict[str, type[hashes.HashAlgorithm]] = {
        KDFS["HKDF-SHA256"]: hashes.SHA256,
        KDFS["HKDF-SHA384"]: hashes.SHA384,
        KDFS["HKDF-SHA512"]: hashes.SHA512,
    }
    if kdf_oid not in by_oid:
        raise ValueError(f"unsupported KEMRecipientInfo kdf {kdf_oid} (HKDF-SHA256/384/512 only)")
    return HKDF(algorithm=by_oid[kdf_oid](), length=kek_length, salt=b"", info=info).derive(ss)


def recipient_info(
    recipient: Recipient, cek: bytes, *, kdf: str, wrap: str, ukm: bytes | None, rng: Any
) -> Any:
    """A RecipientInfo ``ori [4]`` holding the KEMRecipientInfo of ``recipient``
    for the content-encryption key ``cek`` (RFC 9629 §3, §5)."""
    from cryptography.hazmat.primitives.keywrap import aes_key_wrap

    m = _asn1.modules()
    if kdf not in KDFS:
        raise ValueError(f"unknown kdf {kdf!r}; known: {', '.join(KDFS)}")
    if wrap not in WRAPS:
        raise ValueError(f"unknown wrap {wrap!r}; known: {', '.join(WRAPS)}")
    wrap_oid, kek_length = WRAPS[wrap]
    ss, kemct = recipient.public_key.encapsulate(rng=rng)
    kri = m.rfc9629.KEMRecipientInfo()
    kri["version"] = 0
    kri["rid"] = recipient.rid()
    kri["kem"] = _algorithm(recipient.public_key.algorithm.oid)
    kri["kemct"] = bytes(kemct)
    kri["kdf"] = _algorithm(KDFS[kdf])
    kri["kekLength"] = kek_length
    if ukm is not None:
        kri["ukm"] = kri["ukm"].clone(ukm)
    wrap_alg = _algorithm(wrap_oid)
    kri["wrap"] = wrap_alg
    kek = derive_kek(KDFS[kdf], bytes(ss), kek_length, _other_info(wrap_alg, kek_length, ukm))
    kri["encryptedKey"] = aes_key_wrap(kek, cek)
    ri = m.rfc5652.RecipientInfo()
    ori = ri["ori"]
    ori["oriType"] = m.rfc9629.id_ori_kem
    ori["oriValue"] = _asn1.encode(kri)
    return ri


def unwrap_cek(kri: Any, private_key: Any) -> bytes:
    """The content-encryption key of one KEMRecipientInfo (RFC 9629 §5). Raises
    (anything) on failure; the caller turns every failure into one error."""
    from cryptography.hazmat.primitives.keywrap import aes_key_unwrap

    if int(kri["version"]) != 0:
        raise ValueError("KEMRecipientInfo version is not 0")
    if _asn1.oid(kri["kem"]["algorithm"]) != private_key.algorithm.oid:
        raise ValueError("KEMRecipientInfo for another KEM")
    kemct = bytes(kri["kemct"])
    if len(kemct) > MAX_KEM_CIPHERTEXT:
        raise ValueError("kemct too long")
    wrap_oid = _asn1.oid(kri["wrap"]["algorithm"])
    kek_length = int(kri["kekLength"])
    if (wrap_oid, kek_length) not in WRAPS.values():
        raise ValueError("unsupported wrap algorithm or kekLength")
    ukm = bytes(kri["ukm"]) if kri["ukm"].isValue else None
    ss = private_key.decapsulate(kemct)
    info = _other_info(kri["wrap"], kek_length, ukm)
    kek = derive_kek(_asn1.oid(kri["kdf"]["algorithm"]), bytes(ss), kek_length, info)
    return bytes(aes_key_unwrap(kek, as_bytes(bytes(kri["encryptedKey"]), "encryptedKey")))
