"""The composite K-PKE kernels (``kpke_decrypt``, ``kpke_encrypt``) of every installed
backend (its own fused copy, or the one :mod:`pqkit.mlkem.kernels.compose` builds over its
primitives) against the step-by-step composition of the ``ref`` kernels written
out here (FIPS 203, Algorithm 15 lines 1-7, Algorithm 14 lines 9-24 and Algorithm 13
lines 8-20), for the three ML-KEM parameter sets, on edge and random inputs and with
Hypothesis."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest
from helpers import ARITH_BACKENDS
from hypothesis import given, settings
from hypothesis import strategies as st

from pqkit import arith
from pqkit.mlkem.kernels.compose import encrypt_rows
from pqkit.mlkem.kernels.tables import MLKEM_Q
from pqkit.mlkem.params import MLKEM_512, MLKEM_768, MLKEM_1024, Params

Q = MLKEM_Q
REF = arith.kernels("mlkem", "ref")
PARAMS = {"512": MLKEM_512, "768": MLKEM_768, "1024": MLKEM_1024}

U8 = npt.NDArray[np.uint8]
I64 = npt.NDArray[np.int64]


def steps_decrypt(dk: U8, c: U8, p: Params) -> U8:
    """Algorithm 15 lines 1-7, one ``ref`` kernel at a time."""
    k, du, dv = p.k, p.du, p.dv
    u = REF.decompress(REF.byte_decode(c[: 32 * du * k].reshape(k, 32 * du), du), du)
    v = REF.decompress(REF.byte_decode(c[32 * du * k :], dv), dv)
    s_hat = REF.byte_decode(dk.reshape(k, 384), 12)
    w = (v - REF.intt(REF.basemul_acc(s_hat, REF.ntt(u)))) % Q
    out: U8 = REF.byte_encode(REF.compress(w, 1), 1)
    return out


def steps_encrypt(t_hat: I64, a_hat: I64, prf_y: U8, prf_e: U8, m: U8, p: Params) -> U8:
    """Algorithm 14 lines 9-24, one ``ref`` kernel at a time (A_hat^T written out)."""
    k = p.k
    y_hat = REF.ntt(REF.cbd(prf_y, p.eta1))
    e = REF.cbd(prf_e, p.eta2)
    a_t = np.array([[a_hat[j, i] for j in range(k)] for i in range(k)])
    u = (REF.intt(REF.basemul_acc(a_t, y_hat)) + e[:k]) % Q
    mu = REF.decompress(REF.byte_decode(m, 1), 1)
    v = (REF.intt(REF.basemul_acc(t_hat, y_hat)) + e[k] + mu) % Q
    c1 = REF.byte_encode(REF.compress(u, p.du), p.du).reshape(-1)
    c2 = REF.byte_encode(REF.compress(v, p.dv), p.dv)
    return np.concatenate([c1, c2])


def _small(rng: np.random.Generator, shape: tuple[int, ...], eta: int) -> I64:
    """CBD-like noise in [-eta, eta], mod q."""
    return rng.integers(-eta, eta + 1, shape) % Q


def _prf(rng: np.random.Generator, rows: int, eta: int, kind: str) -> U8:
    """PRF output (rows, 64 eta) of a given kind: all zero bits (noise 0), all one
    bits (noise 0 with the largest representative the fused kernels see), 0xC3
    bytes (for eta = 2: noise +2 and -2 in turn), or random."""
    fill = {"zeros": 0x00, "max": 0xFF, "signs": 0xC3}.get(kind)
    if fill is not None:
        return np.full((rows, 64 * eta), fill, np.uint8)
    return rng.integers(0, 256, (rows, 64 * eta), dtype=np.uint8)


def _encrypt_inputs(p: Params, kind: str) -> tuple[I64, I64, U8, U8, U8]:
    k = p.k
    rng = np.random.default_rng([k, len(kind)])
    prf_y, prf_e = _prf(rng, k, p.eta1, kind), _prf(rng, k + 1, p.eta2, kind)
    if kind == "zeros":
        z = np.zeros((k + 1, k, 256), dtype=np.int64)
        return z[0], z[1:], prf_y, prf_e, np.zeros(32, np.uint8)
    if kind == "max":  # every coefficient q - 1, m all ones: the largest lazy sums
        f = np.full((k + 1, k, 256), Q - 1, dtype=np.int64)
        return f[0], f[1:], prf_y, prf_e, np.full(32, 0xFF, np.uint8)
    t = rng.integers(0, Q, (k, 256))
    a = rng.integers(0, Q, (k, k, 256))
    return t, a, prf_y, prf_e, rng.integers(0, 256, 32, dtype=np.uint8)


def _decrypt_inputs(p: Params, kind: str) -> tuple[U8, U8]:
    n_c = 32 * (p.du * p.k + p.dv)
    rng = np.random.default_rng([p.k, len(kind), 1])
    if kind == "zeros":
        return np.zeros(384 * p.k, np.uint8), np.zeros(n_c, np.uint8)
    if kind == "max":  # 0xFF: s_hat coefficients 4095 reduced mod q, c all ones
        return np.full(384 * p.k, 0xFF, np.uint8), np.full(n_c, 0xFF, np.uint8)
    dk = REF.byte_encode(rng.integers(0, Q, (p.k, 256)), 12).reshape(-1)
    return dk, rng.integers(0, 256, n_c, dtype=np.uint8)


KINDS = ["zeros", "max", "random", "signs"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("pname", list(PARAMS))
def test_kpke_decrypt_matches_steps(arith_backend: str, pname: str, kind: str) -> None:
    p = PARAMS[pname]
    K = arith.kernels("mlkem", arith_backend)
    dk, c = _decrypt_inputs(p, kind)
    got = K.kpke_decrypt(dk, c, p.k, p.du, p.dv)
    assert got.dtype == np.uint8 and got.shape == (32,)
    assert np.array_equal(got, steps_decrypt(dk, c, p))
    # Read-only inputs, as kpke.py passes them (np.frombuffer of bytes).
    ro = K.kpke_decrypt(
        np.frombuffer(dk.tobytes(), np.uint8), np.frombuffer(c.tobytes(), np.uint8), p.k, p.du, p.dv
    )
    assert np.array_equal(ro, got)
    # With dk_pke given decoded (s_hat and its kpke_cache): the same message.
    s_hat = REF.byte_decode(dk.reshape(p.k, 384), 12)
    for reused in (False, True):  # both forms of the prepared multiplier
        pre = K.kpke_decrypt(dk, c, p.k, p.du, p.dv, s_hat, K.kpke_cache(s_hat, reused))
        assert np.array_equal(pre, got)
    assert np.array_equal(K.kpke_decrypt(dk, c, p.k, p.du, p.dv, s_hat), got)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("pname", list(PARAMS))
def test_kpke_encrypt_matches_steps(arith_backend: str, pname: str, kind: str) -> None:
    p = PARAMS[pname]
    K = arith.kernels("mlkem", arith_backend)
    args = _encrypt_inputs(p, kind)
    keep = [a.copy() for a in args]
    got = K.kpke_encrypt(*args, p.du, p.dv)
    assert got.dtype == np.uint8 and got.shape == (32 * (p.du * p.k + p.dv),)
    assert np.array_equal(got, steps_encrypt(*args, p))
    assert all(np.array_equal(a, b) for a, b in zip(args, keep, strict=True))  # inputs kept
    # With the rows (A_hat^T over t_hat^T) and their kpke_cache given: the same bytes.
    rows = encrypt_rows(args[0], args[1])
    for reused in (False, True):
        pre = K.kpke_encrypt(*args, p.du, p.dv, rows, K.kpke_cache(rows, reused))
        assert np.array_equal(pre, got)
    assert np.array_equal(K.kpke_encrypt(*args, p.du, p.dv, rows), got)


def test_kpke_roundtrip(arith_backend: str) -> None:
    # Decrypt(Encrypt(m)) = m with a real key shape: t_hat = A_hat s_hat + e_hat.
    K = arith.kernels("mlkem", arith_backend)
    for p in PARAMS.values():
        rng = np.random.default_rng(p.k)
        a_hat = rng.integers(0, Q, (p.k, p.k, 256))
        s_hat = K.ntt(_small(rng, (p.k, 256), p.eta1))
        e_hat = K.ntt(_small(rng, (p.k, 256), p.eta1))
        t_hat = (K.basemul_acc(a_hat, s_hat) + e_hat) % Q
        m = rng.integers(0, 256, 32, dtype=np.uint8)
        prf_y, prf_e = _prf(rng, p.k, p.eta1, "random"), _prf(rng, p.k + 1, p.eta2, "random")
        c = K.kpke_encrypt(t_hat, a_hat, prf_y, prf_e, m, p.du, p.dv)
        dk = K.byte_encode(s_hat, 12).reshape(-1)
        assert np.array_equal(K.kpke_decrypt(dk, c, p.k, p.du, p.dv), m)


def test_kpke_bad_arguments(arith_backend: str) -> None:
    K = arith.kernels("mlkem", arith_backend)
    p = MLKEM_768
    k = p.k
    dk, c = _decrypt_inputs(p, "random")
    with pytest.raises(ValueError):
        K.kpke_decrypt(dk[:-1], c, p.k, p.du, p.dv)
    with pytest.raises(ValueError):
        K.kpke_decrypt(dk, c[:-32], p.k, p.du, p.dv)
    with pytest.raises(ValueError):
        K.kpke_decrypt(dk, c, p.k, 12, p.dv)
    with pytest.raises(ValueError):
        K.kpke_decrypt(np.zeros(384 * 5, np.uint8), np.zeros(32 * 5 * 11 + 160, np.uint8), 5, 11, 5)
    t, a, py, pe, m = _encrypt_inputs(p, "random")
    for bad in (
        (t[:2], a, py, pe, m),
        (t, a[:, :2], py, pe, m),
        (t, a, py[:2], pe, m),  # k - 1 rows of y
        (t, a, py, pe[:k], m),  # e2 missing
        (t, a, py[:, :127], pe, m),  # not 64 eta bytes
        (t, a, np.zeros((k, 256), np.uint8), pe, m),  # eta = 4
        (t, a, py, pe[:, :64], m),  # eta = 1
        (t, a, py, pe, m[:31]),
    ):
        with pytest.raises(ValueError):
            K.kpke_encrypt(*bad, p.du, p.dv)
    with pytest.raises(ValueError):
        K.kpke_encrypt(t, a, py, pe, m, 0, p.dv)


@settings(max_examples=6, deadline=None)
@given(
    st.sampled_from(ARITH_BACKENDS),
    st.sampled_from(list(PARAMS)),
    st.integers(0, 2**32 - 1),
    st.binary(min_size=32, max_size=32),
)
def test_kpke_hypothesis(backend: str, pname: str, seed: int, m: bytes) -> None:
    p = PARAMS[pname]
    K = arith.kernels("mlkem", backend)
    rng = np.random.default_rng(seed)
    dk = REF.byte_encode(rng.integers(0, Q, (p.k, 256)), 12).reshape(-1)
    c = rng.integers(0, 256, 32 * (p.du * p.k + p.dv), dtype=np.uint8)
    assert np.array_equal(K.kpke_decrypt(dk, c, p.k, p.du, p.dv), steps_decrypt(dk, c, p))
    args = (
        rng.integers(0, Q, (p.k, 256)),
        rng.integers(0, Q, (p.k, p.k, 256)),
        _prf(rng, p.k, p.eta1, "random"),
        _prf(rng, p.k + 1, p.eta2, "random"),
        np.frombuffer(m, np.uint8),
    )
    assert np.array_equal(K.kpke_encrypt(*args, p.du, p.dv), steps_encrypt(*args, p))


def test_kpke_scalar_arguments(arith_backend: str) -> None:
    K = arith.kernels("mlkem", arith_backend)
    z = np.zeros(256, dtype=np.int64)
    b = np.zeros(128, dtype=np.uint8)
    with pytest.raises(ValueError):
        K.kpke_encrypt(np.int64(0), z, b, b, np.zeros(32, np.uint8), 10, 4)
    with pytest.raises(ValueError):
        K.kpke_decrypt(np.uint8(0), np.uint8(0), 2, 10, 4)


def steps_keygen(a_hat: I64, prf: U8, k: int, eta: int) -> U8:
    """Algorithm 13 lines 8-20 (without rho), one ``ref`` kernel at a time."""
    se = REF.cbd(prf, eta)
    s_hat, e_hat = REF.ntt(se[:k]), REF.ntt(se[k:])
    t_hat = (REF.basemul_acc(a_hat, s_hat) + e_hat) % Q
    out: U8 = np.concatenate([REF.byte_encode(t_hat, 12), REF.byte_encode(s_hat, 12)])
    return out


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("pname", list(PARAMS))
def test_kpke_keygen_matches_steps(arith_backend: str, pname: str, kind: str) -> None:
    p = PARAMS[pname]
    k = p.k
    rng = np.random.default_rng([k, len(kind), 2])
    if kind == "zeros":
        a_hat = np.zeros((k, k, 256), np.int64)
    elif kind == "max":  # every coefficient q - 1: the largest unreduced sums
        a_hat = np.full((k, k, 256), Q - 1)
    else:
        a_hat = rng.integers(0, Q, (k, k, 256))
    K = arith.kernels("mlkem", arith_backend)
    for eta in (2, 3):  # the parameter sets' eta1, and the other
        prf = _prf(rng, 2 * k, eta, kind)
        keep = (a_hat.copy(), prf.copy())
        got = K.kpke_keygen(a_hat, prf)
        assert got.dtype == np.uint8 and got.shape == (2 * k, 384)
        assert np.array_equal(got, steps_keygen(a_hat, prf, k, eta))
        assert np.array_equal(keep[0], a_hat) and np.array_equal(keep[1], prf)  # inputs kept
        ro_a = np.frombuffer(a_hat.tobytes(), np.int64).reshape(a_hat.shape)
        ro_prf = np.frombuffer(prf.tobytes(), np.uint8).reshape(prf.shape)
        assert np.array_equal(K.kpke_keygen(ro_a, ro_prf), got)  # read-only inputs


def test_kpke_keygen_bad_arguments(arith_backend: str) -> None:
    K = arith.kernels("mlkem", arith_backend)
    a, prf = np.zeros((3, 3, 256), np.int64), np.zeros((6, 128), np.uint8)
    for bad in (
        (a[:2], prf),
        (a, prf[:5]),
        (a[:, :2], prf),
        (a, prf[:, :127]),
        (a, np.zeros((6, 256), np.uint8)),  # eta = 4
        (np.int64(0), prf),
    ):
        with pytest.raises(ValueError):
            K.kpke_keygen(*bad)
    with pytest.raises(ValueError):
        K.kpke_keygen(np.zeros((5, 5, 256), np.int64), np.zeros((10, 128), np.uint8))


@pytest.mark.parametrize("k", [2, 3, 4])
def test_decode_t_hat_modulus_check_equals_decode_encode(k: int) -> None:
    """kpke.decode_t_hat's §7.2 check (every 12-bit field below q) against its
    definition on the ``ref`` kernels, ByteEncode_12(ByteDecode_12(t)) == t, on keys
    with one value at q - 1, q, q + 1 or 4095 in either half of a triple (and the
    last field of the last triple); t_hat equals ByteDecode_12."""
    from pqkit.mlkem import kpke

    ref = arith.kernels("mlkem", "ref")
    numpy_k = arith.kernels("mlkem", "numpy")
    rng = np.random.default_rng(k)
    verdicts = []
    for r in range(48):
        t = rng.integers(0, MLKEM_Q, (128 * k, 2))
        value = (3328, 3329, 3330, 4095)[r % 4]
        where = 128 * k - 1 if r % 6 == 5 else int(rng.integers(128 * k))
        t[where, r // 4 % 2] = value if r % 5 else 0
        raw = ref.byte_encode(t.reshape(k, 256), 12)
        again = ref.byte_encode(ref.byte_decode(raw, 12), 12)
        expected = bool(np.array_equal(again, raw))
        t_hat, ok = kpke.decode_t_hat(numpy_k, raw.tobytes() + bytes(32), k)
        assert ok == expected
        assert np.array_equal(t_hat, ref.byte_decode(raw, 12))
        verdicts.append(ok)
    assert any(verdicts) and not all(verdicts)


def _compress_edges(d: int) -> I64:
    """Canonical values on both sides of every rounding step of Compress_d: x with
    2^d x / q just below and just above each t + 1/2, and 0, q - 1."""
    t = np.arange(1 << d)
    step = -(-(2 * t + 1) * Q // (1 << (d + 1)))  # the first x rounding up past t
    return np.unique(np.concatenate([step - 1, step, [0, Q - 1]]) % Q)


@pytest.mark.parametrize(("du", "dv"), [(10, 4), (11, 5), (9, 3), (1, 11)])
def test_numpy_compress_encode_of_any_representative(du: int, dv: int) -> None:
    """The numpy encoder of K-PKE.Encrypt lines 22-24 takes u and v as any
    representatives below 2^27.4 (the sums its multiplication leaves, not reduced
    mod q) and must give ByteEncode_d(Compress_d(x mod q)) of the ``ref`` kernels:
    every rounding edge of Compress_d, shifted by random multiples of q up to the
    bound, for the widths of ML-KEM (10, 4 and 11, 5) and others."""
    from pqkit.mlkem.kernels import numpy as numpy_kernels

    rng = np.random.default_rng(du * 16 + dv)
    k = 3
    for _ in range(4):
        canon = np.stack(
            [rng.choice(_compress_edges(du if r < k else dv), 256) for r in range(k + 1)]
        )
        lifts = rng.integers(0, int(2**27.4) // Q, canon.shape)
        lifts[0, :8] = int(2**27.4) // Q - 1  # the largest multiple too
        x = canon + lifts * Q
        h_major = x.reshape(k + 1, 16, 16).transpose(1, 0, 2).astype(np.float64)
        got = numpy_kernels._compress_encode(h_major, k, du, dv)
        c1 = REF.byte_encode(REF.compress(canon[:k], du), du).reshape(-1)
        c2 = REF.byte_encode(REF.compress(canon[k], dv), dv)
        assert np.array_equal(got, np.concatenate([c1, c2]))


def test_matrix_entry_short_of_the_first_read() -> None:
    """SampleNTT with the first XOF read of the SHA-3 suite (504 bytes): an entry with
    fewer than 256 of its 336 candidates accepted (about 1 in 120) is read again
    from a longer prefix; the matrix equals SampleNTT on a read long enough for every
    entry, per entry (FIPS 203, Algorithm 7), on every backend."""
    from pqkit.mlkem import kpke
    from pqkit.mlkem.symmetric import FIPS203, SHAKE128_XOF_BYTES

    ops = FIPS203.bind()
    k = 2
    rho = next(
        r
        for r in (i.to_bytes(32, "little") for i in range(2000))
        if int(REF.rej_uniform(ops.xof_matrix(r, k, SHAKE128_XOF_BYTES))[1].min()) < 256
    )
    want = REF.rej_uniform(ops.xof_matrix(rho, k, 4 * SHAKE128_XOF_BYTES))[0]
    for backend in ARITH_BACKENDS:
        got = kpke.expand_matrix(ops, arith.kernels("mlkem", backend), rho, k)
        assert np.array_equal(got.reshape(k * k, 256), want)
