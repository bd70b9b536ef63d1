"""The ML-DSA scheme API: registry, sizes, round trips, randomness requests,
HashML-DSA names, and every bad-input path (types, lengths, FIPS 204 checks)."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pqkit
from pqkit.mldsa import SCHEMES
from pqkit.mldsa.fips204 import MLDSA
from pqkit.prehash import PREHASHES
from pqkit.schemes import Signature

_SIZES = {
    "ML-DSA-44": (1312, 2560, 2420, 2),
    "ML-DSA-65": (1952, 4032, 3309, 3),
    "ML-DSA-87": (2592, 4896, 4627, 5),
}
_NAMES = list(_SIZES)


def _scheme(name: str) -> MLDSA:
    s = pqkit.sig(name)
    assert isinstance(s, MLDSA)
    return s


@pytest.fixture(scope="module")
def keys() -> dict[str, tuple[bytes, bytes]]:
    return {n: _scheme(n).keygen_derand(bytes([i]) * 32) for i, n in enumerate(_NAMES)}


@pytest.mark.parametrize("name", _NAMES)
def test_registry_and_sizes(name: str) -> None:
    s = pqkit.sig(name)
    assert isinstance(s, Signature)
    assert SCHEMES[name] is s
    assert name in pqkit.sigs()
    assert pqkit.sig(name.lower().replace("-", "")) is s
    pk_len, sk_len, sig_len, level = _SIZES[name]
    assert (s.length_public_key, s.length_secret_key, s.length_signature) == (
        pk_len,
        sk_len,
        sig_len,
    )
    assert s.claimed_nist_level == level


@pytest.mark.parametrize("name", _NAMES)
def test_round_trip_all_modes(name: str, keys: dict[str, tuple[bytes, bytes]]) -> None:
    s = _scheme(name)
    pk, sk = keys[name]
    msg = b"attack at dawn"
    sig = s.sign(sk, msg)
    assert len(sig) == s.length_signature
    assert s.verify(pk, msg, sig)
    assert not s.verify(pk, msg, sig, b"ctx")
    # hedged signing differs each time; deterministic does not
    assert s.sign(sk, msg) != sig
    d1 = s.sign(sk, msg, deterministic=True)
    assert d1 == s.sign(sk, msg, rnd=bytes(32)) == s.sign(sk, bytearray(msg), deterministic=True)
    ph = s.sign(sk, msg, b"c" * 255, prehash="SHA2-512")
    assert s.verify(pk, msg, ph, b"c" * 255, prehash="SHA2-512")
    assert not s.verify(pk, msg, ph, b"c" * 255)
    assert not s.verify(pk, msg, ph, b"c" * 255, prehash="SHA3-512")
    # sign_internal / sign_mu agree with sign on the same M' / mu
    m_prime = b"\x00\x00" + msg
    assert s.sign_internal(sk, m_prime, bytes(32)) == d1
    assert s.verify_internal(pk, m_prime, d1)
    mu = s.mu(pk, msg)
    assert s.sign_mu(sk, mu, deterministic=True) == d1
    assert s.verify_mu(pk, mu, d1)
    assert s.public_key_from_secret(sk) == pk


@pytest.mark.parametrize("prehash", list(PREHASHES))
def test_every_prehash(prehash: str, keys: dict[str, tuple[bytes, bytes]]) -> None:
    s = _scheme("ML-DSA-44")
    pk, sk = keys["ML-DSA-44"]
    sig = s.sign(sk, b"m", b"ctx", prehash=prehash, deterministic=True)
    assert s.verify(pk, b"m", sig, b"ctx", prehash=prehash)
    assert not s.verify(pk, b"m", sig, b"ctx")


def test_prehash_oids() -> None:
    # FIPS 204 §5.4.1: id-sha256 is 2.16.840.1.101.3.4.2.1, DER 06 09 60 86 48 01 65 03 04 02 01
    assert PREHASHES["SHA2-256"].der.hex() == "0609608648016503040201"
    assert PREHASHES["SHAKE-256"].der.hex() == "060960864801650304020c"
    assert PREHASHES["SHA2-512/256"].function(b"") == hashlib.new("sha512_256", b"").digest()
    assert len(PREHASHES["SHAKE-128"].function(b"")) == 32
    assert len(PREHASHES["SHAKE-256"].function(b"")) == 64


def test_randomness_requests() -> None:
    s = _scheme("ML-DSA-44")
    asked: list[int] = []

    def rng(n: int) -> bytes:
        asked.append(n)
        return bytes(n)

    pk, sk = s.keygen(rng=rng)
    assert (pk, sk) == s.keygen_derand(bytes(32))
    sig = s.sign(sk, b"x", rng=rng)
    assert asked == [32, 32]
    assert sig == s.sign(sk, b"x", deterministic=True)  # rnd of zeros
    s.sign(sk, b"x", deterministic=True, rng=rng)
    s.sign_mu(sk, bytes(64), rng=rng)
    assert asked == [32, 32, 32]
    with pytest.raises(ValueError, match=r"rng\(32\) returned 5 bytes"):
        s.keygen(rng=lambda n: bytes(5))
    with pytest.raises(TypeError):
        s.sign(sk, b"x", rng=lambda n: "no")  # type: ignore[arg-type,return-value]


def test_context_length(keys: dict[str, tuple[bytes, bytes]]) -> None:
    s = _scheme("ML-DSA-65")
    pk, sk = keys["ML-DSA-65"]
    with pytest.raises(ValueError, match=r"FIPS 204.*context.*255"):
        s.sign(sk, b"m", b"x" * 256)
    with pytest.raises(ValueError, match=r"FIPS 204.*context.*255"):
        s.sign(sk, b"m", b"x" * 256, prehash="SHA2-256")
    with pytest.raises(ValueError, match=r"FIPS 204.*context.*255"):
        s.verify(pk, b"m", bytes(s.length_signature), b"x" * 256)


def test_unknown_prehash(keys: dict[str, tuple[bytes, bytes]]) -> None:
    s = _scheme("ML-DSA-44")
    pk, sk = keys["ML-DSA-44"]
    with pytest.raises(ValueError, match=r"unknown prehash 'SHA-256'.*SHA2-256"):
        s.sign(sk, b"m", prehash="SHA-256")
    with pytest.raises(ValueError, match="unknown prehash"):
        s.verify(pk, b"m", bytes(s.length_signature), prehash="MD5")
    with pytest.raises(TypeError):
        s.sign(sk, b"m", prehash=256)  # type: ignore[arg-type]


def test_wrong_types(keys: dict[str, tuple[bytes, bytes]]) -> None:
    s = _scheme("ML-DSA-44")
    pk, sk = keys["ML-DSA-44"]
    sig = s.sign(sk, b"m")
    with pytest.raises(TypeError):
        s.sign(sk.hex(), b"m")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        s.sign(sk, "m")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        s.sign(sk, b"m", "ctx")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        s.verify(pk, b"m", sig.hex())  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        s.verify(None, b"m", sig)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        s.keygen_derand(1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        s.verify_mu(pk, "mu", sig)  # type: ignore[arg-type]


def test_wrong_lengths(keys: dict[str, tuple[bytes, bytes]]) -> None:
    s = _scheme("ML-DSA-44")
    pk, sk = keys["ML-DSA-44"]
    sig = s.sign(sk, b"m")
    with pytest.raises(ValueError, match="secret key must be 2560 bytes, got 2559"):
        s.sign(sk[:-1], b"m")
    with pytest.raises(ValueError, match="public key must be 1312 bytes"):
        s.verify(pk + b"\x00", b"m", sig)
    with pytest.raises(ValueError, match="xi must be 32 bytes"):
        s.keygen_derand(bytes(31))
    with pytest.raises(ValueError, match="rnd must be 32 bytes"):
        s.sign(sk, b"m", rnd=bytes(33))
    with pytest.raises(ValueError, match="rnd must be 32 bytes"):
        s.sign_internal(sk, b"m", bytes(31))
    with pytest.raises(ValueError, match="mu must be 64 bytes"):
        s.sign_mu(sk, bytes(63))
    with pytest.raises(ValueError, match="mu must be 64 bytes"):
        s.verify_mu(pk, bytes(32), sig)
    with pytest.raises(ValueError, match="not both"):
        s.sign(sk, b"m", deterministic=True, rnd=bytes(32))
    # a signature of the wrong length is just invalid
    assert not s.verify(pk, b"m", sig[:-1])
    assert not s.verify(pk, b"m", sig + b"\x00")
    assert not s.verify(pk, b"m", b"")


def _sk_with_coefficient(name: str, sk: bytes, value: int) -> bytes:
    """sk with the first packed s1 coefficient set to eta - value (out of range)."""
    s = _scheme(name)
    p = s.params
    off = 64 + p.tr_bytes
    raw = bytearray(sk)
    bits = p.eta_bits
    mask = (1 << bits) - 1
    raw[off] = (raw[off] & ~mask & 0xFF) | ((p.eta - value) & mask)
    return bytes(raw)


@pytest.mark.parametrize("name", _NAMES)
def test_malformed_secret_key(name: str, keys: dict[str, tuple[bytes, bytes]]) -> None:
    s = _scheme(name)
    _, sk = keys[name]
    eta = s.params.eta
    bad = _sk_with_coefficient(name, sk, -eta - 1)  # packed value 2 eta + 1
    with pytest.raises(ValueError, match=rf"s1/s2 coefficient outside \[-{eta}, {eta}\]"):
        s.sign(bad, b"m")
    with pytest.raises(ValueError, match="outside"):
        s.sign_mu(bad, bytes(64), deterministic=True)
    with pytest.raises(ValueError, match="outside"):
        s.public_key_from_secret(bad)
    # an in-range change of s1 breaks t0 consistency
    other = _sk_with_coefficient(name, sk, -eta)
    if other == sk:
        other = _sk_with_coefficient(name, sk, eta)
    assert other != sk
    with pytest.raises(ValueError, match="t0 is not Power2Round"):
        s.sign(other, b"m")  # in range, but inconsistent: refused (issue 13)
    with pytest.raises(ValueError, match="t0 is not Power2Round"):
        s.public_key_from_secret(other)
    # a changed tr
    bad_tr = sk[:64] + bytes([sk[64] ^ 1]) + sk[65:]
    with pytest.raises(ValueError, match=r"tr is not H\(pk\)"):
        s.public_key_from_secret(bad_tr)


@pytest.mark.parametrize("name", _NAMES)
def test_tampered_signatures(name: str, keys: dict[str, tuple[bytes, bytes]]) -> None:
    s = _scheme(name)
    pk, sk = keys[name]
    sig = s.sign(sk, b"msg", deterministic=True)
    p = s.params
    hint_start = p.length_signature - p.omega - p.k
    for pos in (0, p.c_tilde_bytes, hint_start - 1, hint_start, p.length_signature - 1):
        bad = bytearray(sig)
        bad[pos] ^= 0x01
        assert not s.verify(pk, b"msg", bytes(bad)), pos
    # hint counters: decreasing, above omega
    bad = bytearray(sig)
    bad[-1] = p.omega + 1
    assert not s.verify(pk, b"msg", bytes(bad))
    bad = bytearray(sig)
    bad[-p.k] = 255
    assert not s.verify(pk, b"msg", bytes(bad))


@settings(max_examples=25, deadline=None)
@given(st.binary(min_size=2420, max_size=2420))
def test_verify_never_raises_on_garbage(sig: bytes) -> None:
    s = _scheme("ML-DSA-44")
    pk, _ = s.keygen_derand(bytes(32))
    assert s.verify(pk, b"m", sig) is False
    assert s.verify_mu(pk, bytes(64), sig) is False


@settings(max_examples=10, deadline=None)
@given(st.binary(min_size=1312, max_size=1312))
def test_verify_any_public_key(pk: bytes) -> None:
    s = _scheme("ML-DSA-44")
    assert s.verify(pk, b"m", bytes(2420)) is False


def test_inputs_not_modified(keys: dict[str, tuple[bytes, bytes]]) -> None:
    s = _scheme("ML-DSA-44")
    pk, sk = keys["ML-DSA-44"]
    sk_buf, msg_buf = bytearray(sk), bytearray(b"message")
    sig = s.sign(sk_buf, msg_buf, bytearray(b"ctx"), deterministic=True)
    assert bytes(sk_buf) == sk and bytes(msg_buf) == b"message"
    assert s.verify(memoryview(pk), msg_buf, bytearray(sig), b"ctx")


def test_using_backends(keys: dict[str, tuple[bytes, bytes]]) -> None:
    s = _scheme("ML-DSA-44")
    ref = s.using(arith="ref")
    assert ref is not s and ref.name == s.name and "ref" in repr(ref)
    _, sk = keys["ML-DSA-44"]
    assert ref.sign(sk, b"m", deterministic=True) == s.sign(sk, b"m", deterministic=True)
    with pytest.raises(pqkit.UnknownBackend, match="available"):
        s.using(arith="nope")
    from pqkit import arith

    with arith.use("ref"):
        assert s.sign(sk, b"m", deterministic=True) == ref.sign(sk, b"m", deterministic=True)


def test_hedged_by_default(keys: dict[str, tuple[bytes, bytes]]) -> None:
    s = _scheme("ML-DSA-44")
    _, sk = keys["ML-DSA-44"]
    sigs = {s.sign(sk, b"m") for _ in range(3)}
    assert len(sigs) == 3
