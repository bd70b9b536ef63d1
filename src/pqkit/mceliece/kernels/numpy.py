"""Classic McEliece's ``numpy`` backend: vectorised, constant-time style.

Field products are bit-serial (m shifted copies selected by multiplication with a
bit, then reduction by the field polynomial): no tables. Secret choices are masks
(``x & -bit``), secret permutations are applied by sorting networks (bitonic
sorts of keys with the payload in the low bits, as the reference's ``int32_sort``),
and the binary matrix is reduced on uint64 words with masked row additions. The
only branches on secret data are the declassified verdicts the reference also
takes (a failed key-generation attempt, a rejected FixedWeight draw).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.arith.api import kernel_table
from pqkit.mceliece.kernels.benes import controlbits_by_sorting
from pqkit.mceliece.kernels.contract import McElieceKernels, reduce_rows, words
from pqkit.mceliece.params import Params

_U8 = npt.NDArray[np.uint8]
_U16 = npt.NDArray[np.uint16]
_I64 = npt.NDArray[np.int64]
_ONE = np.uint64(1)


# -- GF(2^m) -------------------------------------------------------------------


def _mul(a: Any, b: Any, p: Params) -> Any:
    """a * b in GF(2^m), elementwise (broadcasting), bit-serial."""
    a = np.asarray(a, dtype=np.uint32)
    b = np.asarray(b, dtype=np.uint32)
    r = a * (b & 1)
    for i in range(1, p.m):
        r = r ^ ((a << i) * ((b >> i) & 1))
    for i in range(2 * p.m - 2, p.m - 1, -1):
        r = r ^ (((r >> i) & 1) * np.uint32(p.field_poly << (i - p.m)))
    return r


def _inv(a: Any, p: Params) -> Any:
    """a^(2^m - 2): a^-1 for a != 0 and 0 for 0, by a fixed square-and-multiply."""
    a = np.asarray(a, dtype=np.uint32)
    r = np.ones_like(a)
    for bit in f"{(1 << p.m) - 2:b}":
        r = _mul(r, r, p)
        if bit == "1":  # the public exponent's bits
            r = _mul(r, a, p)
    return r


def _eval(poly: Any, x: Any, p: Params) -> Any:
    """poly(x) elementwise over x, by Horner's rule."""
    coeffs = np.asarray(poly, dtype=np.uint32)
    x = np.asarray(x, dtype=np.uint32)
    r = np.zeros_like(x)
    for c in coeffs[::-1]:
        r = _mul(r, x, p) ^ c
    return r


def _is_zero(a: Any) -> Any:
    """1 where a == 0, else 0, without a comparison (a < 2^16)."""
    return ((np.asarray(a, dtype=np.uint32) - np.uint32(1)) >> 31) & 1


def _ext_mul(x: Any, y: Any, p: Params) -> npt.NDArray[np.uint32]:
    """x * y in GF(2^m)[y]/F(y): the t x t products, summed along anti-diagonals
    (rows skewed by a reshape), then reduced by F from degree 2t - 2 down."""
    t = p.t
    prods = _mul(np.asarray(x)[:, None], np.asarray(y)[None, :], p)
    padded = np.zeros((t, 2 * t), dtype=np.uint32)
    padded[:, :t] = prods
    skewed = padded.reshape(-1)[: t * (2 * t - 1)].reshape(t, 2 * t - 1)
    prod = [int(v) for v in np.bitwise_xor.reduce(skewed, axis=0).tolist()]
    consts = [(e, c) for e, c in p.ext_poly]
    for d in range(2 * t - 2, t - 1, -1):
        v = prod[d]
        for e, c in consts:
            prod[d - t + e] ^= v if c == 1 else int(_mul(v, c, p))
    return np.array(prod[:t], dtype=np.uint32)


# -- sorting network -------------------------------------------------------------


@cache
def _bitonic_stages(n: int) -> tuple[tuple[_I64, _I64, npt.NDArray[np.bool_]], ...]:
    """(low index, high index, ascending) of every compare-exchange stage of the
    bitonic sorting network on n = 2^w entries (public structure)."""
    idx = np.arange(n, dtype=np.int64)
    stages = []
    k = 2
    while k <= n:
        j = k // 2
        while j >= 1:
            lo = idx[(idx & j) == 0]
            stages.append((lo, lo | j, (lo & k) == 0))
            j //= 2
        k *= 2
    return tuple(stages)


def _sort(x: Any) -> npt.NDArray[np.int64]:
    """Each row of x (..., n), n a power of two, sorted ascending by a bitonic
    network: minimum / maximum and selects on public positions only."""
    out = np.array(x, dtype=np.int64)
    for lo, hi, asc in _bitonic_stages(out.shape[-1]):
        a = out[..., lo]
        b = out[..., hi]
        small = np.minimum(a, b)
        large = np.maximum(a, b)
        out[..., lo] = np.where(asc, small, large)
        out[..., hi] = np.where(asc, large, small)
    return out


# -- key generation --------------------------------------------------------------


def irreducible(p: Params, f: Any) -> _U16 | None:
    """Spec §2.4.1 (Irreducible): Gauss-Jordan on the columns 1, beta, .., beta^t
    with masked pivot fixing (the reference's ``genpoly_gen``)."""
    t = p.t
    beta = np.asarray(f, dtype=np.uint32)
    cols = [np.eye(1, t, 0, dtype=np.uint32)[0], beta]
    for _ in range(2, t + 1):
        cols.append(_ext_mul(cols[-1], beta, p))
    mat = np.stack(cols, axis=1)  # (t coefficient rows, t + 1 power columns)
    for j in range(t):
        for k in range(j + 1, t):  # add row k while the pivot is zero (a mask)
            mat[j, j:] ^= mat[k, j:] * _is_zero(mat[j, j])
        if int(mat[j, j]) == 0:  # declassified, as in the reference: not of degree t
            return None
        mat[j] = _mul(mat[j], _inv(mat[j, j], p), p)
        factors = mat[:, j].copy()
        factors[j] = 0
        mat ^= _mul(factors[:, None], mat[j][None, :], p)
    return mat[:, t].astype(np.uint16)


def field_ordering(p: Params, a: Any) -> _I64 | None:
    """Spec §2.4.2 (FieldOrdering): sort (a_i << 31 | i) with the network; None if
    two a_i are equal (declassified, as the reference)."""
    a = np.asarray(a, dtype=np.int64)
    keys = _sort((a << 31) | np.arange(p.q, dtype=np.int64))
    if bool(np.any((keys[1:] >> 31) == (keys[:-1] >> 31))):
        return None
    return keys & (p.q - 1)


def _bitrev(x: Any, m: int) -> Any:
    x = np.asarray(x, dtype=np.uint32)
    out = np.zeros_like(x)
    for i in range(m):
        out |= ((x >> i) & 1) << (m - 1 - i)
    return out


def evaluate(p: Params, poly: Any, points: Any) -> _U16:
    """poly(x) at each point (Horner, bit-serial products)."""
    return np.asarray(_eval(poly, points, p), dtype=np.uint16)


def parity_check(p: Params, g: Any, pi: Any) -> npt.NDArray[np.uint64]:
    """Spec §2.2.2 (MatGen) before reduction, packed into uint64 words."""
    alpha = _bitrev(np.asarray(pi)[: p.n], p.m)
    gg = np.concatenate([np.asarray(g, dtype=np.uint32), np.ones(1, dtype=np.uint32)])
    col = _inv(_eval(gg, alpha, p), p)
    pad = 64 * words(p.n)
    bits = np.zeros((p.t, p.m, pad), dtype=np.uint8)
    for i in range(p.t):
        bits[i, :, : p.n] = (col[None, :] >> np.arange(p.m, dtype=np.uint32)[:, None]) & 1
        col = _mul(col, alpha, p)
    packed = np.packbits(bits.reshape(p.mt, pad), axis=1, bitorder="little")
    return packed.view("<u8").astype(np.uint64)


def _window(mat: npt.NDArray[np.uint64], col: int) -> Any:
    """Columns col .. col + 63 of every row as one uint64 (bit j = column col + j)."""
    w, b = divmod(col, 64)
    lo = mat[:, w] >> np.uint64(b)
    if b == 0 or w + 1 >= mat.shape[1]:
        return lo
    return lo | (mat[:, w + 1] << np.uint64(64 - b))


def _set_window(mat: npt.NDArray[np.uint64], col: int, win: npt.NDArray[np.uint64]) -> None:
    w, b = divmod(col, 64)
    keep = np.uint64((1 << b) - 1)
    mat[:, w] = (mat[:, w] & keep) | (win << np.uint64(b))
    if b:
        mat[:, w + 1] = (mat[:, w + 1] & ~np.uint64((1 << b) - 1)) | (win >> np.uint64(64 - b))


def _ctz(v: int) -> int:
    """Trailing zeros of a nonzero 64-bit value, counted without a data branch."""
    r, seen = 0, 0
    for i in range(64):
        bit = (v >> i) & 1
        seen |= bit
        r += (seen ^ 1) & (bit ^ 1)
    return r


def _move_columns(mat: npt.NDArray[np.uint64], perm: _I64, r0: int) -> int | None:
    """The ``f`` sets' column moves at row r0 (spec §2.2.1, mu = 32, nu = 64), as
    the reference's ``mov_columns``: masked elimination on the 32 x 64 window."""
    full = (1 << 64) - 1
    buf = [int(v) for v in _window(mat, r0)[r0 : r0 + 32].tolist()]
    ctz: list[int] = []
    for i in range(32):
        t = 0
        for j in range(i, 32):
            t |= buf[j]
        if t == 0:  # declassified: the window has rank below 32
            return None
        s = _ctz(t)
        ctz.append(s)
        for j in range(i + 1, 32):
            buf[i] ^= buf[j] & ((((buf[i] >> s) & 1) - 1) & full)
        for j in range(i + 1, 32):
            buf[j] ^= buf[i] & (-((buf[j] >> s) & 1) & full)
    ks = np.arange(64, dtype=np.int64)
    seg = perm[r0 : r0 + 64].copy()
    for j, s in enumerate(ctz):
        sel = (ks > j) & (ks == s)  # k == ctz[j], as a mask over all k
        d = (seg[j] ^ seg) * sel
        seg[j] ^= np.bitwise_xor.reduce(d)
        seg ^= d
    perm[r0 : r0 + 64] = seg
    win = _window(mat, r0)
    for j, s in enumerate(ctz):
        d = ((win >> np.uint64(j)) ^ (win >> np.uint64(s))) & _ONE
        win = win ^ (d << np.uint64(s)) ^ (d << np.uint64(j))
    _set_window(mat, r0, win)
    return sum(1 << s for s in ctz)


def systematic(p: Params, mat: Any, pi: Any) -> tuple[_U8, _I64, int] | None:
    """Spec §2.2.1 on uint64 words: per pivot, a masked addition of the first row
    below that has the pivot bit (if the pivot row lacks it), then every other row
    with the bit adds the pivot row (masks, no data branches)."""
    m = np.array(mat, dtype=np.uint64)
    perm = np.array(pi, dtype=np.int64)
    mt = p.mt

    def pivot_row(r: int) -> bool:
        w, b = divmod(r, 64)
        sub = m[:, w:]
        col = (sub[:, 0] >> np.uint64(b)) & _ONE
        below = col[r + 1 :]
        first = below * (np.cumsum(below) == 1) * (_ONE - col[r])
        sub[r] ^= np.bitwise_xor.reduce(sub[r + 1 :] & (np.uint64(0) - first)[:, None], axis=0)
        if not int((sub[r, 0] >> np.uint64(b)) & _ONE):  # declassified: not systematic
            return False
        col = (sub[:, 0] >> np.uint64(b)) & _ONE
        col[r] = 0
        sub ^= sub[r][None, :] & (np.uint64(0) - col)[:, None]
        return True

    pivots = reduce_rows(p, lambda r0: _move_columns(m, perm, r0), pivot_row)
    if pivots is None:
        return None
    bits = np.unpackbits(m.astype("<u8").view(np.uint8), axis=1, bitorder="little")
    t_bits = np.zeros((mt, 8 * p.row_bytes), dtype=np.uint8)
    t_bits[:, : p.k] = bits[:, mt : p.n]
    pk = np.packbits(t_bits, axis=1, bitorder="little").reshape(-1)
    return pk, perm, pivots


def controlbits(p: Params, pi: Any) -> _U8:
    """The reference's ``cbrecursion`` on the bitonic network of this backend
    (:func:`pqkit.mceliece.kernels.benes.controlbits_by_sorting`)."""
    return controlbits_by_sorting(p, pi, _sort)


def support(p: Params, cb: Any) -> _U16:
    """The Benes network of cb applied to (bitrev(0), ..): per layer, a masked
    exchange of the entries stride apart."""
    q, m = p.q, p.m
    bits = np.unpackbits(np.asarray(cb, dtype=np.uint8), bitorder="little").astype(np.uint32)
    seq = _bitrev(np.arange(q), m)
    index = 0
    for s in [*range(m), *range(m - 2, -1, -1)]:
        stride = 1 << s
        v = seq.reshape(q // (2 * stride), 2, stride)
        sel = bits[index : index + q // 2].reshape(q // (2 * stride), stride)
        d = (v[:, 0, :] ^ v[:, 1, :]) * sel
        v = np.stack([v[:, 0, :] ^ d, v[:, 1, :] ^ d], axis=1)
        seq = v.reshape(q)
        index += q // 2
    return np.asarray(seq[: p.n], dtype=np.uint16)


# -- encapsulation ---------------------------------------------------------------


def fixed_weight(p: Params, buf: Any) -> _U8 | None:
    """Spec §2.4.4 (FixedWeight): the first t words below n chosen by one-hot
    masks from a running count; duplicates found by comparing all pairs."""
    raw = np.asarray(buf, dtype=np.uint8)
    d = (raw.view("<u2").astype(np.int64)) & ((1 << p.m) - 1)
    valid = ((d - p.n) >> 63) & 1  # d < n
    rank = np.cumsum(valid) - 1
    onehot = valid[None, :] * (rank[None, :] == np.arange(p.t)[:, None])
    chosen = (onehot * d[None, :]).sum(axis=1)
    count = int(valid.sum())
    same = chosen[:, None] == chosen[None, :]
    if count < p.t or int(same.sum()) != p.t:  # declassified, as the reference
        return None
    hits = (chosen[:, None] == np.arange(p.n)[None, :]).any(axis=0)
    return np.packbits(hits.astype(np.uint8), bitorder="little")


def encode(p: Params, pk: Any, e: Any) -> _U8:
    """Spec §2.2.3 (Encode): C = e[:mt] + T e[mt:], parities by XOR folding."""
    ebits = np.unpackbits(np.asarray(e, dtype=np.uint8), bitorder="little")
    tail = np.packbits(ebits[p.mt :], bitorder="little")
    tail_padded = np.zeros(p.row_bytes, dtype=np.uint8)
    tail_padded[: tail.size] = tail
    rows = np.asarray(pk, dtype=np.uint8).reshape(p.mt, p.row_bytes)
    acc = np.bitwise_xor.reduce(rows & tail_padded[None, :], axis=1)
    for sh in (4, 2, 1):
        acc ^= acc >> sh
    cbits = (acc & 1) ^ ebits[: p.mt]
    return np.packbits(cbits, bitorder="little")


# -- decapsulation ---------------------------------------------------------------


def syndrome(p: Params, g: Any, alpha: Any, r: Any) -> _U16:
    """The 2t sums of r_i alpha_i^j / g(alpha_i)^2, vectorised over i."""
    alpha = np.asarray(alpha, dtype=np.uint32)
    rbits = np.unpackbits(np.asarray(r, dtype=np.uint8), bitorder="little")[: p.n]
    gg = np.concatenate([np.asarray(g, dtype=np.uint32), np.ones(1, dtype=np.uint32)])
    e = _eval(gg, alpha, p)
    v = _inv(_mul(e, e, p), p) * rbits.astype(np.uint32)
    out = np.zeros(2 * p.t, dtype=np.uint16)
    for j in range(2 * p.t):
        out[j] = np.bitwise_xor.reduce(v)
        v = _mul(v, alpha, p)
    return out


def berlekamp_massey(p: Params, s: Any) -> _U16:
    """Berlekamp-Massey with masks for both decisions (the reference's ``bm``)."""
    t = p.t
    seq = np.asarray(s, dtype=np.uint32)
    c = np.zeros(t + 1, dtype=np.uint32)
    b = np.zeros(t + 1, dtype=np.uint32)
    c[0] = 1
    b[1] = 1
    big_l = 0
    last = 1
    full = 0xFFFFFFFF
    for n_ in range(2 * t):
        k = min(n_, t)
        d = int(np.bitwise_xor.reduce(_mul(c[: k + 1], seq[n_ - k : n_ + 1][::-1], p)))
        mne = -(((d - 1) >> 31 & 1) ^ 1) & full  # all ones where d != 0
        mle = -(((n_ - 2 * big_l) >> 31 & 1) ^ 1) & mne  # and N >= 2L
        old = c.copy()
        factor = _mul(_inv(last, p), d, p)
        c = c ^ (_mul(factor, b, p) & np.uint32(mne))
        big_l = (big_l & ~mle) | ((n_ + 1 - big_l) & mle)
        b = (b & np.uint32(~mle & full)) | (old & np.uint32(mle))
        last = (last & ~mle) | (d & mle)
        b = np.concatenate([np.zeros(1, dtype=np.uint32), b[:t]])
    return c[::-1].astype(np.uint16)


def decode(p: Params, g: Any, alpha: Any, c: Any) -> tuple[_U8, int]:
    """Spec §2.2.4 (Decode): syndrome, Berlekamp-Massey, roots by evaluation at
    every alpha_i, then weight and syndrome checks folded into a 0/1 verdict."""
    r = np.zeros(p.n // 8, dtype=np.uint8)
    r[: p.length_ciphertext] = np.asarray(c, dtype=np.uint8)
    s = syndrome(p, g, alpha, r)
    roots = _eval(berlekamp_massey(p, s), alpha, p)
    ebits = _is_zero(roots).astype(np.uint8)
    e = np.packbits(ebits, bitorder="little")
    check = (int(ebits.sum()) ^ p.t) | int(np.bitwise_or.reduce(syndrome(p, g, alpha, e) ^ s))
    ok = ((check - 1) >> 31) & 1  # 1 iff check == 0
    return e, ok


KERNELS = kernel_table(McElieceKernels, globals())
