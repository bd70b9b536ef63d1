"""The ``jit`` HQC kernels: compiled loops (Numba) on the reference code's
constant-time schedule.

Contract: :class:`pqkit.hqc.kernels.contract.HQCKernels`, as the ``numpy`` and ``ref``
backends. How the secrets stay out of branches and addresses (docs/architecture.md §8):

- ``mul_sparse``: for each secret position p = 64 q + s, the dense vector is shifted
  by s bits (shifts by a variable count are constant-time instructions) and then by
  q words through a barrel shifter over the bits of q (every level runs, a mask
  picks shifted or not), into a 2W-word product folded at x^n at the end;
- ``support_to_vector``: every word compared with every position (masks);
- ``support_from_random``: the repeats found by comparing each position with every
  later one, the replacement a masked select (``vect_generate_random_support2``);
- GF(2^8): carry-less products bit by bit with masks, reduced by masks, inverses
  a^254 (no log / exp table on a secret);
- Reed-Solomon decoding: the reference's fixed schedule (``compute_elp``,
  ``compute_z_poly``, ``compute_error_values``), the roots by evaluating sigma at
  every alpha^-i; Reed-Muller decoding: the Hadamard transform and a masked peak.
"""

from __future__ import annotations

import numpy as np

from pqkit.arith._jit import jit, jit_inline
from pqkit.arith.api import kernel_table
from pqkit.hqc.kernels.contract import U8, U32, HQCKernels, Support, Words
from pqkit.hqc.kernels.tables import GF_EXP, rs_generator

__all__ = ["KERNELS"]

backend = "jit"

_EXP = np.array([*GF_EXP, *GF_EXP], dtype=np.int64)  # alpha^i for 0 <= i < 510 (public)

# --- GF(2)^n --------------------------------------------------------------------------------


@jit
def _support_from_random(rand: U32, n: int, out: Support) -> None:
    w = rand.shape[0]
    for i in range(w):
        out[i] = i + ((np.uint64(rand[i]) * np.uint64(n - i)) >> np.uint64(32))
    for i in range(w - 2, -1, -1):
        found = 0
        for j in range(i + 1, w):
            diff = out[j] - out[i]
            found |= 1 ^ (((diff | -diff) >> 63) & 1)
        mask = -found
        out[i] = (mask & i) ^ (~mask & out[i])


def support_from_random(rand: U32, n: int) -> Support:
    out = np.empty(rand.shape[0], dtype=np.int64)
    _support_from_random(np.ascontiguousarray(rand, dtype=np.uint32), int(n), out)
    return out


@jit
def _support_to_vector(support: Support, out: Words) -> None:
    for i in range(out.shape[0]):
        val = np.uint64(0)
        for j in range(support.shape[0]):
            diff = i - (support[j] >> 6)
            hit = 1 ^ (((diff | -diff) >> 63) & 1)
            bit = np.uint64(1) << np.uint64(support[j] & 63)
            val |= bit & (np.uint64(0) - np.uint64(hit))
        out[i] = val


def support_to_vector(support: Support, n: int) -> Words:
    out = np.empty((n + 63) // 64, dtype=np.uint64)
    _support_to_vector(np.ascontiguousarray(support, dtype=np.int64), out)
    return out


@jit
def _mul_sparse(support: Support, dense: Words, n: int, out: Words) -> None:
    w = dense.shape[0]
    size = 2 * w + 1
    acc = np.zeros(size, dtype=np.uint64)
    buf = np.zeros(size, dtype=np.uint64)
    levels = 0
    while (1 << levels) <= ((n - 1) >> 6):
        levels += 1
    one = np.uint64(1)
    for t in range(support.shape[0]):
        p = support[t]
        s = np.uint64(p & 63)
        back = np.uint64(63) - s
        q = p >> 6
        prev = np.uint64(0)
        for j in range(w):  # shift by s bits (the >> 1 keeps s = 0 in range)
            cur = dense[j]
            buf[j] = (cur << s) | ((prev >> one) >> back)
            prev = cur
        buf[w] = (prev >> one) >> back
        for j in range(w + 1, size):
            buf[j] = 0
        for b in range(levels):  # shift by q words: every level, a mask chooses
            step = 1 << b
            m = np.uint64(0) - np.uint64((q >> b) & 1)
            live = min(size, w + 2 * step)  # words past w + 2^(b+1) - 1 are still 0
            for j in range(live - 1, step - 1, -1):
                buf[j] ^= (buf[j] ^ buf[j - step]) & m
            for j in range(step):
                buf[j] &= ~m
        for j in range(size):
            acc[j] ^= buf[j]
    r = np.uint64(n & 63)
    for i in range(w):  # fold x^(n + i) onto x^i
        out[i] = acc[i] ^ (acc[i + w - 1] >> r) ^ (acc[i + w] << (np.uint64(64) - r))
    out[w - 1] &= (one << r) - one


def mul_sparse(support: Support, dense: Words, n: int) -> Words:
    if dense.ndim == 2:
        return np.stack([mul_sparse(support, row, n) for row in dense])
    out = np.empty((n + 63) // 64, dtype=np.uint64)
    _mul_sparse(
        np.ascontiguousarray(support, dtype=np.int64),
        np.ascontiguousarray(dense, dtype=np.uint64),
        int(n),
        out,
    )
    return out


# --- GF(2^8) ---------------------------------------------------------------------------------


@jit_inline
def _gf_mul(a: int, b: int) -> int:
    r = 0
    for i in range(8):
        r ^= (a << i) & -((b >> i) & 1)
    for i in range(14, 7, -1):
        r ^= (0x11D << (i - 8)) & -((r >> i) & 1)
    return r


@jit_inline
def _gf_inv(a: int) -> int:
    sq = _gf_mul(a, a)  # a^2
    t1 = _gf_mul(sq, a)  # a^3
    inv = _gf_mul(sq, sq)  # a^4
    t2 = _gf_mul(inv, t1)  # a^7
    t1 = _gf_mul(inv, t2)  # a^11
    inv = _gf_mul(t1, inv)  # a^15
    inv = _gf_mul(inv, inv)  # a^30
    inv = _gf_mul(inv, inv)  # a^60
    inv = _gf_mul(inv, inv)  # a^120
    inv = _gf_mul(inv, t2)  # a^127
    return _gf_mul(inv, inv)  # a^254


# --- Reed-Solomon ----------------------------------------------------------------------------


@jit
def _rs_encode(msg: U8, g: np.ndarray, out: U8) -> None:
    k = msg.shape[0]
    parity = g.shape[0] - 1
    cdw = np.zeros(parity, dtype=np.int64)
    for i in range(k):
        gate = np.int64(msg[k - 1 - i]) ^ cdw[parity - 1]
        for j in range(parity - 1, 0, -1):
            cdw[j] = cdw[j - 1] ^ _gf_mul(gate, g[j])
        cdw[0] = _gf_mul(gate, g[0])
    for j in range(parity):
        out[j] = cdw[j]
    for j in range(k):
        out[parity + j] = msg[j]


def rs_encode(msg: U8, delta: int) -> U8:
    m = np.ascontiguousarray(msg, dtype=np.uint8)
    out = np.empty(m.shape[0] + 2 * delta, dtype=np.uint8)
    _rs_encode(m, np.array(rs_generator(delta), dtype=np.int64), out)
    return out


@jit
def _rs_decode(cdw: U8, k: int, delta: int, exp: np.ndarray, out: U8) -> None:
    n1 = cdw.shape[0]
    c = np.empty(n1, dtype=np.int64)
    for i in range(n1):
        c[i] = cdw[i]
    # syndromes S_i = c(alpha^(i+1))
    synd = np.zeros(2 * delta, dtype=np.int64)
    for i in range(2 * delta):
        s = c[0]
        for j in range(1, n1):
            s ^= _gf_mul(c[j], exp[((i + 1) * j) % 255])
        synd[i] = s
    # the error locator (compute_elp), 16-bit masks as the reference's
    sigma = np.zeros(delta + 1, dtype=np.int64)
    sigma[0] = 1
    sigma_copy = np.zeros(delta + 1, dtype=np.int64)
    x_sigma_p = np.zeros(delta + 1, dtype=np.int64)
    x_sigma_p[1] = 1
    deg_sigma = 0
    deg_sigma_p = 0
    pp = 0xFFFF
    d_p = 1
    d = synd[0]
    for mu in range(2 * delta):
        for i in range(delta):
            sigma_copy[i] = sigma[i]
        deg_sigma_copy = deg_sigma
        dd = _gf_mul(d, _gf_inv(d_p))
        top = min(mu + 1, delta)
        for i in range(1, top + 1):
            sigma[i] ^= _gf_mul(dd, x_sigma_p[i])
        deg_x = (mu - pp) & 0xFFFF
        deg_x_sigma_p = (deg_x + deg_sigma_p) & 0xFFFF
        mask1 = -(((-d) & 0xFFFF) >> 15) & 0xFFFF
        mask2 = -(((deg_sigma - deg_x_sigma_p) & 0xFFFF) >> 15) & 0xFFFF
        m12 = mask1 & mask2
        deg_sigma ^= m12 & (deg_x_sigma_p ^ deg_sigma)
        if mu == 2 * delta - 1:
            break
        pp ^= m12 & (mu ^ pp)
        d_p ^= m12 & (d ^ d_p)
        for i in range(delta, 0, -1):
            x_sigma_p[i] = (m12 & sigma_copy[i - 1]) ^ (~m12 & 0xFFFF & x_sigma_p[i - 1])
        deg_sigma_p ^= m12 & (deg_sigma_copy ^ deg_sigma_p)
        d = synd[mu + 1]
        for i in range(1, top + 1):
            d ^= _gf_mul(sigma[i], synd[mu + 1 - i])
    # roots: error[i] = 1 where sigma(alpha^-i) = 0
    error = np.zeros(n1, dtype=np.int64)
    for i in range(n1):
        acc = 0
        for e in range(delta + 1):
            acc ^= _gf_mul(sigma[e], exp[(255 - (i * e) % 255) % 255])
        error[i] = 1 ^ (((-acc) >> 63) & 1)
    # z(x) (compute_z_poly)
    z = np.zeros(delta + 1, dtype=np.int64)
    z[0] = 1
    for i in range(1, delta + 1):
        mask = -(((i - deg_sigma - 1) & 0xFFFF) >> 15) & 0xFFFF
        z[i] = mask & sigma[i]
    z[1] ^= synd[0]
    for i in range(2, delta + 1):
        mask = -(((i - deg_sigma - 1) & 0xFFFF) >> 15) & 0xFFFF
        z[i] ^= mask & synd[i - 1]
        for j in range(1, i):
            z[i] ^= mask & _gf_mul(sigma[j], synd[i - j - 1])
    # error values (compute_error_values)
    beta = np.zeros(delta, dtype=np.int64)
    e_j = np.zeros(delta, dtype=np.int64)
    counter = 0
    for i in range(n1):
        found = 0
        m1 = -error[i]
        for j in range(delta):
            diff = j ^ counter
            m2 = ~((-diff) >> 63)
            beta[j] += m1 & m2 & exp[i]
            found += m1 & m2 & 1
        counter += found
    real = counter
    for i in range(delta):
        tmp1 = 1
        tmp2 = 1
        inv = _gf_inv(beta[i])
        power = 1
        for j in range(1, delta + 1):
            power = _gf_mul(power, inv)
            tmp1 ^= _gf_mul(power, z[j])
        for t in range(1, delta):
            tmp2 = _gf_mul(tmp2, 1 ^ _gf_mul(inv, beta[(i + t) % delta]))
        live = (i - real) >> 63
        e_j[i] = live & _gf_mul(tmp1, _gf_inv(tmp2))
    counter = 0
    for i in range(n1):
        found = 0
        m1 = -error[i]
        value = 0
        for j in range(delta):
            diff = j ^ counter
            m2 = ~((-diff) >> 63)
            value += m1 & m2 & e_j[j]
            found += m1 & m2 & 1
        counter += found
        c[i] ^= value
    for i in range(k):
        out[i] = c[2 * delta + i]


def rs_decode(cdw: U8, k: int, delta: int) -> U8:
    out = np.empty(k, dtype=np.uint8)
    _rs_decode(np.ascontiguousarray(cdw, dtype=np.uint8), int(k), int(delta), _EXP, out)
    return out


# --- duplicated Reed-Muller -------------------------------------------------------------------


@jit
def _rm_encode(cdw: U8, multiplicity: int, out: Words) -> None:
    full = np.uint64(0xFFFFFFFFFFFFFFFF)
    for i in range(cdw.shape[0]):
        m = np.int64(cdw[i])
        low = np.uint64(0)
        for c in range(6):  # bit c of the position j, j < 64
            patt = np.uint64(0)
            for j in range(64):
                patt |= np.uint64((j >> c) & 1) << np.uint64(j)
            low ^= patt & (np.uint64(0) - np.uint64((m >> c) & 1))
        low ^= full & (np.uint64(0) - np.uint64((m >> 7) & 1))
        high = low ^ (full & (np.uint64(0) - np.uint64((m >> 6) & 1)))
        for copy in range(multiplicity):
            at = 2 * (i * multiplicity + copy)
            out[at] = low
            out[at + 1] = high


def rm_encode(cdw: U8, multiplicity: int) -> Words:
    c = np.ascontiguousarray(cdw, dtype=np.uint8)
    out = np.empty(2 * multiplicity * c.shape[0], dtype=np.uint64)
    _rm_encode(c, int(multiplicity), out)
    return out


@jit
def _rm_decode(words: Words, n1: int, multiplicity: int, out: U8) -> None:
    a = np.empty(128, dtype=np.int64)
    b = np.empty(128, dtype=np.int64)
    for i in range(n1):
        for j in range(128):
            a[j] = 0
        for copy in range(multiplicity):
            at = 2 * (i * multiplicity + copy)
            for j in range(128):
                a[j] += np.int64((words[at + (j >> 6)] >> np.uint64(j & 63)) & np.uint64(1))
        for _ in range(7):  # the Hadamard transform, natural order
            for j in range(64):
                b[j] = a[2 * j] + a[2 * j + 1]
                b[j + 64] = a[2 * j] - a[2 * j + 1]
            for j in range(128):
                a[j] = b[j]
        a[0] -= 64 * multiplicity
        peak_abs = 0
        peak_value = 0
        peak_pos = 0
        for j in range(128):
            t = a[j]
            neg = t >> 63
            absolute = (t ^ neg) - neg
            better = (peak_abs - absolute) >> 63  # -1 where absolute > peak_abs
            peak_value = (better & t) | (~better & peak_value)
            peak_pos = (better & j) | (~better & peak_pos)
            peak_abs = (better & absolute) | (~better & peak_abs)
        out[i] = peak_pos | (128 * (((-peak_value) >> 63) & 1))


def rm_decode(words: Words, n1: int, multiplicity: int) -> U8:
    out = np.empty(n1, dtype=np.uint8)
    _rm_decode(np.ascontiguousarray(words, dtype=np.uint64), int(n1), int(multiplicity), out)
    return out


KERNELS = kernel_table(HQCKernels, globals())
