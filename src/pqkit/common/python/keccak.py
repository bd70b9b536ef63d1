"""Keccak-f[1600] and the SHA-3 / SHAKE sponge in pure Python (FIPS 202).

The state is 25 lanes of 64 bits held as Python ints, lane (x, y) at index
``x + 5*y`` (FIPS 202 §3.1.2 with w = 64). Byte strings enter and leave the
lanes little-endian, which is the bit order of FIPS 202 §B.1.

:func:`keccak_f1600` is FIPS 202 Algorithm 7 (KECCAK-p[1600, 24]) with the five
step mappings written out over 25 local variables. Local ``aXY`` holds lane
(x = X, y = Y). Rho and pi run as a single in-place cycle: pi moves lane
(x, y) to (y, 2x + 3y mod 5), and starting from (1, 0) that map visits all 24
non-zero lanes in one cycle, which is also the walk FIPS 202 Algorithm 2 uses to
define the rho offsets. So one temporary and 24 assignments ``dest = ROT(src,
r[src])`` do both steps, as BoringSSL's "Manually unroll pi and rho steps in
Keccak" does in C.

NOTE: the rotation offsets in the unrolled cycle are literals (a shift by a
constant is faster than one by a looked-up value). They are the values of
:data:`RHO_OFFSETS`, computed at import from FIPS 202 Algorithm 2; the tests
check the unrolled permutation against a plain looped twin that uses
:data:`RHO_OFFSETS` and :data:`ROUND_CONSTANTS` directly, and against the NIST
ACVP vectors. The round constants are computed at import from the rc LFSR of
FIPS 202 Algorithm 5.

No table lookup, branch or division depends on the state: the code is the same
sequence of shifts, ANDs, ORs and XORs for every input (Python's integer
operations are still not guaranteed to run in constant time).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from pqkit.common.providers import OneShotPrefixed

__all__ = [
    "RHO_OFFSETS",
    "ROUND_CONSTANTS",
    "SHA3",
    "KeccakSponge",
    "keccak_f1600",
    "sha3",
    "shake",
    "turboshake",
]

_MASK64 = 0xFFFFFFFFFFFFFFFF


def _rc(t: int) -> int:
    """FIPS 202 Algorithm 5 (rc): one output bit of the degree-8 LFSR."""
    if t % 255 == 0:
        return 1
    r = [1, 0, 0, 0, 0, 0, 0, 0]
    for _ in range(t % 255):
        r = [0, *r]  # R = 0 || R
        r[0] ^= r[8]
        r[4] ^= r[8]
        r[5] ^= r[8]
        r[6] ^= r[8]
        r = r[:8]  # R = Trunc8(R)
    return r[0]


def _round_constant(i_r: int) -> int:
    """FIPS 202 Algorithm 6 (iota), steps 2-3: RC[2^j - 1] = rc(j + 7 i_r)."""
    rc = 0
    for j in range(7):
        rc |= _rc(j + 7 * i_r) << ((1 << j) - 1)
    return rc


def _rho_offsets() -> tuple[int, ...]:
    """FIPS 202 Algorithm 2 (rho): the rotation of lane (x, y), at index x + 5y."""
    offsets = [0] * 25
    x, y = 1, 0
    for t in range(24):
        offsets[x + 5 * y] = ((t + 1) * (t + 2) // 2) % 64
        x, y = y, (2 * x + 3 * y) % 5
    return tuple(offsets)


ROUND_CONSTANTS: tuple[int, ...] = tuple(_round_constant(i_r) for i_r in range(24))
"""RC for rounds 0..23 of KECCAK-p[1600, 24] (FIPS 202 §3.2.5)."""

RHO_OFFSETS: tuple[int, ...] = _rho_offsets()
"""The rho rotation of each lane, index x + 5y (FIPS 202 §3.2.2)."""

_RC = ROUND_CONSTANTS


def keccak_f1600(state: list[int], round_constants: Sequence[int] = _RC) -> None:
    """Apply KECCAK-f[1600] (FIPS 202 Algorithm 7, 24 rounds) to ``state`` in place.

    ``state`` is a list of 25 ints in [0, 2^64), lane (x, y) at index x + 5y.
    ``round_constants`` selects the rounds: KECCAK-p[1600, n_r] runs the last n_r
    rounds of KECCAK-f (FIPS 202 §3.3, i_r from 12 + 2l - n_r), so passing
    ``ROUND_CONSTANTS[12:]`` gives the 12-round permutation of TurboSHAKE (RFC 9861).
    """
    # fmt: off
    (
        a00, a10, a20, a30, a40,
        a01, a11, a21, a31, a41,
        a02, a12, a22, a32, a42,
        a03, a13, a23, a33, a43,
        a04, a14, a24, a34, a44,
    ) = state
    # fmt: on
    for rc in round_constants:
        # theta (FIPS 202 Algorithm 1)
        c0 = a00 ^ a01 ^ a02 ^ a03 ^ a04
        c1 = a10 ^ a11 ^ a12 ^ a13 ^ a14
        c2 = a20 ^ a21 ^ a22 ^ a23 ^ a24
        c3 = a30 ^ a31 ^ a32 ^ a33 ^ a34
        c4 = a40 ^ a41 ^ a42 ^ a43 ^ a44
        d0 = c4 ^ (((c1 << 1) | (c1 >> 63)) & 0xFFFFFFFFFFFFFFFF)
        d1 = c0 ^ (((c2 << 1) | (c2 >> 63)) & 0xFFFFFFFFFFFFFFFF)
        d2 = c1 ^ (((c3 << 1) | (c3 >> 63)) & 0xFFFFFFFFFFFFFFFF)
        d3 = c2 ^ (((c4 << 1) | (c4 >> 63)) & 0xFFFFFFFFFFFFFFFF)
        d4 = c3 ^ (((c0 << 1) | (c0 >> 63)) & 0xFFFFFFFFFFFFFFFF)
        a00 ^= d0
        a10 ^= d1
        a20 ^= d2
        a30 ^= d3
        a40 ^= d4
        a01 ^= d0
        a11 ^= d1
        a21 ^= d2
        a31 ^= d3
        a41 ^= d4
        a02 ^= d0
        a12 ^= d1
        a22 ^= d2
        a32 ^= d3
        a42 ^= d4
        a03 ^= d0
        a13 ^= d1
        a23 ^= d2
        a33 ^= d3
        a43 ^= d4
        a04 ^= d0
        a14 ^= d1
        a24 ^= d2
        a34 ^= d3
        a44 ^= d4
        # rho and pi (Algorithms 2 and 3) as one in-place cycle from lane (1, 0)
        t = a10
        a10 = ((a11 << 44) | (a11 >> 20)) & 0xFFFFFFFFFFFFFFFF
        a11 = ((a41 << 20) | (a41 >> 44)) & 0xFFFFFFFFFFFFFFFF
        a41 = ((a24 << 61) | (a24 >> 3)) & 0xFFFFFFFFFFFFFFFF
        a24 = ((a42 << 39) | (a42 >> 25)) & 0xFFFFFFFFFFFFFFFF
        a42 = ((a04 << 18) | (a04 >> 46)) & 0xFFFFFFFFFFFFFFFF
        a04 = ((a20 << 62) | (a20 >> 2)) & 0xFFFFFFFFFFFFFFFF
        a20 = ((a22 << 43) | (a22 >> 21)) & 0xFFFFFFFFFFFFFFFF
        a22 = ((a32 << 25) | (a32 >> 39)) & 0xFFFFFFFFFFFFFFFF
        a32 = ((a43 << 8) | (a43 >> 56)) & 0xFFFFFFFFFFFFFFFF
        a43 = ((a34 << 56) | (a34 >> 8)) & 0xFFFFFFFFFFFFFFFF
        a34 = ((a03 << 41) | (a03 >> 23)) & 0xFFFFFFFFFFFFFFFF
        a03 = ((a40 << 27) | (a40 >> 37)) & 0xFFFFFFFFFFFFFFFF
        a40 = ((a44 << 14) | (a44 >> 50)) & 0xFFFFFFFFFFFFFFFF
        a44 = ((a14 << 2) | (a14 >> 62)) & 0xFFFFFFFFFFFFFFFF
        a14 = ((a31 << 55) | (a31 >> 9)) & 0xFFFFFFFFFFFFFFFF
        a31 = ((a13 << 45) | (a13 >> 19)) & 0xFFFFFFFFFFFFFFFF
        a13 = ((a01 << 36) | (a01 >> 28)) & 0xFFFFFFFFFFFFFFFF
        a01 = ((a30 << 28) | (a30 >> 36)) & 0xFFFFFFFFFFFFFFFF
        a30 = ((a33 << 21) | (a33 >> 43)) & 0xFFFFFFFFFFFFFFFF
        a33 = ((a23 << 15) | (a23 >> 49)) & 0xFFFFFFFFFFFFFFFF
        a23 = ((a12 << 10) | (a12 >> 54)) & 0xFFFFFFFFFFFFFFFF
        a12 = ((a21 << 6) | (a21 >> 58)) & 0xFFFFFFFFFFFFFFFF
        a21 = ((a02 << 3) | (a02 >> 61)) & 0xFFFFFFFFFFFFFFFF
        a02 = ((t << 1) | (t >> 63)) & 0xFFFFFFFFFFFFFFFF
        # chi (Algorithm 4), one row (plane y) at a time
        b0 = a00
        b1 = a10
        a00 ^= ~a10 & a20
        a10 ^= ~a20 & a30
        a20 ^= ~a30 & a40
        a30 ^= ~a40 & b0
        a40 ^= ~b0 & b1
        b0 = a01
        b1 = a11
        a01 ^= ~a11 & a21
        a11 ^= ~a21 & a31
        a21 ^= ~a31 & a41
        a31 ^= ~a41 & b0
        a41 ^= ~b0 & b1
        b0 = a02
        b1 = a12
        a02 ^= ~a12 & a22
        a12 ^= ~a22 & a32
        a22 ^= ~a32 & a42
        a32 ^= ~a42 & b0
        a42 ^= ~b0 & b1
        b0 = a03
        b1 = a13
        a03 ^= ~a13 & a23
        a13 ^= ~a23 & a33
        a23 ^= ~a33 & a43
        a33 ^= ~a43 & b0
        a43 ^= ~b0 & b1
        b0 = a04
        b1 = a14
        a04 ^= ~a14 & a24
        a14 ^= ~a24 & a34
        a24 ^= ~a34 & a44
        a34 ^= ~a44 & b0
        a44 ^= ~b0 & b1
        # iota (Algorithm 6)
        a00 ^= rc
    # fmt: off
    state[:] = (
        a00, a10, a20, a30, a40,
        a01, a11, a21, a31, a41,
        a02, a12, a22, a32, a42,
        a03, a13, a23, a33, a43,
        a04, a14, a24, a34, a44,
    )
    # fmt: on


# --- The sponge (FIPS 202 §4, §5.1, §6) -------------------------------------------

_SHA3_SUFFIX = 0x06  # M || 01, then pad10*1 (FIPS 202 §6.1), as a byte with the first 1 of pad
_SHAKE_SUFFIX = 0x1F  # M || 1111, then pad10*1 (FIPS 202 §6.2)
_TURBO_ROUNDS = ROUND_CONSTANTS[12:]  # KECCAK-p[1600, 12] (RFC 9861 §2.2)

_LANE_FORMATS = {rate: struct.Struct(f"<{rate // 8}Q") for rate in (72, 104, 136, 144, 168)}


class KeccakSponge:
    """SPONGE[KECCAK-p[1600, 24], pad10*1, r] (FIPS 202 Algorithm 8) over whole bytes.

    ``rate`` is r/8 in bytes (a multiple of 8); ``suffix`` holds the domain bits
    and the first bit of pad10*1 as one byte (0x06 for SHA-3, 0x1F for SHAKE; for
    TurboSHAKE the domain byte D, RFC 9861 §2.2). ``round_constants`` picks the
    permutation (default: all 24 rounds; TurboSHAKE: the last 12).
    ``update`` absorbs until the first ``read``; ``read(n)`` squeezes the next n
    bytes, permuting only when the current block is used up, so reads split at
    any points give the same stream.
    """

    __slots__ = (
        "_buffer",
        "_format",
        "_out",
        "_pos",
        "_rate",
        "_rounds",
        "_squeezing",
        "_state",
        "_suffix",
    )

    def __init__(self, rate: int, suffix: int, round_constants: Sequence[int] = _RC) -> None:
        self._rate = rate
        self._rounds = round_constants
        self._suffix = suffix
        self._format = _LANE_FORMATS[rate]
        self._state = [0] * 25
        self._buffer = b""
        self._squeezing = False
        self._out = b""
        self._pos = 0

    def _absorb(self, data: bytes, offset: int) -> None:
        state = self._state
        words = self._format.unpack_from(data, offset)
        state[: len(words)] = [a ^ b for a, b in zip(state, words, strict=False)]
        keccak_f1600(state, self._rounds)

    def update(self, data: bytes) -> None:
        """Absorb ``data``; ValueError once output has been read."""
        if self._squeezing:
            raise ValueError("cannot absorb into a SHAKE object after reading from it")
        if self._buffer:
            data = self._buffer + data
        rate = self._rate
        full = len(data) - len(data) % rate
        for offset in range(0, full, rate):
            self._absorb(data, offset)
        self._buffer = bytes(data[full:])

    def _finish(self) -> None:
        block = bytearray(self._rate)
        block[: len(self._buffer)] = self._buffer
        block[len(self._buffer)] ^= self._suffix
        block[-1] ^= 0x80
        self._absorb(bytes(block), 0)
        self._buffer = b""
        self._squeezing = True
        self._out = self._format.pack(*self._state[: self._rate // 8])
        self._pos = 0

    def read(self, n: int) -> bytes:
        """The next ``n`` bytes of output."""
        if not self._squeezing:
            self._finish()
        rate = self._rate
        parts = []
        while n > 0:
            if self._pos == rate:
                keccak_f1600(self._state, self._rounds)
                self._out = self._format.pack(*self._state[: rate // 8])
                self._pos = 0
            take = min(n, rate - self._pos)
            parts.append(self._out[self._pos : self._pos + take])
            self._pos += take
            n -= take
        return b"".join(parts)

    def copy(self) -> KeccakSponge:
        """An independent sponge in the same state."""
        twin = KeccakSponge.__new__(KeccakSponge)
        twin._rate, twin._suffix, twin._format = self._rate, self._suffix, self._format
        twin._rounds = self._rounds
        twin._state = list(self._state)
        twin._buffer, twin._squeezing = self._buffer, self._squeezing
        twin._out, twin._pos = self._out, self._pos
        return twin


def sha3(bits: int, data: bytes) -> bytes:
    """SHA3-``bits`` (224, 256, 384, 512) of ``data`` (FIPS 202 §6.1): capacity 2*bits."""
    sponge = KeccakSponge(200 - bits // 4, _SHA3_SUFFIX)
    sponge.update(data)
    return sponge.read(bits // 8)


def shake(bits: int, data: bytes = b"") -> KeccakSponge:
    """A SHAKE``bits`` (128 or 256) XOF with ``data`` absorbed (FIPS 202 §6.2)."""
    sponge = KeccakSponge(200 - bits // 4, _SHAKE_SUFFIX)
    if data:
        sponge.update(data)
    return sponge


def turboshake(bits: int, data: bytes = b"", domain: int = 0x1F) -> KeccakSponge:
    """A TurboSHAKE``bits`` (128 or 256) XOF with domain byte ``domain`` (0x01-0x7F)
    and ``data`` absorbed (RFC 9861 §2.2): the SHAKE sponge of the same capacity
    over KECCAK-p[1600, 12], with M || D as the padded message."""
    sponge = KeccakSponge(200 - bits // 4, domain, _TURBO_ROUNDS)
    if data:
        sponge.update(data)
    return sponge


class _Sha3:
    """The python backend's SHA-3 provider (:class:`pqkit.common.providers.Sha3Provider`)."""

    name = "python"

    def sha3(self, bits: int, data: bytes) -> bytes:
        return sha3(bits, data)

    def shake(self, bits: int, data: bytes) -> KeccakSponge:
        return shake(bits, data)

    def shake_digest(self, bits: int, data: bytes, n: int) -> bytes:
        return shake(bits, data).read(n)

    def turboshake(self, bits: int, data: bytes, domain: int) -> KeccakSponge:
        return turboshake(bits, data, domain)

    def shake_many(self, bits: int, inputs: Sequence[bytes], n: int) -> npt.NDArray[np.uint8]:
        joined = b"".join([shake(bits, x).read(n) for x in inputs])
        return np.frombuffer(joined, dtype=np.uint8).reshape(len(inputs), n)

    def shake_prefixed(self, bits: int, prefix: bytes) -> OneShotPrefixed:
        return OneShotPrefixed(lambda data, n: shake(bits, data).read(n), prefix)


SHA3 = _Sha3()
