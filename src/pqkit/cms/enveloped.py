"""EnvelopedData (RFC 5652 §6, AES-CBC) and AuthEnvelopedData (RFC 5083, AES-GCM
per RFC 5084) to KEM recipients (KEMRecipientInfo, RFC 9629).

AES-CBC content has no integrity of its own: a changed ciphertext block of an
EnvelopedData decrypts to changed plaintext unless the padding breaks. Only the
recipient part (KEMRecipientInfo, encrypted key) is bound by the key wrap's check.
Use AuthEnvelopedData (an ``AES-*-GCM`` cipher) when the content must not change
unseen, or sign the content.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pqkit._checks import as_bytes
from pqkit._rng import RNG, draw
from pqkit.cms import _asn1
from pqkit.cms.kemri import Recipient, recipient_info, unwrap_cek

__all__ = ["CIPHERS", "MAX_RECIPIENTS", "DecryptionError", "decrypt", "encrypt"]

CIPHERS: dict[str, tuple[str, int, bool]] = {
    "AES-128-CBC": ("2.16.840.1.101.3.4.1.2", 16, False),
    "AES-192-CBC": ("2.16.840.1.101.3.4.1.22", 24, False),
    "AES-256-CBC": ("2.16.840.1.101.3.4.1.42", 32, False),
    "AES-128-GCM": ("2.16.840.1.101.3.4.1.6", 16, True),
    "AES-192-GCM": ("2.16.840.1.101.3.4.1.26", 24, True),
    "AES-256-GCM": ("2.16.840.1.101.3.4.1.46", 32, True),
}
"""Content ciphers: name -> (OID, key length, authenticated). RFC 3565 (CBC),
RFC 5084 (GCM)."""

MAX_RECIPIENTS = 64
"""Most RecipientInfos read from one message (each may cost a decapsulation)."""

_ID_DATA = "1.2.840.113549.1.7.1"
_ID_ENVELOPED = "1.2.840.113549.1.7.3"
_ID_AUTH_ENVELOPED = "1.2.840.113549.1.9.16.1.23"
_GCM_NONCE = 12
_GCM_TAG = 16


class DecryptionError(ValueError):
    """A message that does not decrypt with the given key: one error whatever
    failed inside (decapsulation, key unwrap, padding, tag), so that no answer
    tells an attacker which step failed."""

    def __init__(self) -> None:
        super().__init__(
            "CMS decryption failed: no recipient of the message decrypts with this key "
            "(wrong key, or a changed or corrupted message)"
        )


def _content_info(content_type: str, content: Any) -> bytes:
    m = _asn1.modules()
    ci = m.rfc5652.ContentInfo()
    ci["contentType"] = m.univ.ObjectIdentifier(content_type)
    ci["content"] = _asn1.encode(content)
    return _asn1.encode(ci)


def encrypt(
    data: Any,
    recipients: Sequence[Any],
    *,
    cipher: str = "AES-256-GCM",
    kdf: str = "HKDF-SHA256",
    wrap: str = "AES-256-WRAP",
    ukm: bytes | None = None,
    rng: RNG | None = None,
) -> bytes:
    """``data`` encrypted to every recipient: the DER of a ContentInfo holding an
    AuthEnvelopedData (``AES-*-GCM``, the default) or an EnvelopedData
    (``AES-*-CBC``; no integrity of its own). Each recipient is a
    :class:`~pqkit.cms.Recipient` or a certificate (``pqkit.x509.Certificate``)
    whose key is a KEM key; ``kdf`` is ``HKDF-SHA256/384/512``, ``wrap``
    ``AES-128/192/256-WRAP``, ``ukm`` optional user keying material (RFC 9629 §3)."""
    m = _asn1.modules()  # MissingExtra before any import of the extras' packages
    from cryptography.hazmat.primitives import padding
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    plain = as_bytes(data, "data")
    if cipher not in CIPHERS:
        raise ValueError(f"unknown cipher {cipher!r}; known: {', '.join(CIPHERS)}")
    if isinstance(recipients, (bytes, str)) or not isinstance(recipients, Sequence):
        raise TypeError("recipients must be a list of Recipient or certificate objects")
    if not 1 <= len(recipients) <= MAX_RECIPIENTS:
        raise ValueError(f"between 1 and {MAX_RECIPIENTS} recipients, not {len(recipients)}")
    if ukm is not None:
        ukm = as_bytes(ukm, "ukm")
    oid, key_length, authenticated = CIPHERS[cipher]
    cek = draw(rng, key_length)
    infos = m.rfc5652.RecipientInfos()
    for i, rec in enumerate(recipients):
        r = rec if isinstance(rec, Recipient) else Recipient.from_certificate(rec)
        infos[i] = recipient_info(r, cek, kdf=kdf, wrap=wrap, ukm=ukm, rng=rng)
    eci = m.rfc5652.EncryptedContentInfo()
    eci["contentType"] = m.univ.ObjectIdentifier(_ID_DATA)
    alg = eci["contentEncryptionAlgorithm"]
    alg["algorithm"] = m.univ.ObjectIdentifier(oid)
    if authenticated:
        # RFC 5084 §3.2: GCMParameters { aes-nonce (12 octets), aes-ICVlen (16) }.
        nonce = draw(rng, _GCM_NONCE)
        params = m.rfc5084.GCMParameters()
        params["aes-nonce"] = nonce
        params["aes-ICVlen"] = _GCM_TAG
        alg["parameters"] = _asn1.encode(params)
        aead = Cipher(algorithms.AES(cek), modes.GCM(nonce)).encryptor()
        body = aead.update(plain) + aead.finalize()
        eci["encryptedContent"] = eci["encryptedContent"].clone(body)
        env = m.rfc5083.AuthEnvelopedData()
        env["version"] = 0
        env["recipientInfos"] = infos
        env["authEncryptedContentInfo"] = eci
        env["mac"] = aead.tag
        return _content_info(_ID_AUTH_ENVELOPED, env)
    iv = draw(rng, 16)
    alg["parameters"] = _asn1.encode(m.univ.OctetString(iv))
    padder = padding.PKCS7(128).padder()
    padded = padder.update(plain) + padder.finalize()
    enc = Cipher(algorithms.AES(cek), modes.CBC(iv)).encryptor()
    eci["encryptedContent"] = eci["encryptedContent"].clone(enc.update(padded) + enc.finalize())
    env = m.rfc5652.EnvelopedData()
    # RFC 5652 §6.1: version 3 when a RecipientInfo is an ori.
    env["version"] = 3
    env["recipientInfos"] = infos
    env["encryptedContentInfo"] = eci
    return _content_info(_ID_ENVELOPED, env)


def _decrypt_content(eci: Any, cek: bytes, mac: bytes | None, aad: bytes) -> bytes:
    from cryptography.hazmat.primitives import padding
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    m = _asn1.modules()
    alg = eci["contentEncryptionAlgorithm"]
    oid = _asn1.oid(alg["algorithm"])
    found = [v for v in CIPHERS.values() if v[0] == oid]
    if not found or found[0][1] != len(cek) or found[0][2] != (mac is not None):
        raise ValueError("content cipher does not fit")
    body = bytes(eci["encryptedContent"])
    params = bytes(alg["parameters"])
    if mac is not None:
        gcm = _asn1.decode(params, m.rfc5084.GCMParameters(), "GCM parameters")
        nonce = bytes(gcm["aes-nonce"])
        icv = int(gcm["aes-ICVlen"])
        if icv != len(mac) or not 12 <= icv <= 16:
            raise ValueError("GCM tag length")
        aead = Cipher(algorithms.AES(cek), modes.GCM(nonce, mac, min_tag_length=icv)).decryptor()
        aead.authenticate_additional_data(aad)
        return bytes(aead.update(body) + aead.finalize())
    iv = bytes(_asn1.decode(params, m.univ.OctetString(), "CBC IV"))
    dec = Cipher(algorithms.AES(cek), modes.CBC(iv)).decryptor()
    padded = dec.update(body) + dec.finalize()
    unpadder = padding.PKCS7(128).unpadder()
    return bytes(unpadder.update(padded) + unpadder.finalize())


def decrypt(data: Any, private_key: Any, certificate: Any = None) -> bytes:
    """The content of an EnvelopedData or AuthEnvelopedData ContentInfo (BER or
    DER) for ``private_key`` (a KEM private key of ``pqkit.keys``). With
    ``certificate`` (its ``pqkit.x509.Certificate``, or a :class:`Recipient`) only
    the KEMRecipientInfos naming it are tried, else every one for the key's
    algorithm (the recipient identifier is then not checked).

    Raises :class:`DecryptionError` (one message) for any failure after parsing,
    ``ValueError`` for a message that is not an enveloped CMS structure."""
    m = _asn1.modules()
    alg: Any = getattr(private_key, "algorithm", None)
    if not getattr(alg, "is_kem", False) or not hasattr(private_key, "decapsulate"):
        raise TypeError(f"a KEM private key from pqkit.keys is needed, not {type(private_key)}")
    ci = _asn1.decode(data, m.rfc5652.ContentInfo(), "CMS message")
    content_type = _asn1.oid(ci["contentType"])
    if content_type == _ID_ENVELOPED:
        env = _asn1.decode(bytes(ci["content"]), m.rfc5652.EnvelopedData(), "EnvelopedData")
        # RFC 5652 §6.1: version 3 when a RecipientInfo is an ori (all KEM ones are).
        if int(env["version"]) != 3:
            raise ValueError(f"EnvelopedData version {int(env['version'])} (3 with ori)")
        eci = env["encryptedContentInfo"]
        mac = None
        aad = b""
    elif content_type == _ID_AUTH_ENVELOPED:
        env = _asn1.decode(bytes(ci["content"]), m.rfc5083.AuthEnvelopedData(), "AuthEnvelopedData")
        if int(env["version"]) != 0:  # RFC 5083 §2.1
            raise ValueError(f"AuthEnvelopedData version {int(env['version'])} (must be 0)")
        eci = env["authEncryptedContentInfo"]
        mac = bytes(env["mac"])
        # RFC 5083 §2.1: the AAD is the DER of authAttrs with the SET OF tag.
        aad = b""
        if env["authAttrs"].isValue:
            attrs = m.rfc5652.AuthAttributes()
            for i, a in enumerate(env["authAttrs"]):
                attrs[i] = a
            aad = _asn1.encode(attrs)
    else:
        raise ValueError(
            f"CMS content type {content_type} is not EnvelopedData or AuthEnvelopedData"
        )
    if _asn1.oid(eci["contentType"]) != _ID_DATA:
        raise ValueError(f"encrypted content type {_asn1.oid(eci['contentType'])} is not id-data")
    infos = env["recipientInfos"]
    if len(infos) > MAX_RECIPIENTS:
        raise ValueError(f"more than {MAX_RECIPIENTS} recipients in the message")
    if certificate is None or isinstance(certificate, Recipient):
        wanted = certificate
    else:
        wanted = Recipient.from_certificate(certificate)
    tried = 0
    for ri in infos:
        if ri.getName() != "ori" or _asn1.oid(ri["ori"]["oriType"]) != "1.2.840.113549.1.9.16.13.3":
            continue
        try:
            kri = _asn1.decode(
                bytes(ri["ori"]["oriValue"]), m.rfc9629.KEMRecipientInfo(), "KEMRecipientInfo"
            )
        except ValueError:
            continue
        if _asn1.oid(kri["kem"]["algorithm"]) != alg.oid:
            continue
        if wanted is not None and not wanted.matches(kri["rid"]):
            continue
        tried += 1
        try:
            cek = unwrap_cek(kri, private_key)
            return _decrypt_content(eci, cek, mac, aad)
        except Exception:
            continue
    raise DecryptionError()
