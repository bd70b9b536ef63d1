"""The LAMPS example keys (RFC 9935 / RFC 9881) through the key objects and loaders.

Good keys load in every form and give the published public keys and the keys in
the certificates; a seed-form key re-encodes byte for byte; the inconsistent keys
are rejected by the check the manifest names; the certificates' ML-DSA signatures
verify under their issuers' keys.
"""

from __future__ import annotations

import gzip
from typing import Any

import pytest
from helpers import VECTORS, certificate_parts, load_json

import pqkit
from pqkit.keys import MLDSAPublicKey, PrivateKey
from pqkit.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat

MANIFEST: list[dict[str, Any]] = load_json("lamps/manifest.json")["files"]
GOOD = [e for e in MANIFEST if e["kind"] == "private_key_pkcs8" and e["expected"] == "accept"]
BAD = [e for e in MANIFEST if e["kind"] == "private_key_pkcs8" and e["expected"] == "reject"]
PUBLIC = [e for e in MANIFEST if e["kind"] == "public_key_spki"]
CERTS = [e for e in MANIFEST if e["kind"] == "certificate"]
FORMS = {"seed": "seed", "expandedKey": "expanded", "both": "both"}

# The message of the check that must catch each defect (manifest "detected_by").
CHECKS = {
    "seed consistency check": "seed consistency check",
    "pairwise consistency test": "pairwise consistency test",
    "FIPS 203 hash check (mandatory)": "FIPS 203 §7.3 hash check",
    "re-derive pk and check tr = H(pk)": "inconsistent ML-DSA-44 expanded private key",
    "re-derive t = A*s1+s2 and check t0": "inconsistent ML-DSA-44 expanded private key",
}


def lamps(path: str) -> bytes:
    return gzip.decompress((VECTORS / "lamps" / f"{path}.gz").read_bytes())


def ids(entries: list[dict[str, Any]]) -> list[str]:
    return [entry["file"].split("/")[1] for entry in entries]


def pkcs8(key: PrivateKey, encoding: Encoding, form: Any = "seed") -> bytes:
    return key.private_bytes(encoding, PrivateFormat.PKCS8, NoEncryption(), form=form)


@pytest.mark.parametrize("entry", GOOD, ids=ids(GOOD))
def test_good_key_loads_and_matches_its_public_key(entry: dict[str, Any]) -> None:
    key = pqkit.load_pem_private_key(lamps(entry["file"]))
    assert type(key).__name__ == entry["algorithm"].replace("-", "") + "PrivateKey"
    assert key.algorithm.oid == entry["oid"]
    public = pqkit.load_pem_public_key(lamps(entry["matching_public_key"]))
    assert key.public_key() == public
    assert key.public_key().public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo) == (
        lamps(entry["matching_public_key"] + ".der")
    )
    der_key = pqkit.load_der_private_key(lamps(entry["der_file"]))
    assert der_key.private_bytes_expanded() == key.private_bytes_expanded()
    form = FORMS[entry["form"]]
    # the same form re-encodes to the file, byte for byte, in PEM and in DER
    assert pkcs8(key, Encoding.PEM, form) == lamps(entry["file"])
    assert pkcs8(key, Encoding.DER, form) == lamps(entry["der_file"])
    if form == "expanded":
        with pytest.raises(ValueError, match="no seed"):
            key.private_bytes_raw()
        with pytest.raises(ValueError, match="no seed"):
            pkcs8(key, Encoding.PEM, "seed")
    else:
        assert key.private_bytes_raw() == bytes.fromhex(entry["seed_hex"])


@pytest.mark.parametrize("algorithm", ["ML-KEM-512", "ML-KEM-768", "ML-KEM-1024",
                                       "ML-DSA-44", "ML-DSA-65", "ML-DSA-87"])  # fmt: skip
def test_seed_key_writes_the_other_two_files(algorithm: str) -> None:
    folder = algorithm[:6]
    key = pqkit.load_der_private_key(lamps(f"{folder}/{algorithm}-seed.priv.der"))
    assert pkcs8(key, Encoding.PEM) == lamps(f"{folder}/{algorithm}-seed.priv")
    assert pkcs8(key, Encoding.PEM, "both") == lamps(f"{folder}/{algorithm}-both.priv")
    assert pkcs8(key, Encoding.PEM, "expanded") == lamps(f"{folder}/{algorithm}-expanded.priv")


@pytest.mark.parametrize("entry", BAD, ids=ids(BAD))
def test_inconsistent_key_is_rejected(entry: dict[str, Any]) -> None:
    message = CHECKS[entry["detected_by"]]
    with pytest.raises(ValueError, match=message):
        pqkit.load_pem_private_key(lamps(entry["file"]))
    with pytest.raises(ValueError, match=message):
        pqkit.load_der_private_key(lamps(entry["der_file"]))


@pytest.mark.parametrize("entry", PUBLIC, ids=ids(PUBLIC))
def test_public_key_loads(entry: dict[str, Any]) -> None:
    key = pqkit.load_pem_public_key(lamps(entry["file"]))
    assert key == pqkit.load_der_public_key(lamps(entry["der_file"]))
    assert key.algorithm.name == entry["algorithm"]
    assert key.public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo) == lamps(entry["file"])
    raw = key.public_bytes_raw()
    assert type(key).from_public_bytes(raw) == key


@pytest.mark.parametrize("entry", CERTS, ids=ids(CERTS))
def test_certificate_key_and_signature(entry: dict[str, Any]) -> None:
    tbs, spki, oid, signature = certificate_parts(lamps(entry["der_file"]))
    subject = pqkit.load_der_public_key(spki)
    assert subject == pqkit.load_pem_public_key(lamps(entry["subject_public_key_matches"]))
    issuer = pqkit.load_pem_public_key(lamps(entry["signed_by_public_key"]))
    assert isinstance(issuer, MLDSAPublicKey)
    assert oid == issuer.algorithm.oid
    issuer.verify(signature, tbs)  # pure ML-DSA, empty context (RFC 9881 §3)
    with pytest.raises(pqkit.InvalidSignature):
        issuer.verify(signature, tbs + b"\x00")
