"""Falcon's encodings (round-3 specification v1.2, §3.11).

- public key: header byte 0x00 + logn, then h as 14-bit big-endian-packed values;
- secret key: header 0x50 + logn, then f, g, F in two's complement on a fixed
  width each (G is recomputed);
- signature: header 0x30 + logn, the 40-byte nonce, then s2 compressed (§3.11.2):
  per coefficient a sign bit, the 7 low bits of |s|, the high bits in unary
  (that many 0s, then a 1); the last byte's unused bits are 0. The padded sets
  fill the rest of the fixed length with zero bytes.

Decoders are strict: every malformed input (a non-canonical value, minus zero,
bits left over, trailing bytes) returns None, and the callers turn it into a
clear error (keys) or a failed verification (signatures).
"""

from __future__ import annotations

from collections.abc import Sequence

from pqkit.falcon.kernels.tables import Q

__all__ = [
    "comp_decode",
    "comp_encode",
    "modq_decode",
    "modq_encode",
    "trim_i8_decode",
    "trim_i8_encode",
]


def _pack(values: Sequence[int], bits: int) -> bytes:
    """Values (already in [0, 2^bits)) packed big-endian, the last byte 0-padded."""
    acc = 0
    for v in values:
        acc = (acc << bits) | v
    total = len(values) * bits
    nbytes = (total + 7) >> 3
    return (acc << (8 * nbytes - total)).to_bytes(nbytes, "big")


def _unpack(data: bytes, n: int, bits: int) -> list[int] | None:
    """n values of ``bits`` bits from exactly ceil(n bits / 8) bytes, or None when
    the padding bits are not zero."""
    total = n * bits
    pad = 8 * len(data) - total
    acc = int.from_bytes(data, "big")
    if acc & ((1 << pad) - 1):
        return None
    acc >>= pad
    mask = (1 << bits) - 1
    return [(acc >> (bits * (n - 1 - i))) & mask for i in range(n)]


def modq_encode(h: Sequence[int]) -> bytes:
    """The public polynomial, 14 bits per coefficient (§3.11.4)."""
    return _pack(h, 14)


def modq_decode(data: bytes, n: int) -> list[int] | None:
    """Inverse of :func:`modq_encode`; None for a value >= q or non-zero padding."""
    out = _unpack(data, n, 14)
    if out is None or any(v >= Q for v in out):
        return None
    return out


def trim_i8_encode(x: Sequence[int], bits: int) -> bytes:
    """Signed values in [-(2^(bits-1) - 1), 2^(bits-1) - 1], two's complement on
    ``bits`` bits (§3.11.5)."""
    mask = (1 << bits) - 1
    return _pack([v & mask for v in x], bits)


def trim_i8_decode(data: bytes, n: int, bits: int) -> list[int] | None:
    """Inverse of :func:`trim_i8_encode`; None for -2^(bits-1) (not produced by
    the encoder) or non-zero padding."""
    raw = _unpack(data, n, bits)
    if raw is None:
        return None
    half = 1 << (bits - 1)
    out = [v - (v & half) * 2 for v in raw]
    if any(v == -half for v in out):
        return None
    return out


def comp_encode(s: Sequence[int], length: int) -> bytes | None:
    """Compress (§3.11.2, Algorithm 17) into at most ``length`` bytes (the exact
    length used, not padded), or None if it does not fit or |s_i| > 2047."""
    acc = 0
    nbits = 0
    for v in s:
        if v < -2047 or v > 2047:
            return None
        t = -v if v < 0 else v
        hi = t >> 7
        acc = (acc << (9 + hi)) | ((1 if v < 0 else 0) << (8 + hi)) | ((t & 127) << (1 + hi)) | 1
        nbits += 9 + hi
    nbytes = (nbits + 7) >> 3
    if nbytes > length:
        return None
    return (acc << (8 * nbytes - nbits)).to_bytes(nbytes, "big")


def comp_decode(data: bytes, n: int) -> tuple[list[int], int] | None:
    """Decompress (§3.11.2, Algorithm 18): (s, bytes used), or None for a
    malformed encoding (running out of bytes, a high part above 15 (|s| > 2047),
    minus zero, non-zero bits after the last value)."""
    bits = "".join(format(b, "08b") for b in data)
    pos = 0
    total = len(bits)
    out = [0] * n
    for i in range(n):
        if pos + 8 > total:
            return None
        sign = bits[pos] == "1"
        low = int(bits[pos + 1 : pos + 8], 2)
        pos += 8
        end = bits.find("1", pos, min(total, pos + 16))
        if end < 0:
            return None
        hi = end - pos
        pos = end + 1
        m = (hi << 7) | low
        if sign and m == 0:
            return None
        out[i] = -m if sign else m
    used = (pos + 7) >> 3
    if "1" in bits[pos : 8 * used]:
        return None
    return out, used
