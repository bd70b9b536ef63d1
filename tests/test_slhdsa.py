"""SLH-DSA (FIPS 205) through the scheme API: sizes, the external interface by
its definition through slh_sign_internal, HashSLH-DSA, hedged and deterministic
signing, symmetric backends, and every input check."""

from __future__ import annotations

import pytest
from helpers import h, load_json

import pqkit
from pqkit import common
from pqkit.prehash import PREHASHES
from pqkit.slhdsa.adrs import Adrs, AdrsCodec, base_2b
from pqkit.slhdsa.fips205 import SLHDSA
from pqkit.slhdsa.params import CATALOG, PARAMS

# FIPS 205, Table 2: n, h, d, h', a, k, lg_w, m, category, pk bytes, sig bytes.
TABLE_2 = {
    "128s": (16, 63, 7, 9, 12, 14, 4, 30, 1, 32, 7856),
    "128f": (16, 66, 22, 3, 6, 33, 4, 34, 1, 32, 17088),
    "192s": (24, 63, 7, 9, 14, 17, 4, 39, 3, 48, 16224),
    "192f": (24, 66, 22, 3, 8, 33, 4, 42, 3, 48, 35664),
    "256s": (32, 64, 8, 8, 14, 22, 4, 47, 5, 64, 29792),
    "256f": (32, 68, 17, 4, 9, 35, 4, 49, 5, 64, 49856),
}
NAMES = [f"SLH-DSA-{fam}-{size}" for fam in ("SHA2", "SHAKE") for size in TABLE_2]
FAST = ["SLH-DSA-SHA2-128f", "SLH-DSA-SHAKE-128f"]
SEED48 = bytes(range(48))


def scheme(name: str) -> SLHDSA:
    s = pqkit.sig(name)
    assert isinstance(s, SLHDSA)
    return s


@pytest.fixture(scope="module")
def keys() -> dict[str, tuple[bytes, bytes]]:
    return {name: tuple(scheme(name).keygen_derand(SEED48)) for name in FAST}  # type: ignore[misc]


# --- parameters and registry ----------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_table_2(name: str) -> None:
    n, hh, d, hp, a, k, lg_w, m, level, pk_len, sig_len = TABLE_2[name[-4:]]
    p = PARAMS[name]
    assert (p.n, p.h, p.d, p.hp, p.a, p.k, p.lg_w, p.m) == (n, hh, d, hp, a, k, lg_w, m)
    assert p.len == 2 * n + 3  # FIPS 205 §5: len2 = 3 for every set
    s = scheme(name)
    assert s.claimed_nist_level == level
    assert (s.length_public_key, s.length_secret_key, s.length_signature) == (
        pk_len,
        2 * pk_len,
        sig_len,
    )
    assert s.length_seed == 3 * n
    assert pqkit.sig(name.lower().replace("-", "")) is s


def test_oids_follow_rfc_9909() -> None:
    # RFC 9909 §3: id-slh-dsa-sha2-128s = sigAlgs 20 ... id-slh-dsa-shake-256f = 31.
    assert [(a.name, a.oid) for a in CATALOG] == [
        (name, f"2.16.840.1.101.3.4.3.{20 + i}") for i, name in enumerate(NAMES)
    ]
    assert [name for name in pqkit.sigs() if name.startswith("SLH")] == NAMES


# --- the helpers of FIPS 205 §4 -------------------------------------------------------


def test_base_2b_and_compressed_address() -> None:
    assert base_2b(b"\x12\x34", 4, 4) == [1, 2, 3, 4]
    assert base_2b(b"\xff\x00\xff", 12, 2) == [0xFF0, 0x0FF]
    assert base_2b(b"\xab\xcd", 6, 2) == [0xAB >> 2, ((0xAB & 3) << 4) | 0xC]
    adrs = Adrs()
    adrs.set_layer_address(0x0A)
    adrs.set_tree_address(0x0102030405060708)
    adrs.set_type_and_clear(3)
    adrs.set_key_pair_address(9)
    adrs.set_tree_height(2)
    adrs.set_tree_index(77)
    full = AdrsCodec(compressed=False).encode(adrs)
    assert len(full) == 32
    # FIPS 205 §11.2: ADRSc = ADRS[3] || ADRS[8:16] || ADRS[19] || ADRS[20:32]
    assert (
        AdrsCodec(compressed=True).encode(adrs)
        == full[3:4] + full[8:16] + full[19:20] + full[20:32]
    )
    twin = adrs.copy()
    twin.set_type_and_clear(5)
    assert (twin.keypair, twin.word2, twin.word3, adrs.keypair) == (0, 0, 0, 9)
    assert adrs.get_key_pair_address() == 9 and adrs.get_tree_index() == 77


# --- the external interface by definition ---------------------------------------------


@pytest.mark.parametrize("name", FAST)
def test_pure_sign_is_sign_internal_on_m_prime(
    name: str, keys: dict[str, tuple[bytes, bytes]]
) -> None:
    s = scheme(name)
    pk, sk = keys[name]
    ctx, msg = b"context", b"message"
    m_prime = b"\x00" + bytes([len(ctx)]) + ctx + msg  # FIPS 205, Algorithm 22 line 8
    addrnd = bytes(range(100, 116))
    sig = s.sign(sk, msg, ctx, rnd=addrnd)
    assert sig == s.sign_internal(sk, m_prime, addrnd)
    assert s.sign(sk, msg, ctx, deterministic=True) == s.sign_internal(sk, m_prime)
    assert s.verify(pk, msg, sig, ctx)
    assert s.verify_internal(pk, m_prime, sig)
    assert not s.verify(pk, msg, sig, b"other")
    assert not s.verify(pk, msg + b"!", sig, ctx)
    assert not s.verify(pk, msg, sig, ctx, prehash="SHA2-256")


@pytest.mark.parametrize("prehash", list(PREHASHES))
def test_hash_slh_dsa_is_sign_internal_on_m_prime(
    prehash: str, keys: dict[str, tuple[bytes, bytes]]
) -> None:
    name = "SLH-DSA-SHA2-128f"
    s = scheme(name)
    pk, sk = keys[name]
    ph = PREHASHES[prehash]
    ctx, msg = b"ctx", b"a message to pre-hash"
    # FIPS 205, Algorithm 23 line 24: M' = 1 || |ctx| || ctx || OID || PH(M)
    m_prime = b"\x01" + bytes([len(ctx)]) + ctx + ph.der + ph.function(msg)
    sig = s.sign(sk, msg, ctx, prehash=prehash, deterministic=True)
    assert sig == s.sign_internal(sk, m_prime)
    assert s.verify(pk, msg, sig, ctx, prehash=prehash)
    assert not s.verify(pk, msg, sig, ctx)
    other = "SHA2-512" if prehash != "SHA2-512" else "SHA2-256"
    assert not s.verify(pk, msg, sig, ctx, prehash=other)


def test_hedged_signing_draws_n_bytes(keys: dict[str, tuple[bytes, bytes]]) -> None:
    name = "SLH-DSA-SHAKE-128f"
    s = scheme(name)
    pk, sk = keys[name]
    calls: list[int] = []

    def rng(n: int) -> bytes:
        calls.append(n)
        return bytes([len(calls)]) * n

    first = s.sign(sk, b"m", rng=rng)
    second = s.sign(sk, b"m", rng=rng)
    assert calls == [16, 16]
    assert first != second
    assert first == s.sign_internal(sk, b"\x00\x00m", bytes([1]) * 16)
    assert s.verify(pk, b"m", first) and s.verify(pk, b"m", second)
    default = s.sign(sk, b"m")
    assert default not in (first, second) and s.verify(pk, b"m", default)
    assert s.sign(sk, b"m", deterministic=True) == s.sign(sk, b"m", deterministic=True)


def test_keygen_draws_3n_bytes() -> None:
    s = scheme("SLH-DSA-SHA2-128f")
    pk, sk = s.keygen(rng=lambda n: bytes([n]) * n)
    assert (pk, sk) == s.keygen_derand(bytes([48]) * 48)
    assert sk[32:] == pk and len(sk) == 64
    assert s.public_key_from_secret(sk) == pk


@pytest.mark.parametrize("backend", ["python", "openssl"])
@pytest.mark.parametrize("name", [*FAST, "SLH-DSA-SHA2-192f"])  # 192f: SHA-512 for H, T_l
def test_symmetric_backends_agree(name: str, backend: str) -> None:
    group = next(
        g
        for g in load_json("acvp/SLH-DSA-keyGen-FIPS205.json")["testGroups"]
        if g["parameterSet"] == name
    )
    test = group["tests"][0]
    with common.use(backend):
        pk, sk = scheme(name).keygen_derand(h(test["skSeed"] + test["skPrf"] + test["pkSeed"]))
    assert (pk, sk) == (h(test["pk"]), h(test["sk"]))


@pytest.mark.parametrize("name", FAST)
def test_python_backend_signs_the_same(name: str, keys: dict[str, tuple[bytes, bytes]]) -> None:
    s = scheme(name)
    pk, sk = keys[name]
    sig = s.sign(sk, b"backend", deterministic=True)
    with common.use("python"):
        assert s.verify(pk, b"backend", sig)


# --- bad input ----------------------------------------------------------------------------


def test_bad_input(keys: dict[str, tuple[bytes, bytes]]) -> None:
    name = "SLH-DSA-SHAKE-128f"
    s = scheme(name)
    pk, sk = keys[name]
    sig = s.sign(sk, b"m", deterministic=True)
    with pytest.raises(ValueError, match="seed must be 48 bytes, got 47"):
        s.keygen_derand(bytes(47))
    with pytest.raises(TypeError, match="seed must be bytes-like"):
        s.keygen_derand("x" * 48)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="secret key must be 64 bytes, got 63"):
        s.sign(sk[:-1], b"m")
    with pytest.raises(ValueError, match="public key must be 32 bytes, got 33"):
        s.verify(pk + b"\x00", b"m", sig)
    with pytest.raises(ValueError, match="at most 255 bytes, got 256"):
        s.sign(sk, b"m", bytes(256))
    with pytest.raises(ValueError, match="at most 255 bytes, got 256"):
        s.verify(pk, b"m", sig, bytes(256))
    assert s.verify(pk, b"m", s.sign(sk, b"m", bytes(255), deterministic=True), bytes(255))
    with pytest.raises(ValueError, match=r"unknown prehash 'MD5'.*SHA2-256.*SHAKE-256"):
        s.sign(sk, b"m", prehash="MD5")
    with pytest.raises(ValueError, match="unknown prehash"):
        s.verify(pk, b"m", sig, prehash="sha256")
    with pytest.raises(TypeError, match="prehash must be a str"):
        s.sign(sk, b"m", prehash=256)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rnd must be 16 bytes, got 32"):
        s.sign(sk, b"m", rnd=bytes(32))
    with pytest.raises(ValueError, match="not both"):
        s.sign(sk, b"m", rnd=bytes(16), deterministic=True)
    with pytest.raises(ValueError, match=r"rng\(16\) returned 15 bytes"):
        s.sign(sk, b"m", rng=lambda n: bytes(n - 1))
    with pytest.raises(ValueError, match="addrnd must be 16 bytes, got 17"):
        s.sign_internal(sk, b"m", bytes(17))
    with pytest.raises(TypeError, match="message must be bytes-like"):
        s.sign(sk, "m")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="m_prime must be bytes-like"):
        s.verify_internal(pk, None, sig)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="ctx must be bytes-like"):
        s.sign(sk, b"m", "ctx")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="signature must be bytes-like"):
        s.verify(pk, b"m", 5)  # type: ignore[arg-type]
    bad_root = sk[:-1] + bytes([sk[-1] ^ 1])
    with pytest.raises(ValueError, match=r"PK\.root is not the hypertree root"):
        s.public_key_from_secret(bad_root)


def test_malformed_signatures_are_false(keys: dict[str, tuple[bytes, bytes]]) -> None:
    name = "SLH-DSA-SHA2-128f"
    s = scheme(name)
    pk, sk = keys[name]
    msg = b"m"
    sig = bytearray(s.sign(sk, msg, deterministic=True))
    original = bytes(sig)
    assert s.verify(pk, msg, sig)
    assert sig == original  # inputs are never modified
    assert not s.verify(pk, msg, original[:-1])
    assert not s.verify(pk, msg, original + b"\x00")
    assert not s.verify(pk, msg, b"")
    p = PARAMS[name]
    # one flipped bit in R, in SIG_FORS, in the first and the last XMSS signature
    for pos in (0, p.n + 5, p.n + p.length_fors_signature + 3, len(original) - 1):
        tampered = bytearray(original)
        tampered[pos] ^= 0x80
        assert not s.verify(pk, msg, bytes(tampered)), pos
    other_pk = pk[: p.n] + bytes(p.n)
    assert not s.verify(other_pk, msg, original)
