"""The readable twin of ``pqkit.common.python.keccak.keccak_f1600``.

KECCAK-p[1600, 24] written as FIPS 202 §3.2 states it: five step mappings over a
5x5 array of 64-bit lanes, with loops, and the rotation offsets and round
constants computed here from their definitions (Algorithms 2 and 5) rather than
taken from the module under test. Lane (x, y) is ``state[x + 5 * y]``.
"""

from __future__ import annotations

W = 64
MASK = (1 << W) - 1


def rot(v: int, n: int) -> int:
    """Rotate a 64-bit lane left by n (FIPS 202 §3.2.2: a[x][y][z] -> z + offset)."""
    n %= W
    return ((v << n) | (v >> (W - n))) & MASK if n else v


def rho_offsets() -> dict[tuple[int, int], int]:
    """FIPS 202 Algorithm 2, steps 1-3."""
    offsets = {(0, 0): 0}
    x, y = 1, 0
    for t in range(24):
        offsets[(x, y)] = (t + 1) * (t + 2) // 2
        x, y = y, (2 * x + 3 * y) % 5
    return offsets


def rc_bit(t: int) -> int:
    """FIPS 202 Algorithm 5 with the LFSR kept as an int (bit i = R[i])."""
    if t % 255 == 0:
        return 1
    r = 1
    for _ in range(t % 255):
        r <<= 1  # R = 0 || R
        if r & 0x100:  # R[8] (test code: branches on public values are fine)
            r ^= 0x171  # R[0], R[4], R[5], R[6] ^= R[8], and drop R[8]
    return r & 1


def round_constant(i_r: int) -> int:
    """FIPS 202 Algorithm 6, steps 2-3."""
    return sum(rc_bit(j + 7 * i_r) << (2**j - 1) for j in range(7))


OFFSETS = rho_offsets()
RCS = [round_constant(i) for i in range(24)]


def keccak_f1600_looped(state: list[int]) -> None:
    """FIPS 202 Algorithm 7 (KECCAK-p[1600, 24]) on ``state`` (25 lanes) in place."""
    a = [[state[x + 5 * y] for y in range(5)] for x in range(5)]  # a[x][y]
    for i_r in range(24):
        # theta (Algorithm 1)
        c = [a[x][0] ^ a[x][1] ^ a[x][2] ^ a[x][3] ^ a[x][4] for x in range(5)]
        d = [c[(x - 1) % 5] ^ rot(c[(x + 1) % 5], 1) for x in range(5)]
        a = [[a[x][y] ^ d[x] for y in range(5)] for x in range(5)]
        # rho (Algorithm 2)
        a = [[rot(a[x][y], OFFSETS[(x, y)]) for y in range(5)] for x in range(5)]
        # pi (Algorithm 3): A'[x, y] = A[(x + 3y) mod 5, x]
        a = [[a[(x + 3 * y) % 5][x] for y in range(5)] for x in range(5)]
        # chi (Algorithm 4)
        a = [
            [a[x][y] ^ ((a[(x + 1) % 5][y] ^ MASK) & a[(x + 2) % 5][y]) for y in range(5)]
            for x in range(5)
        ]
        # iota (Algorithm 6)
        a[0][0] ^= RCS[i_r]
    state[:] = [a[x][y] for y in range(5) for x in range(5)]
