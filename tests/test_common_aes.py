"""AES-128 / AES-256 (FIPS 197) and AES-256-CTR (SP 800-38A) on both backends."""

from __future__ import annotations

import pytest
from helpers import h
from hypothesis import given, settings
from hypothesis import strategies as st

from pqkit import common
from pqkit.common.python import aes as pyaes

BACKENDS = ["openssl", "python"]

# FIPS 197, Appendix C.3 (AES-256 example vector).
C3_KEY = h("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
C3_PLAINTEXT = h("00112233445566778899aabbccddeeff")
C3_CIPHERTEXT = h("8ea2b7ca516745bfeafc49904b496089")

# FIPS 197, Appendix C.1 (AES-128 example vector).
C1_KEY = h("000102030405060708090a0b0c0d0e0f")
C1_CIPHERTEXT = h("69c4e0d86a7b0430d8cdb78070b4c55a")
# SP 800-38A, Appendix F.1.1 (ECB-AES128.Encrypt), its four blocks.
F11_KEY = h("2b7e151628aed2a6abf7158809cf4f3c")
F11_PLAINTEXT = h(
    "6bc1bee22e409f96e93d7e117393172a"
    "ae2d8a571e03ac9c9eb76fac45af8e51"
    "30c81c46a35ce411e5fbc1191a0a52ef"
    "f69f2445df4f9b17ad2b417be66c3710"
)
F11_CIPHERTEXT = h(
    "3ad77bb40d7a3660a89ecaf32466ef97"
    "f5d3d58503b9699de785895a96fdbaaf"
    "43b1cd7f598ece23881b00e3ed030688"
    "7b0c785e27e8ad3f8223207104725dd4"
)

# SP 800-38A, Appendix F.5.5 (CTR-AES256.Encrypt).
F55_KEY = h("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4")
F55_COUNTER = h("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")
F55_PLAINTEXT = h(
    "6bc1bee22e409f96e93d7e117393172a"
    "ae2d8a571e03ac9c9eb76fac45af8e51"
    "30c81c46a35ce411e5fbc1191a0a52ef"
    "f69f2445df4f9b17ad2b417be66c3710"
)
F55_CIPHERTEXT = h(
    "601ec313775789a5b7a7f504bbf3d228"
    "f443e3ca4d62b59aca84e990cacaf5c5"
    "2b0930daa23de94ce87017ba2d84988d"
    "dfc9c58db67aada613c2dd08457941a6"
)


def _xor(a: bytes, b: bytes) -> bytes:
    return bytes(x ^ y for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("backend", BACKENDS)
def test_fips197_c3(backend: str) -> None:
    ecb = common.aes256_ecb(C3_KEY, backend=backend)
    assert ecb.encrypt_block(C3_PLAINTEXT) == C3_CIPHERTEXT
    assert ecb.encrypt_blocks(C3_PLAINTEXT * 3) == C3_CIPHERTEXT * 3
    assert ecb.encrypt_block(C3_PLAINTEXT) == C3_CIPHERTEXT  # the cached cipher is reusable


@pytest.mark.parametrize("backend", BACKENDS)
def test_aes128_fips197_c1_and_sp800_38a_f11(backend: str) -> None:
    ecb = common.aes128_ecb(C1_KEY, backend=backend)
    assert ecb.encrypt_block(C3_PLAINTEXT) == C1_CIPHERTEXT
    assert common.aes128_ecb(F11_KEY, backend=backend).encrypt_blocks(F11_PLAINTEXT) == (
        F11_CIPHERTEXT
    )


@pytest.mark.parametrize("backend", BACKENDS)
def test_aes128_key_length_checked(backend: str) -> None:
    with pytest.raises(ValueError, match="AES-128 key must be 16 bytes"):
        common.aes128_ecb(bytes(32), backend=backend)
    with pytest.raises(TypeError):
        common.aes128_ecb("not bytes", backend=backend)  # type: ignore[arg-type]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("pieces", [[64], [16, 16, 16, 16], [5, 40, 19], [0, 1, 63]])
def test_sp800_38a_f55_ctr(backend: str, pieces: list[int]) -> None:
    stream = common.aes256_ctr(F55_KEY, F55_COUNTER, backend=backend)
    keystream = b"".join(stream.read(n) for n in pieces)
    assert _xor(keystream, F55_PLAINTEXT) == F55_CIPHERTEXT


def _gf_mul(a: int, b: int) -> int:
    """GF(2^8) product, FIPS 197 §4.2 (test code: plain shift-and-add)."""
    p = 0
    for _ in range(8):
        if b & 1:
            p ^= a
        a = (a << 1) ^ (0x11B if a & 0x80 else 0)
        b >>= 1
    return p


def _sbox_by_definition(b: int) -> int:
    """FIPS 197 §5.1.1: the inverse (0 -> 0), then the affine map with c = 0x63."""
    inv = next((x for x in range(1, 256) if _gf_mul(b, x) == 1), 0)
    out = 0
    for i in range(8):
        bit = 0
        for k in (0, 4, 5, 6, 7):
            bit ^= (inv >> ((i + k) % 8)) & 1
        out |= (bit ^ ((0x63 >> i) & 1)) << i
    return out


def test_bitsliced_sbox_all_bytes() -> None:
    # All 256 bytes at once: 256 byte slots, bit k of byte j in bit 8j + k.
    value = int.from_bytes(bytes(range(256)), "little")
    ones = int.from_bytes(b"\x01" * 256, "little")
    planes = tuple((value >> k) & ones for k in range(8))
    out = pyaes.sub_bytes_planes(planes, ones)  # type: ignore[arg-type]
    result = sum(p << k for k, p in enumerate(out)).to_bytes(256, "little")
    assert list(result) == [_sbox_by_definition(b) for b in range(256)]
    assert result[0x00] == 0x63 and result[0x53] == 0xED  # FIPS 197 §5.1.1 example


@settings(max_examples=25, deadline=None)
@given(key=st.binary(min_size=32, max_size=32), blocks=st.integers(1, 40), data=st.data())
def test_python_ecb_matches_openssl(key: bytes, blocks: int, data: st.DataObject) -> None:
    plaintext = data.draw(st.binary(min_size=16 * blocks, max_size=16 * blocks))
    expected = common.aes256_ecb(key, backend="openssl").encrypt_blocks(plaintext)
    assert common.aes256_ecb(key, backend="python").encrypt_blocks(plaintext) == expected


@settings(max_examples=25, deadline=None)
@given(
    key=st.binary(min_size=32, max_size=32),
    counter=st.one_of(st.integers(0, 2**128 - 1), st.integers(2**128 - 5, 2**128 - 1)),
    reads=st.lists(st.integers(0, 100), max_size=6),
)
def test_python_ctr_matches_openssl_and_definition(
    key: bytes, counter: int, reads: list[int]
) -> None:
    block = counter.to_bytes(16, "big")
    py = common.aes256_ctr(key, block, backend="python")
    ossl = common.aes256_ctr(key, block, backend="openssl")
    got = [py.read(n) for n in reads]
    assert got == [ossl.read(n) for n in reads]
    # SP 800-38A B.1 with m = 128: block i is E(K, counter + i mod 2^128).
    total = sum(reads)
    count = (total + 15) // 16
    counters = b"".join(((counter + i) % 2**128).to_bytes(16, "big") for i in range(count))
    assert b"".join(got) == common.aes256_ecb(key).encrypt_blocks(counters)[:total]


def test_python_batches_beyond_one_batch() -> None:
    # More blocks than one bitsliced batch, so the batch boundary is crossed.
    n = 16 * (pyaes._BATCH + 3)
    key = bytes(range(32))
    got = common.aes256_ctr(key, bytes(16), backend="python").read(n)
    assert got == common.aes256_ctr(key, bytes(16), backend="openssl").read(n)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("n", [0, 1, 16, 17, 504])
def test_ctr_many_is_ctr_per_nonce(backend: str, n: int) -> None:
    key = bytes(range(32))
    nonces = [bytes([i]) * 12 for i in range(5)]
    out = common.aes256_ctr_many(key, nonces, n, backend=backend)
    assert out.shape == (5, n)
    for row, nonce in zip(out, nonces, strict=True):
        stream = common.aes256_ctr(key, nonce + bytes(4), backend=backend).read(n)
        assert row.tobytes() == stream


def test_ctr_many_checks_its_arguments() -> None:
    with pytest.raises(ValueError, match="AES-256-CTR nonce"):
        common.aes256_ctr_many(bytes(32), [bytes(11)], 16)
    with pytest.raises(ValueError, match="AES-256 key"):
        common.aes256_ctr_many(bytes(16), [bytes(12)], 16)
    with pytest.raises(TypeError, match="n must be an int"):
        common.aes256_ctr_many(bytes(32), [bytes(12)], 1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        common.aes256_ctr_many(bytes(32), ["x" * 12], 16)  # type: ignore[list-item]
