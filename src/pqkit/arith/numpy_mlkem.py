"""The ``numpy`` ML-KEM kernels: vectorised, the default backend.

Contracts: :class:`pqkit.arith.api.MLKEMKernels`. Leading axes are batch axes, so
a whole vector or matrix is one call.

How the secret-dependent arithmetic stays branch-free (DESIGN.md §5):

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

from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.arith.api import Poly
from pqkit.arith.ref_mlkem import GAMMAS, ZETAS, N, Q

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


_QINV = 1.0 / Q


def _reduce_f64(x: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
    """x mod q for float64 holding exact integers 0 <= x < 2^50, as int64.

    floor(x * fl(1/q)) is floor(x / q) except when x is a multiple of q and the
    product rounds just below it (relative error < 2^-52, and x / q has no other
    fractional part within 1/q of an integer), so r is in [0, q] and one masked
    subtraction finishes.
    """
    t = x * _QINV
    np.floor(t, out=t)
    t *= -Q
    t += x
    r = t.astype(I64)
    r -= (r >= Q) * Q
    return r


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


def _stage_matrices(
    first: npt.NDArray[np.int64], second: npt.NDArray[np.int64], high_first: bool
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Split two linear maps (rows = images of unit vectors) on index n = 16 h + l
    into the (16, 16) high-bit matrix and the (16, 16, 16) per-h low-bit matrices."""
    idx = np.arange(16)
    high_map, low_map = (first, second) if high_first else (second, first)
    # high stage: out[16h + l] = sum_h' M[h, h'] f[16h' + l]; the same for every l.
    m_high = high_map[16 * idx[None, :], 16 * idx[:, None]]
    for lane in range(16):
        assert np.array_equal(high_map[16 * idx[None, :] + lane, 16 * idx[:, None] + lane], m_high)
    # low stage, per h, written transposed for row-vector products:
    # out[16h + l] = sum_l' T[h, l', l] f[16h + l'].
    m_low_t = np.stack([low_map[16 * h + idx[:, None], 16 * h + idx[None, :]] for h in range(16)])
    return m_high.astype(F64), m_low_t.astype(F64)


def _build_tables() -> tuple[npt.NDArray[np.float64], ...]:
    eye = np.eye(N, dtype=I64)
    f1 = eye.copy()
    i = _ntt_layers(f1, (128, 64, 32, 16), 1)
    f2 = eye.copy()
    assert _ntt_layers(f2, (8, 4, 2), i) == 128
    ntt_high, ntt_low_t = _stage_matrices(f1, f2, high_first=True)
    g1 = eye.copy()
    i = _intt_layers(g1, (2, 4, 8), 127)
    g2 = eye.copy()
    assert _intt_layers(g2, (16, 32, 64, 128), i) == 0
    g2 = g2 * 3303 % Q  # 128^-1 mod q, folded into the last stage
    intt_high, intt_low_t = _stage_matrices(g1, g2, high_first=False)
    return ntt_high, ntt_low_t, intt_high, intt_low_t


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
    """``numpy`` layout: int64 (..., 128) holding b_hat[2i+1] * gamma_i mod q."""
    b = _as_polys(b_hat)
    return _barrett(b[..., 1::2] * _GAMMAS)


def basemul_acc(a_hat: Poly, b_hat: Poly, cache: Any = None) -> Poly:
    a = _as_polys(a_hat)
    b = _as_polys(b_hat)
    if a.ndim < 2 or b.ndim < 2:
        raise ValueError("basemul_acc expects (..., k, 256) arrays")
    b1g = mulcache(b) if cache is None else np.asarray(cache)
    a0 = a[..., 0::2]
    a1 = a[..., 1::2]
    # FIPS 203, Algorithm 12 for every pair, summed over k before one reduction:
    # each product < 2^23.4, at most 2k <= 8 terms, so sums < 2^27 < 2^28.
    c0 = (a0 * b[..., 0::2] + a1 * b1g).sum(axis=-2)
    c1 = (a0 * b[..., 1::2] + a1 * b[..., 0::2]).sum(axis=-2)
    out = np.empty((*c0.shape[:-1], N), dtype=I64)
    out[..., 0::2] = c0
    out[..., 1::2] = c1
    return _barrett(out)


def rej_uniform(buf: npt.NDArray[np.uint8]) -> tuple[Poly, npt.NDArray[np.int64]]:
    raw = _as_bytes(buf)
    lead = raw.shape[:-1]
    n = raw.shape[-1]
    if n % 3:
        raise ValueError(f"rej_uniform needs a multiple of 3 bytes, got {n}")
    c = raw.reshape(int(np.prod(lead, dtype=I64)), n // 3, 3).astype(I64)
    cand = np.empty((c.shape[0], n // 3, 2), dtype=I64)
    cand[..., 0] = c[..., 0] | ((c[..., 1] & 15) << 8)  # d1
    cand[..., 1] = (c[..., 1] >> 4) | (c[..., 2] << 4)  # d2
    cand = cand.reshape(c.shape[0], -1)
    accept = cand < Q
    position = np.cumsum(accept, axis=-1)
    keep = accept & (position <= N)
    counts = np.minimum(accept.sum(axis=-1), N)
    if counts.size and counts.min() == N:
        # Public data: every row has enough candidates, and keep has exactly 256
        # True entries per row, in order.
        out = cand[keep].reshape(-1, N)
    else:
        out = np.zeros((c.shape[0], N), dtype=I64)
        rows, cols = np.nonzero(keep)
        out[rows, position[rows, cols] - 1] = cand[rows, cols]
    return out.reshape(*lead, N), counts.astype(I64).reshape(lead)


def cbd(buf: npt.NDArray[np.uint8], eta: int) -> Poly:
    raw = _as_bytes(buf, 64 * eta)
    lead = raw.shape[:-1]
    bits = np.unpackbits(raw, axis=-1, bitorder="little").reshape(*lead, N, 2, eta)
    s = bits.sum(axis=-1, dtype=I64)
    f = s[..., 0] - s[..., 1]
    return f + (f < 0) * Q  # type: ignore[no-any-return]


_SHIFTS = {d: np.arange(d, dtype=I64) for d in range(1, 13)}


def byte_encode(f: Poly, d: int) -> npt.NDArray[np.uint8]:
    a = _as_polys(f)
    lead = a.shape[:-1]
    if d == 12:
        p = a.reshape(*lead, 128, 2)
        x, y = p[..., 0], p[..., 1]
        out = np.empty((*lead, 128, 3), dtype=np.uint8)
        out[..., 0] = x & 255
        out[..., 1] = (x >> 8) | ((y & 15) << 4)
        out[..., 2] = y >> 4
        return out.reshape(*lead, 384)
    if d == 4:
        p = a.reshape(*lead, 128, 2)
        return (p[..., 0] | (p[..., 1] << 4)).astype(np.uint8)
    if d == 1:
        return np.packbits(a.astype(np.uint8), axis=-1, bitorder="little")
    bits = ((a[..., None] >> _SHIFTS[d]) & 1).astype(np.uint8).reshape(*lead, N * d)
    return np.packbits(bits, axis=-1, bitorder="little")


def byte_decode(b: npt.NDArray[np.uint8], d: int) -> Poly:
    raw = _as_bytes(b, 32 * d)
    lead = raw.shape[:-1]
    if d == 12:
        c = raw.reshape(*lead, 128, 3).astype(I64)
        out = np.empty((*lead, 128, 2), dtype=I64)
        out[..., 0] = c[..., 0] | ((c[..., 1] & 15) << 8)
        out[..., 1] = (c[..., 1] >> 4) | (c[..., 2] << 4)
        return _csub(out.reshape(*lead, N))  # ByteDecode_12 reduces mod q; x < 4096 < 2q
    if d == 4:
        c = raw.astype(I64)
        out = np.empty((*lead, 128, 2), dtype=I64)
        out[..., 0] = c & 15
        out[..., 1] = c >> 4
        return out.reshape(*lead, N)
    bits = np.unpackbits(raw, axis=-1, bitorder="little").reshape(*lead, N, d).astype(I64)
    return (bits << _SHIFTS[d]).sum(axis=-1)  # type: ignore[no-any-return]


# Compress_d(x) = floor((2^(d+1) x + q) / (2q)) mod 2^d. The numerator is < 2^25 for
# d <= 11, and with m = ceil(2^40 / 2q) the product floor(n m / 2^40) is exact for
# n < 2^27 (same argument as _barrett), so no division is performed.
_COMPRESS_M = -(-(1 << 40) // (2 * Q))


def compress(f: Poly, d: int) -> Poly:
    a = _as_polys(f)
    numerator = (a << (d + 1)) + Q
    return ((numerator * _COMPRESS_M) >> 40) & ((1 << d) - 1)


def decompress(y: Poly, d: int) -> Poly:
    a = _as_polys(y)
    # round(q y / 2^d), half up: floor((2 q y + 2^d) / 2^(d+1)), a shift.
    return (a * (2 * Q) + (1 << d)) >> (d + 1)


KERNELS: dict[str, Any] = {
    "ntt": ntt,
    "intt": intt,
    "mulcache": mulcache,
    "basemul_acc": basemul_acc,
    "rej_uniform": rej_uniform,
    "cbd": cbd,
    "byte_encode": byte_encode,
    "byte_decode": byte_decode,
    "compress": compress,
    "decompress": decompress,
}
