"""pqkit.x509: builders, requests (RFC 2986, RFC 9883 for KEM keys), CRLs,
algorithms.sign / verify, path validation and its limits (issue 30)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

pytest.importorskip("pyasn1_alt_modules", reason="pqkit.x509 needs the x509 extra")

import pqkit
from pqkit import x509
from pqkit.keys import (
    HashMLDSA44PrivateKey,
    MLDSA44PrivateKey,
    MLKEM768PrivateKey,
)
from pqkit.serialization import Encoding
from pqkit.x509 import _asn1, algorithms, extensions, name
from pqkit.x509.verification import (
    MAX_INTERMEDIATES,
    PolicyBuilder,
    Store,
    VerificationError,
)

NOW = dt.datetime(2026, 6, 1, tzinfo=dt.timezone.utc)
DAY = dt.timedelta(days=1)


def _name(cn: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(x509.NameOID.COMMON_NAME, cn)])


def _cert(
    subject: str,
    key: Any,
    issuer: str,
    issuer_key: Any,
    *,
    ca: bool = False,
    path_length: int | None = None,
    usage: x509.KeyUsage | None = None,
    start: dt.datetime = NOW - DAY,
    end: dt.datetime = NOW + 30 * DAY,
    extra: tuple[tuple[Any, bool], ...] = (),
    serial: int | None = None,
) -> x509.Certificate:
    public = key.public_key() if hasattr(key, "sign") or hasattr(key, "decapsulate") else key
    builder = (
        x509.CertificateBuilder()
        .subject_name(_name(subject))
        .issuer_name(_name(issuer))
        .public_key(public)
        .serial_number(serial or x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(end)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key), False)
    )
    if ca:
        builder = builder.add_extension(x509.BasicConstraints(True, path_length), True)
    if usage is not None:
        builder = builder.add_extension(usage, True)
    for value, critical in extra:
        builder = builder.add_extension(value, critical)
    return builder.sign(issuer_key)


CA_USAGE = x509.KeyUsage(key_cert_sign=True, crl_sign=True)


@pytest.fixture(scope="module")
def keys() -> dict[str, Any]:
    return {
        "root": MLDSA44PrivateKey.generate(),
        "mid": MLDSA44PrivateKey.generate(),
        "leaf": MLKEM768PrivateKey.generate(),
        "other": MLDSA44PrivateKey.generate(),
    }


@pytest.fixture(scope="module")
def chain(keys: dict[str, Any]) -> dict[str, x509.Certificate]:
    root = _cert("root", keys["root"], "root", keys["root"], ca=True, usage=CA_USAGE)
    mid = _cert("mid", keys["mid"], "root", keys["root"], ca=True, path_length=0, usage=CA_USAGE)
    leaf = _cert(
        "leaf", keys["leaf"], "mid", keys["mid"], usage=x509.KeyUsage(key_encipherment=True)
    )
    return {"root": root, "mid": mid, "leaf": leaf}


def _verifier(chain: dict[str, x509.Certificate], **options: Any) -> Any:
    policy = PolicyBuilder().store(Store([chain["root"]])).time(options.pop("time", NOW))
    for method, value in options.items():
        policy = getattr(policy, method)(value)
    return policy.build()


# --- certificates ----------------------------------------------------------------------


def test_built_certificate_reads_back(chain: dict[str, x509.Certificate], keys: dict) -> None:
    leaf = chain["leaf"]
    assert leaf.subject.rfc4514_string() == "CN=leaf"
    assert leaf.issuer == chain["mid"].subject
    assert leaf.public_key() == keys["leaf"].public_key()
    assert leaf.public_key_algorithm_oid == keys["leaf"].algorithm.oid
    assert leaf.signature_algorithm_oid == keys["mid"].algorithm.oid
    assert leaf.version == 3
    assert leaf.not_valid_before_utc == NOW - DAY
    assert leaf.key_usage == x509.KeyUsage(key_encipherment=True)
    assert leaf.authority_key_identifier == chain["mid"].subject_key_identifier
    assert x509.load_der_x509_certificate(leaf.public_bytes(Encoding.DER)) == leaf
    pems = chain["root"].public_bytes(Encoding.PEM) + leaf.public_bytes(Encoding.PEM)
    assert x509.load_pem_x509_certificates(pems) == [chain["root"], leaf]
    leaf.verify_directly_issued_by(chain["mid"])
    assert leaf.tbs_certificate_bytes in leaf.public_bytes(Encoding.DER)


def test_kem_certificate_key_usage_is_key_encipherment_only(keys: dict) -> None:
    with pytest.raises(ValueError, match="keyEncipherment"):
        _cert("x", keys["leaf"], "mid", keys["mid"], usage=x509.KeyUsage(digital_signature=True))


def test_a_kem_key_cannot_sign(keys: dict) -> None:
    with pytest.raises(TypeError, match="KEM key"):
        _cert("x", keys["root"], "x", keys["leaf"])


def test_builder_refusals(keys: dict) -> None:
    builder = x509.CertificateBuilder().subject_name(_name("a"))
    with pytest.raises(ValueError, match="only be set once"):
        builder.subject_name(_name("b"))
    with pytest.raises(ValueError, match="needs: issuer name"):
        builder.sign(keys["root"])
    with pytest.raises(TypeError, match="Name"):
        x509.CertificateBuilder().subject_name("CN=a")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="159 bits"):
        x509.CertificateBuilder().serial_number(1 << 160)
    with pytest.raises(ValueError, match="already added"):
        builder.add_extension(CA_USAGE, True).add_extension(CA_USAGE, True)


def test_subject_alternative_name_and_eku_round_trip(keys: dict) -> None:
    san = x509.SubjectAlternativeName([x509.DNSName("pq.example"), x509.RFC822Name("a@b.c")])
    eku = x509.ExtendedKeyUsage([x509.ExtendedKeyUsageOID.CLIENT_AUTH])
    cert = _cert("a", keys["other"], "a", keys["other"], extra=((san, False), (eku, False)))
    assert cert.extensions.find(x509.SubjectAlternativeName) == san
    assert cert.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value == eku
    assert san.get_values_for_type(x509.DNSName) == ["pq.example"]


def test_names() -> None:
    parsed = x509.Name.from_rfc4514_string("CN=a\\,b,O=pqkit,C=FR")
    assert parsed.rfc4514_string() == "CN=a\\,b,O=pqkit,C=FR"
    assert x509.Name.from_rfc4514_string("/C=FR/O=pqkit/CN=a\\,b") == parsed
    with pytest.raises(ValueError, match="2 characters"):
        x509.Name.from_rfc4514_string("C=FRA").public_bytes()
    with pytest.raises(ValueError, match="unknown attribute type"):
        x509.Name.from_rfc4514_string("XX=1")


# --- algorithms ------------------------------------------------------------------------


def _signers() -> list[Any]:
    out: list[Any] = [MLDSA44PrivateKey.generate(), HashMLDSA44PrivateKey.generate()]
    pytest.importorskip("cryptography", reason="composites and classical keys need pyca")
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519

    from pqkit.keys import MLDSA44_Ed25519_SHA512PrivateKey

    out += [
        MLDSA44_Ed25519_SHA512PrivateKey.generate(),
        ec.generate_private_key(ec.SECP256R1()),
        ed25519.Ed25519PrivateKey.generate(),
    ]
    return out


def test_algorithms_sign_and_verify_every_kind() -> None:
    for key in _signers():
        identifier, signature = algorithms.sign(key, b"tbs")
        assert identifier == algorithms.signature_algorithm_identifier(key)
        algorithms.verify(key.public_key(), identifier, b"tbs", signature)
        with pytest.raises(pqkit.InvalidSignature):
            algorithms.verify(key.public_key(), identifier, b"tbz", signature)


def test_algorithms_rsa_pss_and_pkcs1() -> None:
    pytest.importorskip("cryptography", reason="classical keys need pyca")
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(65537, 2048)
    for padding in ("pkcs1v15", "pss"):
        identifier, signature = algorithms.sign(
            key, b"m", hash_algorithm="sha384", rsa_padding=padding
        )
        algorithms.verify(key.public_key(), identifier, b"m", signature)


def test_algorithms_refusals(keys: dict) -> None:
    identifier, signature = algorithms.sign(keys["root"], b"m")
    with pytest.raises(ValueError, match="does not match the key"):
        algorithms.verify(
            HashMLDSA44PrivateKey.generate().public_key(), identifier, b"m", signature
        )
    with pytest.raises(TypeError, match="KEM key"):
        algorithms.verify(keys["leaf"].public_key(), identifier, b"m", signature)
    with pytest.raises(ValueError, match="hash_algorithm is for classical keys"):
        algorithms.sign(keys["root"], b"m", hash_algorithm="sha256")
    params = bytes([0x30, len(identifier) - 2 + 2]) + identifier[2:] + b"\x05\x00"
    with pytest.raises(ValueError, match="must be absent"):
        algorithms.verify(keys["root"].public_key(), params, b"m", signature)


# --- requests --------------------------------------------------------------------------


def test_request_signed_by_its_key(keys: dict) -> None:
    request = (
        x509.CertificateSigningRequestBuilder()
        .subject_name(_name("req"))
        .add_extension(x509.BasicConstraints(True, 0), True)
        .sign(keys["other"])
    )
    again = x509.load_pem_x509_csr(request.public_bytes(Encoding.PEM))
    assert again == request and again.is_signature_valid
    assert again.public_key() == keys["other"].public_key()
    assert again.extensions.find(x509.BasicConstraints) == x509.BasicConstraints(True, 0)
    data = bytearray(request.public_bytes(Encoding.DER))
    data[-3] ^= 1
    assert not x509.load_der_x509_csr(bytes(data)).is_signature_valid


def test_kem_request_follows_rfc9883(chain: dict, keys: dict) -> None:
    builder = x509.CertificateSigningRequestBuilder().subject_name(_name("mid"))
    with pytest.raises(TypeError, match="KEM key"):
        builder.sign(keys["leaf"])
    kem_request = builder.public_key(keys["leaf"].public_key())
    with pytest.raises(ValueError, match="possession_statement"):
        kem_request.sign(keys["mid"])
    request = kem_request.possession_statement(chain["mid"]).sign(keys["mid"])
    assert request.public_key() == keys["leaf"].public_key()
    assert not request.is_signature_valid  # a KEM key signs nothing
    assert request.possession_statement == (chain["mid"].issuer, chain["mid"].serial_number)
    request.verify_possession_statement(chain["mid"])
    with pytest.raises(ValueError, match="names another certificate"):
        request.verify_possession_statement(chain["root"])
    with pytest.raises(ValueError, match="not the key of the possession"):
        kem_request.possession_statement(chain["mid"]).sign(keys["root"])


# --- CRLs ------------------------------------------------------------------------------


def _crl(
    issuer: str, key: Any, *serials: int, update: dt.datetime = NOW - DAY, aki: Any = None
) -> Any:
    builder = (
        x509.CertificateRevocationListBuilder()
        .issuer_name(_name(issuer))
        .last_update(update)
        .next_update(update + 7 * DAY)
        .add_extension(x509.CRLNumber(1), False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(aki or key), False)
    )
    for serial in serials:
        entry = x509.RevokedCertificateBuilder().serial_number(serial).revocation_date(update)
        builder = builder.add_revoked_certificate(entry.build())
    return builder.sign(key)


def test_crl_round_trip(chain: dict, keys: dict) -> None:
    crl = _crl("mid", keys["mid"], 5, 7)
    again = x509.load_pem_x509_crl(crl.public_bytes(Encoding.PEM))
    assert again == crl and len(again) == 2 and again.crl_number == 1
    assert again.get_revoked_certificate_by_serial_number(7) is not None
    assert again.get_revoked_certificate_by_serial_number(6) is None
    again.verify_directly_issued_by(chain["mid"])
    assert not again.is_signature_valid(keys["root"].public_key())


# --- path validation -------------------------------------------------------------------


def test_good_path(chain: dict) -> None:
    path = _verifier(chain).verify(chain["leaf"], [chain["mid"]])
    assert path == [chain["leaf"], chain["mid"], chain["root"]]
    assert _verifier(chain).verify(chain["root"]) == [chain["root"]]


@pytest.mark.parametrize(
    ("when", "message"),
    [(NOW + 60 * DAY, "'CN=leaf': expired"), (NOW - 2 * DAY, "'CN=leaf': not yet valid")],
)
def test_validity(chain: dict, when: dt.datetime, message: str) -> None:
    with pytest.raises(VerificationError, match=message):
        _verifier(chain, time=when).verify(chain["leaf"], [chain["mid"]])


def test_wrong_key_usage_and_not_a_ca(chain: dict, keys: dict) -> None:
    no_sign = _cert(
        "mid",
        keys["mid"],
        "root",
        keys["root"],
        ca=True,
        usage=x509.KeyUsage(digital_signature=True),
    )
    with pytest.raises(VerificationError, match="'CN=mid': keyUsage lacks keyCertSign"):
        _verifier(chain).verify(chain["leaf"], [no_sign])
    not_ca = _cert("mid", keys["mid"], "root", keys["root"], usage=CA_USAGE)
    with pytest.raises(VerificationError, match="'CN=mid': not a CA"):
        _verifier(chain).verify(chain["leaf"], [not_ca])


def test_path_length(chain: dict, keys: dict) -> None:
    mid2 = _cert("mid2", keys["other"], "mid", keys["mid"], ca=True, usage=CA_USAGE)
    leaf = _cert("leaf2", keys["leaf"], "mid2", keys["other"])
    with pytest.raises(VerificationError, match="'CN=mid': pathLenConstraint 0 is exceeded"):
        _verifier(chain).verify(leaf, [chain["mid"], mid2])
    with pytest.raises(VerificationError, match="longer than max_chain_depth"):
        _verifier(chain, max_chain_depth=1).verify(leaf, [chain["mid"], mid2])


def test_wrong_issuer_and_flipped_bit(chain: dict, keys: dict) -> None:
    stranger = _cert("leaf", keys["leaf"], "nobody", keys["other"])
    with pytest.raises(VerificationError, match="'CN=leaf': no issuer found"):
        _verifier(chain).verify(stranger, [chain["mid"]])
    forged = _cert("leaf", keys["leaf"], "mid", keys["other"])  # mid's name, other's key
    # (its AKI names other's key: mid is no candidate)
    with pytest.raises(VerificationError, match="'CN=leaf'"):
        _verifier(chain).verify(forged, [chain["mid"]])
    data = bytearray(chain["leaf"].public_bytes(Encoding.DER))
    data[-10] ^= 0x01
    flipped = x509.load_der_x509_certificate(bytes(data))
    with pytest.raises(VerificationError, match="'CN=leaf': the signature does not verify"):
        _verifier(chain).verify(flipped, [chain["mid"]])


def test_revocation(chain: dict, keys: dict) -> None:
    serial = chain["leaf"].serial_number
    revoked = _crl("mid", keys["mid"], serial)
    with pytest.raises(VerificationError, match="'CN=leaf': revoked"):
        _verifier(chain, crls=[revoked]).verify(chain["leaf"], [chain["mid"]])
    clean = _crl("mid", keys["mid"], serial + 1)
    assert len(_verifier(chain, crls=[clean]).verify(chain["leaf"], [chain["mid"]])) == 3
    forged = _crl("mid", keys["other"], serial + 1, aki=keys["mid"])
    with pytest.raises(VerificationError, match="CRL of certificate 'CN=mid': its signature"):
        _verifier(chain, crls=[forged]).verify(chain["leaf"], [chain["mid"]])
    stale = _crl("mid", keys["mid"], update=NOW - 30 * DAY)
    with pytest.raises(VerificationError, match="not current"):
        _verifier(chain, crls=[stale]).verify(chain["leaf"], [chain["mid"]])
    policy = PolicyBuilder().store(Store([chain["root"]])).time(NOW).crls([clean]).require_crls()
    with pytest.raises(VerificationError, match="'CN=mid': no CRL of its issuer"):
        policy.build().verify(chain["leaf"], [chain["mid"]])


def test_extended_key_usage_and_unknown_critical(chain: dict, keys: dict) -> None:
    eku = x509.ExtendedKeyUsage([x509.ExtendedKeyUsageOID.CLIENT_AUTH])
    leaf = _cert("leaf", keys["leaf"], "mid", keys["mid"], extra=((eku, False),))
    server = x509.ExtendedKeyUsageOID.SERVER_AUTH
    with pytest.raises(VerificationError, match="extendedKeyUsage does not allow"):
        _verifier(chain, extended_key_usage=server).verify(leaf, [chain["mid"]])
    client = x509.ExtendedKeyUsageOID.CLIENT_AUTH
    assert _verifier(chain, extended_key_usage=client).verify(leaf, [chain["mid"]])
    odd = x509.UnrecognizedExtension("1.2.3.4", b"\x05\x00")
    leaf = _cert("leaf", keys["leaf"], "mid", keys["mid"], extra=((odd, True),))
    with pytest.raises(VerificationError, match=r"unknown critical extension 1\.2\.3\.4"):
        _verifier(chain).verify(leaf, [chain["mid"]])


# --- limits on hostile input -----------------------------------------------------------


def _tlv(tag: int, body: bytes) -> bytes:
    from pqkit.der import encode_tlv

    return encode_tlv(tag, body)


def test_limit_input_size() -> None:
    big = _tlv(0x04, bytes(_asn1.MAX_DER_BYTES))
    with pytest.raises(ValueError, match="over the limit"):
        x509.load_der_x509_certificate(big)


def test_limit_nesting_depth() -> None:
    value = b"\x05\x00"
    for _ in range(_asn1.MAX_DEPTH + 2):
        value = _tlv(0x30, value)
    with pytest.raises(ValueError, match="nesting deeper than"):
        x509.load_der_x509_certificate(value)


def test_limit_element_count() -> None:
    value = _tlv(0x30, b"\x05\x00" * (_asn1.MAX_ELEMENTS + 1))
    with pytest.raises(ValueError, match=r"more than \d+ DER elements"):
        x509.load_der_x509_certificate(value)


def test_not_der_is_refused(chain: dict) -> None:
    der = chain["leaf"].public_bytes(Encoding.DER)
    with pytest.raises(ValueError, match="bytes after the DER value"):
        x509.load_der_x509_certificate(der + b"\x00")
    indefinite = b"\x30\x80" + der[4:] + b"\x00\x00"
    with pytest.raises(ValueError, match="indefinite length"):
        x509.load_der_x509_certificate(indefinite)
    with pytest.raises(ValueError, match="malformed DER"):
        x509.load_der_x509_certificate(_tlv(0x30, b"\x05\x00"))


def test_non_der_boolean_is_refused(keys: dict) -> None:
    cert = _cert("b", keys["other"], "b", keys["other"], ca=True)
    der = cert.public_bytes(Encoding.DER)
    marker = b"\x01\x01\xff"  # critical TRUE
    assert marker in der
    bad = der.replace(marker, b"\x01\x01\x01", 1)
    with pytest.raises(ValueError, match="not DER"):
        x509.load_der_x509_certificate(bad)


def test_limit_extension_count_and_size(keys: dict) -> None:
    builder = x509.CertificateBuilder()
    for i in range(extensions.MAX_EXTENSIONS):
        builder = builder.add_extension(
            x509.UnrecognizedExtension(f"1.2.3.{i}", b"\x05\x00"), False
        )
    with pytest.raises(ValueError, match="more than 64 extensions"):
        builder.add_extension(x509.UnrecognizedExtension("1.2.4", b"\x05\x00"), False)
    big = x509.UnrecognizedExtension("1.2.3", _tlv(0x04, bytes(extensions.MAX_EXTENSION_BYTES)))
    with pytest.raises(ValueError, match=r"extension 1\.2\.3 of \d+ bytes"):
        _cert("e", keys["other"], "e", keys["other"], extra=((big, False),))


def test_limit_name_size() -> None:
    attrs = [x509.NameAttribute(x509.NameOID.COMMON_NAME, "a")] * (name.MAX_NAME_ATTRIBUTES + 1)
    with pytest.raises(ValueError, match="attributes"):
        x509.Name(attrs)
    with pytest.raises(ValueError, match="characters"):
        x509.NameAttribute(x509.NameOID.COMMON_NAME, "a" * (name.MAX_VALUE_LENGTH + 1))


def test_limit_intermediates(chain: dict) -> None:
    with pytest.raises(VerificationError, match="intermediate certificates"):
        _verifier(chain).verify(chain["leaf"], [chain["mid"]] * (MAX_INTERMEDIATES + 1))
    with pytest.raises(ValueError, match="max_chain_depth"):
        PolicyBuilder().max_chain_depth(99)
