"""Classic McEliece's ``ref`` backend: plain Python ints, written to read like the
specification (round 4, 2022; section numbers below are its). It is the oracle the
other backends are tested against and is **not constant-time**: field products go
through log / antilog tables, sorts use Python's ``sorted``, and rows of the
parity-check matrix are Python ints (bit j = column j).

Field elements are ints in [0, 2^m); a polynomial is a sequence of coefficients,
lowest degree first. Arrays at the boundary follow the contract
(:mod:`pqkit.mceliece.kernels.contract`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.arith.api import kernel_table
from pqkit.mceliece.kernels.contract import McElieceKernels, reduce_rows, words
from pqkit.mceliece.kernels.tables import bitrev, exp_log
from pqkit.mceliece.params import Params

_U8 = npt.NDArray[np.uint8]


def _bytes_array(data: bytes) -> _U8:
    """``data`` as a new uint8 array."""
    return np.array(bytearray(data), dtype=np.uint8)


class _Field:
    """GF(2^m) by log / antilog tables (not constant-time: the oracle only)."""

    def __init__(self, p: Params) -> None:
        self.m = p.m
        self.exp, self.log = exp_log(p.m, p.field_poly)
        self.order = (1 << p.m) - 1

    def mul(self, a: int, b: int) -> int:
        if a == 0 or b == 0:
            return 0
        return self.exp[self.log[a] + self.log[b]]

    def inv(self, a: int) -> int:
        """a^-1 for a != 0; 0 for 0 (as a^(2^m - 2), the reference's convention)."""
        return 0 if a == 0 else self.exp[self.order - self.log[a]]

    def eval(self, f: list[int], a: int) -> int:
        """f(a) by Horner's rule."""
        r = 0
        for c in reversed(f):
            r = self.mul(r, a) ^ c
        return r


def _ext_mul(fld: _Field, p: Params, x: list[int], y: list[int]) -> list[int]:
    """x * y in GF(2^m)[y]/F(y) (spec §2.1): schoolbook product, then y^t = the low
    terms of F for each degree from 2t - 2 down to t."""
    t = p.t
    prod = [0] * (2 * t - 1)
    for i, xi in enumerate(x):
        for j, yj in enumerate(y):
            prod[i + j] ^= fld.mul(xi, yj)
    for d in range(2 * t - 2, t - 1, -1):
        for e, c in p.ext_poly:
            prod[d - t + e] ^= fld.mul(prod[d], c)
    return prod[:t]


def irreducible(p: Params, f: Any) -> npt.NDArray[np.uint16] | None:
    """Spec §2.4.1 (Irreducible): the minimal polynomial g of beta = sum f_i y^i
    over GF(2^m), monic of degree t, returned as g_0 .. g_{t-1}; None if beta's
    degree is below t. Solves g_0 + g_1 beta + ... + g_{t-1} beta^(t-1) = beta^t
    by Gauss-Jordan elimination on the columns 1, beta, ..., beta^t."""
    fld = _Field(p)
    t = p.t
    beta = [int(v) for v in np.asarray(f).tolist()]
    powers = [[1] + [0] * (t - 1), beta]
    for _ in range(2, t + 1):
        powers.append(_ext_mul(fld, p, powers[-1], beta))
    # rows: coefficient positions; columns: the powers 0..t (the last is the target)
    rows = [[powers[c][r] for c in range(t + 1)] for r in range(t)]
    for j in range(t):
        pivot = next((r for r in range(j, t) if rows[r][j] != 0), None)
        if pivot is None:
            return None
        rows[j], rows[pivot] = rows[pivot], rows[j]
        inv = fld.inv(rows[j][j])
        rows[j] = [fld.mul(v, inv) for v in rows[j]]
        for r in range(t):
            if r != j and rows[r][j] != 0:
                c = rows[r][j]
                rows[r] = [v ^ fld.mul(c, w) for v, w in zip(rows[r], rows[j], strict=True)]
    return np.array([rows[r][t] for r in range(t)], dtype=np.uint16)


def field_ordering(p: Params, a: Any) -> npt.NDArray[np.int64] | None:
    """Spec §2.4.2 (FieldOrdering) on the 2^m 32-bit values a_i: None if two are
    equal, else pi with (a_pi(0), pi(0)), (a_pi(1), pi(1)), ... in increasing order."""
    vals = [int(v) for v in np.asarray(a).tolist()]
    if len(set(vals)) != len(vals):
        return None
    order = sorted(range(len(vals)), key=lambda i: (vals[i], i))
    return np.array(order, dtype=np.int64)


def evaluate(p: Params, poly: Any, points: Any) -> npt.NDArray[np.uint16]:
    """poly(x) for every x in ``points``."""
    fld = _Field(p)
    f = [int(v) for v in np.asarray(poly).tolist()]
    return np.array([fld.eval(f, int(x)) for x in np.asarray(points).tolist()], dtype=np.uint16)


def parity_check(p: Params, g: Any, pi: Any) -> npt.NDArray[np.uint64]:
    """Spec §2.2.2 (MatGen), the matrix H~ before reduction: row i m + k, column j
    holds bit k of alpha_j^i / g(alpha_j), for 0 <= i < t, 0 <= k < m, 0 <= j < n,
    with alpha_j = bitrev(pi(j)) (spec §2.4.2)."""
    fld = _Field(p)
    gg = [int(v) for v in np.asarray(g).tolist()] + [1]
    xs = [bitrev(int(v), p.m) for v in np.asarray(pi).tolist()[: p.n]]
    col = [fld.inv(fld.eval(gg, x)) for x in xs]
    rows = []
    for _ in range(p.t):
        for k in range(p.m):
            rows.append(sum(((v >> k) & 1) << j for j, v in enumerate(col)))
        col = [fld.mul(v, x) for v, x in zip(col, xs, strict=True)]
    return _pack_rows(rows, p.n)


def _pack_rows(rows: list[int], nbits: int) -> npt.NDArray[np.uint64]:
    w = words(nbits)
    out = np.zeros((len(rows), w), dtype=np.uint64)
    for i, r in enumerate(rows):
        out[i] = np.frombuffer(r.to_bytes(8 * w, "little"), dtype="<u8")
    return out


def _unpack_rows(mat: Any) -> list[int]:
    a = np.ascontiguousarray(np.asarray(mat, dtype="<u8"))
    return [int.from_bytes(row.tobytes(), "little") for row in a]


def systematic(
    p: Params, mat: Any, pi: Any
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64], int] | None:
    """Spec §2.2.1: reduce H~ (m t rows, n columns) to [I_mt | T]; return (T as the
    public key bytes, pi, c) or None where that fails.

    Plain sets: column r is the pivot of row r; the reduction fails if H~'s first
    m t columns are singular; c = 2^32 - 1. ``f`` sets (mu = 32, nu = 64): when
    row r0 = m t - 32 is reached, the pivot columns of rows r0.. within columns
    r0 .. r0 + 63 (the leftmost independent ones) are swapped into columns
    r0 .. r0 + 31, pi follows the same swaps, c has bit j set for each pivot
    offset j; it fails if those 32 rows have rank below 32 there.
    """
    mt = p.mt
    rows = _unpack_rows(mat)
    perm = [int(v) for v in np.asarray(pi).tolist()]

    def pivot_row(r: int) -> bool:
        pivot = next((k for k in range(r, mt) if (rows[k] >> r) & 1), None)
        if pivot is None:
            return False
        rows[r], rows[pivot] = rows[pivot], rows[r]
        for k in range(mt):
            if k != r and (rows[k] >> r) & 1:
                rows[k] ^= rows[r]
        return True

    pivots = reduce_rows(p, lambda r0: _move_columns(rows, perm, r0), pivot_row)
    if pivots is None:
        return None
    nbytes = p.row_bytes
    pk = b"".join(((row >> mt) & ((1 << p.k) - 1)).to_bytes(nbytes, "little") for row in rows)
    return np.frombuffer(pk, dtype=np.uint8).copy(), np.array(perm, dtype=np.int64), pivots


def _move_columns(rows: list[int], perm: list[int], r0: int) -> int | None:
    """The ``f`` sets' column moves (spec §2.2.1, mu = 32, nu = 64) at row r0."""
    window = [(row >> r0) & ((1 << 64) - 1) for row in rows[r0 : r0 + 32]]
    cols: list[int] = []
    for i in range(32):  # Gaussian elimination on the 32 x 64 window, leftmost pivots
        pivot_col = min(
            (
                (w & -w).bit_length() - 1
                for w in window[i:]
                if w != 0  # the lowest set column of any remaining row
            ),
            default=None,
        )
        if pivot_col is None:
            return None
        k = next(k for k in range(i, 32) if (window[k] >> pivot_col) & 1)
        window[i], window[k] = window[k], window[i]
        for j in range(i + 1, 32):
            if (window[j] >> pivot_col) & 1:
                window[j] ^= window[i]
        cols.append(pivot_col)
    for j, c in enumerate(cols):  # swap column r0 + j with column r0 + c, in order
        perm[r0 + j], perm[r0 + c] = perm[r0 + c], perm[r0 + j]
        for idx, row in enumerate(rows):
            a, b = (row >> (r0 + j)) & 1, (row >> (r0 + c)) & 1
            rows[idx] = row ^ ((a ^ b) << (r0 + j)) ^ ((a ^ b) << (r0 + c))
    return sum(1 << c for c in cols)


def controlbits(p: Params, pi: Any) -> npt.NDArray[np.uint8]:
    """The (2m - 1) 2^(m-1) control bits of the Benes network that maps position i
    to pi(i) (spec §2.4.3 and Bernstein, "Verified fast formulas for control bits
    for permutation networks", 2020: the recursion ``cbrecursion``). Bit pos of
    the output is bit pos % 8 of byte pos // 8."""
    n = p.q
    out = bytearray(p.cond_bytes)
    _cbrecursion(out, 0, 1, [int(v) for v in np.asarray(pi).tolist()], p.m, n)
    return _bytes_array(bytes(out))


def _cbrecursion(out: bytearray, pos: int, step: int, pi: list[int], w: int, n: int) -> None:
    """Control bits of the network for pi on n = 2^w inputs at positions pos,
    pos + step, ... (first layer), the last layer (2w - 2) n / 2 steps later, and
    the middle network's two halves interleaved in between."""
    if w == 1:
        out[pos >> 3] ^= pi[0] << (pos & 7)
        return
    inv = [0] * n
    for x, v in enumerate(pi):
        inv[v] = x
    # pibar(x) = pi(pi^-1(x ^ 1) ^ 1); c(x) = the smallest label of x's cycle
    # under pibar, found by pointer doubling: c = min(x, pibar(x)), p = pibar^2,
    # then w - 2 rounds of c <- min(c, c o p), p <- p o p.
    p_ = [pi[inv[x ^ 1] ^ 1] for x in range(n)]
    c = [min(x, p_[x]) for x in range(n)]
    p_ = [p_[p_[x]] for x in range(n)]
    for _ in range(1, w - 1):
        cp = [c[p_[x]] for x in range(n)]
        c = [min(c[x], cp[x]) for x in range(n)]
        p_ = [p_[p_[x]] for x in range(n)]
    # First layer: f_j = c(2j) & 1; F(x) = x ^ f_{x >> 1}.
    f = [c[2 * j] & 1 for j in range(n // 2)]
    for j in range(n // 2):
        out[pos >> 3] ^= f[j] << (pos & 7)
        pos += step
    big_f = [x ^ f[x >> 1] for x in range(n)]
    # Fpi = F o pi.
    fpi = [big_f[pi[y]] for y in range(n)]
    pos += (2 * w - 3) * step * (n // 2)
    # Last layer: l_k = Fpi(2k) & 1; L(y) = y ^ l_{y >> 1}.
    lbits = [fpi[2 * k] & 1 for k in range(n // 2)]
    for k in range(n // 2):
        out[pos >> 3] ^= lbits[k] << (pos & 7)
        pos += step
    big_l = [y ^ lbits[y >> 1] for y in range(n)]
    # The middle permutation M = F o pi o L (L an involution): M(L(y)) = Fpi(y);
    # its even and odd halves (halved) are the two subnetworks' permutations.
    mid = [0] * n
    for y in range(n):
        mid[big_l[y]] = fpi[y]
    pos -= (2 * w - 2) * step * (n // 2)
    q0 = [mid[2 * j] >> 1 for j in range(n // 2)]
    q1 = [mid[2 * j + 1] >> 1 for j in range(n // 2)]
    _cbrecursion(out, pos, step * 2, q0, w - 1, n // 2)
    _cbrecursion(out, pos + step, step * 2, q1, w - 1, n // 2)


def support(p: Params, cb: Any) -> npt.NDArray[np.uint16]:
    """alpha_0 .. alpha_{n-1} from the control bits (spec §2.5.3, Decap step 1):
    the Benes network applied to (bitrev(0), ..., bitrev(q - 1)), layers of
    strides 2^0 .. 2^(m-1) .. 2^0, then the first n entries."""
    bits = bytes(np.asarray(cb, dtype=np.uint8).tolist())
    q, m = p.q, p.m
    seq = [bitrev(i, m) for i in range(q)]
    index = 0
    for s in [*range(m), *range(m - 2, -1, -1)]:
        stride = 1 << s
        for i in range(0, q, 2 * stride):
            for j in range(i, i + stride):
                if (bits[index >> 3] >> (index & 7)) & 1:
                    seq[j], seq[j + stride] = seq[j + stride], seq[j]
                index += 1
    return np.array(seq[: p.n], dtype=np.uint16)


def fixed_weight(p: Params, buf: Any) -> npt.NDArray[np.uint8] | None:
    """Spec §2.4.4 (FixedWeight) on one draw of ``p.weight_bytes`` bytes: d_j = the
    j-th little-endian 16-bit word mod 2^m; the first t of them below n (all of the
    t words when n = 2^m) must be distinct; e has ones at those positions. None
    (draw again) if fewer than t are below n or two are equal."""
    raw = bytes(np.asarray(buf, dtype=np.uint8).tolist())
    mask = (1 << p.m) - 1
    ds = [int.from_bytes(raw[2 * j : 2 * j + 2], "little") & mask for j in range(len(raw) // 2)]
    chosen = [d for d in ds if d < p.n][: p.t]
    if len(chosen) < p.t or len(set(chosen)) < p.t:
        return None
    e = sum(1 << d for d in chosen)
    return _bytes_array(e.to_bytes(p.n // 8, "little"))


def encode(p: Params, pk: Any, e: Any) -> npt.NDArray[np.uint8]:
    """Spec §2.2.3 (Encode): C = H e with H = (I_mt | T)."""
    mt, k = p.mt, p.k
    ev = int.from_bytes(bytes(np.asarray(e, dtype=np.uint8).tolist()), "little")
    tail = ev >> mt
    raw = bytes(np.asarray(pk, dtype=np.uint8).tolist())
    nb = p.row_bytes
    c = 0
    for i in range(mt):
        row = int.from_bytes(raw[i * nb : (i + 1) * nb], "little") & ((1 << k) - 1)
        bit = ((ev >> i) & 1) ^ (bin(row & tail).count("1") & 1)
        c |= bit << i
    return _bytes_array(c.to_bytes(p.length_ciphertext, "little"))


def syndrome(p: Params, g: Any, alpha: Any, r: Any) -> npt.NDArray[np.uint16]:
    """The 2t values s_j = sum_i r_i alpha_i^j / g(alpha_i)^2, 0 <= j < 2t (the
    syndrome of r for the Goppa code of g^2, spec §2.2.4)."""
    fld = _Field(p)
    gg = [int(v) for v in np.asarray(g).tolist()] + [1]
    bits = int.from_bytes(bytes(np.asarray(r, dtype=np.uint8).tolist()), "little")
    out = [0] * (2 * p.t)
    for i, a in enumerate(np.asarray(alpha).tolist()):
        if (bits >> i) & 1:
            e = fld.eval(gg, int(a))
            v = fld.inv(fld.mul(e, e))
            for j in range(2 * p.t):
                out[j] ^= v
                v = fld.mul(v, int(a))
    return np.array(out, dtype=np.uint16)


def berlekamp_massey(p: Params, s: Any) -> npt.NDArray[np.uint16]:
    """Berlekamp-Massey on the 2t syndrome values: the error locator sigma
    (connection polynomial C) returned reversed, x^t C(1/x), lowest degree first,
    so that its roots are the alpha_i of the error positions."""
    fld = _Field(p)
    t = p.t
    seq = [int(v) for v in np.asarray(s).tolist()]
    c = [1] + [0] * t
    b = [0, 1] + [0] * (t - 1)
    big_l, last = 0, 1
    for n_ in range(2 * t):
        d = 0
        for i in range(min(n_, t) + 1):
            d ^= fld.mul(c[i], seq[n_ - i])
        if d != 0:
            factor = fld.mul(d, fld.inv(last))
            old = c[:]
            c = [ci ^ fld.mul(factor, bi) for ci, bi in zip(c, b, strict=True)]
            if n_ >= 2 * big_l:
                big_l = n_ + 1 - big_l
                b = old
                last = d
        b = [0, *b[:t]]
    return np.array(c[::-1], dtype=np.uint16)


def decode(p: Params, g: Any, alpha: Any, c: Any) -> tuple[npt.NDArray[np.uint8], int]:
    """Spec §2.2.4 (Decode) of C: (e, 1) with e of weight t and H e = C, or
    (e, 0) when decoding fails (e then is whatever the roots gave)."""
    r = np.zeros(p.n // 8, dtype=np.uint8)
    r[: p.length_ciphertext] = np.asarray(c, dtype=np.uint8)
    s = syndrome(p, g, alpha, r)
    roots = evaluate(p, berlekamp_massey(p, s), alpha)
    e_int = sum(1 << i for i, v in enumerate(roots.tolist()) if v == 0)
    e = np.frombuffer(e_int.to_bytes(p.n // 8, "little"), dtype=np.uint8).copy()
    ok = bin(e_int).count("1") == p.t and np.array_equal(syndrome(p, g, alpha, e), s)
    return e, int(ok)


KERNELS = kernel_table(McElieceKernels, globals())
