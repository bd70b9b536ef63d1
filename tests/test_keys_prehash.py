"""Keys under the pre-hash OIDs (issue 29): HashML-DSA (2.16.840.1.101.3.4.3.32-34)
and HashSLH-DSA (.35-46).

The IETF hackathon's files (tests/vectors/pqc-hackathon/README.md): every private
key loads as the pre-hash class of its OID, writes back byte for byte and is the
key of its certificate; every certificate's and CMS message's signature verifies
through the certificate's key, which signs and verifies with its OID's pre-hash
alone. Then the API on generated keys: a round trip per pre-hash OID, the binding
(a pure key does not verify a pre-hash signature, nor the reverse; a pre-hash key
refuses another pre-hash and the pure-only mu methods), wrong lengths, and the
command line.
"""

from __future__ import annotations

import copy
import hashlib
import re
from pathlib import Path
from typing import Any

import pytest
from helpers import Cli, certificate_parts, load_tarball

import pqkit
from pqkit import der
from pqkit.keys import (
    HashMLDSA44PrivateKey,
    HashMLDSA65PrivateKey,
    HashMLDSA65PublicKey,
    HashMLDSAPrivateKey,
    HashMLDSAPublicKey,
    HashSLHDSAPrivateKey,
    HashSLHDSAPublicKey,
    MLDSA65PrivateKey,
    MLDSA65PublicKey,
    MLDSAPublicKey,
    MuHasher,
    PrivateKey,
    PublicKey,
    SLHDSAPublicKey,
    private_key_class,
    public_key_class,
)
from pqkit.prehash import lookup
from pqkit.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat
from pqkit.serialization.algorithms import PREHASH_ALGORITHMS, KeyAlgorithm, by_oid
from pqkit.serialization.pem import pem_encode
from pqkit.serialization.structures import decode_private_key_info

# --- the hackathon files --------------------------------------------------------------


def _bundle() -> dict[str, bytes]:
    return load_tarball("pqc-hackathon/prehash-keys.tar.gz")


FILES = sorted(_bundle())
_OID = re.compile(r"-(2\.16\.840\.1\.101\.3\.4\.3\.\d+)_")


def _prefix(name: str) -> str:
    """``<producer>/<folder>/<friendly name>-<OID>``: what belonging files share."""
    match = _OID.search(name)
    assert match is not None, name
    return name[: match.end() - 1]


PRIVATE = [name for name in FILES if name.endswith("priv.der")]
CERTIFICATES = [name for name in FILES if name.endswith("_ta.der")]
CMS = [name for name in FILES if name.endswith("_signed_attrs.der")]
CMS_CA = "cryptonext/artifacts_cms_v3/ta.der"

# The six corey-digicert files whose publicKey field is malformed (README there):
# name prefix -> the number of unused bits its BIT STRING declares.
DEFECTIVE = {
    "corey-digicert/artifacts_certs_r5/HASH-ML-DSA-44-2.16.840.1.101.3.4.3.32": 1,
    "corey-digicert/artifacts_certs_r5/HASH-ML-DSA-87-2.16.840.1.101.3.4.3.34": 3,
}
GOOD_PRIVATE = [name for name in PRIVATE if _prefix(name) not in DEFECTIVE]
BAD_PRIVATE = [name for name in PRIVATE if name not in GOOD_PRIVATE]
SLOW_SETS = re.compile(r"-(128|192|256)s-")  # SLH-DSA "s" sets: seconds per signature


def _short(name: str) -> str:
    """A readable test id: ``cryptonext/cms/HASH-ML-DSA-44_expandedkey_priv``."""
    producer, folder, file = name.split("/")
    stem, _, kind = file.partition("_")
    place = "cms" if "cms" in folder else "certs"
    return f"{producer}/{place}/{stem.split('-2.16')[0]}_{kind.removesuffix('.der')}"


def _oid(name: str) -> str:
    match = _OID.search(name)
    assert match is not None, name
    return match.group(1)


def _signed_data(message: bytes) -> dict[str, Any]:
    """The parts of a CMS SignedData (RFC 5652 §5) with one signer and one certificate."""
    info = der.DerReader(der.read_single(message, der.SEQUENCE, "SEQUENCE", "cms"), "cms")
    assert der.decode_oid(info.expect(der.OBJECT_IDENTIFIER, "contentType"), "cms") == (
        "1.2.840.113549.1.7.2"  # id-signedData
    )
    body = der.read_single(
        info.expect(der.CONTEXT_CONSTRUCTED_0, "content"), der.SEQUENCE, "SignedData", "cms"
    )
    info.finish()
    signed = der.DerReader(body, "SignedData")
    signed.expect(der.INTEGER, "version")
    signed.expect(der.SET, "digestAlgorithms")
    signed.expect(der.SEQUENCE, "encapContentInfo")
    certificates = der.DerReader(signed.expect(der.CONTEXT_CONSTRUCTED_0, "certs"), "certs")
    certificate = der.encode_tlv(der.SEQUENCE, certificates.expect(der.SEQUENCE, "certificate"))
    certificates.finish()
    signers = der.DerReader(signed.expect(der.SET, "signerInfos"), "signerInfos")
    signed.finish()
    signer = der.DerReader(signers.expect(der.SEQUENCE, "SignerInfo"), "SignerInfo")
    signers.finish()
    signer.expect(der.INTEGER, "version")
    signer.read()  # sid
    digest = der.DerReader(signer.expect(der.SEQUENCE, "digestAlgorithm"), "digestAlgorithm")
    digest_oid = der.decode_oid(digest.expect(der.OBJECT_IDENTIFIER, "OID"), "digest")
    attributes = signer.expect(der.CONTEXT_CONSTRUCTED_0, "signedAttrs")
    algorithm = der.DerReader(signer.expect(der.SEQUENCE, "signatureAlgorithm"), "sigAlg")
    signature_oid = der.decode_oid(algorithm.expect(der.OBJECT_IDENTIFIER, "OID"), "sigAlg")
    algorithm.finish()  # parameters absent
    signature = signer.expect(der.OCTET_STRING, "signature")
    signer.finish()
    return {
        "certificate": certificate,
        "digest_oid": digest_oid,
        # RFC 5652 §5.4: the signature covers the DER of the attributes as a SET OF
        "signed": der.encode_tlv(der.SET, attributes),
        "signature_oid": signature_oid,
        "signature": signature,
    }


def _partner_certificate(private_name: str) -> bytes:
    """The certificate whose key is the private key ``private_name``."""
    prefix = _prefix(private_name)
    if "artifacts_cms_v3" in private_name:
        return _signed_data(_bundle()[prefix + "_signed_attrs.der"])["certificate"]
    return _bundle()[prefix + "_ta.der"]


def test_the_bundle_holds_what_the_issue_counts() -> None:
    # 33 public keys (18 certificates, 15 CMS signer certificates) and 45 private keys
    assert (len(CERTIFICATES), len(CMS), len(PRIVATE), len(BAD_PRIVATE)) == (18, 15, 45, 6)
    assert {_oid(name) for name in CERTIFICATES} == {alg.oid for alg in PREHASH_ALGORITHMS}
    assert {_oid(name) for name in CMS} == {alg.oid for alg in PREHASH_ALGORITHMS}


@pytest.mark.parametrize("name", GOOD_PRIVATE, ids=_short)
def test_private_key_loads_writes_back_and_is_its_certificates(name: str) -> None:
    data = _bundle()[name]
    key = pqkit.load_der_private_key(data)
    alg = by_oid(_oid(name))
    assert alg is not None and alg.prehash is not None
    assert type(key) is private_key_class(alg.name)
    assert isinstance(key, HashMLDSAPrivateKey | HashSLHDSAPrivateKey)
    info = decode_private_key_info(data)
    options: dict[str, Any] = {
        "form": info.form,
        "include_public_key": info.public_key is not None,
    }
    assert key.private_bytes(Encoding.DER, PrivateFormat.PKCS8, NoEncryption(), **options) == data
    pem = pem_encode(data, "PRIVATE KEY")
    again = pqkit.load_pem_private_key(pem)
    assert again.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption(), **options) == pem
    _, spki, _, _ = certificate_parts(_partner_certificate(name))
    assert key.public_key() == pqkit.load_der_public_key(spki)


@pytest.mark.parametrize("name", BAD_PRIVATE, ids=_short)
def test_malformed_public_key_field_is_refused(name: str) -> None:
    unused = DEFECTIVE[_prefix(name)]
    data = _bundle()[name]
    with pytest.raises(ValueError, match=f"publicKey: BIT STRING with {unused} unused bits"):
        pqkit.load_der_private_key(data)
    # Without that field (v1), the rest is the certificate's key: the defect is the field.
    fields = der.DerReader(der.read_single(data, der.SEQUENCE, "SEQUENCE", "p8"), "p8")
    assert der.decode_integer(fields.expect(der.INTEGER, "version"), "p8") == 1
    algorithm = der.encode_tlv(der.SEQUENCE, fields.expect(der.SEQUENCE, "algorithm"))
    private = der.encode_octet_string(fields.expect(der.OCTET_STRING, "privateKey"))
    tag, public_field = fields.read()
    fields.finish()
    assert tag == der.CONTEXT_1 and public_field[0] == unused
    stripped = der.encode_sequence(der.encode_integer(0), algorithm, private)
    key = pqkit.load_der_private_key(stripped)
    _, spki, _, _ = certificate_parts(_partner_certificate(name))
    certified = pqkit.load_der_public_key(spki).public_bytes_raw()
    assert key.public_key().public_bytes_raw() == certified
    # the field is the key shifted left by `unused` bits (its leading zeros dropped)
    width = 8 * len(certified)
    shifted = (int.from_bytes(certified, "big") << unused) % (1 << width)
    assert public_field[1:] == shifted.to_bytes(len(certified), "big")


def _check_public_key(spki: bytes, oid: str) -> PublicKey:
    key = pqkit.load_der_public_key(spki)
    assert key.algorithm.oid == oid and key.algorithm.prehash is not None
    assert isinstance(key, HashMLDSAPublicKey | HashSLHDSAPublicKey)
    assert key.public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo) == spki
    pem = pem_encode(spki, "PUBLIC KEY")
    assert pqkit.load_pem_public_key(pem) == key
    assert key.public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo) == pem
    return key


def _pure_twin(key: PublicKey) -> Any:
    """The public key of the same bytes under the pure OID."""
    return public_key_class(key.algorithm.parameter_set).from_public_bytes(key.public_bytes_raw())


@pytest.mark.parametrize("name", CERTIFICATES, ids=_short)
def test_certificate_signature_verifies_with_the_bound_prehash(name: str) -> None:
    tbs, spki, signature_oid, signature = certificate_parts(_bundle()[name])
    key = _check_public_key(spki, _oid(name))
    assert signature_oid == key.algorithm.oid  # self-signed trust anchor
    key.verify(signature, tbs)  # HashML-DSA / HashSLH-DSA, empty context
    with pytest.raises(pqkit.InvalidSignature):
        key.verify(signature, tbs + b"\x00")
    with pytest.raises(pqkit.InvalidSignature):  # the same bytes under the pure OID
        _pure_twin(key).verify(signature, tbs)


@pytest.mark.parametrize("name", CMS, ids=_short)
def test_cms_signature_verifies_with_the_bound_prehash(name: str) -> None:
    parts = _signed_data(_bundle()[name])
    tbs, spki, issuer_oid, certificate_signature = certificate_parts(parts["certificate"])
    key = _check_public_key(spki, _oid(name))
    assert parts["signature_oid"] == key.algorithm.oid
    prehash = key.algorithm.prehash
    assert prehash is not None
    assert parts["digest_oid"] == lookup(prehash).oid  # the digest algorithm is the pre-hash
    key.verify(parts["signature"], parts["signed"])
    with pytest.raises(pqkit.InvalidSignature):
        key.verify(parts["signature"], parts["signed"] + b"\x00")
    with pytest.raises(pqkit.InvalidSignature):
        _pure_twin(key).verify(parts["signature"], parts["signed"])
    # The signer certificate is issued by the folder's ML-DSA-44 CA (pure ML-DSA).
    _, ca_spki, _, _ = certificate_parts(_bundle()[CMS_CA])
    ca = pqkit.load_der_public_key(ca_spki)
    assert isinstance(ca, MLDSAPublicKey) and issuer_oid == ca.algorithm.oid
    ca.verify(certificate_signature, tbs)


def _signing_params() -> list[Any]:
    return [
        pytest.param(
            name, marks=[pytest.mark.slow] if SLOW_SETS.search(name) else [], id=_short(name)
        )
        for name in GOOD_PRIVATE
        # one file per key: the certificate folders hold each ML-DSA key in three forms
        if "artifacts_cms_v3" in name or not re.search(r"_(both|expandedkey)_priv", name)
    ]


@pytest.mark.parametrize("name", _signing_params())
def test_private_key_signs_for_its_certificate(name: str) -> None:
    """The hackathon's test of a signing key: sign, verify with the certificate's key.
    (SLH-DSA "s" sets take seconds to sign in Python: ``-m slow``.)"""
    key = pqkit.load_der_private_key(_bundle()[name])
    _, spki, _, _ = certificate_parts(_partner_certificate(name))
    certified = pqkit.load_der_public_key(spki)
    signature = key.sign(b"issue 29", b"ctx")  # type: ignore[attr-defined]
    certified.verify(signature, b"issue 29", b"ctx")  # type: ignore[attr-defined]
    with pytest.raises(pqkit.InvalidSignature):
        certified.verify(signature, b"issue 29")  # type: ignore[attr-defined]


# --- the API on generated keys ------------------------------------------------------------


def _algorithm_params() -> list[Any]:
    return [
        pytest.param(
            alg,
            marks=[pytest.mark.slow] if SLOW_SETS.search(alg.name + "-") else [],
            id=alg.name,
        )
        for alg in PREHASH_ALGORITHMS
    ]


def _new_key(alg: KeyAlgorithm) -> Any:
    return private_key_class(alg.name).from_seed_bytes(bytes(range(alg.seed_length)))


@pytest.mark.parametrize("alg", _algorithm_params())
def test_round_trip_per_prehash_oid(alg: KeyAlgorithm) -> None:
    """Sign and verify through the bound key, and check with the pure key's explicit
    pre-hash API (an independent hashlib digest) that the OID's pre-hash was used."""
    key = _new_key(alg)
    public = key.public_key()
    message, context = b"round trip " + alg.name.encode(), b"c"
    signature = key.sign(message, context)
    public.verify(signature, message, context)
    prehash = lookup(alg.prehash)
    hasher: Any = hashlib.new(prehash.hashlib_name, message)
    raw = hasher.digest(prehash.digest_size) if prehash.is_xof else hasher.digest()
    public.verify_prehashed(signature, raw, None, context)
    public.verify_prehashed(signature, raw, prehash.name, context)
    pure = _pure_twin(public)
    pure.verify_prehashed(signature, raw, prehash.name, context)  # explicit: allowed
    with pytest.raises(pqkit.InvalidSignature):
        pure.verify(signature, message, context)  # a pure key is not used as a pre-hash one
    with pytest.raises(pqkit.InvalidSignature):
        public.verify(signature, message + b"!", context)
    # key files: the pre-hash OID is written and read back to the same class
    for encoding in (Encoding.PEM, Encoding.DER):
        text = key.private_bytes(encoding, PrivateFormat.PKCS8, NoEncryption())
        load = (
            pqkit.load_pem_private_key if encoding is Encoding.PEM else pqkit.load_der_private_key
        )
        again = load(text)
        assert type(again) is type(key) and again.private_bytes_raw() == key.private_bytes_raw()
        spki = public.public_bytes(encoding, PublicFormat.SubjectPublicKeyInfo)
        load_public = (
            pqkit.load_pem_public_key if encoding is Encoding.PEM else pqkit.load_der_public_key
        )
        assert load_public(spki) == public
    assert der.oid_to_der(alg.oid) in key.private_bytes(
        Encoding.DER, PrivateFormat.PKCS8, NoEncryption()
    )


def test_pure_and_prehash_keys_are_different_types() -> None:
    seed = bytes(32)
    bound = HashMLDSA65PrivateKey.from_seed_bytes(seed)
    pure = MLDSA65PrivateKey.from_seed_bytes(seed)
    assert bound.public_key().public_bytes_raw() == pure.public_key().public_bytes_raw()
    assert bound.public_key() != pure.public_key()
    assert not isinstance(bound, MLDSA65PrivateKey)
    assert not isinstance(bound.public_key(), MLDSA65PublicKey)
    assert isinstance(bound.public_key(), HashMLDSA65PublicKey | MLDSAPublicKey)
    assert bound.algorithm.oid == "2.16.840.1.101.3.4.3.33"
    assert (bound.algorithm.prehash, pure.algorithm.prehash) == ("SHA2-512", None)
    assert private_key_class("HashML-DSA-65") is private_key_class("hash_ml_dsa_65_with_sha512")
    assert private_key_class("HashML-DSA-65") is HashMLDSA65PrivateKey
    with pytest.raises(TypeError, match="holds secret state"):
        copy.deepcopy(bound)
    # The pure key signs pure; the bound key signs HashML-DSA: neither verifies the other's.
    pure_signature = pure.sign(b"m", deterministic=True)
    bound_signature = bound.sign(b"m", deterministic=True)
    assert pure_signature != bound_signature
    with pytest.raises(pqkit.InvalidSignature):
        bound.public_key().verify(pure_signature, b"m")
    with pytest.raises(pqkit.InvalidSignature):
        pure.public_key().verify(bound_signature, b"m")
    # ... and the pure key's explicit sign_prehashed with SHA2-512 is the same signature.
    digest = hashlib.sha512(b"m").digest()
    assert pure.sign_prehashed(digest, "SHA2-512", deterministic=True) == bound_signature


def test_prehash_key_refuses_another_prehash_and_mu() -> None:
    key = HashMLDSA44PrivateKey.from_seed_bytes(bytes(32))
    public = key.public_key()
    digest = hashlib.sha512(b"m").digest()
    signature = key.sign_prehashed(digest, deterministic=True)
    assert key.sign_prehashed(digest, "SHA2-512", deterministic=True) == signature
    with pytest.raises(ValueError, match="bound to the pre-hash SHA2-512 by its OID"):
        key.sign_prehashed(hashlib.sha256(b"m").digest(), "SHA2-256")
    with pytest.raises(ValueError, match="bound to the pre-hash SHA2-512 by its OID"):
        public.verify_prehashed(signature, digest, "SHA3-512")
    with pytest.raises(ValueError, match="unknown prehash"):
        key.sign_prehashed(digest, "SHA-512")  # ACVP names, as the pure keys' API
    with pytest.raises(ValueError, match="mu_hasher is pure ML-DSA"):
        public.mu_hasher()
    with pytest.raises(ValueError, match="MuHasher is pure ML-DSA"):
        MuHasher(public)
    with pytest.raises(ValueError, match="sign_mu is pure ML-DSA"):
        key.sign_mu(bytes(64))
    with pytest.raises(ValueError, match="verify_mu is pure ML-DSA"):
        public.verify_mu(signature, bytes(64))
    # The one documented exception of every key that does not convert (pyca has no
    # HashML-DSA keys); ImportError where cryptography is not installed.
    exceptions = pytest.importorskip("cryptography.exceptions")
    with pytest.raises(exceptions.UnsupportedAlgorithm, match="HashML-DSA-44-with-SHA512 keys"):
        public.to_cryptography_key()


def test_slhdsa_prehash_key_refuses_another_prehash() -> None:
    alg = by_oid("2.16.840.1.101.3.4.3.42")  # HashSLH-DSA-SHAKE-128f with SHAKE128
    assert alg is not None
    key = _new_key(alg)
    with pytest.raises(ValueError, match="bound to the pre-hash SHAKE-128 by its OID"):
        key.sign_prehashed(bytes(64), "SHAKE-256")
    with pytest.raises(ValueError, match="bound to the pre-hash SHAKE-128 by its OID"):
        key.public_key().verify_prehashed(bytes(17088), bytes(64), "SHAKE-256")
    assert not isinstance(key.public_key(), type(_pure_twin(key.public_key())))
    assert isinstance(key.public_key(), SLHDSAPublicKey)


def test_wrong_lengths_and_types() -> None:
    key = HashMLDSA65PrivateKey.from_seed_bytes(bytes(32))
    public = key.public_key()
    with pytest.raises(ValueError, match="SHA2-512 digest must be 64 bytes"):
        key.sign_prehashed(bytes(32))
    with pytest.raises(ValueError, match="SHA2-512 digest must be 64 bytes"):
        public.verify_prehashed(bytes(3309), bytes(63))
    with pytest.raises(pqkit.InvalidSignature):
        public.verify(bytes(3308), b"m")
    with pytest.raises(TypeError, match="data"):
        key.sign("text")
    with pytest.raises(ValueError, match="HashML-DSA-65-with-SHA512 public key must be 1952"):
        HashMLDSA65PublicKey.from_public_bytes(bytes(1951))
    with pytest.raises(ValueError, match="HashML-DSA-65-with-SHA512 seed must be 32"):
        HashMLDSA65PrivateKey.from_seed_bytes(bytes(31))
    short = der.encode_sequence(
        der.encode_sequence(der.encode_oid(public.algorithm.oid)),
        der.encode_bit_string(public.public_bytes_raw()[:-1]),
    )
    with pytest.raises(ValueError, match="HashML-DSA-65-with-SHA512 public key must be 1952"):
        pqkit.load_der_public_key(short)
    with_parameters = der.encode_sequence(
        der.encode_sequence(der.encode_oid(public.algorithm.oid), der.encode_null()),
        der.encode_bit_string(public.public_bytes_raw()),
    )
    with pytest.raises(ValueError, match="parameters must be absent"):
        pqkit.load_der_public_key(with_parameters)
    pkcs8 = key.private_bytes(Encoding.DER, PrivateFormat.PKCS8, NoEncryption())
    bad_seed = der.encode_sequence(
        der.encode_integer(0),
        der.encode_sequence(der.encode_oid(public.algorithm.oid)),
        der.encode_octet_string(der.encode_tlv(der.CONTEXT_0, bytes(31))),
    )
    assert len(bad_seed) == len(pkcs8) - 1
    with pytest.raises(ValueError, match="HashML-DSA-65-with-SHA512 seed must be 32 bytes"):
        pqkit.load_der_private_key(bad_seed)


@pytest.mark.parametrize("form", ["seed", "expanded", "both"])
def test_include_public_key_writes_v2(form: str) -> None:
    key = HashMLDSA44PrivateKey.from_seed_bytes(bytes(range(32)))
    v2 = key.private_bytes(
        Encoding.DER, PrivateFormat.PKCS8, NoEncryption(), form=form, include_public_key=True
    )
    info = decode_private_key_info(v2)
    assert info.form == form and info.public_key == key.public_key().public_bytes_raw()
    fields = der.DerReader(der.read_single(v2, der.SEQUENCE, "SEQUENCE", "v2"), "v2")
    assert der.decode_integer(fields.expect(der.INTEGER, "version"), "v2") == 1  # v2
    again: PrivateKey = pqkit.load_der_private_key(v2)
    assert again.public_key() == key.public_key()
    v1 = key.private_bytes(Encoding.DER, PrivateFormat.PKCS8, NoEncryption(), form=form)
    assert decode_private_key_info(v1).public_key is None and len(v2) > len(v1)
    with pytest.raises(TypeError, match="include_public_key must be bool"):
        key.private_bytes(
            Encoding.DER,
            PrivateFormat.PKCS8,
            NoEncryption(),
            include_public_key=1,  # type: ignore[arg-type]
        )
    with pytest.raises(ValueError, match="Raw format is the seed alone"):
        key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption(), include_public_key=True)


# --- the command line ------------------------------------------------------------------------


def test_cli_show_sign_verify_with_hackathon_files(cli: Cli) -> None:
    name = "cryptonext/artifacts_certs_r5/HASH-ML-DSA-65-2.16.840.1.101.3.4.3.33"
    Path("k.der").write_bytes(_bundle()[name + "_both_priv.der"])
    Path("k.pem").write_bytes(pem_encode(_bundle()[name + "_seed_priv.der"], "PRIVATE KEY"))
    _, spki, _, _ = certificate_parts(_bundle()[name + "_ta.der"])
    Path("p.pem").write_bytes(pem_encode(spki, "PUBLIC KEY"))
    Path("p.der").write_bytes(spki)
    for key_file, form in (("k.der", "both"), ("k.pem", "seed")):
        out = cli.ok("show", key_file).decode()
        assert "HashML-DSA-65-with-SHA512 (OID 2.16.840.1.101.3.4.3.33)" in out
        assert "pre-hash:     SHA2-512, bound by the OID" in out and f"form:         {form}" in out
    assert "pre-hash:     SHA2-512" in cli.ok("show", "p.der").decode()
    Path("msg").write_bytes(b"a message" * 1000)
    cli.ok("sign", "k.der", "msg", "-o", "s.bin", "--context", "c0ffee")
    assert b"signature valid" in cli.ok("verify", "p.pem", "msg", "s.bin", "--context", "c0ffee")
    assert b"valid" in cli.ok("verify", "p.der", "msg", "s.bin", "--context", "c0ffee")
    assert b"valid" in cli.ok(
        "verify", "k.pem", "msg", "s.bin", "--context", "c0ffee", "--prehash", "sha512"
    )
    # the signature is HashML-DSA with SHA-512, as the API's bound key makes it
    key = pqkit.load_der_public_key(spki)
    key.verify(Path("s.bin").read_bytes(), Path("msg").read_bytes(), bytes.fromhex("c0ffee"))  # type: ignore[attr-defined]
    cli.fails("sign", "k.der", "msg", "-o", "t.bin", "--prehash", "SHA2-256", match="bound to")
    cli.fails("verify", "p.pem", "msg", "s.bin", "--prehash", "SHAKE-256", match="bound to")
    assert not Path("t.bin").exists()
    # the same key under the pure OID does not accept the pre-hash signature (exit 1)
    Path("pure.pem").write_bytes(
        _pure_twin(key).public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo)
    )
    assert cli.run("verify", "pure.pem", "msg", "s.bin", "--context", "c0ffee")[0] == 1
    # conversion keeps the OID
    cli.ok("show", "k.der", "-o", "k2.pem", "--form", "expanded")
    assert type(pqkit.load_pem_private_key(Path("k2.pem").read_bytes())) is private_key_class(
        "HashML-DSA-65"
    )


def test_cli_keygen_and_list(cli: Cli) -> None:
    cli.ok("keygen", "HashSLH-DSA-SHA2-128f", "-o", "k.pem", "--pub", "p.pem")
    out = cli.ok("show", "k.pem").decode()
    assert "HashSLH-DSA-SHA2-128f-with-SHA256 (OID 2.16.840.1.101.3.4.3.36)" in out
    Path("msg").write_bytes(b"m")
    cli.ok("sign", "k.pem", "msg", "-o", "s.bin")
    assert b"valid" in cli.ok("verify", "p.pem", "msg", "s.bin")
    public = pqkit.load_pem_public_key(Path("p.pem").read_bytes())
    public.verify_prehashed(  # type: ignore[attr-defined]
        Path("s.bin").read_bytes(), hashlib.sha256(b"m").digest(), "SHA2-256"
    )
    listing = cli.ok("list").decode()
    for alg in PREHASH_ALGORITHMS:
        assert re.search(rf"^{re.escape(alg.name)} +SIG +{re.escape(alg.oid)} ", listing, re.M)
