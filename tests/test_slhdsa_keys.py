"""SLH-DSA key objects and RFC 9909 key files: the example key and certificate
of RFC 9909, PKCS#8 / SPKI in PEM and DER (encrypted too), the loaders'
dispatch on the OID, and the key classes' checks."""

from __future__ import annotations

import gzip
import hashlib

import pytest
from helpers import VECTORS

import pqkit
from pqkit import der
from pqkit.errors import InvalidSignature
from pqkit.keys import (
    SLHDSAPrivateKey,
    SLHDSAPublicKey,
    SLHDSASHA2_128fPrivateKey,
    SLHDSASHA2_128sPrivateKey,
    SLHDSASHA2_128sPublicKey,
    SLHDSASHAKE_128fPrivateKey,
    load_der_private_key,
    load_der_public_key,
    load_pem_private_key,
    load_pem_public_key,
    private_key_class,
)
from pqkit.serialization import (
    BestAvailableEncryption,
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)


def example(name: str) -> bytes:
    return gzip.decompress((VECTORS / "x509-slhdsa" / f"{name}.gz").read_bytes())


def test_rfc_9909_example_key_verifies_its_certificate() -> None:
    key = load_pem_private_key(example("id-slh-dsa-sha2-128s.priv"))
    assert isinstance(key, SLHDSASHA2_128sPrivateKey)
    public = load_pem_public_key(example("id-slh-dsa-sha2-128s.pub"))
    assert key.public_key() == public
    assert isinstance(public, SLHDSASHA2_128sPublicKey)
    # Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue }
    cert_pem = example("id-slh-dsa-sha2-128s.pem")
    from pqkit.serialization.pem import pem_decode

    _, cert = pem_decode(cert_pem, ("CERTIFICATE",))
    outer = der.DerReader(der.read_single(cert, der.SEQUENCE, "SEQUENCE", "cert"), "cert")
    tbs_content = outer.expect(der.SEQUENCE, "tbsCertificate")
    tbs = der.encode_tlv(der.SEQUENCE, tbs_content)
    alg = der.DerReader(outer.expect(der.SEQUENCE, "signatureAlgorithm"), "alg")
    oid = der.decode_oid(alg.expect(der.OBJECT_IDENTIFIER, "oid"), "alg")
    assert alg.at_end()  # RFC 9909 §3: parameters absent
    assert oid == "2.16.840.1.101.3.4.3.20" == pqkit.sig("SLH-DSA-SHA2-128s").oid
    signature = der.decode_bit_string(outer.expect(der.BIT_STRING, "signature"), "cert")
    outer.finish()
    assert len(signature) == 7856
    public.verify(signature, tbs)  # pure SLH-DSA, empty context (RFC 9909 §3)
    with pytest.raises(InvalidSignature):
        public.verify(signature, tbs + b"\x00")
    # The certificate's own subjectPublicKeyInfo is the example public key (self-signed).
    assert public.public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo) in cert
    # The private key re-encodes byte for byte (RFC 9909 §6: raw sk in an OCTET STRING).
    assert key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()) == example(
        "id-slh-dsa-sha2-128s.priv"
    )
    assert key.private_bytes(
        Encoding.DER, PrivateFormat.PKCS8, NoEncryption()
    ) == der.encode_sequence(
        der.encode_integer(0),
        der.encode_sequence(der.encode_oid("2.16.840.1.101.3.4.3.20")),
        der.encode_octet_string(key.private_bytes_raw()),
    )


@pytest.mark.parametrize("cls", [SLHDSASHA2_128fPrivateKey, SLHDSASHAKE_128fPrivateKey])
def test_round_trips(cls: type[SLHDSAPrivateKey]) -> None:
    key = cls.generate()
    n = cls.algorithm.seed_length // 3
    raw = key.private_bytes_raw()
    assert len(raw) == 4 * n
    assert raw == key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    assert cls.from_seed_bytes(raw[: 3 * n]).private_bytes_raw() == raw
    assert cls.from_private_bytes(raw).public_key() == key.public_key()
    for encoding, loader in (
        (Encoding.PEM, load_pem_private_key),
        (Encoding.DER, load_der_private_key),
    ):
        data = key.private_bytes(encoding, PrivateFormat.PKCS8, NoEncryption())
        assert loader(data).private_bytes_raw() == raw
        encrypted = key.private_bytes(encoding, PrivateFormat.PKCS8, BestAvailableEncryption(b"pw"))
        loaded = loader(encrypted, b"pw")
        assert type(loaded) is cls and loaded.private_bytes_raw() == raw
    pub = key.public_key()
    assert isinstance(pub, SLHDSAPublicKey)
    spki = pub.public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
    assert load_der_public_key(spki) == pub
    assert pub.public_bytes(Encoding.Raw, PublicFormat.Raw) == raw[2 * n :]
    assert private_key_class(cls.algorithm.name.lower()) is cls

    msg = b"key object message"
    sig = key.sign(msg, b"ctx")
    pub.verify(sig, msg, b"ctx")
    with pytest.raises(InvalidSignature):
        pub.verify(sig, msg)
    assert key.sign(msg, deterministic=True) == pqkit.sig(cls.algorithm.name).sign(
        raw, msg, deterministic=True
    )
    digest = hashlib.sha256(msg).digest()
    signed = key.sign_prehashed(digest, "SHA2-256", b"c", deterministic=True)
    pub.verify_prehashed(signed, digest, "SHA2-256", b"c")
    assert pqkit.sig(cls.algorithm.name).verify(pub.public_bytes_raw(), msg, signed, b"c",
                                                prehash="SHA2-256")  # fmt: skip
    with pytest.raises(InvalidSignature):
        pub.verify_prehashed(signed, digest, "SHA2-256")
    hedged = key.sign_prehashed(digest, "SHA2-256", rng=lambda k: bytes(k))
    pub.verify_prehashed(hedged, digest, "SHA2-256")


def test_bad_keys_and_arguments() -> None:
    key = SLHDSASHA2_128fPrivateKey.from_seed_bytes(bytes(48))
    raw = key.private_bytes_raw()
    with pytest.raises(ValueError, match="seed must be 48 bytes, got 64"):
        SLHDSASHA2_128fPrivateKey.from_seed_bytes(raw)
    with pytest.raises(ValueError, match="private key must be 64 bytes, got 48"):
        SLHDSASHA2_128fPrivateKey.from_private_bytes(raw[:48])
    with pytest.raises(ValueError, match=r"inconsistent SLH-DSA-SHA2-128f private key: PK\.root"):
        SLHDSASHA2_128fPrivateKey.from_private_bytes(raw[:-1] + bytes([raw[-1] ^ 1]))
    bad = der.encode_sequence(
        der.encode_integer(0),
        der.encode_sequence(der.encode_oid("2.16.840.1.101.3.4.3.21")),
        der.encode_octet_string(raw[:-1] + bytes([raw[-1] ^ 1])),
    )
    with pytest.raises(ValueError, match="inconsistent"):
        load_der_private_key(bad)
    short = der.encode_sequence(
        der.encode_integer(0),
        der.encode_sequence(der.encode_oid("2.16.840.1.101.3.4.3.21")),
        der.encode_octet_string(raw[:-1]),
    )
    with pytest.raises(ValueError, match="private key must be 64 bytes, got 63"):
        load_der_private_key(short)
    with pytest.raises(ValueError, match="RFC 9909 has a single SLH-DSA private key form"):
        key.private_bytes(Encoding.DER, PrivateFormat.PKCS8, NoEncryption(), form="both")
    with pytest.raises(ValueError, match="digest must be 32 bytes, got 31"):
        key.sign_prehashed(bytes(31), "SHA2-256")
    with pytest.raises(ValueError, match="unknown prehash"):
        key.public_key().verify_prehashed(bytes(32), bytes(32), "SHA-256")
    with pytest.raises(ValueError, match="at most 255 bytes"):
        key.sign(b"m", bytes(256))
    with pytest.raises(TypeError, match="data must be bytes-like"):
        key.sign("m")
    with pytest.raises(InvalidSignature):
        key.public_key().verify(b"short", b"m")
    with pytest.raises(TypeError, match="cannot be created directly"):
        SLHDSASHA2_128fPrivateKey()
    assert "secret not shown" in repr(key)
