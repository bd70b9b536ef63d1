"""The ``numpy`` backend for q = 8380417: vectorised int64 kernels.

Secret-data rules (docs/architecture.md §8): no ``%``, ``//``, branches or data-dependent
indexing on coefficient values. Products and the NTT stages are exact float64
integers (below 2^50) reduced by a multiply-floor-subtract with a precomputed 1/q
(no division); conditional corrections are sign-mask arithmetic
(``x += (x >> 63) & q``). Decompose and Power2Round use the
multiply-and-shift forms of the Dilithium reference code's constant-time rounding.

NOTE: the rejection samplers (RejNTTPoly, RejBoundedPoly) compact their accepted
samples by positions computed from the acceptance flags alone (RejNTTPoly, whose
stream is public, with a boolean mask when every row has 256; RejBoundedPoly with
one gather of each row's first 256 accepted positions, or a stable sort of the
flags when a row is short). Which samples were rejected
is independent of the values accepted (the reference implementations branch on
it too); the accepted values themselves go through no branch. SampleInBall is a
fixed-length masked scan and one-hot products (its seed is secret on rejected
attempts).

Every kernel is a fixed sequence of array calls whose count depends only on
shapes: at these sizes each call costs about 0.5-1 us whatever its length, so the
kernels are written for few calls (docs/decisions.md, "NumPy fast path").
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.arith._numpy import first_accepted, lane_sums, stage_matrices
from pqkit.arith.api import Poly, kernel_table
from pqkit.arith.tables import N
from pqkit.mldsa.kernels.contract import MLDSAKernels
from pqkit.mldsa.kernels.tables import MLDSA_DECOMPOSE, MLDSA_N_INV
from pqkit.mldsa.kernels.tables import MLDSA_Q as Q
from pqkit.mldsa.kernels.tables import MLDSA_ZETAS as ZETAS

__all__ = ["KERNELS"]

_I64 = np.int64
_I32 = np.int32
_F64 = np.float64


# --- NTT as two dense stages (float64 matrix products) ------------------------------
#
# Index n = 16 h + l. Algorithm 41's layers of length 128..16 mix only the high four
# index bits h (the same 16 x 16 matrix for every l) and the layers of length 8..1
# only the low four bits l (one 16 x 16 matrix per h); Algorithm 42 runs the same
# kinds of layers in the other order. So each transform is two float64 matrix
# products (BLAS): matrix entries are canonical and inputs below q in absolute value,
# so every sum of 16 products is an exact integer of magnitude at most 16 (q - 1)^2
# < 2^50, reduced mod q (:func:`_reduce_f64`) after each stage. The matrices are
# computed at import by running the layers of Algorithms 41 / 42 on unit vectors.
# Layout inside: (16 h, rows, 16 l), so the high stage is one product M @ (16, rows
# * 16) and the low stage one batched product over h.

_QF = float(Q)
_QINV_F = 1.0 / Q


def _reduce_f64(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """x mod q in [0, q) for float64 holding exact integers |x| <= 16 q^2 (a new array):
    this backend's reduction, in place of FIPS 204, Algorithm 49 (MontgomeryReduce).

    t = floor((x + 1/2) * fl(1/q)) equals floor(x / q): (x + 1/2) / q lies at least
    1/(2q) > 2^-24 from every integer, and the roundings (of 1/q and of the product,
    x + 1/2 being exact) move it by at most 2^-52 * |x / q| <= 2^-52 * 16 q < 2^-25.
    """
    t = x + 0.5
    t *= _QINV_F
    np.floor(t, out=t)
    t *= -_QF
    t += x
    return t


def _layers(f: npt.NDArray[np.int64], lengths: tuple[int, ...], m: int, inverse: bool) -> int:
    """Run the layers of FIPS 204, Algorithm 41 (or 42 with ``inverse``) with the given
    ``len`` values on every row of ``f`` in place, zeta index from ``m``; returns the
    next m. Public constants only (import time)."""
    for length in lengths:
        for start in range(0, N, 2 * length):
            lo = f[:, start : start + length].copy()
            hi = f[:, start + length : start + 2 * length]
            if inverse:
                m -= 1
                f[:, start : start + length] = (lo + hi) % Q
                f[:, start + length : start + 2 * length] = (-ZETAS[m] * (lo - hi)) % Q
            else:
                m += 1
                t = ZETAS[m] * hi % Q
                f[:, start + length : start + 2 * length] = (lo - t) % Q
                f[:, start : start + length] = (lo + t) % Q
    return m


_HIGH_LENGTHS = (128, 64, 32, 16)
_LOW_LENGTHS = (8, 4, 2, 1)


def _build_tables() -> tuple[npt.NDArray[np.float64], ...]:
    eye = np.eye(N, dtype=_I64)
    high = eye[::16].copy()
    m = _layers(high, _HIGH_LENGTHS, 0, inverse=False)
    low = lane_sums()
    assert _layers(low, _LOW_LENGTHS, m, inverse=False) == 255
    ntt_high, ntt_low = stage_matrices(high, low)
    low = lane_sums()
    m = _layers(low, _LOW_LENGTHS[::-1], 256, inverse=True)
    high = eye[::16].copy()
    assert _layers(high, _HIGH_LENGTHS[::-1], m, inverse=True) == 1
    high = high * MLDSA_N_INV % Q  # FIPS 204, Algorithm 42 line 21, folded in
    intt_high, intt_low = stage_matrices(high, low)
    return ntt_high, ntt_low, intt_high, intt_low


_NTT_HIGH, _NTT_LOW, _INTT_HIGH, _INTT_LOW = _build_tables()


def _to_stage(a: Poly) -> tuple[npt.NDArray[np.float64], tuple[int, ...]]:
    """(..., 256) ints -> float64 (16 h, rows, 16 l), C-contiguous, and the lead shape."""
    x = np.asarray(a)
    lead = x.shape[:-1]
    rows = x.reshape(-1, 16, 16).swapaxes(0, 1)
    return np.array(rows, dtype=_F64, order="C"), lead


def _from_stage(x: npt.NDArray[np.float64], lead: tuple[int, ...]) -> Poly:
    """float64 (16 h, rows, 16 l) exact in [0, q) -> int64 (..., 256)."""
    out: Poly = np.empty((x.shape[1], 16, 16), dtype=_I64)
    np.copyto(out, x.swapaxes(0, 1), casting="unsafe")
    return out.reshape(*lead, N)


_GEMM_COLUMNS = 16 * 63
"""Columns per high-stage product, and rows per low-stage one: 16 * 16 * 16 * 63 and
63 * 16 * 16 multiply-adds stay below OpenBLAS's threshold for multi-threading
(2^18), whose thread start-up costs far more than these small products (16 ms
instead of 2 ms for a signing pass of 8 attempts on a busy 2-core machine)."""


def _high(m: npt.NDArray[np.float64], x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """m (16, 16) @ x (16, C), in column blocks of at most _GEMM_COLUMNS."""
    if x.shape[1] <= _GEMM_COLUMNS:
        whole: npt.NDArray[np.float64] = np.matmul(m, x)
        return whole
    out = np.empty_like(x)
    for s in range(0, x.shape[1], _GEMM_COLUMNS):
        np.matmul(m, x[:, s : s + _GEMM_COLUMNS], out=out[:, s : s + _GEMM_COLUMNS])
    return out


def _low(x: npt.NDArray[np.float64], t: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """x (16, R, 16) @ t (16, 16, 16) per h, in row blocks of at most 63."""
    rows = _GEMM_COLUMNS // 16
    if x.shape[1] <= rows:
        whole: npt.NDArray[np.float64] = np.matmul(x, t)
        return whole
    out = np.empty_like(x)
    for s in range(0, x.shape[1], rows):
        np.matmul(x[:, s : s + rows], t, out=out[:, s : s + rows])
    return out


def ntt(a: Poly) -> Poly:
    # FIPS 204, Algorithm 41: layers len 128..16 (M @ x over h), then len 8..1
    # (x[h] @ T[h] over l), each stage reduced mod q.
    x, lead = _to_stage(a)
    h, r, _ = x.shape
    y = _reduce_f64(_high(_NTT_HIGH, x.reshape(16, -1))).reshape(h, r, 16)
    return _from_stage(_reduce_f64(_low(y, _NTT_LOW)), lead)


def intt(a_hat: Poly) -> Poly:
    # FIPS 204, Algorithm 42: layers len 1..8 (per h), then len 16..128 with the
    # factor 256^-1 folded into the matrix.
    x, lead = _to_stage(a_hat)
    h, r, _ = x.shape
    y = _reduce_f64(_low(x, _INTT_LOW)).reshape(16, -1)
    return _from_stage(_reduce_f64(_high(_INTT_HIGH, y)).reshape(h, r, 16), lead)


def _reduce_i64(x: npt.NDArray[np.int64]) -> Poly:
    """x mod q, canonical int64, for int64 |x| <= 16 q^2 (:func:`_reduce_f64`)."""
    out: Poly = _reduce_f64(x.astype(_F64)).astype(_I64)
    return out


def pointwise_mul(a_hat: Poly, b_hat: Poly) -> Poly:
    # FIPS 204, Algorithm 45: products of canonical values are below q^2 < 2^46
    prod = np.asarray(a_hat, dtype=_I64) * np.asarray(b_hat, dtype=_I64)
    return _reduce_i64(prod)


def pointwise_acc(a_hat: Poly, b_hat: Poly) -> Poly:
    # sum_j a_j * b_j: at most 8 products below q^2, one reduction
    a = np.asarray(a_hat, dtype=_I64)
    b = np.asarray(b_hat, dtype=_I64)
    if a.shape[-2] > 8:
        raise ValueError("pointwise_acc: at most 8 terms (FIPS 204 matrices have l <= 7)")
    # (einsum's sum of products: no (..., m, 256) temporary, about half the time)
    return _reduce_i64(np.einsum("...mn,...mn->...n", a, b))


def power2round(r: Poly) -> tuple[Poly, Poly]:
    # FIPS 204, Algorithm 35 for canonical r: r1 = ceil-ish (r + 2^12 - 1) >> 13
    x = np.asarray(r, dtype=_I64)
    r1 = (x + (1 << 12) - 1) >> 13
    return r1, x - (r1 << 13)


_HB32_M, _HB32_S = MLDSA_DECOMPOSE[(Q - 1) // 32]
_HB88_M, _HB88_S = MLDSA_DECOMPOSE[(Q - 1) // 88]


def _decompose32(r: Poly, gamma2: int) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """:func:`decompose` in int32 (half the memory traffic of int64), in place:
    r < 2^23, so ((r + 127) >> 7) * M + 2^(S-1) < 2^16 * 11275 + 2^23 < 2^31."""
    x = np.asarray(r).astype(_I32)
    r1 = x + 127
    r1 >>= 7
    if gamma2 == (Q - 1) // 32:
        r1 *= _HB32_M
        r1 += 1 << (_HB32_S - 1)
        r1 >>= _HB32_S
        r1 &= 15
    elif gamma2 == (Q - 1) // 88:
        r1 *= _HB88_M
        r1 += 1 << (_HB88_S - 1)
        r1 >>= _HB88_S
        r1 ^= ((43 - r1) >> 31) & r1
    else:
        raise ValueError(f"unsupported gamma2 {gamma2}: FIPS 204 uses (q-1)/88 or (q-1)/32")
    r0 = r1 * (-2 * gamma2)
    r0 += x
    r0 -= (((Q - 1) // 2 - r0) >> 31) & Q
    return r1, r0


def decompose(r: Poly, gamma2: int) -> tuple[Poly, Poly]:
    # FIPS 204, Algorithm 36 for canonical r, multiply-and-shift form:
    # r1 = round(r / (2 gamma2)) via a fixed-point reciprocal, with the wrap
    # r1 = (q - 1) / (2 gamma2) -> 0 done by masks; r0 = r - r1 * 2 gamma2, centred.
    r1, r0 = _decompose32(r, gamma2)
    return r1.astype(_I64), r0.astype(_I64)


def make_hint(z: Poly, r: Poly, gamma2: int) -> Poly:
    # FIPS 204, Algorithm 39
    rr = np.asarray(r, dtype=_I64)
    s = rr + np.asarray(z, dtype=_I64)
    s -= Q
    s += (s >> 63) & Q
    r1, _ = decompose(rr, gamma2)
    v1, _ = decompose(s, gamma2)
    hint: Poly = (r1 != v1).astype(_I64)
    return hint


def use_hint(h: Poly, r: Poly, gamma2: int) -> Poly:
    # FIPS 204, Algorithm 40: with h = 1, step r1 towards the side r0 lies on, mod m
    m = (Q - 1) // (2 * gamma2)
    r1, r0 = _decompose32(r, gamma2)
    step = np.asarray(h).astype(_I32)  # 1, or -1 where r0 <= 0 (mask of r0 - 1 < 0)
    step -= (step & ((r0 - 1) >> 31)) << 1
    r1 += step
    r1 += (r1 >> 31) & m  # -1 -> m - 1
    r1 -= m
    r1 += (r1 >> 31) & m  # m -> 0
    return r1.astype(_I64)


def infinity_norm(a: Poly) -> npt.NDArray[np.int64]:
    # For |x| < q, |x mod± q| = min(|x|, q - |x|) (SIMD min: no branch).
    x = np.abs(np.asarray(a, dtype=_I64))
    out: npt.NDArray[np.int64] = np.minimum(x, Q - x).max(axis=-1)
    return out


def _compact(values: Poly, accept: npt.NDArray[np.bool_]) -> tuple[Poly, npt.NDArray[np.int64]]:
    """The first 256 accepted values of each row, in order, and how many there were
    (no boolean-mask indexing: docs/architecture.md §8 keeps it off secret values;
    public data goes through :func:`pqkit.arith._numpy.first_accepted`)."""
    order = np.argsort(~accept, axis=-1, kind="stable")[..., :N]
    out = np.take_along_axis(values, order, axis=-1)
    count = np.minimum(accept.sum(axis=-1, dtype=_I64), N)
    if out.shape[-1] < N:  # fewer candidates than 256: pad (count says it is short)
        pad = np.zeros((*out.shape[:-1], N - out.shape[-1]), dtype=_I64)
        out = np.concatenate([out, pad], axis=-1)
    # entries past `count` are zero, as in the reference twin
    out = out * (np.arange(N) < count[..., None])
    return out, count


_PAD1 = np.zeros(1, dtype=np.uint8)
_FIRST = np.arange(N)


def rej_uniform(buf: npt.NDArray[np.uint8]) -> tuple[Poly, npt.NDArray[np.int64]]:
    # FIPS 204, Algorithms 30 and 14: 23-bit little-endian candidates, accept < q
    b = np.asarray(buf, dtype=np.uint8)
    n = b.shape[-1] - b.shape[-1] % 3
    lead = b.shape[:-1]
    rows = math.prod(lead)
    if not (rows and n):
        return np.zeros((*lead, N), dtype=_I64), np.zeros(lead, dtype=_I64)
    # Public data (ExpandA of the public rho): the candidates from little-endian
    # 32-bit reads at bytes 3i (a strided view over the bytes and one byte of
    # padding; the fourth byte is masked off), then each row's first 256.
    # Every row full (the usual case): the accepted values in order (a boolean mask,
    # public data), each row's first 256 gathered from where the row begins.
    flat = np.concatenate([b[..., :n].reshape(-1), _PAD1])
    words = np.ndarray((rows * (n // 3),), dtype="<u4", buffer=flat, strides=(3,))
    cand = words & np.uint32(0x7FFFFF)
    accept = cand < Q
    per_row = accept.reshape(rows, n // 3).sum(axis=1)
    if n // 3 < N or int(per_row.min()) < N:  # a short row: the caller reads more
        out, counts = first_accepted(cand, accept, rows, n // 3)
        return out.reshape(*lead, N), np.array(counts, dtype=_I64).reshape(lead)
    begins = np.zeros(rows, dtype=_I64)
    np.cumsum(per_row[:-1], out=begins[1:])
    full: Poly = cand[accept][begins[:, None] + _FIRST].astype(_I64)
    return full.reshape(*lead, N), np.full(lead, N, dtype=_I64)


def rej_bounded(buf: npt.NDArray[np.uint8], eta: int) -> tuple[Poly, npt.NDArray[np.int64]]:
    # FIPS 204, Algorithms 31 and 15: low nibble first, then high nibble
    # (int16 until the compaction: nibbles and their values are small)
    if eta not in (2, 4):
        raise ValueError(f"unsupported eta {eta}: FIPS 204 uses 2 or 4")
    b = np.asarray(buf, dtype=np.uint8)
    nib = np.empty((*b.shape, 2), dtype=np.int16)
    np.bitwise_and(b, 15, out=nib[..., 0])
    np.right_shift(b, 4, out=nib[..., 1])
    nib = nib.reshape((*b.shape[:-1], 2 * b.shape[-1]))
    if eta == 2:
        accept = nib < 15
        vals = 2 - nib + 5 * ((nib * 205) >> 10)  # 2 - (nib mod 5) for nib < 16
    else:
        accept = nib < 9
        vals = 4 - nib
    out, count = _first_256(vals, accept)
    return out.astype(_I64), count


def _first_256(values: Poly, accept: npt.NDArray[np.bool_]) -> tuple[Poly, npt.NDArray[np.int64]]:
    """:func:`_compact` in fewer, cheaper calls where every row has 256 accepted
    values (the usual case): the flat positions of the accepted entries, each row's
    first (searchsorted), and one gather of the 256 positions from there. As with
    the stable sort, which entries move where follows from ``accept`` alone (which
    samples were rejected), never from the values moved; ``values`` is only read
    through the gather, by no boolean mask."""
    lead, width = accept.shape[:-1], accept.shape[-1]
    rows = math.prod(lead)
    accepted = accept.reshape(-1).nonzero()[0]
    starts = accepted.searchsorted(np.arange(rows) * width)
    ends = np.append(starts[1:], len(accepted))
    if rows == 0 or width < N or int((ends - starts).min()) < N:
        return _compact(values, accept)  # a short row: the caller reads more
    first = accepted[starts[:, None] + _FIRST]
    out: Poly = values.reshape(-1).take(first).reshape(*lead, N)
    return out, np.full(lead, N, dtype=_I64)


_LANES = 4  # rows per Python-integer word in the scan below: 16-bit lanes
_LANE_TOP = sum(0x8000 << (16 * k) for k in range(_LANES))
_LANE_ONE = sum(1 << (16 * k) for k in range(_LANES))


def _ball_accept(idx: npt.NDArray[np.uint8], tau: int) -> npt.NDArray[np.int64]:
    """For each index byte j of each row, 1 if j <= i, else 0, with i = 256 - tau +
    (bytes accepted so far): SampleInBall's acceptance of the byte while fewer than
    tau were accepted. Bytes after the tau-th accepted one are flagged too (as if i
    went on counting); their ranks are tau or more, and the caller drops those.

    A fixed-length scan over the bytes, four rows at a time in the 16-bit lanes of
    one Python integer (SWAR): lane k holds 2^15 + i (i below 2^9), and the top bit
    of (2^15 + i) - j says j <= i without a borrow between lanes. No branch, index
    or loop count depends on the bytes."""
    rows, width = idx.shape
    groups = -(-rows // _LANES)
    lanes = np.zeros((width, groups * _LANES), dtype="<u2")
    lanes[:, :rows] = idx.T
    words = lanes.view("<u8")  # (width, groups): byte p of four rows per word
    flags = np.empty((width, groups), dtype=np.uint64)
    start = _LANE_TOP + (N - tau) * _LANE_ONE
    for g in range(groups):
        i = start
        out = []
        for j in words[:, g].tolist():
            a = ((i - j) >> 15) & _LANE_ONE
            out.append(a)
            i += a
        flags[:, g] = out
    lane_flags = flags.view("<u2").reshape(width, groups * _LANES)[:, :rows].T
    accept: npt.NDArray[np.int64] = np.array(lane_flags, dtype=_I64, order="C")
    return accept


_SIXTEEN = np.arange(16, dtype=_I64)
_STEPS_F32 = np.arange(64, dtype=np.float32)  # step numbers t < tau <= 60


@functools.cache
def _later_weights(tau: int) -> npt.NDArray[np.float32]:
    """[u, 1, v]: tau - u where u > v, else 0 (public constants). For a 0/1 relation
    m[u, ., v], the maximum over u of m * W is tau - (the first u > v with m = 1),
    or 0 where there is none."""
    u = np.arange(tau)
    w = np.where(u[:, None] > u[None, :], tau - u[:, None], 0).astype(np.float32)
    return w[:, None, :]


def sample_in_ball(stream: npt.NDArray[np.uint8], tau: int) -> tuple[Poly, npt.NDArray[np.bool_]]:
    # FIPS 204, Algorithm 29 (SampleInBall) without branches or indexing on the stream.
    # NOTE: the challenge seed of a rejected or speculative attempt is never
    # published, so its bytes decide no branch, loop count or index here:
    # 1. a fixed-length scan of every index byte computes, with mask arithmetic,
    #    whether it is accepted (:func:`_ball_accept`);
    # 2. the t-th accepted byte j_t is selected with a one-hot rank mask;
    # 3. step t (i_t = 256 - tau + t, public) moves the sign at j_t to i_t and puts
    #    sign t at j_t. So sign t, placed at j_t, moves first at the first later
    #    step u with j_u = j_t (to i_u), and from i_v next at the first later step
    #    u with j_u = i_v: "first later step" pointers (a masked maximum over public
    #    weights), followed to the end by repeated squaring (a fixed number of
    #    one-hot gathers), give every sign's final position; c is then a sum of
    #    signed one-hot rows.
    # Outputs equal the reference's, including the partial c of a short prefix.
    s = np.asarray(stream, dtype=np.uint8)
    lead = s.shape[:-1]
    rows = s.reshape(math.prod(lead), s.shape[-1])
    count, n = rows.shape
    if n < 8 or tau == 0:
        ok_empty = np.full(lead, n >= 8 and tau == 0, dtype=np.bool_)
        return np.zeros((*lead, N), dtype=_I64), ok_empty
    idx = rows[:, 8:]
    accept = _ball_accept(idx, tau)  # 1.
    # 2. rank of every accepted byte (-1 for the others); the one-hot of rank = t,
    # times (1, idx + 1), gives done_t (1 where step t happened) and j_t + 1.
    # (float32 throughout: exact for these small integers, and half the cost of an
    # int64 comparison)
    rank = np.cumsum(accept, axis=1, dtype=np.float32)
    rank *= accept
    rank -= 1
    onehot = np.empty((count, tau, idx.shape[1]), dtype=np.float32)
    np.equal(rank[:, None, :], _STEPS_F32[:tau, None], out=onehot, casting="unsafe")
    values = np.empty((count, idx.shape[1], 2), dtype=np.float32)
    values[:, :, 0] = 1.0
    np.add(idx, 1.0, out=values[:, :, 1], casting="unsafe")
    done_j = np.matmul(onehot, values)  # (count, tau, 2), exact in float32
    done = done_j[:, :, 0]
    j_t = done_j[:, :, 1].astype(_I64) - 1  # -1: step t did not happen
    i_t = np.arange(N - tau, N, dtype=_I64)
    slots = np.arange(tau, dtype=np.float32)
    # 3. Two "first later step" relations, [which, u, row, v] (u outermost, so the
    # maximum over u is elementwise): [0] the first step u > v that moves what sits
    # at i_v (j_u = i_v); [1] the first step u > t that moves sign t from j_t.
    j_u = j_t.T[:, :, None]
    targets = np.empty((2, 1, count, tau), dtype=_I64)  # [0] i_v, [1] j_t
    targets[0] = i_t
    targets[1, 0] = j_t
    later = np.empty((2, tau, count, tau), dtype=np.float32)
    np.equal(j_u, targets, out=later, casting="unsafe")
    later *= _later_weights(tau)
    step = tau - later.max(axis=1)  # (2, count, tau); tau where there is none
    moves = step < tau
    moves[1] &= j_t >= 0  # a step that did not happen places no sign
    # nxt[v] = v where nothing moves it; followed to the end by repeated composition
    # nxt <- nxt o nxt (each a one-hot masked gather), a fixed number of times.
    nxt = step[0] + (~moves[0]) * (slots - tau)
    gather = np.empty((count, tau, tau), dtype=np.float32)
    for _ in range((tau - 1).bit_length()):  # 2^steps >= tau - 1 moves: the end
        np.equal(nxt[:, :, None], slots, out=gather, casting="unsafe")
        nxt = np.matmul(gather, nxt[:, :, None])[:, :, 0]
    # Sign t moves first at step[1][t] (to i of that step), then on along nxt.
    np.equal(step[1][:, :, None], slots, out=gather, casting="unsafe")
    end = np.matmul(gather, nxt[:, :, None])[:, :, 0].astype(_I64)
    pos = j_t + moves[1] * (N - tau + end - j_t)  # (count, tau); -1: nowhere
    # sign t = (-1)^(bit t of the first 8 bytes, least significant first)
    sign = 1.0 - 2.0 * np.unpackbits(rows[:, :8], axis=1, bitorder="little")[:, :tau]
    # c[16 h + l] = sum_t sign_t [pos_t >> 4 = h] [pos_t & 15 = l] (pos -1: nowhere)
    pos_h = ((pos[:, :, None] >> 4) == _SIXTEEN) * sign[:, :, None]  # (count, tau, 16)
    pos_l = ((pos[:, :, None] & 15) == _SIXTEEN).astype(_F64)
    c = np.matmul(pos_h.swapaxes(1, 2), pos_l).astype(_I64).reshape(count, N)
    oks = done[:, tau - 1] == 1
    return c.reshape((*lead, N)), oks.reshape(lead)


_PACK_GROUP = {w: 8 // math.gcd(w, 8) for w in range(1, 24)}
"""Coefficients per byte-aligned group of a width: the smallest g with 8 | w g."""
_PACK_WEIGHTS = {
    w: np.array([1 << (w * k) for k in range(g)], dtype=np.uint64)
    for w, g in _PACK_GROUP.items()
    if w * g <= 64
}


def _wide(w: int, g: int) -> tuple[npt.NDArray[np.uint64], ...]:
    """For bit_pack groups of 64 < w g <= 128 bits: the low word's weights 2^(w k)
    mod 2^64, and per field the right and left shifts that give its bits above 63 in
    the high word (right shift 63 leaves nothing of a field wholly below bit 64)."""
    starts = [w * k for k in range(g)]
    low = [(1 << b) % (1 << 64) if b < 64 else 0 for b in starts]
    right = [min(64 - b, 63) if b < 64 else 0 for b in starts]
    left = [b - 64 if b >= 64 else 0 for b in starts]
    return tuple(np.array(v, dtype=np.uint64) for v in (low, right, left))


_PACK_WIDE = {w: _wide(w, g) for w, g in _PACK_GROUP.items() if 64 < w * g <= 128}


def bit_pack(a: Poly, width: int) -> npt.NDArray[np.uint8]:
    # FIPS 204, Algorithm 16: coefficient bits, least significant first, packed LE
    x = np.asarray(a, dtype=_I64)
    lead = x.shape[:-1]
    weights = _PACK_WEIGHTS.get(width)
    if weights is not None:
        # A group of g coefficients fills w g / 8 whole bytes: its fields do not
        # overlap, so their weighted sum (one uint64 matrix-vector product) is the
        # group's bits; its little-endian bytes are the packed bytes.
        g = len(weights)
        fields = (x & ((1 << width) - 1)).astype(np.uint64).reshape(*lead, N // g, g)
        words: npt.NDArray[np.uint8] = np.matmul(fields, weights)[..., None].view(np.uint8)
        return words[..., : width * g // 8].reshape(*lead, 32 * width)
    wide = _PACK_WIDE.get(width)
    if wide is not None:
        # A group of w g bits in (64, 128] (w = 13, 18): the low word is the weighted
        # sum wrapped mod 2^64 (uint64 arithmetic), the high word the parts of the
        # fields above bit 63, shifted down; each is an OR of disjoint fields.
        g = _PACK_GROUP[width]
        low_w, right, left = wide
        fields = (x & ((1 << width) - 1)).astype(np.uint64).reshape(*lead, N // g, g)
        low = np.matmul(fields, low_w)[..., None].view(np.uint8)
        high = ((fields >> right) << left).sum(axis=-1, dtype=np.uint64)[..., None]
        tail = high.view(np.uint8)[..., : width * g // 8 - 8]
        return np.concatenate([low, tail], axis=-1).reshape(*lead, 32 * width)
    bits = ((x[..., None] >> np.arange(width, dtype=_I64)) & 1).astype(np.uint8)
    flat = bits.reshape((*lead, N * width))
    return np.packbits(flat, axis=-1, bitorder="little")


# For SimpleBitUnpack of width w: coefficient i starts at bit i*w, i.e. at byte
# (i*w) >> 3, bit (i*w) & 7, and spans at most 4 bytes (w <= 23). Per byte-aligned
# group of g coefficients (w g / 8 bytes), the start byte and bit of each member.
_UNPACK_AT = {
    w: (np.arange(g) * w >> 3, (np.arange(g) * w & 7).astype(np.uint64))
    for w, g in _PACK_GROUP.items()
}


def bit_unpack(b: npt.NDArray[np.uint8], width: int) -> Poly:
    # FIPS 204, Algorithm 18: a little-endian 64-bit read at each coefficient's first
    # byte (fixed, public positions: a strided view over each byte-aligned group),
    # shifted and masked.
    raw = np.asarray(b, dtype=np.uint8)
    lead = raw.shape[:-1]
    n = raw.shape[-1]
    if n != 32 * width:
        raise ValueError(f"bit_unpack of width {width} expects {32 * width} bytes, got {n}")
    g = _PACK_GROUP[width]
    group = width * g // 8
    rows = raw.size // n if n else 0
    flat = np.zeros(raw.size + 8, dtype=np.uint8)  # 8 more bytes: the last reads
    flat[: raw.size] = raw.reshape(-1)
    words = np.ndarray((rows, N // g, group), dtype="<u8", buffer=flat, strides=(n, group, 1))
    start, shift = _UNPACK_AT[width]
    fields = (words[:, :, start] >> shift) & np.uint64((1 << width) - 1)
    out: Poly = fields.astype(_I64).reshape(*lead, N)
    return out


# --- Challenge products (composites challenge_prepare / challenge_mul) ----------------
#
# c s for a challenge c in {-1, 0, 1} (tau non-zero) and a short s (|s| <= 2^12: s1,
# s2 within eta, t0 within 2^12) has coefficients of at most tau 2^12 < 2^18, so it is
# computed exactly in floating point: Z[X]/(X^256 + 1) splits over C into
# C[X]/(X^128 - i) and its conjugate, where a real a = a_lo + X^128 a_hi is
# a_lo + i a_hi; with X = theta Y (theta^128 = i) that ring is C[Y]/(Y^128 - 1),
# a cyclic convolution: a complex FFT of 128 points. The rounding error of the
# transforms is of order 2^-53 log2(128) |c|_2 |s|_2 < 2^-30 (|c|_2 <= 8,
# |s|_2 <= 2^16), far from 1/2, so rounding gives the exact integers (tests:
# tests/test_arith_mldsa.py, extreme inputs against the composed NTT products).
# Fixed-length float arithmetic: no branch, index or reduction on the secret values.

_HALF = N // 2
_TWIST = np.exp(1j * np.pi * np.arange(_HALF) / N)  # theta^j, theta = e^(i pi / 256)
_UNTWIST = np.conj(_TWIST)


def _twisted_fft(a: Poly) -> npt.NDArray[np.complex128]:
    """(..., 256) real -> FFT_128((a_lo + i a_hi) theta^j): a in C[Y]/(Y^128 - 1)."""
    x = np.asarray(a)
    z = np.empty((*x.shape[:-1], _HALF), dtype=np.complex128)
    z.real = x[..., :_HALF]
    z.imag = x[..., _HALF:]
    z *= _TWIST
    out: npt.NDArray[np.complex128] = np.fft.fft(z)
    return out


def challenge_prepare(small: Poly) -> npt.NDArray[np.complex128]:
    # FIPS 204, Algorithm 7 lines 2-5: the key's s1, s2, t0 in the transform domain
    # above (in place of their NTT), once per signature.
    return _twisted_fft(small)


def challenge_mul(c: Poly, prepared: npt.NDArray[np.complex128]) -> Poly:
    # FIPS 204, Algorithm 7 lines 19-24 (<<c s1>>, <<c s2>>, <<c t0>>): exact, centred.
    r = np.fft.ifft(_twisted_fft(c)[:, None] * prepared[None])
    r *= _UNTWIST
    out = np.empty((*r.shape[:-1], N), dtype=_F64)
    out[..., :_HALF] = r.real
    out[..., _HALF:] = r.imag
    np.rint(out, out=out)
    products: Poly = out.astype(_I64)
    return products


def mod_q(x: Poly) -> Poly:
    """Canonical [0, q) for x in (-q, 2q), branch-free (int32 inside, in place)."""
    y = np.asarray(x).astype(_I32)
    y += (y >> 31) & Q
    y -= Q
    y += (y >> 31) & Q
    return y.astype(_I64)


def centre(x: Poly) -> Poly:
    """x mod± q for canonical x, branch-free."""
    y = np.asarray(x, dtype=_I64)
    return y - ((((Q - 1) // 2 - y) >> 63) & Q)


KERNELS: dict[str, Any] = kernel_table(MLDSAKernels, globals())
