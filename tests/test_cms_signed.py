"""pqkit.cms SignedData: the hackathon's 48 signed messages verify against their
folder's trust anchor; pqkit's own messages (signed with the hackathon signer keys
of each family) verify after DER / PEM / S/MIME round trips, attached and
detached, streamed, with several signers; flipped bits refused; bounds."""

from __future__ import annotations

import datetime
import io

import pytest

pytest.importorskip("pyasn1_alt_modules.rfc9629", reason="the cms extra is not installed")
pytest.importorskip("cryptography", reason="the cms extra is not installed")

from test_cms_vectors import bundle

from pqkit import cms, x509
from pqkit.cms import _asn1, signed, smime
from pqkit.keys import load_der_private_key

SIGNED = sorted(name for name in bundle() if name.endswith("_signed_attrs.der"))
PLAINTEXT = bundle()["expected_plaintext.txt"]
MESSAGE = b"Content-Type: text/plain\r\n\r\nsigned by pqkit\r\n"


def ta() -> x509.Certificate:
    return x509.load_der_x509_certificate(bundle()["ta.der"])


def signer(prefix: str) -> cms.Signer:
    """The hackathon signer of ``prefix``: its key and certificate."""
    files = bundle()
    raw = files.get(f"{prefix}_priv.der") or files[f"{prefix}_expandedkey_priv.der"]
    found = cms.verify(files[f"{prefix}_signed_attrs.der"], unverified_chain=True)
    return cms.Signer(load_der_private_key(raw, None), found.signers[0].certificate)


_SAMPLE = [
    name
    for name in SIGNED
    if name.startswith(
        (
            "ML-DSA-44-",
            "HASH-ML-DSA-44-",
            "SLH-DSA-SHA2-128f-",
            "SLH-DSA-SHAKE-128f-",
            "id-MLDSA44-Ed25519-",
        )
    )
]
FAMILIES = [name.removesuffix("_signed_attrs.der") for name in _SAMPLE]


def test_the_folder_is_complete() -> None:
    assert len(SIGNED) == 48
    assert len(_SAMPLE) == 5


@pytest.mark.parametrize("name", _SAMPLE)
def test_sample_verifies_against_the_trust_anchor(name: str) -> None:
    found = cms.verify(bundle()[name], trust=[ta()])
    assert found.content is not None and found.content.endswith(PLAINTEXT)
    assert found.signers[0].chain[-1] == ta()


@pytest.mark.slow
@pytest.mark.parametrize("name", SIGNED)
def test_every_signed_message_verifies(name: str) -> None:
    found = cms.verify(bundle()[name], trust=[ta()])
    assert found.content is not None and found.content.endswith(PLAINTEXT)


@pytest.mark.parametrize("prefix", FAMILIES)
def test_round_trip_der_pem_smime(prefix: str) -> None:
    s = signer(prefix)
    der = cms.sign(MESSAGE, [s])
    m = _asn1.modules()
    assert _asn1.encode(_asn1.decode(der, m.rfc5652.ContentInfo(), "m")) == der  # DER out
    for form in (der, smime.to_pem(der), smime.to_smime(der, "signed-data")):
        found = cms.verify(smime.read(form), trust=[ta()])
        assert found.content == MESSAGE
        assert found.signers[0].certificate == s.certificate


def test_detached_streamed_and_multipart() -> None:
    s = signer(FAMILIES[0])
    der = cms.sign(io.BytesIO(MESSAGE * 1000), [s], detached=True)
    found = cms.verify(der, content=io.BytesIO(MESSAGE * 1000), trust=[ta()])
    assert found.content is None and found.signers[0].digest_algorithm == "SHA2-512"
    with pytest.raises(cms.SignedDataError, match="message digest mismatch"):
        cms.verify(der, content=MESSAGE, trust=[ta()])
    with pytest.raises(ValueError, match="detached"):
        cms.verify(der, trust=[ta()])
    mime = smime.to_smime_multipart(MESSAGE, cms.sign(MESSAGE, [s], detached=True), "sha512", b"b1")
    parts = smime.split_multipart_signed(mime)
    assert parts.content == MESSAGE
    cms.verify(parts.signature, content=parts.content, trust=[ta()])


def test_several_signers_key_identifier_and_no_certificates() -> None:
    one, two = signer(FAMILIES[0]), signer(FAMILIES[2])
    two = cms.Signer(two.private_key, two.certificate, key_identifier=True)
    der = cms.sign(MESSAGE, [one, two], include_certificates=False)
    with pytest.raises(cms.SignedDataError, match="no certificate"):
        cms.verify(der, trust=[ta()])
    found = cms.verify(der, certificates=[one.certificate, two.certificate], trust=[ta()])
    assert [s.certificate for s in found.signers] == [one.certificate, two.certificate]
    assert {s.digest_algorithm for s in found.signers} == {"SHA2-512", "SHA2-256"}


def test_signing_time_and_no_signed_attributes() -> None:
    s = signer(FAMILIES[0])
    when = datetime.datetime(2030, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc)
    found = cms.verify(cms.sign(MESSAGE, [s], signing_time=when), trust=[ta()])
    assert found.signers[0].signing_time == when
    plain = cms.sign(MESSAGE, [s], signed_attributes=False)
    assert cms.verify(plain, trust=[ta()]).signers[0].signing_time is None


def test_the_failed_check_and_the_signer_are_named() -> None:
    s = signer(FAMILIES[0])
    other = signer(FAMILIES[2])
    with pytest.raises(cms.SignedDataError) as bad:
        cms.verify(cms.sign(MESSAGE, [s]), trust=[other.certificate])
    assert s.certificate.subject.rfc4514_string() in str(bad.value)
    assert "certificate path" in bad.value.check
    with pytest.raises(ValueError, match="unverified_chain=True"):
        cms.verify(cms.sign(MESSAGE, [s]))


def _positions(start: int, stop: int, count: int) -> list[int]:
    step = max(1, (stop - start) // count)
    return list(range(start, stop, step))[:count]


@pytest.mark.parametrize("prefix", [FAMILIES[0], FAMILIES[4]])
def test_flipped_bits_of_the_signed_parts_refused(prefix: str) -> None:
    """Content, signed attributes, signature algorithm and signature."""
    s = signer(prefix)
    der = cms.sign(MESSAGE, [s], include_certificates=False)
    start = der.index(MESSAGE)
    for pos in _positions(start, len(der), 48):
        changed = bytearray(der)
        changed[pos] ^= 0x04
        with pytest.raises((cms.SignedDataError, ValueError)):
            cms.verify(bytes(changed), certificates=[s.certificate], trust=[ta()])


def test_non_der_signed_attributes_refused() -> None:
    """Signed attributes are verified over the bytes received: a BER form of
    them (here a long-form length) is refused, not re-encoded."""
    s = signer(FAMILIES[0])
    der = cms.sign(MESSAGE, [s], include_certificates=False)
    m = _asn1.modules()
    ci = _asn1.decode(der, m.rfc5652.ContentInfo(), "m")
    sd = _asn1.decode(bytes(ci["content"]), m.rfc5652.SignedData(), "sd")
    attrs = _asn1.encode(sd["signerInfos"][0]["signedAttrs"])
    assert attrs[1] == 0x81  # a definite long form already: make it 0x82 00 xx
    longer = attrs[:1] + b"\x82\x00" + attrs[2:]
    changed = der.replace(attrs, longer)
    with pytest.raises(ValueError):
        cms.verify(changed, certificates=[s.certificate], trust=[ta()])


def test_signer_and_certificate_counts_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    s = signer(FAMILIES[0])
    der = cms.sign(MESSAGE, [s, s])
    monkeypatch.setattr(signed, "MAX_SIGNERS", 1)
    with pytest.raises(ValueError, match="more than 1 signers"):
        cms.verify(der, trust=[ta()])
    with pytest.raises(ValueError, match="between 1 and 1 signers"):
        cms.sign(MESSAGE, [s, s])
    monkeypatch.setattr(signed, "MAX_SIGNERS", 16)
    monkeypatch.setattr(signed, "MAX_CERTIFICATES", 1)
    with pytest.raises(ValueError, match="more than 1 certificates"):
        cms.verify(der, trust=[ta()])
    monkeypatch.setattr(signed, "MAX_ATTRIBUTES", 2)
    with pytest.raises(cms.SignedDataError, match="more than 2 signed attributes"):
        cms.verify(
            cms.sign(MESSAGE, [s], include_certificates=False),
            certificates=[s.certificate],
            trust=[ta()],
        )


def _self_signed(key: object) -> x509.Certificate:
    name = x509.Name([x509.NameAttribute(x509.NameOID.COMMON_NAME, "classical signer")])
    now = datetime.datetime.now(datetime.timezone.utc)
    public = key.public_key()  # type: ignore[attr-defined]
    return (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(public)
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(True, None), True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), False)
        .sign(key)
    )


def test_classical_signers_through_pyca_beside_a_pq_one() -> None:
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519

    pq = signer(FAMILIES[0])
    classical = [ec.generate_private_key(ec.SECP384R1()), ed25519.Ed25519PrivateKey.generate()]
    signers = [pq, *(cms.Signer(k, _self_signed(k), key_identifier=True) for k in classical)]
    der = cms.sign(MESSAGE, signers)
    anchors = [ta(), *(s.certificate for s in signers[1:])]
    found = cms.verify(der, trust=anchors)
    assert [s.digest_algorithm for s in found.signers] == ["SHA2-512", "SHA2-384", "SHA2-512"]
