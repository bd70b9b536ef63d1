"""pqkit.cms EnvelopedData / AuthEnvelopedData made by pqkit: round trips for each
KEM family through DER and PEM, several recipients, the options, flipped bits
refused with one error, and every bound."""

from __future__ import annotations

import functools

import pytest

pytest.importorskip("pyasn1_alt_modules.rfc9629", reason="the cms extra is not installed")
pytest.importorskip("cryptography", reason="the cms extra is not installed")

from pqkit import cms
from pqkit.cms import _asn1, enveloped, smime
from pqkit.keys import (
    FrodoKEM976SHAKEPrivateKey,
    MLDSA44PrivateKey,
    MLKEM512PrivateKey,
    MLKEM768_ECDH_P256_SHA3_256PrivateKey,
    MLKEM1024PrivateKey,
)

MESSAGE = b"a message for the recipients\r\n" * 3


@functools.cache
def key(name: str) -> object:
    return {
        "ML-KEM-512": MLKEM512PrivateKey,
        "ML-KEM-1024": MLKEM1024PrivateKey,
        "composite": MLKEM768_ECDH_P256_SHA3_256PrivateKey,
        "FrodoKEM": FrodoKEM976SHAKEPrivateKey,
    }[name].generate()


def recipient(name: str) -> cms.Recipient:
    return cms.Recipient(key(name).public_key(), subject_key_identifier=name.encode())  # type: ignore[attr-defined]


@pytest.mark.parametrize("family", ["ML-KEM-512", "composite", "FrodoKEM"])
@pytest.mark.parametrize("cipher", ["AES-128-CBC", "AES-256-GCM"])
def test_round_trip_der_and_pem(family: str, cipher: str) -> None:
    der = cms.encrypt(MESSAGE, [recipient(family)], cipher=cipher)
    assert cms.decrypt(der, key(family)) == MESSAGE
    pem = smime.to_pem(der)
    assert pem.startswith(b"-----BEGIN CMS-----")
    assert cms.decrypt(smime.read(pem), key(family)) == MESSAGE
    mime = smime.to_smime(der, "authEnveloped-data" if "GCM" in cipher else "enveloped-data")
    assert cms.decrypt(smime.read(mime), key(family)) == MESSAGE


def test_output_is_der_and_the_kinds_are_right() -> None:
    m = _asn1.modules()
    for cipher, oid in (
        ("AES-192-CBC", "1.2.840.113549.1.7.3"),
        ("AES-128-GCM", "1.2.840.113549.1.9.16.1.23"),
    ):
        der = cms.encrypt(MESSAGE, [recipient("ML-KEM-512")], cipher=cipher)
        ci = _asn1.decode(der, m.rfc5652.ContentInfo(), "message")
        assert _asn1.encode(ci) == der
        assert _asn1.oid(ci["contentType"]) == oid


@pytest.mark.parametrize("kdf", sorted(cms.KDFS))
@pytest.mark.parametrize("wrap", sorted(cms.WRAPS))
def test_kdf_wrap_and_ukm_options(kdf: str, wrap: str) -> None:
    der = cms.encrypt(MESSAGE, [recipient("ML-KEM-512")], kdf=kdf, wrap=wrap, ukm=b"ukm")
    assert cms.decrypt(der, key("ML-KEM-512")) == MESSAGE


def test_several_recipients_each_decrypt() -> None:
    rec = [recipient("ML-KEM-512"), recipient("ML-KEM-1024"), recipient("composite")]
    der = cms.encrypt(MESSAGE, rec)
    for name in ("ML-KEM-512", "ML-KEM-1024", "composite"):
        assert cms.decrypt(der, key(name)) == MESSAGE
    with pytest.raises(cms.DecryptionError):
        cms.decrypt(der, MLKEM512PrivateKey.generate())


def test_issuer_and_serial_recipient() -> None:
    name_der = bytes.fromhex("3010310e300c06035504030c0570716b6974")  # CN=pqkit
    r = cms.Recipient(key("ML-KEM-512").public_key(), issuer=name_der, serial_number=7)  # type: ignore[attr-defined]
    der = cms.encrypt(MESSAGE, [r])
    assert cms.decrypt(der, key("ML-KEM-512")) == MESSAGE


def _flipped(der: bytes, positions: range, count: int = 12) -> list[bytes]:
    step = max(1, len(positions) // count)
    out = []
    for pos in list(positions)[::step][:count]:
        changed = bytearray(der)
        changed[pos] ^= 0x01
        out.append(bytes(changed))
    return out


def _span(der: bytes, part: bytes) -> range:
    start = der.index(part)
    return range(start, start + len(part))


def test_flipped_bits_of_auth_enveloped_data_refused() -> None:
    """Every part: the recipient identifier too, when the recipient is named."""
    der = cms.encrypt(MESSAGE, [recipient("ML-KEM-512")], cipher="AES-256-GCM")
    for changed in _flipped(der, range(len(der)), 60):
        try:
            out = cms.decrypt(changed, key("ML-KEM-512"), recipient("ML-KEM-512"))
        except ValueError:  # DecryptionError, or a message that no longer parses
            continue
        pytest.fail(f"a changed AuthEnvelopedData decrypted to {out[:20]!r}")


def test_flipped_bits_of_kemri_and_encrypted_key_refused() -> None:
    der = cms.encrypt(MESSAGE, [recipient("ML-KEM-512")], cipher="AES-128-CBC")
    m = _asn1.modules()
    ci = _asn1.decode(der, m.rfc5652.ContentInfo(), "message")
    env = _asn1.decode(bytes(ci["content"]), m.rfc5652.EnvelopedData(), "env")
    kri = bytes(env["recipientInfos"][0]["ori"]["oriValue"])
    for changed in _flipped(der, _span(der, kri), 40):
        with pytest.raises(ValueError):
            cms.decrypt(changed, key("ML-KEM-512"))


def test_one_error_for_every_failure() -> None:
    """Decapsulation, unwrap, padding and tag failures read the same."""
    der = cms.encrypt(MESSAGE, [recipient("ML-KEM-512")], cipher="AES-128-CBC")
    messages = set()
    for changed in _flipped(der, range(len(der) - 40, len(der)), 8):
        try:
            cms.decrypt(changed, key("ML-KEM-512"))
        except cms.DecryptionError as exc:
            messages.add(str(exc))
    with pytest.raises(cms.DecryptionError) as wrong_key:
        cms.decrypt(der, MLKEM512PrivateKey.generate())
    assert messages <= {str(wrong_key.value)}


def test_cbc_content_has_no_integrity_of_its_own() -> None:
    """Documented: a changed CBC block that keeps the padding decrypts (changed)."""
    der = cms.encrypt(b"x" * 64, [recipient("ML-KEM-512")], cipher="AES-128-CBC")
    changed = bytearray(der)
    changed[-60] ^= 0x01  # a byte of an early ciphertext block
    out = cms.decrypt(bytes(changed), key("ML-KEM-512"))
    assert out != b"x" * 64


def test_wrong_types_and_options() -> None:
    with pytest.raises(TypeError, match="KEM public key"):
        cms.Recipient(MLDSA44PrivateKey.generate().public_key(), subject_key_identifier=b"1")
    with pytest.raises(ValueError, match="subject_key_identifier"):
        cms.Recipient(key("ML-KEM-512").public_key())  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="unknown cipher"):
        cms.encrypt(MESSAGE, [recipient("ML-KEM-512")], cipher="DES")
    with pytest.raises(ValueError, match="unknown kdf"):
        cms.encrypt(MESSAGE, [recipient("ML-KEM-512")], kdf="HKDF-MD5")
    with pytest.raises(TypeError, match="KEM private key"):
        cms.decrypt(b"0", MLDSA44PrivateKey.generate())
    with pytest.raises(ValueError, match="not EnvelopedData"):
        cms.decrypt(bytes.fromhex("300d06092a864886f70d010701a000"), key("ML-KEM-512"))


def test_recipient_count_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="recipients"):
        cms.encrypt(MESSAGE, [])
    der = cms.encrypt(MESSAGE, [recipient("ML-KEM-512")] * 3)
    monkeypatch.setattr(enveloped, "MAX_RECIPIENTS", 2)
    with pytest.raises(ValueError, match="more than 2 recipients"):
        cms.decrypt(der, key("ML-KEM-512"))


def test_input_size_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    der = cms.encrypt(MESSAGE, [recipient("ML-KEM-512")])
    monkeypatch.setattr(_asn1, "MAX_INPUT", len(der) - 1)
    with pytest.raises(ValueError, match="too large"):
        cms.decrypt(der, key("ML-KEM-512"))


def test_nesting_and_element_count_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    deep = b"\x30\x80" * 40 + b"\x00\x00" * 40
    with pytest.raises(ValueError, match="nesting deeper than 32"):
        _asn1.scan(deep, "input")
    _asn1.scan(b"\x30\x80" * 20 + b"\x00\x00" * 20, "input")
    many = b"\x30\x80" + b"\x05\x00" * 50 + b"\x00\x00"
    monkeypatch.setattr(_asn1, "MAX_ELEMENTS", 40)
    with pytest.raises(ValueError, match="more than 40 BER elements"):
        _asn1.scan(many, "input")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\x30\x05\x02\x01", "runs past"),
        (b"\x30\x03\x02\x01\x00\x00", "trailing"),
        (b"\x02\x80\x00\x00", "indefinite length on a primitive"),
        (b"\x30\x89" + b"\x01" * 9, "bad BER length"),
    ],
)
def test_malformed_ber_refused(data: bytes, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        _asn1.scan(data, "input")


def test_ber_indefinite_lengths_and_constructed_octet_strings_accepted() -> None:
    """A producer's BER (indefinite lengths, a constructed OCTET STRING for the
    content) decrypts; pqkit writes DER."""
    m = _asn1.modules()
    from pyasn1.codec.ber import encoder as ber_encoder

    der = cms.encrypt(MESSAGE, [recipient("ML-KEM-512")], cipher="AES-128-GCM")
    ci = _asn1.decode(der, m.rfc5652.ContentInfo(), "message")
    env = _asn1.decode(bytes(ci["content"]), m.rfc5083.AuthEnvelopedData(), "env")
    inner = ber_encoder.encode(env, defMode=False, maxChunkSize=16)
    ci["content"] = m.univ.Any(inner)
    ber = ber_encoder.encode(ci, defMode=False, maxChunkSize=16)
    assert ber.startswith(b"\x30\x80") and len(ber) > len(der)  # indefinite, chunked
    assert cms.decrypt(ber, key("ML-KEM-512")) == MESSAGE


def test_without_rfc9629_the_cms_extra_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """pyasn1-alt-modules before 0.4.5 has no KEMRecipientInfo module."""
    import sys

    from pqkit.errors import MissingExtra

    monkeypatch.setitem(sys.modules, "pyasn1_alt_modules.rfc9629", None)
    with pytest.raises(MissingExtra, match=r"pqkit\[cms\]"):
        cms.decrypt(b"0\x00", key("ML-KEM-512"))


@pytest.mark.parametrize("form", ["seed", "expanded", "both"])
def test_recipient_key_in_each_pkcs8_form(form: str) -> None:
    from pqkit.keys import load_der_private_key
    from pqkit.serialization import Encoding, NoEncryption, PrivateFormat

    original = key("ML-KEM-512")
    der = original.private_bytes(  # type: ignore[attr-defined]
        Encoding.DER, PrivateFormat.PKCS8, NoEncryption(), form=form
    )
    message = cms.encrypt(MESSAGE, [recipient("ML-KEM-512")])
    assert cms.decrypt(message, load_der_private_key(der, None)) == MESSAGE
