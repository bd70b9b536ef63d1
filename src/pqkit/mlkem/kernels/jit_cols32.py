"""32-bit column-layout kernels for the ``jit`` ML-KEM batch operations
(:mod:`pqkit.mlkem.kernels.jit_batch`): the NTT and inverse NTT of many polynomials
in lock-step, and the noise sampled straight into columns.

The batch kernels hold the polynomials of 8 items as the columns of a (256, cols)
array, so that every butterfly is one loop over the columns that LLVM vectorises.
:func:`pqkit.mlkem.kernels.jit._ntt_cols` does that on int64 (4 lanes of a 256-bit
vector, and a 64-bit multiply of 3 micro-operations); here the columns are int32:
twice the lanes and a cheaper multiply, about 2x the speed of a transform
(docs/decisions.md, "Batch on 2 cores").

Every product zeta a mod q is reduced exactly by Shoup's method in 32 bits
(:func:`_mulq`), so every value these transforms produce equals the int64 ones'
(the lazy bounds are the same: after the NTT below 8q; the inverse NTT canonical):
the tests compare them. No branch, ``%`` or division on the values; every
intermediate is cast back to int32 so that LLVM keeps the loops in 32-bit lanes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pqkit.arith._jit import jit, jit_inline
from pqkit.mlkem.kernels.jit import _GAMMAS, _barrett, _cbd_coef, _cbd_sums
from pqkit.mlkem.kernels.tables import MLKEM_GAMMAS as GAMMAS
from pqkit.mlkem.kernels.tables import MLKEM_N_INV as _N_INV
from pqkit.mlkem.kernels.tables import MLKEM_Q as Q
from pqkit.mlkem.kernels.tables import MLKEM_ZETAS as ZETAS

__all__: list[str] = []

_ZETAS32 = np.array(ZETAS, dtype=np.int32)
_SHOUP32 = np.array([(z << 16) // Q for z in ZETAS], dtype=np.int32)
"""floor(zeta 2^16 / q) of every zeta: Shoup's precomputed quotients."""
_LAST = ZETAS[1] * _N_INV % Q  # the last inverse layer's zeta, times 128^-1
_LAST_SHOUP = (_LAST << 16) // Q
_N_INV_SHOUP = (_N_INV << 16) // Q


@jit_inline
def _mulq(a: Any, z: Any, zs: Any) -> Any:
    """a z mod q, exact, for 0 <= a < 2^15 and 0 <= z < q with zs = floor(z 2^16 /
    q) (Shoup): the quotient estimate floor(a zs / 2^16) is floor(a z / q) or one
    less, so a z minus it times q is in [0, 2q), and one masked subtraction makes it
    canonical. a zs < 2^31 and a z < 2^27: every step fits int32."""
    p = np.int32(a * z)
    est = np.int32(np.int32(a * zs) >> 16)
    r = np.int32(np.int32(p - np.int32(est * Q)) - Q)
    return np.int32(r + ((r >> 31) & Q))


@jit_inline
def _csub32(x: Any) -> Any:
    """x mod q for 0 <= x < 2q (sign mask, no branch), in int32."""
    r = np.int32(x - Q)
    return np.int32(r + ((r >> 31) & Q))


@jit
def _ntt_cols32(w: Any) -> None:
    """FIPS 203, Algorithm 9 (NTT) on every column of the int32 array w (256, cols),
    in place, in lock-step: :func:`pqkit.mlkem.kernels.jit._ntt_cols`'s layers and
    lazy bound (canonical in, below 8q out, the same values)."""
    cols = w.shape[1]
    i = 1
    length = 128
    while length >= 2:
        for start in range(0, 256, 2 * length):
            zeta = _ZETAS32[i]
            zs = _SHOUP32[i]
            i += 1
            for j in range(start, start + length):
                lo = w[j]
                hi = w[j + length]
                for r in range(cols):
                    t = _mulq(hi[r], zeta, zs)  # hi < 7q < 2^15
                    u = lo[r]
                    hi[r] = np.int32(u - t + Q)
                    lo[r] = np.int32(u + t)
        length >>= 1


@jit
def _intt_cols32(w: Any) -> None:
    """FIPS 203, Algorithm 10 (NTT^-1) on every column of the int32 array w (256,
    cols), in place, in lock-step, with 128^-1 folded into the last layer as
    :func:`pqkit.mlkem.kernels.jit._intt_cols`: canonical in, canonical out, the same
    values."""
    # The layer loops repeat jit._intt_cols's on purpose: the same transform in int32.
    cols = w.shape[1]
    i = 127
    length = 2
    while length <= 64:
        for start in range(0, 256, 2 * length):
            zeta = _ZETAS32[i]
            zs = _SHOUP32[i]
            i -= 1
            for j in range(start, start + length):
                lo = w[j]
                hi = w[j + length]
                for r in range(cols):
                    t = lo[r]
                    u = hi[r]
                    lo[r] = _csub32(t + u)
                    hi[r] = _mulq(np.int32(u - t + Q), zeta, zs)  # u - t + q in [1, 2q)
        length <<= 1
    n_inv = np.int32(_N_INV)
    n_inv_s = np.int32(_N_INV_SHOUP)
    last = np.int32(_LAST)
    last_s = np.int32(_LAST_SHOUP)
    for j in range(128):
        lo = w[j]
        hi = w[j + 128]
        for r in range(cols):
            t = lo[r]
            u = hi[r]
            lo[r] = _mulq(np.int32(t + u), n_inv, n_inv_s)  # t + u < 2q
            hi[r] = _mulq(np.int32(u - t + Q), last, last_s)


@jit
def _to_cols32(a: Any) -> Any:
    """(rows, 256) canonical int64 -> (256, rows) int32, by 8 x 8 tiles as
    :func:`pqkit.mlkem.kernels.jit._to_cols` (values below q: no loss)."""
    rows = a.shape[0]
    w = np.empty((256, rows), dtype=np.int32)
    full = rows - rows % 8
    for r0 in range(0, full, 8):
        for j0 in range(0, 256, 8):
            for jj in range(8):
                for rr in range(8):
                    w[j0 + jj, r0 + rr] = np.int32(a[r0 + rr, j0 + jj])
    for r in range(full, rows):
        for j in range(256):
            w[j, r] = np.int32(a[r, j])
    return w


@jit_inline
def _cbd_cols32(buf: Any, first: int, count: int, eta: int, out: Any) -> None:
    """FIPS 203, Algorithm 8 (SamplePolyCBD_eta) in column layout, int32: column j 8
    + i of out (256, 8 count) is the polynomial of the PRF output buf[i, first + j]
    of item i (buf (b, ., >= 64 eta)); a column i >= b repeats item b - 1. The bit
    sums of a word of the 8 items first (:func:`pqkit.mlkem.kernels.jit._cbd_sums`),
    then each coefficient of the 8 items as one loop over the items (a row of 8
    adjacent values: 2x the speed of writing one column at a time). eta is 2 or 3."""
    b = buf.shape[0]
    g = out.shape[1] // count
    per = 8 if eta == 2 else 4
    sums = np.empty(g, dtype=np.int64)
    for j in range(count):
        for w in range(256 // per):
            for i in range(g):
                sums[i] = _cbd_sums(buf[min(i, b - 1), first + j], w, eta)
            for m in range(per):
                for i in range(g):
                    out[per * w + m, g * j + i] = np.int32(_cbd_coef(sums[i], m, eta))


@jit
def _decrypt_cols32(s: Any, u: Any, k: int) -> Any:
    """FIPS 203, Algorithm 15 lines 5-6 for the g items of
    :func:`pqkit.mlkem.kernels.jit._decrypt_cols_in`'s columns (s, u: int64 (256, g
    k)), in lock-step, as :func:`pqkit.mlkem.kernels.jit._decrypt_cols` but with the
    transforms in int32 lanes: NTT(u') (:func:`_ntt_cols32`, each value then reduced
    by a Barrett step), s_hat^T o NTT(u') (terms below q^2, at most 8 summed, one
    Barrett step) and the inverse NTT with 128^-1 (:func:`_intt_cols32`) -> int64
    (256, g), column i item i's NTT^-1(s_hat^T o NTT(u')), canonical (int64, the
    type the single operations' message decoding is already compiled for)."""
    g = u.shape[1] // k
    u32 = np.empty(u.shape, dtype=np.int32)
    for p in range(256):
        for c in range(g * k):
            u32[p, c] = np.int32(u[p, c])  # decompressed: at most q
    _ntt_cols32(u32)
    x = np.zeros((256, g), dtype=np.int64)
    for j in range(k):
        for p in range(128):
            gamma = _GAMMAS[p]
            for i in range(g):
                c = j * g + i
                b0 = _barrett(np.int64(u32[2 * p, c]))
                b1 = _barrett(np.int64(u32[2 * p + 1, c]))
                a0 = s[2 * p, c]
                a1 = s[2 * p + 1, c]
                x[2 * p, i] += a0 * b0 + a1 * _barrett(b1 * gamma)
                x[2 * p + 1, i] += a0 * b1 + a1 * b0
    out = np.empty((256, g), dtype=np.int32)
    for p in range(256):
        for i in range(g):
            out[p, i] = np.int32(_barrett(x[p, i]))
    _intt_cols32(out)
    for p in range(256):  # back to int64: the type _decrypt_message is compiled for
        for i in range(g):
            x[p, i] = out[p, i]
    return x


_GAMMAS32 = np.array(GAMMAS, dtype=np.int32)
_GAMMAS_SHOUP32 = np.array([(z << 16) // Q for z in GAMMAS], dtype=np.int32)
_ONE_SHOUP = (1 << 16) // Q


@jit
def _reduce_cols32(w: Any) -> None:
    """Every value of the int32 array w (256, cols), each below 2^15 (an NTT's
    output: below 8q), reduced mod q in place (:func:`_mulq` by 1)."""
    one = np.int32(1)
    one_s = np.int32(_ONE_SHOUP)
    for p in range(256):
        for c in range(w.shape[1]):
            w[p, c] = _mulq(w[p, c], one, one_s)


@jit
def _mulcache_cols32(y: Any) -> Any:
    """The BaseCaseMultiply constants of the canonical int32 columns y (256, cols):
    (128, cols), [p, c] = y[2p + 1, c] gamma_p mod q (FIPS 203, Algorithm 11 line
    4's b1 zeta^(2 BitRev7(p) + 1), as :func:`pqkit.mlkem.kernels.jit._mulcache`)."""
    cols = y.shape[1]
    z = np.empty((128, cols), dtype=np.int32)
    for p in range(128):
        gamma = _GAMMAS32[p]
        gamma_s = _GAMMAS_SHOUP32[p]
        for c in range(cols):
            z[p, c] = _mulq(y[2 * p + 1, c], gamma, gamma_s)
    return z


@jit_inline
def _basemul_cols32(acc: Any, ac: int, x: Any, xc: int, y: Any, z: Any, yc: int, g: int) -> None:
    """acc[:, ac + i] += BaseCaseMultiply of x[:, xc + i] and y[:, yc + i] for the
    8 items i in lock-step (FIPS 203, Algorithms 11-12; z: y's
    :func:`_mulcache_cols32`), canonical int32 inputs, unreduced: each term is
    below 2 q^2 < 2^24.4 and callers sum at most 4 (k <= 4), below 2^26.4: int32."""
    for p in range(128):
        for i in range(g):
            a0 = x[2 * p, xc + i]
            a1 = x[2 * p + 1, xc + i]
            b0 = y[2 * p, yc + i]
            b1 = y[2 * p + 1, yc + i]
            acc[2 * p, ac + i] = np.int32(acc[2 * p, ac + i] + a0 * b0 + a1 * z[p, yc + i])
            acc[2 * p + 1, ac + i] = np.int32(acc[2 * p + 1, ac + i] + a0 * b1 + a1 * b0)


@jit
def _barrett_cols32(w: Any) -> None:
    """Every value of the int32 array w (256, cols), each below 2^28 (summed
    products), reduced mod q in place by :func:`pqkit.mlkem.kernels.jit._barrett` in
    64 bits."""
    for p in range(256):
        for c in range(w.shape[1]):
            w[p, c] = np.int32(_barrett(np.int64(w[p, c])))
