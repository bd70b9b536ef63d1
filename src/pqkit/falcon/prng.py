"""The randomness of Falcon's signing and key generation (round-3 specification
v1.2, §3.9.1 and the reference implementation's ``prng``).

Key generation reads SHAKE256 (seeded with the 48-byte key-generation seed)
directly. Signing seeds a SHAKE256 with the 48-byte sampler seed; each signing
attempt takes 56 bytes from it to key a ChaCha20-based generator (20 rounds, the
reference's interleaving of eight blocks per 512-byte refill) that the sampler reads.
"""

from __future__ import annotations

import struct

from pqkit.common import Xof

__all__ = ["ChaChaPrng", "shake_u64"]

_M32 = 0xFFFFFFFF
_CW = (0x61707865, 0x3320646E, 0x79622D32, 0x6B206574)
_BUF = 512


def _rotl(x: int, n: int) -> int:
    return ((x << n) | (x >> (32 - n))) & _M32


def _chacha_block(key: tuple[int, ...], cc: int) -> list[int]:
    """One ChaCha20 block of the reference's variant: key words 0-11 in state
    words 4-15, the 64-bit counter xored into words 14 and 15."""
    s = list(_CW) + list(key)
    s[14] ^= cc & _M32
    s[15] ^= cc >> 32
    x = list(s)
    for _ in range(10):
        for a, b, c, d in (
            (0, 4, 8, 12),
            (1, 5, 9, 13),
            (2, 6, 10, 14),
            (3, 7, 11, 15),
            (0, 5, 10, 15),
            (1, 6, 11, 12),
            (2, 7, 8, 13),
            (3, 4, 9, 14),
        ):
            x[a] = (x[a] + x[b]) & _M32
            x[d] = _rotl(x[d] ^ x[a], 16)
            x[c] = (x[c] + x[d]) & _M32
            x[b] = _rotl(x[b] ^ x[c], 12)
            x[a] = (x[a] + x[b]) & _M32
            x[d] = _rotl(x[d] ^ x[a], 8)
            x[c] = (x[c] + x[d]) & _M32
            x[b] = _rotl(x[b] ^ x[c], 7)
    return [(x[v] + s[v]) & _M32 for v in range(16)]


class ChaChaPrng:
    """The sampler's generator, keyed with 56 bytes: 48 bytes of key and a 64-bit
    little-endian block counter."""

    __slots__ = ("_buf", "_cc", "_key", "_ptr")

    def __init__(self, seed: bytes) -> None:
        if len(seed) != 56:  # pragma: no cover - internal
            raise ValueError("the sampler's generator takes 56 bytes")
        self._key = struct.unpack("<12I", seed[:48])
        self._cc = int.from_bytes(seed[48:56], "little")
        self._buf = b""
        self._ptr = -1  # the first refill happens on the first read (possibly compiled)

    def _refill(self) -> None:
        words = [_chacha_block(self._key, (self._cc + u) & ((1 << 64) - 1)) for u in range(8)]
        self._cc = (self._cc + 8) & ((1 << 64) - 1)
        # byte 4u + 32v + k = byte k of word v of block u (the reference's interleaving)
        self._buf = struct.pack("<128I", *(words[u][v] for v in range(16) for u in range(8)))
        self._ptr = 0

    def u64(self) -> int:
        """Eight bytes little-endian; a refill first when fewer than nine are left."""
        if self._ptr < 0 or self._ptr >= _BUF - 9:
            self._refill()
        u = self._ptr
        self._ptr = u + 8
        return int.from_bytes(self._buf[u : u + 8], "little")

    def u8(self) -> int:
        """One byte; a refill after the buffer's last byte."""
        if self._ptr < 0:
            self._refill()
        v = self._buf[self._ptr]
        self._ptr += 1
        if self._ptr == _BUF:
            self._refill()
        return v

    def export(self) -> tuple[tuple[int, ...], int, bytes, int]:
        """(key words, next block counter, buffer, read position; -1: not filled
        yet): the state a compiled backend continues from (:meth:`restore` takes it
        back)."""
        return self._key, self._cc, self._buf, self._ptr

    def restore(self, cc: int, buf: bytes, ptr: int) -> None:
        """Continue from a compiled backend's counter, buffer and read position."""
        self._cc = cc
        self._buf = buf
        self._ptr = ptr


def shake_u64(xof: Xof) -> int:
    """Eight SHAKE256 bytes as a little-endian integer (key generation's draws)."""
    return int.from_bytes(xof.read(8), "little")
