"""Differential tests: every numpy ML-KEM kernel equals its ref twin (DESIGN.md §4)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pqkit import arith
from pqkit.arith import api
from pqkit.arith.ref_mlkem import GAMMAS, ZETAS, bitrev7

Q = 3329
REF = arith.kernels("mlkem", "ref")
NP = arith.kernels("mlkem", "numpy")


def _edge_polys() -> dict[str, np.ndarray[Any, Any]]:
    rng = np.random.default_rng(2026)
    single = np.zeros(256, dtype=np.int64)
    single[37] = 1
    last = np.zeros(256, dtype=np.int64)
    last[255] = Q - 1
    return {
        "zeros": np.zeros(256, dtype=np.int64),
        "single": single,
        "last-q-1": last,
        "q-1": np.full(256, Q - 1, dtype=np.int64),
        "random": rng.integers(0, Q, 256),
        "batch": rng.integers(0, Q, (2, 3, 256)),
    }


EDGE = _edge_polys()
poly = st.lists(st.integers(0, Q - 1), min_size=256, max_size=256).map(
    lambda xs: np.array(xs, dtype=np.int64)
)


def test_contract_names() -> None:
    assert api.kernel_names(api.MLKEMKernels) == sorted(
        [
            "ntt",
            "intt",
            "mulcache",
            "basemul_acc",
            "rej_uniform",
            "cbd",
            "byte_encode",
            "byte_decode",
            "compress",
            "decompress",
            "kpke_decrypt",
            "kpke_encrypt",
        ]
    )
    assert NP.backend == "numpy"
    assert REF.backend == "ref"
    assert arith.backends()["available"]["mlkem"][-2:] == ["numpy", "ref"]  # jit: with numba


def test_tables_from_definitions() -> None:
    assert [bitrev7(i) for i in (0, 1, 64, 127)] == [0, 64, 1, 127]
    assert pow(17, 128, Q) == Q - 1  # 17 is a primitive 256-th root of unity
    assert ZETAS[:4] == (1, 1729, 2580, 3289)  # FIPS 203 Appendix A, first entries
    assert GAMMAS[:4] == (17, 3312, 2761, 568)
    assert all(g == ZETAS[i] ** 2 * 17 % Q for i, g in enumerate(GAMMAS))


@pytest.mark.parametrize("kind", list(EDGE))
def test_ntt_intt_edges(kind: str) -> None:
    f = EDGE[kind]
    before = f.copy()
    assert np.array_equal(NP.ntt(f), REF.ntt(f))
    assert np.array_equal(NP.intt(f), REF.intt(f))
    assert np.array_equal(NP.intt(NP.ntt(f)), f)
    assert np.array_equal(f, before)


@pytest.mark.parametrize("kind", list(EDGE))
def test_basemul_acc_edges(kind: str) -> None:
    b = np.broadcast_to(EDGE[kind], (3, 256)) if EDGE[kind].ndim == 1 else EDGE[kind]
    a = np.stack([EDGE["q-1"], EDGE["random"], EDGE["single"]])
    matrix = np.stack([a, a[::-1], np.full((3, 256), Q - 1)])
    for lhs in (a, matrix):
        if lhs.ndim == 3 and b.ndim == 3:
            b = b[:, None]  # a batch of vectors against one matrix: (2, 1, 3, 256)
        want = REF.basemul_acc(lhs, b)
        assert np.array_equal(NP.basemul_acc(lhs, b), want)
        assert np.array_equal(NP.basemul_acc(lhs, b, NP.mulcache(b)), want)
        assert np.array_equal(REF.basemul_acc(lhs, b, REF.mulcache(b)), want)


def test_basemul_acc_is_ntt_multiplication() -> None:
    # The product of X and X^255 is X^256 = -1 in Z_q[X]/(X^256 + 1).
    x = np.zeros(256, dtype=np.int64)
    x[1] = 1
    y = np.zeros(256, dtype=np.int64)
    y[255] = 1
    prod = NP.intt(NP.basemul_acc(NP.ntt(x)[None], NP.ntt(y)[None]))
    want = np.zeros(256, dtype=np.int64)
    want[0] = Q - 1
    assert np.array_equal(prod, want)


@pytest.mark.parametrize("nbytes", [0, 3, 300, 504, 768])
def test_rej_uniform(nbytes: int) -> None:
    rng = np.random.default_rng(nbytes)
    for buf in (
        rng.integers(0, 256, (4, nbytes), dtype=np.uint8),
        np.full((2, nbytes), 0xFF, dtype=np.uint8),  # nothing accepted
        np.zeros((2, nbytes), dtype=np.uint8),  # everything accepted
    ):
        a, count = REF.rej_uniform(buf)
        b, count_np = NP.rej_uniform(buf)
        assert np.array_equal(a, b)
        assert np.array_equal(count, count_np)


@pytest.mark.parametrize("eta", [2, 3])
def test_cbd(eta: int) -> None:
    rng = np.random.default_rng(eta)
    for buf in (
        rng.integers(0, 256, (3, 64 * eta), dtype=np.uint8),
        np.zeros((1, 64 * eta), dtype=np.uint8),
        np.full((1, 64 * eta), 0xFF, dtype=np.uint8),
        np.tile(np.array([0x0F, 0xF0, 0x3F], dtype=np.uint8), (1, 64 * eta))[:, : 64 * eta],
    ):
        assert np.array_equal(NP.cbd(buf, eta), REF.cbd(buf, eta))


@pytest.mark.parametrize("d", [1, 4, 5, 10, 11, 12])
def test_byte_encode_decode(d: int) -> None:
    rng = np.random.default_rng(d)
    top = Q if d == 12 else 1 << d
    for f in (rng.integers(0, top, (2, 256)), np.full(256, top - 1), np.zeros(256, np.int64)):
        enc = NP.byte_encode(f, d)
        assert np.array_equal(enc, REF.byte_encode(f, d))
        assert np.array_equal(NP.byte_decode(enc, d), f)
    raw = rng.integers(0, 256, (3, 32 * d), dtype=np.uint8)
    assert np.array_equal(NP.byte_decode(raw, d), REF.byte_decode(raw, d))
    ff = np.full(32 * d, 0xFF, dtype=np.uint8)
    assert np.array_equal(NP.byte_decode(ff, d), REF.byte_decode(ff, d))


@pytest.mark.parametrize("d", [1, 4, 5, 10, 11])
def test_compress_decompress_exhaustive(d: int) -> None:
    # Every x in [0, 4q): the contract allows lazily reduced input, taken mod q.
    xs = np.arange(4 * Q, dtype=np.int64)
    padded = np.concatenate([xs, np.zeros(256 * 53 - 4 * Q, dtype=np.int64)]).reshape(53, 256)
    assert np.array_equal(NP.compress(padded, d), REF.compress(padded, d))
    ys = np.arange(1 << d, dtype=np.int64)
    ys = np.resize(ys, 256 * -(-len(ys) // 256)).reshape(-1, 256)
    assert np.array_equal(NP.decompress(ys, d), REF.decompress(ys, d))
    # Exact rationals: Compress_d(x) = round(2^d (x mod q) / q) mod 2^d, half up.
    from fractions import Fraction

    want = [int(Fraction((x % Q) << d, Q) + Fraction(1, 2)) % (1 << d) for x in range(4 * Q)]
    assert NP.compress(padded, d).reshape(-1)[: 4 * Q].tolist() == want


@settings(max_examples=60, deadline=None)
@given(poly, poly)
def test_hypothesis_ntt_basemul(f: np.ndarray[Any, Any], g: np.ndarray[Any, Any]) -> None:
    assert np.array_equal(NP.ntt(f), REF.ntt(f))
    assert np.array_equal(NP.intt(f), REF.intt(f))
    pair = np.stack([f, g])
    assert np.array_equal(NP.basemul_acc(pair, pair[::-1]), REF.basemul_acc(pair, pair[::-1]))


@settings(max_examples=60, deadline=None)
@given(poly, st.sampled_from([1, 4, 5, 10, 11]))
def test_hypothesis_compress_encode(f: np.ndarray[Any, Any], d: int) -> None:
    c = NP.compress(f, d)
    assert np.array_equal(c, REF.compress(f, d))
    assert np.array_equal(NP.decompress(c, d), REF.decompress(c, d))
    assert np.array_equal(NP.byte_encode(c, d), REF.byte_encode(c, d))
    assert np.array_equal(NP.byte_encode(f, 12), REF.byte_encode(f, 12))


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=0, max_size=600), st.sampled_from([2, 3]))
def test_hypothesis_bytes_kernels(data: bytes, eta: int) -> None:
    buf = np.frombuffer(data[: len(data) - len(data) % 3], dtype=np.uint8)
    a, ca = NP.rej_uniform(buf)
    b, cb = REF.rej_uniform(buf)
    assert np.array_equal(a, b)
    assert int(ca) == int(cb)
    block = np.resize(np.frombuffer(data or b"\0", dtype=np.uint8), 64 * eta)
    assert np.array_equal(NP.cbd(block, eta), REF.cbd(block, eta))
    for d in (1, 11, 12):
        raw = np.resize(np.frombuffer(data or b"\0", dtype=np.uint8), 32 * d)
        assert np.array_equal(NP.byte_decode(raw, d), REF.byte_decode(raw, d))


def test_kernels_reject_wrong_shapes() -> None:
    for k in (NP, REF):
        with pytest.raises(ValueError):
            k.ntt(np.zeros(255, dtype=np.int64))
        with pytest.raises(ValueError):
            k.byte_decode(np.zeros(31, dtype=np.uint8), 1)


def test_backend_selection() -> None:
    assert arith.kernels("mlkem").backend == "numpy"
    with arith.use("ref"):
        assert arith.kernels("mlkem").backend == "ref"
    assert arith.kernels("mlkem", "ref").backend == "ref"


def test_float_reduction_exact_at_the_edges() -> None:
    from pqkit.arith import numpy_mlkem

    # Multiples of q and their neighbours up to the 2^43 bound of the NTT products.
    n = np.unique(np.concatenate([np.arange(0, 4096), np.geomspace(1, 2**43 / Q - 2, 4000)]))
    n = np.floor(n).astype(np.int64)
    x = np.concatenate([n * Q, n * Q + 1, n * Q + Q - 1, n[1:] * Q - 1])
    x = x[(x >= 0) & (x < 2**43)]
    got = numpy_mlkem._reduce_f64(x.astype(np.float64))
    assert np.array_equal(got, x % Q)
    # Barrett on int64 below 2^28, every residue class at the top of the range.
    y = np.concatenate([np.arange(0, 100_000), np.arange(2**28 - 100_000, 2**28)])
    assert np.array_equal(numpy_mlkem._barrett(y), y % Q)


def test_ntt_stage_split_is_exact() -> None:
    """The high layers (len 128..16) act on each low lane l with the same 16 x 16
    matrix, and the low layers (len 8..2) never mix different high indices h: the
    structure the numpy NTT's two matrix stages rely on, on all 256 unit vectors."""
    from pqkit.arith import numpy_mlkem as V

    eye = np.eye(256, dtype=np.int64)
    high = eye.copy()
    nxt = V._ntt_layers(high, V.NTT_HIGH_LENGTHS, 1)
    low = eye.copy()
    V._ntt_layers(low, V.NTT_LOW_LENGTHS, nxt)
    idx = np.arange(16)
    for lane in range(16):
        block = high[16 * idx + lane][:, 16 * idx + lane]  # [h', h]
        assert np.array_equal(block.T.astype(np.float64), V._NTT_HIGH)
        others = np.delete(high[16 * idx + lane], 16 * idx + lane, axis=1)
        assert not others.any()
    for h in range(16):
        rows = low[16 * h : 16 * h + 16]
        assert not np.delete(rows, np.arange(16 * h, 16 * h + 16), axis=1).any()
