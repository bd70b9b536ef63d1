"""FIPS 202 sponges for the whole-operation kernels (:mod:`pqkit.mlkem.kernels.jit_ops`,
:mod:`pqkit.mldsa.kernels.jit_ops`), on the 8-state permutation
:func:`pqkit.common.kernels.jit._keccak_x8` (one SIMD lane per state).

Groups of 8 independent sponges whose inputs fit in one block (the matrix entries,
PRF calls and mask polynomials) run side by side (:func:`_absorb_x8`,
:func:`_shake_x8`); a single hash (G, H, J) runs in state 0 with the one-state
permutation (:func:`_sponge1`, :func:`pqkit.common.kernels.jit._keccak_x1`): 0.27 us
a permutation here against 0.73 us for the 8-state one with 7 states idle. No
branch or index depends on the bytes hashed; loop bounds depend on lengths only.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pqkit.arith._jit import jit, put
from pqkit.common.kernels.jit import _keccak_x1, _keccak_x4, _keccak_x8

__all__: list[str] = []

# NOTE: NumPy integers, not Python ints: Numba types a Python int constant passed to
# a compiled function as its value (``Literal[int]``) and compiles the function
# once per value, each time with the Keccak code it links; an np.int64 is typed
# int64 (the value is still a constant where it is used directly).
SHA3_PAD = np.int64(0x06)  # FIPS 202 §6.1: M || 01, then pad10*1
SHAKE_PAD = np.int64(0x1F)  # FIPS 202 §6.2: M || 1111, then pad10*1
RATE_128 = np.int64(168)
RATE_256 = np.int64(136)
RATE_512 = np.int64(72)


@jit
def _permute(w: Any, m: int) -> None:
    """KECCAK-f[1600] on the first ``m`` states of ``w``, for a group of sponges: the
    8-state permutation (:func:`_keccak_x8`; ``m`` 0 also means all 8), or, when
    ``m`` is 1 (a single hash, the ninth matrix entry of ML-KEM-768, a last PRF or
    ExpandS row), the one-state one (:func:`_keccak_x1`), or for 2-4 states (the
    matrix of ML-KEM-512, ML-DSA-44's ExpandMask, a pair of hashes) the four-state
    one (:func:`_keccak_x4`) at the cost of one. The states past ``m`` are left as
    they were or permuted for nothing: no caller reads them. Callers pass NumPy
    integers (a bare 8 is typed as its value and compiled a second copy).

    NOTE: every sponge of the operations calls the permutation through this function,
    which is recursive on a branch never taken (m > 8) only so that LLVM does not
    inline it. Inlined, each call site got its own copy of the large round body to
    optimise: compiling ML-KEM key generation took 11 s for the function alone and
    the whole warm-up about 100 s; run time is the same either way (one call per
    permutation)."""
    if m > 8:
        _permute(w, m - 8)
        return
    if m == 1:
        _keccak_x1(w, 0)
    elif 1 < m <= 4:
        _keccak_x4(w, 0)
    else:
        _keccak_x8(w, 0)


@jit
def _sponge1(data: Any, rate: int, pad: int, out_len: int) -> Any:
    """One sponge (FIPS 202 Algorithm 8, pad10*1 after the domain bits ``pad``) in
    state 0 of an 8-state layout, permuted alone (:func:`_permute` with m = 1): SHA3-256/512
    (pad 0x06) or SHAKE256 (pad 0x1F) of ``data`` (uint8), ``out_len`` bytes."""
    n = data.shape[0]
    n_blocks = n // rate + 1
    lanes = rate // 8
    buf = np.zeros(n_blocks * rate, dtype=np.uint8)
    put(buf[:n], data)
    buf[n] = pad
    buf[n_blocks * rate - 1] ^= 0x80
    words = buf.view(np.uint64)  # little-endian lanes (FIPS 202 §B.1)
    w = np.zeros(200, dtype=np.uint64)
    for b in range(n_blocks):
        for i in range(lanes):
            w[8 * i] ^= words[b * lanes + i]
        _permute(w, np.int64(1))
    out = np.empty(out_len, dtype=np.uint8)
    pos = 0
    while True:
        for i in range(lanes):
            v = w[8 * i]
            for b in range(8):
                if pos < out_len:
                    out[pos] = (v >> (8 * b)) & 0xFF
                    pos += 1
        if pos >= out_len:
            break
        _permute(w, np.int64(1))
    return out


@jit
def _sponge2(a: Any, pad_a: int, b: Any, pad_b: int, rate: int, out_len: int) -> Any:
    """Two sponges of one rate side by side, in states 0 and 1 (:func:`_permute` with
    m = 2: the four-state permutation, at the cost of one): FIPS 202 Algorithm 8 on
    ``a`` with the domain bits ``pad_a`` and on ``b`` with ``pad_b``, ``out_len`` <=
    ``rate`` bytes of each. ML-KEM decapsulation hashes H(ek) and J(z || c) so: the
    two inputs have the same number of blocks in every parameter set. Inputs of
    different block counts (public lengths) run one after the other."""
    na = a.shape[0]
    nb = b.shape[0]
    n_blocks = na // rate + 1
    if nb // rate + 1 != n_blocks or out_len > rate:
        return _sponge1(a, rate, pad_a, out_len), _sponge1(b, rate, pad_b, out_len)
    size = n_blocks * rate
    lanes = rate // 8
    buf = np.zeros(2 * size, dtype=np.uint8)
    put(buf[:na], a)
    buf[na] = pad_a
    buf[size - 1] ^= 0x80
    put(buf[size : size + nb], b)
    buf[size + nb] = pad_b
    buf[2 * size - 1] ^= 0x80
    words = buf.view(np.uint64)  # little-endian lanes (FIPS 202 §B.1)
    w = np.zeros(200, dtype=np.uint64)
    for blk in range(n_blocks):
        for i in range(lanes):
            w[8 * i] ^= words[blk * lanes + i]
            w[8 * i + 1] ^= words[n_blocks * lanes + blk * lanes + i]
        _permute(w, np.int64(2))
    out_a = np.empty(out_len, dtype=np.uint8)
    out_b = np.empty(out_len, dtype=np.uint8)
    for p in range(out_len):
        out_a[p] = (w[8 * (p >> 3)] >> (8 * (p & 7))) & 0xFF
        out_b[p] = (w[8 * (p >> 3) + 1] >> (8 * (p & 7))) & 0xFF
    return out_a, out_b


@jit
def _seeded(seed: Any, nonces: Any, width: int) -> Any:
    """Rows seed || IntegerToBytes(nonce, width), little-endian (the PRF inputs of
    FIPS 203 §4.1 with width 1; the G and H inputs of FIPS 204 §3.7 with width 2;
    FIPS 203's rho || j || i as the 2-byte nonce j + 256 i)."""
    n = nonces.shape[0]
    s = seed.shape[0]
    out = np.empty((n, s + width), dtype=np.uint8)
    for r in range(n):
        put(out[r, :s], seed)
        for b in range(width):
            out[r, s + b] = (nonces[r] >> (8 * b)) & 0xFF
    return out


@jit
def _absorb_x8(w: Any, msgs: Any, g: int, rate: int) -> None:
    """w := the states after absorbing rows g .. g + 7 of ``msgs`` (each shorter than
    one block, SHAKE padding; lanes past the last row repeat it) and permuting
    (:func:`_permute`: only state 0 when it is the last row alone)."""
    n, length = msgs.shape
    block = np.zeros(rate, dtype=np.uint8)
    words = block.view(np.uint64)
    w[:] = 0
    for j in range(8):
        block[:] = 0
        put(block[:length], msgs[min(g + j, n - 1)])
        block[length] = SHAKE_PAD
        block[rate - 1] |= 0x80
        for i in range(rate // 8):
            w[8 * i + j] = words[i]
    _permute(w, min(8, n - g))


@jit
def _lane_bytes(w: Any, j: int, rate: int, out: Any) -> None:
    """The first ``rate`` bytes of state j (one squeezed block) into ``out``."""
    for i in range(rate // 8):
        v = w[8 * i + j]
        for b in range(8):
            out[8 * i + b] = (v >> (8 * b)) & 0xFF


@jit
def _shake_x8(msgs: Any, rate: int, out_len: int) -> Any:
    """SHAKE (rate 168 or 136) of every row of ``msgs``: (rows, out_len) uint8."""
    n = msgs.shape[0]
    out = np.empty((n, out_len), dtype=np.uint8)
    w = np.zeros(200, dtype=np.uint64)
    for g in range(0, n, 8):
        m = min(8, n - g)
        _absorb_x8(w, msgs, g, rate)
        pos = 0
        while True:
            take = min(rate, out_len - pos)
            for j in range(m):
                # Byte b of the block is byte b & 7 of lane b >> 3 (little-endian,
                # FIPS 202 §B.1); whole lanes first (LLVM merges their 8 stores).
                for i in range(take >> 3):
                    v = w[8 * i + j]
                    for t in range(8):
                        out[g + j, pos + 8 * i + t] = (v >> (8 * t)) & 0xFF
                for b in range(take & ~7, take):
                    out[g + j, pos + b] = (w[8 * (b >> 3) + j] >> (8 * (b & 7))) & 0xFF
            pos += take
            if pos >= out_len:
                break
            _permute(w, m)
    return out


@jit
def _sponge_rows(data: Any, rate: int, pad: int, out_len: int) -> Any:
    """One sponge per row of ``data`` (uint8 (rows, length), every input the same
    length, any number of blocks), 8 rows per permutation: SHA3 (pad 0x06) or SHAKE
    (pad 0x1F) with capacity 1600 - 8 rate bits, ``out_len`` bytes each. The
    batch kernels hash G, H and J of 8 items at once with it, where
    :func:`_sponge1` fills one lane; a last group of fewer than 8 rows repeats its
    last row in the idle lanes."""
    n, length = data.shape
    out = np.empty((n, out_len), dtype=np.uint8)
    n_blocks = length // rate + 1
    lanes = rate // 8
    buf = np.zeros((8, n_blocks * rate), dtype=np.uint8)
    w = np.zeros(200, dtype=np.uint64)
    for g in range(0, n, 8):
        m = min(8, n - g)
        for j in range(8):
            buf[j, :] = 0
            put(buf[j, :length], data[min(g + j, n - 1)])
            buf[j, length] = pad
            buf[j, n_blocks * rate - 1] ^= 0x80
        words = buf.view(np.uint64)  # little-endian lanes (FIPS 202 §B.1)
        w[:] = 0
        for b in range(n_blocks):
            for i in range(lanes):
                for j in range(8):
                    w[8 * i + j] ^= words[j, b * lanes + i]
            _permute(w, np.int64(8))
        pos = 0
        while True:
            for i in range(lanes):
                for j in range(m):
                    v = w[8 * i + j]
                    for b in range(8):
                        if pos + 8 * i + b < out_len:
                            out[g + j, pos + 8 * i + b] = (v >> (8 * b)) & 0xFF
            pos += rate
            if pos >= out_len:
                break
            _permute(w, np.int64(8))
    return out
