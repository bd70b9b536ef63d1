"""pqkit key objects to and from pyca/cryptography key objects, and pyca's X.509
builders signing with a pqkit key (issue 14 item 13)."""

from __future__ import annotations

import datetime
import sys
from typing import Any

import pytest
from pyca_features import VERSION, pyca_module

import pqkit
from pqkit.keys import PrivateKey, PublicKey, private_key_class
from pqkit.keys.pyca import convertible, from_cryptography_key, pyca_class, to_cryptography_key

mlkem = pyca_module("mlkem")
mldsa = pyca_module("mldsa")
exceptions = pytest.importorskip("cryptography.exceptions")

# every parameter set that converts with this cryptography (the README's table is
# checked against it in tests/test_keys_pyca_list.py)
CONVERTIBLE = list(convertible())


@pytest.mark.parametrize("name", CONVERTIBLE)
def test_private_key_round_trip(name: str) -> None:
    key = private_key_class(name).generate()
    theirs = key.to_cryptography_key()
    assert type(theirs).__name__.startswith(name.replace("-", ""))
    assert theirs.private_bytes_raw() == key.private_bytes_raw()
    assert theirs.public_key().public_bytes_raw() == key.public_key().public_bytes_raw()
    back = type(key).from_cryptography_key(theirs)
    assert type(back) is type(key)
    assert back.private_bytes_expanded() == key.private_bytes_expanded()
    # the family and the root base classes dispatch on pyca's class
    assert PrivateKey.from_cryptography_key(theirs).private_bytes_raw() == key.private_bytes_raw()
    assert type(from_cryptography_key(theirs)) is type(key)


@pytest.mark.parametrize("name", CONVERTIBLE)
def test_public_key_round_trip(name: str) -> None:
    public = private_key_class(name).generate().public_key()
    theirs = public.to_cryptography_key()
    assert theirs.public_bytes_raw() == public.public_bytes_raw()
    assert type(public).from_cryptography_key(theirs) == public
    assert PublicKey.from_cryptography_key(theirs) == public
    assert to_cryptography_key(public).public_bytes_raw() == public.public_bytes_raw()


@pytest.mark.parametrize("name", [n for n in CONVERTIBLE if n.startswith("ML-DSA")])
def test_converted_keys_sign_for_each_other(name: str) -> None:
    key = private_key_class(name).generate()
    theirs = key.to_cryptography_key()
    signature = theirs.sign(b"data", b"ctx")
    key.public_key().verify(signature, b"data", b"ctx")  # type: ignore[attr-defined]
    theirs.public_key().verify(key.sign(b"data", b"ctx"), b"data", b"ctx")  # type: ignore[attr-defined]


def test_mlkem_converted_keys_decapsulate() -> None:
    key = pqkit.MLKEM768PrivateKey.generate()
    theirs = key.to_cryptography_key()
    shared, ciphertext = theirs.public_key().encapsulate()
    assert key.decapsulate(ciphertext) == shared
    shared, ciphertext = key.public_key().encapsulate()
    assert theirs.decapsulate(ciphertext) == shared


def test_mlkem512_is_a_clear_error() -> None:
    key = pqkit.MLKEM512PrivateKey.generate()
    if hasattr(mlkem, "MLKEM512PrivateKey"):  # pragma: no cover - no release has it yet
        pytest.skip(f"cryptography {VERSION} has ML-KEM-512")
    for convert in (key.to_cryptography_key, key.public_key().to_cryptography_key):
        with pytest.raises(exceptions.UnsupportedAlgorithm, match="ML-KEM-512 keys do not") as info:
            convert()
        assert "ML-KEM-768" in str(info.value) and VERSION in str(info.value)


def test_expanded_only_key_cannot_go_to_pyca() -> None:
    key = pqkit.MLDSA65PrivateKey.generate()
    expanded = pqkit.MLDSA65PrivateKey.from_expanded_bytes(key.private_bytes_expanded())
    with pytest.raises(ValueError, match="no seed"):
        expanded.to_cryptography_key()
    # its public key converts
    assert expanded.public_key().to_cryptography_key().public_bytes_raw() == (
        key.public_key().public_bytes_raw()
    )


def test_wrong_objects_are_type_errors() -> None:
    theirs = mldsa.MLDSA65PrivateKey.generate()
    with pytest.raises(TypeError, match="converts to MLDSA65PrivateKey"):
        pqkit.MLDSA44PrivateKey.from_cryptography_key(theirs)
    with pytest.raises(TypeError, match="converts to MLDSA65PrivateKey"):
        pqkit.MLDSA65PublicKey.from_cryptography_key(theirs)
    with pytest.raises(TypeError, match="pyca/cryptography ML-KEM or ML-DSA key"):
        from_cryptography_key(b"not a key")
    from cryptography.hazmat.primitives.asymmetric import ed25519

    with pytest.raises(TypeError, match="Ed25519PrivateKey"):
        PrivateKey.from_cryptography_key(ed25519.Ed25519PrivateKey.generate())
    with pytest.raises(TypeError, match="pqkit key object"):
        to_cryptography_key(theirs)


def test_pyca_class_argument_checks() -> None:
    assert pyca_class("ML-DSA-65", "Public") is mldsa.MLDSA65PublicKey
    with pytest.raises(exceptions.UnsupportedAlgorithm, match="Dilithium3 keys do not convert"):
        pyca_class("Dilithium3", "Private")
    with pytest.raises(ValueError, match="kind"):
        pyca_class("ML-DSA-65", "Secret")


def test_without_cryptography_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    key = pqkit.MLDSA65PrivateKey.generate()
    monkeypatch.setitem(sys.modules, "cryptography", None)
    with pytest.raises(pqkit.MissingExtra, match=r'pip install "pqkit\[openssl\]"') as info:
        key.to_cryptography_key()
    assert isinstance(info.value, ImportError) and info.value.extra == "openssl"
    with pytest.raises(pqkit.MissingExtra, match=r'pip install "pqkit\[openssl\]"'):
        from_cryptography_key(object())


# --- X.509: pyca's builders sign with a pqkit key ---------------------------------------


def _name(common_name: str) -> Any:
    from cryptography import x509
    from cryptography.x509.oid import NameOID

    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


@pytest.fixture(scope="module")
def x509_signs_mldsa() -> None:
    """Skip unless pyca's X.509 builders sign with its own ML-DSA keys (48 does not)."""
    from cryptography import x509

    builder = x509.CertificateSigningRequestBuilder().subject_name(_name("probe"))
    try:
        builder.sign(mldsa.MLDSA65PrivateKey.generate(), None)
    except (TypeError, exceptions.UnsupportedAlgorithm) as exc:
        pytest.skip(f"cryptography {VERSION}'s X.509 builders do not sign with ML-DSA: {exc}")


@pytest.mark.usefixtures("x509_signs_mldsa")
def test_mldsa65_self_signed_certificate() -> None:
    from cryptography import x509

    key = pqkit.MLDSA65PrivateKey.generate()
    theirs = key.to_cryptography_key()
    now = datetime.datetime.now(datetime.timezone.utc)
    name = _name("pqkit ML-DSA-65 test")
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key().to_cryptography_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now)
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(theirs, None)
    )
    assert certificate.signature_algorithm_oid.dotted_string == key.algorithm.oid
    certificate.verify_directly_issued_by(certificate)  # pyca checks the signature
    # the certificate's key is ours, and pqkit accepts pyca's signature over the TBS
    assert pqkit.MLDSA65PublicKey.from_cryptography_key(certificate.public_key()) == (
        key.public_key()
    )
    key.public_key().verify(certificate.signature, certificate.tbs_certificate_bytes)
    with pytest.raises(pqkit.InvalidSignature):
        key.public_key().verify(certificate.signature, certificate.tbs_certificate_bytes + b"x")


@pytest.mark.usefixtures("x509_signs_mldsa")
def test_mldsa65_certificate_signing_request() -> None:
    from cryptography import x509

    key = pqkit.MLDSA65PrivateKey.generate()
    request = (
        x509.CertificateSigningRequestBuilder()
        .subject_name(_name("pqkit CSR"))
        .sign(key.to_cryptography_key(), None)
    )
    assert request.is_signature_valid
    assert pqkit.MLDSA65PublicKey.from_cryptography_key(request.public_key()) == key.public_key()
    key.public_key().verify(request.signature, request.tbs_certrequest_bytes)
    other = pqkit.MLDSA65PrivateKey.generate().public_key()
    with pytest.raises(pqkit.InvalidSignature):
        other.verify(request.signature, request.tbs_certrequest_bytes)
