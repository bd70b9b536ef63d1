"""Constants of Classic McEliece's field arithmetic, computed from their definitions:
GF(2^m) = F_2[z]/f(z) (spec §2.1), log / antilog tables for the ``ref`` backend
(readable, not constant-time), and bit reversal of m-bit integers."""

from __future__ import annotations

from functools import cache

__all__ = ["bitrev", "exp_log", "gf_mul_slow"]


def gf_mul_slow(a: int, b: int, m: int, poly: int) -> int:
    """a * b in F_2[z]/poly(z), bit by bit (the definition)."""
    r = 0
    for i in range(m):
        if (b >> i) & 1:
            r ^= a << i
    for i in range(2 * m - 2, m - 1, -1):
        if (r >> i) & 1:
            r ^= poly << (i - m)
    return r


@cache
def exp_log(m: int, poly: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(exp, log) tables of GF(2^m) for the smallest generator of its unit group:
    exp[i] = gen^i for 0 <= i < 2 (2^m - 1) (doubled so that exp[log a + log b]
    needs no reduction), log[a] for a != 0 (log[0] = 0, unused)."""
    order = (1 << m) - 1
    for gen in range(2, 1 << m):
        exp = [1]
        x = 1
        for _ in range(order - 1):
            x = gf_mul_slow(x, gen, m, poly)
            if x == 1:
                break
            exp.append(x)
        if len(exp) == order:
            log = [0] * (1 << m)
            for i, v in enumerate(exp):
                log[v] = i
            return tuple(exp + exp), tuple(log)
    raise AssertionError(f"no generator of GF(2^{m})")  # pragma: no cover - f is irreducible


def bitrev(a: int, m: int) -> int:
    """The m-bit reversal of 0 <= a < 2^m (spec §2.4.2: alpha_i = bitrev(pi(i)))."""
    return int(f"{a:0{m}b}"[::-1], 2)
