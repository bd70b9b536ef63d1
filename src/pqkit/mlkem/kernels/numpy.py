"""The ``numpy`` ML-KEM kernels: vectorised, the default backend.

Contracts: :class:`pqkit.mlkem.kernels.contract.MLKEMKernels`. Leading axes are batch axes, so
a whole vector or matrix is one call.

How the secret-dependent arithmetic stays branch-free (docs/architecture.md §8):

- No ``%``, ``//``, branches or data-dependent indexing on secret values. Reductions
  are Barrett multiply-and-shift on int64 (:func:`_barrett`), or, for the float64
  NTT products, the same idea in floating point (:func:`_reduce_f64`); conditional
  corrections are masks used as 0/1 factors, never branches.
- Compression is a multiply-and-shift by a precomputed reciprocal (no division by
  q: KyberSlash).
- The NTT is two dense stages: the first four layers (len 128..16) mix only the
  high four index bits, the last three (len 8..2) only the low ones, so each stage
  is a small matrix product (BLAS, float64, exact since every value stays below
  2^53). The matrices are computed at import by running FIPS 203 Algorithm 9 /
  Algorithm 10 on unit vectors.

Rejection sampling (:func:`rej_uniform`) works on public XOF output and may index
by its accept mask.
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
from pqkit.mlkem.kernels.compose import (
    U8,
    Arrays,
    encrypt_rows,
    kpke_decrypt_entry,
    kpke_encrypt_entry,
)
from pqkit.mlkem.kernels.contract import (
    MLKEMKernels,
    kpke_keygen_args,
)
from pqkit.mlkem.kernels.tables import MLKEM_GAMMAS as GAMMAS
from pqkit.mlkem.kernels.tables import MLKEM_N_INV
from pqkit.mlkem.kernels.tables import MLKEM_Q as Q
from pqkit.mlkem.kernels.tables import MLKEM_ZETAS as ZETAS

__all__ = ["KERNELS"]

I64 = np.int64
F64 = np.float64

# --- reductions --------------------------------------------------------------------

_BARRETT_SHIFT = 40
_BARRETT_M = -(-(1 << _BARRETT_SHIFT) // Q)  # ceil(2^40 / q)
# With m = ceil(2^40 / q), floor(x m / 2^40) = floor(x / q) exactly for 0 <= x < 2^28
# (the error x (m q - 2^40) / (q 2^40) < 1/q never reaches the next integer), and
# x m < 2^63, so int64 holds it.
_BARRETT_LIMIT = 1 << 28


def _barrett(x: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """x mod q for int64 0 <= x < 2^28, by multiply-and-shift (no division)."""
    t = (x * _BARRETT_M) >> _BARRETT_SHIFT
    return x - t * Q


_Q_F = float(Q)
# fl(1/q) nudged up by a relative 2^-50: the three roundings (of 1/q, of the nudge
# product, of x times it) move it by at most 3 2^-53 < 2^-50, so x * _QINV_WIDE is
# never below x / q, and above it by less than x / q 2^-49 < 1/q for x < 2^49:
# floor(x * _QINV_WIDE) = floor(x / q) exactly for integers 0 <= x < 2^49.
_QINV_WIDE = (1.0 / Q) * (1.0 + 2.0**-50)


def _mod_f64(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """x mod q as float64, for float64 holding exact integers 0 <= x < 2^49."""
    t = x * _QINV_WIDE
    np.floor(t, out=t)
    t *= -_Q_F
    t += x
    return t


def _reduce_f64(x: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
    """x mod q for float64 holding exact integers 0 <= x < 2^49, as int64 in [0, q)."""
    return _mod_f64(x).astype(I64)


def _csub(x: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """x - q if x >= q, for 0 <= x < 2q, by a 0/1 mask."""
    return x - (x >= Q) * Q


# --- NTT matrices, computed from FIPS 203 Algorithms 9 and 10 ------------------------


def _ntt_layers(f: npt.NDArray[np.int64], lengths: tuple[int, ...], i: int) -> int:
    """Run the Cooley-Tukey layers of Algorithm 9 with the given ``len`` values on
    every row of ``f`` (in place), starting at zeta index ``i``; return the next i."""
    for length in lengths:
        for start in range(0, N, 2 * length):
            zeta = ZETAS[i]
            i += 1
            hi = f[:, start + length : start + 2 * length]
            lo = f[:, start : start + length]
            t = zeta * hi % Q
            f[:, start + length : start + 2 * length] = (lo - t) % Q
            f[:, start : start + length] = (lo + t) % Q
    return i


def _intt_layers(f: npt.NDArray[np.int64], lengths: tuple[int, ...], i: int) -> int:
    """The Gentleman-Sande layers of Algorithm 10 (zeta index counting down)."""
    for length in lengths:
        for start in range(0, N, 2 * length):
            zeta = ZETAS[i]
            i -= 1
            lo = f[:, start : start + length].copy()
            hi = f[:, start + length : start + 2 * length]
            f[:, start : start + length] = (lo + hi) % Q
            f[:, start + length : start + 2 * length] = zeta * (hi - lo) % Q
    return i


def _build_tables() -> tuple[npt.NDArray[np.float64], ...]:
    eye = np.eye(N, dtype=I64)
    high = eye[::16].copy()  # e_(16 h'): enough for the high-bit stage
    i = _ntt_layers(high, NTT_HIGH_LENGTHS, 1)
    low = lane_sums()
    assert _ntt_layers(low, NTT_LOW_LENGTHS, i) == 128
    ntt_high, ntt_low_t = stage_matrices(high, low)
    low = lane_sums()
    i = _intt_layers(low, NTT_LOW_LENGTHS[::-1], 127)
    high = eye[::16].copy()
    assert _intt_layers(high, NTT_HIGH_LENGTHS[::-1], i) == 0
    high = high * MLKEM_N_INV % Q  # 128^-1 mod q, folded into the last stage
    intt_high, intt_low_t = stage_matrices(high, low)
    return ntt_high, ntt_low_t, intt_high, intt_low_t


NTT_HIGH_LENGTHS = (128, 64, 32, 16)
"""The ``len`` values of Algorithm 9's layers that mix only index bits 4-7."""
NTT_LOW_LENGTHS = (8, 4, 2)
"""The ``len`` values of the layers that mix only index bits 1-3."""
_NTT_HIGH, _NTT_LOW_T, _INTT_HIGH, _INTT_LOW_T = _build_tables()
_GAMMAS = np.array(GAMMAS, dtype=I64)


def _as_polys(f: Any) -> npt.NDArray[np.int64]:
    a = np.asarray(f)
    if a.ndim == 0 or a.shape[-1] != N:
        raise ValueError(f"expected an array of shape (..., {N}), got {a.shape}")
    return a.astype(I64, copy=False)


def _as_bytes(b: Any, width: int | None = None) -> npt.NDArray[np.uint8]:
    a = np.asarray(b)
    if a.ndim == 0 or (width is not None and a.shape[-1] != width):
        raise ValueError(f"expected a uint8 array of shape (..., {width}), got {a.shape}")
    return a.astype(np.uint8, copy=False)


# --- kernels -----------------------------------------------------------------------


def ntt(f: Poly) -> Poly:
    a = _as_polys(f)
    lead = a.shape[:-1]
    x = a.astype(F64).reshape(*lead, 16, 16)
    # Layers 1-4 (len 128..16): x[h, l] <- sum_h' M[h, h'] x[h', l]; entries < 2^27.5.
    x = np.matmul(_NTT_HIGH, x)
    # Layers 5-7 (len 8..2): x[h, :] <- x[h, :] @ T[h]; entries < 2^43.2 (exact).
    x = np.matmul(x[..., :, None, :], _NTT_LOW_T)
    return _reduce_f64(x.reshape(*lead, N))


def intt(f_hat: Poly) -> Poly:
    a = _as_polys(f_hat)
    lead = a.shape[:-1]
    x = a.astype(F64).reshape(*lead, 16, 1, 16)
    x = np.matmul(x, _INTT_LOW_T).reshape(*lead, 16, 16)  # len 2..8
    x = np.matmul(_INTT_HIGH, x)  # len 16..128 and 128^-1
    return _reduce_f64(x.reshape(*lead, N))


def mulcache(b_hat: Poly) -> Any:
    """``numpy`` layout: int64 (..., 2, k, 256). Plane 0 holds (b0, b1 * gamma_i mod q)
    and plane 1 (b1, b0) for each pair i, so that a_hat times each plane, summed
    over pairs, gives the two coefficients of Algorithm 12."""
    b = _as_polys(b_hat)
    cache = np.empty((*b.shape[:-2], 2, *b.shape[-2:]), dtype=I64)
    cache[..., 0, :, 0::2] = b[..., 0::2]
    cache[..., 0, :, 1::2] = _barrett(b[..., 1::2] * _GAMMAS)
    cache[..., 1, :, 0::2] = b[..., 1::2]
    cache[..., 1, :, 1::2] = b[..., 0::2]
    return cache


def basemul_acc(a_hat: Poly, b_hat: Poly, cache: Any = None) -> Poly:
    a = _as_polys(a_hat)
    if a.ndim < 2 or np.ndim(b_hat) < 2:
        raise ValueError("basemul_acc expects (..., k, 256) arrays")
    planes = mulcache(b_hat) if cache is None else np.asarray(cache)
    # FIPS 203, Algorithm 12 for every pair, summed over k before one reduction:
    # each product < 2^23.4, at most 2k <= 8 terms, so sums < 2^27 < 2^28.
    prod = (a[..., None, :, :] * planes).sum(axis=-2)  # (..., 2, 256)
    pairs = prod[..., 0::2] + prod[..., 1::2]  # (..., 2, 128): c0 and c1 of each pair
    return _barrett(pairs.swapaxes(-1, -2).reshape(*pairs.shape[:-2], N))


_PAD = np.zeros(8, dtype=np.uint8)


def rej_uniform(buf: npt.NDArray[np.uint8]) -> tuple[Poly, npt.NDArray[np.int64]]:
    raw = np.ascontiguousarray(_as_bytes(buf))
    lead = raw.shape[:-1]
    n = raw.shape[-1]
    if n % 3:
        raise ValueError(f"rej_uniform needs a multiple of 3 bytes, got {n}")
    rows = math.prod(lead)
    m = n // 3
    out_shape = (*lead, N)
    if rows == 0 or m == 0:
        return np.zeros(out_shape, dtype=I64), np.zeros(lead, dtype=I64)
    # Little-endian 16-bit reads at bytes 3i and 3i + 1 of every triple (one strided
    # view of the input): C[0] + 256 C[1] and C[1] + 256 C[2].
    pairs = np.ndarray((rows * m, 2), dtype="<u2", buffer=raw.reshape(-1), strides=(3, 1))
    cand3 = np.empty((rows * m, 2), dtype=np.uint16)
    np.bitwise_and(pairs[:, 0], 0xFFF, out=cand3[:, 0])  # d1 = C[0] + 256 (C[1] mod 16)
    np.right_shift(pairs[:, 1], 4, out=cand3[:, 1])  # d2 = floor(C[1] / 16) + 16 C[2]
    cand = cand3.reshape(-1)
    # Public data (SampleNTT of the public rho): each row's first 256 accepted.
    out, counts = first_accepted(cand, cand < Q, rows, 2 * m)
    return out.reshape(out_shape), np.array(counts, dtype=I64).reshape(lead)


def _strided_u64(raw: npt.NDArray[np.uint8], group: int) -> npt.NDArray[np.uint64]:
    """(rows, n / group) little-endian 64-bit reads at the start of every ``group``
    bytes of each row (bytes past a group's end are read too and must be masked)."""
    rows, n = raw.shape
    flat = np.concatenate([raw.reshape(-1), _PAD])
    words: npt.NDArray[np.uint64] = np.ndarray(
        (rows, n // group), dtype="<u8", buffer=flat, offset=0, strides=(n, group)
    )
    return words


# SamplePolyCBD_eta on the bits one per byte (unpackbits): the 2 eta bits of a
# coefficient are the bytes of one little-endian word v (4 bytes for eta = 2, the
# first 6 of an 8-byte read for eta = 3). XOR with _CBD_FLIP turns the last eta bits
# b into 1 - b, so the byte sum of v is x + eta with x = (sum of the first eta bits) -
# (sum of the last eta bits), in [0, 2 eta]; times _CBD_SUM that sum lands in byte
# 2 eta - 1 (each partial sum is at most 2 eta: no carries; bytes read past the 2 eta
# reach only higher bytes).
_CBD_FLIP = {2: np.uint32(0x01010000), 3: np.uint64(0x010101000000)}
_CBD_SUM = {2: np.uint32(0x01010101), 3: np.uint64(0x010101010101)}
_CBD_SHIFT = {2: np.uint32(24), 3: np.uint64(40)}
_CBD_BYTE = {2: np.uint32(0xFF), 3: np.uint64(0xFF)}


def cbd(buf: npt.NDArray[np.uint8], eta: int) -> Poly:
    if eta not in _CBD_FLIP:
        raise ValueError(f"eta must be 2 or 3, got {eta}")
    raw = _as_bytes(buf, 64 * eta)
    lead = raw.shape[:-1]
    flat = raw.reshape(-1, 64 * eta)
    rows = flat.shape[0]
    bits = np.unpackbits(flat, axis=-1, bitorder="little")
    if eta == 2:
        v = bits.view("<u4")
    else:  # 8-byte reads at stride 6 over the bits padded by 8 bytes
        padded = np.concatenate([bits.reshape(-1), _PAD])
        v = np.ndarray((rows, N), dtype="<u8", buffer=padded, offset=0, strides=(6 * N, 6))
    v = v ^ _CBD_FLIP[eta]
    v *= _CBD_SUM[eta]
    v >>= _CBD_SHIFT[eta]
    if eta == 3:
        v &= _CBD_BYTE[eta]
    # x = (x + eta) - eta, then + q where negative: a sign mask, no branch.
    f = np.subtract(v, eta, dtype=I64)
    f += (f >> 63) & Q
    out: Poly = f.reshape(*lead, N)
    return out


def _group(d: int) -> int:
    """Coefficients per byte-aligned group: the smallest g with 8 | d g."""
    g = 1
    while (d * g) % 8:
        g += 1
    return g


_GROUPS = {d: _group(d) for d in range(1, 13)}
_WEIGHTS = {
    d: np.array([1 << (d * j) for j in range(_GROUPS[d])], dtype=np.uint64)
    for d in range(1, 13)
    if d * _GROUPS[d] <= 64
}
_FIELD_SHIFTS = {d: np.arange(0, d * _GROUPS[d], d, dtype=np.uint64) for d in range(1, 13)}
# d = 11: a group is 8 coefficients in 11 bytes (88 bits); coefficients 0-4 come from
# the 64-bit word at byte 0, coefficients 5-7 from the word at byte 5 (bit 40 on).
_W11_LOW = np.array([1 << (11 * j) for j in range(6)], dtype=object).astype(np.uint64)
_SH11_LOW = np.arange(0, 55, 11, dtype=np.uint64)
_SH11_HIGH = np.array([15, 26, 37], dtype=np.uint64)


def byte_encode(f: Poly, d: int) -> npt.NDArray[np.uint8]:
    a = _as_polys(f)
    lead = a.shape[:-1]
    if d == 1:  # one bit per coefficient, least significant bit first: packbits
        return np.packbits(a.astype(np.uint8), axis=-1, bitorder="little")
    if d not in _WEIGHTS and d != 11:  # d = 9: a group (72 bits) exceeds a word
        bits = ((a[..., None] >> np.arange(d)) & 1).astype(np.uint8)
        return np.packbits(bits.reshape(*lead, N * d), axis=-1, bitorder="little")
    g = _GROUPS[d]
    nbytes = d * g // 8
    c = a.reshape(-1, N // g, g).astype(np.uint64)
    if d == 11:
        low = c[..., :6] @ _W11_LOW  # bits 0..63 (the top bits of c5 wrap away)
        high = (
            (c[..., 5] >> np.uint64(9)) | (c[..., 6] << np.uint64(2)) | (c[..., 7] << np.uint64(13))
        )
        words = np.concatenate(
            [
                low.view(np.uint8).reshape(-1, N // g, 8),
                high.view(np.uint8).reshape(-1, N // g, 8)[..., :3],
            ],
            axis=-1,
        )
        return words.reshape(*lead, 32 * d)
    # Fields do not overlap, so the weighted sum is an OR of shifted coefficients.
    words = (c @ _WEIGHTS[d]).view(np.uint8).reshape(-1, N // g, 8)
    return words[..., :nbytes].reshape(*lead, 32 * d)


def byte_decode(b: npt.NDArray[np.uint8], d: int) -> Poly:
    raw = _as_bytes(b, 32 * d)
    lead = raw.shape[:-1]
    flat = raw.reshape(-1, 32 * d)
    mask = np.uint64((1 << d) - 1)
    if d == 1:
        return np.unpackbits(flat, axis=-1, bitorder="little").astype(I64).reshape(*lead, N)
    if d == 4:
        # Two coefficients per byte: write them straight into the interleaved output.
        nibbles = np.empty((*flat.shape, 2), dtype=I64)
        np.bitwise_and(flat, 15, out=nibbles[..., 0])
        np.right_shift(flat, 4, out=nibbles[..., 1])
        return nibbles.reshape(*lead, N)
    if d == 12:
        # Two coefficients per 3 bytes, from little-endian 16-bit reads at bytes 3i
        # and 3i + 1 (strided views, inside the row): b0 + 256 (b1 mod 16) and
        # floor(b1 / 16) + 16 b2.
        raw12 = np.ascontiguousarray(flat)
        rows = raw12.shape[0]
        low = np.ndarray((rows, 128), dtype="<u2", buffer=raw12, offset=0, strides=(384, 3))
        high = np.ndarray((rows, 128), dtype="<u2", buffer=raw12, offset=1, strides=(384, 3))
        pair = np.empty((rows, 128, 2), dtype=I64)
        np.bitwise_and(low, 0xFFF, out=pair[..., 0])
        np.right_shift(high, 4, out=pair[..., 1])
        # ByteDecode_12 reduces mod q; x < 4096 < 2q.
        return _csub(pair.reshape(*lead, N))
    if d not in _WEIGHTS and d != 11:  # d = 9: a group (72 bits) exceeds a word
        bits = np.unpackbits(flat, axis=-1, bitorder="little").reshape(-1, N, d)
        values: Poly = (bits.astype(I64) << np.arange(d)).sum(axis=-1)
        return values.reshape(*lead, N)
    if d == 11:
        low = _strided_u64(flat, 11)
        high = np.ndarray(low.shape, dtype="<u8", buffer=low.base, offset=5, strides=low.strides)
        fields = np.concatenate(
            [(low[..., None] >> _SH11_LOW) & mask, (high[..., None] >> _SH11_HIGH) & mask],
            axis=-1,
        )
    else:
        g = _GROUPS[d]
        packed = _strided_u64(flat, d * g // 8)
        fields = (packed[..., None] >> _FIELD_SHIFTS[d]) & mask
    return fields.astype(I64).reshape(*lead, N)


# Compress_d(x) = floor((2^(d+1) x + q) / (2q)) mod 2^d. For 0 <= x < 4q and d <= 11
# the numerator is < 2^26, and with m = ceil(2^40 / 2q) the product floor(n m / 2^40)
# is exact for n < 2^27 (same argument as _barrett), so no division is performed.
_COMPRESS_M = -(-(1 << 40) // (2 * Q))


def compress(f: Poly, d: int) -> Poly:
    a = _as_polys(f)
    numerator = (a << (d + 1)) + Q
    return ((numerator * _COMPRESS_M) >> 40) & ((1 << d) - 1)


def decompress(y: Poly, d: int) -> Poly:
    a = _as_polys(y)
    # round(q y / 2^d), half up: floor((2 q y + 2^d) / 2^(d+1)), a shift.
    return (a * (2 * Q) + (1 << d)) >> (d + 1)


def add(a: Poly, b: Poly) -> Poly:
    """(a + b) mod q for canonical inputs (masked subtraction, no branch)."""
    s = _as_polys(a) + _as_polys(b)
    return _csub(s)


# --- the fused K-PKE steps (the fewest NumPy calls) -----------------------------------
#
# The composites of pqkit.mlkem.kernels.compose run each primitive with its own conversions
# and a reduction to canonical int64 after it. Here the chain stays in float64
# (exact integers below 2^53 throughout), is reduced only where a bound needs it, and
# runs in "h-major" layout: a (rows, 256) block is held as (16, rows, 16) [h, row, l]
# for coefficient 16 h + l, so that each NTT stage is one matrix product for all rows
# (the high-bit stage one plain product, the low-bit stage one per h), the planes of
# Algorithm 12 fold into the last NTT stage, and the sums over j and over each pair
# fold into the first stage of NTT^-1 (32 k inputs per block). Decode and
# decompress of the whole ciphertext are one gather; Compress and ByteEncode take
# the sums unreduced.


def _pairs_low_t(low_t: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The first NTT^-1 stage on the planes of the base multiplication before their
    pair sums: with P[o, 16 h + m] the products of plane o, coefficient 16 h + 2 i + o
    of the product is P[o, 16 h + 2 i] + P[o, 16 h + 2 i + 1], so the stage's row
    for input (o, m) of block h is T[h, 2 (m // 2) + o]. (16, 32, 16)."""
    m = np.arange(16)
    return np.concatenate([low_t[:, 2 * (m // 2) + o, :] for o in range(2)], axis=1)


_INTT_PAIRS_T = _pairs_low_t(_INTT_LOW_T)
# Its rows for plane 0 and plane 1: [h, m, l] each (the folded form of kpke_cache).
_PAIRS_T0, _PAIRS_T1 = (
    np.ascontiguousarray(_INTT_PAIRS_T[:, 16 * o : 16 * o + 16]) for o in (0, 1)
)


def _planes_low_t(low_t: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The second NTT stage (layers len 8..2) with the planes of Algorithm 12 folded
    in: per block h, (16, 32) taking x[h, :] to (plane 0, plane 1) of NTT(x) there,
    plane 0 = (a0, a1 gamma_i mod q) and plane 1 = (a1, a0) for each pair i = 8 h +
    m // 2 (a column scaling and a column swap of T[h], each linear)."""
    gammas = np.stack([np.ones(128, dtype=I64), _GAMMAS], axis=-1).reshape(16, 1, 16)
    plane0 = low_t.astype(I64) * gammas % Q  # tables only: built at import
    swap = np.arange(16).reshape(8, 2)[:, ::-1].reshape(16)
    return np.concatenate([plane0.astype(F64), low_t[:, :, swap]], axis=2)


_NTT_PLANES_T = _planes_low_t(_NTT_LOW_T)


@functools.cache
def _pairs_tiled(k: int) -> npt.NDArray[np.float64]:
    """:data:`_INTT_PAIRS_T` repeated for the k terms of the dot product: (16, 32 k,
    16), row j * 32 + 16 o + m of block h is row 16 o + m, so one product per block
    sums over j, the planes and the pairs at once."""
    return np.ascontiguousarray(np.tile(_INTT_PAIRS_T, (1, k, 1)))


def kpke_cache(b_hat: Poly, reused: bool = False) -> Any:
    """``numpy``: for b_hat (..., k, 256) with R rows (the product of the leading
    axes), one of two forms, both float64 with entries below q:

    - ``reused=False`` (cheap to make, a couple of us: a key used once): b_hat itself
      in h-major order with each coefficient twice (once per plane of Algorithm 12),
      (R, 16, k, 2, 16) [row, h, j, plane, m]; :func:`_mul_known` multiplies it by the
      planes of the other factor (the same for every row) element by element;
    - ``reused=True`` (made once for a key used again; 0.1-1 ms): per block h, the
      matrix (16 k) x (16 R) taking block h of the first NTT stage's output for a
      (k, 256) vector a, (j, m), to the output (row, l) of the first NTT^-1 stage
      applied to sum over j of MultiplyNTTs(NTT(a)[j], b_hat[row, j]). The second
      NTT stage (layers len 8..2), the base multiplication by b_hat, the pair sums
      and the layers len 2..8 of NTT^-1 are all linear and act within block h, so
      they are one matrix per block; every intermediate is a sum of at most 16
      products below q^2 (exact), reduced mod q.
    """
    b = _as_polys(b_hat)
    k = b.shape[-2]
    if not reused:
        flat = b.reshape(-1, k, 16, 1, 16)
        cache = np.empty((flat.shape[0], 16, k, 2, 16))
        cache[...] = flat.transpose(0, 2, 1, 3, 4)
        return cache
    planes = mulcache(b.reshape(-1, k, N))  # (R, 2, k, 256)
    rows = planes.shape[0]
    view = planes.reshape(rows, 2, k, 16, 16)  # [row, plane, j, h, m]
    pl = view.transpose(3, 2, 4, 0, 1).astype(F64)  # [h, j, m, row, plane]
    # Base multiplication, pair sums and NTT^-1 layers len 2..8: for each (h, m) the
    # two planes times their rows of the 32-input stage, [h, j, m, row, l].
    qm = pl[..., 0, None] * _PAIRS_T0[:, None, :, None, :]
    qm += pl[..., 1, None] * _PAIRS_T1[:, None, :, None, :]
    qm = _mod_f64(qm)
    # NTT layers len 8..2 in front: [h, p, (j, row, l)] = T[h] (p x m) @ [h, m, ...].
    lead = np.matmul(_NTT_LOW_T, qm.transpose(0, 2, 1, 3, 4).reshape(16, 16, -1))
    out = lead.reshape(16, 16, k, rows * 16).transpose(0, 2, 1, 3)  # [h, j, p, (row, l)]
    return _mod_f64(np.ascontiguousarray(out)).reshape(16, k * 16, rows * 16)


def _mul_known(
    x: npt.NDArray[np.float64], cache: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """NTT^-1(sum over j of MultiplyNTTs(NTT(x)[j], b_hat[r, j])) for every row r, with
    x h-major (16, k, 16) in the normal domain, any representatives 0 <= x <= 3 q, and
    cache = kpke_cache(b_hat) (either form; which one is public): h-major float64
    (16, rows, 16), below 2^27.4 (not reduced)."""
    k = x.shape[1]
    # NTT layers len 128..16 (Algorithm 9): 16 terms below 3 q^2, < 2^29.1.
    y = np.matmul(_NTT_HIGH, x.reshape(16, -1))
    if cache.ndim == 3:  # the folded form
        # NTT layers len 8..2, base multiplication, pair sums, NTT^-1 layers len
        # 2..8: one product per block, 16 k <= 64 terms below 2^29.1 q: < 2^46.8.
        z = _mod_f64(np.matmul(y.reshape(16, 1, -1), cache))
    else:
        rows = cache.shape[0]
        # NTT layers len 8..2 with the planes of Algorithm 12 folded in (the base
        # multiplication is symmetric: the planes go on this factor): 16 terms below
        # 2^29.1 q, < 2^44.8, reduced: [h, j, (plane, m)].
        planes = _mod_f64(np.matmul(y.reshape(16, k, 16), _NTT_PLANES_T))
        # The products with b_hat, both below q (< 2^23.4), [row, h, (j, plane, m)];
        # the sums over j, the planes and the pairs with NTT^-1 layers len 2..8 in
        # one product per block: 32 k <= 128 terms below 2^23.4 q, < 2^42.1.
        prod = cache * planes.reshape(16, k, 2, 16)
        flat = prod.reshape(rows, 16, 32 * k).transpose(1, 0, 2)
        z = _mod_f64(np.matmul(flat, _pairs_tiled(k)))
    # NTT^-1 layers len 16..128 and 128^-1: < q^2 16 < 2^27.4.
    out: npt.NDArray[np.float64] = np.matmul(_INTT_HIGH, z.reshape(16, -1))
    return out.reshape(16, -1, 16)


@functools.cache
def _ct_layout(k: int, du: int, dv: int) -> tuple[npt.NDArray[Any], ...]:
    """Gather indices and shifts reading all (k + 1) 256 coefficients of c = c1 || c2
    (ByteDecode_du of each c1 row, ByteDecode_dv of c2) at once: coefficient n of
    row r starts at bit b = 256 du r + d n (d = du, or dv for r = k) of c, inside the
    little-endian 32-bit word at byte b // 8 (d + 7 <= 18 bits). u comes first, in
    h-major order (16, k, 16), then v in natural order. Also the Decompress_d scale
    q / 2^d (exact in float64)."""
    d = np.array([du] * k + [dv], dtype=np.int64)[:, None]
    start = np.array([256 * du * r for r in range(k + 1)], dtype=np.int64)[:, None]
    bit = start + d * np.arange(N)
    d = np.broadcast_to(d, bit.shape)

    def order(a: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        u = a[:k].reshape(k, 16, 16).transpose(1, 0, 2).reshape(-1)
        return np.concatenate([u, a[k]])

    bit, d = order(bit), order(d)
    # Bytes past a field's last one are masked off, so reading past the end of c is
    # avoided by reading its last byte there instead.
    idx = np.minimum((bit >> 3)[:, None] + np.arange(4), 32 * (du * k + dv) - 1)
    shift = (bit & 7).astype(np.uint32)
    mask = ((1 << d) - 1).astype(np.uint32)
    scale = Q / (2.0 ** d.astype(F64))
    return idx, shift, mask, scale


_MU_ONE = np.int64((Q + 1) // 2)  # Decompress_1(1) = round(q / 2) = 1665


# Compress_d(x) = floor((2^(d+1) x + q) / (2 q)) mod 2^d = floor(x S + B) mod 2^d with
# S = 2^(d+1) c and B = q c, c = fl(1/(2q)) nudged up by a relative 2^-40. Scaling by a
# power of two is exact, and the product, B and the sum round by less than a relative
# 2^-51 together (every term is positive), far below the nudge: so the computed value
# is never below the true V = (2^(d+1) x + q) / (2q), and above it by less than
# V 2^-39.9, below 2^-12.9 for V < 2^27, while V is either an integer or at least
# 1/(2q) > 2^-12.8 below the next one: its floor is exactly floor(V). Any
# representative x >= 0 of the value mod q will do: x + j q moves V by j 2^d, which
# the final mod 2^d removes; so x needs no reduction, only V < 2^27 (x < 2^27.7 for
# d <= 11).
_INV2Q_NUDGED = (1.0 / (2 * Q)) * (1.0 + 2.0**-40)
_ONES4 = np.ones(4, dtype=I64)  # sums of 4 neighbours (a product: faster than sum())


@functools.cache
def _compress_consts(k: int, du: int, dv: int) -> tuple[npt.NDArray[Any], ...]:
    """Constants of :func:`_compress_encode` for the h-major (16, k + 1, 16) block (d =
    du for the k rows of u, dv for v), full size so that every elementwise step is
    one flat loop: S = 2^(d+1) c, the mask 2^d - 1, the shift d (l mod 4) of
    coefficient 16 h + l in its group of 4; and, for (du, dv) = (10, 4), the byte
    positions of c1 || c2 in the little-endian 64-bit group values [h, row, group]
    (5 of each u group's 8 bytes, 2 of v's)."""
    d = np.array([du] * k + [dv], dtype=I64)[None, :, None]
    shape = (16, k + 1, 16)
    scale = np.broadcast_to(2.0 ** (d + 1) * _INV2Q_NUDGED, shape).copy()
    mask = np.broadcast_to((1 << d) - 1, shape).copy()
    shifts = np.broadcast_to(d * (np.arange(16) % 4), shape).copy()
    # Group G = 4 h + g of row r (coefficients 4 G .. 4 G + 3) sits at [h, r, g].
    h, g = np.divmod(np.arange(64), 4)
    rows = [8 * ((h * (k + 1) + r) * 4 + g)[:, None] + np.arange(5) for r in range(k)]
    v = 8 * ((h * (k + 1) + k) * 4 + g)[:, None] + np.arange(2)
    take = np.concatenate([x.reshape(-1) for x in (*rows, v)])
    return scale, mask, shifts, take


def _compress_encode(w: npt.NDArray[np.float64], k: int, du: int, dv: int) -> U8:
    """ByteEncode_du(Compress_du(u)) || ByteEncode_dv(Compress_dv(v)) (FIPS 203,
    Algorithm 14 lines 22-24) of h-major float64 w (16, k + 1, 16): u then v, any
    representatives 0 <= w < 2^27.7 (exact integers). For (du, dv) = (10, 4), 4
    coefficients make 5 bytes (d = 10) or 2 bytes (d = 4), the little-endian bytes of
    the group's value t0 + 2^d t1 + 2^(2d) t2 + 2^(3d) t3 (the fields do not
    overlap: a sum); other widths go through :func:`byte_encode`."""
    scale, mask, shifts, take = _compress_consts(k, du, dv)
    t = w * scale
    t += Q * _INV2Q_NUDGED
    c = t.astype(I64)  # positive: truncation is the floor
    c &= mask  # mod 2^d
    if (du, dv) != (10, 4):  # ML-KEM-1024 (11, 5): groups of 8, below
        return _encode_groups8(c, k, du, dv)
    c <<= shifts
    groups = c.reshape(16, k + 1, 4, 4) @ _ONES4  # [h, row, g], < 2^40
    encoded: U8 = groups.view(np.uint8).reshape(-1).take(take)
    return encoded


@functools.cache
def _groups8_consts(k: int, du: int, dv: int) -> tuple[npt.NDArray[Any], ...]:
    """Constants of :func:`_encode_groups8`: per row (d = du for u, dv for v) the
    weights of a group's 8 coefficients in its low 64-bit word (2^(d i) mod 2^64,
    uint64: the coefficient that straddles bit 64 leaves its low bits there) and in
    its high word (2^(d i - 64) for the coefficients that reach bit 64, float64: the
    straddling one's quotient is the floor of its exact fractional term, the only
    one), (k + 1, 8, 1) each; and the byte positions of c1 || c2 in the words
    [h, row, half, (low, high)] (the d bytes of group 2 h + half start its 16)."""
    d = np.array([du] * k + [dv], dtype=I64)[:, None]
    bit = d * np.arange(8)
    w_low = np.where(bit < 64, 1 << np.minimum(bit, 63), 0).astype(np.uint64)
    w_high = np.where(bit + d > 64, 2.0 ** (bit - 64).astype(F64), 0.0)
    h, half = np.divmod(np.arange(32), 2)
    take = [
        (16 * ((h * (k + 1) + r) * 2 + half))[:, None] + np.arange(du if r < k else dv)
        for r in range(k + 1)
    ]
    return w_low[..., None], w_high[..., None], np.concatenate([t.reshape(-1) for t in take])


def _encode_groups8(c: npt.NDArray[np.int64], k: int, du: int, dv: int) -> U8:
    """ByteEncode_du of the k rows of u and ByteEncode_dv of v (FIPS 203, Algorithm 5)
    from h-major c (16, k + 1, 16) with entries in [0, 2^d): 8 coefficients make d
    bytes, the little-endian bytes of t0 + 2^d t1 + ... + 2^(7 d) t7 (< 2^88), held
    as a low and a high 64-bit word."""
    w_low, w_high, take = _groups8_consts(k, du, dv)
    groups = c.reshape(16, k + 1, 2, 8)
    words = np.empty((16, k + 1, 2, 2), dtype=np.uint64)
    words[..., :1] = groups.view(np.uint64) @ w_low  # wraps mod 2^64 (unsigned)
    high = groups.astype(F64) @ w_high  # < 2^24, exact
    words[..., 1:] = np.floor(high, out=high)
    encoded: U8 = words.view(np.uint8).reshape(-1).take(take)
    return encoded


def _kpke_decrypt(
    dk: U8, ct: U8, k: int, du: int, dv: int, s_hat: Poly | None, s_cache: Any
) -> npt.NDArray[np.uint8]:
    """Twin of the composite :func:`pqkit.mlkem.kernels.compose.kpke_decrypt`, on
    purpose: float64 throughout (faster; benchmarks/arith_compose.py). FIPS 203,
    Algorithm 15 (K-PKE.Decrypt) lines 1-7; see the contract. ``s_cache`` is
    :func:`kpke_cache` of s_hat here."""
    if s_cache is None:  # line 5 (unless given decoded)
        s_cache = kpke_cache(byte_decode(dk.reshape(k, 384), 12) if s_hat is None else s_hat)
    # Lines 1-4: u' (h-major) and v' = Decompress(ByteDecode(.)) of all of c, public.
    idx, shift, mask, scale = _ct_layout(k, du, dv)
    words = ct[idx].view("<u4")
    x: npt.NDArray[np.float64] = ((words[:, 0] >> shift) & mask) * scale
    x += 0.5  # Decompress_d(y) = round(q y / 2^d), half up: floor(y q / 2^d + 1/2)
    np.floor(x, out=x)
    u_prime = x[: 256 * k].reshape(16, k, 16)
    # line 6: w = v' - NTT^-1(s_hat^T o NTT(u')); r < 2^27.4 < 2^16 q, so
    # x = v' + 2^16 q - r is w plus an even multiple of q, in [0, 2^28).
    r = _mul_known(u_prime, s_cache)
    x_w: npt.NDArray[np.float64] = x[256 * k :] + float(Q << 16)
    x_w -= r.reshape(N)
    # line 7: Compress_1(w) = floor((4 w + q) / (2 q)) mod 2, and for x = w + 2 j q the
    # quotient only grows by 2 j: so it is that of x, with no reduction mod q. The
    # quotient (below 2^17.3) by the nudged reciprocal, as in Compress_d above; it is
    # positive, so truncation to an integer is its floor.
    t = x_w * (4 * _INV2Q_NUDGED)
    t += Q * _INV2Q_NUDGED
    return np.packbits(t.astype(I64) & 1, bitorder="little")


kpke_decrypt = kpke_decrypt_entry(_kpke_decrypt)


# SamplePolyCBD_eta (FIPS 203, Algorithm 8) in float64 for the fused kernels: with the
# bits one per byte, each coefficient is (sum of its first eta bits) - (sum of its
# last eta bits), taken here as the representative (sum of the first) + (q - 1) (sum
# of the last), in [0, eta q]: one product of the bits with these weights. The NTT
# is linear, so it can take any representatives; its bounds allow them below 3 q.
_CBD_WEIGHTS = {eta: np.array([1.0] * eta + [Q - 1.0] * eta) for eta in (2, 3)}


def _cbd_f64(prf: npt.NDArray[np.uint8], eta: int) -> npt.NDArray[np.float64]:
    """SamplePolyCBD_eta of each row of prf (r, 64 eta): float64 (r, 256), each
    coefficient a representative in [0, eta q] (no branch, no table)."""
    bits = np.unpackbits(prf, axis=-1, bitorder="little").astype(F64)  # BLAS from here
    out: npt.NDArray[np.float64] = np.matmul(bits.reshape(-1, 2 * eta), _CBD_WEIGHTS[eta])
    return out.reshape(-1, N)


def _cbd_f64_h(prf: npt.NDArray[np.uint8], eta: int) -> npt.NDArray[np.float64]:
    """:func:`_cbd_f64` written h-major: (16, r, 16), coefficient 16 h + l of row r
    at [h, r, l]. The 16 coefficients of block h are bytes 4 eta h .. 4 eta (h + 1)
    of each row (2 eta bits each), so the bytes are put in h-major order first (a
    transposed view that unpackbits reads) and the product is one plain float64 one."""
    rows = prf.shape[0]
    blocks = prf.reshape(rows, 16, 4 * eta).transpose(1, 0, 2)
    bits = np.unpackbits(blocks, axis=-1, bitorder="little").astype(F64)
    out: npt.NDArray[np.float64] = np.matmul(bits.reshape(-1, 2 * eta), _CBD_WEIGHTS[eta])
    return out.reshape(16, rows, 16)


def _kpke_encrypt(
    k: int, eta1: int, eta2: int, arrays: Arrays, du: int, dv: int, rows: Any, rows_cache: Any
) -> npt.NDArray[np.uint8]:
    """Twin of the composite :func:`pqkit.mlkem.kernels.compose.kpke_encrypt`, on
    purpose (float64 throughout, faster). FIPS 203, Algorithm 14 (K-PKE.Encrypt)
    lines 9-24; see the contract.
    ``rows_cache`` is :func:`kpke_cache` of the rows here."""
    t, a, py, pe, mb = arrays
    if rows_cache is None:
        rows_cache = kpke_cache(encrypt_rows(t, a) if rows is None else rows)
    # Lines 9-17: y, then e1 and e2, h-major, as representatives below eta q.
    if eta1 == eta2:
        noise = _cbd_f64_h(np.concatenate([py, pe]), eta1)
        y_h, e_h = noise[:, :k], noise[:, k:]
    else:
        y_h, e_h = _cbd_f64_h(py, eta1), _cbd_f64_h(pe, eta2)
    # Lines 18, 19 and 21: NTT(y), then A_hat^T o y_hat and t_hat^T o y_hat with one
    # NTT^-1 for all k + 1 rows, h-major; + e1 and e2 (below 2^27.5).
    w = _mul_known(y_h, rows_cache)  # (16, k + 1, 16)
    w += e_h
    # line 21, with line 20: mu = Decompress_1(ByteDecode_1(m)) = 1665 per set bit.
    mu = np.unpackbits(mb, bitorder="little") * _MU_ONE
    w[:, k] += mu.reshape(16, 16)
    # Lines 22-24 on these representatives (below 2^27.5: no reduction needed).
    return _compress_encode(w, k, du, dv)


kpke_encrypt = kpke_encrypt_entry(_kpke_encrypt)


# Plane 0 of Algorithm 12 is (s0, s1 gamma_i) per pair i: these are its weights.
_PLANE_W0 = np.stack([np.ones(128), _GAMMAS.astype(F64)], axis=-1).reshape(N)
_ENC12_W = np.array([1.0, 4096.0])


@functools.cache
def _encode12_take(rows: int) -> npt.NDArray[np.int64]:
    """The 3 low bytes of each little-endian 32-bit word of (rows, 128) words."""
    return (4 * np.arange(rows * 128)[:, None] + np.arange(3)).reshape(-1)


def kpke_keygen(A_hat: Poly, prf: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """Twin of the composite :func:`pqkit.mlkem.kernels.compose.kpke_keygen`, on
    purpose (faster). FIPS 203, Algorithm 13 (K-PKE.KeyGen) lines 8-20; see the
    contract. float64
    throughout, in natural order: each NTT stage is one matrix product (the second
    with per-block matrices, read and written through transposed views)."""
    k, eta, a, x = kpke_keygen_args(A_hat, prf)
    # Lines 8-17: s and e (representatives below eta q <= 3 q), then their NTTs (the
    # two stages of :func:`ntt`), reduced.
    se = _cbd_f64(x, eta).reshape(2 * k, 16, 16)
    y = np.matmul(_NTT_HIGH, se)  # < 2^29.1
    z = np.empty((2 * k, 16, 16))
    np.matmul(y.transpose(1, 0, 2), _NTT_LOW_T, out=z.transpose(1, 0, 2))  # < 2^44.8
    se_hat = _mod_f64(z).reshape(2 * k, N)
    s_hat = se_hat[:k]
    # Line 18, A_hat o s_hat (Algorithm 12 per pair, summed over j) without reducing
    # the factors: the planes are below q^2, each product below q^3, and the 2 k <= 8
    # terms of a coefficient sum to < 2^38.2 (exact).
    planes = np.empty((2, k, N))  # [plane, j, coefficient]
    np.multiply(s_hat, _PLANE_W0, out=planes[0])
    planes[1].reshape(k, 128, 2)[...] = s_hat.reshape(k, 128, 2)[..., ::-1]
    prod = np.einsum("ijc,ojc->ioc", a, planes)  # (i, plane, 256)
    pairs = prod[..., 0::2] + prod[..., 1::2]  # (i, plane, pair): c0, c1 of each pair
    ts = np.empty((2 * k, 128, 2))  # t_hat (+ e_hat), then s_hat, in pairs
    np.add(pairs.transpose(0, 2, 1), se_hat[k:].reshape(k, 128, 2), out=ts[:k])
    ts[:k] = _mod_f64(ts[:k])
    ts[k:] = s_hat.reshape(k, 128, 2)
    # Lines 19-20: ByteEncode_12, two coefficients c0 + 4096 c1 to three bytes.
    words = np.matmul(ts, _ENC12_W).astype("<u4")  # (2 k, 128), < 2^24
    out: npt.NDArray[np.uint8] = words.view(np.uint8).reshape(-1).take(_encode12_take(2 * k))
    return out.reshape(2 * k, 384)


KERNELS: dict[str, Any] = kernel_table(MLKEMKernels, globals())
