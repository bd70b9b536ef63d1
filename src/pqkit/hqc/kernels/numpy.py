"""The ``numpy`` HQC kernels: whole-array operations, no branch, index or table
lookup on a secret (docs/architecture.md §8), within what NumPy can promise.

Contract: :class:`pqkit.hqc.kernels.contract.HQCKernels`.

- Products in GF(2)[x]/(x^n - 1) by a fixed-weight vector: for HQC-1 and HQC-3,
  shifted copies of the dense factor (a barrel shifter over the word offset whose
  every level runs, masks choosing), XORed; for HQC-5, integer convolutions of the
  0/1 coefficient vectors by a real FFT (exact: no sum exceeds the weight of the
  sparse factor), taken mod 2. Both folded at x^n. The sparse factor's vector is
  built from its support by comparisons with every word index (no store at a
  secret index).
- The linear steps of the code are GF(2) matrix products with public matrices
  (:mod:`pqkit.hqc.kernels.tables`): Reed-Solomon encoding and syndromes, and the
  Reed-Muller encoding; Reed-Muller decoding is a product with the 128 x 128
  Hadamard matrix and a peak found as the maximum of a key that orders |value|,
  then the first index.
- Products in GF(2^8) of secrets are bit-sliced: the 64 products of bits times
  alpha^(i + j) (public), XORed; inverses are a^254.
- Reed-Solomon decoding follows the reference code's fixed schedule: the same
  number of steps whatever the errors, the updates chosen by masks.

NOTE: NumPy and Python give no constant-time guarantee (big-integer and ufunc
timings may vary with values); the control flow and memory access do not depend
on secrets here.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

from pqkit.arith.api import kernel_table
from pqkit.hqc.kernels.contract import U8, U32, HQCKernels, Support, Words
from pqkit.hqc.kernels.tables import (
    GF_EXP,
    rm_generator,
    rs_parity_matrix,
    rs_syndrome_matrix,
)

__all__ = ["KERNELS"]

backend = "numpy"

I64 = npt.NDArray[np.int64]

# --- GF(2)^n ------------------------------------------------------------------------------


def support_from_random(rand: U32, n: int) -> Support:
    w = rand.shape[0]
    i = np.arange(w, dtype=np.uint64)
    support: Support = (
        i + ((rand.astype(np.uint64) * (np.uint64(n) - i)) >> np.uint64(32))
    ).astype(np.int64)
    for t in range(w - 2, -1, -1):  # public schedule; the replacement is a masked select
        found = -np.int64(np.count_nonzero(support[t + 1 :] == support[t]) != 0)
        support[t] ^= (support[t] ^ t) & found
    return support


def support_to_vector(support: Support, n: int) -> Words:
    words = (n + 63) // 64
    index = (support >> 6).astype(np.int64)
    bit = np.left_shift(np.uint64(1), (support & 63).astype(np.uint64))
    hit = np.arange(words, dtype=np.int64)[:, None] == index[None, :]
    out: Words = np.bitwise_or.reduce(hit.astype(np.uint64) * bit[None, :], axis=1)
    return out


@cache
def _fft_size(n: int) -> int:
    """The least 5-smooth length >= 2n - 1 (the real FFT is fastest on those)."""
    size = 1 << (2 * n - 2).bit_length()
    threes = 1
    while threes < size:
        fives = threes
        while fives < size:
            length = fives
            while length < 2 * n - 1:
                length *= 2
            size = min(size, length)
            fives *= 5
        threes *= 3
    return size


def _bits(v: Words, n: int) -> npt.NDArray[np.uint8]:
    """(..., W) words -> (..., n) bits."""
    raw = np.ascontiguousarray(v, dtype="<u8").view(np.uint8)
    return np.unpackbits(raw, axis=-1, bitorder="little")[..., :n]


def _pack(bits: npt.NDArray[np.uint8], n: int) -> Words:
    """(..., n) bits -> (..., W) words."""
    words = (n + 63) // 64
    out = np.zeros((*bits.shape[:-1], 8 * words), dtype=np.uint8)
    packed = np.packbits(bits, axis=-1, bitorder="little")
    out[..., : packed.shape[-1]] = packed
    return out.view("<u8").astype(np.uint64)


def _mul_fft(support: Support, dense: Words, n: int) -> Words:
    """The product by a real FFT: exact integer convolution, mod 2, folded at x^n."""
    size = _fft_size(n)
    a = np.fft.rfft(_bits(support_to_vector(support, n), n).astype(np.float64), size)
    b = np.fft.rfft(_bits(dense, n).astype(np.float64), size, axis=-1)
    full = np.rint(np.fft.irfft(a * b, size, axis=-1)[..., : 2 * n - 1]).astype(np.int64) & 1
    folded = full[..., :n].copy()
    folded[..., : n - 1] ^= full[..., n:]
    return _pack(folded.astype(np.uint8), n)


def _mul_barrel(support: Support, dense: Words, n: int) -> Words:
    """The product by shifting: every position's copy of ``dense`` (rows of one
    array) shifted by p mod 64 bits (a per-row shift count), then by p // 64 words
    through a barrel shifter whose every level runs (a mask per row picks shifted
    or not); the rows XORed, folded at x^n."""
    words = (n + 63) // 64
    size = 2 * words + 1
    rows = dense.reshape(-1, words)
    s = (support & 63).astype(np.uint64)[:, None, None]
    q = support >> 6
    d = np.zeros((rows.shape[0], words + 1), dtype=np.uint64)
    d[:, :words] = rows
    prev = np.zeros_like(d)
    prev[:, 1:] = d[:, :-1]
    buf = np.zeros((support.shape[0], rows.shape[0], size), dtype=np.uint64)
    one = np.uint64(1)
    buf[..., : words + 1] = (d[None] << s) | ((prev[None] >> one) >> (np.uint64(63) - s))
    for b in range(((n - 1) >> 6).bit_length()):
        step = 1 << b
        m = (np.uint64(0) - ((q >> b) & 1).astype(np.uint64))[:, None, None]
        live = min(size, words + 2 * step)  # words past it are still 0
        hi = buf[..., step:live]
        buf[..., step:live] = hi ^ ((hi ^ buf[..., : live - step]) & m)
        buf[..., :step] &= ~m
    acc = np.bitwise_xor.reduce(buf, axis=0)
    r = np.uint64(n & 63)
    out = acc[:, :words] ^ (acc[:, words - 1 : 2 * words - 1] >> r)
    out ^= acc[:, words : 2 * words] << (np.uint64(64) - r)
    out[:, -1] &= (one << r) - one
    product: Words = out.reshape(dense.shape)
    return product


_BARREL_MAX_N = 40_000
"""Below this n the shifts beat the FFT (HQC-1, HQC-3); above it (HQC-5) the FFT
wins (benchmarks/hqc.py; both are exact and branch-free on the positions)."""


def mul_sparse(support: Support, dense: Words, n: int) -> Words:
    sup = np.asarray(support, dtype=np.int64)
    vec = np.asarray(dense, dtype=np.uint64)
    return _mul_barrel(sup, vec, n) if n < _BARREL_MAX_N else _mul_fft(sup, vec, n)


# --- GF(2^8), bit-sliced ------------------------------------------------------------------

_SHIFT = np.arange(8, dtype=np.uint8)
_PRODUCTS = np.array([[GF_EXP[i + j] for j in range(8)] for i in range(8)], dtype=np.uint8)


def _gf_mul(a: npt.ArrayLike, b: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """a * b in GF(2^8), elementwise (broadcasting): XOR of a_i b_j alpha^(i + j)."""
    xa = (np.asarray(a, dtype=np.uint8)[..., None] >> _SHIFT) & 1
    yb = (np.asarray(b, dtype=np.uint8)[..., None] >> _SHIFT) & 1
    terms = (xa[..., :, None] & yb[..., None, :]) * _PRODUCTS
    out: npt.NDArray[np.uint8] = np.bitwise_xor.reduce(
        terms.reshape(*terms.shape[:-2], 64), axis=-1
    )
    return out


# On purpose the twin of the jit backend's _gf_mul / _gf_inv (a backend never borrows another's).
def _gf_mul_int(a: int, b: int) -> int:
    """a * b in GF(2^8) for two Python ints: carry-less product bit by bit with
    masks, then reduced by masks (the scalar steps of Berlekamp's algorithm)."""
    r = 0
    for i in range(8):
        r ^= (a << i) & -((b >> i) & 1)
    for i in range(14, 7, -1):
        r ^= (0x11D << (i - 8)) & -((r >> i) & 1)
    return r


def _gf_inv_int(a: int) -> int:
    """a^254 for a Python int (the reference's addition chain)."""
    sq = _gf_mul_int(a, a)
    t1 = _gf_mul_int(sq, a)
    inv = _gf_mul_int(sq, sq)
    t2 = _gf_mul_int(inv, t1)
    t1 = _gf_mul_int(inv, t2)
    inv = _gf_mul_int(t1, inv)
    for _ in range(3):
        inv = _gf_mul_int(inv, inv)
    inv = _gf_mul_int(inv, t2)
    return _gf_mul_int(inv, inv)


def _gf_inv(a: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """a^254 (= a^-1, and 0 for 0), by the reference's addition chain."""
    x = np.asarray(a, dtype=np.uint8)
    sq = _gf_mul(x, x)  # a^2
    t1 = _gf_mul(sq, x)  # a^3
    inv = _gf_mul(sq, sq)  # a^4
    t2 = _gf_mul(inv, t1)  # a^7
    t1 = _gf_mul(inv, t2)  # a^11
    inv = _gf_mul(t1, inv)  # a^15
    for _ in range(3):
        inv = _gf_mul(inv, inv)  # a^120
    inv = _gf_mul(inv, t2)  # a^127
    return _gf_mul(inv, inv)  # a^254


# --- Reed-Solomon ---------------------------------------------------------------------------


@cache
def _matrix(kind: str, a: int, b: int) -> U8:
    table = rs_parity_matrix(a, b) if kind == "parity" else rs_syndrome_matrix(a, b)
    return np.array(table, dtype=np.uint8)


def _gf2_apply(matrix: U8, symbols: U8) -> U8:
    """The GF(2) product: uint8 sums (no BLAS threads), whose wrap-around mod 256
    keeps the parity."""
    bits = np.unpackbits(np.asarray(symbols, dtype=np.uint8), bitorder="little")
    return np.packbits((matrix @ bits) & 1, bitorder="little")


def rs_encode(msg: U8, delta: int) -> U8:
    msg = np.asarray(msg, dtype=np.uint8)
    parity = _gf2_apply(_matrix("parity", msg.shape[0], delta), msg)
    return np.concatenate([parity, msg])


# On purpose the twin of the jit backend's Berlekamp steps (both follow the reference's).
def _error_locator(synd: U8, delta: int) -> tuple[U8, int]:
    """Berlekamp's algorithm on the reference's schedule (``compute_elp``): 2 delta
    steps whatever the syndromes, each update chosen by 16-bit masks. Its values are
    bytes, so it runs on Python ints (of one fixed size) with the masked carry-less
    product: a NumPy call per step would cost more than the arithmetic."""
    syn = [int(v) for v in synd]
    sigma = [1] + [0] * delta
    x_sigma_p = [0, 1] + [0] * (delta - 1)
    deg_sigma = deg_sigma_p = 0
    pp, d_p, d = 0xFFFF, 1, syn[0]
    for mu in range(2 * delta):
        sigma_copy = sigma[:delta]
        deg_sigma_copy = deg_sigma
        dd = _gf_mul_int(d, _gf_inv_int(d_p))
        top = min(mu + 1, delta) + 1
        for i in range(1, top):
            sigma[i] ^= _gf_mul_int(dd, x_sigma_p[i])
        deg_x_sigma_p = (((mu - pp) & 0xFFFF) + deg_sigma_p) & 0xFFFF
        mask1 = -(((-d) & 0xFFFF) >> 15) & 0xFFFF
        mask2 = -(((deg_sigma - deg_x_sigma_p) & 0xFFFF) >> 15) & 0xFFFF
        m12 = mask1 & mask2
        deg_sigma ^= m12 & (deg_x_sigma_p ^ deg_sigma)
        if mu == 2 * delta - 1:
            break
        pp ^= m12 & (mu ^ pp)
        d_p ^= m12 & (d ^ d_p)
        x_sigma_p = [0] + [
            (m12 & c) ^ (~m12 & x) for c, x in zip(sigma_copy, x_sigma_p[:delta], strict=True)
        ]
        deg_sigma_p ^= m12 & (deg_sigma_copy ^ deg_sigma_p)
        d = syn[mu + 1]
        for i in range(1, top):
            d ^= _gf_mul_int(sigma[i], syn[mu + 1 - i])
    return np.array(sigma, dtype=np.uint8), deg_sigma


@cache
def _root_powers(n1: int, delta: int) -> U8:
    """alpha^(-i e), i < n1, e <= delta (public)."""
    return np.array(
        [[GF_EXP[(-i * e) % 255] for e in range(delta + 1)] for i in range(n1)], dtype=np.uint8
    )


@cache
def _z_index(delta: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], U8]:
    """For z_i, i = 2..delta: the (sigma_j, S_(i-j-1)) index pairs, j = 1..i-1, padded
    with a zero term (mask)."""
    rows = delta + 1
    sig = np.zeros((rows, delta), dtype=np.int64)
    syn = np.zeros((rows, delta), dtype=np.int64)
    use = np.zeros((rows, delta), dtype=np.uint8)
    for i in range(2, delta + 1):
        for j in range(1, i):
            sig[i, j], syn[i, j], use[i, j] = j, i - j - 1, 0xFF
    return sig, syn, use


def rs_decode(cdw: U8, k: int, delta: int) -> U8:
    c = np.asarray(cdw, dtype=np.uint8)
    n1 = c.shape[0]
    synd = _gf2_apply(_matrix("syndrome", n1, delta), c)
    sigma, degree = _error_locator(synd, delta)
    # roots: position i is in error when sigma(alpha^-i) = 0
    values = np.bitwise_xor.reduce(_gf_mul(_root_powers(n1, delta), sigma[None, :]), axis=1)
    error = (values == 0).astype(np.int64)
    # z(x) (``compute_z_poly``): terms with i > degree masked off, z_1 gets S_0 anyway
    idx = np.arange(delta + 1)
    live = ((idx <= degree).astype(np.uint8) * np.uint8(0xFF)).astype(np.uint8)
    sig, syn, use = _z_index(delta)
    sums = np.bitwise_xor.reduce(_gf_mul(sigma[sig], synd[syn]) & use, axis=1)
    z = sigma.copy()
    z[2:] ^= synd[1:delta] ^ sums[2:]
    z &= live
    z[0] = 1
    z[1] ^= synd[0]
    # the error values (``compute_error_values``): the first delta error positions
    # in order, selected by comparisons with a running count
    rank = np.cumsum(error) - error
    slot = (error[:, None] == 1) & (rank[:, None] == np.arange(delta)[None, :])
    slot8 = slot.astype(np.uint8) * np.uint8(0xFF)
    alpha_i = np.array([GF_EXP[i] for i in range(n1)], dtype=np.uint8)
    beta = np.bitwise_xor.reduce(slot8 & alpha_i[:, None], axis=0)
    found = np.count_nonzero(slot)  # min(#roots, delta); public to the schedule below
    inv = _gf_inv(beta)
    powers = np.empty((delta, delta), dtype=np.uint8)
    p = np.ones(delta, dtype=np.uint8)
    for j in range(delta):
        p = _gf_mul(p, inv)
        powers[:, j] = p
    tmp1 = np.uint8(1) ^ np.bitwise_xor.reduce(_gf_mul(powers, z[None, 1:]), axis=1)
    rot = (np.arange(delta)[:, None] + np.arange(1, delta)[None, :]) % delta
    factors = np.uint8(1) ^ _gf_mul(inv[:, None], beta[rot])
    tmp2 = np.ones(delta, dtype=np.uint8)
    for t in range(delta - 1):
        tmp2 = _gf_mul(tmp2, factors[:, t])
    live_e = ((np.arange(delta) < found).astype(np.uint8) * np.uint8(0xFF)).astype(np.uint8)
    e = live_e & _gf_mul(tmp1, _gf_inv(tmp2))
    correction = np.bitwise_xor.reduce(slot8 & e[None, :], axis=1)
    fixed = c ^ correction
    msg: U8 = fixed[2 * delta : 2 * delta + k].copy()
    return msg


# --- duplicated Reed-Muller ----------------------------------------------------------------

_RM = np.array(rm_generator(), dtype=np.uint8)  # (8, 128)


def _hadamard(a: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The Walsh-Hadamard transform of each row (..., 128), natural order: seven
    butterfly passes (sums, then differences, of neighbouring pairs)."""
    for _ in range(7):
        pairs = a.reshape(*a.shape[:-1], 64, 2)
        a = np.concatenate([pairs[..., 0] + pairs[..., 1], pairs[..., 0] - pairs[..., 1]], axis=-1)
    return a


def rm_encode(cdw: U8, multiplicity: int) -> Words:
    bits = np.unpackbits(np.asarray(cdw, dtype=np.uint8)[:, None], axis=1, bitorder="little")
    words = (bits @ _RM) & 1  # (n1, 128); uint8 sums <= 8
    copies = np.repeat(words, multiplicity, axis=0)
    return np.packbits(copies, axis=1, bitorder="little").reshape(-1).view("<u8").astype(np.uint64)


def rm_decode(words: Words, n1: int, multiplicity: int) -> U8:
    raw = np.ascontiguousarray(words, dtype="<u8").view(np.uint8)
    bits = np.unpackbits(raw, bitorder="little").reshape(n1, multiplicity, 128)
    t = _hadamard(bits.sum(axis=1, dtype=np.int64))
    t[:, 0] -= 64 * multiplicity
    # key: |t| first, then the earliest index, then the sign (one index per key)
    key = (np.abs(t) << 9) | ((127 - np.arange(128)) << 1)[None, :] | (t > 0)
    peak = key.max(axis=1)
    pos = 127 - ((peak >> 1) & 127)
    out: U8 = (pos | ((peak & 1) << 7)).astype(np.uint8)
    return out


KERNELS = kernel_table(HQCKernels, globals())
