"""The ML-KEM scheme objects: registry, sizes, randomness order, round trips,
implicit rejection, backend choice and bad input."""

from __future__ import annotations

import hashlib
import os
from typing import Any

import pytest
from helpers import ARITH_BACKENDS
from hypothesis import given, settings
from hypothesis import strategies as st

import pqkit
from pqkit import arith
from pqkit.schemes import Kem

NAMES = ["ML-KEM-512", "ML-KEM-768", "ML-KEM-1024"]
SIZES = {
    "ML-KEM-512": (800, 1632, 768, 1),
    "ML-KEM-768": (1184, 2400, 1088, 3),
    "ML-KEM-1024": (1568, 3168, 1568, 5),
}


class Recorder:
    """An rng that serves fixed bytes and records the requests."""

    def __init__(self) -> None:
        self.requests: list[int] = []
        self.given: list[bytes] = []

    def __call__(self, n: int) -> bytes:
        self.requests.append(n)
        out = os.urandom(n)
        self.given.append(out)
        return out


@pytest.mark.parametrize("name", NAMES)
def test_registry_and_sizes(name: str) -> None:
    kem = pqkit.kem(name)
    assert isinstance(kem, Kem)
    assert name in pqkit.kems()
    assert pqkit.kem(name.lower().replace("-", "")) is kem
    pk_len, sk_len, ct_len, level = SIZES[name]
    assert kem.name == name
    assert (kem.length_public_key, kem.length_secret_key, kem.length_ciphertext) == (
        pk_len,
        sk_len,
        ct_len,
    )
    assert kem.length_shared_secret == 32
    assert kem.claimed_nist_level == level


@pytest.mark.parametrize("backend", ARITH_BACKENDS)
@pytest.mark.parametrize("name", NAMES)
def test_round_trip_and_randomness_order(name: str, backend: str) -> None:
    kem = pqkit.kem(name).using(arith=backend)  # type: ignore[attr-defined]
    rng = Recorder()
    pk, sk = kem.keygen(rng=rng)
    assert rng.requests == [64]  # d || z in one request (FIPS 203's reference code, liboqs)
    (seed,) = rng.given
    assert kem.keygen_derand(seed) == (pk, sk)
    assert sk[-32:] == seed[32:]
    assert (len(pk), len(sk)) == (kem.length_public_key, kem.length_secret_key)
    ss, ct = kem.encaps(pk, rng=rng)
    assert rng.requests == [64, 32]  # m
    assert kem.encaps_derand(pk, rng.given[1]) == (ss, ct)
    assert isinstance(ss, bytes) and isinstance(ct, bytes)
    assert len(ct) == kem.length_ciphertext
    assert kem.decaps(sk, ct) == ss


@pytest.mark.parametrize("name", NAMES)
def test_implicit_rejection_is_j_of_z_and_c(name: str) -> None:
    kem = pqkit.kem(name)
    pk, sk = kem.keygen()
    ss, ct = kem.encaps(pk)
    z = sk[-32:]
    for position in (0, len(ct) // 2, len(ct) - 1):
        bad = bytearray(ct)
        bad[position] ^= 0x10
        rejected = kem.decaps(sk, bytes(bad))
        assert rejected != ss
        assert rejected == hashlib.shake_256(z + bytes(bad)).digest(32)


def test_default_keygen_and_encaps_use_fresh_randomness() -> None:
    kem = pqkit.kem("ML-KEM-512")
    pk1, _ = kem.keygen()
    pk2, sk2 = kem.keygen()
    assert pk1 != pk2
    (ss1, ct1), (ss2, ct2) = kem.encaps(pk2), kem.encaps(pk2)
    assert ct1 != ct2 and ss1 != ss2
    assert kem.decaps(sk2, ct1) == ss1


@pytest.mark.filterwarnings("ignore::pqkit.arith.NotConstantTimeWarning")  # PQKIT_ARITH=ref
def test_backend_choice_per_call_scope_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    kem = pqkit.kem("ML-KEM-768")
    seed = bytes(range(64))
    want = kem.keygen_derand(seed)
    ref = kem.using(arith="ref")  # type: ignore[attr-defined]
    assert ref.arith == "ref" and kem.arith is None  # type: ignore[attr-defined]
    assert "arith='ref'" in repr(ref)
    assert ref.keygen_derand(seed) == want
    with arith.use("ref"):
        assert kem.keygen_derand(seed) == want
    monkeypatch.setenv("PQKIT_ARITH", "ref")
    assert arith.kernels("mlkem").backend == "ref"
    assert kem.keygen_derand(seed) == want
    monkeypatch.setenv("PQKIT_ARITH", "nope")
    with pytest.raises(pqkit.UnknownBackend):
        kem.keygen_derand(seed)
    with pytest.raises(pqkit.UnknownBackend, match="available"):
        kem.using(arith="nope")  # type: ignore[attr-defined]


# --- bad input --------------------------------------------------------------------

KEM = pqkit.kem("ML-KEM-768")
PK, SK = KEM.keygen_derand(bytes(64))
SS, CT = KEM.encaps_derand(PK, bytes(32))


@pytest.mark.parametrize("bad", ["text", 12, None, [1, 2], 1.5])
def test_non_bytes_are_type_errors(bad: Any) -> None:
    with pytest.raises(TypeError, match="seed"):
        KEM.keygen_derand(bad)
    with pytest.raises(TypeError, match="public key"):
        KEM.encaps(bad)
    with pytest.raises(TypeError, match="public key"):
        KEM.encaps_derand(bad, bytes(32))
    with pytest.raises(TypeError, match="m must be bytes-like"):
        KEM.encaps_derand(PK, bad)
    with pytest.raises(TypeError, match="ciphertext"):
        KEM.decaps(SK, bad)
    with pytest.raises(TypeError, match="secret key"):
        KEM.decaps(bad, CT)


@pytest.mark.parametrize("delta", [-1, 1])
def test_wrong_lengths_are_value_errors(delta: int) -> None:
    def resize(b: bytes) -> bytes:
        return b[:delta] if delta < 0 else b + b"\0"

    with pytest.raises(ValueError, match="seed \\(d \\|\\| z\\) must be 64 bytes, got"):
        KEM.keygen_derand(resize(bytes(64)))
    with pytest.raises(ValueError, match="public key must be 1184 bytes, got"):
        KEM.encaps(resize(PK))
    with pytest.raises(ValueError, match="m must be 32 bytes, got"):
        KEM.encaps_derand(PK, resize(bytes(32)))
    with pytest.raises(ValueError, match="ciphertext must be 1088 bytes, got"):
        KEM.decaps(SK, resize(CT))
    with pytest.raises(ValueError, match="secret key must be 2400 bytes, got"):
        KEM.decaps(resize(SK), CT)
    with pytest.raises(ValueError):
        KEM.decaps(b"", b"")


def test_modulus_check_has_its_own_message() -> None:
    bad = bytearray(PK)
    bad[0] = 0xFF
    bad[1] |= 0x0F  # first coefficient = 4095 >= q
    with pytest.raises(ValueError, match=r"FIPS 203 §7\.2 modulus check failed"):
        KEM.encaps(bad)
    with pytest.raises(ValueError, match=r"FIPS 203 §7\.2 modulus check failed"):
        KEM.encaps_derand(bytes(bad), bytes(32))


@pytest.mark.parametrize("where", ["hash", "embedded-ek"])
def test_hash_check_has_its_own_message(where: str) -> None:
    bad = bytearray(SK)
    bad[768 * 3 + 40 if where == "hash" else 384 * 3 + 5] ^= 1
    with pytest.raises(ValueError, match=r"FIPS 203 §7\.3 hash check failed"):
        KEM.decaps(bytes(bad), CT)


def test_inputs_are_not_modified_and_buffers_accepted() -> None:
    pk, sk, ct = bytearray(PK), bytearray(SK), bytearray(CT)
    assert KEM.decaps(memoryview(sk), ct) == SS
    ss, ct2 = KEM.encaps_derand(pk, bytearray(32))
    assert (ss, ct2) == (SS, CT)
    assert (bytes(pk), bytes(sk), bytes(ct)) == (PK, SK, CT)


def test_rng_results_are_checked() -> None:
    with pytest.raises(ValueError, match="rng\\(64\\) returned 63 bytes"):
        KEM.keygen(rng=lambda n: bytes(n - 1))
    with pytest.raises(TypeError, match="rng\\(32\\) must return bytes"):
        KEM.encaps(PK, rng=lambda n: "x" * n)  # type: ignore[arg-type, return-value]
    with pytest.raises(TypeError, match="rng must be a callable"):
        KEM.keygen(rng=b"not callable")  # type: ignore[arg-type]


@settings(max_examples=40, deadline=None)
@given(st.binary(min_size=1184, max_size=1184), st.binary(min_size=2400, max_size=2400))
def test_random_keys_never_crash(ek: bytes, dk: bytes) -> None:
    try:
        ss, ct = KEM.encaps(ek)
        assert len(ss) == 32 and len(ct) == 1088
    except ValueError as exc:
        assert "§7.2 modulus check" in str(exc)
    with pytest.raises(ValueError, match=r"§7\.3 hash check"):
        KEM.decaps(dk, CT)


@settings(max_examples=40, deadline=None)
@given(st.binary(min_size=1088, max_size=1088))
def test_random_ciphertexts_decapsulate(ct: bytes) -> None:
    assert KEM.decaps(SK, ct) == hashlib.shake_256(SK[-32:] + ct).digest(32) or ct == CT


@pytest.mark.parametrize("backend", ARITH_BACKENDS)
def test_short_xof_rows_are_extended(backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """SampleNTT needs more XOF output when fewer than 256 candidates of the first
    read are accepted: with a first read of 384 bytes (256 candidates) almost every
    matrix entry takes the fallback, and the keys must not change."""
    from pqkit.mlkem import symmetric as suites

    kem = pqkit.kem("ML-KEM-512").using(arith=backend)  # type: ignore[attr-defined]
    seed = bytes(range(64))
    want = kem.keygen_derand(seed)
    ss, ct = kem.encaps_derand(want.public_key, bytes(32))
    monkeypatch.setattr(suites._Sha3Ops, "xof_bytes", 384)
    assert kem.keygen_derand(seed) == want
    assert kem.encaps_derand(want.public_key, bytes(32)) == (ss, ct)
    assert kem.decaps(want.secret_key, ct) == ss


@pytest.mark.parametrize("name", ["ML-KEM-512", "ML-KEM-768", "ML-KEM-1024"])
def test_public_input_checks_without_an_operation(name: str) -> None:
    """check_encapsulation_key / check_decapsulation_key run the §7.2 / §7.3 checks
    alone (the key objects use them on load)."""
    from pqkit.mlkem.fips203 import SCHEMES

    scheme = SCHEMES[name]
    ek, dk = scheme.keygen_derand(bytes(range(64)))
    scheme.check_encapsulation_key(ek)
    scheme.check_decapsulation_key(dk)
    bad_ek = b"\xff\xff" + ek[2:]  # coefficient 0 = 4095 >= q
    with pytest.raises(ValueError, match=r"FIPS 203 §7\.2 modulus check"):
        scheme.check_encapsulation_key(bad_ek)
    k = scheme.length_public_key // 384
    stored = 768 * k + 32
    bad_dk = dk[:stored] + bytes([dk[stored] ^ 1]) + dk[stored + 1 :]
    with pytest.raises(ValueError, match=r"FIPS 203 §7\.3 hash check"):
        scheme.check_decapsulation_key(bad_dk)
    with pytest.raises(ValueError, match="encapsulation key must be"):
        scheme.check_encapsulation_key(ek[:-1])
    with pytest.raises(TypeError):
        scheme.check_decapsulation_key(dk.hex())  # type: ignore[arg-type]
