"""Streamlined NTRU Prime's ``numpy`` backend: the same arithmetic as :mod:`.ref`,
vectorised over the batch axes, in constant-time style on secret data (reductions by
multiply-and-shift as the reference's Fq_freeze / F3_freeze, swaps and selects by
masks, a sorting network); the radix codes replay the public plans of :mod:`.radix`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.arith.api import kernel_table
from pqkit.sntrup.kernels.contract import SntrupKernels
from pqkit.sntrup.kernels.radix import Plan, plan
from pqkit.sntrup.params import SNTRUP761

P, Q, Q12 = SNTRUP761.p, SNTRUP761.q, SNTRUP761.q12
ROUNDED_RADIX = (Q + 2) // 3
I64 = npt.NDArray[np.int64]
U8 = npt.NDArray[np.uint8]

# Fq_freeze's multiply-and-shift constants (round-3 reference kem.c).
_Q16 = (0x10000 + Q // 2) // Q
_Q20 = (0x100000 + Q // 2) // Q
_Q28 = (0x10000000 + Q // 2) // Q


def fq_freeze(x: I64) -> I64:
    """x mod q, centred, for |x| < 2^28 (int64): three multiply-and-shift steps."""
    x = x - Q * ((_Q16 * x) >> 16)
    x = x - Q * ((_Q20 * x) >> 20)
    return x - Q * ((_Q28 * x + 0x8000000) >> 28)


def f3_freeze(x: I64) -> I64:
    """x mod 3 in {-1, 0, 1} for |x| < 2^14: F3_freeze's multiply and shift."""
    out: I64 = x - 3 * ((10923 * x + 16384) >> 15)
    return out


def _as_poly(x: Any) -> tuple[tuple[int, ...], I64]:
    a = np.asarray(x, dtype=np.int64)
    return a.shape[:-1], a.reshape(-1, a.shape[-1])


def _fold(fg: I64) -> I64:
    """Reduce (B, 2p - 1) products mod x^p - x - 1: x^(p+i) = x^(i+1) + x^i, from the
    top down (each fold lands below the terms still to fold)."""
    top = fg[:, P:].copy()
    low: I64 = fg[:, :P].copy()
    # x^(p+i) -> x^i + x^(i+1); the (i+1) term of i = p - 2 is x^(p-1), below p.
    low[:, : P - 1] += top
    low[:, 1:P] += top
    return low


def _product(f: I64, g: I64) -> I64:
    """The (B, 2p - 1) integer products of the rows of f and g. In float64: every
    product and sum is an integer below 2^23, so exact, and NumPy's float
    convolution is twice as fast as its int64 one (the same direct sums; no FFT)."""
    out = np.empty((f.shape[0], 2 * P - 1), dtype=np.int64)
    ff = f.astype(np.float64)
    gf = g.astype(np.float64)
    for i in range(f.shape[0]):
        out[i] = np.convolve(ff[i], gf[i])
    return out


def rq_mult_small(f: Any, g: Any) -> I64:
    lead, fs = _as_poly(f)
    _, gs = _as_poly(g)
    fs, gs = np.broadcast_arrays(fs, gs)
    return fq_freeze(_fold(_product(fs, gs))).reshape(*lead, P)


def rq_mult3(f: Any) -> I64:
    return fq_freeze(3 * np.asarray(f, dtype=np.int64))


def r3_mult(f: Any, g: Any) -> I64:
    lead, fs = _as_poly(f)
    _, gs = _as_poly(g)
    fs, gs = np.broadcast_arrays(fs, gs)
    return f3_freeze(_fold(_product(fs, gs))).reshape(*lead, P)


def _divsteps(inp: I64, r0: int, freeze: Any) -> tuple[I64, I64, I64]:
    """The 2p - 1 divsteps of R3_recip / Rq_recip3 on the rows of ``inp`` (B, p),
    with [f | v] and [g | r] held side by side so one masked swap and one
    multiply-and-reduce serve both halves. Returns (v reversed (B, p + 1), f0 (B,),
    delta (B,))."""
    b = inp.shape[0]
    n = P + 1
    fv = np.zeros((b, 2 * n), dtype=np.int64)
    gr = np.zeros((b, 2 * n), dtype=np.int64)
    fv[:, 0] = 1
    fv[:, P - 1] = -1
    fv[:, P] = -1
    gr[:, :P] = inp[:, ::-1]
    gr[:, n] = r0
    delta = np.ones(b, dtype=np.int64)
    for _ in range(2 * P - 1):
        fv[:, n + 1 :] = fv[:, n:-1].copy()  # v *= x
        fv[:, n] = 0
        g0 = gr[:, 0]
        # swap = -1 where delta > 0 and g[0] != 0 (crypto_int16_negative_mask(-delta)
        # & crypto_int16_nonzero_mask(g[0])), as arithmetic on the sign bits.
        swap = ((-delta) >> 63) & -((g0 | -g0) >> 63 & 1)
        delta = (delta ^ (swap & (delta ^ -delta))) + 1
        t = swap[:, None] & (fv ^ gr)
        fv ^= t
        gr ^= t
        f0 = fv[:, 0:1].copy()
        g0c = gr[:, 0:1].copy()
        gr = freeze(f0 * gr - g0c * fv)
        gr[:, : n - 1] = gr[:, 1:n].copy()  # g /= x (its constant term is now 0)
        gr[:, n - 1] = 0
    return fv[:, n:], fv[:, 0], delta


def _fq_pow(a: I64, e: int) -> I64:
    """a^e in Z_q for a public exponent e (square and multiply on its public bits)."""
    result = np.ones_like(a)
    base = a.copy()
    while e:
        if e & 1:
            result = fq_freeze(result * base)
        base = fq_freeze(base * base)
        e >>= 1
    return result


def r3_recip(g: Any) -> tuple[I64, I64]:
    lead, gs = _as_poly(g)
    v, f0, delta = _divsteps(gs, 1, f3_freeze)
    inv = f3_freeze(f0[:, None] * v[:, P - 1 :: -1])  # 1/f0 = f0 for f0 = +-1
    ok = -((delta | -delta) >> 63 & 1)
    return inv.reshape(*lead, P), ok.reshape(lead)


def rq_recip3(f: Any) -> I64:
    lead, fs = _as_poly(f)
    v, f0, _ = _divsteps(fs, int(pow(3, -1, Q)) - Q, fq_freeze)
    scale = _fq_pow(f0, Q - 2)
    return fq_freeze(scale[:, None] * v[:, P - 1 :: -1]).reshape(*lead, P)


def _network(n: int) -> list[tuple[I64, I64]]:
    """The comparator stages of a bitonic sorting network on n = 2^k entries, every
    comparator ascending (low index gets the minimum)."""
    stages = []
    k = 2
    while k <= n:
        j = k // 2
        first = True
        while j >= 1:
            idx = np.arange(n)
            partner = idx ^ (k - 1) if first else idx ^ j
            keep = partner > idx
            stages.append((idx[keep], partner[keep]))
            first = False
            j //= 2
        k *= 2
    return stages


_NETWORKS: dict[int, list[tuple[I64, I64]]] = {}


def _stages(size: int) -> list[tuple[I64, I64]]:
    stages = _NETWORKS.get(size)
    if stages is None:
        stages = _NETWORKS[size] = _network(size)
    return stages


@functools.cache
def comparator_stages(n: int) -> tuple[int, I64, I64]:
    """(padded size, low indices, high indices) of the network for n entries, every
    stage after the other: what the compiled backend loops over."""
    size = 1 << max(0, (n - 1).bit_length())
    stages = _stages(size)
    lo = np.concatenate([s[0] for s in stages]) if stages else np.zeros(0, dtype=np.int64)
    hi = np.concatenate([s[1] for s in stages]) if stages else np.zeros(0, dtype=np.int64)
    return size, lo, hi


def sort_uint32(x: Any) -> I64:
    lead, rows = _as_poly(x)
    n = rows.shape[1]
    size = 1 << max(0, (n - 1).bit_length())
    work = np.full((rows.shape[0], size), 0xFFFFFFFF, dtype=np.int64)
    work[:, :n] = rows
    _bitonic(work)
    return work[:, :n].reshape(*lead, n)


def _exchange(lo: I64, hi: I64) -> None:
    """One comparator stage on two views: minima to ``lo``, maxima to ``hi``."""
    low = np.minimum(lo, hi)
    np.maximum(lo, hi, out=hi)
    lo[...] = low


def _bitonic(work: I64) -> None:
    """The network of :func:`_network` on the rows of ``work`` (B, 2^k), in place,
    each stage as strided views (no index arrays): per block of k, the flip stage
    pairs i with k - 1 - i, then the half-cleaners pair i with i + j."""
    b, size = work.shape
    k = 2
    while k <= size:
        blocks = work.reshape(b, size // k, k)
        _exchange(blocks[:, :, : k // 2], blocks[:, :, k - 1 : k // 2 - 1 : -1])
        j = k // 4
        while j >= 1:
            halves = work.reshape(b, size // (2 * j), 2, j)
            _exchange(halves[:, :, 0, :], halves[:, :, 1, :])
            j //= 2
        k *= 2


@dataclass(frozen=True)
class _Step:
    """One level of a plan as arrays (built once per plan)."""

    pairs: int
    odd: bool
    low: I64  # radices of the even entries
    high: I64  # radices of the odd entries
    emit: I64
    keep: npt.NDArray[np.bool_]  # which of the (pairs, kmax) bytes Encode writes
    cols: I64  # Decode: (kmax, pairs) byte positions (0 where absent)
    has: npt.NDArray[np.bool_]  # (kmax, pairs)
    scale: I64  # 256^emit


@functools.cache
def _steps(pl: Plan) -> tuple[_Step, ...]:
    out = []
    pos = 0
    for level in pl.levels:
        rad = np.array(level.radices, dtype=np.int64)
        pairs = len(level.emit)
        emit = np.array(level.emit, dtype=np.int64)
        kmax = int(emit.max())
        j = np.arange(kmax)[:, None]
        has = j < emit[None, :]
        starts = pos + np.concatenate([[0], np.cumsum(emit)[:-1]])
        out.append(
            _Step(
                pairs,
                len(rad) % 2 == 1,
                rad[0 : 2 * pairs : 2],
                rad[1 : 2 * pairs : 2],
                emit,
                has.T.reshape(-1),
                np.where(has, starts[None, :] + j, 0),
                has,
                np.left_shift(1, 8 * emit),
            )
        )
        pos += int(emit.sum())
    return tuple(out)


def _encode(digits: I64, pl: Plan) -> U8:
    """Encode (submission §3.2) of (B, n) digits along the public plan."""
    r = digits
    parts = []
    for st in _steps(pl):
        merged = r[:, 0 : 2 * st.pairs : 2] + r[:, 1 : 2 * st.pairs : 2] * st.low
        kmax = st.cols.shape[0]
        if kmax:
            raw = np.empty((r.shape[0], st.pairs, kmax), dtype=np.int64)
            for j in range(kmax):
                raw[:, :, j] = (merged >> (8 * j)) & 255
            parts.append(raw.reshape(r.shape[0], -1)[:, st.keep])
        merged = merged >> (8 * st.emit)
        r = np.concatenate([merged, r[:, -1:]], axis=1) if st.odd else merged
    parts.append(np.stack([(r[:, 0] >> (8 * j)) & 255 for j in range(pl.top_bytes)], axis=-1))
    return np.concatenate(parts, axis=1).astype(np.uint8)


def _decode(s: I64, pl: Plan) -> I64:
    """Decode (submission §3.2) of (B, length) bytes along the public plan; out-of-range
    digits come back reduced, as the reference's."""
    b = s.shape[0]
    steps = _steps(pl)
    values = []
    for st in steps:
        value = np.zeros((b, st.pairs), dtype=np.int64)
        for j in range(st.cols.shape[0]):
            value += np.where(st.has[j], s[:, st.cols[j]], 0) << (8 * j)
        values.append(value)
    pos = pl.length - pl.top_bytes
    top = np.zeros(b, dtype=np.int64)
    for j in range(pl.top_bytes):
        top += s[:, pos + j] << (8 * j)
    r = (top % pl.top)[:, None]
    for st, value in zip(reversed(steps), reversed(values), strict=True):
        full = value + st.scale * r[:, : st.pairs]
        out = np.empty((b, 2 * st.pairs + st.odd), dtype=np.int64)
        out[:, 0 : 2 * st.pairs : 2] = full % st.low
        out[:, 1 : 2 * st.pairs : 2] = (full // st.low) % st.high
        if st.odd:
            out[:, -1] = r[:, -1]
        r = out
    return r


def encode_rq(r: Any) -> U8:
    lead, rows = _as_poly(r)
    pl = plan(P, Q)
    return _encode(rows + Q12, pl).reshape(*lead, pl.length)


def decode_rq(s: Any) -> I64:
    lead, rows = _as_poly(s)
    return (_decode(rows, plan(P, Q)) - Q12).reshape(*lead, P)


def encode_rounded(r: Any) -> U8:
    lead, rows = _as_poly(r)
    pl = plan(P, ROUNDED_RADIX)
    # (r + q12) / 3 as the reference's multiply and shift (exact on 3Z - q12 .. q12).
    return _encode(((rows + Q12) * 10923) >> 15, pl).reshape(*lead, pl.length)


def decode_rounded(s: Any) -> I64:
    lead, rows = _as_poly(s)
    return (3 * _decode(rows, plan(P, ROUNDED_RADIX)) - Q12).reshape(*lead, P)


KERNELS = kernel_table(SntrupKernels, globals())
