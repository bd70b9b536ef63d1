"""The ``numpy`` hash kernels.

Contracts: :class:`pqkit.common.kernels.contract.HashKernels`.

- :func:`keccak_f1600`, :func:`sha256_compress` and :func:`sha512_compress` are
  vectorised across the batch: every step mapping or round is a handful of NumPy
  calls on (lanes, rows) arrays, the same operations for every row (no
  data-dependent branch or lookup; uint64 / uint32 arithmetic wraps as the FIPS
  texts' addition mod 2^w).
- :func:`shake_many`, :func:`sha256_many` and :func:`sha512_many` call the
  standard library's ``hashlib`` (OpenSSL's C code) once per row, continuing from a
  copy of an object that has absorbed ``prefix``. Measured (benchmarks/
  hash_kernels.py), that is faster than the vectorised permutation at every batch
  size: one SHAKE256 of a 64-byte input costs about 1 us through hashlib, against
  several us per row for a vectorised Keccak-f[1600] whose 400-odd NumPy calls per
  permutation each stream the whole batch through memory.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.arith.api import kernel_table
from pqkit.common.kernels._hash import (
    K256,
    K512,
    RHO_OFFSETS,
    ROUND_CONSTANTS,
    compress_args,
)
from pqkit.common.kernels.contract import HashKernels, keccak_args, sha2_args, shake_args

__all__ = ["KERNELS"]

U64 = np.uint64
U32 = np.uint32

# --- FIPS 202, Algorithm 7 on (25, rows) lanes -----------------------------------

_RC = np.array(ROUND_CONSTANTS, dtype=U64)
_RHO_L = np.array(RHO_OFFSETS, dtype=U64)[:, None]
# (64 - r) mod 64: lane (0, 0) has r = 0, and x << 0 | x >> 0 = x keeps it (a shift
# by 64 would be undefined in C).
_RHO_R = np.array([(64 - r) % 64 for r in RHO_OFFSETS], dtype=U64)[:, None]
# pi (FIPS 202 Algorithm 3): A'[x, y] = A[(x + 3y) mod 5, x]; index x + 5y.
_PI_SRC = np.array([(x + 3 * y) % 5 + 5 * x for y in range(5) for x in range(5)])
_XM1 = np.array([4, 0, 1, 2, 3])  # x - 1 mod 5
_XP1 = np.array([1, 2, 3, 4, 0])  # x + 1 mod 5
_XP2 = np.array([2, 3, 4, 0, 1])  # x + 2 mod 5
_ONE = U64(1)
_S63 = U64(63)


def _keccak_lanes(a: npt.NDArray[np.uint64], rounds: int) -> npt.NDArray[np.uint64]:
    """KECCAK-p[1600, rounds] on lanes (25, rows), lane x + 5y on axis 0; returns a
    new array."""
    for i_r in range(24 - rounds, 24):
        a5 = a.reshape(5, 5, -1)  # [y, x, row]
        # theta (Algorithm 1)
        c = np.bitwise_xor.reduce(a5, axis=0)  # [x, row]
        cp = c[_XP1]
        d = c[_XM1] ^ ((cp << _ONE) | (cp >> _S63))
        a5 = a5 ^ d
        # rho (Algorithm 2), then pi (Algorithm 3)
        flat = a5.reshape(25, -1)
        b = ((flat << _RHO_L) | (flat >> _RHO_R))[_PI_SRC]
        # chi (Algorithm 4) on each plane y, then iota (Algorithm 6)
        b5 = b.reshape(5, 5, -1)
        chi = b5 ^ (~b5[:, _XP1] & b5[:, _XP2])
        chi[0, 0] ^= _RC[i_r]
        a = chi.reshape(25, -1)
    return a


def keccak_f1600(states: npt.NDArray[np.uint64], rounds: int = 24) -> npt.NDArray[np.uint64]:
    nr, rows, lead = keccak_args(states, rounds)
    lanes = np.ascontiguousarray(rows.T)
    return np.ascontiguousarray(_keccak_lanes(lanes, nr).T).reshape(*lead, 25)


# --- SHAKE and SHA-2 of many rows: hashlib per row ----------------------------------

_SHAKE: dict[int, Callable[..., Any]] = {128: hashlib.shake_128, 256: hashlib.shake_256}


def shake_rows(
    bits: int, rows: npt.NDArray[np.uint8], lead: tuple[int, ...], n: int, prefix: bytes
) -> npt.NDArray[np.uint8]:
    """:func:`shake_many` on checked arguments: rows (r, L), their leading shape."""
    base = _SHAKE[bits](prefix)
    out = bytearray()
    for row in rows:
        h = base.copy()
        h.update(row)
        out += h.digest(n)
    return np.frombuffer(out, dtype=np.uint8).reshape(*lead, n)


def shake_many(
    bits: int, inputs: npt.NDArray[np.uint8], out_len: int, prefix: bytes = b""
) -> npt.NDArray[np.uint8]:
    checked, n, rows, lead, data = shake_args(bits, inputs, out_len, prefix)
    return shake_rows(checked, rows, lead, n, data)


def sha2_rows(
    name: str, rows: npt.NDArray[np.uint8], lead: tuple[int, ...], prefix: bytes
) -> npt.NDArray[np.uint8]:
    """SHA-256 or SHA-512 (``name``) of prefix || each row, on checked arguments."""
    base = hashlib.new(name, prefix)
    out = bytearray()
    for row in rows:
        h = base.copy()
        h.update(row)
        out += h.digest()
    return np.frombuffer(out, dtype=np.uint8).reshape(*lead, base.digest_size)


def sha256_many(inputs: npt.NDArray[np.uint8], prefix: bytes = b"") -> npt.NDArray[np.uint8]:
    return sha2_rows("sha256", *sha2_args(inputs, prefix))


def sha512_many(inputs: npt.NDArray[np.uint8], prefix: bytes = b"") -> npt.NDArray[np.uint8]:
    return sha2_rows("sha512", *sha2_args(inputs, prefix))


# --- FIPS 180-4 §6.2.2 and §6.4.2, vectorised over rows ---------------------------

_K256 = np.array(K256, dtype=U32)
_K512 = np.array(K512, dtype=U64)


def _rotr(x: Any, n: int, w: int, t: type[np.unsignedinteger[Any]]) -> Any:
    """ROTR^n(x) (FIPS 180-4 §3.2) on w-bit words of dtype t."""
    return (x >> t(n)) | (x << t(w - n))


def _compress(
    s: npt.NDArray[Any],
    b: npt.NDArray[np.uint8],
    t: type[np.unsignedinteger[Any]],
    k: npt.NDArray[Any],
    sigma: tuple[tuple[int, int, int], ...],
) -> npt.NDArray[Any]:
    """One compression of the blocks b (rows, 16 words as bytes) into states s (rows,
    8). ``sigma`` holds the rotation / shift amounts of Sigma0, Sigma1, sigma0 and
    sigma1 (FIPS 180-4 (4.4)-(4.7) or (4.10)-(4.13))."""
    w_bits = 8 * np.dtype(t).itemsize
    big = np.dtype(t).newbyteorder(">")
    rounds = len(k)
    w = np.empty((rounds, b.shape[0]), dtype=t)
    w[:16] = b.view(big).astype(t).T  # the message words, big-endian (§3.1)
    (s0a, s0b, s0c), (s1a, s1b, s1c), (l0a, l0b, l0c), (l1a, l1b, l1c) = sigma
    for i in range(16, rounds):  # step 1: the message schedule
        x, y = w[i - 15], w[i - 2]
        lo0 = _rotr(x, l0a, w_bits, t) ^ _rotr(x, l0b, w_bits, t) ^ (x >> t(l0c))
        lo1 = _rotr(y, l1a, w_bits, t) ^ _rotr(y, l1b, w_bits, t) ^ (y >> t(l1c))
        w[i] = lo1 + w[i - 7] + lo0 + w[i - 16]
    a, bb, c, d, e, f, g, h = s.T  # step 2
    for i in range(rounds):  # step 3
        big1 = _rotr(e, s1a, w_bits, t) ^ _rotr(e, s1b, w_bits, t) ^ _rotr(e, s1c, w_bits, t)
        ch = (e & f) ^ (~e & g)
        t1 = h + big1 + ch + k[i] + w[i]
        big0 = _rotr(a, s0a, w_bits, t) ^ _rotr(a, s0b, w_bits, t) ^ _rotr(a, s0c, w_bits, t)
        maj = (a & bb) ^ (a & c) ^ (bb & c)
        h, g, f, e, d, c, bb, a = g, f, e, d + t1, c, bb, a, t1 + big0 + maj
    out: npt.NDArray[Any] = s + np.stack([a, bb, c, d, e, f, g, h], axis=1)  # step 4
    return out


_SIGMA256 = ((2, 13, 22), (6, 11, 25), (7, 18, 3), (17, 19, 10))
_SIGMA512 = ((28, 34, 39), (14, 18, 41), (1, 8, 7), (19, 61, 6))


def _compressor(
    dtype: type[np.unsignedinteger[Any]], block: int, k: Any, sigma: Any
) -> Callable[[Any, Any], npt.NDArray[Any]]:
    """The contract's compression function of one SHA-2 width (FIPS 180-4 §6.2.2 /
    §6.4.2) over :func:`_compress`: (..., 8) states and (..., block) blocks."""

    def compress(states: Any, blocks: Any) -> npt.NDArray[Any]:
        s, b, lead = compress_args(states, blocks, dtype, block)
        out: npt.NDArray[Any] = _compress(s, b, dtype, k, sigma)
        return out.reshape(*lead, 8)

    return compress


sha256_compress = _compressor(U32, 64, _K256, _SIGMA256)
sha512_compress = _compressor(U64, 128, _K512, _SIGMA512)


KERNELS: dict[str, Any] = kernel_table(HashKernels, globals())
