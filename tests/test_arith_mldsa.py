"""Properties of the ML-DSA kernels beyond the differential suite
(test_arith_differential.py): the NTT as a ring map on every backend, and the
rounding kernels (FIPS 204, Algorithms 35-40) on every r in [0, q) for both gamma2,
against a vectorised transcription of the FIPS text (itself checked against
``ref``)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest
from helpers import FAST_BACKENDS

from pqkit import arith
from pqkit.mldsa.kernels.tables import MLDSA_D, MLDSA_Q

Q = MLDSA_Q
I64 = npt.NDArray[np.int64]
GAMMA2 = ((Q - 1) // 88, (Q - 1) // 32)
ALL_R = np.arange(Q, dtype=np.int64)
_CHUNK = 1 << 20  # keeps the temporaries of one kernel call small


def test_ntt_is_a_ring_map(arith_backend: str) -> None:
    # NTT^-1(NTT(a) ∘ NTT(b)) is the negacyclic product a * b mod (X^256 + 1)
    K = arith.kernels("mldsa", arith_backend)
    rng = np.random.default_rng(1)
    a, b = rng.integers(0, Q, 256), rng.integers(-5, 6, 256)
    full = np.zeros(512, dtype=object)
    for i in range(256):
        full[i : i + 256] += int(a[i]) * b.astype(object)
    expected = np.array([(full[i] - full[i + 256]) % Q for i in range(256)], dtype=np.int64)
    assert (K.intt(K.pointwise_mul(K.ntt(a), K.ntt(b))) == expected).all()


def _negacyclic(c: I64, s: I64) -> I64:
    """c * s in Z[X]/(X^256 + 1) with Python integers (no reduction mod q)."""
    full = np.zeros(512, dtype=object)
    for i in range(256):
        full[i : i + 256] += int(c[i]) * s.astype(object)
    return np.array([full[i] - full[i + 256] for i in range(256)], dtype=np.int64)


def _challenges(rng: np.random.Generator, rows: int, tau: int) -> I64:
    """Challenges as SampleInBall makes them (tau entries +-1), plus the extremes:
    all +1 at the top positions (the largest products and the most wrap-around)."""
    c = np.zeros((rows, 256), dtype=np.int64)
    for r in range(rows - 1):
        c[r, rng.choice(256, tau, replace=False)] = rng.choice([-1, 1], tau)
    c[-1, 256 - tau :] = 1
    return c


@pytest.mark.parametrize("tau", [39, 60])
def test_challenge_products_are_exact(arith_backend: str, tau: int) -> None:
    # challenge_mul(c, challenge_prepare(s)) is c * s in Z[X]/(X^256 + 1), centred,
    # for the largest short values (t0 at +-2^12, s at +-eta): exact on every backend
    # (numpy's own copy is a floating-point FFT; composed ones are NTT products).
    K = arith.kernels("mldsa", arith_backend)
    rng = np.random.default_rng(tau)
    c = _challenges(rng, 3, tau)
    small = np.stack(
        [
            np.full(256, 1 << 12),
            -np.full(256, (1 << 12) - 1),
            rng.choice([-(1 << 12) + 1, 1 << 12], 256),
            rng.integers(-4, 5, 256),
        ]
    ).astype(np.int64)
    got = K.challenge_mul(c, K.challenge_prepare(small))
    assert got.shape == (3, 4, 256) and got.dtype == np.int64
    for i in range(3):
        for j in range(4):
            assert (got[i, j] == _negacyclic(c[i], small[j])).all(), (i, j)


def _mod_pm(r: I64, alpha: int) -> I64:
    """r mod± alpha (FIPS 204 §2.3), vectorised: in (-alpha/2, alpha/2]."""
    r0 = r % alpha
    return np.where(r0 > alpha // 2, r0 - alpha, r0)


def oracle_power2round(r: I64) -> tuple[I64, I64]:
    """FIPS 204, Algorithm 35 on canonical r, with % and //."""
    r0 = _mod_pm(r, 1 << MLDSA_D)
    return (r - r0) >> MLDSA_D, r0


def oracle_decompose(r: I64, gamma2: int) -> tuple[I64, I64]:
    """FIPS 204, Algorithm 36 on canonical r, with % and //."""
    r0 = _mod_pm(r, 2 * gamma2)
    wrap = r - r0 == Q - 1
    return np.where(wrap, 0, (r - r0) // (2 * gamma2)), np.where(wrap, r0 - 1, r0)


def oracle_use_hint(h: I64, r: I64, gamma2: int) -> I64:
    """FIPS 204, Algorithm 40."""
    m = (Q - 1) // (2 * gamma2)
    r1, r0 = oracle_decompose(r, gamma2)
    return np.where(h == 1, np.where(r0 > 0, (r1 + 1) % m, (r1 - 1) % m), r1)


def test_oracle_matches_ref() -> None:
    ref = arith.kernels("mldsa", "ref")
    rng = np.random.default_rng(35)
    r = np.concatenate([np.arange(0, 40_000, 37), rng.integers(0, Q, 2048), Q - 1 - np.arange(256)])
    r = r[: len(r) // 256 * 256].reshape(-1, 256)
    h = rng.integers(0, 2, r.shape)
    assert all(
        (a == b).all() for a, b in zip(oracle_power2round(r), ref.power2round(r), strict=True)
    )
    for g2 in GAMMA2:
        got = oracle_decompose(r, g2)
        assert all((a == b).all() for a, b in zip(got, ref.decompose(r, g2), strict=True))
        assert (oracle_use_hint(h, r, g2) == ref.use_hint(h, r, g2)).all()


@pytest.mark.parametrize("g2", GAMMA2)
def test_rounding_exhaustive(g2: int) -> None:
    """Every r in [0, q), on every backend but ref (the transcription stands in for
    it, computed once per chunk): Decompose (both outputs), UseHint with h = 1 (h = 0
    gives r1), and, once, Power2Round. The multiply-and-shift constants
    (arith.tables.MLDSA_DECOMPOSE) are right on the whole field, not only a sample."""
    tables = {b: arith.kernels("mldsa", b) for b in FAST_BACKENDS}
    m = (Q - 1) // (2 * g2)
    for start in range(0, Q, _CHUNK):
        r = ALL_R[start : start + _CHUNK]
        w1, w0 = oracle_decompose(r, g2)
        hint = np.where(w0 > 0, w1 + 1, w1 - 1) % m  # Algorithm 40 with h = 1
        ones = np.ones_like(r)
        p1, p0 = oracle_power2round(r) if g2 == GAMMA2[0] else (None, None)
        for backend, K in tables.items():
            r1, r0 = K.decompose(r, g2)
            assert (r1 == w1).all() and (r0 == w0).all(), (backend, start)
            assert (K.use_hint(ones, r, g2) == hint).all(), (backend, start)
            if p1 is not None:
                q1, q0 = K.power2round(r)
                assert (q1 == p1).all() and (q0 == p0).all(), (backend, start)


# --- the numpy kernels' own layouts (issue 11, the NumPy fast path) -----------------


def test_numpy_bit_pack_unpack_every_width() -> None:
    # Byte-aligned groups read and written as 64-bit words: every width of FIPS 204,
    # Algorithms 16 and 18 (1..23 bits), against ref, with leading axes and signed
    # inputs (only the low width bits are packed).
    K, R = arith.kernels("mldsa", "numpy"), arith.kernels("mldsa", "ref")
    rng = np.random.default_rng(11)
    for width in range(1, 24):
        x = rng.integers(-(1 << 23), 1 << 23, (2, 3, 256))
        packed = K.bit_pack(x, width)
        assert np.array_equal(packed, R.bit_pack(x & ((1 << width) - 1), width))
        raw = rng.integers(0, 256, (2, 3, 32 * width), dtype=np.uint8)
        assert np.array_equal(K.bit_unpack(raw, width), R.bit_unpack(raw, width))
        assert np.array_equal(K.bit_unpack(packed, width), x & ((1 << width) - 1))


def test_numpy_bit_unpack_refuses_a_wrong_length() -> None:
    K = arith.kernels("mldsa", "numpy")
    with pytest.raises(ValueError, match="expects 640 bytes, got 639"):
        K.bit_unpack(np.zeros((2, 639), dtype=np.uint8), 20)


@pytest.mark.parametrize("rows", [1, 4, 63, 64, 130])
def test_numpy_ntt_blocks_match_ref(rows: int) -> None:
    # The float64 two-stage NTT splits its matrix products into blocks of 63 rows
    # (OpenBLAS threading threshold): every split equals ref, at the edges of (-q, q).
    K, R = arith.kernels("mldsa", "numpy"), arith.kernels("mldsa", "ref")
    rng = np.random.default_rng(rows)
    x = rng.integers(-Q + 1, Q, (rows, 256))
    x[0, :8] = [-Q + 1, Q - 1, 0, 1, -1, Q - 2, -Q + 2, 2]
    assert np.array_equal(K.ntt(x), R.ntt(x))
    assert np.array_equal(K.intt(x), R.intt(x))
    y = rng.integers(0, Q, (rows, 7, 256))
    y[0, :, :4] = Q - 1
    assert np.array_equal(K.pointwise_acc(y, y), R.pointwise_acc(y, y))
    assert np.array_equal(K.pointwise_mul(y, y), R.pointwise_mul(y, y))


def test_numpy_low_stage_tables_equal_the_unit_vector_images() -> None:
    """The low-bit stage tables are built from 16 lane sums (start-up time): each
    block equals the images of the 256 unit vectors, forward and inverse."""
    from pqkit.mldsa.kernels import numpy as V

    eye = np.eye(256, dtype=np.int64)
    for table, inverse, m in ((V._NTT_LOW, False, 15), (V._INTT_LOW, True, 256)):
        images = eye.copy()
        V._layers(images, V._LOW_LENGTHS[:: -1 if inverse else 1], m, inverse=inverse)
        for h in range(16):
            block = images[16 * h : 16 * h + 16, 16 * h : 16 * h + 16]
            assert np.array_equal(block.astype(np.float64), table[h])
