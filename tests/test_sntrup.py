"""sntrup761 (Streamlined NTRU Prime, round 3): the KEM through ``pqkit.kem``, its
checks and implicit rejection, and every kernel backend against the ``ref`` oracle.
liboqs's known answer (entry 0) is checked by tests/test_liboqs_kats.py."""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from helpers import load_json
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pqkit
from pqkit import arith
from pqkit.common import CtrDrbg
from pqkit.sntrup.kernels import ref
from pqkit.sntrup.scheme import small_decode, small_encode, small_random

P, Q, W = 761, 4591, 286
BACKENDS = tuple(arith.available("sntrup"))
FAST = tuple(b for b in BACKENDS if b != "ref")
KEM = pqkit.kem("sntrup761")


def _kernels(backend: str) -> object:
    return arith.kernels("sntrup", backend)


def test_sizes_and_level() -> None:
    assert (KEM.length_public_key, KEM.length_secret_key) == (1158, 1763)
    assert (KEM.length_ciphertext, KEM.length_shared_secret) == (1039, 32)
    assert KEM.claimed_nist_level == 2
    assert KEM.length_randomness == 4 * P


@pytest.mark.parametrize("backend", BACKENDS)
def test_round_trip_and_sizes(backend: str) -> None:
    kem = KEM.using(arith=backend)
    pk, sk = kem.keygen_derand(bytes(range(48)))
    ss, ct = kem.encaps_derand(pk, bytes(range(256)) * 11 + bytes(228))
    assert (len(pk), len(sk), len(ct), len(ss)) == (1158, 1763, 1039, 32)
    assert kem.decaps(sk, ct) == ss
    assert sk[382 : 382 + 1158] == pk
    assert sk[-32:] == hashlib.sha512(b"\x04" + pk).digest()[:32]


def test_backends_agree_byte_for_byte() -> None:
    seed, m = bytes(range(1, 49)), bytes(i % 251 for i in range(3044))
    outs = set()
    for backend in BACKENDS:
        kem = KEM.using(arith=backend)
        pk, sk = kem.keygen_derand(seed)
        outs.add((pk, sk, kem.encaps_derand(pk, m)))
    assert len(outs) == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_decapsulation_vector_from_the_drafts_reference_code(backend: str) -> None:
    """A (sk, ct, ss) vector made with the C code of
    draft-josefsson-ntruprime-streamlined-00 (sg2342/sntrup761_nif's test data: the
    draft's own vector text was not available here)."""
    v = load_json("sntrup761/decaps-kat.json")
    sk, ct = bytes.fromhex(v["sk"]), bytes.fromhex(v["ct"])
    assert KEM.using(arith=backend).decaps(sk, ct) == bytes.fromhex(v["ss"])


def test_keygen_derand_is_the_drbg_keygen() -> None:
    seed = bytes(range(100, 148))
    assert KEM.keygen_derand(seed) == KEM.keygen(rng=CtrDrbg(seed))


def test_keygen_draws_as_the_reference() -> None:
    """4p bytes per g (until invertible), 4p for f, Small_bytes for rho."""
    asked: list[int] = []
    drbg = CtrDrbg(bytes(48))

    def rng(n: int) -> bytes:
        asked.append(n)
        return drbg(n)

    KEM.keygen(rng=rng)
    assert asked == [4 * P, 4 * P, 191]
    asked.clear()
    KEM.encaps(KEM.keygen(rng=CtrDrbg(bytes(48))).public_key, rng=rng)
    assert asked == [4 * P]


def test_keygen_gives_up_on_a_broken_rng() -> None:
    word = (0x15555556).to_bytes(4, "little")  # Small_random -> 0 for every coefficient
    with pytest.raises(RuntimeError, match="no invertible g"):
        KEM.keygen(rng=lambda n: word * (n // 4))


@pytest.mark.parametrize("backend", FAST)
def test_implicit_rejection(backend: str) -> None:
    kem = KEM.using(arith=backend)
    pk, sk = kem.keygen_derand(bytes(48))
    ss, ct = kem.encaps(pk)
    rho = sk[382 + 1158 : 382 + 1158 + 191]
    for pos in (0, 500, 1006, 1007, 1038):  # the rounded part and the confirmation
        bad = bytearray(ct)
        bad[pos] ^= 1
        want = hashlib.sha512(b"\x00" + hashlib.sha512(b"\x03" + rho).digest()[:32] + bad)
        assert kem.decaps(sk, bytes(bad)) == want.digest()[:32] != ss


def test_wrong_lengths_and_types() -> None:
    pk, sk = KEM.keygen_derand(bytes(48))
    _, ct = KEM.encaps(pk)
    with pytest.raises(ValueError, match="public key"):
        KEM.encaps(pk[:-1])
    with pytest.raises(ValueError, match="m"):
        KEM.encaps_derand(pk, bytes(32))
    with pytest.raises(ValueError, match="secret key"):
        KEM.decaps(sk + b"\x00", ct)
    with pytest.raises(ValueError, match="ciphertext"):
        KEM.decaps(sk, ct[:-1])
    with pytest.raises(ValueError, match="seed"):
        KEM.keygen_derand(bytes(32))
    with pytest.raises(TypeError):
        KEM.decaps(sk, "x" * 1039)  # type: ignore[arg-type]


def test_small_encoding_round_trip() -> None:
    f = small_random(bytes(range(256)) * 11 + bytes(range(228)))
    data = small_encode(f)
    assert len(data) == 191
    assert (small_decode(data, P) == f).all()


# --- kernels against ref ----------------------------------------------------------

small_polys = st.lists(st.integers(-1, 1), min_size=P, max_size=P).map(np.array)
fq_polys = st.lists(st.integers(-(Q // 2), Q // 2), min_size=P, max_size=P).map(np.array)
EDGE_FQ = [np.full(P, -(Q // 2)), np.full(P, Q // 2), np.zeros(P, dtype=np.int64)]
EDGE_SMALL = [np.full(P, -1), np.full(P, 1), np.eye(1, P, P - 1, dtype=np.int64)[0]]


@pytest.mark.parametrize("backend", FAST)
@settings(max_examples=2, deadline=None, suppress_health_check=list(HealthCheck))
@given(f=fq_polys, g=small_polys)
def test_mults_match_ref(backend: str, f: np.ndarray, g: np.ndarray) -> None:
    k: object = _kernels(backend)
    pairs = [(a, g) for a in [f, *EDGE_FQ]] + [(f, b) for b in EDGE_SMALL]
    pairs.append((EDGE_FQ[1], EDGE_SMALL[1]))  # the largest sums
    for a, b in pairs:
        assert (k.rq_mult_small(a, b) == ref.rq_mult_small(a, b)).all()  # type: ignore[attr-defined]
    assert (k.r3_mult(g, g[::-1]) == ref.r3_mult(g, g[::-1])).all()  # type: ignore[attr-defined]
    assert (k.rq_mult3(f) == ref.rq_mult3(f)).all()  # type: ignore[attr-defined]


@pytest.mark.parametrize("backend", FAST)
@settings(max_examples=2, deadline=None, suppress_health_check=list(HealthCheck))
@given(g=small_polys)
def test_inversions_match_ref(backend: str, g: np.ndarray) -> None:
    k: object = _kernels(backend)
    for a in [g, np.zeros(P, dtype=np.int64), *EDGE_SMALL]:
        inv, ok = k.r3_recip(a)  # type: ignore[attr-defined]
        inv_ref, ok_ref = ref.r3_recip(a)
        assert int(ok) == int(ok_ref)
        if int(ok) == 0:
            assert (inv == inv_ref).all()
            one = ref.r3_mult(a, inv)
            assert one[0] == 1 and not one[1:].any()
        else:
            assert not a.any() or int(ok) == -1
    assert int(k.r3_recip(np.zeros(P, dtype=np.int64))[1]) == -1  # type: ignore[attr-defined]
    rec = k.rq_recip3(g)  # type: ignore[attr-defined]
    if g.any():
        assert (rec == ref.rq_recip3(g)).all()


@pytest.mark.parametrize("backend", FAST)
def test_batched_kernels_match_rows(backend: str) -> None:
    k: object = _kernels(backend)
    words = np.frombuffer(hashlib.shake_256(b"rows").digest(8 * 6 * P), dtype="<u4")
    g = (words[: 6 * P].astype(np.int64) % 3 - 1).reshape(2, 3, P)
    f = (words[6 * P :].astype(np.int64) % Q - Q // 2).reshape(2, 3, P)
    got = k.rq_mult_small(f, g)  # type: ignore[attr-defined]
    assert got.shape == (2, 3, P)
    assert (got[1, 2] == ref.rq_mult_small(f[1, 2], g[1, 2])).all()
    inv, ok = k.r3_recip(g)  # type: ignore[attr-defined]
    assert ok.shape == (2, 3) and inv.shape == (2, 3, P)
    assert (inv[0, 1] == k.r3_recip(g[0, 1])[0]).all()  # type: ignore[attr-defined]


@pytest.mark.parametrize("backend", FAST)
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(words=st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=800))
def test_sort_matches_ref(backend: str, words: list[int]) -> None:
    assert (_kernels(backend).sort_uint32(np.array(words)) == sorted(words)).all()  # type: ignore[attr-defined]


@pytest.mark.parametrize("backend", FAST)
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    data=st.binary(min_size=1158, max_size=1158),
    fq=fq_polys,
    rounded=st.lists(st.integers(0, 1530), min_size=P, max_size=P),
)
def test_encodings_match_ref(backend: str, data: bytes, fq: np.ndarray, rounded: list[int]) -> None:
    k: object = _kernels(backend)
    raw = np.frombuffer(data, dtype=np.uint8)
    for s in (raw, np.full(1158, 255, dtype=np.uint8), np.zeros(1158, dtype=np.uint8)):
        assert (k.decode_rq(s) == ref.decode_rq(s)).all()  # type: ignore[attr-defined]
        assert (k.decode_rounded(s[:1007]) == ref.decode_rounded(s[:1007])).all()  # type: ignore[attr-defined]
    for a in [fq, *EDGE_FQ]:
        enc = k.encode_rq(a)  # type: ignore[attr-defined]
        assert enc.tobytes() == ref.encode_rq(a).tobytes()
        assert (k.decode_rq(enc) == a).all()  # type: ignore[attr-defined]
    c = 3 * np.array(rounded) - Q // 2
    enc = k.encode_rounded(c)  # type: ignore[attr-defined]
    assert enc.tobytes() == ref.encode_rounded(c).tobytes() and enc.shape == (1007,)
    assert (k.decode_rounded(enc) == c).all()  # type: ignore[attr-defined]


# --- keys, files and the command line --------------------------------------------


def test_key_objects_and_pem_files() -> None:
    from pqkit.keys.hybrid import (
        load_pem_hybrid_key,
        load_pem_hybrid_private_key,
        load_pem_hybrid_public_key,
    )
    from pqkit.keys.sntrup import Sntrup761PrivateKey, Sntrup761PublicKey

    key = Sntrup761PrivateKey.generate()
    pem = key.private_bytes_pem()
    assert pem.startswith(b"-----BEGIN SNTRUP761 PRIVATE KEY-----\n")
    again = load_pem_hybrid_private_key(pem)
    assert again.private_bytes_raw() == key.private_bytes_raw()
    assert len(key.private_bytes_raw()) == 1763
    public = key.public_key()
    assert public.public_bytes_raw() == key.private_bytes_raw()[382 : 382 + 1158]
    pub_pem = public.public_bytes_pem()
    assert pub_pem.startswith(b"-----BEGIN SNTRUP761 PUBLIC KEY-----\n")
    assert load_pem_hybrid_public_key(pub_pem) == public
    assert isinstance(load_pem_hybrid_key(pub_pem), Sntrup761PublicKey)
    ss, ct = public.encapsulate()
    assert key.decapsulate(ct) == ss
    with pytest.raises(ValueError, match="1763"):
        Sntrup761PrivateKey.from_seed_bytes(bytes(32))
    with pytest.raises(ValueError, match="1158"):
        Sntrup761PublicKey.from_public_bytes(bytes(1157))


def test_cli_keygen_show_encaps_decaps_kat(cli: Any) -> None:
    cli.ok("keygen", "sntrup761", "-o", "key.pem", "--pub", "pub.pem")
    shown = cli.ok("show", "key.pem").decode()
    assert "sntrup761 (KEM, no OID)" in shown and "1763 bytes" in shown
    assert "public key (raw PEM)" in cli.ok("show", "pub.pem").decode()
    cli.ok("pub", "key.pem", "-o", "pub2.pem")
    assert Path("pub2.pem").read_bytes() == Path("pub.pem").read_bytes()
    cli.ok("encaps", "pub.pem", "--ct", "ct.bin", "--secret", "ss1")
    cli.ok("decaps", "key.pem", "ct.bin", "--secret", "ss2")
    assert Path("ss1").read_bytes() == Path("ss2").read_bytes()
    assert len(Path("ct.bin").read_bytes()) == 1039
    Path("short.bin").write_bytes(Path("ct.bin").read_bytes()[:-1])
    cli.fails("decaps", "key.pem", "short.bin", "--secret", "ss3", match="1039")
    cli.fails("keygen", "sntrup761", "-o", "k.der", "--der", "--force", match="PEM")
    text = cli.ok("kat", "sntrup761", "--count", "1").decode()
    pk_line = next(line for line in text.splitlines() if line.startswith("pk = "))
    seed_line = next(line for line in text.splitlines() if line.startswith("seed = "))
    pk, _ = KEM.keygen_derand(bytes.fromhex(seed_line[7:]))
    assert pk_line == "pk = " + pk.hex().upper()  # keygen_derand: the KAT's seed form


@pytest.mark.skipif(
    importlib.util.find_spec("pqcrypto") is None,
    reason="pqcrypto (an optional peer) is not installed",
)
def test_interoperates_with_pqcrypto() -> None:
    """pqcrypto 1.0's sntrup761 (compiled C): its keys, our ciphertexts, and back."""
    theirs = importlib.import_module("pqcrypto.kem.sntrup_761")
    pk, sk = theirs.keygen()
    ss, ct = KEM.encaps(pk)
    assert theirs.decaps(sk, ct) == ss
    pk, sk = KEM.keygen()
    ct, ss = theirs.encaps(pk)
    assert KEM.decaps(sk, ct) == ss


def test_batch_view_rows_are_single_operations() -> None:
    view = KEM.batch
    seeds = np.arange(2 * 48, dtype=np.uint8).reshape(2, 48)
    pks, sks = view.keygen_derand(seeds)
    ms = np.frombuffer(hashlib.shake_256(b"m").digest(2 * 3044), dtype=np.uint8).reshape(2, 3044)
    ss, cts = view.encaps_derand(pks, ms)
    assert (view.decaps(sks, cts) == ss).all()
    pk, sk = KEM.keygen_derand(bytes(seeds[1]))
    assert (bytes(pks[1]), bytes(sks[1])) == (pk, sk)
    assert KEM.encaps_derand(pk, bytes(ms[1])) == (bytes(ss[1]), bytes(cts[1]))
