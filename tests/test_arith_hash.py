"""The ``hash`` kernel family (pqkit.common.kernels.contract.HashKernels): every backend against
hashlib and against the ``ref`` oracle, on edge lengths around the SHAKE rates and
SHA-2 block sizes, batch shapes (n = 0, 1, 7, 1000, several leading axes), common
prefixes, the jit backend's serial, parallel and hashlib routes, Hypothesis for
random lengths, and the input checks.

The modules are imported directly (the family is not yet registered in
pqkit.arith's backend table)."""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from helpers import load_json
from hypothesis import given, settings
from hypothesis import strategies as st

from pqkit.arith.api import kernel_names
from pqkit.common.kernels import numpy as numpy_hash
from pqkit.common.kernels import ref as ref_hash
from pqkit.common.kernels.contract import HashKernels

RATES = {128: 168, 256: 136}
SHAKE = {128: hashlib.shake_128, 256: hashlib.shake_256}
RNG = np.random.default_rng(2026)


def _jit_or_none() -> ModuleType | None:
    try:
        from pqkit.common.kernels import jit as jit_hash
    except ModuleNotFoundError:  # numba missing or unusable: the backend is unavailable
        return None
    return jit_hash


def _jit() -> ModuleType:
    module = _jit_or_none()
    if module is None:
        pytest.skip("the jit hash kernels need numba (pqkit[jit])")
    return module


@pytest.fixture(scope="module")
def jit_hash() -> Iterator[ModuleType]:
    """The jit module with its hashlib shortcut off, so the compiled code runs on
    every batch size (restored afterwards)."""
    module = _jit()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(module, "HASHLIB_MAX_ROWS", 0)
        yield module


@pytest.fixture(scope="module", params=["ref", "numpy", "jit"])
def backend(request: pytest.FixtureRequest) -> ModuleType:
    if request.param == "ref":
        return ref_hash
    if request.param == "numpy":
        return numpy_hash
    module: ModuleType = request.getfixturevalue("jit_hash")
    return module


@pytest.fixture(scope="module", params=["numpy", "jit"])
def fast(request: pytest.FixtureRequest) -> ModuleType:
    """The backends quick enough for n = 1000."""
    if request.param == "numpy":
        return numpy_hash
    module: ModuleType = request.getfixturevalue("jit_hash")
    return module


def _rows(n: int, length: int) -> npt.NDArray[np.uint8]:
    return RNG.integers(0, 256, (n, length), dtype=np.uint8)


def _shake_want(bits: int, rows: Any, out_len: int, prefix: bytes = b"") -> list[bytes]:
    return [SHAKE[bits](prefix + bytes(r)).digest(out_len) for r in rows]


def _sha_want(name: str, rows: Any, prefix: bytes = b"") -> list[bytes]:
    return [hashlib.new(name, prefix + bytes(r)).digest() for r in rows]


def _as_list(out: npt.NDArray[np.uint8]) -> list[bytes]:
    return [bytes(r) for r in out]


def test_every_backend_has_every_kernel() -> None:
    names = set(kernel_names(HashKernels))
    assert names == {
        "keccak_f1600",
        "shake_many",
        "sha256_compress",
        "sha512_compress",
        "sha256_many",
        "sha512_many",
    }
    modules = [m for m in (ref_hash, numpy_hash, _jit_or_none()) if m is not None]
    for module in modules:
        assert set(module.KERNELS) == names
        assert all(callable(f) for f in module.KERNELS.values())


# --- SHAKE -------------------------------------------------------------------------


def _edge_lengths(rate: int) -> list[int]:
    return [0, 1, rate - 1, rate, rate + 1, 2 * rate + 5]


@pytest.mark.parametrize("bits", [128, 256])
@pytest.mark.parametrize("which", range(6))
def test_shake_many_edge_lengths(backend: ModuleType, bits: int, which: int) -> None:
    rate = RATES[bits]
    length = _edge_lengths(rate)[which]
    for n in (0, 1, 7):
        rows = _rows(n, length)
        for out_len in (0, 1, 32, rate, rate + 1, 3 * rate + 7):
            got = backend.shake_many(bits, rows, out_len)
            assert got.shape == (n, out_len) and got.dtype == np.uint8
            assert _as_list(got) == _shake_want(bits, rows, out_len)


@pytest.mark.parametrize("bits", [128, 256])
def test_shake_many_prefix(backend: ModuleType, bits: int) -> None:
    rate = RATES[bits]
    rows = _rows(7, 33)
    for plen in (1, 16, rate - 1, rate, rate + 3, 2 * rate):
        prefix = bytes(RNG.integers(0, 256, plen, dtype=np.uint8))
        for out_len in (32, rate + 1):
            got = backend.shake_many(bits, rows, out_len, prefix)
            assert _as_list(got) == _shake_want(bits, rows, out_len, prefix)
    # bytearray and memoryview prefixes are bytes-like too
    for prefix_like in (bytearray(b"seed"), memoryview(b"seed")):
        got = backend.shake_many(bits, rows, 16, prefix_like)
        assert _as_list(got) == _shake_want(bits, rows, 16, b"seed")


def test_shake_many_large_batch(fast: ModuleType) -> None:
    for bits, length in ((256, 64), (128, 34), (256, 200)):
        rows = _rows(1000, length)
        got = fast.shake_many(bits, rows, 48, b"pk-seed")
        assert _as_list(got) == _shake_want(bits, rows, 48, b"pk-seed")


def test_shake_many_shapes(backend: ModuleType) -> None:
    rows = _rows(6, 40)
    flat = backend.shake_many(256, rows, 24)
    split = backend.shake_many(256, rows.reshape(2, 3, 40), 24)
    assert split.shape == (2, 3, 24)
    assert np.array_equal(split.reshape(6, 24), flat)
    single = backend.shake_many(256, rows[0], 24)  # one string, no batch axis
    assert single.shape == (24,) and np.array_equal(single, flat[0])
    empty = backend.shake_many(256, np.zeros((0, 4, 40), dtype=np.uint8), 24)
    assert empty.shape == (0, 4, 24)
    strided = rows[:, ::2]  # not contiguous
    assert _as_list(backend.shake_many(128, strided, 20)) == _shake_want(128, strided, 20)


def test_read_only_inputs(backend: ModuleType) -> None:
    """np.frombuffer arrays are read-only: accepted like any other."""
    data = bytes(range(200)) * 10
    rows = np.frombuffer(data, dtype=np.uint8).reshape(20, 100)
    assert not rows.flags.writeable
    assert _as_list(backend.shake_many(256, rows, 40)) == _shake_want(256, rows, 40)
    assert _as_list(backend.sha256_many(rows, b"p")) == _sha_want("sha256", rows, b"p")
    blocks = np.frombuffer(data[:1280], dtype=np.uint8).reshape(10, 128)
    states = np.zeros((10, 8), dtype=np.uint64)
    assert np.array_equal(
        backend.sha512_compress(states, blocks), ref_hash.sha512_compress(states, blocks)
    )


def test_shake_many_leaves_inputs_alone(backend: ModuleType) -> None:
    rows = _rows(9, 50)
    keep = rows.copy()
    backend.shake_many(128, rows, 100, b"x" * 200)
    assert np.array_equal(rows, keep)


# --- Keccak-f[1600] and KECCAK-p[1600, nr] ------------------------------------------


def _states(*shape: int) -> npt.NDArray[np.uint64]:
    return RNG.integers(0, 2**64, (*shape, 25), dtype=np.uint64)


def _oracle(states: npt.NDArray[np.uint64], rounds: int) -> npt.NDArray[np.uint64]:
    """The readable Algorithm 7 of ref_hash, row by row."""
    flat = states.reshape(-1, 25)
    out = [ref_hash.keccak_p([int(v) for v in row], rounds) for row in flat]
    return np.array(out, dtype=np.uint64).reshape(states.shape)


def test_ref_unrolled_and_readable_permutations_agree() -> None:
    states = _states(20)
    assert np.array_equal(ref_hash.keccak_f1600(states), _oracle(states, 24))


def test_keccak_f1600_zero_state(backend: ModuleType) -> None:
    """KECCAK-f[1600] of the all-zero state: lane (0, 0) is F1258F7940E1DDE7 (the
    Keccak team's KeccakF-1600 intermediate values)."""
    out = backend.keccak_f1600(np.zeros(25, dtype=np.uint64))
    assert int(out[0]) == 0xF1258F7940E1DDE7
    assert np.array_equal(out, _oracle(np.zeros(25, dtype=np.uint64), 24))


@pytest.mark.parametrize("rounds", [24, 12, 1])
def test_keccak_rounds_and_shapes(backend: ModuleType, rounds: int) -> None:
    for shape in ((1,), (7,), (2, 3), (0,), (9,), (17,)):
        states = _states(*shape)
        keep = states.copy()
        got = backend.keccak_f1600(states, rounds)
        assert got.shape == states.shape and got.dtype == np.uint64
        assert np.array_equal(got, _oracle(states, rounds))
        assert np.array_equal(states, keep)


def test_keccak_large_batch(fast: ModuleType) -> None:
    states = _states(1000)
    assert np.array_equal(fast.keccak_f1600(states), ref_hash.keccak_f1600(states))
    assert np.array_equal(fast.keccak_f1600(states[:100], 12), _oracle(states[:100], 12))


def _ptn(n: int) -> bytes:
    """RFC 9861 ptn(n): the bytes 00 .. FA repeated, n of them."""
    return (bytes(range(0xFB)) * (n // 0xFB + 1))[:n]


def _turboshake(kernels: ModuleType, bits: int, message: bytes, domain: int, n: int) -> bytes:
    """TurboSHAKE128/256 (RFC 9861 §2.2): the FIPS 202 sponge on KECCAK-p[1600, 12]
    with capacity 2 * bits, M || D, then zeros and a final 0x80, driven through
    ``kernels.keccak_f1600(state, 12)`` one block at a time."""
    rate = RATES[bits]
    padded = bytearray(message + bytes([domain]))
    padded += bytes(-len(padded) % rate)
    padded[-1] ^= 0x80
    state = np.zeros(25, dtype=np.uint64)
    for offset in range(0, len(padded), rate):
        block = np.frombuffer(bytes(padded[offset : offset + rate]), dtype="<u8")
        state[: rate // 8] ^= block.astype(np.uint64)
        state = kernels.keccak_f1600(state, 12)
    out = b""
    while True:
        out += state[: rate // 8].astype("<u8").tobytes()
        if len(out) >= n:
            return out[:n]
        state = kernels.keccak_f1600(state, 12)


TURBOSHAKE = load_json("turboshake/rfc9861.json")["vectors"]


@pytest.mark.parametrize(
    "vector",
    TURBOSHAKE,
    ids=[
        f"{v['function']}-{v['message']}{v['length']}-D{v['domain']:02x}-L{v['L']}"
        for v in TURBOSHAKE
    ],
)
def test_keccak_12_rounds_turboshake_rfc9861(backend: ModuleType, vector: dict[str, Any]) -> None:
    """KECCAK-p[1600, 12] through TurboSHAKE's RFC 9861 §5 test vectors."""
    bits = int(vector["function"][len("TurboSHAKE") :])
    length = vector["length"]
    message = _ptn(length) if vector["message"] == "ptn" else b"\xff" * length
    out = _turboshake(backend, bits, message, vector["domain"], vector["L"])
    assert out[vector["skip"] :].hex() == vector["expected"]


# --- SHA-256 / SHA-512 -------------------------------------------------------------

_H256 = np.array(ref_hash.H256, dtype=np.uint32)  # FIPS 180-4 §5.3.3


def _padded_abc(block: int, length_bytes: int) -> npt.NDArray[np.uint8]:
    b = bytearray(block)
    b[:3] = b"abc"
    b[3] = 0x80
    b[-length_bytes:] = (24).to_bytes(length_bytes, "big")
    return np.frombuffer(bytes(b), dtype=np.uint8)


def test_sha256_compress_is_sha256(backend: ModuleType) -> None:
    """One compression of padded "abc" from the FIPS 180-4 §5.3.3 initial value is
    SHA-256("abc")."""
    got = backend.sha256_compress(_H256, _padded_abc(64, 8))
    assert got.dtype == np.uint32 and got.shape == (8,)
    assert got.astype(">u4").tobytes() == hashlib.sha256(b"abc").digest()


def test_sha512_compress_is_sha512(backend: ModuleType) -> None:
    h512 = np.array(ref_hash.H512, dtype=np.uint64)
    got = backend.sha512_compress(h512, _padded_abc(128, 16))
    assert got.dtype == np.uint64 and got.shape == (8,)
    assert got.astype(">u8").tobytes() == hashlib.sha512(b"abc").digest()


@pytest.mark.parametrize("wide", [False, True])
def test_sha2_compress_against_ref(backend: ModuleType, wide: bool) -> None:
    dtype, block, top = (np.uint64, 128, 2**64) if wide else (np.uint32, 64, 2**32)
    fn = "sha512_compress" if wide else "sha256_compress"
    for s_shape, b_shape in (((7,), (7,)), ((), (5,)), ((2, 3), (3,)), ((0,), (0,)), ((9,), ())):
        states = RNG.integers(0, top, (*s_shape, 8), dtype=dtype)
        blocks = RNG.integers(0, 256, (*b_shape, block), dtype=np.uint8)
        keep_s, keep_b = states.copy(), blocks.copy()
        got = getattr(backend, fn)(states, blocks)
        want = getattr(ref_hash, fn)(states, blocks)
        assert got.dtype == dtype and got.shape == want.shape
        assert got.shape == (*np.broadcast_shapes(s_shape, b_shape), 8)
        assert np.array_equal(got, want)
        assert np.array_equal(states, keep_s) and np.array_equal(blocks, keep_b)


def test_sha2_compress_large_batch(fast: ModuleType) -> None:
    states = RNG.integers(0, 2**32, (1000, 8), dtype=np.uint32)
    blocks = _rows(1000, 64)
    assert np.array_equal(
        fast.sha256_compress(states, blocks), ref_hash.sha256_compress(states, blocks)
    )
    states64 = RNG.integers(0, 2**64, (1000, 8), dtype=np.uint64)
    blocks128 = _rows(1000, 128)
    assert np.array_equal(
        fast.sha512_compress(states64, blocks128), ref_hash.sha512_compress(states64, blocks128)
    )


@pytest.mark.parametrize("name", ["sha256", "sha512"])
def test_sha2_many_edge_lengths(backend: ModuleType, name: str) -> None:
    block = 64 if name == "sha256" else 128
    lengths = (0, 1, block - 9, block - 8, block - 1, block, block + 1, 2 * block + 17)
    prefixes = (b"", b"abc", bytes(range(block)), bytes(block + 2))
    many = getattr(backend, f"{name}_many")
    for length in lengths:
        for n in (0, 1, 7):
            rows = _rows(n, length)
            for prefix in prefixes:
                got = many(rows, prefix)
                assert got.shape == (n, block // 2) and got.dtype == np.uint8
                assert _as_list(got) == _sha_want(name, rows, prefix)


def test_sha2_many_slh_dsa_shape(fast: ModuleType) -> None:
    """FIPS 205 §11.2: F = Trunc_n(SHA-256(PK.seed || toByte(0, 64 - n) || ADRSc ||
    M1)) for n = 16: a 64-byte prefix and 22 + 16-byte rows; and the SHA-512 form
    of H for n = 32 (128-byte prefix, 22 + 64-byte rows)."""
    seed = bytes(RNG.integers(0, 256, 16, dtype=np.uint8))
    rows = _rows(1000, 38)
    got = fast.sha256_many(rows, seed + bytes(48))
    assert _as_list(got) == _sha_want("sha256", rows, seed + bytes(48))
    rows = _rows(1000, 86)
    got = fast.sha512_many(rows, seed * 2 + bytes(96))
    assert _as_list(got) == _sha_want("sha512", rows, seed * 2 + bytes(96))


def test_sha2_many_shapes(backend: ModuleType) -> None:
    rows = _rows(6, 30)
    flat = backend.sha256_many(rows)
    assert np.array_equal(backend.sha256_many(rows.reshape(3, 2, 30)).reshape(6, 32), flat)
    assert np.array_equal(backend.sha256_many(rows[2]), flat[2])
    assert backend.sha512_many(np.zeros((2, 0, 5), dtype=np.uint8)).shape == (2, 0, 64)


# --- the jit backend's routes --------------------------------------------------------


def test_jit_routes_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    """hashlib for tiny batches, one thread, several threads: the same bytes."""
    module = _jit()
    monkeypatch.setattr(module, "HASHLIB_MAX_ROWS", 6)
    rows = _rows(300, 64)  # 300 rows: two chunks of whole 8-row groups when workers >= 2
    want_shake = _shake_want(256, rows, 32, b"p")
    want_sha = _sha_want("sha256", rows, b"q" * 64)
    states = _states(300)
    want_perm = ref_hash.keccak_f1600(states)
    try:
        for workers in (1, 2, 3, None):
            module.set_workers(workers)
            assert _as_list(module.shake_many(256, rows, 32, b"p")) == want_shake
            assert _as_list(module.sha256_many(rows, b"q" * 64)) == want_sha
            assert np.array_equal(module.keccak_f1600(states), want_perm)
    finally:
        module.set_workers(None)
    for n in (1, 2, 6, 7):  # hashlib up to 6 rows, compiled from 7
        assert _as_list(module.shake_many(256, rows[:n], 32, b"p")) == want_shake[:n]
        assert _as_list(module.sha256_many(rows[:n], b"q" * 64)) == want_sha[:n]


def test_jit_concurrent_callers() -> None:
    """Callers in several Python threads at once, each splitting its batch over
    the shared helper threads: every result is right."""
    module = _jit()
    batches = [_rows(500, 40) for _ in range(4)]
    wants = [_shake_want(128, b, 16) for b in batches]
    results: list[Any] = [None] * 4

    def work(i: int) -> None:
        for _ in range(3):
            results[i] = _as_list(module.shake_many(128, batches[i], 16))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    module.set_workers(3)
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        module.set_workers(None)
    assert results == wants


def test_jit_one_state_permutation_and_sponge() -> None:
    """The one-state Keccak (single hashes of the compiled operations: G, H, J, tr,
    c_tilde) permutes state 0 as the 8-state one does and leaves the other states
    alone; the single sponge on it is SHA3-256 / SHA3-512 / SHAKE256 at lengths
    around the rates."""
    module = _jit()
    from pqkit.common.kernels import jit_sponge as sponge

    w = RNG.integers(0, 2**63, size=200, dtype=np.uint64)
    one, eight = w.copy(), w.copy()
    module._keccak_x1(one, 0)
    module._keccak_x8(eight, 0)
    assert np.array_equal(one[::8], eight[::8])
    others = np.arange(200) % 8 != 0
    assert np.array_equal(one[others], w[others])
    for n in (0, 1, 71, 72, 135, 136, 137, 272, 1184, 2000):
        data = bytes(RNG.integers(0, 256, size=n, dtype=np.uint8))
        arr = np.frombuffer(bytearray(data), dtype=np.uint8)
        got = sponge._sponge1(arr, sponge.RATE_256, sponge.SHA3_PAD, np.int64(32))
        assert got.tobytes() == hashlib.sha3_256(data).digest()
        got = sponge._sponge1(arr, sponge.RATE_512, sponge.SHA3_PAD, np.int64(64))
        assert got.tobytes() == hashlib.sha3_512(data).digest()
        got = sponge._sponge1(arr, sponge.RATE_256, sponge.SHAKE_PAD, np.int64(300))
        assert got.tobytes() == hashlib.shake_256(data).digest(300)


def test_jit_four_state_permutation_and_sponge_pair() -> None:
    """The four-state Keccak (groups of 2-4 sponges) permutes states 0-3 as the
    8-state one does and leaves states 4-7 alone; the sponge pair on it (H(ek) and
    J(z || c) of ML-KEM decapsulation) gives SHA3-256 and SHAKE256 of its two inputs,
    with equal block counts (side by side) and unequal ones (one after the other)."""
    module = _jit()
    from pqkit.common.kernels import jit_sponge as sponge

    w = RNG.integers(0, 2**63, size=200, dtype=np.uint64)
    four, eight = w.copy(), w.copy()
    module._keccak_x4(four, 0)
    module._keccak_x8(eight, 0)
    low = np.arange(200) % 8 < 4
    assert np.array_equal(four[low], eight[low])
    assert np.array_equal(four[~low], w[~low])
    for na, nb in ((800, 800), (1184, 1120), (1568, 1600), (0, 135), (136, 135), (5, 300)):
        a = bytes(RNG.integers(0, 256, size=na, dtype=np.uint8))
        b = bytes(RNG.integers(0, 256, size=nb, dtype=np.uint8))
        got_a, got_b = sponge._sponge2(
            np.frombuffer(bytearray(a), dtype=np.uint8),
            sponge.SHA3_PAD,
            np.frombuffer(bytearray(b), dtype=np.uint8),
            sponge.SHAKE_PAD,
            sponge.RATE_256,
            np.int64(32),
        )
        assert got_a.tobytes() == hashlib.sha3_256(a).digest()
        assert got_b.tobytes() == hashlib.shake_256(b).digest(32)


def test_jit_workers_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    module = _jit()
    with pytest.raises(TypeError, match="workers"):
        module.set_workers(1.5)
    with pytest.raises(ValueError, match="workers"):
        module.set_workers(0)
    monkeypatch.setenv("PQKIT_WORKERS", "1")
    assert module.workers() == 1
    monkeypatch.setenv("PQKIT_WORKERS", "many")
    with pytest.raises(ValueError, match="PQKIT_WORKERS"):
        module.workers()
    monkeypatch.setenv("PQKIT_WORKERS", "0")
    with pytest.raises(ValueError, match="PQKIT_WORKERS"):
        module.workers()
    monkeypatch.setenv("PQKIT_WORKERS", "3")
    assert module.workers() == 3
    module.set_workers(2)
    try:
        assert module.workers() == 2  # set_workers wins over the environment
    finally:
        module.set_workers(None)
    monkeypatch.delenv("PQKIT_WORKERS")
    assert module.workers() == len(os.sched_getaffinity(0))  # every core we may use


# --- Hypothesis ----------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(
    bits=st.sampled_from([128, 256]),
    n=st.integers(0, 12),
    length=st.integers(0, 400),
    out_len=st.integers(0, 600),
    prefix=st.binary(max_size=300),
)
def test_shake_many_random(bits: int, n: int, length: int, out_len: int, prefix: bytes) -> None:
    rows = _rows(n, length)
    want = _shake_want(bits, rows, out_len, prefix)
    assert _as_list(numpy_hash.shake_many(bits, rows, out_len, prefix)) == want
    module = _jit_or_none()
    if module is None:
        return
    assert _as_list(module.shake_many(bits, rows, out_len, prefix)) == want


@settings(max_examples=25, deadline=None)
@given(
    wide=st.booleans(),
    n=st.integers(0, 12),
    length=st.integers(0, 300),
    prefix=st.binary(max_size=300),
)
def test_sha2_many_random(wide: bool, n: int, length: int, prefix: bytes) -> None:
    name = "sha512" if wide else "sha256"
    rows = _rows(n, length)
    want = _sha_want(name, rows, prefix)
    assert _as_list(getattr(numpy_hash, f"{name}_many")(rows, prefix)) == want
    module = _jit_or_none()
    if module is None:
        return
    assert _as_list(getattr(module, f"{name}_many")(rows, prefix)) == want


# --- input checks -------------------------------------------------------------------


def test_shake_many_checks(backend: ModuleType) -> None:
    rows = _rows(2, 8)
    with pytest.raises(ValueError, match="bits must be 128 or 256"):
        backend.shake_many(512, rows, 8)
    with pytest.raises(TypeError, match="bits"):
        backend.shake_many("256", rows, 8)
    with pytest.raises(TypeError, match="bits"):
        backend.shake_many(True, rows, 8)
    with pytest.raises(ValueError, match="out_len"):
        backend.shake_many(256, rows, -1)
    with pytest.raises(TypeError, match="out_len"):
        backend.shake_many(256, rows, 8.0)
    with pytest.raises(TypeError, match="inputs must have dtype uint8"):
        backend.shake_many(256, rows.astype(np.int64), 8)
    with pytest.raises(TypeError, match="inputs must be a numpy array"):
        backend.shake_many(256, [b"ab", b"cd"], 8)
    with pytest.raises(ValueError, match="inputs must have at least one axis"):
        backend.shake_many(256, np.zeros((), dtype=np.uint8), 8)
    with pytest.raises(TypeError, match="prefix must be bytes-like"):
        backend.shake_many(256, rows, 8, "seed")


def test_keccak_checks(backend: ModuleType) -> None:
    with pytest.raises(TypeError, match="states must have dtype uint64"):
        backend.keccak_f1600(np.zeros(25, dtype=np.int64))
    with pytest.raises(ValueError, match=r"states must have shape \(\.\.\., 25\)"):
        backend.keccak_f1600(np.zeros((3, 24), dtype=np.uint64))
    with pytest.raises(TypeError, match="numpy array"):
        backend.keccak_f1600([0] * 25)
    for bad in (0, 25, -1):
        with pytest.raises(ValueError, match=r"rounds must be in 1\.\.24"):
            backend.keccak_f1600(np.zeros(25, dtype=np.uint64), bad)
    with pytest.raises(TypeError, match="rounds"):
        backend.keccak_f1600(np.zeros(25, dtype=np.uint64), 12.0)


def test_sha2_checks(backend: ModuleType) -> None:
    s32 = np.zeros((3, 8), dtype=np.uint32)
    s64 = np.zeros((3, 8), dtype=np.uint64)
    with pytest.raises(TypeError, match="states must have dtype uint32"):
        backend.sha256_compress(s64, np.zeros((3, 64), dtype=np.uint8))
    with pytest.raises(TypeError, match="states must have dtype uint64"):
        backend.sha512_compress(s32, np.zeros((3, 128), dtype=np.uint8))
    with pytest.raises(ValueError, match=r"blocks must have shape \(\.\.\., 64\)"):
        backend.sha256_compress(s32, np.zeros((3, 63), dtype=np.uint8))
    with pytest.raises(ValueError, match=r"states must have shape \(\.\.\., 8\)"):
        backend.sha512_compress(np.zeros((3, 7), dtype=np.uint64), np.zeros(128, np.uint8))
    with pytest.raises(ValueError, match="do not broadcast"):
        backend.sha256_compress(s32, np.zeros((4, 64), dtype=np.uint8))
    with pytest.raises(TypeError, match="blocks must have dtype uint8"):
        backend.sha256_compress(s32, np.zeros((3, 64), dtype=np.int8))
    with pytest.raises(TypeError, match="inputs must have dtype uint8"):
        backend.sha256_many(np.zeros((2, 3), dtype=np.uint16))
    with pytest.raises(TypeError, match="prefix must be bytes-like"):
        backend.sha512_many(np.zeros((2, 3), dtype=np.uint8), 7)
