"""Falcon's constant tables (round-3 specification v1.2), computed from their
definitions.

One owner for q, the FFT roots and the sampler's constants, imported by every
backend. The FFT roots are the primitive 2048-th roots of unity exp(i pi k / 1024)
that the specification's FFT over Q[x]/(x^n + 1) uses (§3.7.1), each real and
imaginary part correctly rounded to binary64: the value is computed exactly to 320
bits with integers and rounded once (``float(Fraction)`` rounds to nearest), so
no platform's ``cos``/``sin`` enters a signature. The order is the FFT's
bit-reversed one: entry k (2^j <= k < 2^(j+1)) is exp(i pi (2 rev_j(k - 2^j) + 1)
/ 2^(j+1)).

The scalar constants (sigma, 1/sigma, sigma_min, the signature bounds, the base
sampler's table) are the numbers of the specification (§3.13, Table 3.3, and
§3.9.3's RCDT), written as their exact binary64 values in hexadecimal.
"""

from __future__ import annotations

from fractions import Fraction

__all__ = [
    "BNORM_MAX",
    "GM",
    "INV_2SQRSIGMA0",
    "INV_LOG2",
    "INV_Q",
    "INV_SIGMA",
    "L2BOUND",
    "LOG2",
    "RCDT",
    "SIGMA_MIN",
    "Q",
    "inv_sigma",
]

Q = 12289
"""The Falcon modulus q = 12 * 1024 + 1 (§3.2)."""

_PREC = 320


def _pi_fixed(bits: int) -> int:
    """floor-ish pi * 2^bits by Machin's formula (error a few units in the last place)."""
    guard = bits + 16

    def arctan_inv(x: int) -> int:
        total, term, k, sign = 0, (1 << guard) // x, 1, 1
        x2 = x * x
        while term:
            total += sign * (term // k)
            term //= x2
            k += 2
            sign = -sign
        return total

    return (16 * arctan_inv(5) - 4 * arctan_inv(239)) >> 16


def _cos_sin_fixed(num: int, den: int, bits: int) -> tuple[int, int]:
    """(cos, sin) of pi * num / den, times 2^bits, by their Taylor series."""
    guard = bits + 16
    theta = (_pi_fixed(guard) * num) // den
    one = 1 << guard
    c, s = 0, 0
    term = one  # theta^k / k!
    k = 0
    while term:
        if k % 4 == 0:
            c += term
        elif k % 4 == 1:
            s += term
        elif k % 4 == 2:
            c -= term
        else:
            s -= term
        k += 1
        term = (term * theta >> guard) // k
    return c >> 16, s >> 16


def _rev(x: int, bits: int) -> int:
    return int(format(x, f"0{bits}b")[::-1], 2) if bits else 0


def _gm_table(size: int) -> tuple[tuple[float, float], ...]:
    out: list[tuple[float, float]] = [(0.0, 0.0)]
    for k in range(1, size):
        j = k.bit_length() - 1
        num = 2 * _rev(k - (1 << j), j) + 1
        den = 1 << (j + 1)
        c, s = _cos_sin_fixed(num, den, _PREC)
        re = float(Fraction(c, 1 << _PREC))
        im = float(Fraction(s, 1 << _PREC))
        if num * 2 == den:  # exp(i pi / 2): the real part is the reference's -0.0
            re = -0.0
        out.append((re, im))
    return tuple(out)


GM: tuple[tuple[float, float], ...] = _gm_table(1024)
"""GM[k] = (cos, sin) of the k-th root in bit-reversed order (k = 1 .. 1023)."""

INV_Q = 1.0 / Q
"""1/q rounded to nearest."""
LOG2 = float.fromhex("0x1.62e42fefa39efp-1")
"""ln 2."""
INV_LOG2 = float.fromhex("0x1.71547652b82fep+0")
"""1 / ln 2."""
INV_2SQRSIGMA0 = 1.0 / (2.0 * 1.8205**2)
"""1 / (2 sigma_0^2), sigma_0 = 1.8205 (the base sampler's width, §3.9.3)."""
BNORM_MAX = 16822.4121
"""(1.17^2) q = 16822.4121: the bound on the Gram-Schmidt norm of the secret basis
(§3.8.2, Algorithm 5 line 9)."""

INV_SIGMA: dict[int, float] = {
    9: float.fromhex("0x1.8b6c2de64c7cap-8"),  # 1 / 165.7366171829776
    10: float.fromhex("0x1.8531ef6311ae3p-8"),  # 1 / 168.38857144654395
}
"""logn -> 1/sigma (Table 3.3)."""


def inv_sigma(logn: int) -> float:
    """1/sigma for ``logn`` (Table 3.3); ValueError for a logn Falcon does not have."""
    if logn not in INV_SIGMA:
        raise ValueError(f"Falcon ff_sampling: logn must be 9 or 10, got {logn}")
    return INV_SIGMA[logn]


SIGMA_MIN: dict[int, float] = {
    9: float.fromhex("0x1.47201bf1f7a75p+0"),  # 1.2778336969128337
    10: float.fromhex("0x1.4c5c19990c764p+0"),  # 1.298280334344292
}
"""logn -> sigma_min (Table 3.3)."""

L2BOUND = {9: 34034726, 10: 70265242}
"""logn -> floor(beta^2): the acceptance bound on ||(s1, s2)||^2 (Table 3.3)."""

RCDT: tuple[int, ...] = (
    3024686241123004913666,
    1564742784480091954050,
    636254429462080897535,
    199560484645026482916,
    47667343854657281903,
    8595902006365044063,
    1163297957344668388,
    117656387352093658,
    8867391802663976,
    496969357462633,
    20680885154299,
    638331848991,
    14602316184,
    247426747,
    3104126,
    28824,
    198,
    1,
)
"""The base sampler's reverse cumulative table, 72-bit values (§3.9.3, Table 3.1)."""

EXPM_C = (
    0x00000004741183A3,
    0x00000036548CFC06,
    0x0000024FDCBF140A,
    0x0000171D939DE045,
    0x0000D00CF58F6F84,
    0x000680681CF796E3,
    0x002D82D8305B0FEA,
    0x011111110E066FD0,
    0x0555555555070F00,
    0x155555555581FF00,
    0x400000000002B400,
    0x7FFFFFFFFFFF4800,
    0x8000000000000000,
)
"""The fixed-point polynomial approximation of exp(-x) on [0, ln 2] (§3.9.4,
Algorithm 13 ApproxExp, the reference's 63-bit coefficients)."""
