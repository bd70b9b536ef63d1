"""The ``jit`` ML-KEM kernels: compiled loops over coefficients (Numba).

Contracts: :class:`pqkit.mlkem.kernels.contract.MLKEMKernels`, the same as the ``numpy`` and
``ref`` backends. Each kernel is a thin Python wrapper that flattens the leading
batch axes to rows (:mod:`pqkit.arith._jit`) around one ``@njit`` loop nest.

How the secret-dependent arithmetic stays branch-free (docs/architecture.md §8):

- No ``%``, ``//`` or branches on secret values. Every reduction is Barrett
  multiply-and-shift (:func:`_barrett`, m = ceil(2^40 / q), exact for
  0 <= x < 2^28); conditional subtractions use the sign mask ``(x >> 63) & q``.
- Compression multiplies by ceil(2^40 / 2q) and shifts (no division: KyberSlash).
- Loop bounds and branches depend on public values only (d, eta, shapes).

Rejection sampling (:func:`rej_uniform`) reads public XOF output and branches on it,
as FIPS 203 Algorithm 7 does.

The mulcache of this backend is int64 (..., k, 128): b1 * zeta^(2 BitRev7(i) + 1)
mod q for each pair i (the ``ref`` layout).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.arith._jit import (
    as_bytes,
    as_polys,
    bcast_rows,
    check_width,
    jit,
    jit_inline,
    kernel_array,
    pack_le,
    put,
    unpack_le,
)
from pqkit.arith.api import Poly, kernel_table
from pqkit.arith.tables import N
from pqkit.mlkem.kernels.compose import U8, Arrays, kpke_decrypt_entry, kpke_encrypt_entry
from pqkit.mlkem.kernels.contract import MLKEMKernels
from pqkit.mlkem.kernels.tables import MLKEM_GAMMAS as GAMMAS
from pqkit.mlkem.kernels.tables import MLKEM_N_INV as _N_INV
from pqkit.mlkem.kernels.tables import MLKEM_Q as Q
from pqkit.mlkem.kernels.tables import MLKEM_ZETAS as ZETAS

__all__ = ["KERNELS"]

_ZETAS = np.array(ZETAS, dtype=np.int64)
_GAMMAS = np.array(GAMMAS, dtype=np.int64)

_BARRETT_M = -(-(1 << 40) // Q)  # ceil(2^40 / q)
_COMPRESS_M = -(-(1 << 40) // (2 * Q))  # ceil(2^40 / 2q)
_LOCKSTEP = 8
"""From this many rows on, the NTTs transform the rows in lock-step (one vector
lane per row): measured about 0.3 us per polynomial against 0.47 row by row for
24 rows; below 8 rows the lock-step loop is slower."""


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
    canonical. a zs < 2^31 and a z < 2^27: every step fits int32 (each intermediate
    is cast back to int32, so that LLVM keeps the loops in 32-bit lanes)."""
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
def _barrett(x: int) -> int:
    """x mod q for 0 <= x < 2^28: floor(x m / 2^40) = floor(x / q) there."""
    return x - ((x * _BARRETT_M) >> 40) * Q


@jit
def _csub(x: int) -> int:
    """x mod q for 0 <= x < 2q (sign mask, no branch)."""
    x -= Q
    return x + ((x >> 63) & Q)


# --- FIPS 203, Algorithms 9 and 10 -------------------------------------------------


@jit
def _to_cols(a: Any) -> Any:
    """(rows, 256) -> (256, rows) for the lock-step NTTs, by 8 x 8 tiles (constant
    trip counts: LLVM moves a tile through registers; the plain strided loop cost
    3x as much, most of a lock-step NTT)."""
    rows = a.shape[0]
    w = np.empty((256, rows), dtype=np.int64)
    full = rows - rows % 8
    for r0 in range(0, full, 8):
        for j0 in range(0, 256, 8):
            for jj in range(8):
                for rr in range(8):
                    w[j0 + jj, r0 + rr] = a[r0 + rr, j0 + jj]
    for r in range(full, rows):
        for j in range(256):
            w[j, r] = a[r, j]
    return w


@jit
def _from_cols(w: Any, f: int) -> Any:
    """(256, rows) -> (rows, 256), each value x as Barrett(x f) (x f < 2^28), by
    8 x 8 tiles as :func:`_to_cols`."""
    rows = w.shape[1]
    out = np.empty((rows, 256), dtype=np.int64)
    full = rows - rows % 8
    for r0 in range(0, full, 8):
        for j0 in range(0, 256, 8):
            for rr in range(8):
                for jj in range(8):
                    out[r0 + rr, j0 + jj] = _barrett(w[j0 + jj, r0 + rr] * f)
    for r in range(full, rows):
        for j in range(256):
            out[r, j] = _barrett(w[j, r] * f)
    return out


@jit
def _ntt_cols(w: Any) -> None:
    """The butterflies of FIPS 203, Algorithm 9 (NTT) on every column of w (256,
    cols) in place, the columns in lock-step (every butterfly one loop over the
    columns, which LLVM vectorises whatever its layer's length). Canonical input;
    lazy reduction as :func:`_ntt`: the results are below 8q, not reduced."""
    cols = w.shape[1]
    i = 1
    length = 128
    while length >= 2:
        for start in range(0, 256, 2 * length):
            zeta = _ZETAS[i]
            i += 1
            for j in range(start, start + length):
                lo = w[j]
                hi = w[j + length]
                for r in range(cols):
                    t = _barrett(zeta * hi[r])
                    u = lo[r]
                    hi[r] = u - t + Q
                    lo[r] = u + t
        length >>= 1


@jit
def _intt_cols(w: Any) -> None:
    """The butterflies of FIPS 203, Algorithm 10 (NTT^-1) on every column of w (256,
    cols) in place, in lock-step as :func:`_ntt_cols`, with the factor 128^-1 folded
    into the last layer (its sums t + u < 2q times 128^-1, and its zeta times
    128^-1 mod q: products below 2^24, one Barrett step each): canonical in,
    canonical out."""
    cols = w.shape[1]
    i = 127
    length = 2
    while length <= 64:
        for start in range(0, 256, 2 * length):
            zeta = _ZETAS[i]
            i -= 1
            for j in range(start, start + length):
                lo = w[j]
                hi = w[j + length]
                for r in range(cols):
                    t = lo[r]
                    u = hi[r]
                    lo[r] = _csub(t + u)
                    hi[r] = _barrett(zeta * (u - t + Q))  # u - t + q in [1, 2q)
        length <<= 1
    zeta = _barrett(_ZETAS[1] * _N_INV)
    for j in range(128):
        lo = w[j]
        hi = w[j + 128]
        for r in range(cols):
            t = lo[r]
            u = hi[r]
            lo[r] = _barrett((t + u) * _N_INV)
            hi[r] = _barrett(zeta * (u - t + Q))


@jit
def _ntt(a: Any) -> Any:
    """FIPS 203, Algorithm 9 (NTT) on every row of a canonical (rows, 256) array.

    Lazy reduction: zeta t is reduced exactly, the sums are not; each layer adds at
    most q to the bound, so after 7 layers values are below 8q < 2^15. Row by row,
    the values are int32 and zeta t is Shoup's product (:func:`_mulq`, exact for
    t < 2^15): twice the vector lanes of int64 and a cheaper multiply (0.53 against
    0.78 us a row here); the results, Barrett-reduced, are the int64 loop's.

    From :data:`_LOCKSTEP` rows on (a public shape), the rows run in lock-step:
    the array is transposed to (256, rows), so that every butterfly, whatever its
    layer's length, is one loop over the rows that LLVM vectorises (the short
    layers of the row-by-row loop are not). Same arithmetic, same results."""
    rows = a.shape[0]
    if rows >= _LOCKSTEP:
        w = _to_cols(a)
        _ntt_cols(w)
        return _from_cols(w, 1)
    out = np.empty((rows, 256), dtype=np.int64)
    f = np.empty(256, dtype=np.int32)  # one row in 32-bit lanes (:func:`_mulq`)
    for r in range(rows):
        for j in range(256):
            f[j] = np.int32(a[r, j])
        i = 1
        length = 128
        while length >= 2:
            for start in range(0, 256, 2 * length):
                zeta = _ZETAS32[i]
                shoup = _SHOUP32[i]
                i += 1
                for j in range(start, start + length):
                    t = _mulq(f[j + length], zeta, shoup)
                    u = f[j]
                    f[j + length] = np.int32(u - t + Q)
                    f[j] = np.int32(u + t)
            length >>= 1
        for j in range(256):
            out[r, j] = _barrett(np.int64(f[j]))
    return out


@jit
def _intt(a: Any) -> Any:
    """FIPS 203, Algorithm 10 (NTT^-1) on every row, including the factor 128^-1
    (folded into the last layer, as :func:`_intt_cols` does); canonical in,
    canonical out. Row by row in int32 with Shoup's products as :func:`_ntt` (every
    input of :func:`_mulq` is below 2q); from :data:`_LOCKSTEP` rows on in
    lock-step."""
    rows = a.shape[0]
    if rows >= _LOCKSTEP:
        w = _to_cols(a)
        _intt_cols(w)
        return _from_cols(w, 1)
    out = np.empty((rows, 256), dtype=np.int64)
    f = np.empty(256, dtype=np.int32)  # one row in 32-bit lanes (:func:`_mulq`)
    for r in range(rows):
        for j in range(256):
            f[j] = np.int32(a[r, j])
        i = 127
        length = 2
        while length <= 64:
            for start in range(0, 256, 2 * length):
                zeta = _ZETAS32[i]
                shoup = _SHOUP32[i]
                i -= 1
                for j in range(start, start + length):
                    t = f[j]
                    u = f[j + length]
                    f[j] = _csub32(np.int32(t + u))
                    f[j + length] = _mulq(np.int32(u - t + Q), zeta, shoup)  # < 2q in
            length <<= 1
        for j in range(128):  # the last layer, times 128^-1 (as :func:`_intt_cols`)
            t = f[j]
            u = f[j + 128]
            out[r, j] = _mulq(np.int32(t + u), _N_INV, _N_INV_SHOUP)
            out[r, j + 128] = _mulq(np.int32(u - t + Q), _LAST, _LAST_SHOUP)
    return out


def ntt(f: Poly) -> Poly:
    a, lead = as_polys(f)
    out: Poly = _ntt(a).reshape(*lead, N)
    return out


def intt(f_hat: Poly) -> Poly:
    a, lead = as_polys(f_hat)
    out: Poly = _intt(a).reshape(*lead, N)
    return out


# --- FIPS 203, Algorithms 11 and 12 -------------------------------------------------


@jit
def _mulcache(b: Any) -> Any:
    out = np.empty((b.shape[0], 128), dtype=np.int64)
    for r in range(b.shape[0]):
        for i in range(128):
            out[r, i] = _barrett(b[r, 2 * i + 1] * _GAMMAS[i])
    return out


def mulcache(b_hat: Poly) -> Any:
    """``jit`` layout: int64 (..., 128), b1 * gamma_i mod q for each pair i."""
    b, lead = as_polys(b_hat)
    return _mulcache(b).reshape(*lead, 128)


@jit
def _basemul_acc(a: Any, b: Any, c: Any, ia: Any, ib: Any, step_a: int, step_b: int) -> Any:
    """Rows r of the result: sum over j of BaseCaseMultiply on a[ia[r], j] and
    b[ib[r], j] (c: b's mulcache); step 0 broadcasts a length-1 k axis. Every term
    is below q^2 < 2^23.4, at most 8 of them are summed (k <= 4), so the sum stays
    below 2^28 and one Barrett step reduces it."""
    k = max(a.shape[1], b.shape[1])
    out = np.empty((ia.shape[0], 256), dtype=np.int64)
    acc = np.empty(256, dtype=np.int64)
    for r in range(ia.shape[0]):
        acc[:] = 0
        for j in range(k):
            x = a[ia[r], j * step_a]
            y = b[ib[r], j * step_b]
            z = c[ib[r], j * step_b]
            for i in range(128):
                a0 = x[2 * i]
                a1 = x[2 * i + 1]
                b0 = y[2 * i]
                acc[2 * i] += a0 * b0 + a1 * z[i]
                acc[2 * i + 1] += a0 * y[2 * i + 1] + a1 * b0
        for i in range(256):
            out[r, i] = _barrett(acc[i])
    return out


def basemul_acc(a_hat: Poly, b_hat: Poly, cache: Any = None) -> Poly:
    a_arr = np.asarray(a_hat)
    b_arr = np.asarray(b_hat)
    if a_arr.ndim < 2 or b_arr.ndim < 2:
        raise ValueError("basemul_acc expects (..., k, 256) arrays")
    a, _ = as_polys(a_arr)
    b, _ = as_polys(b_arr)
    ka, kb = a_arr.shape[-2], b_arr.shape[-2]
    if ka != kb and 1 not in (ka, kb):
        raise ValueError(f"basemul_acc: k axes {ka} and {kb} do not broadcast")
    lead, ia, ib = bcast_rows(a_arr.shape[:-2], b_arr.shape[:-2])
    if cache is None:
        c = _mulcache(b)
    else:
        c_arr = np.asarray(cache)
        if c_arr.shape != (*b_arr.shape[:-1], 128):
            raise ValueError(f"mulcache of shape {c_arr.shape} does not belong to b_hat")
        c, _ = as_polys(c_arr, 128)
    out = _basemul_acc(
        a.reshape(-1, ka, N),
        b.reshape(-1, kb, N),
        c.reshape(-1, kb, 128),
        ia,
        ib,
        int(ka > 1),
        int(kb > 1),
    )
    result: Poly = out.reshape(*lead, N)
    return result


# --- FIPS 203, Algorithm 7 (SampleNTT) lines 4-16 ----------------------------------


@jit
def _rej_uniform(buf: Any) -> Any:
    rows, n = buf.shape
    out = np.zeros((rows, 256), dtype=np.int64)
    counts = np.empty(rows, dtype=np.int64)
    for r in range(rows):
        j = 0
        pos = 0
        while j < 256 and pos + 3 <= n:  # public data: branches allowed
            b0 = np.int64(buf[r, pos])
            b1 = np.int64(buf[r, pos + 1])
            b2 = np.int64(buf[r, pos + 2])
            d1 = b0 | ((b1 & 15) << 8)
            d2 = (b1 >> 4) | (b2 << 4)
            if d1 < Q:
                out[r, j] = d1
                j += 1
            if d2 < Q and j < 256:
                out[r, j] = d2
                j += 1
            pos += 3
        counts[r] = j
    return out, counts


def rej_uniform(buf: npt.NDArray[np.uint8]) -> tuple[Poly, npt.NDArray[np.int64]]:
    raw, lead = as_bytes(buf)
    if raw.shape[-1] % 3:
        raise ValueError(f"rej_uniform needs a multiple of 3 bytes, got {raw.shape[-1]}")
    out, counts = _rej_uniform(raw)
    return out.reshape(*lead, N), counts.reshape(lead)


# --- FIPS 203, Algorithm 8 (SamplePolyCBD) -------------------------------------------


@jit_inline
def _cbd_sums(row: Any, w: int, eta: int) -> Any:
    """Word w of a CBD input row, bit-sliced: the sum of the eta bits of every
    eta-bit field. eta = 2: bytes 4w .. 4w + 3 (8 coefficients); eta = 3: bytes
    3w .. 3w + 2 (4 coefficients)."""
    if eta == 2:
        t = (
            np.int64(row[4 * w])
            | (np.int64(row[4 * w + 1]) << 8)
            | (np.int64(row[4 * w + 2]) << 16)
            | (np.int64(row[4 * w + 3]) << 24)
        )
        return (t & 0x55555555) + ((t >> 1) & 0x55555555)
    t = np.int64(row[3 * w]) | (np.int64(row[3 * w + 1]) << 8) | (np.int64(row[3 * w + 2]) << 16)
    return (t & 0x249249) + ((t >> 1) & 0x249249) + ((t >> 2) & 0x249249)


@jit_inline
def _cbd_coef(s: Any, m: int, eta: int) -> Any:
    """Coefficient m of the word with field sums s (:func:`_cbd_sums`): x - y mod q
    (sign mask, no branch)."""
    mask = (1 << eta) - 1
    f = ((s >> (2 * eta * m)) & mask) - ((s >> (2 * eta * m + eta)) & mask)
    return f + ((f >> 63) & Q)


@jit
def _cbd(buf: Any, eta: int) -> Any:
    """Bit-sliced: add the eta bits of every field of a word, then read x - y per
    coefficient. eta = 2: 4 bytes give 8 coefficients; eta = 3: 3 bytes give 4."""
    rows = buf.shape[0]
    out = np.empty((rows, 256), dtype=np.int64)
    for r in range(rows):
        if eta == 2:
            for w in range(32):
                t = (
                    np.int64(buf[r, 4 * w])
                    | (np.int64(buf[r, 4 * w + 1]) << 8)
                    | (np.int64(buf[r, 4 * w + 2]) << 16)
                    | (np.int64(buf[r, 4 * w + 3]) << 24)
                )
                s = (t & 0x55555555) + ((t >> 1) & 0x55555555)
                for m in range(8):
                    f = ((s >> (4 * m)) & 3) - ((s >> (4 * m + 2)) & 3)
                    out[r, 8 * w + m] = f + ((f >> 63) & Q)
        else:
            for w in range(64):
                t = (
                    np.int64(buf[r, 3 * w])
                    | (np.int64(buf[r, 3 * w + 1]) << 8)
                    | (np.int64(buf[r, 3 * w + 2]) << 16)
                )
                s = (t & 0x249249) + ((t >> 1) & 0x249249) + ((t >> 2) & 0x249249)
                for m in range(4):
                    f = ((s >> (6 * m)) & 7) - ((s >> (6 * m + 3)) & 7)
                    out[r, 4 * w + m] = f + ((f >> 63) & Q)
    return out


@jit_inline
def _cbd_cols(buf: Any, first: int, eta: int, out: Any, g: int) -> None:
    """:func:`_cbd` in column layout: column j g + i of out (256, g count) is
    SamplePolyCBD_eta(buf[i, first + j]) for the g items i of buf (b, ., >= 64 eta);
    a column i >= b repeats item b - 1."""
    count = out.shape[1] // g
    b = buf.shape[0]
    per = 8 if eta == 2 else 4
    for j in range(count):
        for i in range(g):
            src = min(i, b - 1)
            for w in range(256 // per):
                s = _cbd_sums(buf[src, first + j], w, eta)
                for m in range(per):
                    out[per * w + m, j * g + i] = _cbd_coef(s, m, eta)


def cbd(buf: npt.NDArray[np.uint8], eta: int) -> Poly:
    if eta not in (2, 3):
        raise ValueError(f"eta must be 2 or 3, got {eta}")
    raw, lead = as_bytes(buf, 64 * eta)
    out: Poly = _cbd(raw, eta).reshape(*lead, N)
    return out


# --- FIPS 203, Algorithms 5 and 6 (ByteEncode_d, ByteDecode_d) -----------------------


@jit
def _byte_encode(f: Any, d: int) -> Any:
    if d == 12:  # two coefficients in three bytes
        rows = f.shape[0]
        out = np.empty((rows, 32 * d), dtype=np.uint8)
        for r in range(rows):
            for i in range(128):
                x = f[r, 2 * i] & 0xFFF
                y = f[r, 2 * i + 1] & 0xFFF
                out[r, 3 * i] = x & 255
                out[r, 3 * i + 1] = (x >> 8) | ((y & 15) << 4)
                out[r, 3 * i + 2] = y >> 4
        return out
    return pack_le(f, d)


@jit
def _byte_decode(b: Any, d: int) -> Any:
    if d == 12:  # three bytes give two coefficients, each reduced mod q (< 2q)
        rows = b.shape[0]
        out = np.empty((rows, 256), dtype=np.int64)
        for r in range(rows):
            for i in range(128):
                b0 = np.int64(b[r, 3 * i])
                b1 = np.int64(b[r, 3 * i + 1])
                b2 = np.int64(b[r, 3 * i + 2])
                out[r, 2 * i] = _csub(b0 | ((b1 & 15) << 8))
                out[r, 2 * i + 1] = _csub((b1 >> 4) | (b2 << 4))
        return out
    # d < 12: the shared little-endian unpacker (public positions, independent reads).
    return unpack_le(b, d)


def byte_encode(f: Poly, d: int) -> npt.NDArray[np.uint8]:
    check_width(d, 1, 12, "d")
    a, lead = as_polys(f)
    out: npt.NDArray[np.uint8] = _byte_encode(a, d).reshape(*lead, 32 * d)
    return out


def byte_decode(b: npt.NDArray[np.uint8], d: int) -> Poly:
    check_width(d, 1, 12, "d")
    raw, lead = as_bytes(b, 32 * d)
    out: Poly = _byte_decode(raw, d).reshape(*lead, N)
    return out


# --- FIPS 203 §4.2.1 (Compress_d, Decompress_d) --------------------------------------


@jit
def _compress(x: Any, d: int) -> Any:
    # Compress_d(x) = floor((2^(d+1) x + q) / 2q) mod 2^d; the numerator is below
    # 2^27, where the multiply-and-shift by ceil(2^40 / 2q) is an exact division.
    out = np.empty_like(x)
    mask = (1 << d) - 1
    for i in range(x.shape[0]):
        out[i] = ((((x[i] << (d + 1)) + Q) * _COMPRESS_M) >> 40) & mask
    return out


@jit
def _decompress(y: Any, d: int) -> Any:
    # round(q y / 2^d), half up: floor((2 q y + 2^d) / 2^(d+1)), a shift.
    out = np.empty_like(y)
    for i in range(y.shape[0]):
        out[i] = (y[i] * (2 * Q) + (1 << d)) >> (d + 1)
    return out


def compress(f: Poly, d: int) -> Poly:
    check_width(d, 1, 11, "d")
    a, lead = as_polys(f)
    out: Poly = _compress(a.reshape(-1), d).reshape(*lead, N)
    return out


def decompress(y: Poly, d: int) -> Poly:
    check_width(d, 1, 11, "d")
    a, lead = as_polys(y)
    out: Poly = _decompress(a.reshape(-1), d).reshape(*lead, N)
    return out


# --- addition mod q ----------------------------------------------------------------


@jit
def _add(a: Any, b: Any) -> Any:
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        out[i] = _csub(a[i] + b[i])
    return out


def add(a: Poly, b: Poly) -> Poly:
    """(a + b) mod q for canonical inputs (sign-mask subtraction, no branch)."""
    x, lead_a = as_polys(a)
    y, lead_b = as_polys(b)
    if lead_a != lead_b:
        lead = np.broadcast_shapes(lead_a, lead_b)
        x = np.ascontiguousarray(np.broadcast_to(x.reshape(*lead_a, N), (*lead, N)))
        y = np.ascontiguousarray(np.broadcast_to(y.reshape(*lead_b, N), (*lead, N)))
        lead_a = lead
    out: Poly = _add(x.reshape(-1), y.reshape(-1)).reshape(*lead_a, N)
    return out


# --- FIPS 203, Algorithms 14 and 15: the fused K-PKE kernels ------------------------
# One compiled call each, composed of the compiled loops above (so the arithmetic and
# its security argument are theirs); the Python wrappers only check shapes, which
# also keeps every index of the loops in bounds.


@jit
def _basemul_into(acc: Any, x: Any, y: Any, z: Any) -> None:
    """acc += BaseCaseMultiply of x and y over the 128 pairs (FIPS 203, Algorithms
    11-12), z: y's mulcache; unreduced (every term below q^2 < 2^23.4)."""
    for p in range(128):
        a0 = x[2 * p]
        a1 = x[2 * p + 1]
        b0 = y[2 * p]
        acc[2 * p] += a0 * b0 + a1 * z[p]
        acc[2 * p + 1] += a0 * y[2 * p + 1] + a1 * b0


@jit_inline
def _u_coef(c: Any, base: int, i: int, du: int) -> Any:
    """Coefficient i of u' = Decompress_du(ByteDecode_du(c1)) (FIPS 203, Algorithm 15
    lines 1 and 3), c1 starting at c[base]: bits [i du, i du + du) of c1 (public),
    read from the 3 bytes from (i du) >> 3 (du <= 11 bits after a shift of at most
    7; the last reads stay inside c2), then rounded as :func:`_decompress`."""
    off = i * du
    b = base + (off >> 3)
    word = np.int64(c[b]) | (np.int64(c[b + 1]) << 8) | (np.int64(c[b + 2]) << 16)
    y = (word >> (off & 7)) & ((1 << du) - 1)
    return (y * (2 * Q) + (1 << du)) >> (du + 1)


@jit
def _decrypt_u(c: Any, k: int, du: int) -> Any:
    """FIPS 203, Algorithm 15 lines 1 and 3: u' (k, 256) in one pass
    (:func:`_u_coef`)."""
    out = np.empty((k, 256), dtype=np.int64)
    for i in range(256 * k):
        out[i >> 8, i & 255] = _u_coef(c, 0, i, du)
    return out


@jit
def _decrypt_dot(dk: Any, u_hat: Any, k: int) -> Any:
    """FIPS 203, Algorithm 15 lines 5-6 in the NTT domain: s_hat^T o NTT(u'), s_hat =
    ByteDecode_12(dk_PKE); (1, 256), reduced (at most 8 terms: one Barrett step)."""
    s_hat = _byte_decode(dk.copy().reshape(k, 384), 12)
    z = _mulcache(u_hat)
    out = np.zeros((1, 256), dtype=np.int64)
    acc = out[0]
    for j in range(k):
        _basemul_into(acc, s_hat[j], u_hat[j], z[j])
    for p in range(256):
        acc[p] = _barrett(acc[p])
    return out


@jit
def _decrypt_message(c: Any, x: Any, col: int, k: int, du: int, dv: int) -> Any:
    """FIPS 203, Algorithm 15 lines 4, 6 and 7 from x = NTT^-1(s_hat^T o NTT(u'))
    (column ``col`` of x (256, cols)): m = ByteEncode_1(Compress_1(v' - x)), 32
    bytes, in one pass. v'_i is read from c2 (public: bits [i dv, i dv + dv), at
    most 2 bytes; the second is needed only where it exists) and decompressed as
    :func:`_decompress`; v' - x + q is in [1, 2q) and Compress_1 is
    :func:`_compress`'s multiply-and-shift; the bits are packed by shifts (no
    branch on them)."""
    base = 32 * du * k
    last = c.shape[0] - 1
    mask = (1 << dv) - 1
    half = 1 << dv
    out = np.empty(32, dtype=np.uint8)
    for byte in range(32):
        acc = 0
        for t in range(8):
            off = (8 * byte + t) * dv
            b = base + (off >> 3)
            word = np.int64(c[b]) | (np.int64(c[min(b + 1, last)]) << 8)
            v = ((((word >> (off & 7)) & mask) * (2 * Q)) + half) >> (dv + 1)
            w = v - x[8 * byte + t, col] + Q
            acc |= ((((w << 2) + Q) * _COMPRESS_M) >> 40 & 1) << t
        out[byte] = acc
    return out


@jit
def _kpke_decrypt(dk: Any, c: Any, k: int, du: int, dv: int) -> Any:
    """FIPS 203, Algorithm 15 lines 1-7 (the ``ref`` twin names the variables)."""
    x = _intt(_decrypt_dot(dk, _ntt(_decrypt_u(c, k, du)), k))
    return _decrypt_message(c, x.reshape(256, 1), 0, k, du, dv)


@jit
def _encrypt_products(t_hat: Any, a_hat: Any, y_hat: Any) -> Any:
    """FIPS 203, Algorithm 14 lines 19 and 21 in the NTT domain: row i < k is
    sum_j A_hat[j, i] o y_hat[j] (A_hat^T), row k sum_j t_hat[j] o y_hat[j]; (k + 1,
    256). BaseCaseMultiply as :func:`_basemul_acc` (same bounds: at most 8 terms
    below q^2, one Barrett step), reading A_hat^T in place instead of a copy."""
    k = t_hat.shape[0]
    z = _mulcache(y_hat)
    out = np.zeros((k + 1, 256), dtype=np.int64)
    for i in range(k + 1):
        acc = out[i]
        for j in range(k):
            _basemul_into(acc, t_hat[j] if i == k else a_hat[j, i], y_hat[j], z[j])
        for p in range(256):
            acc[p] = _barrett(acc[p])
    return out


@jit
def _encrypt_tail(w: Any, e1: Any, e2: Any, m: Any, du: int, dv: int) -> Any:
    """FIPS 203, Algorithm 14 lines 19-24 after the inverse NTT ``w`` (k + 1, 256):
    u = w[:k] + e1 and v = w[k] + e2 + mu (the sums stay below 3q, which Compress_d
    accepts), compressed and encoded. mu = Decompress_1(ByteDecode_1(m)) is bit i of
    m times round(q / 2) = 1665, by a mask (no branch)."""
    k = w.shape[0] - 1
    y = np.empty((k + 1, 256), dtype=np.int64)  # Compress_du(u) rows, then Compress_dv(v)
    for i in range(k):
        for j in range(256):
            y[i, j] = ((((w[i, j] + e1[i, j]) << (du + 1)) + Q) * _COMPRESS_M >> 40) & (
                (1 << du) - 1
            )
    for j in range(256):
        bit = (np.int64(m[j >> 3]) >> (j & 7)) & 1
        v = w[k, j] + e2[j] + (-bit & 1665)
        y[k, j] = (((v << (dv + 1)) + Q) * _COMPRESS_M >> 40) & ((1 << dv) - 1)
    n1 = 32 * du * k
    out = np.empty(n1 + 32 * dv, dtype=np.uint8)
    put(out[:n1], _byte_encode(y[:k], du).reshape(-1))
    put(out[n1:], _byte_encode(y[k:], dv).reshape(-1))
    return out


@jit
def _kpke_encrypt(
    t_hat: Any, a_hat: Any, y: Any, e1: Any, e2: Any, m: Any, du: int, dv: int
) -> Any:
    """FIPS 203, Algorithm 14 lines 18-24: the rows of A_hat^T and t_hat^T times
    NTT(y) in one basemul and one inverse NTT (:func:`_encrypt_products`), then the
    noise, mu and compression (:func:`_encrypt_tail`)."""
    w = _intt(_encrypt_products(t_hat, a_hat, _ntt(y)))
    return _encrypt_tail(w, e1, e2, m, du, dv)


def _c(a: npt.NDArray[Any]) -> npt.NDArray[Any]:
    return kernel_array(np.ascontiguousarray(a))


def _decrypt_checked(
    dk: U8, ct: U8, k: int, du: int, dv: int, s_hat: Poly | None, s_cache: Any
) -> npt.NDArray[np.uint8]:
    """Twin of the composite :func:`pqkit.mlkem.kernels.compose.kpke_decrypt`, on
    purpose: one compiled call (faster; benchmarks/arith_compose.py)."""
    # s_hat / s_cache (a decoded dk_pke) are not needed: decoding dk_pke compiled
    # costs about 1 us, and it gives the same s_hat.
    out: npt.NDArray[np.uint8] = _kpke_decrypt(_c(dk), _c(ct), k, du, dv)
    return out


def _encrypt_checked(
    k: int, eta1: int, eta2: int, arrays: Arrays, du: int, dv: int, rows: Any, rows_cache: Any
) -> npt.NDArray[np.uint8]:
    """Twin of the composite :func:`pqkit.mlkem.kernels.compose.kpke_encrypt`, on
    purpose: one compiled call (faster; benchmarks/arith_compose.py)."""
    # rows / rows_cache (A_hat^T || t_hat and its mulcache) are not needed compiled.
    t_hat, A_hat, prf_y, prf_e, m = arrays
    t, _ = as_polys(t_hat)
    a, _ = as_polys(A_hat)
    e = _cbd(_c(prf_e), eta2)  # Algorithm 14 lines 13-17: e1, then e2
    out: npt.NDArray[np.uint8] = _kpke_encrypt(
        t, a.reshape(k, k, N), _cbd(_c(prf_y), eta1), e[:k], e[k], _c(m), du, dv
    )
    return out


kpke_decrypt = kpke_decrypt_entry(_decrypt_checked)
kpke_encrypt = kpke_encrypt_entry(_encrypt_checked)


def kpke_cache(b_hat: Poly, reused: bool = False) -> Any:
    """mulcache: the fused kernels below decode and multiply themselves."""
    return mulcache(b_hat)


KERNELS: dict[str, Any] = kernel_table(MLKEMKernels, globals())
