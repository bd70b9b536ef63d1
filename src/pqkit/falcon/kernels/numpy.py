"""Falcon's ``numpy`` kernels: the ``ref`` arithmetic vectorised over whole FFT
layers. Each element sees the same binary64 operations in the same order as in
:mod:`pqkit.falcon.kernels.scalar` (NumPy's ufuncs round each operation and never
contract a multiply and an add), so the bits are the reference's. The lowest
levels of ffSampling (n <= 16) and the sampler run the scalar code: there NumPy's
per-call cost exceeds the work.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pqkit.arith.api import kernel_table
from pqkit.falcon.kernels import scalar as S
from pqkit.falcon.kernels.contract import FalconKernels, FloatPoly, Gram, IntPoly, Target
from pqkit.falcon.kernels.tables import GM, Q, inv_sigma
from pqkit.falcon.prng import ChaChaPrng

__all__ = ["KERNELS"]

_GM_RE = np.array([r for r, _ in GM], dtype=np.float64)
_GM_IM = np.array([i for _, i in GM], dtype=np.float64)
_SCALAR_BELOW = 32
"""ffSampling sizes at which the recursion continues in scalar code."""


def fft(a: FloatPoly) -> FloatPoly:
    n = a.shape[-1]
    hn = n >> 1
    re = np.array(a[:hn], dtype=np.float64)
    im = np.array(a[hn:], dtype=np.float64)
    t = hn
    m = 2
    while m < n:
        ht = t >> 1
        hm = m >> 1
        r2 = re.reshape(hm, t)
        i2 = im.reshape(hm, t)
        s_re = _GM_RE[m : m + hm, None]
        s_im = _GM_IM[m : m + hm, None]
        x_re, y_re = r2[:, :ht], r2[:, ht:]
        x_im, y_im = i2[:, :ht], i2[:, ht:]
        z_re = y_re * s_re - y_im * s_im
        z_im = y_re * s_im + y_im * s_re
        re = np.concatenate((x_re + z_re, x_re - z_re), axis=1).reshape(hn)
        im = np.concatenate((x_im + z_im, x_im - z_im), axis=1).reshape(hn)
        t = ht
        m <<= 1
    return np.concatenate((re, im))


def ifft(a: FloatPoly) -> FloatPoly:
    n = a.shape[-1]
    hn = n >> 1
    re = np.array(a[:hn], dtype=np.float64)
    im = np.array(a[hn:], dtype=np.float64)
    t = 1
    m = n
    while m > 2:
        hm = m >> 1
        dt = t << 1
        rows = hn // dt
        r2 = re.reshape(rows, dt)
        i2 = im.reshape(rows, dt)
        s_re = _GM_RE[hm : hm + rows, None]
        s_im = -_GM_IM[hm : hm + rows, None]
        x_re, y_re = r2[:, :t], r2[:, t:]
        x_im, y_im = i2[:, :t], i2[:, t:]
        d_re = x_re - y_re
        d_im = x_im - y_im
        re = np.concatenate((x_re + y_re, d_re * s_re - d_im * s_im), axis=1).reshape(hn)
        im = np.concatenate((x_im + y_im, d_re * s_im + d_im * s_re), axis=1).reshape(hn)
        t = dt
        m = hm
    ni = 2.0 / n
    out: FloatPoly = np.concatenate((re, im)) * ni
    return out


def poly_add(a: FloatPoly, b: FloatPoly) -> FloatPoly:
    return a + b


def poly_neg(a: FloatPoly) -> FloatPoly:
    return -a


def poly_mulconst(a: FloatPoly, c: float) -> FloatPoly:
    return a * c


def _cmul(a_re: Any, a_im: Any, b_re: Any, b_im: Any) -> tuple[Any, Any]:
    return a_re * b_re - a_im * b_im, a_re * b_im + a_im * b_re


def poly_mul(a: FloatPoly, b: FloatPoly) -> FloatPoly:
    hn = a.shape[-1] >> 1
    re, im = _cmul(a[:hn], a[hn:], b[:hn], b[hn:])
    return np.concatenate((re, im))


def poly_muladj(a: FloatPoly, b: FloatPoly) -> FloatPoly:
    hn = a.shape[-1] >> 1
    re, im = _cmul(a[:hn], a[hn:], b[:hn], -b[hn:])
    return np.concatenate((re, im))


def poly_mulselfadj(a: FloatPoly) -> FloatPoly:
    hn = a.shape[-1] >> 1
    return np.concatenate((a[:hn] * a[:hn] + a[hn:] * a[hn:], np.zeros(hn)))


def _ldl(g00: FloatPoly, g01: FloatPoly, g11: FloatPoly) -> tuple[FloatPoly, FloatPoly]:
    hn = g00.shape[-1] >> 1
    g00_re, g00_im = g00[:hn], g00[hn:]
    g01_re, g01_im = g01[:hn], g01[hn:]
    m = 1.0 / (g00_re * g00_re + g00_im * g00_im)
    mu_re, mu_im = _cmul(g01_re, g01_im, g00_re * m, -g00_im * m)
    c_re, c_im = _cmul(mu_re, mu_im, g01_re, -g01_im)
    d11 = np.concatenate((g11[:hn] - c_re, g11[hn:] - c_im))
    return np.concatenate((mu_re, -mu_im)), d11


def _split(f: FloatPoly) -> tuple[FloatPoly, FloatPoly]:
    hn = f.shape[-1] >> 1
    qn = hn >> 1
    a_re, a_im = f[0:hn:2], f[hn::2]
    b_re, b_im = f[1:hn:2], f[hn + 1 :: 2]
    t_re = a_re - b_re
    t_im = a_im - b_im
    u_re, u_im = _cmul(t_re, t_im, _GM_RE[hn : hn + qn], -_GM_IM[hn : hn + qn])
    f0 = np.concatenate(((a_re + b_re) * 0.5, (a_im + b_im) * 0.5))
    f1 = np.concatenate((u_re * 0.5, u_im * 0.5))
    return f0, f1


def _merge(f0: FloatPoly, f1: FloatPoly) -> FloatPoly:
    hn = f0.shape[-1]
    qn = hn >> 1
    a_re, a_im = f0[:qn], f0[qn:]
    b_re, b_im = _cmul(f1[:qn], f1[qn:], _GM_RE[hn : hn + qn], _GM_IM[hn : hn + qn])
    f = np.empty(2 * hn)
    f[0:hn:2] = a_re + b_re
    f[hn::2] = a_im + b_im
    f[1:hn:2] = a_re - b_re
    f[hn + 1 :: 2] = a_im - b_im
    return f


def _ff(
    prng: ChaChaPrng, target: Target, gram: Gram, logn: int, sigma_min: float
) -> tuple[FloatPoly, FloatPoly]:
    (t0, t1), (g00, g01, g11) = target, gram
    n = t0.shape[-1]
    if n < _SCALAR_BELOW:
        z0, z1 = S.ff_sampling(
            prng,
            (t0.tolist(), t1.tolist()),
            (g00.tolist(), g01.tolist(), g11.tolist()),
            logn,
            sigma_min,
        )
        return np.array(z0), np.array(z1)
    l10, d11 = _ldl(g00, g01, g11)
    g00_0, g00_1 = _split(g00)
    g11_0, g11_1 = _split(d11)
    z1_0, z1_1 = _ff(prng, _split(t1), (g11_0, g11_1, g11_0), logn, sigma_min)
    zm1 = _merge(z1_0, z1_1)
    tb0 = t0 + poly_mul(l10, t1 - zm1)
    z0_0, z0_1 = _ff(prng, _split(tb0), (g00_0, g00_1, g00_0), logn, sigma_min)
    return _merge(z0_0, z0_1), zm1


def ff_sampling(
    prng: ChaChaPrng, target: Target, gram: Gram, logn: int, sigma_min: float
) -> tuple[FloatPoly, FloatPoly]:
    inv_sigma(logn)  # ValueError for a logn Falcon does not have
    return _ff(prng, target, gram, logn, sigma_min)


_NTT: dict[int, tuple[IntPoly, IntPoly, int]] = {}


def _ntt_tables(n: int) -> tuple[IntPoly, IntPoly, int]:
    if n not in _NTT:
        zetas, izetas = S.ntt_roots(n)
        _NTT[n] = (
            np.array(zetas, dtype=np.int64),
            np.array(izetas, dtype=np.int64),
            pow(n, Q - 2, Q),
        )
    return _NTT[n]


def _ntt(a: IntPoly) -> IntPoly:
    n = a.shape[-1]
    zetas, _, _ = _ntt_tables(n)
    f = a.copy()
    length = n >> 1
    k = 1
    while length >= 1:
        blocks = n // (2 * length)
        f2 = f.reshape(blocks, 2 * length)
        z = zetas[k : k + blocks, None]
        t = z * f2[:, length:] % Q
        f = np.concatenate(((f2[:, :length] + t) % Q, (f2[:, :length] - t) % Q), axis=1).reshape(n)
        k += blocks
        length >>= 1
    out: IntPoly = f
    return out


def _intt(a: IntPoly) -> IntPoly:
    n = a.shape[-1]
    _, izetas, ninv = _ntt_tables(n)
    f = a.copy()
    length = 1
    k = n - 1
    while length < n:
        blocks = n // (2 * length)
        f2 = f.reshape(blocks, 2 * length)
        z = izetas[k - blocks + 1 : k + 1, None]  # block b takes izetas[k - blocks + 1 + b]
        x, y = f2[:, :length], f2[:, length:]
        f = np.concatenate(((x + y) % Q, z * (x - y) % Q), axis=1).reshape(n)
        k -= blocks
        length <<= 1
    out: IntPoly = f * ninv % Q
    return out


def ntt_mul(a: IntPoly, b: IntPoly) -> IntPoly:
    return _intt(_ntt(a) * _ntt(b) % Q)


def ntt_div(a: IntPoly, b: IntPoly) -> tuple[IntPoly, bool]:
    fb = _ntt(b)
    inv = np.ones_like(fb)
    sq = fb
    e = Q - 2
    while e:  # the public exponent q - 2, bit by bit
        if e & 1:
            inv = inv * sq % Q
        sq = sq * sq % Q
        e >>= 1
    return _intt(_ntt(a) * inv % Q), bool(np.all(fb != 0))


KERNELS: dict[str, Any] = kernel_table(FalconKernels, globals())
