"""The ``jit`` (Numba) backend: every kernel against its ``ref`` twin (edge inputs,
batch shapes, Hypothesis), then ML-KEM and ML-DSA vectors through the schemes
bound to ``jit``. Skipped as a whole where Numba is not installed."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

pytest.importorskip("numba", reason="the jit arithmetic backend needs numba (pqkit[jit])")

import test_mldsa_acvp as dsa_acvp
import test_mlkem_acvp as kem_acvp
from helpers import load_json
from hypothesis import given, settings
from hypothesis import strategies as st
from test_mlkem_accumulated import DIGESTS, NAMES, accumulate

from pqkit import arith
from pqkit.arith.api import MLDSAKernels, MLKEMKernels, kernel_names

KEM_Q = 3329
DSA_Q = 8380417
GAMMA2 = ((DSA_Q - 1) // 88, (DSA_Q - 1) // 32)

JK = arith.kernels("mlkem", "jit")
RK = arith.kernels("mlkem", "ref")
JD = arith.kernels("mldsa", "jit")
RD = arith.kernels("mldsa", "ref")


def _same(got: Any, want: Any) -> None:
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            _same(g, w)
        return
    g, w = np.asarray(got), np.asarray(want)
    assert g.shape == w.shape
    assert g.dtype == w.dtype or (g.dtype.kind == w.dtype.kind == "i")
    assert np.array_equal(g, w)


def _edges(q: int) -> dict[str, npt.NDArray[np.int64]]:
    """zeros, one coefficient, q - 1 in the last place / everywhere, random, a batch."""
    rng = np.random.default_rng(q)
    single = np.zeros(256, dtype=np.int64)
    single[37] = 1
    last = np.zeros(256, dtype=np.int64)
    last[255] = q - 1
    return {
        "zeros": np.zeros(256, dtype=np.int64),
        "single": single,
        "last-q-1": last,
        "q-1": np.full(256, q - 1, dtype=np.int64),
        "random": rng.integers(0, q, 256),
        "batch": rng.integers(0, q, (2, 3, 256)),
    }


KEM_EDGES = _edges(KEM_Q)
DSA_EDGES = _edges(DSA_Q)


def _polys(q: int, lo: int = 0) -> st.SearchStrategy[npt.NDArray[np.int64]]:
    return st.lists(st.integers(lo, q - 1), min_size=256, max_size=256).map(
        lambda xs: np.array(xs, dtype=np.int64)
    )


def test_every_kernel_compiled() -> None:
    from pqkit.arith import jit_mldsa, jit_mlkem

    assert set(kernel_names(MLKEMKernels)) == set(jit_mlkem.KERNELS)
    assert set(kernel_names(MLDSAKernels)) == set(jit_mldsa.KERNELS)
    assert JK.backend == JD.backend == "jit"
    for name in kernel_names(MLKEMKernels):
        assert getattr(JK, name) is jit_mlkem.KERNELS[name]


# --- ML-KEM ----------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(KEM_EDGES))
def test_kem_ntt_intt_edges(kind: str) -> None:
    f = KEM_EDGES[kind]
    _same(JK.ntt(f), RK.ntt(f))
    _same(JK.intt(f), RK.intt(f))
    _same(JK.intt(JK.ntt(f)), f)
    _same(JK.mulcache(f), RK.mulcache(f))


@pytest.mark.parametrize("kind", sorted(KEM_EDGES))
def test_kem_basemul_acc_edges(kind: str) -> None:
    f = KEM_EDGES[kind]
    g = np.roll(KEM_EDGES["random"], 5)
    vec = np.stack([f.reshape(-1, 256)[0], g, f.reshape(-1, 256)[-1]])  # (3, 256)
    mat = np.stack([vec, vec[::-1], np.full((3, 256), KEM_Q - 1)])  # (3, 3, 256)
    want = RK.basemul_acc(mat, vec)
    _same(JK.basemul_acc(mat, vec), want)
    _same(JK.basemul_acc(mat, vec, JK.mulcache(vec)), want)
    _same(JK.basemul_acc(vec, vec), RK.basemul_acc(vec, vec))


def test_kem_basemul_acc_broadcasting() -> None:
    rng = np.random.default_rng(7)
    a = rng.integers(0, KEM_Q, (2, 1, 4, 256))
    b = rng.integers(0, KEM_Q, (3, 4, 256))
    _same(JK.basemul_acc(a, b), RK.basemul_acc(a, b))  # (2, 3, 256)
    _same(JK.basemul_acc(a, b, JK.mulcache(b)), RK.basemul_acc(a, b))
    one = rng.integers(0, KEM_Q, (3, 1, 256))  # a broadcast k axis
    _same(JK.basemul_acc(one, b), RK.basemul_acc(one, b))
    with pytest.raises(ValueError):
        JK.basemul_acc(a, b, np.zeros((2, 2, 2, 256), dtype=np.int64))  # numpy layout
    with pytest.raises(ValueError):
        JK.basemul_acc(b[0, 0], b[0, 0])  # no k axis


@pytest.mark.parametrize("nbytes", [0, 3, 300, 504, 768])
def test_kem_rej_uniform(nbytes: int) -> None:
    rng = np.random.default_rng(nbytes)
    for buf in (
        rng.integers(0, 256, (2, 2, nbytes), dtype=np.uint8),
        np.full((2, nbytes), 0xFF, dtype=np.uint8),
        np.zeros((2, nbytes), dtype=np.uint8),
        rng.integers(0, 256, nbytes, dtype=np.uint8),
    ):
        _same(JK.rej_uniform(buf), RK.rej_uniform(buf))
    with pytest.raises(ValueError):
        JK.rej_uniform(np.zeros(4, dtype=np.uint8))


@pytest.mark.parametrize("eta", [2, 3])
def test_kem_cbd(eta: int) -> None:
    rng = np.random.default_rng(eta)
    for buf in (
        rng.integers(0, 256, (2, 3, 64 * eta), dtype=np.uint8),
        np.zeros(64 * eta, dtype=np.uint8),
        np.full((1, 64 * eta), 0xFF, dtype=np.uint8),
        np.resize(np.array([0x0F, 0xF0, 0x3F], dtype=np.uint8), (1, 64 * eta)),
    ):
        _same(JK.cbd(buf, eta), RK.cbd(buf, eta))
    with pytest.raises(ValueError):
        JK.cbd(np.zeros(64 * eta, dtype=np.uint8), 4)


@pytest.mark.parametrize("d", range(1, 13))
def test_kem_byte_encode_decode(d: int) -> None:
    rng = np.random.default_rng(d)
    top = KEM_Q if d == 12 else 1 << d
    for f in (rng.integers(0, top, (2, 3, 256)), np.full(256, top - 1), np.zeros(256, np.int64)):
        enc = JK.byte_encode(f, d)
        _same(enc, RK.byte_encode(f, d))
        _same(JK.byte_decode(enc, d), f)
    for raw in (
        rng.integers(0, 256, (3, 32 * d), dtype=np.uint8),
        np.full(32 * d, 0xFF, dtype=np.uint8),  # d = 12: 4095 reduced mod q
    ):
        _same(JK.byte_decode(raw, d), RK.byte_decode(raw, d))


@pytest.mark.parametrize("d", range(1, 12))
def test_kem_compress_decompress_exhaustive(d: int) -> None:
    xs = np.arange(KEM_Q, dtype=np.int64)
    padded = np.concatenate([xs, np.zeros(256 * 14 - KEM_Q, dtype=np.int64)]).reshape(14, 256)
    _same(JK.compress(padded, d), RK.compress(padded, d))
    ys = np.resize(np.arange(1 << d, dtype=np.int64), (max(1, (1 << d) // 256), 256))
    _same(JK.decompress(ys, d), RK.decompress(ys, d))


@settings(max_examples=25, deadline=None)
@given(_polys(KEM_Q), _polys(KEM_Q), st.sampled_from([1, 4, 5, 10, 11]))
def test_kem_hypothesis(f: npt.NDArray[np.int64], g: npt.NDArray[np.int64], d: int) -> None:
    _same(JK.ntt(f), RK.ntt(f))
    _same(JK.intt(g), RK.intt(g))
    pair = np.stack([f, g])
    _same(JK.basemul_acc(pair, pair[::-1]), RK.basemul_acc(pair, pair[::-1]))
    c = JK.compress(f, d)
    _same(c, RK.compress(f, d))
    _same(JK.decompress(c, d), RK.decompress(c, d))
    _same(JK.byte_encode(c, d), RK.byte_encode(c, d))
    _same(JK.byte_encode(g, 12), RK.byte_encode(g, 12))


@settings(max_examples=25, deadline=None)
@given(st.binary(min_size=0, max_size=600), st.sampled_from([2, 3]))
def test_kem_hypothesis_bytes(data: bytes, eta: int) -> None:
    buf = np.frombuffer(data[: len(data) - len(data) % 3], dtype=np.uint8)
    _same(JK.rej_uniform(buf), RK.rej_uniform(buf))
    block = np.resize(np.frombuffer(data or b"\0", dtype=np.uint8), 64 * eta)
    _same(JK.cbd(block, eta), RK.cbd(block, eta))
    for d in (1, 5, 11, 12):
        raw = np.resize(np.frombuffer(data or b"\0", dtype=np.uint8), 32 * d)
        _same(JK.byte_decode(raw, d), RK.byte_decode(raw, d))


def test_kem_boundary() -> None:
    f = KEM_EDGES["batch"]
    keep = f.copy()
    for name in ("ntt", "intt", "mulcache"):
        getattr(JK, name)(f)
    JK.basemul_acc(f, f[0]), JK.compress(f, 4), JK.decompress(f & 15, 4), JK.byte_encode(f, 12)
    assert np.array_equal(f, keep)  # inputs are never modified
    _same(JK.ntt(f.astype(np.int32)), RK.ntt(f))  # other integer dtypes are accepted
    ro = np.frombuffer(JK.byte_encode(f, 12).tobytes(), dtype=np.uint8).reshape(2, 3, 384)
    _same(JK.byte_decode(ro, 12), f)  # read-only input
    with pytest.raises(ValueError):
        JK.ntt(np.zeros(255, dtype=np.int64))
    with pytest.raises(ValueError):
        JK.byte_decode(np.zeros(31, dtype=np.uint8), 1)
    with pytest.raises(ValueError):
        JK.ntt(np.zeros(256, dtype=np.float64))
    out = JK.ntt(f)
    out += 1  # results are fresh, writable arrays
    assert out.flags.writeable and out.dtype == np.int64


# --- ML-DSA ----------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(DSA_EDGES))
def test_dsa_transforms_edges(kind: str) -> None:
    x = DSA_EDGES[kind]
    for inp in (x, x - (DSA_Q - 1), -x):  # the contract's (-q, q)
        _same(JD.ntt(inp), RD.ntt(inp))
        _same(JD.intt(inp), RD.intt(inp))
        _same(JD.infinity_norm(inp), RD.infinity_norm(inp))
    _same(JD.intt(JD.ntt(x)), x)


@pytest.mark.parametrize("kind", sorted(DSA_EDGES))
def test_dsa_pointwise_edges(kind: str) -> None:
    x = DSA_EDGES[kind]
    y = np.roll(DSA_EDGES["random"], 3)
    _same(JD.pointwise_mul(x, y), RD.pointwise_mul(x, y))
    m = np.stack([np.broadcast_to(x.reshape(-1, 256)[0], (256,)), y] * 4)[:7]  # l = 7
    _same(JD.pointwise_acc(m, m[::-1]), RD.pointwise_acc(m, m[::-1]))
    full = np.full((8, 256), DSA_Q - 1, dtype=np.int64)
    _same(JD.pointwise_acc(full, full), RD.pointwise_acc(full, full))


def test_dsa_batch_axes() -> None:
    rng = np.random.default_rng(3)
    a_hat = rng.integers(0, DSA_Q, (4, 3, 256))  # (k, l)
    y_hat = rng.integers(0, DSA_Q, (2, 3, 256))  # (batch, l)
    _same(
        JD.pointwise_acc(a_hat[None], y_hat[:, None]), RD.pointwise_acc(a_hat[None], y_hat[:, None])
    )
    c = rng.integers(0, DSA_Q, (2, 256))
    _same(
        JD.pointwise_mul(c[:, None], a_hat[0][None]), RD.pointwise_mul(c[:, None], a_hat[0][None])
    )
    a_hat.setflags(write=False)  # the A_hat cache hands out read-only arrays
    _same(JD.pointwise_acc(a_hat, y_hat[0]), RD.pointwise_acc(a_hat, y_hat[0]))
    assert JD.infinity_norm(a_hat).shape == (4, 3)
    with pytest.raises(ValueError):
        JD.pointwise_acc(np.zeros((9, 256), np.int64), np.zeros((9, 256), np.int64))


def test_dsa_rounding() -> None:
    edges = [0, 1, 2, 4095, 4096, 4097, 8191, 8192, DSA_Q - 1, DSA_Q - 2, (DSA_Q - 1) // 2]
    edges += [g * m + d for g in GAMMA2 for m in (1, 2, 3) for d in (-1, 0, 1)]
    r = np.unique(
        np.concatenate(
            [np.arange(0, DSA_Q, 1009), np.arange(DSA_Q - 2000, DSA_Q)]
            + [np.arange(max(0, c - 200), min(DSA_Q, c + 200)) for c in edges]
        )
    )
    r = np.resize(r, (len(r) // 256 + 1, 256))
    _same(JD.power2round(r), RD.power2round(r))
    for g2 in GAMMA2:
        _same(JD.decompose(r, g2), RD.decompose(r, g2))
        for hint in (np.zeros_like(r), np.ones_like(r)):
            _same(JD.use_hint(hint, r, g2), RD.use_hint(hint, r, g2))
        for z in (np.roll(r, 1, axis=-1), r % 600, np.full_like(r, DSA_Q - 1)):
            _same(JD.make_hint(z, r, g2), RD.make_hint(z, r, g2))
    with pytest.raises(ValueError):
        JD.decompose(r, 1000)


@settings(max_examples=25, deadline=None)
@given(_polys(DSA_Q, -(DSA_Q - 1)), _polys(DSA_Q), st.sampled_from(GAMMA2))
def test_dsa_hypothesis(a: npt.NDArray[np.int64], b: npt.NDArray[np.int64], g2: int) -> None:
    _same(JD.ntt(a), RD.ntt(a))
    _same(JD.intt(a), RD.intt(a))
    _same(JD.infinity_norm(a), RD.infinity_norm(a))
    _same(JD.pointwise_mul(b, b[::-1]), RD.pointwise_mul(b, b[::-1]))
    _same(JD.decompose(b, g2), RD.decompose(b, g2))
    _same(JD.make_hint(a % DSA_Q, b, g2), RD.make_hint(a % DSA_Q, b, g2))
    _same(JD.use_hint(a & 1, b, g2), RD.use_hint(a & 1, b, g2))
    _same(JD.power2round(b), RD.power2round(b))


@settings(max_examples=25, deadline=None)
@given(st.binary(min_size=0, max_size=900), st.sampled_from([2, 4]), st.sampled_from([39, 49, 60]))
def test_dsa_hypothesis_samplers(data: bytes, eta: int, tau: int) -> None:
    buf = np.frombuffer(data, dtype=np.uint8)[None]
    _same(JD.rej_uniform(buf), RD.rej_uniform(buf))
    _same(JD.rej_bounded(buf[:, :300], eta), RD.rej_bounded(buf[:, :300], eta))
    got, want = JD.sample_in_ball(buf[:, :200], tau), RD.sample_in_ball(buf[:, :200], tau)
    _same(got[1], want[1])
    if bool(want[1].all()):
        _same(got[0], want[0])


def test_dsa_sampler_edges() -> None:
    cands = [DSA_Q - 1, DSA_Q, (1 << 23) - 1, 0, 1 | (1 << 23)]
    data = b"".join(c.to_bytes(3, "little") for c in cands * 60)
    buf = np.frombuffer(data, dtype=np.uint8).reshape(2, -1)
    _same(JD.rej_uniform(buf), RD.rej_uniform(buf))
    nibbles = np.arange(256, dtype=np.uint8).reshape(2, 128)
    for eta in (2, 4):
        _same(JD.rej_bounded(nibbles, eta), RD.rej_bounded(nibbles, eta))
        _same(
            JD.rej_bounded(np.zeros((1, 200), np.uint8), eta),
            RD.rej_bounded(np.zeros((1, 200), np.uint8), eta),
        )
        _same(
            JD.rej_bounded(np.full((1, 300), 0xFF, np.uint8), eta),
            RD.rej_bounded(np.full((1, 300), 0xFF, np.uint8), eta),
        )
    for tau in (39, 60):
        ball = (np.arange(300)[::-1] % 256).astype(np.uint8)[None]
        _same(JD.sample_in_ball(ball, tau), RD.sample_in_ball(ball, tau))


@pytest.mark.parametrize("width", [1, 3, 4, 6, 10, 13, 18, 20, 23])
def test_dsa_bit_packing(width: int) -> None:
    rng = np.random.default_rng(width)
    for a in (
        rng.integers(0, 1 << width, (2, 3, 256)),
        np.zeros(256, np.int64),
        np.full(256, (1 << width) - 1),
    ):
        packed = JD.bit_pack(a, width)
        _same(packed, RD.bit_pack(a, width))
        _same(JD.bit_unpack(packed, width), a)
    raw = rng.integers(0, 256, (2, 32 * width), dtype=np.uint8)
    _same(JD.bit_unpack(raw, width), RD.bit_unpack(raw, width))


# --- the schemes on jit: others' vectors ------------------------------------------------


@pytest.mark.parametrize(
    "case", [pytest.param(c, id=i) for i, c in kem_acvp._tests("ML-KEM-keyGen-FIPS203")]
)
def test_mlkem_acvp_keygen(case: Any) -> None:
    kem_acvp.test_keygen("jit", case)


@pytest.mark.parametrize(
    ("function", "case"),
    [
        pytest.param(f, c, id=f"{f}-{i}")
        for f in (
            "encapsulation",
            "decapsulation",
            "encapsulationKeyCheck",
            "decapsulationKeyCheck",
        )
        for i, c in kem_acvp._all(f)
    ],
)
def test_mlkem_acvp_encap_decap(function: str, case: Any) -> None:
    test = {
        "encapsulation": kem_acvp.test_encapsulation,
        "decapsulation": kem_acvp.test_decapsulation,
        "encapsulationKeyCheck": kem_acvp.test_encapsulation_key_check,
        "decapsulationKeyCheck": kem_acvp.test_decapsulation_key_check,
    }[function]
    test("jit", case)


@pytest.mark.parametrize("name", NAMES)
def test_mlkem_cctv_accumulated_100(name: str) -> None:
    with arith.use("jit"):
        assert accumulate(name, 100) == DIGESTS[name]["100"]


def _dsa_cases(kind: str) -> list[Any]:
    data = load_json(dsa_acvp._FILES[kind])
    return [
        pytest.param(g, t, id=f"{g['parameterSet']}-tg{g['tgId']}-tc{t['tcId']}")
        for g in data["testGroups"]
        for t in g["tests"]
    ]


@pytest.mark.parametrize(("group", "test"), _dsa_cases("keyGen"))
def test_mldsa_acvp_keygen(group: dict[str, Any], test: dict[str, Any]) -> None:
    dsa_acvp.test_keygen(group, test, "jit")


@pytest.mark.parametrize(("group", "test"), _dsa_cases("sigVer"))
def test_mldsa_acvp_sigver(group: dict[str, Any], test: dict[str, Any]) -> None:
    dsa_acvp.test_sigver(group, test, "jit")


def test_dsa_float_reduction_at_the_edges() -> None:
    from pqkit.arith.jit_mldsa import _reduce_f64

    # Integers around multiples of q and half-multiples, up to the 2^50 of the NTT.
    k = np.unique(np.concatenate([np.arange(0, 2000), np.geomspace(1, 2**50 / DSA_Q, 3000)]))
    k = np.floor(k).astype(np.int64)
    half = (DSA_Q - 1) // 2
    x = np.concatenate([k * DSA_Q + d for d in (0, 1, -1, half, half + 1, -half, -half - 1)])
    x = np.concatenate([x, -x])
    x = x[np.abs(x) < 2**50]
    got = np.array([_reduce_f64(float(v)) for v in x.tolist()])
    assert np.all(got == np.round(got))
    r = got.astype(np.int64)
    assert np.all((r - x) % DSA_Q == 0)
    assert np.all(np.abs(r) <= half + 4)
