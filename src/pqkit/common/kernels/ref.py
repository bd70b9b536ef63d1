"""The ``ref`` hash kernels: plain Python ints, one input at a time, reading like
FIPS 202 and FIPS 180-4. The test oracle of the other backends.

Contracts: :class:`pqkit.common.kernels.contract.HashKernels`. KECCAK-p[1600, nr] is written out
step by step (FIPS 202 Algorithms 1-7) in :func:`keccak_p`; for the full 24 rounds
the sponge uses the unrolled permutation of :mod:`pqkit.common.python.keccak`
(the same function, about five times faster in Python; the tests check the two
against each other). The SHA-2 compressions are those of
:mod:`pqkit.common.python.sha2` (FIPS 180-4 §6.2.2 and §6.4.2).
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.arith.api import kernel_table
from pqkit.common.kernels._hash import (
    H256,
    H512,
    RHO_OFFSETS,
    ROUND_CONSTANTS,
    SHAKE_PAD,
    compress_args,
    rate_bytes,
)
from pqkit.common.kernels.contract import HashKernels, keccak_args, sha2_args, shake_args
from pqkit.common.python.keccak import keccak_f1600 as _keccak_f1600_unrolled
from pqkit.common.python.sha2 import _compress256, _compress512

__all__ = ["KERNELS", "keccak_p"]

_MASK64 = (1 << 64) - 1


def _rot(w: int, r: int) -> int:
    """ROT(W, r): the 64-bit lane rotated r positions towards higher bit indices."""
    r %= 64
    return ((w << r) | (w >> (64 - r))) & _MASK64


# --- FIPS 202 §3.2: the step mappings on A[x][y] (lists of 5 lists of 5 lanes) -----


def _theta(a: list[list[int]]) -> list[list[int]]:
    """FIPS 202, Algorithm 1 (theta)."""
    c = [a[x][0] ^ a[x][1] ^ a[x][2] ^ a[x][3] ^ a[x][4] for x in range(5)]
    d = [c[(x - 1) % 5] ^ _rot(c[(x + 1) % 5], 1) for x in range(5)]
    return [[a[x][y] ^ d[x] for y in range(5)] for x in range(5)]


def _rho(a: list[list[int]]) -> list[list[int]]:
    """FIPS 202, Algorithm 2 (rho): lane (x, y) rotated by its offset."""
    return [[_rot(a[x][y], RHO_OFFSETS[x + 5 * y]) for y in range(5)] for x in range(5)]


def _pi(a: list[list[int]]) -> list[list[int]]:
    """FIPS 202, Algorithm 3 (pi): A'[x][y] = A[(x + 3y) mod 5][x]."""
    return [[a[(x + 3 * y) % 5][x] for y in range(5)] for x in range(5)]


def _chi(a: list[list[int]]) -> list[list[int]]:
    """FIPS 202, Algorithm 4 (chi)."""
    return [
        [a[x][y] ^ ((a[(x + 1) % 5][y] ^ _MASK64) & a[(x + 2) % 5][y]) for y in range(5)]
        for x in range(5)
    ]


def _iota(a: list[list[int]], i_r: int) -> list[list[int]]:
    """FIPS 202, Algorithm 6 (iota): lane (0, 0) XOR RC[i_r]."""
    a[0][0] ^= ROUND_CONSTANTS[i_r]
    return a


def keccak_p(state: list[int], rounds: int) -> list[int]:
    """FIPS 202, Algorithm 7 (KECCAK-p[1600, nr]) with nr = ``rounds``: rounds
    i_r = 12 + 2l - nr .. 12 + 2l - 1 (l = 6) of Rnd = iota o chi o pi o rho o
    theta. ``state`` is 25 lanes, (x, y) at index x + 5y; returns a new list."""
    a = [[state[x + 5 * y] for y in range(5)] for x in range(5)]
    for i_r in range(24 - rounds, 24):
        a = _iota(_chi(_pi(_rho(_theta(a)))), i_r)
    return [a[i % 5][i // 5] for i in range(25)]


def _permute(state: list[int], rounds: int = 24) -> list[int]:
    if rounds == 24:
        out = list(state)
        _keccak_f1600_unrolled(out)
        return out
    return keccak_p(state, rounds)


def keccak_f1600(states: npt.NDArray[np.uint64], rounds: int = 24) -> npt.NDArray[np.uint64]:
    nr, rows, lead = keccak_args(states, rounds)
    out = [_permute([int(v) for v in row], nr) for row in rows]
    return np.array(out, dtype=np.uint64).reshape(*lead, 25)


# --- FIPS 202 Algorithm 8 (SPONGE) with pad10*1, for SHAKE (§6.2) -------------------


def _absorb_block(state: list[int], block: bytes) -> list[int]:
    """S = f(S xor (P_i || 0^c)) (Algorithm 8, step 6), lanes little-endian."""
    lanes = struct.unpack(f"<{len(block) // 8}Q", block)
    mixed = [s ^ p for s, p in zip(state, lanes, strict=False)] + state[len(lanes) :]
    return _permute(mixed)


def _shake_row(state: list[int], tail: bytes, rate: int, out_len: int) -> bytes:
    """Finish a SHAKE whose absorbed whole blocks are in ``state``: the rest of the
    message ``tail``, then M || 1111 || pad10*1 (§6.2, §5.1), then squeeze."""
    padded = bytearray(tail + bytes(rate - len(tail) % rate))
    padded[len(tail)] ^= SHAKE_PAD
    padded[-1] ^= 0x80
    for offset in range(0, len(padded), rate):
        state = _absorb_block(state, bytes(padded[offset : offset + rate]))
    out = b""
    while True:  # Algorithm 8 steps 7-10: Z = Z || Trunc_r(S); S = f(S)
        out += struct.pack(f"<{rate // 8}Q", *state[: rate // 8])
        if len(out) >= out_len:
            return out[:out_len]
        state = _permute(state)


def _prefix_state(prefix: bytes, rate: int) -> tuple[list[int], bytes]:
    """The state after absorbing the whole rate-blocks of ``prefix``, and its rest."""
    full = len(prefix) - len(prefix) % rate
    state = [0] * 25
    for offset in range(0, full, rate):
        state = _absorb_block(state, prefix[offset : offset + rate])
    return state, prefix[full:]


def shake_many(
    bits: int, inputs: npt.NDArray[np.uint8], out_len: int, prefix: bytes = b""
) -> npt.NDArray[np.uint8]:
    checked, n, rows, lead, data = shake_args(bits, inputs, out_len, prefix)
    rate = rate_bytes(checked)
    state, rest = _prefix_state(data, rate)
    out = b"".join(_shake_row(list(state), rest + row.tobytes(), rate, n) for row in rows)
    digests: npt.NDArray[np.uint8] = np.frombuffer(out, dtype=np.uint8)
    result: npt.NDArray[np.uint8] = digests.reshape(*lead, n).copy()
    return result


# --- FIPS 180-4: SHA-256 and SHA-512 ---------------------------------------------


def _compress_each(
    states: Any, blocks: Any, dtype: type[np.generic], block: int, compress: Any
) -> Any:
    """One compression (FIPS 180-4 §6.2.2 or §6.4.2) per broadcast row, on ints."""
    s, b, lead = compress_args(states, blocks, dtype, block)
    out = []
    for row, data in zip(s, b, strict=True):
        h = [int(v) for v in row]
        compress(h, data.tobytes(), 0)
        out.append(h)
    return np.array(out, dtype=dtype).reshape(*lead, 8)


def sha256_compress(
    states: npt.NDArray[np.uint32], blocks: npt.NDArray[np.uint8]
) -> npt.NDArray[np.uint32]:
    out: npt.NDArray[np.uint32] = _compress_each(states, blocks, np.uint32, 64, _compress256)
    return out


def sha512_compress(
    states: npt.NDArray[np.uint64], blocks: npt.NDArray[np.uint8]
) -> npt.NDArray[np.uint64]:
    out: npt.NDArray[np.uint64] = _compress_each(states, blocks, np.uint64, 128, _compress512)
    return out


def _sha2_many(
    inputs: npt.NDArray[np.uint8],
    prefix: bytes,
    compress: Any,
    iv: tuple[int, ...],
    block: int,
    word: str,
) -> npt.NDArray[np.uint8]:
    rows, lead, data = sha2_args(inputs, prefix)
    full = len(data) - len(data) % block
    h0 = list(iv)
    for offset in range(0, full, block):  # the prefix's whole blocks, once
        compress(h0, data, offset)
    rest = data[full:]
    length_bytes = block // 8  # §5.1.1: 64-bit length; §5.1.2: 128-bit length
    out = []
    for row in rows:
        message = rest + row.tobytes()
        total_bits = 8 * (full + len(message))
        # §5.1.1 / §5.1.2: M || 1 || 0^k || the length in bits, to a block multiple
        zeros = (-(len(message) + 1 + length_bytes)) % block
        padded = message + b"\x80" + bytes(zeros) + total_bits.to_bytes(length_bytes, "big")
        h = list(h0)
        for offset in range(0, len(padded), block):
            compress(h, padded, offset)
        out.append(struct.pack(f">8{word}", *h))
    size = 8 * struct.calcsize(">" + word)
    digests: npt.NDArray[np.uint8] = np.frombuffer(b"".join(out), dtype=np.uint8)
    result: npt.NDArray[np.uint8] = digests.reshape(*lead, size).copy()
    return result


def sha256_many(inputs: npt.NDArray[np.uint8], prefix: bytes = b"") -> npt.NDArray[np.uint8]:
    return _sha2_many(inputs, prefix, _compress256, H256, 64, "L")


def sha512_many(inputs: npt.NDArray[np.uint8], prefix: bytes = b"") -> npt.NDArray[np.uint8]:
    return _sha2_many(inputs, prefix, _compress512, H512, 128, "Q")


KERNELS: dict[str, Any] = kernel_table(HashKernels, globals())
