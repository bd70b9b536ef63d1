"""HPKE (RFC 9180) with the KEMs of draft-ietf-hpke-pq: every vector of
tests/vectors/hpke-pq, interop with pyca/cryptography's HPKE in both directions,
psk mode, export-only, and bad input."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from helpers import h, load_json

from pqkit import hpke

pytest.importorskip("cryptography", reason="HPKE's AEADs and curves need pyca/cryptography")

VECTORS = load_json("hpke-pq/hpke-pq-test-vectors.json")["vectors"]


@pytest.mark.parametrize("e", VECTORS, ids=lambda e: f"tc{e['tcId']}")
def test_vectors(e: dict[str, Any]) -> None:
    suite = hpke.Suite(e["kem_id"], e["kdf_id"], e["aead_id"])
    assert suite.suite_id == h(e["suite_id"]) and e["mode"] == hpke.Mode.BASE
    pk, sk = suite.derive_key_pair(h(e["ikmR"]))
    assert (pk, sk) == (h(e["pkRm"]), h(e["skRm"]))
    # The KEM layer: ikmE is the encapsulation randomness.
    ss, enc = suite.scheme.encaps_derand(pk, h(e["ikmE"]))
    assert (ss, enc) == (h(e["shared_secret"]), h(e["enc"]))
    info = h(e["info"])
    enc, sender = suite.setup_sender(pk, info, ikm_e=h(e["ikmE"]))
    recipient = suite.setup_recipient(enc, sk, info)
    for ctx in (sender, recipient):
        assert ctx.key == h(e["key"]) and ctx.base_nonce == h(e["base_nonce"])
        assert ctx.exporter_secret == h(e["exporter_secret"])
    assert len(e["encryptions"]) == 10 and len(e["exports"]) == 5
    for seq, x in enumerate(e["encryptions"]):
        assert sender.seq == recipient.seq == seq
        assert sender._nonce() == h(x["nonce"])
        assert sender.seal(h(x["pt"]), h(x["aad"])) == h(x["ct"])
        assert recipient.open(h(x["ct"]), h(x["aad"])) == h(x["pt"])
    for x in e["exports"]:
        for ctx in (sender, recipient):
            assert ctx.export(h(x["exporter_context"]), x["L"]) == h(x["exported_value"])


ALL_KEMS = list(dict.fromkeys(hpke.KEM))  # XWING is an alias of MLKEM768_X25519
ALL_KDFS = list(hpke.KDF)
ALL_AEADS = [a for a in hpke.AEAD if a != hpke.AEAD.EXPORT_ONLY]


@pytest.mark.parametrize("kem", ALL_KEMS, ids=lambda k: k.name)
def test_every_kem_round_trip_and_psk(kem: hpke.KEM) -> None:
    suite = hpke.Suite(kem, hpke.KDF.HKDF_SHA256, hpke.AEAD.AES_128_GCM)
    pk, sk = suite.generate_key_pair()
    blob = suite.encrypt(b"message", pk, b"info", aad=b"aad")
    assert len(blob) == suite.length_enc + 7 + 16
    assert suite.decrypt(blob, sk, b"info", aad=b"aad") == b"message"
    psk, psk_id = bytes(range(32)), b"id"
    enc, ct = suite.seal(pk, b"m", b"i", b"a", psk=psk, psk_id=psk_id)
    assert suite.open(enc, sk, ct, b"i", b"a", psk=psk, psk_id=psk_id) == b"m"
    with pytest.raises(hpke.OpenError):
        suite.open(enc, sk, ct, b"i", b"a")  # base mode cannot open a psk message
    with pytest.raises(hpke.OpenError):
        suite.open(enc, sk, ct, b"i", b"a", psk=bytes(32), psk_id=psk_id)


@pytest.mark.parametrize("kdf", ALL_KDFS, ids=lambda k: k.name)
@pytest.mark.parametrize("aead", list(hpke.AEAD), ids=lambda a: a.name)
def test_every_kdf_and_aead(kdf: hpke.KDF, aead: hpke.AEAD) -> None:
    suite = hpke.Suite(hpke.KEM.XWING, kdf, aead)
    pk, sk = suite.derive_key_pair(bytes(32))
    enc, sender = suite.setup_sender(pk, b"info")
    recipient = suite.setup_recipient(enc, sk, b"info")
    assert sender.export(b"ctx", 77) == recipient.export(b"ctx", 77)
    assert len(sender.export(b"", 0)) == 0
    if aead == hpke.AEAD.EXPORT_ONLY:
        with pytest.raises(ValueError, match="export-only"):
            sender.seal(b"x")
        return
    for i in range(3):
        assert recipient.open(sender.seal(b"msg %d" % i, b"ad"), b"ad") == b"msg %d" % i


# --- pyca/cryptography interop ------------------------------------------------------

pyca_hpke = pytest.importorskip(
    "cryptography.hazmat.primitives.hpke", reason="pyca/cryptography without HPKE"
)
from cryptography.hazmat.primitives.asymmetric import ec, mlkem, x25519  # noqa: E402

_PYCA_KEM = {
    hpke.KEM.MLKEM768: "MLKEM768",
    hpke.KEM.MLKEM1024: "MLKEM1024",
    hpke.KEM.MLKEM768_X25519: "MLKEM768_X25519",
    hpke.KEM.MLKEM1024_P384: "MLKEM1024_P384",
}
_PYCA_KDF = {
    hpke.KDF.HKDF_SHA256: "HKDF_SHA256",
    hpke.KDF.HKDF_SHA384: "HKDF_SHA384",
    hpke.KDF.HKDF_SHA512: "HKDF_SHA512",
    hpke.KDF.SHAKE128: "SHAKE128",
    hpke.KDF.SHAKE256: "SHAKE256",
}
_PYCA_AEAD = {
    hpke.AEAD.AES_128_GCM: "AES_128_GCM",
    hpke.AEAD.AES_256_GCM: "AES_256_GCM",
    hpke.AEAD.CHACHA20_POLY1305: "CHACHA20_POLY1305",
}


def _pyca_private_key(kem: hpke.KEM, sk: bytes) -> Any:
    """pyca's key for pqkit's seed-form private key (the drafts' expansion, done here
    with hashlib and pyca, independently of pqkit)."""
    if kem == hpke.KEM.MLKEM768:
        return mlkem.MLKEM768PrivateKey.from_seed_bytes(sk)
    if kem == hpke.KEM.MLKEM1024:
        return mlkem.MLKEM1024PrivateKey.from_seed_bytes(sk)
    if kem == hpke.KEM.MLKEM768_X25519:
        expanded = hashlib.shake_256(sk).digest(96)
        return pyca_hpke.MLKEM768X25519PrivateKey(
            mlkem.MLKEM768PrivateKey.from_seed_bytes(expanded[:64]),
            x25519.X25519PrivateKey.from_private_bytes(expanded[64:]),
        )
    expanded = hashlib.shake_256(sk).digest(64 + 48)
    scalar = int.from_bytes(expanded[64:], "big")
    return pyca_hpke.MLKEM1024P384PrivateKey(
        mlkem.MLKEM1024PrivateKey.from_seed_bytes(expanded[:64]),
        ec.derive_private_key(scalar, ec.SECP384R1()),
    )


INTEROP = [(k, d, a) for k in _PYCA_KEM for d in _PYCA_KDF for a in _PYCA_AEAD]


@pytest.mark.parametrize(
    ("kem", "kdf", "aead"), INTEROP, ids=[f"{k.name}-{d.name}-{a.name}" for k, d, a in INTEROP]
)
def test_interop_with_pyca_both_directions(kem: hpke.KEM, kdf: hpke.KDF, aead: hpke.AEAD) -> None:
    suite = hpke.Suite(kem, kdf, aead)
    theirs = pyca_hpke.Suite(
        getattr(pyca_hpke.KEM, _PYCA_KEM[kem]),
        getattr(pyca_hpke.KDF, _PYCA_KDF[kdf]),
        getattr(pyca_hpke.AEAD, _PYCA_AEAD[aead]),
    )
    pk, sk = suite.generate_key_pair()
    private = _pyca_private_key(kem, sk)
    public = private.public_key()
    info, message = b"interop info", b"x" * 100
    # pqkit seals, pyca opens.
    assert theirs.decrypt(suite.encrypt(message, pk, info), private, info=info) == message
    # pyca seals, pqkit opens.
    assert suite.decrypt(theirs.encrypt(message, public, info=info), sk, info) == message


# --- bad input -----------------------------------------------------------------------


def test_failed_tag_is_a_clear_error() -> None:
    suite = hpke.Suite(hpke.KEM.MLKEM768, hpke.KDF.HKDF_SHA256, hpke.AEAD.AES_128_GCM)
    pk, sk = suite.generate_key_pair()
    blob = suite.encrypt(b"secret", pk, b"info")
    flipped = bytearray(blob)
    flipped[-1] ^= 1
    with pytest.raises(hpke.OpenError, match="authentication tag does not verify"):
        suite.decrypt(bytes(flipped), sk, b"info")
    with pytest.raises(hpke.OpenError):
        suite.decrypt(blob, sk, b"other info")
    with pytest.raises(hpke.OpenError):
        suite.decrypt(blob, sk, b"info", aad=b"aad")
    # A modified enc: ML-KEM's implicit rejection gives a wrong key, so the tag fails.
    enc_flipped = bytearray(blob)
    enc_flipped[0] ^= 1
    with pytest.raises(hpke.OpenError):
        suite.decrypt(bytes(enc_flipped), sk, b"info")
    enc, ctx = suite.setup_sender(pk)
    recipient = suite.setup_recipient(enc, sk)
    ct = ctx.seal(b"one")
    with pytest.raises(hpke.OpenError):
        recipient.open(ct[:-1] + bytes([ct[-1] ^ 1]))
    assert recipient.seq == 0  # a failed open does not advance the sequence
    assert recipient.open(ct) == b"one" and recipient.seq == 1


def test_sequence_number_overflow() -> None:
    suite = hpke.Suite(hpke.KEM.XWING, hpke.KDF.SHAKE256, hpke.AEAD.CHACHA20_POLY1305)
    pk, sk = suite.generate_key_pair()
    enc, sender = suite.setup_sender(pk)
    recipient = suite.setup_recipient(enc, sk)
    last = (1 << 96) - 1
    sender._seq = recipient._seq = last - 1  # seq is read-only (tests/test_hpke_contexts.py)
    assert recipient.open(sender.seal(b"last")) == b"last"
    assert sender.seq == recipient.seq == last
    with pytest.raises(hpke.MessageLimitReachedError, match="message limit"):
        sender.seal(b"one too many")
    with pytest.raises(hpke.MessageLimitReachedError):
        recipient.open(b"\x00" * 20)


def test_lengths_types_and_modes() -> None:
    suite = hpke.Suite(hpke.KEM.MLKEM768_P256, hpke.KDF.TURBOSHAKE128, hpke.AEAD.AES_256_GCM)
    pk, sk = suite.generate_key_pair()
    assert (len(pk), len(sk), suite.length_enc) == (1249, 32, 1153)
    with pytest.raises(ValueError, match="public_key must be 1249 bytes"):
        suite.encrypt(b"m", pk[:-1])
    with pytest.raises(ValueError, match="private_key must be 32 bytes"):
        suite.decrypt(suite.encrypt(b"m", pk), sk + b"\x00")
    with pytest.raises(ValueError, match="must start with the 1153-byte enc"):
        suite.decrypt(b"\x00" * 100, sk)
    with pytest.raises(TypeError, match="plaintext"):
        suite.encrypt("text", pk)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a point on P-256"):
        suite.encrypt(b"m", pk[:-65] + b"\x04" + bytes(64))
    enc, ct = suite.seal(pk, b"m")
    with pytest.raises(ValueError, match="not a point on P-256"):
        suite.open(enc[:-65] + b"\x04" + bytes(64), sk, ct)
    with pytest.raises(ValueError, match="inconsistent PSK"):
        suite.seal(pk, b"m", psk=bytes(32))
    with pytest.raises(ValueError, match="inconsistent PSK"):
        suite.seal(pk, b"m", psk_id=b"id")
    with pytest.raises(ValueError, match="at least 32 bytes"):
        suite.seal(pk, b"m", psk=bytes(16), psk_id=b"id")
    with pytest.raises(hpke.UnsupportedModeError, match="AuthEncap"):
        suite.setup_auth_sender(pk, b"info")
    with pytest.raises(hpke.UnsupportedModeError, match="Diffie-Hellman"):
        suite.setup_auth_recipient(enc, sk)
    with pytest.raises(ValueError):
        hpke.Suite(0x0020, hpke.KDF.HKDF_SHA256, hpke.AEAD.AES_128_GCM)  # DHKEM(X25519)
    _, ctx = suite.setup_sender(pk)
    with pytest.raises(ValueError, match=r"0\.\.65535"):
        ctx.export(b"", 65536)
    two_stage = hpke.Suite(hpke.KEM.MLKEM512, hpke.KDF.HKDF_SHA256, hpke.AEAD.AES_128_GCM)
    _, ctx2 = two_stage.setup_sender(two_stage.generate_key_pair().public_key)
    with pytest.raises(ValueError, match=r"0\.\.8160"):
        ctx2.export(b"", 255 * 32 + 1)
    with pytest.raises(TypeError, match="length"):
        ctx2.export(b"", "32")  # type: ignore[arg-type]


def test_key_objects_accepted_like_bytes() -> None:
    from pqkit import keys

    suite = hpke.Suite(hpke.KEM.MLKEM768, hpke.KDF.HKDF_SHA384, hpke.AEAD.AES_128_GCM)
    private = keys.MLKEM768PrivateKey.generate()
    blob = suite.encrypt(b"hello", private.public_key())
    assert suite.decrypt(blob, private) == b"hello"
    assert suite.decrypt(blob, private.private_bytes_raw()) == b"hello"


def test_deterministic_with_rng() -> None:
    suite = hpke.Suite(hpke.KEM.MLKEM1024_P384, hpke.KDF.HKDF_SHA512, hpke.AEAD.AES_256_GCM)
    pk, _ = suite.derive_key_pair(b"ikm" * 11)

    def rng(n: int) -> bytes:
        return bytes([9]) * n

    assert suite.encrypt(b"m", pk, rng=rng) == suite.encrypt(b"m", pk, rng=rng)
    assert suite.encrypt(b"m", pk) != suite.encrypt(b"m", pk)
