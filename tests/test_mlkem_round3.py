"""Round-3 Kyber and Kyber-90s (v3.02): NIST KAT entry 0 through a CtrDrbg, round
trips, implicit rejection, randomness order and bad input."""

from __future__ import annotations

import hashlib
import os
from typing import Any

import pytest
from helpers import ARITH_BACKENDS, h, load_json

import pqkit
from pqkit.common import CtrDrbg
from pqkit.schemes import Kem

NAMES = ["Kyber512", "Kyber768", "Kyber1024", "Kyber512-90s", "Kyber768-90s", "Kyber1024-90s"]
LEVEL = {"512": 1, "768": 3, "1024": 5}


def _kdf_h(name: str) -> Any:
    """(KDF, H) of the scheme's suite, from hashlib, for independent checks."""
    if name.endswith("-90s"):
        return (lambda x: hashlib.sha256(x).digest()), (lambda x: hashlib.sha256(x).digest())
    return (lambda x: hashlib.shake_256(x).digest(32)), (lambda x: hashlib.sha3_256(x).digest())


@pytest.mark.parametrize("backend", ARITH_BACKENDS)
@pytest.mark.parametrize("name", NAMES)
def test_nist_kat_entry_0(name: str, backend: str) -> None:
    entry = load_json(f"r3-kat-first/{name}.json")["entry"]
    kem = pqkit.kem(name).using(arith=backend)  # type: ignore[attr-defined]
    drbg = CtrDrbg(h(entry["seed"]))
    pk, sk = kem.keygen(rng=drbg)
    assert pk == h(entry["pk"])
    assert sk == h(entry["sk"])
    ss, ct = kem.encaps(pk, rng=drbg)
    assert ct == h(entry["ct"])
    assert ss == h(entry["ss"])
    assert kem.decaps(sk, ct) == ss


@pytest.mark.parametrize("name", NAMES)
def test_registry_sizes_and_randomness_order(name: str) -> None:
    kem = pqkit.kem(name)
    assert isinstance(kem, Kem)
    assert name in pqkit.kems()
    ml = pqkit.kem("ML-KEM-" + name.removeprefix("Kyber").removesuffix("-90s"))
    assert (kem.length_public_key, kem.length_secret_key, kem.length_ciphertext) == (
        ml.length_public_key,
        ml.length_secret_key,
        ml.length_ciphertext,
    )
    assert kem.length_shared_secret == 32
    assert kem.claimed_nist_level == LEVEL[name.removeprefix("Kyber").removesuffix("-90s")]
    requests: list[bytes] = []

    def rng(n: int) -> bytes:
        requests.append(os.urandom(n))
        return requests[-1]

    pk, sk = kem.keygen(rng=rng)
    ss, ct = kem.encaps(pk, rng=rng)
    assert [len(r) for r in requests] == [32, 32, 32]  # d, z, then the encaps coins
    d, z, coins = requests
    assert kem.keygen_derand(d + z) == (pk, sk)
    assert sk[-32:] == z
    assert kem.encaps_derand(pk, coins) == (ss, ct)
    assert kem.decaps(sk, ct) == ss


@pytest.mark.parametrize("name", NAMES)
def test_differs_from_ml_kem(name: str) -> None:
    seed = bytes(range(64))
    ml = pqkit.kem("ML-KEM-" + name.removeprefix("Kyber").removesuffix("-90s"))
    assert pqkit.kem(name).keygen_derand(seed).public_key != ml.keygen_derand(seed).public_key


@pytest.mark.parametrize("name", NAMES)
def test_tampered_ciphertexts_are_rejected_implicitly(name: str) -> None:
    kem = pqkit.kem(name)
    kdf, H = _kdf_h(name)
    pk, sk = kem.keygen()
    ss, ct = kem.encaps(pk)
    z = sk[-32:]
    for position in (0, len(ct) // 2, len(ct) - 1):
        bad = bytearray(ct)
        bad[position] ^= 0x01
        rejected = kem.decaps(sk, bytes(bad))
        assert rejected != ss
        assert rejected == kdf(z + H(bytes(bad)))  # KDF(z || H(c))
    assert kem.decaps(sk, ct) == ss


@pytest.mark.parametrize("name", ["Kyber768", "Kyber768-90s"])
def test_bad_input(name: str) -> None:
    kem = pqkit.kem(name)
    pk, sk = kem.keygen_derand(bytes(64))
    _, ct = kem.encaps_derand(pk, bytes(32))
    with pytest.raises(TypeError, match="public key"):
        kem.encaps("pk")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="public key must be 1184 bytes"):
        kem.encaps(pk[:-1])
    with pytest.raises(ValueError, match="ciphertext must be 1088 bytes"):
        kem.decaps(sk, ct + b"\0")
    with pytest.raises(ValueError, match="secret key must be 2400 bytes"):
        kem.decaps(sk[:-1], ct)
    with pytest.raises(ValueError, match="m must be 32 bytes"):
        kem.encaps_derand(pk, bytes(31))
    # Round 3 has no FIPS 203 input checks: an unreduced key is used as is (its
    # coefficients act mod q, as in the reference code), a corrupted H(pk) only
    # changes the derived keys.
    unreduced = bytes([0xFF, 0xFF]) + pk[2:]
    ss, ct2 = kem.encaps(unreduced)
    assert len(ss) == 32 and len(ct2) == 1088
    bad_h = bytearray(sk)
    bad_h[-40] ^= 1
    assert len(kem.decaps(bytes(bad_h), ct)) == 32


@pytest.mark.parametrize("aes", ["openssl", "python"])
def test_90s_keystreams_are_aes256_ctr(aes: str) -> None:
    from pqkit import common
    from pqkit.mlkem.symmetric import KYBER90S

    with common.use(aes=aes):
        ops = KYBER90S.bind()
        key = bytes(range(32))
        matrix = ops.xof_matrix(key, 3, 200)
        for i in range(3):
            for j in range(3):
                want = common.aes256_ctr(key, bytes([j, i]) + bytes(14)).read(200)
                assert matrix[3 * i + j].tobytes() == want
                assert ops.xof_entry(key, i, j, 200).tobytes() == want
        prf = ops.prf_many(3, key, [0, 5, 255])
        for row, b in enumerate([0, 5, 255]):
            assert prf[row].tobytes() == common.aes256_ctr(key, bytes([b]) + bytes(15)).read(192)


def test_90s_kat_with_the_python_aes_provider() -> None:
    from pqkit import common

    entry = load_json("r3-kat-first/Kyber512-90s.json")["entry"]
    with common.use(aes="python"):
        kem = pqkit.kem("Kyber512-90s")
        drbg = CtrDrbg(h(entry["seed"]))
        pk, sk = kem.keygen(rng=drbg)
        ss, ct = kem.encaps(pk, rng=drbg)
        assert (pk, sk, ct, ss) == (h(entry["pk"]), h(entry["sk"]), h(entry["ct"]), h(entry["ss"]))
        assert kem.decaps(sk, ct) == ss


def test_90s_short_xof_rows_are_extended(monkeypatch: pytest.MonkeyPatch) -> None:
    from pqkit.mlkem import symmetric as suites

    entry = load_json("r3-kat-first/Kyber768-90s.json")["entry"]
    monkeypatch.setattr(suites._Kyber90sOps, "xof_bytes", 384)  # nearly every entry short
    kem = pqkit.kem("Kyber768-90s")
    drbg = CtrDrbg(h(entry["seed"]))
    pk, sk = kem.keygen(rng=drbg)
    ss, ct = kem.encaps(pk, rng=drbg)
    assert (pk, sk, ct, ss) == (h(entry["pk"]), h(entry["sk"]), h(entry["ct"]), h(entry["ss"]))
