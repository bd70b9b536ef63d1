"""The FIPS 204 / FIPS 205 message facts in one place (:mod:`pqkit.messages`) and
the incremental pre-hashes of :mod:`pqkit.prehash`."""

from __future__ import annotations

import hashlib
import os

import pytest

import pqkit
from pqkit import messages as message
from pqkit.keys import MLDSA44PrivateKey, SLHDSASHA2_128fPrivateKey
from pqkit.prehash import PREHASHES, lookup


def test_context_check_is_one_message_everywhere() -> None:
    key = MLDSA44PrivateKey.from_seed_bytes(bytes(32))
    scheme = pqkit.sig("ML-DSA-44")
    slh = SLHDSASHA2_128fPrivateKey.from_seed_bytes(bytes(48))
    long_ctx = bytes(256)
    errors = []
    for call in (
        lambda: message.context(long_ctx),
        lambda: scheme.sign(key.private_bytes_expanded(), b"m", long_ctx),
        lambda: key.sign(b"m", long_ctx),
        lambda: key.sign_prehashed(bytes(32), "SHA2-256", long_ctx),
        lambda: key.public_key().mu_hasher(long_ctx),
        lambda: pqkit.sig("SLH-DSA-SHA2-128f").sign(slh.private_bytes_raw(), b"m", long_ctx),
        lambda: slh.sign(b"m", long_ctx),
        lambda: slh.sign_prehashed(bytes(32), "SHA2-256", long_ctx),
    ):
        with pytest.raises(ValueError) as info:
            call()
        errors.append(str(info.value).replace("(context)", "(ctx)"))
    assert len(set(errors)) == 1, errors
    assert errors[0] == (
        "FIPS 204 §5.2 / FIPS 205 §10.2: the context string (ctx) must be at most 255 "
        "bytes, got 256"
    )
    assert message.context(bytes(255)) == bytes(255)
    assert message.context(None) == b""
    with pytest.raises(TypeError, match="ctx must be bytes-like"):
        message.context("text")


def test_m_prime_layout() -> None:
    assert message.m_prime(b"M", b"ab") == b"\x00\x02abM"
    assert message.m_prime(b"M") == b"\x00\x00M"
    digest = hashlib.sha256(b"M").digest()
    assert message.prehash_m_prime(digest, "SHA2-256", b"c") == (
        b"\x01\x01c" + PREHASHES["SHA2-256"].der + digest
    )
    with pytest.raises(ValueError, match="SHA2-256 digest must be 32 bytes"):
        message.prehash_m_prime(digest[:-1], "SHA2-256")
    with pytest.raises(ValueError, match="unknown prehash"):
        message.prehash_m_prime(digest, "MD5")


def test_m_prime_is_what_the_scheme_signs() -> None:
    key = MLDSA44PrivateKey.from_seed_bytes(bytes(32))
    scheme = pqkit.sig("ML-DSA-44")
    sk = key.private_bytes_expanded()
    internal = scheme.sign_internal(sk, message.m_prime(b"msg", b"ctx"), bytes(32))  # type: ignore[attr-defined]
    assert internal == scheme.sign(sk, b"msg", b"ctx", deterministic=True)


def test_signing_rnd() -> None:
    assert message.signing_rnd(True, None) == bytes(32)
    asked: list[int] = []

    def rng(n: int) -> bytes:
        asked.append(n)
        return b"\x07" * n

    assert message.signing_rnd(False, rng) == b"\x07" * 32 and asked == [32]
    assert message.signing_rnd(True, rng) == bytes(32) and asked == [32]
    assert len(message.signing_rnd(False, None)) == 32


@pytest.mark.parametrize("name", list(PREHASHES))
def test_incremental_prehash_equals_one_shot(name: str) -> None:
    prehash = PREHASHES[name]
    data = os.urandom(3000)
    hasher = prehash.new()
    for start in range(0, len(data), 777):
        hasher.update(data[start : start + 777])
    assert hasher.digest() == prehash.function(data) == prehash.new(data).digest()
    assert len(hasher.digest()) == prehash.digest_size
    with pytest.raises(TypeError, match="data must be bytes-like"):
        hasher.update("text")


def test_lookup_spellings() -> None:
    for spelling in ("sha2-512", "SHA-512", "sha512", "SHA2_512"):
        assert lookup(spelling, loose=True) is PREHASHES["SHA2-512"]
    for spelling in ("sha256", "SHA-256", "Sha2-256"):
        assert lookup(spelling, loose=True) is PREHASHES["SHA2-256"]
    assert lookup("sha-512/224", loose=True) is PREHASHES["SHA2-512/224"]
    assert lookup("sha3-512", loose=True) is PREHASHES["SHA3-512"]
    assert lookup("shake256", loose=True) is PREHASHES["SHAKE-256"]
    for wrong in ("sha3512x", "SHA-3-512x", "md5", "sha-1", "sha3"):
        with pytest.raises(ValueError, match=r"unknown prehash .*FIPS 205 §10.2.*SHA2-224"):
            lookup(wrong, loose=True)
    with pytest.raises(ValueError, match="unknown prehash 'sha2-512'"):
        lookup("sha2-512")
    with pytest.raises(TypeError):
        lookup(512)
