"""Falcon key generation (round-3 specification v1.2, §3.8: NTRUGen, Algorithm 5,
and NTRUSolve, Algorithm 6), in the reference implementation's order.

f and g are drawn from SHAKE256 (§3.8.2's D_{Z, sigma_{f,g}} by the reference's
table); the public key is h = g / f mod q. NTRUSolve goes down the tower of field
norms N(f)(x^2) = f(x) f(-x) to the resultants, solves there with the extended GCD,
and climbs back up, reducing (F, G) against (f, g) with Babai's rounding at every
level. Python's big integers carry the exact values; the reduction reads each
coefficient's top 10 31-bit words into binary64 exactly as the reference does (its
words, its truncations, its scales, its FFT), so the F found is the reference's and
the known answers match.

NOTE: the reduction divides secret values in the FFT domain and its loops and
checks depend on the sizes of secret values; key generation is not constant time
(README, Security). A failure anywhere (a bound exceeded, no solution) discards
(f, g) and draws again, as the reference does.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pqkit.common import Xof
from pqkit.falcon.kernels import scalar as K
from pqkit.falcon.kernels.tables import BNORM_MAX, Q
from pqkit.falcon.prng import shake_u64

__all__ = ["MAX_FG_BITS", "MAX_FG_BITS_CAP", "keygen_from_xof", "public_from_fg", "solve_ntru"]

MAX_FG_BITS = {9: 6, 10: 5}
"""Bits per coefficient of f and g in the secret key (§3.11.5)."""
MAX_FG_BITS_CAP = {9: 8, 10: 8}
"""Bits per coefficient of F (and G) in the secret key."""

_GAUSS_1024_12289 = (
    1283868770400643928,
    6416574995475331444,
    4078260278032692663,
    2353523259288686585,
    1227179971273316331,
    575931623374121527,
    242543240509105209,
    91437049221049666,
    30799446349977173,
    9255276791179340,
    2478152334826140,
    590642893610164,
    125206034929641,
    23590435911403,
    3948334035941,
    586753615614,
    77391054539,
    9056793210,
    940121950,
    86539696,
    7062824,
    510971,
    32764,
    1862,
    94,
    4,
    0,
)
"""The reference's reverse cumulative table of D_{Z, 1.17 sqrt(q / 2048)}, 63-bit."""

_MAX_BL_SMALL = (1, 1, 2, 2, 4, 7, 14, 27, 53, 106, 209)
_MAX_BL_LARGE = (2, 2, 5, 7, 12, 21, 40, 78, 157, 308)
_BITLENGTH = (
    (4, 0),
    (11, 1),
    (24, 1),
    (50, 1),
    (102, 1),
    (202, 2),
    (401, 4),
    (794, 5),
    (1577, 8),
    (3138, 13),
    (6308, 25),
)
"""Words per coefficient (31 bits each) and the measured bit lengths (average,
deviation) of (f, g) per depth: the reference's sizes, which decide its truncations."""
_P0 = 2147473409
"""The first of the reference's 31-bit primes (depth 0 works modulo it)."""


class _Retry(Exception):
    """This (f, g) is abandoned; draw again."""


# --- sampling f and g ---------------------------------------------------------------


def _mkgauss(xof: Xof, logn: int) -> int:
    val = 0
    for _ in range(1 << (10 - logn)):
        r = shake_u64(xof)
        neg = r >> 63
        r &= (1 << 63) - 1
        f = 1 if r < _GAUSS_1024_12289[0] else 0
        v = 0
        r = shake_u64(xof) & ((1 << 63) - 1)
        for k in range(1, len(_GAUSS_1024_12289)):
            t = 1 if r >= _GAUSS_1024_12289[k] else 0
            if t and not f:
                v = k
            f |= t
        val += -v if neg else v
    return val


def _small_gauss(xof: Xof, logn: int) -> list[int]:
    """A polynomial with coefficients in [-127, 127] and an odd sum (the resultant
    with x^n + 1 must be odd)."""
    n = 1 << logn
    out = [0] * n
    mod2 = 0
    u = 0
    while u < n:
        s = _mkgauss(xof, logn)
        if s < -127 or s > 127:
            continue
        if u == n - 1:
            if (mod2 ^ (s & 1)) == 0:
                continue
        else:
            mod2 ^= s & 1
        out[u] = s
        u += 1
    return out


# --- exact polynomial arithmetic ----------------------------------------------------


def _mul(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """a * b mod x^n + 1 over the integers (Kronecker substitution)."""
    n = len(a)
    bound = max(max(map(abs, a)), 1) * max(max(map(abs, b)), 1) * n
    k = bound.bit_length() + 2
    pa = 0
    for v in reversed(a):
        pa = (pa << k) + v
    pb = 0
    for v in reversed(b):
        pb = (pb << k) + v
    c = pa * pb
    mask = (1 << k) - 1
    half = 1 << (k - 1)
    out = [0] * (2 * n)
    for i in range(2 * n - 1):
        r = c & mask
        if r >= half:
            r -= 1 << k
        out[i] = r
        c = (c - r) >> k
    return [out[i] - out[i + n] for i in range(n)]


def _norm(f: Sequence[int]) -> list[int]:
    """N(f): N(f)(x^2) = f(x) f(-x) = fe(x^2)^2 - x^2 fo(x^2)^2."""
    fe = list(f[0::2])
    fo = list(f[1::2])
    e2 = _mul(fe, fe)
    o2 = _mul(fo, fo)
    # x * o2 mod x^(n/2) + 1
    xo2 = [-o2[-1], *o2[:-1]]
    return [a - b for a, b in zip(e2, xo2, strict=True)]


def _lift(small: Sequence[int], other: Sequence[int]) -> list[int]:
    """small(x^2) * other(-x)."""
    up = [0] * (2 * len(small))
    up[0::2] = small
    neg = [v if i % 2 == 0 else -v for i, v in enumerate(other)]
    return _mul(up, neg)


def _wrap(v: int, words: int) -> int:
    """v as the signed value of its low ``words`` 31-bit words."""
    m = 1 << (31 * words)
    v &= m - 1
    return v - m if v >> (31 * words - 1) else v


def _big_to_fp(values: Sequence[int], words: int, rlen: int) -> list[float]:
    """The reference's poly_big_to_fp on the top ``rlen`` of ``words`` words:
    the truncated value's magnitude, word by word from the lowest, each added in
    binary64."""
    shift = 31 * (words - rlen)
    out = []
    for v in values:
        t = _wrap(v, words) >> shift
        neg = t < 0
        m = -t if neg else t
        x = 0.0
        for w in range(rlen):
            word = (m >> (31 * w)) & 0x7FFFFFFF
            x = x + float(-word if neg else word) * math.ldexp(1.0, 31 * w)
        out.append(x)
    return out


def _rint(x: float) -> int:
    return round(x)  # round half to even, as the reference's fpr_rint


# --- NTRUSolve ----------------------------------------------------------------------


def _reduce_intermediate(
    Fu: list[int],
    Gu: list[int],
    fd: list[int],
    gd: list[int],
    depth: int,
) -> tuple[list[int], list[int]]:
    """Babai reduction of (F, G) against (f, g) at an intermediate depth, with the
    reference's word sizes and scales (its solve_NTRU_intermediate)."""
    slen = _MAX_BL_SMALL[depth]
    llen = _MAX_BL_LARGE[depth]
    rlen = min(slen, 10)
    rt3 = K.fft(_big_to_fp(fd, slen, rlen))
    rt4 = K.fft(_big_to_fp(gd, slen, rlen))
    scale_fg = 31 * (slen - rlen)
    avg, std = _BITLENGTH[depth]
    minbl_fg = avg - 6 * std
    maxbl_fg = avg + 6 * std
    rt5 = K.poly_invnorm2(rt3, rt4)
    rt3 = K.poly_adj(rt3)
    rt4 = K.poly_adj(rt4)
    fg_len = llen
    maxbl_FG = 31 * llen
    scale_k = maxbl_FG - minbl_fg
    while True:
        rlen = min(fg_len, 10)
        scale_FG = 31 * (fg_len - rlen)
        rt1 = K.fft(_big_to_fp(Fu, fg_len, rlen))
        rt2 = K.fft(_big_to_fp(Gu, fg_len, rlen))
        rt1 = K.poly_mul(rt1, rt3)
        rt2 = K.poly_mul(rt2, rt4)
        rt2 = K.poly_add(rt2, rt1)
        rt2 = K.poly_mul_autoadj(rt2, rt5)
        rt2 = K.ifft(rt2)
        pdc = math.ldexp(1.0, -(scale_k - scale_FG + scale_fg))
        k = []
        for x in rt2:
            xv = x * pdc
            if not (-2147483647.0 < xv < 2147483647.0):
                raise _Retry
            k.append(_rint(xv))
        kf = _mul(k, fd)
        kg = _mul(k, gd)
        Fu = [_wrap(a - (b << scale_k), fg_len) for a, b in zip(Fu, kf, strict=True)]
        Gu = [_wrap(a - (b << scale_k), fg_len) for a, b in zip(Gu, kg, strict=True)]
        new_maxbl = scale_k + maxbl_fg + 10
        if new_maxbl < maxbl_FG:
            maxbl_FG = new_maxbl
            if fg_len * 31 >= maxbl_FG + 31:
                fg_len -= 1
        if scale_k <= 0:
            break
        scale_k = max(scale_k - 25, 0)
    out_len = min(fg_len, slen)
    return [_wrap(v, out_len) for v in Fu], [_wrap(v, out_len) for v in Gu]


def _reduce_depth1(
    Fu: list[int], Gu: list[int], fd: list[int], gd: list[int]
) -> tuple[list[int], list[int]]:
    """The reference's binary depth-1 reduction: one rounding in binary64."""
    slen = _MAX_BL_SMALL[1]
    llen = _MAX_BL_LARGE[1]
    rt1 = K.fft(_big_to_fp(Fu, llen, llen))
    rt2 = K.fft(_big_to_fp(Gu, llen, llen))
    rt3 = K.fft(_big_to_fp(fd, slen, slen))
    rt4 = K.fft(_big_to_fp(gd, slen, slen))
    rt5 = K.poly_add(K.poly_muladj(rt1, rt3), K.poly_muladj(rt2, rt4))
    rt6 = K.poly_invnorm2(rt3, rt4)
    rt5 = K.ifft(K.poly_mul_autoadj(rt5, rt6))
    for z in rt5:
        if not (-9223372036854775807.0 < z < 9223372036854775807.0):
            raise _Retry
    k = K.fft([float(_rint(z)) for z in rt5])
    rt1 = K.ifft(K.poly_sub(rt1, K.poly_mul(rt3, k)))
    rt2 = K.ifft(K.poly_sub(rt2, K.poly_mul(rt4, k)))
    return [_wrap(_rint(x), 1) for x in rt1], [_wrap(_rint(x), 1) for x in rt2]


def _centre(v: int, p: int) -> int:
    v %= p
    return v - p if v > p >> 1 else v


def _adj_int(f: Sequence[int]) -> list[int]:
    return [f[0], *(-v for v in reversed(f[1:]))]


def _reduce_depth0(
    Fu: list[int], Gu: list[int], f: list[int], g: list[int]
) -> tuple[list[int], list[int]]:
    """The reference's binary depth-0 reduction: exact modulo its first prime,
    one rounding in binary64."""
    p = _P0
    num = [
        _centre(a + b, p) for a, b in zip(_mul(Fu, _adj_int(f)), _mul(Gu, _adj_int(g)), strict=True)
    ]
    den = [
        _centre(a + b, p) for a, b in zip(_mul(f, _adj_int(f)), _mul(g, _adj_int(g)), strict=True)
    ]
    rden = K.fft([float(v) for v in den])
    rnum = K.fft([float(v) for v in num])
    q = K.ifft(K.poly_div_autoadj(rnum, rden))
    k = [_centre(_rint(x), p) for x in q]
    kf = _mul(k, f)
    kg = _mul(k, g)
    return (
        [_centre(a - b, p) for a, b in zip(Fu, kf, strict=True)],
        [_centre(a - b, p) for a, b in zip(Gu, kg, strict=True)],
    )


def solve_ntru(f: list[int], g: list[int], logn: int) -> tuple[list[int], list[int]]:
    """NTRUSolve (§3.8.2, Algorithm 6): (F, G) with f G - g F = q, coefficients in
    [-127, 127]; raises _Retry when there is none (or a bound is exceeded)."""
    fs = [f]
    gs = [g]
    for _ in range(logn):
        fs.append(_norm(fs[-1]))
        gs.append(_norm(gs[-1]))
    # deepest level: the resultants; u = x^-1 mod y, v = (x u - 1) / y, the unique
    # Bezout pair of the reference's binary extended GCD (0 <= u < y, 0 <= v < x)
    x, y = fs[logn][0], gs[logn][0]
    if x % 2 == 0 or y % 2 == 0 or math.gcd(x, y) != 1:
        raise _Retry
    u = pow(x, -1, y)
    v = (x * u - 1) // y
    words = _MAX_BL_SMALL[logn]
    if Q * v >> (31 * words) or Q * u >> (31 * words):
        raise _Retry
    F = [_wrap(Q * v, words)]
    G = [_wrap(Q * u, words)]
    for depth in range(logn - 1, 1, -1):
        Fu = _lift(F, gs[depth])
        Gu = _lift(G, fs[depth])
        F, G = _reduce_intermediate(Fu, Gu, fs[depth], gs[depth], depth)
    F, G = _reduce_depth1(_lift(F, gs[1]), _lift(G, fs[1]), fs[1], gs[1])
    F, G = _reduce_depth0(_lift(F, g), _lift(G, f), f, g)
    lim = (1 << (MAX_FG_BITS_CAP[logn] - 1)) - 1
    if any(c < -lim or c > lim for c in F) or any(c < -lim or c > lim for c in G):
        raise _Retry
    fG = _mul(f, G)
    gF = _mul(g, F)
    if any(
        (a - b) % _P0 != (Q if i == 0 else 0) for i, (a, b) in enumerate(zip(fG, gF, strict=True))
    ):
        raise _Retry
    return F, G


def public_from_fg(f: Sequence[int], g: Sequence[int]) -> list[int] | None:
    """h = g / f mod q (§3.8.2, Algorithm 5 line 13), or None if f is not invertible."""
    ff = K.ntt([v % Q for v in f])
    if any(v == 0 for v in ff):
        return None
    gg = K.ntt([v % Q for v in g])
    return K.intt([b * pow(a, Q - 2, Q) % Q for a, b in zip(ff, gg, strict=True)])


def keygen_from_xof(
    xof: Xof, logn: int
) -> tuple[list[int], list[int], list[int], list[int], list[int]]:
    """NTRUGen (§3.8.2, Algorithm 5) on the reference's draws: (f, g, F, G, h)."""
    n = 1 << logn
    while True:
        f = _small_gauss(xof, logn)
        g = _small_gauss(xof, logn)
        lim = 1 << (MAX_FG_BITS[logn] - 1)
        if any(c >= lim or c <= -lim for c in f) or any(c >= lim or c <= -lim for c in g):
            continue
        if sum(c * c for c in f) + sum(c * c for c in g) >= 16823:
            continue
        rt1 = K.fft([float(c) for c in f])
        rt2 = K.fft([float(c) for c in g])
        rt3 = K.poly_invnorm2(rt1, rt2)
        rt1 = K.poly_mulconst(K.poly_adj(rt1), float(Q))
        rt2 = K.poly_mulconst(K.poly_adj(rt2), float(Q))
        rt1 = K.ifft(K.poly_mul_autoadj(rt1, rt3))
        rt2 = K.ifft(K.poly_mul_autoadj(rt2, rt3))
        bnorm = 0.0
        for u in range(n):
            bnorm = bnorm + rt1[u] * rt1[u]
            bnorm = bnorm + rt2[u] * rt2[u]
        if not bnorm < BNORM_MAX:
            continue
        h = public_from_fg(f, g)
        if h is None:
            continue
        try:
            F, G = solve_ntru(f, g, logn)
        except _Retry:
            continue
        return f, g, F, G, h
