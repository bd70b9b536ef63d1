"""The ``ref`` HQC kernels: plain Python integers, written to read like the HQC
specification (2025-08-22) and its reference code. The test oracle of the other
backends; **not constant-time** (it branches on and indexes by secrets, and
multiplies in GF(2^8) through log / exp tables).

Contract: :class:`pqkit.hqc.kernels.contract.HQCKernels`. A vector of GF(2)^n is
handled here as one Python int (bit i = coefficient of x^i).
"""

from __future__ import annotations

import numpy as np

from pqkit.arith.api import kernel_table
from pqkit.hqc.kernels.contract import U8, U32, HQCKernels, Support, Words
from pqkit.hqc.kernels.tables import GF_EXP, GF_LOG, gf_mul_public, rs_generator

__all__ = ["KERNELS"]

backend = "ref"


# --- GF(2)^n as Python ints ------------------------------------------------------------


def _to_int(words: Words) -> int:
    return int.from_bytes(np.ascontiguousarray(words, dtype="<u8").tobytes(), "little")


def _to_words(value: int, n_words: int) -> Words:
    data = value.to_bytes(8 * n_words, "little")
    return np.frombuffer(data, dtype="<u8").astype(np.uint64)


def support_from_random(rand: U32, n: int) -> Support:
    """HQC specification, SampleFixedWeightVect$ (``vect_generate_random_support2``)."""
    w = len(rand)
    support = [i + ((int(rand[i]) * (n - i)) >> 32) for i in range(w)]
    for i in range(w - 2, -1, -1):
        if support[i] in support[i + 1 :]:
            support[i] = i
    return np.array(support, dtype=np.int64)


def support_to_vector(support: Support, n: int) -> Words:
    value = 0
    for position in support.tolist():
        value |= 1 << position
    return _to_words(value, (n + 63) // 64)


def mul_sparse(support: Support, dense: Words, n: int) -> Words:
    """Sum over the support of x^p * dense(x) mod (x^n - 1): rotations by p."""
    if dense.ndim == 2:
        return np.stack([mul_sparse(support, row, n) for row in dense])
    d = _to_int(dense)
    mask = (1 << n) - 1
    acc = 0
    for p in support.tolist():
        acc ^= ((d << p) | (d >> (n - p))) & mask
    return _to_words(acc, (n + 63) // 64)


# --- Reed-Solomon over GF(2^8) -----------------------------------------------------------


def _mul(a: int, b: int) -> int:
    return gf_mul_public(a, b)  # the table product: this backend is not constant-time


def _inv(a: int) -> int:
    return 0 if a == 0 else GF_EXP[(255 - GF_LOG[a]) % 255]


def rs_encode(msg: U8, delta: int) -> U8:
    """Systematic encoding by the LFSR of the generator polynomial (reference code,
    ``reed_solomon_encode``)."""
    g = rs_generator(delta)
    m = [int(v) for v in msg]
    k, parity = len(m), 2 * delta
    cdw = [0] * (k + parity)
    for i in range(k):
        gate = m[k - 1 - i] ^ cdw[parity - 1]
        for j in range(parity - 1, 0, -1):
            cdw[j] = cdw[j - 1] ^ _mul(gate, g[j])
        cdw[0] = _mul(gate, g[0])
    cdw[parity:] = m
    return np.array(cdw, dtype=np.uint8)


def _syndromes(c: list[int], delta: int) -> list[int]:
    """S_i = c(alpha^(i + 1)), i = 0 .. 2 delta - 1."""
    return [
        c[0] ^ _xor_all(_mul(c[j], GF_EXP[((i + 1) * j) % 255]) for j in range(1, len(c)))
        for i in range(2 * delta)
    ]


def _xor_all(values: object) -> int:
    acc = 0
    for v in values:  # type: ignore[attr-defined]
        acc ^= v
    return acc


def _error_locator(synd: list[int], delta: int) -> tuple[list[int], int]:
    """Berlekamp's algorithm as the reference code runs it (``compute_elp``): a
    fixed 2 delta iterations, the updates chosen by masks (16-bit arithmetic)."""
    sigma = [0] * (delta + 1)
    sigma[0] = 1
    x_sigma_p = [0] * (delta + 1)
    x_sigma_p[1] = 1
    deg_sigma = deg_sigma_p = 0
    pp = 0xFFFF  # 2 rho, starting at -1
    d_p = 1
    d = synd[0]
    for mu in range(2 * delta):
        sigma_copy = [*sigma[:delta], 0]
        deg_sigma_copy = deg_sigma
        dd = _mul(d, _inv(d_p))
        for i in range(1, min(mu + 1, delta) + 1):
            sigma[i] ^= _mul(dd, x_sigma_p[i])
        deg_x_sigma_p = (((mu - pp) & 0xFFFF) + deg_sigma_p) & 0xFFFF
        grows = d != 0 and ((deg_sigma - deg_x_sigma_p) & 0xFFFF) >> 15 == 1
        if grows:
            deg_sigma = deg_x_sigma_p
        if mu == 2 * delta - 1:
            break
        if grows:
            pp, d_p = mu, d
            x_sigma_p = [0, *sigma_copy[:delta]]
            deg_sigma_p = deg_sigma_copy
        else:
            x_sigma_p = [0, *x_sigma_p[:delta]]
        d = synd[mu + 1]
        for i in range(1, min(mu + 1, delta) + 1):
            d ^= _mul(sigma[i], synd[mu + 1 - i])
    return sigma, deg_sigma


def _z_poly(sigma: list[int], degree: int, synd: list[int], delta: int) -> list[int]:
    """z(x) of the reference code (``compute_z_poly``)."""
    z = [1] + [sigma[i] if i <= degree else 0 for i in range(1, delta + 1)]
    z[1] ^= synd[0]
    for i in range(2, delta + 1):
        if i <= degree:
            z[i] ^= synd[i - 1]
            for j in range(1, i):
                z[i] ^= _mul(sigma[j], synd[i - j - 1])
    return z


def rs_decode(cdw: U8, k: int, delta: int) -> U8:
    c = [int(v) for v in cdw]
    n1 = len(c)
    synd = _syndromes(c, delta)
    sigma, degree = _error_locator(synd, delta)
    # The roots: position i is in error when sigma(alpha^-i) = 0.
    error = [
        _xor_all(_mul(s, GF_EXP[(-i * e) % 255]) for e, s in enumerate(sigma)) == 0
        for i in range(n1)
    ]
    z = _z_poly(sigma, degree, synd, delta)
    # The error values (``compute_error_values``): beta_j = alpha^(j-th error position).
    positions = [i for i in range(n1) if error[i]]
    beta = [GF_EXP[i] for i in positions[:delta]] + [0] * max(0, delta - len(positions))
    values = []
    for i in range(delta):
        inv = _inv(beta[i])
        tmp1, power = 1, 1
        for j in range(1, delta + 1):
            power = _mul(power, inv)
            tmp1 ^= _mul(power, z[j])
        tmp2 = 1
        for t in range(1, delta):
            tmp2 = _mul(tmp2, 1 ^ _mul(inv, beta[(i + t) % delta]))
        values.append(_mul(tmp1, _inv(tmp2)) if i < len(positions) else 0)
    for j, i in enumerate(positions[:delta]):
        c[i] ^= values[j]
    return np.array(c[2 * delta : 2 * delta + k], dtype=np.uint8)


# --- duplicated Reed-Muller RM(1, 7) ------------------------------------------------------


def _rm_word(symbol: int) -> int:
    """The 128-bit RM(1, 7) code word: bit j = m_7 XOR parity(m_0..6 AND j)."""
    word = 0
    for j in range(128):
        bit = ((symbol >> 7) ^ bin(symbol & j & 0x7F).count("1")) & 1
        word |= bit << j
    return word


def rm_encode(cdw: U8, multiplicity: int) -> Words:
    value = 0
    for i, symbol in enumerate(cdw.tolist()):
        word = _rm_word(symbol)
        for copy in range(multiplicity):
            value |= word << (128 * (i * multiplicity + copy))
    return _to_words(value, 2 * multiplicity * len(cdw))


def rm_decode(words: Words, n1: int, multiplicity: int) -> U8:
    value = _to_int(words)
    out = []
    for i in range(n1):
        counts = [0] * 128
        for copy in range(multiplicity):
            block = value >> (128 * (i * multiplicity + copy))
            for j in range(128):
                counts[j] += (block >> j) & 1
        # The Hadamard transform: T[u] = sum_j counts[j] (-1)^popcount(u AND j).
        t = [
            sum(c if bin(u & j).count("1") % 2 == 0 else -c for j, c in enumerate(counts))
            for u in range(128)
        ]
        t[0] -= 64 * multiplicity
        peak_abs, peak_value, peak_pos = 0, 0, 0
        for u, v in enumerate(t):
            if abs(v) > peak_abs:
                peak_abs, peak_value, peak_pos = abs(v), v, u
        out.append(peak_pos | (128 if peak_value > 0 else 0))
    return np.array(out, dtype=np.uint8)


KERNELS = kernel_table(HQCKernels, globals())
