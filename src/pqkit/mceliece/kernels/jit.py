"""Classic McEliece's ``jit`` backend: compiled loops (Numba), constant-time style.

The loops follow the reference implementation's structure: bit-serial GF(2^m)
products (no tables), masked row additions on uint64 words for the systematic
form, a bitonic sorting network with branch-free compare-exchange for
FieldOrdering and the control bits (:mod:`pqkit.mceliece.kernels.benes`), masked
exchanges for the Benes network, Berlekamp-Massey with masks for both decisions,
and roots found by evaluating the locator at every support element. Branches on
secret data are only the declassified verdicts the reference takes too.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.arith._jit import jit, jit_inline
from pqkit.arith.api import kernel_table
from pqkit.mceliece.kernels.benes import controlbits_by_sorting
from pqkit.mceliece.kernels.contract import McElieceKernels, words
from pqkit.mceliece.params import Params

_U8 = npt.NDArray[np.uint8]
_U16 = npt.NDArray[np.uint16]
_I64 = npt.NDArray[np.int64]


def _ext(p: Params) -> _I64:
    """F(y)'s low terms as an int64 (terms, 2) array of (exponent, coefficient)."""
    return np.array(p.ext_poly, dtype=np.int64).reshape(-1, 2)


def _i(v: int) -> Any:
    return np.int64(v)


# -- GF(2^m) -------------------------------------------------------------------


@jit_inline
def _reduce(r: Any, m: Any) -> Any:
    """r (degree <= 2m - 2) mod f(z) in two folds, the reference's shifts:
    z^12 = z^3 + 1 (m = 12) and z^13 = z^4 + z^3 + z + 1 (m = 13); the second fold
    takes the bits the first one carried to degree m and above."""
    if m == 12:  # public: the parameter set's field
        t = r & 0x7FC000
        r ^= (t >> 9) ^ (t >> 12)
        t = r & 0x3000
        r ^= (t >> 9) ^ (t >> 12)
        return r & 0xFFF
    t = r & 0x1FF0000
    r ^= (t >> 9) ^ (t >> 10) ^ (t >> 12) ^ (t >> 13)
    t = r & 0xE000
    r ^= (t >> 9) ^ (t >> 10) ^ (t >> 12) ^ (t >> 13)
    return r & 0x1FFF


@jit
def _mul(a: Any, b: Any, m: Any, poly: Any) -> Any:
    """a * b in GF(2^m): m products of a with one bit of b, then the folds (loops
    of constant length per field, which the compiler unrolls)."""
    r = a * (b & 1)
    if m == 12:  # public: the parameter set's field
        for i in range(1, 12):
            r ^= a * (b & (1 << i))
    else:
        for i in range(1, 13):
            r ^= a * (b & (1 << i))
    return _reduce(r, m)


@jit
def _sq(a: Any, m: Any) -> Any:
    """a^2 in GF(2^m): the bits of a spread to even positions, then the folds."""
    x = a
    x = (x | (x << 8)) & 0x00FF00FF
    x = (x | (x << 4)) & 0x0F0F0F0F
    x = (x | (x << 2)) & 0x33333333
    x = (x | (x << 1)) & 0x55555555
    return _reduce(x, m)


@jit
def _inv(a: Any, m: Any, poly: Any) -> Any:
    """a^(2^m - 2) = (a^(2^(m-1) - 1))^2, the inner power by the addition chain
    of 2^k - 1 exponents along the bits of m - 1 (public)."""
    k = m - 1
    top = 0
    while (k >> (top + 1)) != 0:
        top += 1
    r = a  # a^(2^e - 1) with e = 1
    e = 1
    for i in range(top - 1, -1, -1):
        x = r
        for _ in range(e):
            x = _sq(x, m)
        r = _mul(x, r, m, poly)  # e -> 2e
        e *= 2
        if (k >> i) & 1:
            r = _mul(_sq(r, m), a, m, poly)  # e -> e + 1
            e += 1
    return _sq(r, m)


@jit
def _eval(f: Any, deg: Any, x: Any, m: Any, poly: Any) -> Any:
    r = f[deg]
    for i in range(deg - 1, -1, -1):
        r = _mul(r, x, m, poly) ^ f[i]
    return r


@jit
def _irreducible(f: Any, t: Any, m: Any, poly: Any, ext: Any) -> Any:
    """genpoly_gen: mat[c][j] = coefficient j of beta^c; Gauss-Jordan with masked
    pivot fixing. Returns (g, ok)."""
    mat = np.zeros((t + 1, t), dtype=np.int64)
    mat[0, 0] = 1
    for i in range(t):
        mat[1, i] = f[i]
    prod = np.zeros(2 * t - 1, dtype=np.int64)
    for c in range(2, t + 1):
        prod[:] = 0
        for i in range(t):
            for j in range(t):
                prod[i + j] ^= _mul(mat[c - 1, i], f[j], m, poly)
        for d in range(2 * t - 2, t - 1, -1):
            for e in range(ext.shape[0]):
                prod[d - t + ext[e, 0]] ^= _mul(prod[d], ext[e, 1], m, poly)
        for i in range(t):
            mat[c, i] = prod[i]
    for j in range(t):
        for k in range(j + 1, t):
            mask = -(((mat[j, j] - 1) >> 62) & 1)  # all ones where the pivot is zero
            for c in range(j, t + 1):
                mat[c, j] ^= mat[c, k] & mask
        if mat[j, j] == 0:  # declassified, as the reference
            return mat[t], False
        inv = _inv(mat[j, j], m, poly)
        for c in range(j, t + 1):
            mat[c, j] = _mul(mat[c, j], inv, m, poly)
        for k in range(t):
            if k != j:  # public loop index
                v = mat[j, k]
                for c in range(j, t + 1):
                    mat[c, k] ^= _mul(mat[c, j], v, m, poly)
    return mat[t].copy(), True


# -- sorting network -------------------------------------------------------------


@jit
def _sort_rows(x: Any) -> Any:
    """Bitonic network on each row of x (rows, 2^w), values below 2^62: the
    compare-exchange is a sign mask, the directions public."""
    out = x.copy()
    rows, n = out.shape
    for r in range(rows):
        k = 2
        while k <= n:
            j = k // 2
            while j >= 1:
                for i in range(n):
                    hi = i | j
                    if hi != i:  # public: i has bit j clear
                        a = out[r, i]
                        b = out[r, hi]
                        swap = (b - a) >> 63  # all ones where b < a
                        if (i & k) != 0:  # public direction: descending
                            swap = (a - b) >> 63
                        d = (a ^ b) & swap
                        out[r, i] = a ^ d
                        out[r, hi] = b ^ d
                j //= 2
            k *= 2
    return out


def _sort(x: Any) -> _I64:
    a = np.ascontiguousarray(x, dtype=np.int64)
    shape = a.shape
    return np.asarray(_sort_rows(a.reshape(-1, shape[-1]))).reshape(shape)


# -- key generation --------------------------------------------------------------


def irreducible(p: Params, f: Any) -> _U16 | None:
    g, ok = _irreducible(np.array(f, dtype=np.int64), _i(p.t), _i(p.m), _i(p.field_poly), _ext(p))
    return np.asarray(g, dtype=np.uint16) if ok else None


def field_ordering(p: Params, a: Any) -> _I64 | None:
    keys = (np.asarray(a, dtype=np.int64) << 31) | np.arange(p.q, dtype=np.int64)
    s = _sort(keys)
    if bool(np.any((s[1:] >> 31) == (s[:-1] >> 31))):  # declassified
        return None
    return s & (p.q - 1)


@jit
def _bitrev(a: Any, m: Any) -> Any:
    r = np.int64(0)
    for i in range(m):
        r |= ((a >> i) & 1) << (m - 1 - i)
    return r


@jit
def _parity_check(g: Any, pi: Any, n: Any, t: Any, m: Any, poly: Any, nwords: Any) -> Any:
    mat = np.zeros((m * t, nwords), dtype=np.uint64)
    alpha = np.empty(n, dtype=np.int64)
    col = np.empty(n, dtype=np.int64)
    for j in range(n):
        alpha[j] = _bitrev(pi[j], m)
        col[j] = _inv(_eval(g, t, alpha[j], m, poly), m, poly)
    acc = np.zeros(m, dtype=np.uint64)
    for i in range(t):
        for w in range(nwords):
            acc[:] = 0
            for jj in range(min(64, n - 64 * w)):
                j = 64 * w + jj
                v = col[j]
                for k in range(m):
                    acc[k] |= np.uint64((v >> k) & 1) << np.uint64(jj)
                col[j] = _mul(v, alpha[j], m, poly)
            for k in range(m):
                mat[i * m + k, w] = acc[k]
    return mat


def parity_check(p: Params, g: Any, pi: Any) -> npt.NDArray[np.uint64]:
    gg = np.concatenate([np.asarray(g, dtype=np.int64), np.ones(1, dtype=np.int64)])
    return np.asarray(
        _parity_check(
            gg,
            np.array(pi, dtype=np.int64),
            _i(p.n),
            _i(p.t),
            _i(p.m),
            _i(p.field_poly),
            _i(words(p.n)),
        )
    )


@jit
def _get_window(mat: Any, row: Any, col: Any) -> Any:
    w = col >> 6
    b = col & 63
    lo = mat[row, w] >> np.uint64(b)
    if b != 0 and w + 1 < mat.shape[1]:  # public position
        lo |= mat[row, w + 1] << np.uint64(64 - b)
    return lo


@jit
def _set_window(mat: Any, row: Any, col: Any, v: Any) -> None:
    w = col >> 6
    b = col & 63
    keep = (np.uint64(1) << np.uint64(b)) - np.uint64(1)
    mat[row, w] = (mat[row, w] & keep) | (v << np.uint64(b))
    if b != 0:
        mat[row, w + 1] = (mat[row, w + 1] & ~keep) | (v >> np.uint64(64 - b))


@jit
def _move_columns(mat: Any, pi: Any, r0: Any) -> Any:
    """The reference's ``mov_columns``; returns (pivot word, ok)."""
    buf = np.empty(32, dtype=np.uint64)
    ctz = np.zeros(32, dtype=np.int64)
    one = np.uint64(1)
    for i in range(32):
        buf[i] = _get_window(mat, r0 + i, r0)
    pivots = np.uint64(0)
    for i in range(32):
        t = buf[i]
        for j in range(i + 1, 32):
            t |= buf[j]
        if t == 0:  # declassified: rank below 32
            return pivots, False
        s = 0
        seen = 0
        for b in range(64):
            bit = int((t >> np.uint64(b)) & one)
            seen |= bit
            s += (seen ^ 1) & (bit ^ 1)
        ctz[i] = s
        pivots |= one << np.uint64(s)
        for j in range(i + 1, 32):
            mask = ((buf[i] >> np.uint64(s)) & one) - one
            buf[i] ^= buf[j] & mask
        for j in range(i + 1, 32):
            mask = np.uint64(0) - ((buf[j] >> np.uint64(s)) & one)
            buf[j] ^= buf[i] & mask
    for j in range(32):
        for k in range(j + 1, 64):
            same = -((((ctz[j] ^ k) - 1) >> 62) & 1)  # all ones where k == ctz[j]
            d = (pi[r0 + j] ^ pi[r0 + k]) & same
            pi[r0 + j] ^= d
            pi[r0 + k] ^= d
    for row in range(mat.shape[0]):
        t = _get_window(mat, row, r0)
        for j in range(32):
            s = np.uint64(ctz[j])
            d = ((t >> np.uint64(j)) ^ (t >> s)) & one
            t ^= d << s
            t ^= d << np.uint64(j)
        _set_window(mat, row, r0, t)
    return pivots, True


@jit
def _systematic(mat: Any, pi: Any, mt: Any, semi: Any) -> Any:
    """Reduce to [I | T] in place: masked additions (the reference's pk_gen)."""
    nw = mat.shape[1]
    one = np.uint64(1)
    pivots = np.uint64(0xFFFFFFFF)
    for r in range(mt):
        if semi and r == mt - 32:
            pivots, ok = _move_columns(mat, pi, r)
            if not ok:
                return pivots, False
        w = r >> 6
        b = np.uint64(r & 63)
        for k in range(r + 1, mt):
            mask = np.uint64(0) - (((mat[r, w] ^ mat[k, w]) >> b) & one)
            for c in range(w, nw):
                mat[r, c] ^= mat[k, c] & mask
        if ((mat[r, w] >> b) & one) == 0:  # declassified: not systematic
            return pivots, False
        for k in range(mt):
            if k != r:  # public
                mask = np.uint64(0) - ((mat[k, w] >> b) & one)
                for c in range(w, nw):
                    mat[k, c] ^= mat[r, c] & mask
    return pivots, True


def systematic(p: Params, mat: Any, pi: Any) -> tuple[_U8, _I64, int] | None:
    work = np.array(mat, dtype=np.uint64)
    perm = np.array(pi, dtype=np.int64)
    pivots, ok = _systematic(work, perm, _i(p.mt), p.semi)
    if not ok:
        return None
    bits = np.unpackbits(work.astype("<u8").view(np.uint8), axis=1, bitorder="little")
    t_bits = np.zeros((p.mt, 8 * p.row_bytes), dtype=np.uint8)
    t_bits[:, : p.k] = bits[:, p.mt : p.n]
    pk = np.packbits(t_bits, axis=1, bitorder="little").reshape(-1)
    return pk, perm, int(pivots)


def controlbits(p: Params, pi: Any) -> _U8:
    """The reference's ``cbrecursion`` on this backend's compiled sorting network."""
    return controlbits_by_sorting(p, pi, _sort)


@jit
def _support(cb: Any, q: Any, m: Any, n: Any) -> Any:
    seq = np.empty(q, dtype=np.int64)
    for i in range(q):
        seq[i] = _bitrev(i, m)
    index = 0
    for layer in range(2 * m - 1):
        s = layer if layer < m else 2 * m - 2 - layer
        stride = 1 << s
        for i in range(0, q, 2 * stride):
            for j in range(i, i + stride):
                bit = (cb[index >> 3] >> (index & 7)) & 1
                d = (seq[j] ^ seq[j + stride]) & -np.int64(bit)
                seq[j] ^= d
                seq[j + stride] ^= d
                index += 1
    return seq[:n].copy()


def support(p: Params, cb: Any) -> _U16:
    out = _support(np.array(cb, dtype=np.int64), _i(p.q), _i(p.m), _i(p.n))
    return np.asarray(out, dtype=np.uint16)


# -- encapsulation ---------------------------------------------------------------


@jit
def _fixed_weight(buf: Any, n: Any, m: Any, t: Any) -> Any:
    """gen_e: returns (e bytes, ok)."""
    count = 0
    ind = np.zeros(t, dtype=np.int64)
    words_ = buf.shape[0] // 2
    for i in range(words_):
        v = (buf[2 * i] | (buf[2 * i + 1] << 8)) & ((1 << m) - 1)
        if count < t and v < n:  # declassified, as the reference
            ind[count] = v
            count += 1
    e = np.zeros(n // 8, dtype=np.uint8)
    if count < t:
        return e, False
    eq = 0
    for i in range(1, t):
        for j in range(i):
            eq |= ((ind[i] ^ ind[j]) - 1) >> 62 & 1
    if eq:
        return e, False
    for i in range(n // 8):
        acc = 0
        for j in range(t):
            same = -((((i ^ (ind[j] >> 3)) - 1) >> 62) & 1)
            acc |= (1 << (ind[j] & 7)) & same
        e[i] = acc
    return e, True


def fixed_weight(p: Params, buf: Any) -> _U8 | None:
    e, ok = _fixed_weight(np.array(buf, dtype=np.int64), _i(p.n), _i(p.m), _i(p.t))
    return np.asarray(e) if ok else None


@jit
def _encode(pk: Any, e: Any, mt: Any, k: Any, row_bytes: Any) -> Any:
    """C_i = e_i + <row i of T, e[mt:]>, the tail of e shifted to byte 0."""
    tail = np.zeros(row_bytes, dtype=np.uint8)
    for j in range(k):
        src = mt + j
        bit = (e[src >> 3] >> (src & 7)) & 1
        tail[j >> 3] |= bit << (j & 7)
    c = np.zeros((mt + 7) // 8, dtype=np.uint8)
    for i in range(mt):
        acc = 0
        base = i * row_bytes
        for j in range(row_bytes):
            acc ^= pk[base + j] & tail[j]
        acc ^= acc >> 4
        acc ^= acc >> 2
        acc ^= acc >> 1
        bit = (acc ^ (e[i >> 3] >> (i & 7))) & 1
        c[i >> 3] |= bit << (i & 7)
    return c


def encode(p: Params, pk: Any, e: Any) -> _U8:
    return np.asarray(
        _encode(
            np.array(pk, dtype=np.uint8),
            np.array(e, dtype=np.uint8),
            _i(p.mt),
            _i(p.k),
            _i(p.row_bytes),
        )
    )


# -- decapsulation ---------------------------------------------------------------


@jit
def _syndrome(g: Any, alpha: Any, r: Any, t: Any, m: Any, poly: Any) -> Any:
    out = np.zeros(2 * t, dtype=np.int64)
    for i in range(alpha.shape[0]):
        c = (r[i >> 3] >> (i & 7)) & 1
        a = alpha[i]
        e = _eval(g, t, a, m, poly)
        v = _inv(_mul(e, e, m, poly), m, poly) * c
        for j in range(2 * t):
            out[j] ^= v
            v = _mul(v, a, m, poly)
    return out


@jit
def _bm(s: Any, t: Any, m: Any, poly: Any) -> Any:
    c = np.zeros(t + 1, dtype=np.int64)
    b = np.zeros(t + 1, dtype=np.int64)
    tmp = np.zeros(t + 1, dtype=np.int64)
    c[0] = 1
    b[1] = 1
    big_l = np.int64(0)
    last = np.int64(1)
    for nn in range(2 * t):
        d = np.int64(0)
        for i in range(min(nn, t) + 1):
            d ^= _mul(c[i], s[nn - i], m, poly)
        mne = -((((d - 1) >> 62) & 1) ^ 1)  # all ones where d != 0
        mle = -((((nn - 2 * big_l) >> 62) & 1) ^ 1) & mne  # and N >= 2L
        for i in range(t + 1):
            tmp[i] = c[i]
        f = _mul(_inv(last, m, poly), d, m, poly)
        for i in range(t + 1):
            c[i] ^= _mul(f, b[i], m, poly) & mne
        big_l = (big_l & ~mle) | ((nn + 1 - big_l) & mle)
        for i in range(t + 1):
            b[i] = (b[i] & ~mle) | (tmp[i] & mle)
        last = (last & ~mle) | (d & mle)
        for i in range(t, 0, -1):
            b[i] = b[i - 1]
        b[0] = 0
    out = np.empty(t + 1, dtype=np.int64)
    for i in range(t + 1):
        out[i] = c[t - i]
    return out


@jit
def _decode(g: Any, alpha: Any, c: Any, n: Any, t: Any, m: Any, poly: Any) -> Any:
    """Syndrome of (C, 0..0), Berlekamp-Massey, roots at every alpha_i, then the
    syndrome of e compared. The weights 1 / g(alpha_i)^2 are computed once for
    both syndromes; the first one reads the m t ciphertext positions only (the
    others are zero in every input: a public fact)."""
    mt = m * t
    weight = np.empty(n, dtype=np.int64)
    for i in range(n):
        e = _eval(g, t, alpha[i], m, poly)
        weight[i] = _inv(_mul(e, e, m, poly), m, poly)
    s = np.zeros(2 * t, dtype=np.int64)
    for i in range(mt):
        v = weight[i] * ((c[i >> 3] >> (i & 7)) & 1)
        a = alpha[i]
        for j in range(2 * t):
            s[j] ^= v
            v = _mul(v, a, m, poly)
    loc = _bm(s, t, m, poly)
    e = np.zeros(n // 8, dtype=np.int64)
    s2 = np.zeros(2 * t, dtype=np.int64)
    w = 0
    for i in range(n):
        a = alpha[i]
        z = ((_eval(loc, t, a, m, poly) - 1) >> 62) & 1
        e[i >> 3] |= z << (i & 7)
        w += z
        v = weight[i] * z
        for j in range(2 * t):
            s2[j] ^= v
            v = _mul(v, a, m, poly)
    check = w ^ t
    for j in range(2 * t):
        check |= s[j] ^ s2[j]
    ok = ((check - 1) >> 62) & 1
    return e, ok


def _goppa(p: Params, g: Any, alpha: Any) -> tuple[Any, ...]:
    """(g with its leading 1, alpha) as int64 arrays, then t, m, f(z) as np.int64."""
    gg = np.concatenate([np.asarray(g, dtype=np.int64), np.ones(1, dtype=np.int64)])
    return gg, np.array(alpha, dtype=np.int64), _i(p.t), _i(p.m), _i(p.field_poly)


def decode(p: Params, g: Any, alpha: Any, c: Any) -> tuple[_U8, int]:
    gg, a, t, m, poly = _goppa(p, g, alpha)
    e, ok = _decode(gg, a, np.array(c, dtype=np.int64), _i(p.n), t, m, poly)
    return np.asarray(e, dtype=np.uint8), int(ok)


def evaluate(p: Params, poly: Any, points: Any) -> _U16:
    coeffs = np.array(poly, dtype=np.int64)
    out = _evaluate(coeffs, np.array(points, dtype=np.int64), _i(p.m), _i(p.field_poly))
    return np.asarray(out, dtype=np.uint16)


@jit
def _evaluate(f: Any, x: Any, m: Any, poly: Any) -> Any:
    out = np.empty(x.shape[0], dtype=np.int64)
    deg = f.shape[0] - 1
    for i in range(x.shape[0]):
        out[i] = _eval(f, deg, x[i], m, poly)
    return out


def syndrome(p: Params, g: Any, alpha: Any, r: Any) -> _U16:
    gg, a, t, m, poly = _goppa(p, g, alpha)
    return np.asarray(_syndrome(gg, a, np.array(r, dtype=np.int64), t, m, poly), dtype=np.uint16)


def berlekamp_massey(p: Params, s: Any) -> _U16:
    out = _bm(np.array(s, dtype=np.int64), _i(p.t), _i(p.m), _i(p.field_poly))
    return np.asarray(out, dtype=np.uint16)


KERNELS = kernel_table(McElieceKernels, globals())
