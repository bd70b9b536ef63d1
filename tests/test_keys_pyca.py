"""Interoperability with pyca/cryptography: key files, ciphertexts and signatures.

Keys written by pqkit load in cryptography and the other way round, PEM and DER,
seed form, with and without a password; ciphertexts and signatures made by one
are accepted by the other. cryptography does not offer ML-KEM-512.
"""

from __future__ import annotations

from typing import Any

import pytest
from pyca_features import lacks, pyca_module

import pqkit
from pqkit.keys import MLDSAPrivateKey, MLKEMPrivateKey, private_key_class
from pqkit.serialization import (
    BestAvailableEncryption,
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)

serialization = pytest.importorskip("cryptography.hazmat.primitives.serialization")
mlkem = pyca_module("mlkem")
mldsa = pyca_module("mldsa")

PYCA = {
    "ML-KEM-768": mlkem.MLKEM768PrivateKey,
    "ML-KEM-1024": mlkem.MLKEM1024PrivateKey,
    "ML-DSA-44": mldsa.MLDSA44PrivateKey,
    "ML-DSA-65": mldsa.MLDSA65PrivateKey,
    "ML-DSA-87": mldsa.MLDSA87PrivateKey,
}
PASSWORD = b"interop password"
CASES = [
    pytest.param(name, encoding, password, id=f"{name}-{encoding}-{'pw' if password else 'plain'}")
    for name in PYCA
    for encoding in ("PEM", "DER")
    for password in (None, PASSWORD)
]


def _pqkit_loader(encoding: str) -> Any:
    return pqkit.load_pem_private_key if encoding == "PEM" else pqkit.load_der_private_key


def _pyca_loader(encoding: str) -> Any:
    if encoding == "PEM":
        return serialization.load_pem_private_key
    return serialization.load_der_private_key


@pytest.mark.parametrize(("name", "encoding", "password"), CASES)
def test_pqkit_key_loads_in_cryptography(name: str, encoding: str, password: bytes | None) -> None:
    key = private_key_class(name).generate()
    encryption: Any = (
        BestAvailableEncryption(password, iterations=1000) if password else NoEncryption()
    )
    data = key.private_bytes(Encoding[encoding], PrivateFormat.PKCS8, encryption)
    theirs = _pyca_loader(encoding)(data, password)
    assert isinstance(theirs, PYCA[name])
    assert theirs.private_bytes_raw() == key.private_bytes_raw()
    assert theirs.public_key().public_bytes_raw() == key.public_key().public_bytes_raw()
    if password is None:  # same seed, same bytes
        assert data == theirs.private_bytes(
            getattr(serialization.Encoding, encoding), serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )  # fmt: skip


@pytest.mark.parametrize(("name", "encoding", "password"), CASES)
def test_cryptography_key_loads_in_pqkit(name: str, encoding: str, password: bytes | None) -> None:
    theirs = PYCA[name].generate()
    encryption = (
        serialization.BestAvailableEncryption(password)
        if password
        else serialization.NoEncryption()
    )
    data = theirs.private_bytes(
        getattr(serialization.Encoding, encoding), serialization.PrivateFormat.PKCS8, encryption
    )
    key = _pqkit_loader(encoding)(data, password)
    assert type(key) is private_key_class(name)
    assert key.private_bytes_raw() == theirs.private_bytes_raw()
    assert key.public_key().public_bytes_raw() == theirs.public_key().public_bytes_raw()
    if password is not None:
        with pytest.raises(ValueError, match="wrong password"):
            _pqkit_loader(encoding)(data, password + b"x")


@pytest.mark.parametrize("name", list(PYCA))
@pytest.mark.parametrize("encoding", ["PEM", "DER"])
def test_public_keys_both_ways(name: str, encoding: str) -> None:
    key = private_key_class(name).generate()
    ours = key.public_key().public_bytes(Encoding[encoding], PublicFormat.SubjectPublicKeyInfo)
    load_theirs = getattr(serialization, f"load_{encoding.lower()}_public_key")
    theirs = load_theirs(ours)
    assert theirs.public_bytes_raw() == key.public_key().public_bytes_raw()
    back = theirs.public_bytes(
        getattr(serialization.Encoding, encoding), serialization.PublicFormat.SubjectPublicKeyInfo
    )
    assert back == ours
    load_ours = getattr(pqkit, f"load_{encoding.lower()}_public_key")
    assert load_ours(back) == key.public_key()


@pytest.mark.parametrize("name", ["ML-KEM-768", "ML-KEM-1024"])
def test_ciphertexts_cross(name: str) -> None:
    theirs = PYCA[name].generate()
    key = private_key_class(name).from_seed_bytes(theirs.private_bytes_raw())
    assert isinstance(key, MLKEMPrivateKey)
    shared, ct = theirs.public_key().encapsulate()
    assert key.decapsulate(ct) == shared
    shared, ct = key.public_key().encapsulate()
    assert theirs.decapsulate(ct) == shared


def _signer_pair(name: str) -> tuple[Any, MLDSAPrivateKey]:
    """A fresh cryptography ML-DSA key and the pqkit key with the same seed."""
    theirs = PYCA[name].generate()
    key = private_key_class(name).from_seed_bytes(theirs.private_bytes_raw())
    assert isinstance(key, MLDSAPrivateKey)
    return theirs, key


@pytest.mark.parametrize("name", ["ML-DSA-44", "ML-DSA-65", "ML-DSA-87"])
def test_signatures_cross(name: str) -> None:
    theirs, key = _signer_pair(name)
    message = b"interoperable message"
    for context in (None, b"some context"):
        theirs.public_key().verify(key.sign(message, context), message, context)
        key.public_key().verify(theirs.sign(message, context), message, context)
    with pytest.raises(pqkit.InvalidSignature):
        key.public_key().verify(theirs.sign(message, b"other"), message, b"ctx")


@lacks(mldsa.MLDSA65PublicKey, "verify_mu")
@pytest.mark.parametrize("name", ["ML-DSA-44", "ML-DSA-65", "ML-DSA-87"])
def test_mu_signatures_cross(name: str) -> None:
    theirs, key = _signer_pair(name)
    message = b"interoperable message"
    mu = key.public_key().mu_hasher(b"ctx")
    mu.update(message)
    digest = mu.finalize()
    theirs.public_key().verify_mu(key.sign_mu(digest), digest)
    key.public_key().verify_mu(theirs.sign_mu(digest), digest)
    theirs.public_key().verify(key.sign_mu(digest), message, b"ctx")
