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
from pqkit.mlkem.kernels.jit import (
    _LAST,
    _LAST_SHOUP,
    _N_INV_SHOUP,
    _SHOUP32,
    _ZETAS32,
    _barrett,
    _cbd_coef,
    _cbd_sums,
    _csub32,
    _mulq,
)
from pqkit.mlkem.kernels.tables import MLKEM_GAMMAS as GAMMAS
from pqkit.mlkem.kernels.tables import MLKEM_N_INV as _N_INV
from pqkit.mlkem.kernels.tables import MLKEM_Q as Q

__all__: list[str] = []

GROUP = 16
"""Items per group of the batch kernels (:mod:`pqkit.mlkem.kernels.jit_batch`): the
column kernels below that take no count run exactly this many columns per
polynomial, a constant, so that LLVM keeps their item loops in whole vectors."""


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
    """(rows, 256) canonical integers -> (256, rows) int32 (:func:`_into_cols32`)."""
    w = np.empty((256, a.shape[0]), dtype=np.int32)
    _into_cols32(a, w, 0)
    return w


@jit
def _into_cols32(a: Any, w: Any, c0: int) -> None:
    """Row r of a (rows, 256), canonical integers, into column c0 + r of the int32
    array w (256, .), by 8 x 8 tiles as :func:`pqkit.mlkem.kernels.jit._to_cols`
    (values below q: no loss)."""
    rows = a.shape[0]
    full = rows - rows % 8
    for r0 in range(0, full, 8):
        for j0 in range(0, 256, 8):
            for jj in range(8):
                for rr in range(8):
                    w[j0 + jj, c0 + r0 + rr] = np.int32(a[r0 + rr, j0 + jj])
    for r in range(full, rows):
        for j in range(256):
            w[j, c0 + r] = np.int32(a[r, j])


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


_GAMMAS32 = np.array(GAMMAS, dtype=np.int32)
_GAMMAS_SHOUP32 = np.array([(z << 16) // Q for z in GAMMAS], dtype=np.int32)


_RED_M = -(-(1 << 26) // Q)
"""ceil(2^26 / q) = 20159: floor(x 20159 / 2^26) = floor(x / q) for 0 <= x < 2^16
(the error x (20159 - 2^26 / q) / 2^26 < 2^-10.9 stays below 1 / q; checked for
every such x by the tests), and x 20159 < 2^31."""


@jit
def _reduce_cols32(w: Any) -> None:
    """Every value of the int32 array w (256, cols), each below 2^15 (an NTT's
    output: below 8q), reduced mod q in place: x - q floor(x / q), the quotient by
    :data:`_RED_M`'s multiply-and-shift (two 32-bit multiplies, no correction
    step; :func:`_mulq` by 1 took three and a masked subtraction)."""
    for p in range(256):
        for c in range(w.shape[1]):
            x = w[p, c]
            w[p, c] = np.int32(x - np.int32(np.int32(np.int32(x * _RED_M) >> 26) * Q))


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


@jit
def _matvec_cols32(out: Any, x: Any, y: Any, z: Any, k: int, n_tr: int) -> None:
    """The NTT-domain products of K-PKE for 16 items in lock-step (FIPS 203,
    Algorithms 11-12; 13 line 18, 14 lines 19 and 21, 15 line 6), canonical int32
    columns in and out: column 16 o + i of out is item i's sum over j < k of
    BaseCaseMultiply(x_o[j], y[j]) mod q, y[j] at columns 16 j (z its
    :func:`_mulcache_cols32`), x_o[j] at columns 16 (j k + o) of x for the first
    n_tr outputs (A_hat^T y_hat: x[j k + o] is A_hat[j, o]) and 16 (o k + j) for the
    others (A_hat s_hat; the row after A_hat's k^2 entries, t_hat^T y_hat; with k
    entries only, s_hat^T u_hat).

    Every sum is kept in two 16-lane accumulators per coefficient pair (each term
    below 2 q^2 < 2^24.4, at most 4 summed: int32) and reduced once by
    :func:`pqkit.mlkem.kernels.jit._barrett` as it is stored: about 1.5x the speed
    of a product at a time into the output and a reduction pass. The column is one
    select between two affine forms on purpose: other spellings (a second input
    array for t_hat, a branch per form, steps set per output) kept LLVM from
    vectorising the item loops (1.4x the time, measured)."""
    t0 = np.empty(GROUP, dtype=np.int32)
    t1 = np.empty(GROUP, dtype=np.int32)
    for o in range(out.shape[1] // GROUP):
        for p in range(128):
            for i in range(GROUP):
                t0[i] = 0
                t1[i] = 0
            for j in range(k):
                xc = GROUP * (j * k + o) if o < n_tr else GROUP * (o * k + j)
                yc = GROUP * j
                for i in range(GROUP):
                    a0 = x[2 * p, xc + i]
                    a1 = x[2 * p + 1, xc + i]
                    b0 = y[2 * p, yc + i]
                    t0[i] += a0 * b0 + a1 * z[p, yc + i]
                    t1[i] += a0 * y[2 * p + 1, yc + i] + a1 * b0
            for i in range(GROUP):
                out[2 * p, GROUP * o + i] = np.int32(_barrett(np.int64(t0[i])))
                out[2 * p + 1, GROUP * o + i] = np.int32(_barrett(np.int64(t1[i])))


@jit_inline
def _unpack32(src: Any, base: int, d: int, out: Any, row: int) -> None:
    """ByteDecode_d (FIPS 203, Algorithm 6) for d <= 11 of the 32 d bytes from
    src[base] into the int32 row out[row]: value i is bits [i d, i d + d), read from
    the one to three bytes that hold them (public positions; no byte past the 32 d
    is read). Callers pass d as a constant so that the positions fold."""
    mask = (1 << d) - 1
    for g in range(32):
        for t in range(8):
            off = d * t
            b = base + d * g + (off >> 3)
            word = np.int32(src[b])
            if (off & 7) + d > 8:  # public: the positions
                word = np.int32(word | (np.int32(src[b + 1]) << 8))
            if (off & 7) + d > 16:
                word = np.int32(word | (np.int32(src[b + 2]) << 16))
            out[row, 8 * g + t] = np.int32((word >> (off & 7)) & mask)


@jit_inline
def _decode12_32(src: Any, base: int, out: Any, row: int) -> None:
    """ByteDecode_12 (FIPS 203, Algorithm 6, each value reduced mod q by
    :func:`_csub32`: below 2^12 < 2q) of the 384 bytes from src[base] into the
    int32 row out[row]."""
    for i in range(128):
        b0 = np.int32(src[base + 3 * i])
        b1 = np.int32(src[base + 3 * i + 1])
        b2 = np.int32(src[base + 3 * i + 2])
        out[row, 2 * i] = _csub32(np.int32(b0 | ((b1 & 15) << 8)))
        out[row, 2 * i + 1] = _csub32(np.int32((b1 >> 4) | (b2 << 4)))


@jit
def _decrypt_group(dks: Any, drows: Any, cs: Any, crows: Any, k: int, du: int, dv: int) -> Any:
    """FIPS 203, Algorithm 15 (K-PKE.Decrypt) of the 16 items i with dk_PKE =
    dks[drows[i], :384 k] and c = cs[crows[i]], in column layout, int32 throughout:
    (m (16, 32) uint8, cv int32 (256, 16 (k + 1))), cv's column 16 j + i item i's
    ByteDecode_du(c1[j]) (j < k) or ByteDecode_dv(c2) (j = k): the compressed values
    of c, which decapsulation compares with the re-encryption's before any encoding
    (ByteDecode_d is a bijection for d < 12, so the values are equal exactly where
    the bytes are).

    Lines 1-5: c and s_hat decoded into int32 rows (:func:`_unpack32`,
    :func:`_decode12_32`) and turned into columns by :func:`_to_cols32`'s tiles;
    lines 3 and 6: u' decompressed in the columns, NTT(u') (:func:`_ntt_cols32`,
    reduced), s_hat^T o NTT(u') (:func:`_matvec_cols32`) and the inverse NTT; line 7:
    v' - w decompressed, Compress_1 and the bits packed by shifts, the 16 items in
    lock-step. No branch, ``%`` or lookup on the values (du, dv are spelled out as
    constants so that the bit positions fold)."""
    s_rows = np.empty((GROUP * k, 256), dtype=np.int32)
    c_rows = np.empty((GROUP * (k + 1), 256), dtype=np.int32)
    for i in range(GROUP):
        dk = dks[drows[i]]
        c = cs[crows[i]]
        for j in range(k):
            _decode12_32(dk, 384 * j, s_rows, GROUP * j + i)  # line 5
        for j in range(k + 1):  # lines 1-2
            base = 32 * du * j
            row = GROUP * j + i
            if j == k:
                if dv == 4:
                    _unpack32(c, base, 4, c_rows, row)
                else:
                    _unpack32(c, base, 5, c_rows, row)
            elif du == 10:
                _unpack32(c, base, 10, c_rows, row)
            else:
                _unpack32(c, base, 11, c_rows, row)
    s = _to_cols32(s_rows)
    cv = _to_cols32(c_rows)
    u = np.empty((256, GROUP * k), dtype=np.int32)
    half_u = 1 << du
    for p in range(256):  # line 3: Decompress_du, round(q y / 2^du) half up
        for c in range(GROUP * k):
            u[p, c] = np.int32((cv[p, c] * (2 * Q) + half_u) >> (du + 1))
    _ntt_cols32(u)
    _reduce_cols32(u)
    z = _mulcache_cols32(u)
    x = np.empty((256, GROUP), dtype=np.int32)
    _matvec_cols32(x, s, u, z, k, 0)
    _intt_cols32(x)  # canonical
    # Lines 4, 6, 7: v' = Decompress_dv(c2), w = v' - x mod q (x canonical: v' - x + q
    # in [1, 2q), one masked subtraction), and Compress_1(w) = floor((4 w + q) / 2q)
    # mod 2, which is 1 exactly for q / 4 <= w < 3q / 4, that is 833 <= w <= 2496:
    # two sign masks, in 32 bits.
    bits = np.empty((256, GROUP), dtype=np.int32)
    half_v = 1 << dv
    for p in range(256):
        for i in range(GROUP):
            v = np.int32((cv[p, GROUP * k + i] * (2 * Q) + half_v) >> (dv + 1))
            w = _csub32(np.int32(v - x[p, i] + Q))
            bits[p, i] = np.int32(((832 - w) >> 31) & ((w - 2497) >> 31) & 1)
    m = np.empty((GROUP, 32), dtype=np.uint8)
    acc = np.empty(GROUP, dtype=np.int32)
    for byte in range(32):
        acc[:] = 0
        for t in range(8):
            for i in range(GROUP):
                acc[i] = np.int32(acc[i] | (bits[8 * byte + t, i] << t))
        for i in range(GROUP):
            m[i, byte] = acc[i]
    return m, cv


@jit
def _equal_mask(w: Any, cv: Any, count: int) -> Any:
    """Per item i < count (columns 16 j + i of the int32 columns w and cv, (256,
    16 j')), 0xFF when every value of item i's columns agree, else 0: the OR of every
    XOR (per column, then per item), then a sign mask (no branch, no early exit;
    FIPS 203, Algorithm 18 line 9's comparison on the compressed values)."""
    cols = w.shape[1]
    diff = np.zeros(cols, dtype=np.int32)
    for p in range(256):
        wp = w[p]
        cp = cv[p]
        for c in range(cols):
            diff[c] |= wp[c] ^ cp[c]
    out = np.zeros(count, dtype=np.int64)
    for i in range(count):
        d = np.int64(0)
        for j in range(cols // GROUP):
            d |= diff[GROUP * j + i]
        out[i] = ((d - 1) >> 63) & 0xFF  # d >= 0: (d - 1) >> 63 is -1 only at 0
    return out
