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

import numpy as np
import numpy.typing as npt

from pqkit.falcon.kernels.tables import Q

__all__ = [
    "comp_decode",
    "comp_encode",
    "modq_decode",
    "modq_encode",
    "trim_i8_decode",
    "trim_i8_encode",
]


def _pack(values: Sequence[int] | npt.NDArray[np.int64], bits: int) -> bytes:
    """Values (already in [0, 2^bits)) packed big-endian, the last byte 0-padded."""
    v = np.asarray(values, dtype=np.int64)
    shifts = np.arange(bits - 1, -1, -1, dtype=np.int64)
    return np.packbits(((v[:, None] >> shifts) & 1).astype(np.uint8).ravel()).tobytes()


def _unpack(data: bytes, n: int, bits: int) -> npt.NDArray[np.int64] | None:
    """n values of ``bits`` bits from exactly ceil(n bits / 8) bytes, or None when
    the padding bits are not zero."""
    b = np.unpackbits(np.frombuffer(data, dtype=np.uint8))
    if b[n * bits :].any():
        return None
    weights = np.int64(1) << np.arange(bits - 1, -1, -1, dtype=np.int64)
    out: npt.NDArray[np.int64] = b[: n * bits].reshape(n, bits).astype(np.int64) @ weights
    return out


def modq_encode(h: Sequence[int] | npt.NDArray[np.int64]) -> bytes:
    """The public polynomial, 14 bits per coefficient (§3.11.4)."""
    return _pack(h, 14)


def modq_decode(data: bytes, n: int) -> npt.NDArray[np.int64] | None:
    """Inverse of :func:`modq_encode`; None for a value >= q or non-zero padding."""
    out = _unpack(data, n, 14)
    if out is None or bool(np.any(out >= Q)):
        return None
    return out


def trim_i8_encode(x: Sequence[int] | npt.NDArray[np.int64], bits: int) -> bytes:
    """Signed values in [-(2^(bits-1) - 1), 2^(bits-1) - 1], two's complement on
    ``bits`` bits (§3.11.5)."""
    return _pack(np.asarray(x, dtype=np.int64) & ((1 << bits) - 1), bits)


def trim_i8_decode(data: bytes, n: int, bits: int) -> npt.NDArray[np.int64] | None:
    """Inverse of :func:`trim_i8_encode`; None for -2^(bits-1) (not produced by
    the encoder) or non-zero padding."""
    raw = _unpack(data, n, bits)
    if raw is None:
        return None
    half = 1 << (bits - 1)
    out = raw - ((raw & half) << 1)
    if bool(np.any(out == -half)):
        return None
    return out


def comp_encode(s: Sequence[int] | npt.NDArray[np.int64], length: int) -> bytes | None:
    """Compress (§3.11.2, Algorithm 17) into at most ``length`` bytes (the exact
    length used, not padded), or None if it does not fit or |s_i| > 2047."""
    v = np.asarray(s, dtype=np.int64)
    if bool(np.any(np.abs(v) > 2047)):
        return None
    t = np.abs(v)
    hi = t >> 7
    sizes = 9 + hi
    total = int(sizes.sum())
    if (total + 7) >> 3 > length:
        return None
    starts = np.cumsum(sizes) - sizes
    out = np.zeros(total, dtype=np.uint8)
    out[starts] = v < 0
    for k in range(7):
        out[starts + 1 + k] = (t >> (6 - k)) & 1
    out[starts + 8 + hi] = 1
    return np.packbits(out).tobytes()


def comp_decode(data: bytes, n: int) -> tuple[npt.NDArray[np.int64], int] | None:
    """Decompress (§3.11.2, Algorithm 18): (s, bytes used), or None for a
    malformed encoding (running out of bytes, a high part above 15 (|s| > 2047),
    minus zero, non-zero bits after the last value).

    Vectorised: with nxt(i) the first 1 bit at or after i, value k + 1 starts at
    jump(p_k) = nxt(p_k + 8) + 1; the n starting points are the orbit of 0 under
    jump, built by doubling (jump^2, jump^4, ...) in log2(n) array steps."""
    bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8)).astype(np.int64)
    total = len(bits)
    end = total + 9  # positions >= total are "out of bytes"; pad so p + 8 stays in range
    padded = np.zeros(end + 1, dtype=np.int64)
    padded[:total] = bits
    marks = np.where(padded[:end] == 1, np.arange(end), end)
    nxt = np.minimum.accumulate(marks[::-1])[::-1]
    nxt = np.append(nxt, end)  # nxt[end] = end
    pos = np.arange(end + 1)
    jump = np.minimum(nxt[np.minimum(pos + 8, end)] + 1, end)
    jump[end] = end
    starts = np.zeros(1, dtype=np.int64)
    step = jump
    while len(starts) < n:
        starts = np.concatenate((starts, step[starts]))
        step = step[step]
    starts = starts[:n]
    if int(starts[-1]) + 8 > total:
        return None
    stops = nxt[starts + 8]  # each value's terminating 1
    if int(stops.max()) >= total:
        return None
    hi = stops - starts - 8
    if int(hi.max()) > 15:
        return None
    head = np.zeros(n, dtype=np.int64)
    for k in range(8):
        head = (head << 1) | padded[starts + k]
    m = (hi << 7) | (head & 0x7F)
    neg = (head & 0x80) != 0
    if bool(np.any(neg & (m == 0))):
        return None
    used_bits = int(stops[-1]) + 1
    used = (used_bits + 7) >> 3
    if bits[used_bits : 8 * used].any():
        return None
    out: npt.NDArray[np.int64] = np.where(neg, -m, m)
    return out, used
