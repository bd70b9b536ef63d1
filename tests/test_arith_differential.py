"""The differential suite: every installed arithmetic backend other than ``ref``
(the ``fast_backend`` fixture, from :func:`pqkit.arith.available`) against the
``ref`` oracle, kernel by kernel, on the same edge inputs and the same
Hypothesis-drawn inputs, for ML-KEM (FIPS 203) and ML-DSA (FIPS 204).

The Hypothesis tests draw one input, compute the ``ref`` answer once and check
every fast backend against it (the failure names the backend). Backend-specific
internals (the numpy float reduction, the jit boundary) stay in
test_arith_mlkem.py, test_arith_mldsa.py and test_arith_jit.py; the fused K-PKE
kernels are in test_arith_kpke.py.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from helpers import ARITH_BACKENDS, FAST_BACKENDS
from hypothesis import given, settings
from hypothesis import strategies as st

from pqkit import arith
from pqkit.arith.api import kernel_names
from pqkit.mldsa.kernels.contract import MLDSAKernels
from pqkit.mldsa.kernels.tables import MLDSA_Q
from pqkit.mlkem.kernels.contract import MLKEMKernels
from pqkit.mlkem.kernels.tables import MLKEM_Q

I64 = npt.NDArray[np.int64]
RK = arith.kernels("mlkem", "ref")
RD = arith.kernels("mldsa", "ref")
GAMMA2 = ((MLDSA_Q - 1) // 88, (MLDSA_Q - 1) // 32)


def _same(got: Any, want: Any, backend: str = "") -> None:
    """Equal values, shapes and dtype kinds (tuples element by element)."""
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want), backend
        for g, w in zip(got, want, strict=True):
            _same(g, w, backend)
        return
    g, w = np.asarray(got), np.asarray(want)
    assert g.shape == w.shape, backend
    assert g.dtype == w.dtype or (g.dtype.kind == w.dtype.kind == "i"), backend
    assert np.array_equal(g, w), backend


def _edges(q: int) -> dict[str, I64]:
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


def _polys(q: int, lo: int = 0) -> st.SearchStrategy[I64]:
    return st.lists(st.integers(lo, q - 1), min_size=256, max_size=256).map(
        lambda xs: np.array(xs, dtype=np.int64)
    )


KEM_EDGES = _edges(MLKEM_Q)
DSA_EDGES = _edges(MLDSA_Q)


def test_every_backend_complete(arith_backend: str) -> None:
    for scheme, contract in (("mlkem", MLKEMKernels), ("mldsa", MLDSAKernels)):
        table = arith.kernels(scheme, arith_backend)  # type: ignore[call-overload]
        assert table.backend == arith_backend
        for name in kernel_names(contract):
            assert callable(getattr(table, name)), (scheme, name)


# --- ML-KEM ----------------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(KEM_EDGES))
def test_kem_ntt_intt_edges(fast_backend: str, kind: str) -> None:
    K = arith.kernels("mlkem", fast_backend)
    f = KEM_EDGES[kind]
    _same(K.ntt(f), RK.ntt(f))
    _same(K.intt(f), RK.intt(f))
    _same(K.intt(K.ntt(f)), f)


@pytest.mark.parametrize("kind", sorted(KEM_EDGES))
def test_kem_basemul_acc_edges(fast_backend: str, kind: str) -> None:
    K = arith.kernels("mlkem", fast_backend)
    f = KEM_EDGES[kind]
    g = KEM_EDGES["random"]
    b = np.broadcast_to(f, (3, 256)) if f.ndim == 1 else f  # (3, 256) or (2, 3, 256)
    a = np.stack([KEM_EDGES["q-1"], g, KEM_EDGES["single"]])
    matrix = np.stack([a, a[::-1], np.full((3, 256), MLKEM_Q - 1)])
    for lhs in (a, matrix):
        rhs = b[:, None] if lhs.ndim == 3 and b.ndim == 3 else b  # a batch of vectors
        want = RK.basemul_acc(lhs, rhs)
        _same(K.basemul_acc(lhs, rhs), want)
        _same(K.basemul_acc(lhs, rhs, K.mulcache(rhs)), want)
    _same(RK.basemul_acc(a, b, RK.mulcache(b)), RK.basemul_acc(a, b))


def test_kem_basemul_acc_broadcasting(fast_backend: str) -> None:
    K = arith.kernels("mlkem", fast_backend)
    rng = np.random.default_rng(7)
    a = rng.integers(0, MLKEM_Q, (2, 1, 4, 256))
    b = rng.integers(0, MLKEM_Q, (3, 4, 256))
    _same(K.basemul_acc(a, b), RK.basemul_acc(a, b))  # (2, 3, 256)
    _same(K.basemul_acc(a, b, K.mulcache(b)), RK.basemul_acc(a, b))
    one = rng.integers(0, MLKEM_Q, (3, 1, 256))  # a broadcast k axis
    _same(K.basemul_acc(one, b), RK.basemul_acc(one, b))
    with pytest.raises(ValueError):
        K.basemul_acc(b[0, 0], b[0, 0])  # no k axis


@pytest.mark.parametrize("nbytes", [0, 3, 300, 504, 768])
def test_kem_rej_uniform(fast_backend: str, nbytes: int) -> None:
    K = arith.kernels("mlkem", fast_backend)
    rng = np.random.default_rng(nbytes)
    for buf in (
        rng.integers(0, 256, (2, 2, nbytes), dtype=np.uint8),
        np.full((2, nbytes), 0xFF, dtype=np.uint8),  # nothing accepted
        np.zeros((2, nbytes), dtype=np.uint8),  # everything accepted
        rng.integers(0, 256, nbytes, dtype=np.uint8),
    ):
        _same(K.rej_uniform(buf), RK.rej_uniform(buf))
    with pytest.raises(ValueError):
        K.rej_uniform(np.zeros(4, dtype=np.uint8))


@pytest.mark.parametrize("eta", [2, 3])
def test_kem_cbd(fast_backend: str, eta: int) -> None:
    K = arith.kernels("mlkem", fast_backend)
    rng = np.random.default_rng(eta)
    for buf in (
        rng.integers(0, 256, (2, 3, 64 * eta), dtype=np.uint8),
        np.zeros(64 * eta, dtype=np.uint8),
        np.full((1, 64 * eta), 0xFF, dtype=np.uint8),
        np.resize(np.array([0x0F, 0xF0, 0x3F], dtype=np.uint8), (1, 64 * eta)),
    ):
        _same(K.cbd(buf, eta), RK.cbd(buf, eta))
    with pytest.raises(ValueError):
        K.cbd(np.zeros(64 * eta, dtype=np.uint8), 4)


@pytest.mark.parametrize("d", range(1, 13))
def test_kem_byte_encode_decode(fast_backend: str, d: int) -> None:
    K = arith.kernels("mlkem", fast_backend)
    rng = np.random.default_rng(d)
    top = MLKEM_Q if d == 12 else 1 << d
    for f in (rng.integers(0, top, (2, 3, 256)), np.full(256, top - 1), np.zeros(256, np.int64)):
        enc = K.byte_encode(f, d)
        _same(enc, RK.byte_encode(f, d))
        _same(K.byte_decode(enc, d), f)
    for raw in (
        rng.integers(0, 256, (3, 32 * d), dtype=np.uint8),
        np.full(32 * d, 0xFF, dtype=np.uint8),  # d = 12: 4095 reduced mod q
    ):
        _same(K.byte_decode(raw, d), RK.byte_decode(raw, d))


@cache
def _compress_oracle(d: int) -> tuple[I64, list[int]]:
    """Every x in [0, 4q) (the contract allows lazily reduced input, taken mod q) as
    (53, 256) rows, and Compress_d of each on exact rationals, rounding half up."""
    xs = np.arange(4 * MLKEM_Q, dtype=np.int64)
    padded = np.concatenate([xs, np.zeros(256 * 53 - 4 * MLKEM_Q, dtype=np.int64)])
    want = [
        int(Fraction((x % MLKEM_Q) << d, MLKEM_Q) + Fraction(1, 2)) % (1 << d)
        for x in range(4 * MLKEM_Q)
    ]
    return padded.reshape(53, 256), want


@pytest.mark.parametrize("d", range(1, 12))
def test_kem_compress_decompress_exhaustive(fast_backend: str, d: int) -> None:
    K = arith.kernels("mlkem", fast_backend)
    padded, want = _compress_oracle(d)
    got = K.compress(padded, d)
    assert got.reshape(-1)[: 4 * MLKEM_Q].tolist() == want
    _same(got[:14], RK.compress(padded[:14], d))  # the oracle agrees on [0, q + ...)
    ys = np.resize(np.arange(1 << d, dtype=np.int64), (max(1, (1 << d) // 256), 256))
    _same(K.decompress(ys, d), RK.decompress(ys, d))


def test_kem_add_edges(fast_backend: str) -> None:
    K = arith.kernels("mlkem", fast_backend)
    for kind, f in KEM_EDGES.items():
        for g in (f, KEM_EDGES["q-1"], KEM_EDGES["zeros"], np.roll(KEM_EDGES["random"], 5)):
            _same(K.add(f, g), RK.add(f, g), f"{fast_backend} {kind}")
    batch = KEM_EDGES["batch"]
    _same(K.add(batch, KEM_EDGES["q-1"]), RK.add(batch, KEM_EDGES["q-1"]))  # broadcasting


@settings(max_examples=60, deadline=None)
@given(_polys(MLKEM_Q), _polys(MLKEM_Q), st.sampled_from([1, 4, 5, 10, 11]))
def test_kem_hypothesis(f: I64, g: I64, d: int) -> None:
    pair = np.stack([f, g])
    c = RK.compress(f, d)
    want = {
        "ntt": RK.ntt(f),
        "intt": RK.intt(g),
        "basemul": RK.basemul_acc(pair, pair[::-1]),
        "compress": c,
        "decompress": RK.decompress(c, d),
        "encode": RK.byte_encode(c, d),
        "encode12": RK.byte_encode(g, 12),
        "add": RK.add(f, g),
    }
    for b in FAST_BACKENDS:
        K = arith.kernels("mlkem", b)
        _same(K.ntt(f), want["ntt"], b)
        _same(K.intt(g), want["intt"], b)
        _same(K.basemul_acc(pair, pair[::-1]), want["basemul"], b)
        _same(K.compress(f, d), want["compress"], b)
        _same(K.decompress(c, d), want["decompress"], b)
        _same(K.byte_encode(c, d), want["encode"], b)
        _same(K.byte_encode(g, 12), want["encode12"], b)
        _same(K.add(f, g), want["add"], b)


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=0, max_size=600), st.sampled_from([2, 3]))
def test_kem_hypothesis_bytes(data: bytes, eta: int) -> None:
    buf = np.frombuffer(data[: len(data) - len(data) % 3], dtype=np.uint8)
    block = np.resize(np.frombuffer(data or b"\0", dtype=np.uint8), 64 * eta)
    raws = {
        d: np.resize(np.frombuffer(data or b"\0", dtype=np.uint8), 32 * d) for d in (1, 5, 11, 12)
    }
    want_rej, want_cbd = RK.rej_uniform(buf), RK.cbd(block, eta)
    want_dec = {d: RK.byte_decode(raw, d) for d, raw in raws.items()}
    for b in FAST_BACKENDS:
        K = arith.kernels("mlkem", b)
        _same(K.rej_uniform(buf), want_rej, b)
        _same(K.cbd(block, eta), want_cbd, b)
        for d, raw in raws.items():
            _same(K.byte_decode(raw, d), want_dec[d], b)


def test_kem_inputs_kept_and_shapes_checked(arith_backend: str) -> None:
    K = arith.kernels("mlkem", arith_backend)
    f = KEM_EDGES["batch"]
    keep = f.copy()
    K.ntt(f), K.intt(f), K.mulcache(f), K.basemul_acc(f, f[0]), K.add(f, f)
    K.compress(f, 4), K.decompress(f & 15, 4), K.byte_encode(f, 12)
    assert np.array_equal(f, keep)
    with pytest.raises(ValueError):
        K.ntt(np.zeros(255, dtype=np.int64))
    with pytest.raises(ValueError):
        K.byte_decode(np.zeros(31, dtype=np.uint8), 1)


# --- ML-DSA ----------------------------------------------------------------------------

_DSA_SPECIAL = np.array(
    [0, 1, 2, MLDSA_Q - 1, MLDSA_Q - 2, (MLDSA_Q - 1) // 2, (MLDSA_Q + 1) // 2]
    + [4095, 4096, 4097, 8191, 8192]
    + [g + d for g in (95232, 261888, 190464, 523776) for d in (-1, 0, 1)]
    + [MLDSA_Q - 1 - g + d for g in (95232, 261888) for d in (-1, 0, 1)],
    dtype=np.int64,
)


@pytest.mark.parametrize("kind", sorted(DSA_EDGES))
def test_dsa_transforms_edges(fast_backend: str, kind: str) -> None:
    K = arith.kernels("mldsa", fast_backend)
    x = DSA_EDGES[kind]
    for inp in (x, x - (MLDSA_Q - 1), -x):  # the contract's (-q, q)
        _same(K.ntt(inp), RD.ntt(inp))
        _same(K.intt(inp), RD.intt(inp))
        _same(K.infinity_norm(inp), RD.infinity_norm(inp))
    _same(K.intt(K.ntt(x)), x)


@pytest.mark.parametrize("kind", sorted(DSA_EDGES))
def test_dsa_pointwise_edges(fast_backend: str, kind: str) -> None:
    K = arith.kernels("mldsa", fast_backend)
    x = DSA_EDGES[kind]
    y = np.roll(DSA_EDGES["random"], 3)
    _same(K.pointwise_mul(x, y), RD.pointwise_mul(x, y))
    m = np.stack([np.broadcast_to(x.reshape(-1, 256)[0], (256,)), y] * 4)[:7]  # l = 7
    _same(K.pointwise_acc(m, m[::-1]), RD.pointwise_acc(m, m[::-1]))
    full = np.full((8, 256), MLDSA_Q - 1, dtype=np.int64)  # the most terms allowed
    _same(K.pointwise_acc(full, full), RD.pointwise_acc(full, full))


def test_dsa_batch_axes(fast_backend: str) -> None:
    K = arith.kernels("mldsa", fast_backend)
    rng = np.random.default_rng(3)
    x = rng.integers(0, MLDSA_Q, (2, 3, 256))
    for name in ("ntt", "intt"):
        got = getattr(K, name)(x)
        assert got.shape == (2, 3, 256)
        _same(got[1, 2], getattr(RD, name)(x[1, 2]))
    a_hat = rng.integers(0, MLDSA_Q, (4, 3, 256))  # (k, l)
    y_hat = rng.integers(0, MLDSA_Q, (2, 3, 256))  # (batch, l)
    _same(
        K.pointwise_acc(a_hat[None], y_hat[:, None]), RD.pointwise_acc(a_hat[None], y_hat[:, None])
    )
    c = rng.integers(0, MLDSA_Q, (2, 256))
    _same(K.pointwise_mul(c[:, None], a_hat[0][None]), RD.pointwise_mul(c[:, None], a_hat[0][None]))
    a_hat.setflags(write=False)  # the A_hat cache hands out read-only arrays
    _same(K.pointwise_acc(a_hat, y_hat[0]), RD.pointwise_acc(a_hat, y_hat[0]))
    assert K.infinity_norm(a_hat).shape == (4, 3)


def _rounding_sample() -> I64:
    """Every r in a band around each rounding boundary, plus a stride over [0, q)."""
    edges = [
        *_DSA_SPECIAL.tolist(),
        *(g * m + d for g in GAMMA2 for m in (1, 2, 3) for d in (-1, 0, 1)),
    ]
    r = np.unique(
        np.concatenate(
            [np.arange(0, MLDSA_Q, 997), np.arange(MLDSA_Q - 3000, MLDSA_Q)]
            + [np.arange(max(0, c - 300), min(MLDSA_Q, c + 300)) for c in edges]
        )
    )
    return np.resize(r, (len(r) // 256 + 1, 256))


ROUNDING = _rounding_sample()


@cache
def _ref_rounding(g2: int) -> dict[str, Any]:
    r = ROUNDING
    zs = (np.roll(r, 1, axis=-1), r % 600, np.full_like(r, MLDSA_Q - 1))
    return {
        "decompose": RD.decompose(r, g2),
        "use_hint": [RD.use_hint(h, r, g2) for h in (np.zeros_like(r), np.ones_like(r))],
        "make_hint": [RD.make_hint(z, r, g2) for z in zs],
        "zs": zs,
    }


@pytest.mark.parametrize("g2", GAMMA2)
def test_dsa_rounding(fast_backend: str, g2: int) -> None:
    K = arith.kernels("mldsa", fast_backend)
    r = ROUNDING
    want = _ref_rounding(g2)
    if g2 == GAMMA2[0]:  # power2round has no gamma2: once
        _same(K.power2round(r), RD.power2round(r))
    _same(K.decompose(r, g2), want["decompose"])
    for h, w in zip((np.zeros_like(r), np.ones_like(r)), want["use_hint"], strict=True):
        _same(K.use_hint(h, r, g2), w)
    for z, w in zip(want["zs"], want["make_hint"], strict=True):
        _same(K.make_hint(z, r, g2), w)
    with pytest.raises(ValueError):
        K.decompose(r, 1000)


def test_dsa_mod_q_centre_edges(fast_backend: str) -> None:
    K = arith.kernels("mldsa", fast_backend)
    q = MLDSA_Q
    band = np.concatenate([np.arange(-q + 1, -q + 300), np.arange(-300, 300)])
    band = np.concatenate([band, np.arange(q - 300, q + 300), np.arange(2 * q - 300, 2 * q)])
    x = np.resize(band, (len(band) // 256 + 1, 256))  # all of it in (-q, 2q)
    _same(K.mod_q(x), RD.mod_q(x))
    canon = np.resize(
        np.concatenate([_DSA_SPECIAL, np.arange(q // 2 - 300, q // 2 + 300)]), (4, 256)
    )
    _same(K.centre(canon), RD.centre(canon))
    _same(K.centre(DSA_EDGES["batch"]), RD.centre(DSA_EDGES["batch"]))


@settings(max_examples=40, deadline=None)
@given(_polys(MLDSA_Q, -(MLDSA_Q - 1)), _polys(MLDSA_Q), st.sampled_from(GAMMA2))
def test_dsa_hypothesis(a: I64, b: I64, g2: int) -> None:
    m = np.stack([a % MLDSA_Q, b] * 4)[:7]  # l = 7, the largest FIPS 204 matrix width
    calls: dict[str, Any] = {
        "ntt": lambda K: K.ntt(a),
        "intt": lambda K: K.intt(a),
        "norm": lambda K: K.infinity_norm(a),
        "mul": lambda K: K.pointwise_mul(b, b[::-1]),
        "acc": lambda K: K.pointwise_acc(m, m[::-1]),
        "decompose": lambda K: K.decompose(b, g2),
        "make_hint": lambda K: K.make_hint(a % MLDSA_Q, b, g2),
        "use_hint": lambda K: K.use_hint(a & 1, b, g2),
        "power2round": lambda K: K.power2round(b),
        "mod_q": lambda K: K.mod_q(a + b),  # in (-q, 2q)
        "centre": lambda K: K.centre(b),
    }
    want = {name: call(RD) for name, call in calls.items()}
    for backend in FAST_BACKENDS:
        K = arith.kernels("mldsa", backend)
        for name, call in calls.items():
            _same(call(K), want[name], f"{backend} {name}")


@settings(max_examples=40, deadline=None)
@given(st.binary(min_size=0, max_size=900), st.sampled_from([2, 4]), st.sampled_from([39, 49, 60]))
def test_dsa_hypothesis_samplers(data: bytes, eta: int, tau: int) -> None:
    buf = np.frombuffer(data, dtype=np.uint8)[None]
    want_u, want_b = RD.rej_uniform(buf[:, : len(data) // 3 * 3]), RD.rej_bounded(buf[:, :300], eta)
    want_ball = RD.sample_in_ball(buf[:, :200], tau)
    for backend in FAST_BACKENDS:
        K = arith.kernels("mldsa", backend)
        _same(K.rej_uniform(buf[:, : len(data) // 3 * 3]), want_u, backend)
        _same(K.rej_bounded(buf[:, :300], eta), want_b, backend)
        got = K.sample_in_ball(buf[:, :200], tau)
        _same(got[1], want_ball[1], backend)
        if bool(want_ball[1].all()):
            _same(got[0], want_ball[0], backend)
            assert int(np.abs(got[0]).sum()) == tau


def test_dsa_sampler_edges(fast_backend: str) -> None:
    K = arith.kernels("mldsa", fast_backend)
    # candidates q - 1 (accepted), q (rejected), 2^23 - 1 (rejected), top bit set
    cands = [MLDSA_Q - 1, MLDSA_Q, (1 << 23) - 1, 0, 1 | (1 << 23)]
    data = b"".join(c.to_bytes(3, "little") for c in cands * 60)
    buf = np.frombuffer(data, dtype=np.uint8).reshape(2, -1)
    _same(K.rej_uniform(buf), RD.rej_uniform(buf))
    nibbles = np.arange(256, dtype=np.uint8).reshape(2, 128)
    for eta in (2, 4):
        _same(K.rej_bounded(nibbles, eta), RD.rej_bounded(nibbles, eta))
        for fill, n in ((0, 200), (0xFF, 300)):
            block = np.full((1, n), fill, np.uint8)
            _same(K.rej_bounded(block, eta), RD.rej_bounded(block, eta))
    for tau in (39, 60):
        ball = (np.arange(300)[::-1] % 256).astype(np.uint8)[None]
        _same(K.sample_in_ball(ball, tau), RD.sample_in_ball(ball, tau))


def test_dsa_rej_uniform_many_rows(fast_backend: str) -> None:
    # Issue 26: numpy gathers every row's first 256 at once when all rows are full,
    # else compacts row by row: both equal ref, on lead shapes.
    K = arith.kernels("mldsa", fast_backend)
    full = np.random.default_rng(7).integers(0, 256, (2, 3, 840), dtype=np.uint8)
    _same(K.rej_uniform(full), RD.rej_uniform(full))
    short = full.reshape(6, 840).copy()
    short[1, :150] = 0xFF  # 50 candidates 2^23 - 1, all rejected
    _same(K.rej_uniform(short), RD.rej_uniform(short))
    assert int(K.rej_uniform(short)[1][1]) < 256
    _same(K.rej_uniform(full[:, :, :768]), RD.rej_uniform(full[:, :, :768]))


@pytest.mark.parametrize("eta", [2, 4])
def test_dsa_rej_bounded_many_rows(fast_backend: str, eta: int) -> None:
    # Issue 26: numpy gathers every row's first 256 at once when all rows are full,
    # and compacts row by row when one is short: both equal ref, on lead shapes.
    K = arith.kernels("mldsa", fast_backend)
    rng = np.random.default_rng(eta)
    full = rng.integers(0, 256, (2, 3, 272), dtype=np.uint8)
    _same(K.rej_bounded(full, eta), RD.rej_bounded(full, eta))
    short = full.reshape(6, 272).copy()
    short[4, :150] = 0xFF  # every nibble of the first 150 bytes rejected
    _same(K.rej_bounded(short, eta), RD.rej_bounded(short, eta))
    assert int(K.rej_bounded(short, eta)[1][4]) < 256
    _same(K.rej_bounded(full[:, :, :100], eta), RD.rej_bounded(full[:, :, :100], eta))


@pytest.mark.parametrize("width", [1, 3, 4, 6, 10, 13, 18, 20, 23])
def test_dsa_bit_packing(fast_backend: str, width: int) -> None:
    K = arith.kernels("mldsa", fast_backend)
    rng = np.random.default_rng(width)
    for a in (
        rng.integers(0, 1 << width, (2, 3, 256)),
        np.zeros(256, np.int64),
        np.full(256, (1 << width) - 1),
    ):
        packed = K.bit_pack(a, width)
        _same(packed, RD.bit_pack(a, width))
        _same(K.bit_unpack(packed, width), a)
    raw = rng.integers(0, 256, (2, 32 * width), dtype=np.uint8)
    _same(K.bit_unpack(raw, width), RD.bit_unpack(raw, width))


@pytest.mark.parametrize("width", [3, 4, 6, 10, 13, 18, 20])
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_dsa_bit_packing_hypothesis(width: int, data: Any) -> None:
    values = data.draw(st.lists(st.integers(0, (1 << width) - 1), min_size=1, max_size=256))
    a = np.array((values * (256 // len(values) + 1))[:256], dtype=np.int64)
    want = RD.bit_pack(a, width)
    _same(RD.bit_unpack(want, width), a)
    for backend in FAST_BACKENDS:
        K = arith.kernels("mldsa", backend)
        _same(K.bit_pack(a, width), want, backend)
        _same(K.bit_unpack(want, width), a, backend)


def test_dsa_inputs_kept(arith_backend: str) -> None:
    K = arith.kernels("mldsa", arith_backend)
    x = np.stack([DSA_EDGES["random"], DSA_EDGES["q-1"], np.resize(_DSA_SPECIAL, 256)])
    keep = x.copy()
    K.ntt(x), K.intt(x), K.power2round(x), K.decompose(x, GAMMA2[0])
    K.make_hint(x, x, GAMMA2[1]), K.use_hint(x & 1, x, GAMMA2[1]), K.infinity_norm(x)
    K.mod_q(x), K.centre(x), K.pointwise_acc(x, x), K.pointwise_mul(x, x)
    assert (x == keep).all()


def test_dsa_cctv_worked_example(arith_backend: str) -> None:
    # CCTV's worked example of the field-operation test, r = 6 010 000
    K = arith.kernels("mldsa", arith_backend)
    r = np.full((1, 256), 6010000, dtype=np.int64)
    r1, r0 = K.power2round(r)
    assert (int(r1[0, 0]), int(r0[0, 0]) % MLDSA_Q) == (734, 8377489)
    assert int(K.decompose(r, GAMMA2[0])[0][0, 0]) == 32
    assert int(K.use_hint(np.ones_like(r), r, GAMMA2[0])[0, 0]) == 31
    assert int(K.decompose(r, GAMMA2[0])[1][0, 0]) == -84848
    assert int(K.decompose(r, GAMMA2[1])[0][0, 0]) == 11
    assert int(K.use_hint(np.ones_like(r), r, GAMMA2[1])[0, 0]) == 12
    assert int(K.decompose(r, GAMMA2[1])[1][0, 0]) == 248464
    assert int(K.infinity_norm(r)[0]) == 2370417
    assert int(K.centre(r)[0, 0]) == 6010000 - MLDSA_Q


def test_backends_listed_for_both_schemes() -> None:
    assert tuple(arith.available("mldsa")) == ARITH_BACKENDS
    assert ARITH_BACKENDS[-1] == "ref"
