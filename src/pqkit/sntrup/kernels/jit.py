"""Streamlined NTRU Prime's ``jit`` backend: the arithmetic of :mod:`.ref` as Numba
loops over rows (batch axes flattened by :mod:`pqkit.arith._jit`), in constant-time
style on secret data: Fq_freeze / F3_freeze by multiply-and-shift, swaps by masks,
a fixed sorting network; the radix codes loop over public radices only.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.arith._jit import as_bytes, as_polys, jit, jit_inline
from pqkit.arith.api import kernel_table
from pqkit.sntrup.kernels.contract import SntrupKernels
from pqkit.sntrup.kernels.numpy import comparator_stages
from pqkit.sntrup.params import SNTRUP761

P, Q, Q12 = SNTRUP761.p, SNTRUP761.q, SNTRUP761.q12
ROUNDED_RADIX = (Q + 2) // 3
R3_INV = int(pow(3, -1, Q)) - Q  # 1/3 in Z_q, centred
I64 = npt.NDArray[np.int64]
U8 = npt.NDArray[np.uint8]

_Q16 = (0x10000 + Q // 2) // Q
_Q20 = (0x100000 + Q // 2) // Q
_Q28 = (0x10000000 + Q // 2) // Q


@jit_inline
def _fq(x: int) -> int:
    """Fq_freeze: x mod q centred, |x| < 2^28, multiply and shift."""
    x = x - Q * ((_Q16 * x) >> 16)
    x = x - Q * ((_Q20 * x) >> 20)
    return x - Q * ((_Q28 * x + 0x8000000) >> 28)


@jit_inline
def _f3(x: int) -> int:
    """F3_freeze: x mod 3 in {-1, 0, 1}, |x| < 2^14."""
    return x - 3 * ((10923 * x + 16384) >> 15)


@jit
def _mult(f: Any, g: Any, mod3: bool) -> Any:
    """Rows of f * g mod x^p - x - 1, reduced mod 3 or mod q (public flag)."""
    rows = f.shape[0]
    out = np.empty((rows, P), dtype=np.int64)
    # int32 lanes: |f| <= (q-1)/2 and g small, so every sum stays below 3 p (q-1)/2 < 2^23
    fg = np.empty(2 * P - 1, dtype=np.int32)
    fr = np.empty(P, dtype=np.int32)
    gr = np.empty(P, dtype=np.int32)
    for b in range(rows):
        fg[:] = 0
        for i in range(P):
            fr[i] = f[b, i]
            gr[i] = g[b, i]
        for i in range(P):
            fi = fr[i]
            for j in range(P):
                fg[i + j] += np.int32(fi * gr[j])
        for i in range(2 * P - 2, P - 1, -1):
            fg[i - P] += fg[i]
            fg[i - P + 1] += fg[i]
        for i in range(P):
            out[b, i] = _f3(np.int64(fg[i])) if mod3 else _fq(np.int64(fg[i]))
    return out


@jit
def _scale3(f: Any) -> Any:
    out = np.empty_like(f)
    for b in range(f.shape[0]):
        for i in range(P):
            out[b, i] = _fq(3 * f[b, i])
    return out


@jit
def _divsteps(inp: Any, r0: int, mod3: bool) -> Any:
    """The 2p - 1 divsteps of R3_recip / Rq_recip3 per row: (inverse or garbage,
    delta) as (rows, p + 1) with delta in the last column."""
    rows = inp.shape[0]
    n = P + 1
    out = np.empty((rows, n), dtype=np.int64)
    f = np.empty(n, dtype=np.int64)
    g = np.empty(n, dtype=np.int64)
    v = np.empty(n, dtype=np.int64)
    r = np.empty(n, dtype=np.int64)
    for b in range(rows):
        f[:] = 0
        f[0] = 1
        f[P - 1] = -1
        f[P] = -1
        for i in range(P):
            g[P - 1 - i] = inp[b, i]
        g[P] = 0
        v[:] = 0
        r[:] = 0
        r[0] = r0
        delta = 1
        for _ in range(2 * P - 1):
            for i in range(P, 0, -1):
                v[i] = v[i - 1]
            v[0] = 0
            g0 = g[0]
            swap = ((-delta) >> 63) & -(((g0 | -g0) >> 63) & 1)
            delta = (delta ^ (swap & (delta ^ -delta))) + 1
            for i in range(n):
                t = swap & (f[i] ^ g[i])
                f[i] ^= t
                g[i] ^= t
                t = swap & (v[i] ^ r[i])
                v[i] ^= t
                r[i] ^= t
            f0 = f[0]
            g0 = g[0]
            if mod3:
                for i in range(n):
                    g[i] = _f3(f0 * g[i] - g0 * f[i])
                    r[i] = _f3(f0 * r[i] - g0 * v[i])
            else:
                for i in range(n):
                    g[i] = _fq(f0 * g[i] - g0 * f[i])
                    r[i] = _fq(f0 * r[i] - g0 * v[i])
            for i in range(P):
                g[i] = g[i + 1]
            g[P] = 0
        if mod3:
            for i in range(P):
                out[b, i] = _f3(f[0] * v[P - 1 - i])  # 1/f0 = f0 for f0 = +-1
        else:
            # 1/f0 = f0^(q-2): square and multiply over the public exponent's bits
            scale = 1
            base = f[0]
            e = Q - 2
            while e:
                if e & 1:
                    scale = _fq(scale * base)
                base = _fq(base * base)
                e >>= 1
            for i in range(P):
                out[b, i] = _fq(scale * v[P - 1 - i])
        out[b, P] = delta
    return out


@jit
def _sort(x: Any, size: int, lo: Any, hi: Any) -> Any:
    rows, n = x.shape
    out = np.empty((rows, n), dtype=np.int64)
    work = np.empty(size, dtype=np.int64)
    for b in range(rows):
        for i in range(size):
            work[i] = x[b, i] if i < n else 0xFFFFFFFF  # public length
        for k in range(lo.shape[0]):
            a = work[lo[k]]
            c = work[hi[k]]
            d = (c - a) >> 63  # -1 where c < a (values below 2^32: no overflow)
            t = d & (a ^ c)
            work[lo[k]] = a ^ t
            work[hi[k]] = c ^ t
        for i in range(n):
            out[b, i] = work[i]
    return out


@jit
def _encode(digits: Any, radix: int, length: int) -> Any:
    """Encode (submission §3.2) per row, the recursion unrolled in place."""
    rows, n = digits.shape
    out = np.empty((rows, length), dtype=np.uint8)
    rr = np.empty(n, dtype=np.int64)
    mm = np.empty(n, dtype=np.int64)
    for b in range(rows):
        for i in range(n):
            rr[i] = digits[b, i]
            mm[i] = radix
        pos = 0
        size = n
        while size > 1:
            for i in range(0, size - 1, 2):
                m0 = mm[i]
                r = rr[i] + rr[i + 1] * m0
                m = mm[i + 1] * m0
                while m >= 16384:
                    out[b, pos] = r & 255
                    pos += 1
                    r >>= 8
                    m = (m + 255) >> 8
                rr[i // 2] = r
                mm[i // 2] = m
            if size & 1:
                rr[size // 2] = rr[size - 1]
                mm[size // 2] = mm[size - 1]
            size = (size + 1) // 2
        r = rr[0]
        m = mm[0]
        while m > 1:
            out[b, pos] = r & 255
            pos += 1
            r >>= 8
            m = (m + 255) >> 8
    return out


@jit
def _decode(s: Any, n: int, radix: int) -> Any:
    """Decode (submission §3.2) per row: down the levels reading each pair's low
    bytes, the single top digit, then up again splitting digits."""
    rows = s.shape[0]
    out = np.empty((rows, n), dtype=np.int64)
    ms = np.empty(2 * n + 64, dtype=np.int64)  # the radices of every level, in a row
    br = np.empty(2 * n, dtype=np.int64)
    bt = np.empty(2 * n, dtype=np.int64)
    starts = np.empty(64, dtype=np.int64)
    sizes = np.empty(64, dtype=np.int64)
    rr = np.empty(n, dtype=np.int64)
    r2 = np.empty(n, dtype=np.int64)
    for b in range(rows):
        for i in range(n):
            ms[i] = radix
        levels = 0
        start = 0
        size = n
        pos = 0
        pairs_at = 0
        while size > 1:
            starts[levels] = start
            sizes[levels] = size
            nxt = start + size
            for i in range(0, size - 1, 2):
                m = ms[start + i] * ms[start + i + 1]
                k = pairs_at + i // 2
                if m > 256 * 16383:
                    bt[k] = 65536
                    br[k] = s[b, pos] + 256 * s[b, pos + 1]
                    pos += 2
                    ms[nxt + i // 2] = (((m + 255) >> 8) + 255) >> 8
                elif m >= 16384:
                    bt[k] = 256
                    br[k] = s[b, pos]
                    pos += 1
                    ms[nxt + i // 2] = (m + 255) >> 8
                else:
                    bt[k] = 1
                    br[k] = 0
                    ms[nxt + i // 2] = m
            if size & 1:
                ms[nxt + size // 2] = ms[start + size - 1]
            pairs_at += size // 2
            levels += 1
            start = nxt
            size = (size + 1) // 2
        top = ms[start]
        if top == 1:
            rr[0] = 0
        elif top <= 256:
            rr[0] = s[b, pos] % top
        else:
            rr[0] = (s[b, pos] + (s[b, pos + 1] << 8)) % top
        for lev in range(levels - 1, -1, -1):
            start = starts[lev]
            size = sizes[lev]
            pairs_at -= size // 2
            for i in range((size + 1) // 2):
                r2[i] = rr[i]
            for i in range(0, size - 1, 2):
                k = pairs_at + i // 2
                r = br[k] + bt[k] * r2[i // 2]
                m0 = ms[start + i]
                rr[i] = r % m0
                rr[i + 1] = (r // m0) % ms[start + i + 1]
            if size & 1:
                rr[size - 1] = r2[size // 2]
        for i in range(n):
            out[b, i] = rr[i]
    return out


def _pair(f: Any, g: Any) -> tuple[I64, I64, tuple[int, ...]]:
    a, lead_a = as_polys(f, P)
    c, lead_c = as_polys(g, P)
    if lead_a != lead_c:
        full = np.broadcast_shapes(lead_a, lead_c)
        a, _ = as_polys(np.broadcast_to(np.asarray(f), (*full, P)), P)
        c, _ = as_polys(np.broadcast_to(np.asarray(g), (*full, P)), P)
        lead_a = full
    return a, c, lead_a


def rq_mult_small(f: Any, g: Any) -> I64:
    a, c, lead = _pair(f, g)
    return np.asarray(_mult(a, c, False)).reshape(*lead, P)


def rq_mult3(f: Any) -> I64:
    a, lead = as_polys(f, P)
    return np.asarray(_scale3(a)).reshape(*lead, P)


def r3_mult(f: Any, g: Any) -> I64:
    a, c, lead = _pair(f, g)
    return np.asarray(_mult(a, c, True)).reshape(*lead, P)


def r3_recip(g: Any) -> tuple[I64, I64]:
    a, lead = as_polys(g, P)
    res = np.asarray(_divsteps(a, 1, True))
    delta = res[:, P]
    ok = -(((delta | -delta) >> 63) & 1)
    return res[:, :P].reshape(*lead, P), ok.reshape(lead)


def rq_recip3(f: Any) -> I64:
    a, lead = as_polys(f, P)
    return np.asarray(_divsteps(a, R3_INV, False))[:, :P].reshape(*lead, P)


def sort_uint32(x: Any) -> I64:
    arr = np.asarray(x, dtype=np.int64)
    n = arr.shape[-1]
    rows, lead = as_polys(arr, n)
    size, lo, hi = comparator_stages(n)
    return np.asarray(_sort(rows, size, lo, hi)).reshape(*lead, n)


def encode_rq(r: Any) -> U8:
    a, lead = as_polys(r, P)
    return np.asarray(_encode(a + Q12, Q, SNTRUP761.length_rq)).reshape(*lead, -1)


def decode_rq(s: Any) -> I64:
    a, lead = as_bytes(s, SNTRUP761.length_rq)
    return (np.asarray(_decode(a, P, Q)) - Q12).reshape(*lead, P)


def encode_rounded(r: Any) -> U8:
    a, lead = as_polys(r, P)
    digits = ((a + Q12) * 10923) >> 15
    return np.asarray(_encode(digits, ROUNDED_RADIX, SNTRUP761.length_rounded)).reshape(*lead, -1)


def decode_rounded(s: Any) -> I64:
    a, lead = as_bytes(s, SNTRUP761.length_rounded)
    return (3 * np.asarray(_decode(a, P, ROUNDED_RADIX)) - Q12).reshape(*lead, P)


KERNELS = kernel_table(SntrupKernels, globals())
