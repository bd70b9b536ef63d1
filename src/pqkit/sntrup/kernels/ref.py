"""Streamlined NTRU Prime's ``ref`` backend: plain Python integers, one loop per line
of the round-3 submission's definitions (§3 of "NTRU Prime: round 3", the compact
reference kem.c it ships). The readable oracle the other backends are tested
against; not constant time (it reduces with ``%`` and sorts with ``sorted``), never
a default.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.arith.api import kernel_table
from pqkit.sntrup.kernels.contract import SntrupKernels
from pqkit.sntrup.params import SNTRUP761

P, Q, Q12 = SNTRUP761.p, SNTRUP761.q, SNTRUP761.q12
ROUNDED_RADIX = (Q + 2) // 3

I64 = npt.NDArray[np.int64]
U8 = npt.NDArray[np.uint8]


def _rows(x: Any, width: int | None = None) -> tuple[tuple[int, ...], list[list[int]]]:
    a = np.asarray(x, dtype=np.int64)
    lead = a.shape[:-1]
    return lead, [list(map(int, row)) for row in a.reshape(-1, width or a.shape[-1])]


def _out(lead: tuple[int, ...], rows: list[list[int]], dtype: Any = np.int64) -> npt.NDArray[Any]:
    width = len(rows[0]) if rows else 0
    return np.array(rows, dtype=dtype).reshape(*lead, width)


def _fq(x: int) -> int:
    """Fq_freeze: x mod q, centred in [-(q-1)/2, (q-1)/2]."""
    return (x + Q12) % Q - Q12


def _f3(x: int) -> int:
    """F3_freeze: x mod 3 in {-1, 0, 1}."""
    return (x + 1) % 3 - 1


def _mult(f: list[int], g: list[int], freeze: Any) -> list[int]:
    """f * g in Z[x]/(x^p - x - 1), reduced by ``freeze``: the schoolbook product,
    then x^(p+i) = x^(i+1) + x^i for the top p - 1 terms."""
    fg = [0] * (2 * P - 1)
    for i in range(P):
        for j in range(P):
            fg[i + j] += f[i] * g[j]
    for i in range(2 * P - 2, P - 1, -1):  # top down: x^i = x^(i-p+1) + x^(i-p)
        fg[i - P] += fg[i]
        fg[i - P + 1] += fg[i]
    return [freeze(c) for c in fg[:P]]


def rq_mult_small(f: Any, g: Any) -> I64:
    lead, fs = _rows(f, P)
    _, gs = _rows(g, P)
    return _out(lead, [_mult(a, b, _fq) for a, b in zip(fs, gs, strict=True)])


def rq_mult3(f: Any) -> I64:
    lead, fs = _rows(f, P)
    return _out(lead, [[_fq(3 * c) for c in row] for row in fs])


def r3_mult(f: Any, g: Any) -> I64:
    lead, fs = _rows(f, P)
    _, gs = _rows(g, P)
    return _out(lead, [_mult(a, b, _f3) for a, b in zip(fs, gs, strict=True)])


def _divstep_recip(inp: list[int], mod: int, r0: int) -> tuple[list[int], int, int]:
    """The divstep inversion of the submission's R3_recip / Rq_recip3 over Z_mod:
    f = x^p - x - 1 and g = the input, both reversed; 2p - 1 steps. Returns
    (v reversed, f[0], delta): the inverse is v / f[0] where delta == 0."""
    f = [0] * (P + 1)
    f[0], f[P - 1], f[P] = 1, -1, -1
    g = [0] * (P + 1)
    for i in range(P):
        g[P - 1 - i] = inp[i]
    v = [0] * (P + 1)
    r = [0] * (P + 1)
    r[0] = r0
    delta = 1
    for _ in range(2 * P - 1):
        v = [0, *v[:P]]  # v *= x
        if delta > 0 and g[0] != 0:
            f, g, v, r = g, f, r, v
            delta = -delta
        delta += 1
        f0, g0 = f[0], g[0]
        g = [(f0 * g[i] - g0 * f[i]) % mod for i in range(P + 1)]
        r = [(f0 * r[i] - g0 * v[i]) % mod for i in range(P + 1)]
        g = [*g[1:], 0]  # g /= x
    return v, f[0] % mod, delta


def r3_recip(g: Any) -> tuple[I64, I64]:
    lead, gs = _rows(g, P)
    invs, oks = [], []
    for row in gs:
        v, f0, delta = _divstep_recip(row, 3, 1)
        scale = pow(f0, -1, 3) if f0 else 0
        invs.append([_f3(scale * v[P - 1 - i]) for i in range(P)])
        oks.append(0 if delta == 0 else -1)
    return _out(lead, invs), np.array(oks, dtype=np.int64).reshape(lead)


def rq_recip3(f: Any) -> I64:
    lead, fs = _rows(f, P)
    out = []
    for row in fs:
        v, f0, _ = _divstep_recip(row, Q, pow(3, -1, Q))
        scale = pow(f0, -1, Q)
        out.append([_fq(scale * v[P - 1 - i]) for i in range(P)])
    return _out(lead, out)


def sort_uint32(x: Any) -> I64:
    lead, rows = _rows(x)
    return _out(lead, [sorted(row) for row in rows])


def _encode(r: list[int], m: list[int]) -> list[int]:
    """Encode(R, M) (submission §3.2): merge neighbours into digits of radix
    M[i] M[i+1], emit their low bytes while the radix is at least 2^14, recurse."""
    if len(m) == 1:
        out, rr, mm = [], r[0], m[0]
        while mm > 1:
            out.append(rr & 255)
            rr >>= 8
            mm = (mm + 255) >> 8
        return out
    out, r2, m2 = [], [], []
    for i in range(0, len(m) - 1, 2):
        rr, mm = r[i] + r[i + 1] * m[i], m[i] * m[i + 1]
        while mm >= 16384:
            out.append(rr & 255)
            rr >>= 8
            mm = (mm + 255) >> 8
        r2.append(rr)
        m2.append(mm)
    if len(m) % 2:
        r2.append(r[-1])
        m2.append(m[-1])
    return out + _encode(r2, m2)


def _decode(s: list[int], m: list[int]) -> list[int]:
    """Decode(S, M) (submission §3.2), the inverse of :func:`_encode`; digits that
    are out of range come back reduced (as the reference's)."""
    if len(m) == 1:
        if m[0] == 1:
            return [0]
        if m[0] <= 256:
            return [s[0] % m[0]]
        return [(s[0] + (s[1] << 8)) % m[0]]
    m2, bottom, pos = [], [], 0
    for i in range(0, len(m) - 1, 2):
        mm = m[i] * m[i + 1]
        if mm > 256 * 16383:
            bottom.append((s[pos] + 256 * s[pos + 1], 65536))
            pos += 2
            m2.append((((mm + 255) >> 8) + 255) >> 8)
        elif mm >= 16384:
            bottom.append((s[pos], 256))
            pos += 1
            m2.append((mm + 255) >> 8)
        else:
            bottom.append((0, 1))
            m2.append(mm)
    if len(m) % 2:
        m2.append(m[-1])
    r2 = _decode(s[pos:], m2)
    out = []
    for k, i in enumerate(range(0, len(m) - 1, 2)):
        rr = bottom[k][0] + bottom[k][1] * r2[k]
        out += [rr % m[i], (rr // m[i]) % m[i + 1]]
    if len(m) % 2:
        out.append(r2[-1])
    return out


def encode_rq(r: Any) -> U8:
    lead, rows = _rows(r, P)
    return _out(lead, [_encode([c + Q12 for c in row], [Q] * P) for row in rows], np.uint8)


def decode_rq(s: Any) -> I64:
    lead, rows = _rows(s)
    return _out(lead, [[d - Q12 for d in _decode(row, [Q] * P)] for row in rows])


def encode_rounded(r: Any) -> U8:
    lead, rows = _rows(r, P)
    digits = [[(c + Q12) // 3 for c in row] for row in rows]
    return _out(lead, [_encode(d, [ROUNDED_RADIX] * P) for d in digits], np.uint8)


def decode_rounded(s: Any) -> I64:
    lead, rows = _rows(s)
    return _out(lead, [[3 * d - Q12 for d in _decode(row, [ROUNDED_RADIX] * P)] for row in rows])


KERNELS = kernel_table(SntrupKernels, globals())
