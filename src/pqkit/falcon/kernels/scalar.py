"""Falcon's floating-point and modular arithmetic on Python lists: the readable
oracle behind the ``ref`` kernels and key generation (round-3 specification v1.2).

Plain Python floats are IEEE-754 binary64 with round-to-nearest-even, and every
operation below is one rounded operation in the order of the specification's
reference implementation (its FFT, its complex product ``(a.re b.re - a.im b.im,
a.re b.im + a.im b.re)``, its division as a multiplication by a rounded inverse),
so signatures are bit for bit the reference's. A polynomial in FFT form is a list
of n floats: the n/2 real parts, then the n/2 imaginary parts, in bit-reversed
order (§3.7.1).

Kernels never modify their inputs. Secret inputs: every FFT-domain polynomial of
the signing key and the sampler's centre and width (see ``contract.py``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from pqkit.falcon.kernels.tables import (
    EXPM_C,
    GM,
    INV_2SQRSIGMA0,
    INV_LOG2,
    INV_SIGMA,
    LOG2,
    RCDT,
    Q,
)
from pqkit.falcon.prng import ChaChaPrng

__all__ = [
    "base_sampler",
    "ber_exp",
    "expm_p63",
    "ff_sampling",
    "fft",
    "ifft",
    "ntt_mul",
    "poly_add",
    "poly_adj",
    "poly_div_autoadj",
    "poly_invnorm2",
    "poly_merge",
    "poly_mul",
    "poly_mul_autoadj",
    "poly_muladj",
    "poly_mulconst",
    "poly_mulselfadj",
    "poly_neg",
    "poly_split",
    "poly_sub",
    "sample_z",
]

Poly = list[float]

GM_RE = [r for r, _ in GM]
GM_IM = [i for _, i in GM]
"""The FFT's roots (``GM``) as two lists, as the ``*_into`` loops read them."""

# NOTE: the ``*_into`` loops (FFT, splitfft / mergefft, LDL*, NTT) work in place on
# anything indexable; the ``jit`` backend compiles these very functions with Numba
# (on float64 / int64 arrays), so both backends run the same binary64 operations in
# the same order from one source.


# --- the FFT over Q[x]/(x^n + 1) (§3.7.1) ------------------------------------------


def fft_into(f: Any, gm_re: Any, gm_im: Any) -> None:
    """FFT of a real polynomial of n = 2^logn coefficients (n >= 2) in place: the
    reference's ``FFT``, Cooley-Tukey butterflies on the roots ``gm_re`` / ``gm_im``."""
    n = len(f)
    hn = n >> 1
    t = hn
    m = 2
    while m < n:
        ht = t >> 1
        hm = m >> 1
        j1 = 0
        for i1 in range(hm):
            s_re = gm_re[m + i1]
            s_im = gm_im[m + i1]
            for j in range(j1, j1 + ht):
                x_re = f[j]
                x_im = f[j + hn]
                y_re = f[j + ht]
                y_im = f[j + ht + hn]
                z_re = y_re * s_re - y_im * s_im
                z_im = y_re * s_im + y_im * s_re
                f[j] = x_re + z_re
                f[j + hn] = x_im + z_im
                f[j + ht] = x_re - z_re
                f[j + ht + hn] = x_im - z_im
            j1 += t
        t = ht
        m <<= 1


def fft(a: Sequence[float]) -> Poly:
    """FFT of a real polynomial (:func:`fft_into` on a copy)."""
    f = list(a)
    fft_into(f, GM_RE, GM_IM)
    return f


def ifft_into(f: Any, gm_re: Any, gm_im: Any) -> None:
    """Inverse FFT in place (Gentleman-Sande butterflies, then a multiplication
    by 2/n)."""
    n = len(f)
    hn = n >> 1
    t = 1
    m = n
    while m > 2:
        hm = m >> 1
        dt = t << 1
        j1 = 0
        i1 = 0
        while j1 < hn:
            s_re = gm_re[hm + i1]
            s_im = -gm_im[hm + i1]
            for j in range(j1, j1 + t):
                x_re = f[j]
                x_im = f[j + hn]
                y_re = f[j + t]
                y_im = f[j + t + hn]
                f[j] = x_re + y_re
                f[j + hn] = x_im + y_im
                x_re = x_re - y_re
                x_im = x_im - y_im
                f[j + t] = x_re * s_re - x_im * s_im
                f[j + t + hn] = x_re * s_im + x_im * s_re
            i1 += 1
            j1 += dt
        t = dt
        m = hm
    ni = 2.0 / n
    for u in range(n):
        f[u] = f[u] * ni


def ifft(a: Sequence[float]) -> Poly:
    """Inverse FFT (:func:`ifft_into` on a copy)."""
    f = list(a)
    ifft_into(f, GM_RE, GM_IM)
    return f


def poly_add(a: Sequence[float], b: Sequence[float]) -> Poly:
    return [x + y for x, y in zip(a, b, strict=True)]


def poly_sub(a: Sequence[float], b: Sequence[float]) -> Poly:
    return [x - y for x, y in zip(a, b, strict=True)]


def poly_neg(a: Sequence[float]) -> Poly:
    return [-x for x in a]


def poly_adj(a: Sequence[float]) -> Poly:
    """The adjoint in FFT form: the imaginary parts negated."""
    hn = len(a) >> 1
    return list(a[:hn]) + [-x for x in a[hn:]]


def poly_mulconst(a: Sequence[float], c: float) -> Poly:
    return [x * c for x in a]


def poly_mul(a: Sequence[float], b: Sequence[float]) -> Poly:
    """Pointwise product in FFT form."""
    hn = len(a) >> 1
    re = [0.0] * hn
    im = [0.0] * hn
    for u in range(hn):
        a_re, a_im, b_re, b_im = a[u], a[u + hn], b[u], b[u + hn]
        re[u] = a_re * b_re - a_im * b_im
        im[u] = a_re * b_im + a_im * b_re
    return re + im


def poly_muladj(a: Sequence[float], b: Sequence[float]) -> Poly:
    """a * adj(b) in FFT form."""
    hn = len(a) >> 1
    re = [0.0] * hn
    im = [0.0] * hn
    for u in range(hn):
        a_re, a_im, b_re, b_im = a[u], a[u + hn], b[u], -b[u + hn]
        re[u] = a_re * b_re - a_im * b_im
        im[u] = a_re * b_im + a_im * b_re
    return re + im


def poly_mulselfadj(a: Sequence[float]) -> Poly:
    """a * adj(a) in FFT form (real: the imaginary half is zero)."""
    hn = len(a) >> 1
    return [a[u] * a[u] + a[u + hn] * a[u + hn] for u in range(hn)] + [0.0] * hn


def poly_mul_autoadj(a: Sequence[float], b: Sequence[float]) -> Poly:
    """a * b for a self-adjoint b (only its real half is read)."""
    hn = len(a) >> 1
    return [a[u] * b[u] for u in range(hn)] + [a[u + hn] * b[u] for u in range(hn)]


def poly_div_autoadj(a: Sequence[float], b: Sequence[float]) -> Poly:
    """a / b for a self-adjoint b: a multiplication by the rounded 1/b."""
    hn = len(a) >> 1
    ib = [1.0 / b[u] for u in range(hn)]
    return [a[u] * ib[u] for u in range(hn)] + [a[u + hn] * ib[u] for u in range(hn)]


def poly_invnorm2(a: Sequence[float], b: Sequence[float]) -> Poly:
    """1 / (a adj(a) + b adj(b)): n/2 real values."""
    hn = len(a) >> 1
    return [
        1.0 / ((a[u] * a[u] + a[u + hn] * a[u + hn]) + (b[u] * b[u] + b[u + hn] * b[u + hn]))
        for u in range(hn)
    ]


def ldl_into(g00: Any, g01: Any, g11: Any, l10: Any, d11: Any) -> None:
    """LDL* of the self-adjoint 2x2 Gram matrix in FFT form (§3.8.1, Algorithm 8),
    into ``l10`` and ``d11``: mu = g01 / g00 computed as g01 * (1 / |g00|^2) adj(g00)."""
    hn = len(g00) >> 1
    for u in range(hn):
        g00_re = g00[u]
        g00_im = g00[u + hn]
        g01_re = g01[u]
        g01_im = g01[u + hn]
        m = 1.0 / (g00_re * g00_re + g00_im * g00_im)
        b_re = g00_re * m
        b_im = -g00_im * m
        mu_re = g01_re * b_re - g01_im * b_im
        mu_im = g01_re * b_im + g01_im * b_re
        c_re = mu_re * g01_re - mu_im * -g01_im
        c_im = mu_re * -g01_im + mu_im * g01_re
        d11[u] = g11[u] - c_re
        d11[u + hn] = g11[u + hn] - c_im
        l10[u] = mu_re
        l10[u + hn] = -mu_im


def _ldl(g00: Sequence[float], g01: Sequence[float], g11: Sequence[float]) -> tuple[Poly, Poly]:
    """(l10, d11) of :func:`ldl_into`."""
    n = len(g00)
    l10 = [0.0] * n
    d11 = [0.0] * n
    ldl_into(g00, g01, g11, l10, d11)
    return l10, d11


def split_into(f: Any, f0: Any, f1: Any, gm_re: Any, gm_im: Any) -> None:
    """splitfft (§3.7.2, Algorithm 1): f(x) = f0(x^2) + x f1(x^2), in FFT form,
    into ``f0`` and ``f1``."""
    n = len(f)
    hn = n >> 1
    qn = hn >> 1
    f0[0] = f[0]
    f1[0] = f[hn]
    for u in range(qn):
        a_re = f[2 * u]
        a_im = f[2 * u + hn]
        b_re = f[2 * u + 1]
        b_im = f[2 * u + 1 + hn]
        f0[u] = (a_re + b_re) * 0.5
        f0[u + qn] = (a_im + b_im) * 0.5
        t_re = a_re - b_re
        t_im = a_im - b_im
        s_re = gm_re[u + hn]
        s_im = -gm_im[u + hn]
        f1[u] = (t_re * s_re - t_im * s_im) * 0.5
        f1[u + qn] = (t_re * s_im + t_im * s_re) * 0.5


def poly_split(f: Sequence[float]) -> tuple[Poly, Poly]:
    """(f0, f1) of :func:`split_into`."""
    hn = len(f) >> 1
    f0 = [0.0] * max(hn, 1)
    f1 = [0.0] * max(hn, 1)
    split_into(f, f0, f1, GM_RE, GM_IM)
    return f0, f1


def merge_into(f0: Any, f1: Any, f: Any, gm_re: Any, gm_im: Any) -> None:
    """mergefft (§3.7.2, Algorithm 2), the inverse of :func:`split_into`, into ``f``."""
    hn = len(f0)
    qn = hn >> 1
    f[0] = f0[0]
    f[hn] = f1[0]
    for u in range(qn):
        a_re = f0[u]
        a_im = f0[u + qn]
        s_re = gm_re[u + hn]
        s_im = gm_im[u + hn]
        x_re = f1[u]
        x_im = f1[u + qn]
        b_re = x_re * s_re - x_im * s_im
        b_im = x_re * s_im + x_im * s_re
        f[2 * u] = a_re + b_re
        f[2 * u + hn] = a_im + b_im
        f[2 * u + 1] = a_re - b_re
        f[2 * u + 1 + hn] = a_im - b_im


def poly_merge(f0: Sequence[float], f1: Sequence[float]) -> Poly:
    """f of :func:`merge_into`."""
    f = [0.0] * (len(f0) << 1)
    merge_into(f0, f1, f, GM_RE, GM_IM)
    return f


# --- the sampler (§3.9) ------------------------------------------------------------


_M64 = (1 << 64) - 1
_TWO63 = float(1 << 63)


def expm_p63(x: float, ccs: float) -> int:
    """ApproxExp (§3.9.4, Algorithm 13): 2^63 ccs exp(-x), for 0 <= x < ln 2, as a
    64-bit integer (Horner's rule in 64-bit fixed point, each product the high half)."""
    y = EXPM_C[0]
    z = (int(x * _TWO63) << 1) & _M64
    for c in EXPM_C[1:]:
        y = (c - ((z * y) >> 64)) & _M64
    z = (int(ccs * _TWO63) << 1) & _M64
    return (z * y) >> 64


def base_sampler(prng: ChaChaPrng) -> int:
    """BaseSampler (§3.9.3, Algorithm 12): a half-Gaussian integer from 72 random
    bits (a 64-bit then an 8-bit draw, little-endian), compared with every RCDT
    entry (no early exit)."""
    lo = prng.u64()
    hi = prng.u8()
    u = lo | (hi << 64)
    z = 0
    for w in RCDT:
        z += (u - w) >> 72 & 1  # 1 when u < w (a borrow out of 72 bits)
    return z


def ber_exp(prng: ChaChaPrng, x: float, ccs: float) -> bool:
    """BerExp (§3.9.4, Algorithm 14): a bit that is 1 with probability ccs exp(-x)."""
    s = int(x * INV_LOG2)
    r = x - float(s) * LOG2
    s = min(s, 63)
    z = (((expm_p63(r, ccs) << 1) - 1) & _M64) >> s
    i = 64
    while True:
        i -= 8
        w = prng.u8() - ((z >> i) & 0xFF)
        if w != 0 or i <= 0:
            return w < 0


def sample_z(prng: ChaChaPrng, mu: float, isigma: float, sigma_min: float) -> int:
    """SamplerZ (§3.9.5, Algorithm 15): an integer from D_{Z, mu, sigma}."""
    s = math.floor(mu)
    r = mu - float(s)
    dss = (isigma * isigma) * 0.5
    ccs = isigma * sigma_min
    while True:
        z0 = base_sampler(prng)
        b = prng.u8() & 1
        z = b + ((b << 1) - 1) * z0
        x = ((float(z) - r) * (float(z) - r)) * dss
        x = x - float(z0 * z0) * INV_2SQRSIGMA0
        if ber_exp(prng, x, ccs):
            return s + z


def ff_sampling(
    prng: ChaChaPrng,
    target: tuple[Sequence[float], Sequence[float]],
    gram: tuple[Sequence[float], Sequence[float], Sequence[float]],
    logn_top: int,
    sigma_min: float,
) -> tuple[Poly, Poly]:
    """ffSampling (§3.9.2, Algorithm 11) with the tree computed on the fly from the
    Gram matrix ``gram`` = (g00, g01, g11) (the reference's dynamic tree)."""
    (t0, t1), (g00, g01, g11) = target, gram
    n = len(t0)
    if n == 1:
        leaf = math.sqrt(g00[0]) * INV_SIGMA[logn_top]
        z0 = float(sample_z(prng, t0[0], leaf, sigma_min))
        z1 = float(sample_z(prng, t1[0], leaf, sigma_min))
        return [z0], [z1]
    l10, d11 = _ldl(g00, g01, g11)
    g00_0, g00_1 = poly_split(g00)
    g11_0, g11_1 = poly_split(d11)
    t1_0, t1_1 = poly_split(t1)
    z1_0, z1_1 = ff_sampling(prng, (t1_0, t1_1), (g11_0, g11_1, g11_0), logn_top, sigma_min)
    zm1 = poly_merge(z1_0, z1_1)
    diff = poly_sub(t1, zm1)
    tb0 = poly_add(t0, poly_mul(l10, diff))
    t0_0, t0_1 = poly_split(tb0)
    z0_0, z0_1 = ff_sampling(prng, (t0_0, t0_1), (g00_0, g00_1, g00_0), logn_top, sigma_min)
    return poly_merge(z0_0, z0_1), zm1


# --- the NTT modulo q (verification and the public key) ----------------------------


def ntt_roots(n: int) -> tuple[list[int], list[int]]:
    g = next(c for c in range(2, Q) if all(pow(c, (Q - 1) // p, Q) != 1 for p in (2, 3)))
    psi = pow(g, (Q - 1) // (2 * n), Q)
    logn = n.bit_length() - 1
    rev = [int(format(i, f"0{logn}b")[::-1], 2) for i in range(n)]
    zetas = [pow(psi, rev[i], Q) for i in range(n)]
    izetas = [pow(z, Q - 2, Q) for z in zetas]
    return zetas, izetas


_ROOTS: dict[int, tuple[list[int], list[int]]] = {}


def _roots(n: int) -> tuple[list[int], list[int]]:
    if n not in _ROOTS:
        _ROOTS[n] = ntt_roots(n)
    return _ROOTS[n]


def ntt_into(f: Any, zetas: Any) -> None:
    """Negacyclic NTT modulo q in place (inputs in [0, q)), bit-reversed output."""
    n = len(f)
    k = 1
    length = n >> 1
    while length >= 1:
        start = 0
        while start < n:
            z = zetas[k]
            k += 1
            for j in range(start, start + length):
                t = z * f[j + length] % Q
                f[j + length] = (f[j] - t) % Q
                f[j] = (f[j] + t) % Q
            start += 2 * length
        length >>= 1


def ntt(a: Sequence[int]) -> list[int]:
    """Negacyclic NTT modulo q (:func:`ntt_into` on a copy)."""
    f = list(a)
    ntt_into(f, _roots(len(f))[0])
    return f


def intt_into(f: Any, izetas: Any, ninv: int) -> None:
    """The inverse of :func:`ntt_into` in place, with the factor ``ninv`` = 1/n."""
    n = len(f)
    k = n - 1
    length = 1
    while length < n:
        start = n - 2 * length
        while start >= 0:
            z = izetas[k]
            k -= 1
            for j in range(start, start + length):
                t = f[j]
                f[j] = (t + f[j + length]) % Q
                f[j + length] = z * (t - f[j + length]) % Q
            start -= 2 * length
        length <<= 1
    for i in range(n):
        f[i] = f[i] * ninv % Q


def intt(a: Sequence[int]) -> list[int]:
    """Inverse of :func:`ntt`."""
    f = list(a)
    n = len(f)
    intt_into(f, _roots(n)[1], pow(n, Q - 2, Q))
    return f


def ntt_div(a: Sequence[int], b: Sequence[int]) -> tuple[list[int], bool]:
    """(a / b mod (q, x^n + 1), whether b is invertible)."""
    fa = ntt(a)
    fb = ntt(b)
    ok = all(x != 0 for x in fb)
    return intt([x * pow(y, Q - 2, Q) % Q for x, y in zip(fa, fb, strict=True)]), ok


def ntt_mul(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """a * b mod (q, x^n + 1), coefficients in [0, q)."""
    fa = ntt(a)
    fb = ntt(b)
    return intt([x * y % Q for x, y in zip(fa, fb, strict=True)])
