"""The ``jit`` backend for q = 8380417: compiled loops over coefficients (Numba).

Contracts: :class:`pqkit.mldsa.kernels.contract.MLDSAKernels`, the same as the ``numpy`` and
``ref`` backends; thin Python wrappers flatten the leading batch axes to rows
(:mod:`pqkit.arith._jit`) around one ``@njit`` loop nest per kernel.

Secret-data rules (docs/architecture.md §8): no ``%``, ``//`` or branches on coefficient
values. The NTTs and the pointwise products run on exact float64 integers, reduced
by a floating-point quotient (:func:`_reduce_f64`), sums by
the folding 2^23 = 2^13 - 1 (mod q) (:func:`_fold`); conditional corrections are sign-mask
arithmetic (``x += (x >> 63) & q``). Decompose and Power2Round use the
multiply-and-shift forms of the ``numpy`` backend; maxima and absolute values are
computed with masks.

NOTE: as in the reference implementations, the rejection samplers' loops run
until enough samples were accepted and SampleInBall swaps at the positions its
(public, derived from c_tilde) stream names. RejBoundedPoly writes every candidate
and advances by an acceptance bit, so accepted secret values go through no branch;
only how many candidates were rejected shows, which is independent of them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.arith._jit import as_bytes, as_polys, bcast_rows, check_width, jit, pack_le, unpack_le
from pqkit.arith._jit import jit_inline as inline
from pqkit.arith.api import Poly, kernel_table
from pqkit.arith.tables import N
from pqkit.mldsa.kernels.contract import MLDSAKernels
from pqkit.mldsa.kernels.tables import MLDSA_DECOMPOSE
from pqkit.mldsa.kernels.tables import MLDSA_Q as Q
from pqkit.mldsa.kernels.tables import MLDSA_ZETAS as ZETAS

__all__ = ["KERNELS"]

_HALF_Q = (Q - 1) // 2
_GAMMA2_32 = (Q - 1) // 32
_GAMMA2_88 = (Q - 1) // 88
_HB32_M, _HB32_S = MLDSA_DECOMPOSE[_GAMMA2_32]  # HighBits multiply-and-shift (arith.tables)
_HB88_M, _HB88_S = MLDSA_DECOMPOSE[_GAMMA2_88]


# --- reductions ----------------------------------------------------------------------


@jit
def _fold(x: int) -> int:
    """A representative of x mod q in (-0.25q, 1.25q) for |x| < 2^31."""
    return (x & 0x7FFFFF) + (x >> 23) * 8191


@jit
def _freeze(x: int) -> int:
    """The canonical representative in [0, q) of |x| < 2^31, branch-free."""
    x = _fold(x)
    x += (x >> 63) & Q
    x -= Q
    return x + ((x >> 63) & Q)


# --- FIPS 204, Algorithms 41, 42 and 45 ------------------------------------------------


# The transforms run on float64 holding exact integers: every product below 2^53 is
# exact, and _reduce_f64 subtracts k q with k = rint(x / q) computed from x * (1/q).
# For |x| < 2^53 the computed quotient is within 2^-21 of x / q, so k is the nearest
# integer or (near a half) its neighbour, the products k q and the difference are
# exact, and the result is congruent to x with |result| < 0.51 q (< 1.01 q under any
# rounding mode). Floating-point multiply/add time does not depend on the (integral,
# never subnormal) values. Four such operations per butterfly vectorise well, where
# the int64 Montgomery product does not (no 64-bit vector multiply before AVX-512).
_QF = float(Q)
_QINV_F = 1.0 / Q
_ZETAS_F = np.array(ZETAS, dtype=np.float64)
_NEG_ZETAS_F = np.array([(-z) % Q for z in ZETAS], dtype=np.float64)
_F_INV = float(pow(256, -1, Q))  # FIPS 204 Algorithm 42 line 21


@jit
def _reduce_f64(x: float) -> float:
    """A representative of x mod q with |result| < 1.01 q, for integral |x| < 2^53."""
    k: float = np.rint(x * _QINV_F)
    return x - k * _QF


# Layout and layer merging. A butterfly loop over a layer's pairs vectorises when
# its run of consecutive coefficients is long, and every pass over the row loads and
# stores it once. So the layers run three (or two) at a time, the values of a group
# of 8 (or 4) coefficients held in registers: lengths 128-64-32 and 16-8 on the row
# as it is, and the last three (4, 2, 1), whose runs are too short to vectorise, on
# the row's (8, 32) transpose X[j, b] = w[8 b + j]: there the 8 coefficients of block
# b are the 8 rows of column b, and one loop over the 32 blocks does all three layers
# with the blocks' zetas as vectors (the tables below, indexed as FIPS 204's loops
# consume ZETAS: layer length 4 uses m = 32 + b, length 2 m = 64 + 2b + j // 4,
# length 1 m = 128 + 4b + j // 2; NTT^-1 the same positions of the negated zetas,
# m = 255 - g counted down). Every coefficient goes through the same operations in
# the same order as in the one-layer-at-a-time loops, so the results are the same.
_B = np.arange(32)
_Z4_F = _ZETAS_F[32 + _B].copy()
_Z2_F = np.stack([_ZETAS_F[64 + 2 * _B + h] for h in range(2)])
_Z1_F = np.stack([_ZETAS_F[128 + 4 * _B + q] for q in range(4)])
_N1_F = np.stack([_NEG_ZETAS_F[255 - 4 * _B - q] for q in range(4)])
_N2_F = np.stack([_NEG_ZETAS_F[127 - 2 * _B - h] for h in range(2)])
_N4_F = _NEG_ZETAS_F[63 - _B].copy()

# NOTE: for compile time, the butterflies and the passes below are plain compiled
# functions, which LLVM inlines (the same speed here), not ``jit_inline`` ones:
# Numba's inliner copied and typed them again at each of their dozens of call sites,
# and the ML-DSA warm-up cost 10 s more CPU than before the merged layers, against
# 3 s this way (docs/decisions.md, "Issue 26: ML-DSA signing").


@jit
def _fly(z: float, u: float, v: float) -> tuple[float, float]:
    """The forward butterfly (u + z v, u - z v), z v reduced (Algorithm 41 lines 8-10)."""
    t = _reduce_f64(z * v)
    return u + t, u - t


@jit
def _unfly(z: float, t: float, u: float, reduce: bool) -> tuple[float, float]:
    """The inverse butterfly (t + u, z (t - u)), the product reduced (Algorithm 42
    lines 9-11); the sum too where ``reduce`` (a public constant) says so."""
    s = t + u
    if reduce:
        s = _reduce_f64(s)
    return s, _reduce_f64(z * (t - u))


@jit
def _ntt_8(w: Any, length: int) -> None:
    """Forward layers of lengths ``length``, ``length`` / 2 and / 4 in one pass."""
    q = length >> 2
    m0 = 128 // length
    for g in range(m0):
        m = m0 + g
        z = _ZETAS_F[m]
        za, zb = _ZETAS_F[2 * m], _ZETAS_F[2 * m + 1]
        z0, z1 = _ZETAS_F[4 * m], _ZETAS_F[4 * m + 1]
        z2, z3 = _ZETAS_F[4 * m + 2], _ZETAS_F[4 * m + 3]
        base = 2 * length * g
        for j in range(base, base + q):
            a0, a4 = _fly(z, w[j], w[j + 4 * q])
            a1, a5 = _fly(z, w[j + q], w[j + 5 * q])
            a2, a6 = _fly(z, w[j + 2 * q], w[j + 6 * q])
            a3, a7 = _fly(z, w[j + 3 * q], w[j + 7 * q])
            a0, a2 = _fly(za, a0, a2)
            a1, a3 = _fly(za, a1, a3)
            a4, a6 = _fly(zb, a4, a6)
            a5, a7 = _fly(zb, a5, a7)
            w[j], w[j + q] = _fly(z0, a0, a1)
            w[j + 2 * q], w[j + 3 * q] = _fly(z1, a2, a3)
            w[j + 4 * q], w[j + 5 * q] = _fly(z2, a4, a5)
            w[j + 6 * q], w[j + 7 * q] = _fly(z3, a6, a7)


@jit
def _ntt_4(w: Any, length: int) -> None:
    """Forward layers of lengths ``length`` and ``length`` / 2 in one pass."""
    h = length >> 1
    for base in range(0, 256, 2 * length):
        m = (256 + base) // (2 * length)  # 128 / length groups before this layer's
        z, za, zb = _ZETAS_F[m], _ZETAS_F[2 * m], _ZETAS_F[2 * m + 1]
        for j in range(base, base + h):
            a0, a2 = _fly(z, w[j], w[j + 2 * h])
            a1, a3 = _fly(z, w[j + h], w[j + 3 * h])
            w[j], w[j + h] = _fly(za, a0, a1)
            w[j + 2 * h], w[j + 3 * h] = _fly(zb, a2, a3)


@jit
def _ntt_last(x: Any) -> None:
    """Forward layers of lengths 4, 2 and 1 on the transpose X, the blocks as vectors."""
    for b in range(32):
        a0, a4 = _fly(_Z4_F[b], x[0, b], x[4, b])
        a1, a5 = _fly(_Z4_F[b], x[1, b], x[5, b])
        a2, a6 = _fly(_Z4_F[b], x[2, b], x[6, b])
        a3, a7 = _fly(_Z4_F[b], x[3, b], x[7, b])
        a0, a2 = _fly(_Z2_F[0, b], a0, a2)
        a1, a3 = _fly(_Z2_F[0, b], a1, a3)
        a4, a6 = _fly(_Z2_F[1, b], a4, a6)
        a5, a7 = _fly(_Z2_F[1, b], a5, a7)
        x[0, b], x[1, b] = _fly(_Z1_F[0, b], a0, a1)
        x[2, b], x[3, b] = _fly(_Z1_F[1, b], a2, a3)
        x[4, b], x[5, b] = _fly(_Z1_F[2, b], a4, a5)
        x[6, b], x[7, b] = _fly(_Z1_F[3, b], a6, a7)


@jit
def _intt_first(x: Any) -> None:
    """Inverse layers of lengths 1, 2 and 4 on the transpose X, the blocks as vectors."""
    for b in range(32):
        a0, a1 = _unfly(_N1_F[0, b], x[0, b], x[1, b], False)
        a2, a3 = _unfly(_N1_F[1, b], x[2, b], x[3, b], False)
        a4, a5 = _unfly(_N1_F[2, b], x[4, b], x[5, b], False)
        a6, a7 = _unfly(_N1_F[3, b], x[6, b], x[7, b], False)
        a0, a2 = _unfly(_N2_F[0, b], a0, a2, False)
        a1, a3 = _unfly(_N2_F[0, b], a1, a3, False)
        a4, a6 = _unfly(_N2_F[1, b], a4, a6, False)
        a5, a7 = _unfly(_N2_F[1, b], a5, a7, False)
        x[0, b], x[4, b] = _unfly(_N4_F[b], a0, a4, False)
        x[1, b], x[5, b] = _unfly(_N4_F[b], a1, a5, False)
        x[2, b], x[6, b] = _unfly(_N4_F[b], a2, a6, False)
        x[3, b], x[7, b] = _unfly(_N4_F[b], a3, a7, False)


@jit
def _intt_4(w: Any, length: int, reduce: bool) -> None:
    """Inverse layers of lengths ``length`` and 2 ``length`` in one pass; the first
    layer's sums reduced where ``reduce`` says so."""
    m0 = 128 // length  # the first group's zeta index, counted down: m0 + (m0 - 1 - g)
    for g in range(m0 // 2):
        zp = _NEG_ZETAS_F[2 * m0 - 1 - 2 * g]
        zq = _NEG_ZETAS_F[2 * m0 - 2 - 2 * g]
        z = _NEG_ZETAS_F[m0 - 1 - g]
        base = 4 * length * g
        for j in range(base, base + length):
            a0, a1 = _unfly(zp, w[j], w[j + length], reduce)
            a2, a3 = _unfly(zq, w[j + 2 * length], w[j + 3 * length], reduce)
            w[j], w[j + 2 * length] = _unfly(z, a0, a2, False)
            w[j + length], w[j + 3 * length] = _unfly(z, a1, a3, False)


@jit
def _intt_8(w: Any, length: int) -> None:
    """Inverse layers of lengths ``length``, 2 ``length`` and 4 ``length`` in one pass."""
    m0 = 128 // length
    for g in range(m0 // 4):
        z0 = _NEG_ZETAS_F[2 * m0 - 1 - 4 * g]
        z1 = _NEG_ZETAS_F[2 * m0 - 2 - 4 * g]
        z2 = _NEG_ZETAS_F[2 * m0 - 3 - 4 * g]
        z3 = _NEG_ZETAS_F[2 * m0 - 4 - 4 * g]
        za = _NEG_ZETAS_F[m0 - 1 - 2 * g]
        zb = _NEG_ZETAS_F[m0 - 2 - 2 * g]
        z = _NEG_ZETAS_F[m0 // 2 - 1 - g]
        base = 8 * length * g
        q = length
        for j in range(base, base + q):
            a0, a1 = _unfly(z0, w[j], w[j + q], False)
            a2, a3 = _unfly(z1, w[j + 2 * q], w[j + 3 * q], False)
            a4, a5 = _unfly(z2, w[j + 4 * q], w[j + 5 * q], False)
            a6, a7 = _unfly(z3, w[j + 6 * q], w[j + 7 * q], False)
            a0, a2 = _unfly(za, a0, a2, False)
            a1, a3 = _unfly(za, a1, a3, False)
            a4, a6 = _unfly(zb, a4, a6, False)
            a5, a7 = _unfly(zb, a5, a7, False)
            w[j], w[j + 4 * q] = _unfly(z, a0, a4, False)
            w[j + q], w[j + 5 * q] = _unfly(z, a1, a5, False)
            w[j + 2 * q], w[j + 6 * q] = _unfly(z, a2, a6, False)
            w[j + 3 * q], w[j + 7 * q] = _unfly(z, a3, a7, False)


# The transposes around the short layers cost about a fifth of a transform. Signing
# skips them: its NTT-domain values stay in the transposed order P (position
# 32 j + b holds NTT coefficient 8 b + j: the rows of X one after the other), which
# the pointwise products do not care about as long as both factors share it. Only
# A_hat, from ExpandA in the standard order, is put into P once per signature
# (:func:`_to_p`). ``perm`` (a compile-time constant after inlining) picks P.


@inline
def _ntt_rows(a: Any, perm: bool) -> Any:
    """NTT of every row of a, in the standard order or (``perm``) in P."""
    rows = a.shape[0]
    out = np.empty((rows, 256), dtype=np.int64)
    w = np.empty(256, dtype=np.float64)
    x = np.empty((8, 32), dtype=np.float64)
    xf = x.reshape(256)
    for r in range(rows):
        for j in range(256):
            w[j] = a[r, j]
        _ntt_8(w, 128)  # lengths 128, 64, 32
        _ntt_4(w, 16)  # lengths 16, 8
        for b in range(32):
            for j in range(8):
                x[j, b] = w[8 * b + j]
        _ntt_last(x)  # lengths 4, 2, 1
        if perm:
            for i in range(256):
                out[r, i] = _freeze(np.int64(xf[i]))
        else:
            for b in range(32):
                for j in range(8):
                    out[r, 8 * b + j] = _freeze(np.int64(x[j, b]))
    return out


@jit
def _ntt(a: Any) -> Any:
    """FIPS 204, Algorithm 41 (NTT) per row, on float64. Inputs in (-q, q); each layer
    adds at most 1.01 q to the bound, so values stay below 10 q < 2^27 and products
    below 2^50 (exact). The result goes back to int64 and through :func:`_freeze`.
    Layers three at a time, the last three on the transpose (see above); no branch,
    index or table lookup depends on the values."""
    return _ntt_rows(a, False)


@jit
def _ntt_p(a: Any) -> Any:
    """:func:`_ntt` with the result in the order P (see above)."""
    return _ntt_rows(a, True)


@jit
def _to_p(a: Any) -> Any:
    """Canonical (rows, 256) NTT-domain rows from the standard order into P."""
    out = np.empty_like(a)
    for r in range(a.shape[0]):
        for j in range(8):
            for b in range(32):
                out[r, 32 * j + b] = a[r, 8 * b + j]
    return out


@inline
def _intt_row(src: Any, x: Any, w: Any, out: Any, perm: bool) -> None:
    """NTT^-1 of the row src (standard order, or P with ``perm``) into the int64 row
    out; x (8, 32) and w (256,) float64 scratch."""
    if perm:
        xf = x.reshape(256)
        for i in range(256):
            xf[i] = src[i]
    else:
        for b in range(32):
            for j in range(8):
                x[j, b] = src[8 * b + j]
    _intt_first(x)  # lengths 1, 2, 4
    for b in range(32):
        for j in range(8):
            w[8 * b + j] = x[j, b]
    _intt_4(w, 8, True)  # lengths 8 (sums reduced), 16
    _intt_8(w, 32)  # lengths 32, 64, 128
    for j in range(256):
        out[j] = _freeze(np.int64(_reduce_f64(w[j] * _F_INV)))


@jit
def _intt(a: Any) -> Any:
    """FIPS 204, Algorithm 42 (NTT^-1) per row, including the factor 256^-1, on
    float64. Inputs below 1.01 q in magnitude. Products z (t - u) are reduced below
    1.01 q at once; sums only in the fourth layer: over four layers they at most
    double each time, to below 16.2 q < 2^28, so every product stays below q 2^29 <
    2^53 and the final one (times 256^-1) below 2^51; the result is canonical (and,
    NTT^-1 being linear, the same for every representative of the input). Layers
    three at a time, the first three on the transpose (see above); no branch, index
    or lookup on the values."""
    rows = a.shape[0]
    out = np.empty((rows, 256), dtype=np.int64)
    w = np.empty(256, dtype=np.float64)
    x = np.empty((8, 32), dtype=np.float64)
    for r in range(rows):
        _intt_row(a[r], x, w, out[r], False)
    return out


@inline
def _mul_intt_rows(a_hat: Any, c_hat: Any, perm: bool) -> Any:
    """NTT^-1(a_hat[r] o c_hat) for every row r, inputs in one order (P with ``perm``)."""
    rows = a_hat.shape[0]
    out = np.empty((rows, 256), dtype=np.int64)
    w = np.empty(256, dtype=np.float64)
    x = np.empty((8, 32), dtype=np.float64)
    cf = np.empty(256, dtype=np.float64)
    prod = np.empty(256, dtype=np.float64)
    for i in range(256):
        cf[i] = c_hat[i]
    for r in range(rows):
        for i in range(256):
            prod[i] = _reduce_f64(np.float64(a_hat[r, i]) * cf[i])
        _intt_row(prod, x, w, out[r], perm)
    return out


@jit
def _mul_intt(a_hat: Any, c_hat: Any) -> Any:
    """NTT^-1(a_hat[r] o c_hat) for every row r of canonical (rows, 256) a_hat and a
    canonical (256,) c_hat (FIPS 204, Algorithm 45, then Algorithm 42): each product
    (below q^2 < 2^53, exact) reduced by :func:`_reduce_f64` on its way into the
    inverse transform, without the int64 round trip of :func:`_pointwise_acc`. The
    same canonical results as ``_intt(_pointwise_acc(...))``."""
    return _mul_intt_rows(a_hat, c_hat, False)


@jit
def _mul_intt_p(a_hat: Any, c_hat: Any) -> Any:
    """:func:`_mul_intt` for inputs in the order P (see above)."""
    return _mul_intt_rows(a_hat, c_hat, True)


@inline
def _mat_vec_intt_rows(a_hat: Any, v_hat: Any, t_hat: Any, c_hat: Any, perm: bool) -> Any:
    """NTT^-1(A_hat o v_hat - t_hat o c_hat), inputs in one order (P with ``perm``);
    t_hat may have no rows (then nothing is subtracted). Each row's sum of at most
    8 products, less one, lies in (-2^46, 2^49): exact."""
    k = a_hat.shape[0]
    l = a_hat.shape[1]  # noqa: E741
    out = np.empty((k, 256), dtype=np.int64)
    w = np.empty(256, dtype=np.float64)
    x = np.empty((8, 32), dtype=np.float64)
    vf = np.empty((l, 256), dtype=np.float64)
    acc = np.empty(256, dtype=np.float64)
    for s in range(l):
        for i in range(256):
            vf[s, i] = v_hat[s, i]
    for r in range(k):
        for i in range(256):
            acc[i] = np.float64(a_hat[r, 0, i]) * vf[0, i]
        for s in range(1, l):
            for i in range(256):
                acc[i] += np.float64(a_hat[r, s, i]) * vf[s, i]
        if t_hat.shape[0]:  # public: the shape
            for i in range(256):
                acc[i] -= np.float64(t_hat[r, i]) * np.float64(c_hat[i])
        for i in range(256):
            acc[i] = _reduce_f64(acc[i])
        _intt_row(acc, x, w, out[r], perm)
    return out


@jit
def _mat_vec_intt(a_hat: Any, v_hat: Any) -> Any:
    """NTT^-1(A_hat o v_hat) for canonical (k, l, 256) A_hat and (l, 256) v_hat: the
    row sums of at most 8 products (below 2^49, exact) reduced once, then Algorithm
    42; the same canonical results as ``_intt(_pointwise_acc(...))``."""
    none = np.empty((0, 256), dtype=np.int64)
    return _mat_vec_intt_rows(a_hat, v_hat, none, none[:, 0], False)


@jit
def _mat_vec_intt_p(a_hat: Any, v_hat: Any) -> Any:
    """:func:`_mat_vec_intt` for inputs in the order P (see above)."""
    none = np.empty((0, 256), dtype=np.int64)
    return _mat_vec_intt_rows(a_hat, v_hat, none, none[:, 0], True)


@jit
def _mat_vec_sub_intt(a_hat: Any, v_hat: Any, t_hat: Any, c_hat: Any) -> Any:
    """NTT^-1(A_hat o v_hat - t_hat o c_hat) for canonical inputs, (k, 256) t_hat and
    (256,) c_hat (FIPS 204, Algorithm 8 line 9: A_hat z_hat - c_hat t1_hat), in one
    pass per row as :func:`_mat_vec_intt`."""
    return _mat_vec_intt_rows(a_hat, v_hat, t_hat, c_hat, False)


def ntt(a: Poly) -> Poly:
    x, lead = as_polys(a)
    out: Poly = _ntt(x).reshape(*lead, N)
    return out


def intt(a_hat: Poly) -> Poly:
    x, lead = as_polys(a_hat)
    out: Poly = _intt(x).reshape(*lead, N)
    return out


@jit
def _pointwise_acc(a: Any, b: Any, ia: Any, ib: Any, step_a: int, step_b: int) -> Any:
    """Row r: sum over j of a[ia[r], j] * b[ib[r], j] mod q, for canonical inputs.

    On float64, as the NTTs: every product is below q^2 < 2^46 and at most 8 of them
    sum to less than 2^49 < 2^53, so products and sums are exact integers; one
    :func:`_reduce_f64` and :func:`_freeze` give the canonical result. (The int64
    Montgomery form this replaced needs 64-bit vector multiplies; these vectorise
    on AVX2 too.) No branch or index depends on the values."""
    m = max(a.shape[1], b.shape[1])
    out = np.empty((ia.shape[0], 256), dtype=np.int64)
    acc = np.empty(256, dtype=np.float64)
    for r in range(ia.shape[0]):
        ra = ia[r]
        rb = ib[r]
        acc[:] = 0.0
        for j in range(m):
            x = a[ra, j * step_a]
            y = b[rb, j * step_b]
            for i in range(256):
                acc[i] += np.float64(x[i]) * np.float64(y[i])
        for i in range(256):
            out[r, i] = _freeze(np.int64(_reduce_f64(acc[i])))
    return out


def _acc(a_hat: Poly, b_hat: Poly, m_axis: bool) -> Poly:
    a_arr = np.asarray(a_hat)
    b_arr = np.asarray(b_hat)
    if not m_axis:  # pointwise_mul: a length-1 sum axis
        a_arr, b_arr = a_arr[..., None, :], b_arr[..., None, :]
    if a_arr.ndim < 2 or b_arr.ndim < 2:
        raise ValueError("pointwise_acc expects (..., m, 256) arrays")
    a, _ = as_polys(a_arr)
    b, _ = as_polys(b_arr)
    ma, mb = a_arr.shape[-2], b_arr.shape[-2]
    if ma != mb and 1 not in (ma, mb):
        raise ValueError(f"pointwise_acc: axes of {ma} and {mb} terms do not broadcast")
    if max(ma, mb) > 8:
        raise ValueError("pointwise_acc: at most 8 terms (FIPS 204 matrices have l <= 7)")
    lead, ia, ib = bcast_rows(a_arr.shape[:-2], b_arr.shape[:-2])
    out = _pointwise_acc(
        a.reshape(-1, ma, N), b.reshape(-1, mb, N), ia, ib, int(ma > 1), int(mb > 1)
    )
    result: Poly = out.reshape(*lead, N)
    return result


def pointwise_mul(a_hat: Poly, b_hat: Poly) -> Poly:
    # FIPS 204, Algorithm 45 (MultiplyNTT)
    return _acc(a_hat, b_hat, m_axis=False)


def pointwise_acc(a_hat: Poly, b_hat: Poly) -> Poly:
    return _acc(a_hat, b_hat, m_axis=True)


# --- FIPS 204, Algorithms 35-40 (rounding) -------------------------------------------


@jit
def _power2round(x: Any) -> Any:
    # FIPS 204, Algorithm 35 for canonical r: r1 = (r + 2^12 - 1) >> 13, r0 = r - r1 2^13
    r1 = np.empty_like(x)
    r0 = np.empty_like(x)
    for i in range(x.shape[0]):
        h = (x[i] + 4095) >> 13
        r1[i] = h
        r0[i] = x[i] - (h << 13)
    return r1, r0


@jit
def _high(x: int, gamma2: int) -> int:
    """HighBits of canonical x (FIPS 204, Algorithm 37) by multiply-and-shift: a
    fixed-point round(x / 2 gamma2), with the wrap (q - 1) / (2 gamma2) -> 0 by
    masks. gamma2 (public) selects the constants."""
    r1 = (x + 127) >> 7
    if gamma2 == _GAMMA2_32:
        return ((r1 * _HB32_M + (1 << (_HB32_S - 1))) >> _HB32_S) & 15
    r1 = (r1 * _HB88_M + (1 << (_HB88_S - 1))) >> _HB88_S
    return r1 ^ (((43 - r1) >> 63) & r1)


@jit
def _low(x: int, r1: int, gamma2: int) -> int:
    """LowBits given r1 = HighBits(x): x - 2 gamma2 r1, centred (r0 > (q-1)/2 -> r0 - q)."""
    r0 = x - r1 * (2 * gamma2)
    return r0 - (((_HALF_Q - r0) >> 63) & Q)


@jit
def _decompose(x: Any, gamma2: int) -> Any:
    # FIPS 204, Algorithm 36 for canonical r
    r1 = np.empty_like(x)
    r0 = np.empty_like(x)
    for i in range(x.shape[0]):
        h = _high(x[i], gamma2)
        r1[i] = h
        r0[i] = _low(x[i], h, gamma2)
    return r1, r0


@jit
def _make_hint(z: Any, r: Any, gamma2: int) -> Any:
    # FIPS 204, Algorithm 39: HighBits(r) != HighBits(r + z), r + z reduced by a mask
    out = np.empty_like(r)
    for i in range(r.shape[0]):
        s = r[i] + z[i] - Q
        s += (s >> 63) & Q
        out[i] = np.int64(_high(r[i], gamma2) != _high(s, gamma2))
    return out


@jit
def _use_hint(h: Any, r: Any, gamma2: int) -> Any:
    # FIPS 204, Algorithm 40: with h = 1, step r1 towards the side r0 lies on, mod m
    m = (Q - 1) // (2 * gamma2)  # public
    out = np.empty_like(r)
    for i in range(r.shape[0]):
        r1 = _high(r[i], gamma2)
        r0 = _low(r[i], r1, gamma2)
        le0 = ((r0 - 1) >> 63) & 1  # 1 where r0 <= 0
        v = r1 + h[i] * (1 - 2 * le0)  # r1 + 1, r1 - 1 or r1
        v += (v >> 63) & m  # -1 -> m - 1
        v -= m
        out[i] = v + ((v >> 63) & m)  # m -> 0
    return out


def _check_gamma2(gamma2: int) -> None:
    if gamma2 not in (_GAMMA2_32, _GAMMA2_88):
        raise ValueError(f"unsupported gamma2 {gamma2}: FIPS 204 uses (q-1)/88 or (q-1)/32")


def _flat_pair(x: Any, y: Any) -> tuple[Any, Any, tuple[int, ...]]:
    """Two int64 arrays broadcast together and flattened (C-contiguous, 1-D)."""
    a = np.asarray(x, dtype=np.int64)
    b = np.asarray(y, dtype=np.int64)
    if a.shape != b.shape:
        a, b = np.broadcast_arrays(a, b)
    return np.ascontiguousarray(a).reshape(-1), np.ascontiguousarray(b).reshape(-1), a.shape


def power2round(r: Poly) -> tuple[Poly, Poly]:
    x = np.asarray(r, dtype=np.int64)
    r1, r0 = _power2round(np.ascontiguousarray(x).reshape(-1))
    return r1.reshape(x.shape), r0.reshape(x.shape)


def decompose(r: Poly, gamma2: int) -> tuple[Poly, Poly]:
    _check_gamma2(gamma2)
    x = np.asarray(r, dtype=np.int64)
    r1, r0 = _decompose(np.ascontiguousarray(x).reshape(-1), gamma2)
    return r1.reshape(x.shape), r0.reshape(x.shape)


def make_hint(z: Poly, r: Poly, gamma2: int) -> Poly:
    _check_gamma2(gamma2)
    zf, rf, shape = _flat_pair(z, r)
    out: Poly = _make_hint(zf, rf, gamma2).reshape(shape)
    return out


def use_hint(h: Poly, r: Poly, gamma2: int) -> Poly:
    _check_gamma2(gamma2)
    hf, rf, shape = _flat_pair(h, r)
    out: Poly = _use_hint(hf, rf, gamma2).reshape(shape)
    return out


@jit
def _infinity_norm(a: Any) -> Any:
    out = np.empty(a.shape[0], dtype=np.int64)
    best = np.empty(8, dtype=np.int64)  # 8 independent running maxima (shorter chains)
    for r in range(a.shape[0]):
        best[:] = 0
        for i0 in range(0, 256, 8):
            for lane in range(8):
                x = a[r, i0 + lane]
                x += (x >> 63) & Q  # (-q, q) -> [0, q)
                x -= ((_HALF_Q - x) >> 63) & Q  # centre
                s = x >> 63
                x = (x ^ s) - s  # |x|
                d = x - best[lane]
                best[lane] += d & ~(d >> 63)  # max(best, x), by a mask
        m = best[0]
        for lane in range(1, 8):
            d = best[lane] - m
            m += d & ~(d >> 63)
        out[r] = m
    return out


@inline
def _centred_abs(x: int) -> int:
    """|x mod± q| for x in (-q, q), by masks (as :func:`_infinity_norm`)."""
    x += (x >> 63) & Q  # (-q, q) -> [0, q)
    x -= ((_HALF_Q - x) >> 63) & Q  # centre
    s = x >> 63
    return (x ^ s) - s


@inline
def _norm_at_least(a: Any, bound: int) -> int:
    """1 if ||a||_inf >= bound (FIPS 204 §2.3) for flat a in (-q, q), else 0: the
    centred absolute values OR-ed as ``bound - 1 - |x|`` (negative exactly where
    |x| >= bound), one sign bit at the end. No branch; one vectorised loop where
    running maxima would be a chain per lane."""
    flag = 0
    for i in range(a.shape[0]):
        flag |= bound - 1 - _centred_abs(a[i])
    return (flag >> 63) & 1


def infinity_norm(a: Poly) -> npt.NDArray[np.int64]:
    # FIPS 204 §2.3: ||w||_inf = max |w_i mod± q|
    x, lead = as_polys(a)
    out: npt.NDArray[np.int64] = _infinity_norm(x).reshape(lead)
    return out


# --- FIPS 204, Algorithms 14, 15, 29-31 (sampling) -----------------------------------


@jit
def _rej_uniform(buf: Any) -> Any:
    # FIPS 204, Algorithms 30 and 14 on public stream output: branches allowed
    rows, n = buf.shape
    out = np.zeros((rows, 256), dtype=np.int64)
    counts = np.empty(rows, dtype=np.int64)
    for r in range(rows):
        j = 0
        pos = 0
        while j < 256 and pos + 3 <= n:
            z = (
                np.int64(buf[r, pos])
                | (np.int64(buf[r, pos + 1]) << 8)
                | ((np.int64(buf[r, pos + 2]) & 0x7F) << 16)
            )
            pos += 3
            if z < Q:
                out[r, j] = z
                j += 1
        counts[r] = j
    return out, counts


def rej_uniform(buf: npt.NDArray[np.uint8]) -> tuple[Poly, npt.NDArray[np.int64]]:
    raw, lead = as_bytes(buf)
    out, counts = _rej_uniform(raw)
    return out.reshape(*lead, N), counts.reshape(lead)


@jit
def _half_byte(b: int, eta: int) -> tuple[int, int]:
    """FIPS 204, Algorithm 15 (CoeffFromHalfByte) without branches on b: (value,
    1 if accepted else 0). 2 - (b mod 5) is computed as b - 5 floor(b 205 / 2^10)."""
    if eta == 2:  # public
        return 2 - (b - 5 * ((b * 205) >> 10)), ((b - 15) >> 63) & 1
    return 4 - b, ((b - 9) >> 63) & 1


@jit
def _rej_bounded(buf: Any, eta: int) -> Any:
    # FIPS 204, Algorithm 31: every candidate is written at position j, and j
    # advances by its acceptance bit; slot 256 takes the writes past the end.
    rows, n = buf.shape
    out = np.zeros((rows, 257), dtype=np.int64)
    counts = np.empty(rows, dtype=np.int64)
    for r in range(rows):
        j = 0
        pos = 0
        while j < 256 and pos < n:
            z = np.int64(buf[r, pos])
            pos += 1
            v0, ok0 = _half_byte(z & 15, eta)
            out[r, j] = v0
            j += ok0
            v1, ok1 = _half_byte(z >> 4, eta)
            out[r, j] = v1
            j += ok1 & ((j - 256) >> 63)  # only while j < 256
        out[r, j] = 0  # the last write, if it was rejected
        counts[r] = j
    return out[:, :256].copy(), counts


def rej_bounded(buf: npt.NDArray[np.uint8], eta: int) -> tuple[Poly, npt.NDArray[np.int64]]:
    if eta not in (2, 4):
        raise ValueError(f"unsupported eta {eta}: FIPS 204 uses 2 or 4")
    raw, lead = as_bytes(buf)
    out, counts = _rej_bounded(raw, eta)
    return out.reshape(*lead, N), counts.reshape(lead)


@jit
def _sample_in_ball(s: Any, tau: int) -> Any:
    # FIPS 204, Algorithm 29 given the first bytes of H(c_tilde), as a fixed-length
    # masked scan. NOTE: the seed of a rejected or speculative attempt is never
    # published, so no branch, loop bound or index depends on the stream's values:
    # every index byte is visited, accept = (i < 256) & (j <= i) is mask arithmetic.
    # c is held as two 256-bit masks of four words (bit m of ``nz``: c[m] != 0, of
    # ``neg``: c[m] = -1); the swap c[i] <- c[j], c[j] <- sign reads bit j and
    # writes bits i and j of every word through word masks and shifts by i and j
    # (constant time), weighted by accept: a few dozen operations a byte where
    # touching all 256 coefficients took about 500 (signing: about 1.5 against 5 us
    # an attempt here). The coefficients are written out once at the end. Same
    # outputs as the reference, short prefixes too.
    rows, n = s.shape
    out = np.zeros((rows, 256), dtype=np.int64)
    oks = np.zeros(rows, dtype=np.bool_)
    nz = np.zeros(4, dtype=np.int64)
    neg = np.zeros(4, dtype=np.int64)
    for r in range(rows):
        if n < 8:  # public: the prefix length
            continue
        signs = np.int64(0)
        for k in range(8):
            signs |= np.int64(s[r, k]) << (8 * k)  # bit 63 wraps into the sign: masked below
        nz[:] = 0
        neg[:] = 0
        i = np.int64(256 - tau)
        for pos in range(8, n):
            j = np.int64(s[r, pos])
            accept = ((i - 256) >> 63) & ~((i - j) >> 63) & 1
            take = -accept
            nz_j = np.int64(0)  # bit j of the masks: c[j] before the swap
            neg_j = np.int64(0)
            for w in range(4):
                at_j = -np.int64(w == j >> 6)
                nz_j |= (nz[w] >> (j & 63)) & 1 & at_j
                neg_j |= (neg[w] >> (j & 63)) & 1 & at_j
            for w in range(4):  # line 11: c[i] <- c[j]
                at_i = -np.int64(w == i >> 6) & take
                bit = (np.int64(1) << (i & 63)) & at_i
                nz[w] = (nz[w] & ~bit) | ((nz_j << (i & 63)) & at_i)
                neg[w] = (neg[w] & ~bit) | ((neg_j << (i & 63)) & at_i)
            for w in range(4):  # line 12: c[j] <- (-1)^h[i + tau - 256]
                at_j = -np.int64(w == j >> 6) & take
                bit = (np.int64(1) << (j & 63)) & at_j
                nz[w] |= bit
                neg[w] = (neg[w] & ~bit) | (((signs & 1) << (j & 63)) & at_j)
            i += accept
            signs >>= accept  # only bits 0..tau-1 < 63 are read: sign fill is harmless
        oks[r] = i == 256
        for m in range(256):
            b = m & 63
            out[r, m] = ((nz[m >> 6] >> b) & 1) * (1 - 2 * ((neg[m >> 6] >> b) & 1))
    return out, oks


def sample_in_ball(stream: npt.NDArray[np.uint8], tau: int) -> tuple[Poly, npt.NDArray[np.bool_]]:
    raw, lead = as_bytes(stream)
    out, oks = _sample_in_ball(raw, tau)
    return out.reshape(*lead, N), oks.reshape(lead)


# --- FIPS 204, Algorithms 16 and 18 (SimpleBitPack, SimpleBitUnpack) ------------------


def bit_pack(a: Poly, width: int) -> npt.NDArray[np.uint8]:
    # FIPS 204, Algorithm 16: coefficient bits, least significant first, packed LE
    check_width(width, 1, 24)
    x, lead = as_polys(a)
    out: npt.NDArray[np.uint8] = pack_le(x, width).reshape(*lead, 32 * width)
    return out


def bit_unpack(b: npt.NDArray[np.uint8], width: int) -> Poly:
    # FIPS 204, Algorithm 18
    check_width(width, 1, 24)
    raw, lead = as_bytes(b, 32 * width)
    out: Poly = unpack_le(raw, width).reshape(*lead, N)
    return out


# --- reductions at the boundary of the scheme code ----------------------------------


@jit
def _mod_q(x: Any) -> Any:
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        v = x[i] + ((x[i] >> 63) & Q) - Q
        out[i] = v + ((v >> 63) & Q)
    return out


@jit
def _centre(x: Any) -> Any:
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        out[i] = x[i] - ((_HALF_Q - x[i]) >> 63 & Q)
    return out


def mod_q(x: Poly) -> Poly:
    """Canonical [0, q) for x in (-q, 2q), by sign masks (no branch)."""
    a = np.ascontiguousarray(x, dtype=np.int64)
    out: Poly = _mod_q(a.reshape(-1)).reshape(a.shape)
    return out


def centre(x: Poly) -> Poly:
    """x mod± q for canonical x, by a sign mask (no branch)."""
    a = np.ascontiguousarray(x, dtype=np.int64)
    out: Poly = _centre(a.reshape(-1)).reshape(a.shape)
    return out


KERNELS: dict[str, Any] = kernel_table(MLDSAKernels, globals())
