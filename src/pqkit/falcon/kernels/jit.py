"""Falcon's ``jit`` kernels: the ``ref`` arithmetic compiled with Numba.

The FFT, splitfft / mergefft, LDL* and NTT loops are
:mod:`pqkit.falcon.kernels.scalar`'s own ``*_into`` functions, compiled here; the
other loops perform the binary64 operations of the scalar code in the same order.
Numba compiles without ``fastmath``, so LLVM neither reassociates nor contracts a
multiply and an add into an FMA: the bits are the reference's
(tests/test_falcon_kernels.py compares every kernel and whole signatures with
``ref``).

ffSampling runs whole in compiled code, with SamplerZ and the sampler's
ChaCha20 generator (the Python :class:`~pqkit.falcon.prng.ChaChaPrng` hands its
state over and takes it back). The base sampler compares all 18 table entries
with borrow arithmetic and BerExp caps the shift with a mask, as the reference
does; the number of rejections (and so the time) depends on secret data, as in
every Falcon implementation (README, Security).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.arith._jit import jit, jit_inline
from pqkit.arith.api import kernel_table
from pqkit.falcon.kernels import scalar
from pqkit.falcon.kernels.contract import FalconKernels, FloatPoly, Gram, IntPoly, Target
from pqkit.falcon.kernels.scalar import ntt_roots
from pqkit.falcon.kernels.tables import (
    EXPM_C,
    GM,
    INV_2SQRSIGMA0,
    INV_LOG2,
    LOG2,
    RCDT,
    Q,
    inv_sigma,
)
from pqkit.falcon.prng import ChaChaPrng

__all__ = ["KERNELS"]

_GM_RE = np.array([r for r, _ in GM], dtype=np.float64)
_GM_IM = np.array([i for _, i in GM], dtype=np.float64)
_RCDT_LIMBS = np.array(
    [[(r >> 48) & 0xFFFFFF, (r >> 24) & 0xFFFFFF, r & 0xFFFFFF] for r in RCDT], dtype=np.int64
)
_EXPM_C = np.array(EXPM_C, dtype=np.uint64)
_CW = np.array([0x61707865, 0x3320646E, 0x79622D32, 0x6B206574], dtype=np.uint64)
_M32 = np.uint64(0xFFFFFFFF)


# --- the FFT -------------------------------------------------------------------------


_fft = jit(scalar.fft_into)


_ifft = jit(scalar.ifft_into)


@jit
def _mul(a: Any, b: Any, out: Any, conj_b: bool) -> None:
    hn = a.shape[0] >> 1
    for u in range(hn):
        a_re = a[u]
        a_im = a[u + hn]
        b_re = b[u]
        b_im = -b[u + hn] if conj_b else b[u + hn]
        out[u] = a_re * b_re - a_im * b_im
        out[u + hn] = a_re * b_im + a_im * b_re


def _f64(a: Any) -> FloatPoly:
    return np.ascontiguousarray(a, dtype=np.float64)


def _i64(a: Any) -> IntPoly:
    return np.ascontiguousarray(a, dtype=np.int64)


def fft(a: FloatPoly) -> FloatPoly:
    f = np.array(a, dtype=np.float64)
    _fft(f, _GM_RE, _GM_IM)
    return f


def ifft(a: FloatPoly) -> FloatPoly:
    f = np.array(a, dtype=np.float64)
    _ifft(f, _GM_RE, _GM_IM)
    return f


def poly_add(a: FloatPoly, b: FloatPoly) -> FloatPoly:
    return _f64(a) + _f64(b)


def poly_neg(a: FloatPoly) -> FloatPoly:
    return -_f64(a)


def poly_mulconst(a: FloatPoly, c: float) -> FloatPoly:
    return _f64(a) * float(c)


def poly_mul(a: FloatPoly, b: FloatPoly) -> FloatPoly:
    out = np.empty_like(_f64(a))
    _mul(_f64(a), _f64(b), out, False)
    return out


def poly_muladj(a: FloatPoly, b: FloatPoly) -> FloatPoly:
    out = np.empty_like(_f64(a))
    _mul(_f64(a), _f64(b), out, True)
    return out


def poly_mulselfadj(a: FloatPoly) -> FloatPoly:
    a = _f64(a)
    hn = a.shape[0] >> 1
    out = np.zeros_like(a)
    out[:hn] = a[:hn] * a[:hn] + a[hn:] * a[hn:]
    return out


# --- the sampler's generator and SamplerZ -----------------------------------------------


@jit
def _refill(key: Any, st: Any, buf: Any) -> None:
    """Eight ChaCha20 blocks into ``buf`` (the reference's interleaving);
    st = [read position, block counter (its 64 bits in an int64)]."""
    m32 = np.uint64(0xFFFFFFFF)
    cc = np.uint64(st[1])
    s = np.empty(16, dtype=np.uint64)
    x = np.empty(16, dtype=np.uint64)
    for u in range(8):
        for v in range(4):
            s[v] = _CW[v]
        for v in range(12):
            s[4 + v] = np.uint64(key[v])
        s[14] ^= cc & m32
        s[15] ^= cc >> np.uint64(32)
        for v in range(16):
            x[v] = s[v]
        for _ in range(10):
            for q in range(8):
                # the four column rounds, then the four diagonal ones (RFC 8439 §2.3):
                # (0, 4, 8, 12) .. (3, 7, 11, 15), (0, 5, 10, 15) .. (3, 4, 9, 14)
                a = q & 3
                diagonal = q >> 2
                b = 4 + ((a + diagonal) & 3)
                c = 8 + ((a + 2 * diagonal) & 3)
                d = 12 + ((a + 3 * diagonal) & 3)
                x[a] = (x[a] + x[b]) & m32
                y = x[d] ^ x[a]
                x[d] = ((y << np.uint64(16)) | (y >> np.uint64(16))) & m32
                x[c] = (x[c] + x[d]) & m32
                y = x[b] ^ x[c]
                x[b] = ((y << np.uint64(12)) | (y >> np.uint64(20))) & m32
                x[a] = (x[a] + x[b]) & m32
                y = x[d] ^ x[a]
                x[d] = ((y << np.uint64(8)) | (y >> np.uint64(24))) & m32
                x[c] = (x[c] + x[d]) & m32
                y = x[b] ^ x[c]
                x[b] = ((y << np.uint64(7)) | (y >> np.uint64(25))) & m32
        for v in range(16):
            w = (x[v] + s[v]) & m32
            base = (u << 2) + (v << 5)
            buf[base] = w & np.uint64(0xFF)
            buf[base + 1] = (w >> np.uint64(8)) & np.uint64(0xFF)
            buf[base + 2] = (w >> np.uint64(16)) & np.uint64(0xFF)
            buf[base + 3] = (w >> np.uint64(24)) & np.uint64(0xFF)
        cc = cc + np.uint64(1)
    st[1] = np.int64(cc)
    st[0] = 0


@jit
def _u8(key: Any, st: Any, buf: Any) -> Any:
    p = st[0]
    v = np.int64(buf[p])
    p += 1
    st[0] = p
    if p == 512:
        _refill(key, st, buf)
    return v


@jit
def _u64(key: Any, st: Any, buf: Any) -> Any:
    if st[0] >= 512 - 9:
        _refill(key, st, buf)
    u = st[0]
    st[0] = u + 8
    r = np.uint64(0)
    for i in range(8):
        r |= np.uint64(buf[u + i]) << np.uint64(8 * i)
    return r


@jit
def _mulhi(z: np.uint64, y: np.uint64) -> Any:
    """(z * y) >> 64 on 32-bit halves (exact)."""
    m32 = np.uint64(0xFFFFFFFF)
    s32 = np.uint64(32)
    z0 = z & m32
    z1 = z >> s32
    y0 = y & m32
    y1 = y >> s32
    a = z0 * y1 + ((z0 * y0) >> s32)
    b = z1 * y0
    c = (a >> s32) + (b >> s32)
    c += ((a & m32) + (b & m32)) >> s32
    c += z1 * y1
    return c


@jit
def _expm_p63(x: float, ccs: float, coeffs: Any) -> Any:
    y = coeffs[0]
    z = np.uint64(np.int64(x * 9223372036854775808.0)) << np.uint64(1)
    for u in range(1, coeffs.shape[0]):
        y = coeffs[u] - _mulhi(z, y)
    z = np.uint64(np.int64(ccs * 9223372036854775808.0)) << np.uint64(1)
    return _mulhi(z, y)


@jit
def _base_sampler(key: Any, st: Any, buf: Any, limbs: Any) -> Any:
    lo = _u64(key, st, buf)
    hi = np.uint64(_u8(key, st, buf))
    v0 = np.int64(lo & np.uint64(0xFFFFFF))
    v1 = np.int64((lo >> np.uint64(24)) & np.uint64(0xFFFFFF))
    v2 = np.int64((lo >> np.uint64(48)) | (hi << np.uint64(16)))
    z = np.int64(0)
    for i in range(limbs.shape[0]):
        cc = ((v0 - limbs[i, 2]) >> 63) & 1
        cc = ((v1 - limbs[i, 1] - cc) >> 63) & 1
        cc = ((v2 - limbs[i, 0] - cc) >> 63) & 1
        z += cc
    return z


@jit
def _ber_exp(key: Any, st: Any, buf: Any, x: float, ccs: float, coeffs: Any) -> Any:
    s = np.int64(x * INV_LOG2)
    r = x - float(s) * LOG2
    # s = min(s, 63) without a branch (the reference's mask)
    s = s ^ ((s ^ 63) & -(((63 - s) >> 63) & 1))
    z = ((_expm_p63(r, ccs, coeffs) << np.uint64(1)) - np.uint64(1)) >> np.uint64(s)
    i = 64
    while True:
        i -= 8
        w = _u8(key, st, buf) - np.int64((z >> np.uint64(i)) & np.uint64(0xFF))
        if w != 0 or i <= 0:
            return w < 0


@jit
def _sample_z(
    key: Any, st: Any, buf: Any, mu: float, isigma: float, sigma_min: float, limbs: Any, coeffs: Any
) -> Any:
    s = np.int64(math.floor(mu))
    r = mu - float(s)
    dss = (isigma * isigma) * 0.5
    ccs = isigma * sigma_min
    while True:
        z0 = _base_sampler(key, st, buf, limbs)
        b = _u8(key, st, buf) & 1
        z = b + ((b << 1) - 1) * z0
        d = float(z) - r
        x = (d * d) * dss
        x = x - float(z0 * z0) * INV_2SQRSIGMA0
        if _ber_exp(key, st, buf, x, ccs, coeffs):
            return s + z


_ldl = jit_inline(scalar.ldl_into)


# --- ffSampling -------------------------------------------------------------------------


_split = jit(scalar.split_into)


_merge = jit(scalar.merge_into)


@jit
def _ff(
    key: Any,
    st: Any,
    buf: Any,
    t0: Any,
    t1: Any,
    g00: Any,
    g01: Any,
    g11: Any,
    z0: Any,
    z1: Any,
    tmp: Any,
    inv_sigma: float,
    sigma_min: float,
    gm_re: Any,
    gm_im: Any,
    limbs: Any,
    coeffs: Any,
) -> None:
    """ffSampling on views of one workspace: this level takes 7n values of ``tmp``
    and hands the rest to its two children (in turn), so a signature allocates
    nothing here."""
    n = t0.shape[0]
    if n == 1:
        leaf = math.sqrt(g00[0]) * inv_sigma
        z0[0] = float(_sample_z(key, st, buf, t0[0], leaf, sigma_min, limbs, coeffs))
        z1[0] = float(_sample_z(key, st, buf, t1[0], leaf, sigma_min, limbs, coeffs))
        return
    hn = n >> 1
    l10 = tmp[0:n]
    d11 = tmp[n : 2 * n]
    g00_0 = tmp[2 * n : 2 * n + hn]
    g00_1 = tmp[2 * n + hn : 3 * n]
    g11_0 = tmp[3 * n : 3 * n + hn]
    g11_1 = tmp[3 * n + hn : 4 * n]
    ta = tmp[4 * n : 4 * n + hn]
    tb = tmp[4 * n + hn : 5 * n]
    za = tmp[5 * n : 5 * n + hn]
    zb = tmp[5 * n + hn : 6 * n]
    tb0 = tmp[6 * n : 7 * n]
    rest = tmp[7 * n :]
    _ldl(g00, g01, g11, l10, d11)
    _split(g00, g00_0, g00_1, gm_re, gm_im)
    _split(d11, g11_0, g11_1, gm_re, gm_im)
    _split(t1, ta, tb, gm_re, gm_im)
    _ff(key, st, buf, ta, tb, g11_0, g11_1, g11_0, za, zb, rest, inv_sigma, sigma_min,
        gm_re, gm_im, limbs, coeffs)  # fmt: skip
    _merge(za, zb, z1, gm_re, gm_im)
    for u in range(hn):
        d_re = t1[u] - z1[u]
        d_im = t1[u + hn] - z1[u + hn]
        l_re = l10[u]
        l_im = l10[u + hn]
        tb0[u] = t0[u] + (l_re * d_re - l_im * d_im)
        tb0[u + hn] = t0[u + hn] + (l_re * d_im + l_im * d_re)
    _split(tb0, ta, tb, gm_re, gm_im)
    _ff(key, st, buf, ta, tb, g00_0, g00_1, g00_0, za, zb, rest, inv_sigma, sigma_min,
        gm_re, gm_im, limbs, coeffs)  # fmt: skip
    _merge(za, zb, z0, gm_re, gm_im)


def ff_sampling(
    prng: ChaChaPrng, target: Target, gram: Gram, logn: int, sigma_min: float
) -> tuple[FloatPoly, FloatPoly]:
    inv = inv_sigma(logn)
    (t0, t1), (g00, g01, g11) = target, gram
    key_t, cc, buf_b, ptr = prng.export()
    key = np.array(key_t, dtype=np.uint32)
    # the counter's 64 bits travel in an int64 (two's complement), the position too
    st = np.array([max(ptr, 0), cc - (1 << 64) if cc >> 63 else cc], dtype=np.int64)
    buf = np.zeros(512, dtype=np.uint8)
    if ptr < 0:
        _refill(key, st, buf)
    else:
        buf[:] = np.frombuffer(buf_b, dtype=np.uint8)
    n = t0.shape[0]
    z0 = np.empty(n)
    z1 = np.empty(n)
    tmp = np.empty(14 * n + 8)  # 7n + 7n/2 + ... for the levels below
    _ff(key, st, buf, _f64(t0), _f64(t1), _f64(g00), _f64(g01), _f64(g11), z0, z1, tmp,
        inv, float(sigma_min), _GM_RE, _GM_IM, _RCDT_LIMBS, _EXPM_C)  # fmt: skip
    prng.restore(int(st[1]) & ((1 << 64) - 1), buf.tobytes(), int(st[0]))
    return z0, z1


# --- the NTT modulo q (public data) -----------------------------------------------------

_NTT_TABLES: dict[int, tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int]] = {}


def _tables(n: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int]:
    if n not in _NTT_TABLES:
        z, iz = ntt_roots(n)
        _NTT_TABLES[n] = (
            np.array(z, dtype=np.int64),
            np.array(iz, dtype=np.int64),
            pow(n, Q - 2, Q),
        )
    return _NTT_TABLES[n]


_ntt_fwd = jit(scalar.ntt_into)


_ntt_inv = jit(scalar.intt_into)


@jit
def _ntt_mul(a: Any, b: Any, zetas: Any, izetas: Any, ninv: int) -> Any:
    fa = a.copy()
    fb = b.copy()
    _ntt_fwd(fa, zetas)
    _ntt_fwd(fb, zetas)
    for i in range(fa.shape[0]):
        fa[i] = fa[i] * fb[i] % 12289
    _ntt_inv(fa, izetas, ninv)
    return fa


@jit
def _ntt_div(a: Any, b: Any, zetas: Any, izetas: Any, ninv: int) -> Any:
    """a / b with b^-1 = b^(q-2) in the NTT domain (square and multiply over the
    public exponent: no branch on the values); ok = no NTT coefficient of b is 0."""
    fa = a.copy()
    fb = b.copy()
    _ntt_fwd(fa, zetas)
    _ntt_fwd(fb, zetas)
    zero = np.int64(0)
    for i in range(fa.shape[0]):
        x = fb[i]
        zero |= np.int64(x == 0)
        r = np.int64(1)
        e = 12287
        while e:
            if e & 1:
                r = r * x % 12289
            x = x * x % 12289
            e >>= 1
        fa[i] = fa[i] * r % 12289
    _ntt_inv(fa, izetas, ninv)
    return fa, zero == 0


def ntt_div(a: IntPoly, b: IntPoly) -> tuple[IntPoly, bool]:
    z, iz, ninv = _tables(a.shape[0])
    out, ok = _ntt_div(
        np.ascontiguousarray(a, dtype=np.int64),
        np.ascontiguousarray(b, dtype=np.int64),
        z,
        iz,
        ninv,
    )
    return out, bool(ok)


def ntt_mul(a: IntPoly, b: IntPoly) -> IntPoly:
    z, iz, ninv = _tables(a.shape[0])
    out: IntPoly = _ntt_mul(
        np.ascontiguousarray(a, dtype=np.int64),
        np.ascontiguousarray(b, dtype=np.int64),
        z,
        iz,
        ninv,
    )
    return out


KERNELS: dict[str, Any] = kernel_table(FalconKernels, globals())
