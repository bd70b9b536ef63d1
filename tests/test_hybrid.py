"""The hybrid KEMs: X-Wing (= MLKEM768-X25519), MLKEM768-P256, MLKEM1024-P384.

Vectors: draft-connolly-cfrg-xwing-kem (tests/vectors/xwing) and
draft-irtf-cfrg-concrete-hybrid-kems (tests/vectors/hybrid-kems); the ML-KEM-based
HPKE entries of draft-ietf-hpke-pq are in test_hpke.py. Cross-checks compose
pyca/cryptography's ML-KEM and curves independently of pqkit.hybrid.
"""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from helpers import h, load_json

import pqkit
from pqkit.hybrid.params import CATALOG

pytest.importorskip("cryptography", reason="the curve halves need pyca/cryptography")
from cryptography.hazmat.primitives.asymmetric import ec, x25519
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    PublicFormat,
)

NAMES = [a.name for a in CATALOG]
FILES = {"X-Wing": "MLKEM768-X25519", "MLKEM768-P256": "MLKEM768-P256"}
FILES["MLKEM1024-P384"] = "MLKEM1024-P384"


def _cases() -> list[tuple[str, dict[str, str]]]:
    cases = [("X-Wing", t) for t in load_json("xwing/xwing-test-vectors.json")["vectors"]]
    for name, file in FILES.items():
        for t in load_json(f"hybrid-kems/{file}.json")["vectors"]:
            cases.append((name, {**t, "eseed": t["randomness"]}))
    return cases


CASES = _cases()


@pytest.mark.parametrize(
    ("name", "t"), CASES, ids=[f"{n}-{t['tcId']}-{len(t['eseed'])}" for n, t in CASES]
)
def test_vectors(name: str, t: dict[str, str]) -> None:
    kem = pqkit.kem(name)
    pk, sk = kem.keygen_derand(h(t["seed"]))
    assert (pk, sk) == (h(t["pk"]), h(t["sk"]))
    ss, ct = kem.encaps_derand(pk, h(t["eseed"]))
    assert (ct, ss) == (h(t["ct"]), h(t["ss"]))
    assert kem.decaps(sk, ct) == h(t["ss"])


def test_alias_and_sizes() -> None:
    assert pqkit.kem("MLKEM768-X25519") is pqkit.kem("X-Wing")
    assert pqkit.kem("mlkem768_x25519").name == "X-Wing"
    assert "X-Wing" in pqkit.kems() and "MLKEM768-X25519" not in pqkit.kems()
    sizes = {n: (pqkit.kem(n).length_public_key, pqkit.kem(n).length_ciphertext) for n in NAMES}
    assert sizes == {
        "X-Wing": (1216, 1120),
        "MLKEM768-P256": (1249, 1153),
        "MLKEM1024-P384": (1665, 1665),
    }
    for n in NAMES:
        kem = pqkit.kem(n)
        assert (kem.length_secret_key, kem.length_shared_secret, kem.oid) == (32, 32, None)


# --- an independent composition of pyca's ML-KEM and curves ---------------------------

_LABELS = {"X-Wing": b"\\.//^\\", "MLKEM768-P256": b"MLKEM768-P256"}
_LABELS["MLKEM1024-P384"] = b"MLKEM1024-P384"
_ORDER = {
    "MLKEM768-P256": (ec.SECP256R1(), 32, 128),
    "MLKEM1024-P384": (ec.SECP384R1(), 48, 48),
}


def _pyca_scalar(curve: Any, n: int, seed: bytes) -> Any:
    for i in range(0, len(seed), n):
        try:
            return ec.derive_private_key(int.from_bytes(seed[i : i + n], "big"), curve)
        except ValueError:
            continue
    raise AssertionError("no scalar")


def _pyca_decaps(name: str, seed: bytes, ct: bytes) -> bytes:
    mlkem = pytest.importorskip("cryptography.hazmat.primitives.asymmetric.mlkem")
    n_t = 32 if name == "X-Wing" else _ORDER[name][2]
    expanded = hashlib.shake_256(seed).digest(64 + n_t)
    if name == "X-Wing":
        dk = mlkem.MLKEM768PrivateKey.from_seed_bytes(expanded[:64])
        sk_t = x25519.X25519PrivateKey.from_private_bytes(expanded[64:])
        pk_t = sk_t.public_key().public_bytes_raw()
        ct_pq, ct_t = ct[:1088], ct[1088:]
        ss_t = sk_t.exchange(x25519.X25519PublicKey.from_public_bytes(ct_t))
    else:
        curve, n, _ = _ORDER[name]
        cls = mlkem.MLKEM768PrivateKey if "768" in name else mlkem.MLKEM1024PrivateKey
        dk = cls.from_seed_bytes(expanded[:64])
        sk_e = _pyca_scalar(curve, n, expanded[64:])
        pk_t = sk_e.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        split = len(ct) - len(pk_t)
        ct_pq, ct_t = ct[:split], ct[split:]
        peer = ec.EllipticCurvePublicKey.from_encoded_point(curve, ct_t)
        ss_t = sk_e.exchange(ec.ECDH(), peer)
    ss_pq = dk.decapsulate(ct_pq)
    return hashlib.sha3_256(ss_pq + ss_t + ct_t + pk_t + _LABELS[name]).digest()


@pytest.mark.parametrize("name", NAMES)
def test_random_round_trip_matches_pyca_composition(name: str) -> None:
    pytest.importorskip("cryptography.hazmat.primitives.asymmetric.mlkem")
    kem = pqkit.kem(name)
    pk, sk = kem.keygen()
    ss, ct = kem.encaps(pk)
    assert kem.decaps(sk, ct) == ss == _pyca_decaps(name, sk, ct)


def test_rng_is_asked_for_seed_and_randomness() -> None:
    calls: list[int] = []

    def rng(n: int) -> bytes:
        calls.append(n)
        return bytes([7]) * n

    kem = pqkit.kem("MLKEM768-P256")
    pk, sk = kem.keygen(rng=rng)
    assert sk == bytes([7]) * 32
    assert kem.encaps(pk, rng=rng) == kem.encaps_derand(pk, bytes([7]) * 160)
    assert calls == [32, 160]


def test_p256_shorter_seed_means_fewer_candidates() -> None:
    kem = pqkit.kem("MLKEM768-P256")
    pk, _ = kem.keygen_derand(bytes(32))
    r = bytes(range(160))
    # The first P-256 block is a valid scalar, so 128 bytes (three blocks) and
    # 160 bytes (four) give the same encapsulation.
    assert kem.encaps_derand(pk, r[:128]) == kem.encaps_derand(pk, r)
    # An invalid first block (zero, then >= order) moves on to the next one.
    skip = bytes(32) + bytes(32) + b"\xff" * 32 + r[32:64]
    assert kem.encaps_derand(pk, skip) == kem.encaps_derand(pk, bytes(32) + r[32:64])
    with pytest.raises(ValueError, match="RandomScalar"):
        kem.encaps_derand(pk, bytes(32) + b"\xff" * 96)


# --- bad input -----------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_wrong_lengths_and_types(name: str) -> None:
    kem = pqkit.kem(name)
    pk, sk = kem.keygen_derand(bytes(32))
    _ss, ct = kem.encaps_derand(pk, bytes(range(kem.length_randomness)))
    with pytest.raises(ValueError, match="seed must be 32 bytes"):
        kem.keygen_derand(bytes(31))
    with pytest.raises(TypeError, match="seed"):
        kem.keygen_derand("00" * 32)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="public key must be"):
        kem.encaps_derand(pk[:-1], bytes(kem.length_randomness))
    with pytest.raises(ValueError, match="randomness"):
        kem.encaps_derand(pk, bytes(kem.length_randomness - 1))
    with pytest.raises(ValueError, match="randomness"):
        kem.encaps_derand(pk, bytes(31))
    with pytest.raises(TypeError, match="randomness"):
        kem.encaps_derand(pk, None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="ciphertext must be"):
        kem.decaps(sk, ct + b"\x00")
    with pytest.raises(ValueError, match="secret key must be 32 bytes"):
        kem.decaps(sk + b"\x00", ct)


@pytest.mark.parametrize("name", NAMES)
def test_mlkem_modulus_check_on_public_key(name: str) -> None:
    kem = pqkit.kem(name)
    pk, _ = kem.keygen_derand(bytes(32))
    bad = b"\xff\xff" + pk[2:]  # first 12-bit coefficient 0xfff >= q
    with pytest.raises(ValueError, match="modulus"):
        kem.encaps(bad)


@pytest.mark.parametrize("name", ["MLKEM768-P256", "MLKEM1024-P384"])
def test_invalid_curve_points(name: str) -> None:
    kem = pqkit.kem(name)
    pk, sk = kem.keygen_derand(bytes(32))
    _, ct = kem.encaps(pk)
    n = kem.params.length_group_element
    off_curve = b"\x04" + bytes(n - 1)  # (0, 0) is on neither curve
    compressed = b"\x02" + pk[-n + 1 :]
    infinity = bytes(n)
    for point in (off_curve, compressed, infinity):
        with pytest.raises(ValueError, match="public key"):
            kem.encaps(pk[:-n] + point)
        with pytest.raises(ValueError, match="ciphertext"):
            kem.decaps(sk, ct[:-n] + point)


def test_x25519_low_order_point_rejected() -> None:
    kem = pqkit.kem("X-Wing")
    pk, sk = kem.keygen_derand(bytes(32))
    _, ct = kem.encaps(pk)
    zero = bytes(32)  # u = 0 is of low order: the X25519 output is all zero
    with pytest.raises(ValueError, match="all zero"):
        kem.encaps(pk[:-32] + zero)
    with pytest.raises(ValueError, match="all zero"):
        kem.decaps(sk, ct[:-32] + zero)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("where", ["mlkem", "curve"])
def test_modified_ciphertext_gives_wrong_secret(name: str, where: str) -> None:
    kem = pqkit.kem(name)
    pk, sk = kem.keygen_derand(bytes(range(32)))
    ss, ct = kem.encaps_derand(pk, bytes(range(kem.length_randomness)))
    if where == "mlkem":
        bad = bytearray(ct)
        bad[5] ^= 1
        assert kem.decaps(sk, bytes(bad)) != ss
        return
    # A different valid ephemeral point: another encapsulation's curve part.
    _, other = kem.encaps(pk)
    n = kem.params.length_group_element
    assert kem.decaps(sk, ct[:-n] + other[-n:]) != ss


def test_inputs_not_modified_and_bytes_like_accepted() -> None:
    kem = pqkit.kem("X-Wing")
    seed = bytearray(range(32))
    pk, sk = kem.keygen_derand(seed)
    assert seed == bytearray(range(32))
    ss, ct = kem.encaps_derand(memoryview(pk), bytearray(64))
    assert kem.decaps(bytearray(sk), memoryview(ct)) == ss


def test_using_passes_backend_to_mlkem_half() -> None:
    kem = pqkit.kem("X-Wing")
    ref = kem.using(arith="ref")
    assert ref.pq.arith == "ref" and ref.arith == "ref" and kem.pq.arith is None
    pk, sk = kem.keygen_derand(bytes(32))
    assert ref.keygen_derand(bytes(32)) == (pk, sk)
    with pytest.raises(pqkit.UnknownBackend):
        kem.using(arith="no-such-backend")
