"""HQC's constant tables, computed from their definitions (nothing secret, nothing
typed in): GF(2^8) = GF(2)[a]/(a^8 + a^4 + a^3 + a^2 + 1) (the polynomial 0x11D of
the HQC specification, §2.5.1) and the Reed-Solomon generator polynomials."""

from __future__ import annotations

from functools import cache

__all__ = ["GF_EXP", "GF_LOG", "GF_POLY", "gf_mul_public", "rs_generator"]

GF_POLY = 0x11D
"""x^8 + x^4 + x^3 + x^2 + 1, whose root alpha = 2 generates GF(2^8)^*."""


def _exp_log() -> tuple[tuple[int, ...], tuple[int, ...]]:
    exp = [0] * 255
    log = [0] * 256
    elt = 1
    for i in range(255):
        exp[i] = elt
        log[elt] = i
        elt <<= 1
        if elt & 0x100:
            elt ^= GF_POLY
    return tuple(exp), tuple(log)


GF_EXP, GF_LOG = _exp_log()
"""alpha^i (i = 0..254) and its inverse (GF_LOG[0] = 0 by convention). For public
values only: a table lookup on a secret would leak it through the cache."""


def gf_mul_public(a: int, b: int) -> int:
    """a * b in GF(2^8) through the tables (public operands only)."""
    if a == 0 or b == 0:
        return 0
    return GF_EXP[(GF_LOG[a] + GF_LOG[b]) % 255]


@cache
def rs_generator(delta: int) -> tuple[int, ...]:
    """The generator polynomial g(x) = prod_{i=1}^{2 delta} (x - alpha^i) of the
    Reed-Solomon code correcting ``delta`` errors (HQC specification, §2.5.1),
    coefficients from x^0 to x^(2 delta) (monic)."""
    g = [1]
    for i in range(1, 2 * delta + 1):
        root = GF_EXP[i % 255]
        nxt = [0] * (len(g) + 1)
        for j, c in enumerate(g):
            nxt[j + 1] ^= c  # x * g
            nxt[j] ^= gf_mul_public(c, root)  # alpha^i * g (minus is plus in GF(2^m))
        g = nxt
    return tuple(g)


def _bits(value: int, width: int) -> list[int]:
    return [(value >> b) & 1 for b in range(width)]


@cache
def rs_parity_matrix(k: int, delta: int) -> tuple[tuple[int, ...], ...]:
    """The GF(2)-linear map msg -> parity of the systematic Reed-Solomon code: row
    8 i + b (bit b of parity symbol i) has a 1 in column 8 j + c where bit c of
    message symbol j contributes to it. Columns: 8 k; rows: 16 delta."""
    g = rs_generator(delta)
    parity = 2 * delta
    columns = []
    for j in range(k):
        for c in range(8):
            # remainder of (alpha^c x^j) x^(2 delta) modulo g(x), by long division
            rem = [0] * (k + parity)
            rem[parity + j] = 1 << c
            for top in range(k + parity - 1, parity - 1, -1):
                coef = rem[top]
                for t in range(parity + 1):
                    rem[top - parity + t] ^= gf_mul_public(coef, g[t])
            columns.append([bit for sym in rem[:parity] for bit in _bits(sym, 8)])
    return tuple(tuple(columns[col][row] for col in range(8 * k)) for row in range(8 * parity))


@cache
def rs_syndrome_matrix(n1: int, delta: int) -> tuple[tuple[int, ...], ...]:
    """The GF(2)-linear map c -> (S_0, ..., S_(2 delta - 1)), S_i = c(alpha^(i+1)):
    row 8 i + b, column 8 j + c."""
    rows = []
    for i in range(2 * delta):
        for b in range(8):
            rows.append(
                tuple(
                    (gf_mul_public(1 << c, GF_EXP[((i + 1) * j) % 255]) >> b) & 1
                    for j in range(n1)
                    for c in range(8)
                )
            )
    return tuple(rows)


def rm_generator() -> tuple[tuple[int, ...], ...]:
    """The 8 x 128 generator of RM(1, 7) as the HQC code orders it: row c < 7 has
    bit c of the column index j, row 7 is all ones (bit j of the code word of m is
    m_7 XOR parity(m_0..6 AND j))."""
    return tuple(tuple(1 if c == 7 else (j >> c) & 1 for j in range(128)) for c in range(8))
