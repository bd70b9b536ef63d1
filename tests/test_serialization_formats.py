"""PEM, SubjectPublicKeyInfo, PKCS#8 and PBES2 structures, with no scheme involved.

The LAMPS example files (RFC 9935 / RFC 9881) are parsed and re-encoded at the
structure level; malformed variants of them must give a ValueError naming the
defect. Tests that need ML-KEM / ML-DSA themselves are in test_keys*.py.
"""

from __future__ import annotations

import gzip
import hashlib
from typing import Any

import pytest
from helpers import VECTORS, load_json
from hypothesis import given
from hypothesis import strategies as st

import pqkit
from pqkit import der
from pqkit.serialization import algorithms, pbes2
from pqkit.serialization.pem import pem_decode, pem_encode
from pqkit.serialization.structures import (
    decode_private_key_info,
    decode_spki,
    encode_private_key_info,
    encode_spki,
)

MANIFEST: list[dict[str, Any]] = load_json("lamps/manifest.json")["files"]
PRIVATE = [entry for entry in MANIFEST if entry["kind"] == "private_key_pkcs8"]
PUBLIC = [entry for entry in MANIFEST if entry["kind"] == "public_key_spki"]
CERTS = [entry for entry in MANIFEST if entry["kind"] == "certificate"]
LABELS = {
    "private_key_pkcs8": "PRIVATE KEY",
    "public_key_spki": "PUBLIC KEY",
    "certificate": "CERTIFICATE",
}


def lamps(path: str) -> bytes:
    """The bytes of shared/vectors/lamps/<path> (stored gzipped in tests/vectors/lamps)."""
    return gzip.decompress((VECTORS / "lamps" / f"{path}.gz").read_bytes())


def ids(entries: list[dict[str, Any]]) -> list[str]:
    return [entry["file"].split("/")[1] for entry in entries]


def certificate_spki(cert: bytes) -> bytes:
    """The DER SubjectPublicKeyInfo inside an X.509 certificate (RFC 5280 §4.1)."""
    tbs = der.DerReader(der.read_single(cert, der.SEQUENCE, "SEQUENCE", "cert"), "cert")
    fields = der.DerReader(tbs.expect(der.SEQUENCE, "tbsCertificate"), "tbs")
    if fields.peek_tag() == der.CONTEXT_CONSTRUCTED_0:  # version
        fields.read()
    for _field in ("serialNumber", "signature", "issuer", "validity", "subject"):
        fields.read()
    body = fields.expect(der.SEQUENCE, "subjectPublicKeyInfo")
    return der.encode_tlv(der.SEQUENCE, body)


SEED_768 = lamps("ML-KEM/ML-KEM-768-seed.priv.der")
PUB_768 = lamps("ML-KEM/ML-KEM-768.pub.der")


# --- the LAMPS files at the structure level -------------------------------------------


@pytest.mark.parametrize("entry", MANIFEST, ids=ids(MANIFEST))
def test_manifest_and_pem_twin(entry: dict[str, Any]) -> None:
    pem = lamps(entry["file"])
    body = lamps(entry["der_file"])
    assert hashlib.sha256(body).hexdigest() == entry["der_sha256"]
    assert len(body) == entry["der_length"]
    label, decoded = pem_decode(pem, (LABELS[entry["kind"]],))
    assert decoded == body
    # pqkit writes the same PEM (the bad files lack only the final newline)
    assert pem_encode(body, label).rstrip(b"\n") == pem.rstrip(b"\n")


@pytest.mark.parametrize("entry", PRIVATE, ids=ids(PRIVATE))
def test_private_key_structure(entry: dict[str, Any]) -> None:
    body = lamps(entry["der_file"])
    info = decode_private_key_info(body)
    assert info.algorithm.name == entry["algorithm"]
    assert info.algorithm.oid == entry["oid"]
    assert {"seed": "seed", "expanded": "expandedKey", "both": "both"}[info.form] == entry["form"]
    assert info.public_key is None
    if info.form == "seed":
        assert info.seed == bytes.fromhex(entry["seed_hex"])
    # re-encoding the parsed structure gives the file byte for byte
    assert encode_private_key_info(info.algorithm, info.form, info.seed, info.expanded) == body


@pytest.mark.parametrize("entry", PUBLIC, ids=ids(PUBLIC))
def test_public_key_structure(entry: dict[str, Any]) -> None:
    body = lamps(entry["der_file"])
    alg, key = decode_spki(body)
    assert alg.name == entry["algorithm"] and alg.oid == entry["oid"]
    assert len(key) == alg.public_key_length
    assert encode_spki(alg, key) == body


@pytest.mark.parametrize("entry", CERTS, ids=ids(CERTS))
def test_certificate_holds_the_public_key(entry: dict[str, Any]) -> None:
    spki = certificate_spki(lamps(entry["der_file"]))
    assert spki == lamps(entry["subject_public_key_matches"] + ".der")


def test_algorithm_table() -> None:
    assert [alg.name for alg in algorithms.ALGORITHMS if not alg.composite] == [
        "ML-KEM-512", "ML-KEM-768", "ML-KEM-1024", "ML-DSA-44", "ML-DSA-65", "ML-DSA-87",
        *(f"SLH-DSA-{h}-{s}" for h in ("SHA2", "SHAKE")
          for s in ("128s", "128f", "192s", "192f", "256s", "256f")),
        *(f"{v}FrodoKEM-{n}-{g}" for v in ("", "e") for n in (976, 1344)
          for g in ("AES", "SHAKE")),
    ]  # fmt: skip
    oids = {entry["algorithm"]: entry["oid"] for entry in MANIFEST}
    for alg in algorithms.ALGORITHMS:
        if alg.family == "ML-KEM" or alg.family == "ML-DSA":  # others: their own tests
            assert alg.oid == oids[alg.name]
        assert algorithms.by_oid(alg.oid) is alg
        assert algorithms.by_name(alg.name.lower().replace("-", "")) is alg
    assert algorithms.by_oid("1.2.840.113549.1.1.1") is None


# --- malformed input: ValueError naming the defect ----------------------------------------


def _with_oid(body: bytes, old: str, new: str) -> bytes:
    return body.replace(der.oid_to_der(old), der.oid_to_der(new))


def _pkcs8(version: int, alg_id: bytes, private_key: bytes, *tail: bytes) -> bytes:
    return der.encode_sequence(
        der.encode_integer(version), alg_id, der.encode_octet_string(private_key), *tail
    )


ALG_768 = der.encode_sequence(der.encode_oid("2.16.840.1.101.3.4.4.2"))
SEED = bytes(range(64))

BAD_PRIVATE = {
    "trailing bytes": (SEED_768 + b"\x00", "trailing"),
    "unknown OID": (
        _with_oid(SEED_768, "2.16.840.1.101.3.4.4.2", "2.16.840.1.101.3.4.4.9"),
        "unsupported algorithm OID 2.16.840.1.101.3.4.4.9",
    ),
    "RSA OID": (
        _pkcs8(
            0,
            der.encode_sequence(der.encode_oid("1.2.840.113549.1.1.1"), der.encode_null()),
            b"\x80\x40" + SEED,
        ),
        "unsupported algorithm OID 1.2.840.113549.1.1.1",
    ),
    "parameters present": (
        _pkcs8(
            0,
            der.encode_sequence(der.encode_oid("2.16.840.1.101.3.4.4.2"), der.encode_null()),
            b"\x80\x40" + SEED,
        ),
        "parameters must be absent",
    ),
    "short seed": (_pkcs8(0, ALG_768, b"\x80\x3f" + SEED[:63]), "seed must be 64 bytes, got 63"),
    "ML-DSA seed size": (_pkcs8(0, ALG_768, b"\x80\x20" + SEED[:32]), "seed must be 64 bytes"),
    "short expandedKey": (
        _pkcs8(0, ALG_768, der.encode_octet_string(bytes(2399))),
        "expandedKey must be 2400 bytes, got 2399",
    ),
    "constructed [0] seed": (
        _pkcs8(0, ALG_768, der.encode_tlv(0xA0, der.encode_octet_string(SEED))),
        "unknown CHOICE tag 0xa0",
    ),
    "bare seed OCTET STRING of 64 bytes": (
        _pkcs8(0, ALG_768, der.encode_octet_string(SEED)),
        "expandedKey must be 2400 bytes, got 64",
    ),
    "both with [0] seed": (
        _pkcs8(
            0,
            ALG_768,
            der.encode_sequence(der.encode_tlv(0x80, SEED), der.encode_octet_string(bytes(2400))),
        ),
        "expected seed OCTET STRING",
    ),
    "both with extra element": (
        _pkcs8(
            0,
            ALG_768,
            der.encode_sequence(
                der.encode_octet_string(SEED),
                der.encode_octet_string(bytes(2400)),
                der.encode_null(),
            ),
        ),
        "trailing",
    ),
    "bytes after the CHOICE": (_pkcs8(0, ALG_768, b"\x80\x40" + SEED + b"\x00"), "trailing"),
    "version 2": (_pkcs8(2, ALG_768, b"\x80\x40" + SEED), "unsupported version 2"),
    "publicKey in v1": (
        _pkcs8(0, ALG_768, b"\x80\x40" + SEED, der.encode_tlv(0x81, b"\x00" + bytes(1184))),
        "needs version v2",
    ),
    "publicKey of wrong length": (
        _pkcs8(1, ALG_768, b"\x80\x40" + SEED, der.encode_tlv(0x81, b"\x00" + bytes(1183))),
        "publicKey must be 1184 bytes",
    ),
    "unknown trailing field": (
        _pkcs8(0, ALG_768, b"\x80\x40" + SEED, der.encode_tlv(0x82, b"")),
        "trailing",
    ),
    "non-minimal length": (
        b"\x30\x81\x54" + SEED_768[2:],
        "non-minimal DER length",
    ),
    "indefinite length": (b"\x30\x80" + SEED_768[2:] + b"\x00\x00", "indefinite"),
    "not a SEQUENCE": (b"\x31" + SEED_768[1:], "expected SEQUENCE"),
}


@pytest.mark.parametrize(("data", "message"), BAD_PRIVATE.values(), ids=list(BAD_PRIVATE))
def test_malformed_private_key(data: bytes, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pqkit.load_der_private_key(data)
    with pytest.raises(ValueError, match=message):
        pqkit.load_pem_private_key(pem_encode(data, "PRIVATE KEY"))


def test_every_truncation_of_a_private_key_is_refused() -> None:
    for n in range(len(SEED_768)):  # n = 0: "empty key data"
        with pytest.raises(ValueError, match=r"truncated|expected|trailing|^empty key data"):
            pqkit.load_der_private_key(SEED_768[:n])


def test_every_truncation_of_a_public_key_is_refused() -> None:
    for n in range(0, len(PUB_768), 7):  # n = 0: "empty key data"
        with pytest.raises(ValueError, match=r"truncated|expected|trailing|^empty key data"):
            pqkit.load_der_public_key(PUB_768[:n])


BAD_PUBLIC = {
    "trailing bytes": (PUB_768 + b"\x00", "trailing"),
    "unknown OID": (
        _with_oid(PUB_768, "2.16.840.1.101.3.4.4.2", "2.16.840.1.101.3.4.3.99"),
        "unsupported algorithm OID 2.16.840.1.101.3.4.3.99",
    ),
    "wrong length for the OID": (
        _with_oid(PUB_768, "2.16.840.1.101.3.4.4.2", "2.16.840.1.101.3.4.4.3"),
        "ML-KEM-1024 public key must be 1568 bytes, got 1184",
    ),
    "unused bits": (
        der.encode_sequence(ALG_768, der.encode_tlv(der.BIT_STRING, b"\x01" + bytes(1184))),
        "unused bits",
    ),
    "OCTET STRING key": (
        der.encode_sequence(ALG_768, der.encode_octet_string(bytes(1184))),
        "expected subjectPublicKey",
    ),
    "parameters present": (
        der.encode_sequence(
            der.encode_sequence(der.encode_oid("2.16.840.1.101.3.4.4.2"), der.encode_null()),
            der.encode_bit_string(bytes(1184)),
        ),
        "parameters must be absent",
    ),
}


@pytest.mark.parametrize(("data", "message"), BAD_PUBLIC.values(), ids=list(BAD_PUBLIC))
def test_malformed_public_key(data: bytes, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pqkit.load_der_public_key(data)
    with pytest.raises(ValueError, match=message):
        pqkit.load_pem_public_key(pem_encode(data, "PUBLIC KEY"))


def test_pem_errors() -> None:
    private_pem = pem_encode(SEED_768, "PRIVATE KEY")
    public_pem = pem_encode(PUB_768, "PUBLIC KEY")
    with pytest.raises(ValueError, match="wrong PEM label 'PUBLIC KEY'"):
        pqkit.load_pem_private_key(public_pem)
    with pytest.raises(ValueError, match="wrong PEM label 'PRIVATE KEY'"):
        pqkit.load_pem_public_key(private_pem)
    with pytest.raises(ValueError, match="wrong PEM label 'CERTIFICATE'"):
        pqkit.load_pem_public_key(lamps("ML-DSA/ML-DSA-44.crt"))
    with pytest.raises(ValueError, match="no PEM block"):
        pqkit.load_pem_public_key(PUB_768)
    with pytest.raises(ValueError, match="no matching END"):
        pqkit.load_pem_public_key(public_pem.replace(b"-----END PUBLIC KEY-----", b""))
    with pytest.raises(ValueError, match="invalid base64"):
        pqkit.load_pem_public_key(public_pem.replace(b"MII", b"M!I", 1))
    with pytest.raises(ValueError, match="does not match its contents"):
        pqkit.load_pem_private_key(pem_encode(SEED_768, "ENCRYPTED PRIVATE KEY"))
    with pytest.raises(ValueError, match="empty"):
        pqkit.load_pem_public_key(b"-----BEGIN PUBLIC KEY-----\n-----END PUBLIC KEY-----\n")


def test_pem_reader_tolerates_text_and_line_ends() -> None:
    pem = pem_encode(PUB_768, "PUBLIC KEY")
    assert pem_decode(b"explanatory text\n" + pem, ("PUBLIC KEY",))[1] == PUB_768
    assert pem_decode(pem.replace(b"\n", b"\r\n"), ("PUBLIC KEY",))[1] == PUB_768
    assert pem_decode(pem.rstrip(b"\n"), ("PUBLIC KEY",))[1] == PUB_768


def test_wrong_types() -> None:
    with pytest.raises(TypeError, match="bytes-like"):
        pqkit.load_der_private_key("MDQCAQAw")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="str"):
        pqkit.load_der_private_key(SEED_768, "password")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="bytes-like"):
        pqkit.load_pem_public_key(None)  # type: ignore[arg-type]


LOADERS = [
    pqkit.load_der_private_key,
    pqkit.load_pem_private_key,
    pqkit.load_der_public_key,
    pqkit.load_pem_public_key,
]


@given(st.binary(max_size=400), st.sampled_from(LOADERS))
def test_random_bytes_raise_only_value_or_type_error(data: bytes, loader: Any) -> None:
    with pytest.raises((ValueError, TypeError)):
        loader(data)


@given(st.binary(max_size=200), st.sampled_from(LOADERS))
def test_random_pem_bodies_raise_only_value_or_type_error(body: bytes, loader: Any) -> None:
    for label in ("PRIVATE KEY", "ENCRYPTED PRIVATE KEY", "PUBLIC KEY"):
        with pytest.raises((ValueError, TypeError)):
            loader(pem_encode(body, label))


# --- PBES2 ------------------------------------------------------------------------------------

needs_cryptography = pytest.mark.skipif(
    not pbes2.is_available(), reason="PBES2 needs the cryptography package"
)


@needs_cryptography
def test_pbes2_round_trip_and_structure() -> None:
    blob = pbes2.encrypt(SEED_768, b"correct horse", iterations=1000)
    assert pbes2.decrypt(blob, b"correct horse") == SEED_768
    outer = der.DerReader(der.read_single(blob, der.SEQUENCE, "SEQUENCE", "t"), "t")
    alg = der.DerReader(outer.expect(der.SEQUENCE, "AlgorithmIdentifier"), "t")
    assert der.decode_oid(alg.expect(der.OBJECT_IDENTIFIER, "OID"), "t") == pbes2.ID_PBES2
    assert der.oid_to_der("2.16.840.1.101.3.4.1.42") in blob  # AES-256-CBC
    assert der.oid_to_der("1.2.840.113549.2.9") in blob  # hmacWithSHA256
    assert len(outer.expect(der.OCTET_STRING, "encryptedData")) == 96  # 86 bytes + padding
    # salt and IV are fresh each time
    assert pbes2.encrypt(SEED_768, b"correct horse", iterations=1000) != blob


def _pbes2_blob(
    *,
    iterations: int = 1000,
    cipher: str = "2.16.840.1.101.3.4.1.42",
    prf: str = "1.2.840.113549.2.9",
    iv: bytes = bytes(16),
    ciphertext: bytes = bytes(96),
) -> bytes:
    seq = der.encode_sequence
    kdf = seq(
        der.encode_oid(pbes2.ID_PBKDF2),
        seq(der.encode_octet_string(bytes(16)), der.encode_integer(iterations),
            seq(der.encode_oid(prf), der.encode_null())),
    )  # fmt: skip
    scheme = seq(kdf, seq(der.encode_oid(cipher), der.encode_octet_string(iv)))
    return seq(seq(der.encode_oid(pbes2.ID_PBES2), scheme), der.encode_octet_string(ciphertext))


@needs_cryptography
def test_pbes2_wrong_password_and_tampering() -> None:
    blob = pbes2.encrypt(SEED_768, b"correct horse", iterations=1000)
    with pytest.raises(ValueError, match="wrong password"):
        pqkit.load_der_private_key(blob, b"wrong horse")
    tampered = blob[:-1] + bytes([blob[-1] ^ 1])
    with pytest.raises(ValueError, match="wrong password or corrupted"):
        pqkit.load_der_private_key(tampered, b"correct horse")
    with pytest.raises(TypeError, match="encrypted: a password is needed"):
        pqkit.load_der_private_key(blob)
    with pytest.raises(TypeError, match="not encrypted"):
        pqkit.load_der_private_key(SEED_768, b"correct horse")
    with pytest.raises(ValueError, match="iteration count 2147483647 out of range"):
        pbes2.decrypt(_pbes2_blob(iterations=2**31 - 1), b"x")
    with pytest.raises(ValueError, match=r"unsupported cipher 2.16.840.1.101.3.4.1.46"):
        pbes2.decrypt(_pbes2_blob(cipher="2.16.840.1.101.3.4.1.46"), b"x")
    with pytest.raises(ValueError, match=r"unsupported PBKDF2 PRF 1.2.840.113549.2.5"):
        pbes2.decrypt(_pbes2_blob(prf="1.2.840.113549.2.5"), b"x")
    with pytest.raises(ValueError, match="IV must be 16 bytes"):
        pbes2.decrypt(_pbes2_blob(iv=bytes(8)), b"x")
    with pytest.raises(ValueError, match="whole number of AES blocks"):
        pbes2.decrypt(_pbes2_blob(ciphertext=bytes(17)), b"x")
    with pytest.raises(ValueError, match="unsupported encryption scheme"):
        pbes2.decrypt(_with_oid(blob, pbes2.ID_PBES2, "1.2.840.113549.1.5.3"), b"x")
    with pytest.raises(ValueError, match="truncated"):
        pbes2.decrypt(blob[:-20], b"correct horse")


@needs_cryptography
def test_pbes2_reads_what_cryptography_writes() -> None:
    from pyca_features import pyca_module

    mlkem = pyca_module("mlkem")
    serialization = pytest.importorskip("cryptography.hazmat.primitives.serialization")
    key = mlkem.MLKEM768PrivateKey.from_seed_bytes(SEED)
    plain = key.private_bytes(
        serialization.Encoding.DER, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )  # fmt: skip
    assert plain == SEED_768
    blob = key.private_bytes(
        serialization.Encoding.DER, serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(b"pw"),
    )  # fmt: skip
    assert pbes2.decrypt(blob, b"pw") == SEED_768


@needs_cryptography
def test_cryptography_reads_what_pbes2_writes() -> None:
    from pyca_features import pyca_module

    pyca_module("mlkem")  # the encrypted key inside is an ML-KEM-768 key
    serialization = pytest.importorskip("cryptography.hazmat.primitives.serialization")
    blob = pbes2.encrypt(SEED_768, b"pw", iterations=1000)
    key = serialization.load_der_private_key(blob, b"pw")
    assert key.private_bytes_raw() == SEED  # type: ignore[union-attr]
