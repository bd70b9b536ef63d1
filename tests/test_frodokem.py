"""FrodoKEM / eFrodoKEM (ISO/IEC 18033-2 Amd 2; draft-longa-cfrg-frodokem): the
scheme API on every parameter set, implicit rejection, the input checks, the
encodings, and every fast kernel against its ``ref`` twin. The known answers are
tests/test_liboqs_kats.py's (liboqs's entry-0 digests of all twelve sets)."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pqkit
from pqkit import arith
from pqkit.frodokem import encoding
from pqkit.frodokem.params import CATALOG, NAMES

FAST = tuple(b for b in arith.available("frodokem") if b != "ref")


def _stream(label: str, n: int) -> bytes:
    """Deterministic test bytes (SHAKE-256 of a label)."""
    return hashlib.shake_256(label.encode()).digest(n)


def _u16(label: str, shape: tuple[int, ...]) -> np.ndarray:
    count = int(np.prod(shape))
    return np.frombuffer(_stream(label, 2 * count), dtype="<u2").astype(np.uint16).reshape(shape)


def test_the_twelve_sets_and_their_sizes() -> None:
    assert len(NAMES) == 12 and set(NAMES) <= set(pqkit.kems())
    # draft-longa-cfrg-frodokem Table "sizes": pk, sk, ct, ss (FrodoKEM; eFrodoKEM's
    # ct has no salt)
    sizes = {
        "FrodoKEM-640-AES": (9616, 19888, 9752, 16),
        "FrodoKEM-976-SHAKE": (15632, 31296, 15792, 24),
        "FrodoKEM-1344-AES": (21520, 43088, 21696, 32),
        "eFrodoKEM-640-SHAKE": (9616, 19888, 9720, 16),
        "eFrodoKEM-1344-SHAKE": (21520, 43088, 21632, 32),
    }
    for name, (pk, sk, ct, ss) in sizes.items():
        kem = pqkit.kem(name)
        assert (kem.length_public_key, kem.length_secret_key) == (pk, sk)
        assert (kem.length_ciphertext, kem.length_shared_secret) == (ct, ss)
    levels = {a.name: a.nist_level for a in CATALOG}
    assert levels["FrodoKEM-640-AES"] == 1 and levels["eFrodoKEM-976-AES"] == 3
    assert pqkit.kem("FrodoKEM-1344-SHAKE").claimed_nist_level == 5


def test_oids_of_the_certificates_draft() -> None:
    oids = {a.name: a.oid for a in CATALOG}
    assert oids["FrodoKEM-976-SHAKE"] == "1.0.18033.2.2.7.1"
    assert oids["eFrodoKEM-1344-AES"] == "1.0.18033.2.2.7.8"
    assert oids["FrodoKEM-640-AES"] is None  # the draft assigns none to n = 640


@pytest.mark.parametrize("name", NAMES)
def test_round_trip_and_implicit_rejection(name: str) -> None:
    kem = pqkit.kem(name)
    pk, sk = kem.keygen()
    ss, ct = kem.encaps(pk)
    assert kem.decaps(sk, ct) == ss
    # A changed ciphertext decapsulates to F(ct' || s) (§8.3): the rejection key,
    # computed here from its definition.
    bad = bytearray(ct)
    bad[len(ct) // 2] ^= 1
    shake = hashlib.shake_128 if "640" in name else hashlib.shake_256
    s = sk[: kem.length_shared_secret]
    assert kem.decaps(sk, bytes(bad)) == shake(bytes(bad) + s).digest(kem.length_shared_secret)


def test_derandomised_entry_points_follow_their_inputs() -> None:
    kem = pqkit.kem("eFrodoKEM-640-AES")
    seed = _stream("seed", kem.length_seed)
    assert kem.keygen_derand(seed) == kem.keygen_derand(seed)
    pk, sk = kem.keygen_derand(seed)
    m = _stream("mu", 16)
    ss, ct = kem.encaps_derand(pk, m)
    assert kem.encaps_derand(pk, m) == (ss, ct)
    assert kem.encaps_derand(pk, _stream("other", 16)) != (ss, ct)
    assert kem.decaps(sk, ct) == ss
    # keygen asks once for s || seedSE || z, encaps once for mu (|| salt)
    asked: list[int] = []

    def rng(n: int) -> bytes:
        asked.append(n)
        return bytes(n)

    salted = pqkit.kem("FrodoKEM-976-SHAKE")
    pk2, _ = salted.keygen(rng=rng)
    salted.encaps(pk2, rng=rng)
    assert asked == [24 + 48 + 16, 24 + 48]


@pytest.mark.parametrize("name", ["FrodoKEM-640-SHAKE", "eFrodoKEM-976-AES"])
def test_wrong_lengths_and_types_are_refused(name: str) -> None:
    kem = pqkit.kem(name)
    pk, sk = kem.keygen()
    _, ct = kem.encaps(pk)
    with pytest.raises(ValueError, match="public key must be"):
        kem.encaps(pk[:-1])
    with pytest.raises(ValueError, match="ciphertext must be"):
        kem.decaps(sk, ct + b"\0")
    with pytest.raises(ValueError, match="secret key must be"):
        kem.decaps(sk[:-1], ct)
    with pytest.raises(ValueError, match="seed"):
        kem.keygen_derand(bytes(kem.length_seed - 1))
    with pytest.raises(ValueError, match="m \\(mu"):
        kem.encaps_derand(pk, bytes(3))
    with pytest.raises(TypeError):
        kem.decaps(sk, "ciphertext")  # type: ignore[arg-type]


# --- the encodings (§6.1-6.2) ----------------------------------------------------------


@pytest.mark.parametrize("logq", [15, 16])
def test_pack_is_msb_first_and_unpack_inverts_it(logq: int) -> None:
    values = _u16(f"pack{logq}", (8, 16)) & ((1 << logq) - 1)
    packed = encoding.pack(values, logq)
    assert len(packed) == logq * values.size // 8
    bits = "".join(format(int(v), f"0{logq}b") for v in values.reshape(-1))
    assert packed == int(bits, 2).to_bytes(len(packed), "big")
    assert np.array_equal(encoding.unpack(packed, 8, 16, logq), values)


@pytest.mark.parametrize(("b", "logq"), [(2, 15), (3, 16), (4, 16)])
def test_encode_decode(b: int, logq: int) -> None:
    mu = _stream(f"mu{b}", 8 * b)
    m = encoding.encode(mu, b, logq, 8)
    as_int = int.from_bytes(mu, "little")
    want = [((as_int >> (b * k)) & ((1 << b) - 1)) << (logq - b) for k in range(64)]
    assert m.reshape(-1).tolist() == want
    # decoding rounds: noise below q / 2^(B+1) in either direction is removed
    noise = (_u16(f"noise{b}", (8, 8)).astype(np.int64) % (1 << (logq - b - 1))) - (
        1 << (logq - b - 2)
    )
    noisy = ((m.astype(np.int64) + noise) % (1 << logq)).astype(np.uint16)
    assert encoding.decode(noisy, b, logq) == mu


# --- kernels: every fast backend against ref ------------------------------------------


def _kernels(backend: str) -> object:
    return arith.kernels("frodokem", backend)


@pytest.mark.parametrize("backend", FAST)
@pytest.mark.parametrize("cdf", [CATALOG[0].params.cdf, CATALOG[4].params.cdf])  # type: ignore[attr-defined]
def test_sample_against_ref(backend: str, cdf: tuple[int, ...]) -> None:
    table = np.array(cdf, dtype=np.uint16)
    # every 16-bit input, so every table boundary and both signs
    r = np.arange(1 << 16, dtype=np.uint16).reshape(256, 256)
    ref = arith.kernels("frodokem", "ref")
    want = ref.sample(r[::37], table)
    assert np.array_equal(_kernels(backend).sample(r[::37], table), want)  # type: ignore[attr-defined]
    got = _kernels(backend).sample(r, table)  # type: ignore[attr-defined]
    signed = got.view(np.int16).astype(np.int64)
    t = (r >> 1).astype(np.int64)
    magnitude = sum((t > bound).astype(np.int64) for bound in cdf[:-1])
    assert np.array_equal(signed, np.where(r & 1, -magnitude, magnitude))


@pytest.mark.parametrize("backend", FAST)
def test_shake_a_against_ref(backend: str) -> None:
    seed = _stream("seedA", 16)
    want = arith.kernels("frodokem", "ref").shake_a(seed, 24)
    assert np.array_equal(_kernels(backend).shake_a(seed, 24), want)  # type: ignore[attr-defined]


def _errors(label: str, shape: tuple[int, ...]) -> np.ndarray:
    """uint16 error entries in [-12, 12] (two's complement), the sampler's range."""
    small = (_u16(label, shape).astype(np.int64) % 25) - 12
    return (small % (1 << 16)).astype(np.uint16)


@pytest.mark.parametrize("backend", FAST)
@pytest.mark.parametrize(("n", "logq"), [(16, 15), (40, 16), (64, 16)])
def test_matrix_products_against_ref(backend: str, n: int, logq: int) -> None:
    ref = arith.kernels("frodokem", "ref")
    fast = _kernels(backend)
    a = _u16(f"A{n}", (n, n))  # any uint16: only the value mod q counts
    a[0, :] = 0xFFFF
    s = _errors(f"S{n}", (8, n))
    s[0, :] = (-12) % (1 << 16)
    e = _errors(f"E{n}", (n, 8))
    e1 = _errors(f"E1{n}", (8, n))
    e2 = _errors(f"E2{n}", (8, 8))
    b = _u16(f"B{n}", (n, 8)) & ((1 << logq) - 1)
    b1 = _u16(f"B1{n}", (8, n)) & ((1 << logq) - 1)
    cases = [
        ("as_plus_e", (a, s, e, logq)),
        ("sa_plus_e", (a, s, e1, logq)),
        ("sb_plus_e", (b, s, e2, logq)),
        ("bs", (b1, s, logq)),
    ]
    for kernel, args in cases:
        before = [x.copy() for x in args if isinstance(x, np.ndarray)]
        got = getattr(fast, kernel)(*args)
        assert got.dtype == np.uint16, kernel
        assert np.array_equal(got, getattr(ref, kernel)(*args)), kernel
        after = [x for x in args if isinstance(x, np.ndarray)]
        assert all(np.array_equal(x, y) for x, y in zip(before, after, strict=True)), kernel


@pytest.mark.parametrize("backend", FAST)
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_matrix_products_hypothesis(backend: str, data: st.DataObject) -> None:
    n = data.draw(st.integers(1, 24))
    logq = data.draw(st.sampled_from([15, 16]))
    raw = data.draw(st.binary(min_size=2 * (n * n + 8 * n), max_size=2 * (n * n + 8 * n)))
    words = np.frombuffer(raw, dtype="<u2").astype(np.uint16)
    a = words[: n * n].reshape(n, n)
    s = (((words[n * n :].astype(np.int64) % 25) - 12) % (1 << 16)).astype(np.uint16)
    s = s.reshape(8, n)
    zero_e = np.zeros((n, 8), dtype=np.uint16)
    ref = arith.kernels("frodokem", "ref")
    fast = _kernels(backend)
    assert np.array_equal(fast.as_plus_e(a, s, zero_e, logq), ref.as_plus_e(a, s, zero_e, logq))  # type: ignore[attr-defined]
    b1 = a[:8] if n >= 8 else s  # an (8, n) matrix of any uint16 values
    assert np.array_equal(fast.bs(b1, s, logq), ref.bs(b1, s, logq))  # type: ignore[attr-defined]


@pytest.mark.parametrize("backend", FAST)
def test_backends_agree_on_whole_operations(backend: str) -> None:
    """Every fast backend gives the ref backend's bytes for one key pair and
    encapsulation of the smallest set (the ref run takes a few seconds)."""
    name = "eFrodoKEM-640-SHAKE"
    seed = _stream("whole", pqkit.kem(name).length_seed)
    mu = _stream("whole mu", 16)
    ref = pqkit.kem(name).using(arith="ref")
    fast = pqkit.kem(name).using(arith=backend)
    pk, sk = fast.keygen_derand(seed)
    assert (pk, sk) == ref.keygen_derand(seed)
    ss, ct = fast.encaps_derand(pk, mu)
    assert (ss, ct) == ref.encaps_derand(pk, mu)


def test_the_c_benchmark_skips_without_the_c_build() -> None:
    """benchmarks/frodokem_c.py runs (its figures are not checked: not run by CI)
    and names the sets it skips when no reference C library is given."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "benchmarks" / "frodokem_c.py"
    done = subprocess.run(
        [sys.executable, str(script), "--kem", "FrodoKEM-640-AES"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "skipped FrodoKEM-640-AES: no C library" in done.stdout
