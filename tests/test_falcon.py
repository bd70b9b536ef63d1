"""Falcon (round-3 specification v1.2, as liboqs 0.16 ships it): sizes, round trips,
the derandomised entry points, the argument rules, and bad input: every malformed
signature is rejected with False, every malformed key with a ValueError naming it.

The known answers (liboqs's KAT entry 0 for the four sets, which is also the
round-3 submission's first entry) run through ``pqkit kat`` in
tests/test_liboqs_kats.py."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pqkit
from pqkit.common import CtrDrbg
from pqkit.falcon import codec
from pqkit.falcon.round3 import Falcon

_SIZES = {  # liboqs 0.16: pk, sk, (max) signature, NIST level
    "Falcon-512": (897, 1281, 752, 1),
    "Falcon-1024": (1793, 2305, 1462, 5),
    "Falcon-padded-512": (897, 1281, 666, 1),
    "Falcon-padded-1024": (1793, 2305, 1280, 5),
}
NAMES = list(_SIZES)


def _scheme(name: str) -> Falcon:
    s = pqkit.sig(name)
    assert isinstance(s, Falcon)
    return s


@cache
def _keys(name: str) -> tuple[bytes, bytes]:
    return _scheme(name).keygen_derand(bytes(range(48)))


@cache
def _signed(name: str) -> bytes:
    return _scheme(name).sign(_keys(name)[1], b"message", rng=CtrDrbg(bytes(48)))


@pytest.mark.parametrize("name", NAMES)
def test_sizes_and_registry(name: str) -> None:
    s = _scheme(name)
    pk_len, sk_len, sig_len, level = _SIZES[name]
    assert (s.length_public_key, s.length_secret_key, s.length_signature) == (
        pk_len,
        sk_len,
        sig_len,
    )
    assert s.claimed_nist_level == level
    assert s.length_seed == 48
    assert name in pqkit.sigs()


@pytest.mark.parametrize("name", NAMES)
def test_round_trip(name: str) -> None:
    s = _scheme(name)
    pk, sk = _keys(name)
    assert len(pk) == s.length_public_key and len(sk) == s.length_secret_key
    sig = _signed(name)
    if s.params.padded:
        assert len(sig) == s.length_signature
    else:
        assert len(sig) <= s.length_signature
    assert sig[0] == 0x30 + s.params.logn
    assert s.verify(pk, b"message", sig)
    assert not s.verify(pk, b"messagE", sig)
    assert s.public_key_from_secret(sk) == pk


def test_keygen_randomness_is_one_48_byte_request() -> None:
    s = _scheme("Falcon-512")
    asked: list[int] = []

    def rng(n: int) -> bytes:
        asked.append(n)
        return bytes(n)

    assert s.keygen(rng=rng) == s.keygen_derand(bytes(48))
    assert asked == [48]


def test_sign_draws_nonce_then_sampler_seed() -> None:
    s = _scheme("Falcon-512")
    sk = _keys("Falcon-512")[1]
    drbg = CtrDrbg(b"\x01" * 48)
    nonce, seed = drbg(40), drbg(48)
    asked: list[int] = []
    stream = CtrDrbg(b"\x01" * 48)

    def rng(n: int) -> bytes:
        asked.append(n)
        return stream(n)

    sig = s.sign(sk, b"abc", rng=rng)
    assert asked == [40, 48]
    assert sig[1:41] == nonce
    assert s.sign_derand(sk, b"abc", single_use_nonce=nonce, single_use_sampler_seed=seed) == sig


def test_different_randomness_gives_different_signatures() -> None:
    s = _scheme("Falcon-512")
    pk, sk = _keys("Falcon-512")
    a = s.sign(sk, b"m")
    b = s.sign(sk, b"m")
    assert a != b and s.verify(pk, b"m", a) and s.verify(pk, b"m", b)


def test_argument_rules() -> None:
    s = _scheme("Falcon-512")
    sk = _keys("Falcon-512")[1]
    with pytest.raises(TypeError, match="rnd="):
        s.sign(sk, b"m", rnd=bytes(32))
    with pytest.raises(ValueError, match="no deterministic"):
        s.sign(sk, b"m", deterministic=True)
    with pytest.raises(ValueError, match="context"):
        s.sign(sk, b"m", b"ctx")
    with pytest.raises(ValueError, match="pre-hash"):
        s.sign(sk, b"m", prehash="SHA-256")
    with pytest.raises(ValueError, match="single_use_nonce"):
        s.sign_derand(sk, b"m", single_use_nonce=bytes(39), single_use_sampler_seed=bytes(48))
    with pytest.raises(ValueError, match="single_use_sampler_seed"):
        s.sign_derand(sk, b"m", single_use_nonce=bytes(40), single_use_sampler_seed=bytes(56))
    with pytest.raises(ValueError, match="keygen seed"):
        s.keygen_derand(bytes(32))
    with pytest.raises(TypeError):
        s.sign(sk, "text")  # type: ignore[arg-type]


# --- malformed signatures: False, never an exception ----------------------------------


def _mutations(name: str) -> list[tuple[str, bytes]]:
    s = _scheme(name)
    sig = _signed(name)
    logn = s.params.logn
    body = sig[41:]
    decoded = codec.comp_decode(body, s.params.n)
    assert decoded is not None
    used = decoded[1]
    out = [
        ("empty", b""),
        ("header only", sig[:1]),
        ("nonce only", sig[:41]),
        ("wrong header 0x39/0x3A swapped", bytes([0x30 + (19 - logn)]) + sig[1:]),
        ("wrong header (compressed sm byte)", bytes([0x20 + logn]) + sig[1:]),
        ("truncated body", sig[: 41 + used - 1]),
        ("one trailing byte", sig + b"\x00"),
        ("over the maximum length", sig + bytes(s.length_signature)),
    ]
    # minus zero: sign bit set, low bits 0, high part 0 (the first coefficient)
    out.append(("minus zero", sig[:41] + bytes([0x80, 0x80]) + body[2:]))
    # a high part of 16 zeros: |s| > 2047 (out of range)
    out.append(("coefficient above 2047", sig[:41] + bytes([0x00, 0x00, 0x00, 0x80]) + body[4:]))
    if s.params.padded:
        out.append(("padded length minus one", sig[:-1]))
        out.append(("non-zero padding", sig[:-1] + b"\x01"))
        out.append(("unpadded", sig[: 41 + used]))
    else:
        # a non-zero bit after the last value in the last byte, if it has spare bits
        last = body[used - 1]
        if last & 1 == 0:
            out.append(("non-zero unused bits", sig[:-1] + bytes([last | 1])))
        padded = {9: 666, 10: 1280}[logn]
        out.append(("trailing non-zero byte", sig + b"\x01"))
        out.append(("padded form, non-zero padding", sig + bytes(padded - len(sig) - 1) + b"\x01"))
    return out


@pytest.mark.parametrize("name", NAMES)
def test_malformed_signatures_are_rejected(name: str) -> None:
    s = _scheme(name)
    pk = _keys(name)[0]
    for label, bad in _mutations(name):
        assert s.verify(pk, b"message", bad) is False, label


@pytest.mark.parametrize("name", ["Falcon-512", "Falcon-1024"])
def test_compressed_verify_accepts_the_zero_padded_form(name: str) -> None:
    # liboqs's compressed verifier takes the padded form too (interoperability)
    s = _scheme(name)
    pk = _keys(name)[0]
    sig = _signed(name)
    padded = {"Falcon-512": 666, "Falcon-1024": 1280}[name]
    assert s.verify(pk, b"message", sig + bytes(padded - len(sig)))
    assert not s.verify(pk, b"message", sig + bytes(padded - len(sig) + 1))


@settings(max_examples=40, deadline=None)
@given(st.binary(max_size=800))
def test_random_bytes_never_raise(junk: bytes) -> None:
    s = _scheme("Falcon-512")
    pk = _keys("Falcon-512")[0]
    assert s.verify(pk, b"message", bytes([0x39]) + junk) is False


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 665 * 8 - 1))
def test_bit_flips_are_rejected(bit: int) -> None:
    s = _scheme("Falcon-padded-512")
    pk = _keys("Falcon-padded-512")[0]
    sig = bytearray(_signed("Falcon-padded-512"))
    sig[1 + bit // 8] ^= 1 << (bit % 8)
    assert s.verify(pk, b"message", bytes(sig)) is False


# --- malformed keys: ValueError naming the fault ----------------------------------------


@pytest.mark.parametrize("name", ["Falcon-512", "Falcon-1024"])
def test_malformed_public_keys(name: str) -> None:
    s = _scheme(name)
    pk = _keys(name)[0]
    sig = _signed(name)
    with pytest.raises(ValueError, match="public key"):
        s.verify(pk[:-1], b"message", sig)
    with pytest.raises(ValueError, match="header byte"):
        s.verify(bytes([pk[0] ^ 1]) + pk[1:], b"message", sig)
    # first coefficient 0x3FFF >= q
    bad = pk[:1] + bytes([0xFF, 0xFC | pk[2] & 3]) + pk[3:]
    with pytest.raises(ValueError, match="not below q"):
        s.verify(bad, b"message", sig)
    with pytest.raises(TypeError):
        s.verify("pk", b"message", sig)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["Falcon-512", "Falcon-1024"])
def test_malformed_secret_keys(name: str) -> None:
    s = _scheme(name)
    sk = _keys(name)[1]
    with pytest.raises(ValueError, match="secret key"):
        s.sign(sk[:-1], b"m")
    with pytest.raises(ValueError, match="header byte"):
        s.sign(bytes([0x59 if sk[0] == 0x5A else 0x5A]) + sk[1:], b"m")
    # F's first coefficient -128: not produced by the encoder
    fg = 2 * s.params.fg_bits * s.params.n // 8
    bad = sk[: 1 + fg] + b"\x80" + sk[2 + fg :]
    with pytest.raises(ValueError, match="F is not canonically encoded"):
        s.sign(bad, b"m")
    # F replaced by a constant: G = g F / f is far out of range
    not_key = sk[: 1 + fg] + b"\x7f" * s.params.n
    with pytest.raises(ValueError, match="not a Falcon key"):
        s.sign(not_key, b"m")
    with pytest.raises(ValueError, match="not a Falcon key"):
        s.public_key_from_secret(not_key)


# --- the encodings -----------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(-2047, 2047), min_size=512, max_size=512))
def test_compression_round_trip(s2: list[int]) -> None:
    enc = codec.comp_encode(s2, 10_000)
    assert enc is not None
    decoded = codec.comp_decode(enc, 512)
    assert decoded is not None
    assert decoded[0].tolist() == s2 and decoded[1] == len(enc)
    assert codec.comp_encode(s2, len(enc) - 1) is None


def test_compression_refuses_out_of_range() -> None:
    assert codec.comp_encode([2048] + [0] * 511, 10_000) is None


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(-31, 31), min_size=512, max_size=512))
def test_trim_round_trip(x: list[int]) -> None:
    decoded = codec.trim_i8_decode(codec.trim_i8_encode(x, 6), 512, 6)
    assert decoded is not None and decoded.tolist() == x


@pytest.mark.parametrize("name", ["Falcon-512", "Falcon-padded-512"])
def test_batch_view(name: str) -> None:
    s = _scheme(name)
    pks, sks = s.batch.keygen(2, rng=CtrDrbg(bytes(48)))
    sigs = s.batch.sign(sks, [b"x", b"yz"])
    if s.params.padded:
        assert sigs.shape == (2, 666)
    else:
        assert [len(x) <= 752 for x in sigs] == [True, True]
    assert s.batch.verify(pks, [b"x", b"yz"], sigs).tolist() == [True, True]
    assert s.batch.verify(pks, [b"x", b"no"], sigs).tolist() == [True, False]
    assert s.batch.verify(pks[0], b"x", [sigs[0], sigs[0][:-1]]).tolist() == [True, False]
    with pytest.raises(ValueError, match="no deterministic"):
        s.batch.sign(sks, [b"x", b"yz"], deterministic=True)
