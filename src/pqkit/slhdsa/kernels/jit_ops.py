"""The ``jit`` SLH-DSA engine: whole FIPS 205 structures (XMSS trees, FORS, the
hypertree walk of verification), each one compiled call (Numba), hashing included.

The ``ref`` twin is the batched Python path of :mod:`pqkit.slhdsa` (``wots``,
``xmss``, ``fors``, ``hypertree`` over :class:`pqkit.slhdsa.hashes.Hashes`), which
every backend without this module runs; the differential tests compare the two byte
for byte. One engine serves both instantiations, chosen by ``mode``:

- mode 0, SHAKE (FIPS 205 §11.1): every tweakable hash is SHAKE256(PK.seed || ADRS ||
  M, 8n) with the 32-byte ADRS; each input is padded into its own Keccak lanes.
- mode 1, SHA-2 (§11.2): the 22-byte compressed ADRSc; F and PRF are SHA-256, H and
  T_l SHA-256 for n = 16 and SHA-512 for n = 24, 32. PK.seed || toByte(0, 64 - n)
  (128 - n for SHA-512) is one compression block: its midstate is computed once per
  call and every input starts from it (as the SPHINCS+ reference does).

Every hash is one lane of a group of 16 (:func:`_hash`): the SHAKE lanes go
through :func:`pqkit.common.kernels.jit._keccak_x8` (two 8-state groups), the SHA-2 ones
through this module's 16-state compressions (:func:`_sha256_x16` on uint32 words,
:func:`_sha512_x16`). Each lane's padded message lives in a buffer whose
padding depends only on the (public) lengths, written once per structure; the
structure code writes the address (built here by :func:`_put_adrs`, the layout of
:class:`pqkit.slhdsa.adrs.AdrsCodec`) and the payload into the lanes and reads the
n-byte outputs back. The w - 1 steps of a WOTS+ chain run with 16 chains side by
side, the H levels 16 nodes at a time.

Secrets (SK.seed and what is derived from it) only enter hash inputs and outputs:
no branch, index or loop bound depends on them. The branches that exist read public
values only: tree and leaf indices, the FORS indices and WOTS+ digits of the
message digest (all of which the signature reveals), and lengths.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
import numpy.typing as npt
from numba.core import types  # type: ignore[import-not-found, unused-ignore]
from numba.extending import intrinsic  # type: ignore[import-not-found, unused-ignore]
from numba.np.numpy_support import carray  # type: ignore[import-not-found, unused-ignore]

from pqkit.arith._jit import jit, kernel_bytes, put
from pqkit.arith._jit import jit_inline as _inline
from pqkit.common.kernels._hash import H256, H512, K256, K512
from pqkit.common.kernels.jit_sha256 import SHA_NI as SHA_NI
from pqkit.common.kernels.jit_sha256 import _sha256_1
from pqkit.common.kernels.jit_sha256 import _sha256_1_ni as _sha256_1_ni
from pqkit.common.kernels.jit_sha256 import _sha256_1_words as _sha256_1_words
from pqkit.common.kernels.jit_sponge import _permute

# FIPS 205, Table 1: the address types, from their one owner (a light module: no
# scheme code is imported).
from pqkit.slhdsa.adrs import (
    FORS_PRF,
    FORS_ROOTS,
    FORS_TREE,
    TREE,
    WOTS_HASH,
    WOTS_PK,
    WOTS_PRF,
)

__all__ = ["OPERATIONS", "adrs_bytes"]

SHAKE = 0
SHA2 = 1


W_MAX = 15
"""w - 1: the steps of a WOTS+ chain (lg_w = 4 in every FIPS 205 set)."""

LANES = 16
"""Hashes per group: 16 uint32 SHA-256 states fill an AVX-512 register (two AVX2
ones); SHA-512 and Keccak run two registers (two 8-state Keccak groups) per step."""

_H256 = np.array(H256, dtype=np.uint32)
_H512 = np.array(H512, dtype=np.uint64)
_K256 = np.array(K256, dtype=np.uint32)
_K512 = np.array(K512, dtype=np.uint64)
_U32 = np.uint32
_FF = np.uint64(0xFF)
_EIGHT = np.uint64(8)
_RATE = 136  # SHAKE256 (FIPS 202 §6.2)

# The per-call context (:func:`_context`) is one uint64 array, its parts at these
# word offsets (uint32 parts are uint32 views of their words): one array, because
# Numba increments and decrements the reference count of every array a compiled
# call receives, and a tuple of twelve arrays passed down to every hash call cost
# about a fifth of a verification in those atomic operations.
_CX_MID256 = 0  # SHA-256 midstate after the PK.seed block (8 uint32)
_CX_MID512 = 4  # SHA-512 midstate (8 uint64; n > 16)
_CX_W32 = 12  # the 16-lane SHA-256 schedule and working variables (1152 uint32)
_CX_H32 = 588  # the 16 SHA-256 states (128 uint32)
_CX_W64 = 652  # the 16-lane SHA-512 schedule and working variables (1408 uint64)
_CX_H64 = 2060  # the 16 SHA-512 states (128 uint64)
_CX_ST0 = 2188  # the two 8-state Keccak groups (200 uint64 each)
_CX_ST1 = 2388
_CX_H32_1 = 2588  # one SHA-256 state (8 uint32) and its schedule (64 uint32)
_CX_W32_1 = 2592
_CX_H64_1 = 2624  # one SHA-512 state (8 uint64) and its schedule (80 uint64)
_CX_W64_1 = 2632
_CX_WORDS = 2712


# --- addresses (FIPS 205 §4.2, §11.2) ----------------------------------------------


@_inline
def _adrs_size(mode: int) -> int:
    return 32 if mode == SHAKE else 22


@_inline
def _put_word(buf: Any, off: int, x: int) -> None:
    """toByte(x, 4) (FIPS 205, Algorithm 3) at buf[off:]."""
    for k in range(4):
        buf[off + 3 - k] = (x >> (8 * k)) & 0xFF


@jit
def _put_adrs(
    buf: Any, off: int, mode: int, layer: int, tree: Any, type_: int, kp: int, w2: int, w3: int
) -> None:
    """The address at buf[off:]: 32 bytes layer (4) || tree (12) || type (4) || key
    pair || word 2 || word 3 for SHAKE (§4.2); the 22-byte ADRSc = layer (1) || tree
    (8) || type (1) || the last 12 bytes for SHA-2 (§11.2). ``tree`` is a uint64.
    Its callers pass constants (the types, zero words) as ``np.int64``, as for
    :func:`_hash`: with bare ones it compiled once per combination, nine times."""
    t = tree
    if mode == SHAKE:
        _put_word(buf, off, layer)
        for k in range(4):
            buf[off + 4 + k] = 0
        for k in range(8):
            buf[off + 15 - k] = t & _FF
            t = t >> _EIGHT
        _put_word(buf, off + 16, type_)
        tail = off + 20
    else:
        buf[off] = layer
        for k in range(8):
            buf[off + 8 - k] = t & _FF
            t = t >> _EIGHT
        buf[off + 9] = type_
        tail = off + 10
    _put_word(buf, tail, kp)
    _put_word(buf, tail + 4, w2)
    _put_word(buf, tail + 8, w3)


@jit
def _adrs_array(mode: int, layer: int, tree: Any, type_: int, kp: int, w2: int, w3: int) -> Any:
    out = np.zeros(_adrs_size(mode), dtype=np.uint8)
    _put_adrs(out, 0, mode, layer, tree, type_, kp, w2, w3)
    return out


def adrs_bytes(
    compressed: bool, layer: int, tree: int, type_: int, keypair: int, word2: int, word3: int
) -> bytes:
    """The compiled address builder's bytes (for the tests against
    :class:`pqkit.slhdsa.adrs.AdrsCodec`, the reference layout)."""
    mode = SHA2 if compressed else SHAKE
    out: npt.NDArray[np.uint8] = _adrs_array(
        mode, layer, np.uint64(tree), type_, keypair, word2, word3
    )
    return out.tobytes()


# --- 16 tweakable hashes at once ----------------------------------------------------


@jit
def _sha256_x16(h: Any, w: Any) -> None:
    """FIPS 180-4 §6.2.2 steps 1-4 on 16 states at once, in place, on uint32 words
    (one AVX-512 register holds a word of all 16 states): ``h`` (128,) word i of
    state j at h[16 i + j]; ``w`` (1152,) the schedule W_t of state j at w[16 t + j]
    (W_0..W_15 given) and the working variables a..h at w[1024 + 16 k + j]."""
    for t in range(16, 64):  # step 1: sigma0 (4.6) and sigma1 (4.7)
        for j in range(16):
            x = w[16 * (t - 15) + j]
            y = w[16 * (t - 2) + j]
            s0 = _U32((x >> _U32(7)) | (x << _U32(25))) ^ _U32((x >> _U32(18)) | (x << _U32(14)))
            s1 = _U32((y >> _U32(17)) | (y << _U32(15))) ^ _U32((y >> _U32(19)) | (y << _U32(13)))
            s0 ^= x >> _U32(3)
            s1 ^= y >> _U32(10)
            w[16 * t + j] = _U32(s1 + w[16 * (t - 7) + j] + s0 + w[16 * (t - 16) + j])
    for k in range(128):  # step 2
        w[1024 + k] = h[k]
    for t in range(64):  # step 3: Sigma1 (4.5), Ch (4.2), Sigma0 (4.4), Maj (4.3)
        kt = _K256[t]
        for j in range(16):
            a, b, c, d = w[1024 + j], w[1040 + j], w[1056 + j], w[1072 + j]
            e, f, g, hh = w[1088 + j], w[1104 + j], w[1120 + j], w[1136 + j]
            big1 = _U32((e >> _U32(6)) | (e << _U32(26))) ^ _U32((e >> _U32(11)) | (e << _U32(21)))
            big1 ^= _U32((e >> _U32(25)) | (e << _U32(7)))
            ch = (e & f) ^ (~e & g)
            t1 = _U32(hh + big1 + ch + kt + w[16 * t + j])
            big0 = _U32((a >> _U32(2)) | (a << _U32(30))) ^ _U32((a >> _U32(13)) | (a << _U32(19)))
            big0 ^= _U32((a >> _U32(22)) | (a << _U32(10)))
            maj = (a & b) ^ (a & c) ^ (b & c)
            w[1136 + j], w[1120 + j], w[1104 + j] = g, f, e
            w[1088 + j] = _U32(d + t1)
            w[1072 + j], w[1056 + j], w[1040 + j] = c, b, a
            w[1024 + j] = _U32(t1 + big0 + maj)
    for k in range(128):  # step 4
        h[k] = _U32(h[k] + w[1024 + k])


@jit
def _sha512_x16(h: Any, w: Any) -> None:
    """FIPS 180-4 §6.4.2 steps 1-4 on 16 states at once, in place, on uint64 words:
    as :func:`_sha256_x16` with 80 rounds (working variables at w[1280 + 16 k + j])."""
    for t in range(16, 80):  # step 1: sigma0 (4.12) and sigma1 (4.13)
        for j in range(16):
            x = w[16 * (t - 15) + j]
            y = w[16 * (t - 2) + j]
            s0 = ((x >> 1) | (x << 63)) ^ ((x >> 8) | (x << 56)) ^ (x >> 7)
            s1 = ((y >> 19) | (y << 45)) ^ ((y >> 61) | (y << 3)) ^ (y >> 6)
            w[16 * t + j] = s1 + w[16 * (t - 7) + j] + s0 + w[16 * (t - 16) + j]
    for k in range(128):  # step 2
        w[1280 + k] = h[k]
    for t in range(80):  # step 3: Sigma1 (4.11), Ch (4.8), Sigma0 (4.10), Maj (4.9)
        kt = _K512[t]
        for j in range(16):
            a, b, c, d = w[1280 + j], w[1296 + j], w[1312 + j], w[1328 + j]
            e, f, g, hh = w[1344 + j], w[1360 + j], w[1376 + j], w[1392 + j]
            big1 = ((e >> 14) | (e << 50)) ^ ((e >> 18) | (e << 46)) ^ ((e >> 41) | (e << 23))
            ch = (e & f) ^ (~e & g)
            t1 = hh + big1 + ch + kt + w[16 * t + j]
            big0 = ((a >> 28) | (a << 36)) ^ ((a >> 34) | (a << 30)) ^ ((a >> 39) | (a << 25))
            maj = (a & b) ^ (a & c) ^ (b & c)
            w[1392 + j], w[1376 + j], w[1360 + j] = g, f, e
            w[1344 + j] = d + t1
            w[1328 + j], w[1312 + j], w[1296 + j] = c, b, a
            w[1280 + j] = t1 + big0 + maj
    for k in range(128):  # step 4
        h[k] += w[1280 + k]


@jit
def _sha512_1(h: Any, w: Any) -> None:
    """FIPS 180-4 §6.4.2 on one state (h, uint64 (8,)), block words in w[0:16]
    (uint64 (80,)): as :func:`_sha256_1`."""
    for t in range(16, 80):
        x = w[t - 15]
        y = w[t - 2]
        s0 = ((x >> 1) | (x << 63)) ^ ((x >> 8) | (x << 56)) ^ (x >> 7)
        s1 = ((y >> 19) | (y << 45)) ^ ((y >> 61) | (y << 3)) ^ (y >> 6)
        w[t] = s1 + w[t - 7] + s0 + w[t - 16]
    a, b, c, d, e, f, g, hh = h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]
    for t in range(80):
        big1 = ((e >> 14) | (e << 50)) ^ ((e >> 18) | (e << 46)) ^ ((e >> 41) | (e << 23))
        ch = (e & f) ^ (~e & g)
        t1 = hh + big1 + ch + _K512[t] + w[t]
        big0 = ((a >> 28) | (a << 36)) ^ ((a >> 34) | (a << 30)) ^ ((a >> 39) | (a << 25))
        maj = (a & b) ^ (a & c) ^ (b & c)
        hh, g, f = g, f, e
        e = d + t1
        d, c, b = c, b, a
        a = t1 + big0 + maj
    h[0] += a
    h[1] += b
    h[2] += c
    h[3] += d
    h[4] += e
    h[5] += f
    h[6] += g
    h[7] += hh


@_inline
def _bswap32(x: Any) -> Any:
    """The byte-reversed uint32 (big-endian words, FIPS 180-4 §3.1, on a
    little-endian machine)."""
    return _U32(
        (x >> _U32(24))
        | ((x >> _U32(8)) & _U32(0xFF00))
        | ((x << _U32(8)) & _U32(0xFF0000))
        | (x << _U32(24))
    )


@_inline
def _bswap64(x: Any) -> Any:
    """The byte-reversed uint64."""
    lo = np.uint64(_bswap32(_U32(x & np.uint64(0xFFFFFFFF))))
    hi = np.uint64(_bswap32(_U32(x >> np.uint64(32))))
    return (lo << np.uint64(32)) | hi


@_inline
def _put(dst: Any, off: int, src: Any, n: int) -> None:
    """dst[off : off + n] = src[:n], as a plain loop (cheaper than a slice
    assignment for these few bytes)."""
    for b in range(n):
        dst[off + b] = src[b]


@_inline
def _u32s(cx: Any, off: int, count: int) -> Any:
    """The ``count`` uint32 words of the context from word ``off`` (a view)."""
    return cx[off : off + count // 2].view(np.uint32)


@_inline
def _cp(dst: Any, doff: int, src: Any, soff: int, n: int) -> None:
    """dst[doff : doff + n] = src[soff : soff + n] on 1-D arrays, without the views
    (each view is a reference-count increment and decrement)."""
    for b in range(n):
        dst[doff + b] = src[soff + b]


@_inline
def _cp_row(dst: Any, doff: int, src: Any, row: int, n: int) -> None:
    """dst[doff : doff + n] = src[row, :n] (``src`` 2-D), without the row view."""
    for b in range(n):
        dst[doff + b] = src[row, b]


@_inline
def _rows(dst: Any, drow: int, src: Any, srow: int, n: int) -> None:
    """dst[drow, :n] = src[srow, :n] (2-D arrays), without the row views."""
    for b in range(n):
        dst[drow, b] = src[srow, b]


@intrinsic  # type: ignore[untyped-decorator, unused-ignore]
def _ptr_intrinsic(typingctx: Any, arr: Any) -> Any:
    """The data pointer of a C-contiguous array. For the out-of-line compressions:
    an array argument costs an atomic reference-count increment and decrement per
    call, a pointer none (the caller keeps the array alive)."""
    sig = types.CPointer(arr.dtype)(arr)  # type: ignore[no-untyped-call, unused-ignore]

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return context.make_array(signature.args[0])(context, builder, args[0]).data

    return sig, codegen


_ptr = cast(Callable[[Any], Any], _ptr_intrinsic)


@jit
def _compress256(h: Any, w: Any, n: int) -> None:
    """:func:`_sha256_x16` on the 16 states at pointer ``h`` (128 words) and the
    schedule at ``w`` (1152 words) (:func:`_ptr`), called through a function that
    is recursive on a branch never taken (``n`` > 0 always) only so that LLVM does
    not inline the large round body at every call site (see
    :func:`pqkit.common.kernels.jit_sponge._permute`). ``n`` is a run-time value: Numba
    types a constant argument as a literal and compiles the callee once more for
    it."""
    if n < 0:
        _compress256(h, w, n + 1)
        return
    _sha256_x16(carray(h, 128), carray(w, 1152))


@jit
def _compress512(h: Any, w: Any, n: int) -> None:
    """:func:`_sha512_x16` at pointers ``h`` (128 words), ``w`` (1408), not inlined
    (as :func:`_compress256`)."""
    if n < 0:
        _compress512(h, w, n + 1)
        return
    _sha512_x16(carray(h, 128), carray(w, 1408))


@_inline
def _layout(mode: int, n: int, wide: bool, length: int) -> tuple[int, int]:
    """(span, base) of a lane buffer for inputs ADRS || payload of ``length`` bytes:
    the padded message's bytes per lane, and where the input starts in it (after
    PK.seed for SHAKE; SHA-2 starts from the PK.seed midstate)."""
    if mode == SHAKE:
        return ((n + length) // _RATE + 1) * _RATE, n
    block = 128 if wide else 64
    tail = 16 if wide else 8
    return ((length + tail) // block + 1) * block, 0


@_inline
def _new_lanes(mode: int, n: int, wide: bool, length: int, pk_seed: Any) -> Any:
    """LANES padded messages (see :func:`_new_buf`)."""
    return _new_buf(mode, n, wide, length, pk_seed, np.int64(LANES))


@jit
def _new_buf(mode: int, n: int, wide: bool, length: int, pk_seed: Any, count: int) -> Any:
    """``count`` padded messages for inputs of ``length`` bytes, the input bytes left
    zero. SHAKE: PK.seed || input || 1111 || pad10*1 (FIPS 202 §6.2, §5.1); SHA-2:
    input || 1 || 0* || the bit length of block || input (FIPS 180-4 §5.1)."""
    span, base = _layout(mode, n, wide, length)
    buf = np.zeros(count * span, dtype=np.uint8)
    block = 128 if wide else 64
    bits = 8 * (block + length)
    for j in range(count):
        o = j * span
        if mode == SHAKE:
            put(buf[o : o + n], pk_seed)
            buf[o + base + length] = 0x1F
            buf[o + span - 1] ^= 0x80
        else:
            buf[o + length] = 0x80
            for k in range(8):
                buf[o + span - 1 - k] = (bits >> (8 * k)) & 0xFF
    return buf


@jit
def _hash_one(wide: bool | np.bool_, cx: Any, buf: Any, span: int, n: int, out: Any) -> None:
    """out[0] = the SHA-2 hash of lane 0's message (:func:`_hash` with one lane), on
    the one-state compressions and the context's scratch (no allocation)."""
    if wide:
        h64 = cx[_CX_H64_1 : _CX_H64_1 + 8]
        w64 = cx[_CX_W64_1 : _CX_W64_1 + 80]
        for i in range(8):
            h64[i] = cx[_CX_MID512 + i]
        words64 = buf.view(np.uint64)
        for blk in range(span // 128):
            for t in range(16):
                w64[t] = _bswap64(words64[blk * 16 + t])
            _sha512_1(h64, w64)
        for b in range(n):
            out[0, b] = (h64[b >> 3] >> np.uint64(8 * (7 - (b & 7)))) & _FF
        return
    h32 = _u32s(cx, _CX_H32_1, 8)
    w32 = _u32s(cx, _CX_W32_1, 64)
    mid = _u32s(cx, _CX_MID256, 8)
    for i in range(8):
        h32[i] = mid[i]
    words32 = buf.view(np.uint32)
    for blk in range(span // 64):
        for t in range(16):
            w32[t] = _bswap32(words32[blk * 16 + t])
        _sha256_1(h32, w32)
    for b in range(n):
        out[0, b] = (h32[b >> 2] >> _U32(8 * (3 - (b & 3)))) & _U32(0xFF)


@jit
def _hash(
    mode: int, wide: bool | np.bool_, cx: Any, buf: Any, span: int, n: int, out: Any, used: int
) -> None:
    """out[j] = the n-byte hash of lane j's message in ``buf`` for j < ``used`` (at
    most LANES): SHAKE256, or SHA-256 / SHA-512 (``wide``) from the context's PK.seed
    midstate. ``cx`` is the context of :func:`_context` (midstates and scratch).
    Lanes past ``used`` are not loaded (SHAKE: a group of 8 wholly past it is not
    permuted) and their outputs are not written.

    Its callers pass constants as ``np.bool_(False)`` / ``np.int64(LANES)``: Numba
    types a bare constant argument as a literal and compiles the callee once per
    literal (this function and everything it calls, in full)."""
    if mode == SHAKE:
        words = buf.view(np.uint64)
        o64 = out.reshape(LANES * n).view(np.uint64)  # little-endian lanes (FIPS 202 §B.1)
        for half in range((used + 7) // 8):  # two groups of 8 states
            at = _CX_ST0 if half == 0 else _CX_ST1
            st = cx[at : at + 200]
            m = min(8, used - 8 * half)
            st[:] = 0
            for blk in range(span // _RATE):
                for i in range(_RATE // 8):
                    for j in range(m):
                        lane = 8 * half + j
                        st[8 * i + j] ^= words[(lane * span + blk * _RATE) // 8 + i]
                _permute(st, np.int64(0))
            for j in range(m):
                for i in range(n // 8):
                    o64[(8 * half + j) * (n // 8) + i] = st[8 * i + j]
        return
    if used == 1:
        _hash_one(wide, cx, buf, span, n, out)
        return
    if wide:
        h64 = cx[_CX_H64 : _CX_H64 + 128]
        w64 = cx[_CX_W64 : _CX_W64 + 1408]
        words64 = buf.view(np.uint64)
        for i in range(8):
            for j in range(LANES):
                h64[LANES * i + j] = cx[_CX_MID512 + i]
        for blk in range(span // 128):
            for t in range(16):
                for j in range(used):
                    w64[LANES * t + j] = _bswap64(words64[(j * span + blk * 128) // 8 + t])
            _compress512(_ptr(h64), _ptr(w64), n)
        o64 = out.reshape(LANES * n).view(np.uint64)
        for j in range(used):
            for i in range(n // 8):
                o64[j * (n // 8) + i] = _bswap64(h64[LANES * i + j])
        return
    h32 = _u32s(cx, _CX_H32, 128)
    w32 = _u32s(cx, _CX_W32, 1152)
    mid = _u32s(cx, _CX_MID256, 8)
    words32 = buf.view(np.uint32)
    for i in range(8):
        for j in range(LANES):
            h32[LANES * i + j] = mid[i]
    for blk in range(span // 64):
        for t in range(16):
            for j in range(used):
                w32[LANES * t + j] = _bswap32(words32[(j * span + blk * 64) // 4 + t])
        _compress256(_ptr(h32), _ptr(w32), n)
    o32 = out.reshape(LANES * n).view(np.uint32)
    for j in range(used):
        for i in range(n // 4):
            o32[j * (n // 4) + i] = _bswap32(h32[LANES * i + j])


@jit
def _context(mode: int, n: int, pk_seed: Any) -> Any:
    """The per-key context: one uint64 array (the parts at the ``_CX_*`` offsets):
    the SHA-256 and SHA-512 (n > 16) midstates after PK.seed || toByte(0, 64 - n)
    (128 - n for SHA-512), and the scratch of the 16-lane and one-state
    compressions and of the two Keccak groups."""
    cx = np.zeros(_CX_WORDS, dtype=np.uint64)
    if mode == SHAKE:
        return cx
    # One compression of the PK.seed block from the initial hash values (FIPS 180-4
    # §5.3.3, §5.3.5); SHA-512 only where H and T_l use it.
    w32 = _u32s(cx, _CX_W32_1, 64)
    mid = _u32s(cx, _CX_MID256, 8)
    for b in range(n):
        w32[b >> 2] |= _U32(pk_seed[b]) << _U32(8 * (3 - (b & 3)))
    for i in range(8):
        mid[i] = _H256[i]
    _sha256_1(mid, w32)
    if n > 16:
        w64 = cx[_CX_W64_1 : _CX_W64_1 + 80]
        mid64 = cx[_CX_MID512 : _CX_MID512 + 8]
        for b in range(n):
            w64[b >> 3] |= np.uint64(pk_seed[b]) << np.uint64(8 * (7 - (b & 7)))
        for i in range(8):
            mid64[i] = _H512[i]
        _sha512_1(mid64, w64)
    return cx


@_inline
def _templates(mode: int, n: int, buf: Any, span: int, count: int) -> Any:
    """The F-input templates of ``count`` chains whose inputs (address with hash
    address 0, any value) are lanes 0.. of ``buf``: (count, 17) uint64 words for
    SHAKE (the rate's little-endian lanes, the hash address byte cleared); (count,
    16) for SHA-2 (the block's big-endian uint32 words; word 5 keeps only ADRSc byte
    20, the value's words are zero, the padding's 1 bit is in word 5 + n / 4)."""
    if mode == SHAKE:
        words = buf.view(np.uint64)
        tpl = np.zeros((count, _RATE // 8), dtype=np.uint64)
        for c in range(count):
            for i in range(_RATE // 8):
                tpl[c, i] = words[(c * span) // 8 + i]
            tpl[c, n // 8 + 3] &= np.uint64(0x00FFFFFFFFFFFFFF)
        return tpl
    nw = n // 4
    words32 = buf.view(np.uint32)
    tpl = np.zeros((count, 16), dtype=np.uint64)
    for c in range(count):
        for t in range(16):
            tpl[c, t] = _bswap32(words32[(c * span) // 4 + t])
        tpl[c, 5] &= np.uint64(0xFF000000)
        for k in range(1, nw):
            tpl[c, 5 + k] = 0
        tpl[c, 5 + nw] = 0x8000
    return tpl


@jit
def _f_chains(
    mode: int, n: int, cx: Any, tpl: Any, vals: Any, starts: Any, rec_at: Any, rec: Any
) -> None:
    """:func:`_f_chains_body`, not inlined: recursive on a branch never taken (``n``
    > 0 always), as :func:`_compress256`, so that LLVM compiles it once."""
    if n < 0:
        _f_chains(mode, n + 1, cx, tpl, vals, starts, rec_at, rec)
        return
    _f_chains_body(mode, n, cx, tpl, vals, starts, rec_at, rec)


@jit
def _f_chains_body(
    mode: int, n: int, cx: Any, tpl: Any, vals: Any, starts: Any, rec_at: Any, rec: Any
) -> None:
    """FIPS 205, Algorithm 5 (chain) for ``count`` = tpl.shape[0] chains, LANES at a
    time, in word form.

    Chain c has the F-input template tpl[c] (:func:`_templates`: its address
    (WOTS_HASH, key pair, chain address)) and the value vals[c] after starts[c]
    steps. Every chain runs to step w - 1: vals[c] = chain(vals[c], starts[c], w - 1
    - starts[c]). If rec_at[c] >= starts[c], rec[c] receives the value after
    rec_at[c] steps (the WOTS+ signature, Algorithm 7).

    The hot loop of SLH-DSA. Each lane takes the next chain when its chain ends, so
    chains of different lengths (verification) keep the lanes busy. A step rebuilds
    each lane's message from its chain's template (with hash address s) and the
    value's words, then runs the permutation (SHAKE: 64-bit little-endian lanes) or
    the compression (SHA-2: 32-bit big-endian words, the value 2 bytes into word 5,
    as ADRSc is 22 bytes): no bytes are touched inside the loop. Which chain a lane
    holds and its step are public (the digits of the signed message)."""
    count = tpl.shape[0]
    shake = mode == SHAKE
    nw = n // 8 if shake else n // 4
    # The values as words: little-endian uint64 lanes (SHAKE) or big-endian uint32
    # words (SHA-2), read through views of the byte rows.
    v64 = vals.reshape(count * n).view(np.uint64)
    v32 = vals.reshape(count * n).view(np.uint32)
    val = np.zeros(nw * LANES, dtype=np.uint64)
    chain = np.full(LANES, -1, dtype=np.int64)
    step = np.zeros(LANES, dtype=np.int64)
    tw = tpl.shape[1]
    tl = np.zeros(tw * LANES, dtype=np.uint64)  # the lanes' templates, word-major
    st0 = cx[_CX_ST0 : _CX_ST0 + 200]
    st1 = cx[_CX_ST1 : _CX_ST1 + 200]
    h32 = _u32s(cx, _CX_H32, 128)
    w32 = _u32s(cx, _CX_W32, 1152)
    mid = _u32s(cx, _CX_MID256, 8)
    nxt = 0
    busy = 0
    while True:
        # Hand the next chains to idle lanes (public schedule).
        for j in range(LANES):
            while chain[j] < 0 and nxt < count:
                c = nxt
                nxt += 1
                if rec_at[c] == starts[c]:
                    _rows(rec, c, vals, c, n)
                if starts[c] < W_MAX:
                    chain[j] = c
                    step[j] = starts[c]
                    busy += 1
                    if shake:
                        for i in range(tw):
                            tl[LANES * i + j] = tpl[c, i]
                    else:  # the compression leaves w32[0:16] (the block) as it was
                        for t in range(16):
                            w32[LANES * t + j] = _U32(tpl[c, t])
                    for k in range(nw):
                        if shake:
                            val[LANES * k + j] = v64[c * nw + k]
                        else:
                            val[LANES * k + j] = _bswap32(v32[c * nw + k])
        if busy == 0:
            break
        if shake:
            ha = nw + 3  # the word holding the hash address (its top byte)
            vo = nw + 4  # the value's first word
            for i in range(_RATE // 8):
                for j in range(8):
                    st0[8 * i + j] = tl[LANES * i + j]
                    st1[8 * i + j] = tl[LANES * i + 8 + j]
            for i in range(_RATE // 8, 25):
                for j in range(8):
                    st0[8 * i + j] = 0
                    st1[8 * i + j] = 0
            for j in range(8):
                st0[8 * ha + j] |= np.uint64(step[j]) << np.uint64(56)
                st1[8 * ha + j] |= np.uint64(step[8 + j]) << np.uint64(56)
            for k in range(nw):
                for j in range(8):
                    st0[8 * (vo + k) + j] = val[LANES * k + j]
                    st1[8 * (vo + k) + j] = val[LANES * k + 8 + j]
            _permute(st0, np.int64(0))
            _permute(st1, np.int64(0))
            for k in range(nw):
                for j in range(8):
                    val[LANES * k + j] = st0[8 * k + j]
                    val[LANES * k + 8 + j] = st1[8 * k + j]
        else:
            for j in range(LANES):
                v0 = _U32(val[j])
                adrs20 = w32[LANES * 5 + j] & _U32(0xFF000000)
                w32[LANES * 5 + j] = adrs20 | _U32(step[j] << 16) | (v0 >> _U32(16))
                last = _U32(val[LANES * (nw - 1) + j])
                w32[LANES * (5 + nw) + j] = _U32(last << _U32(16)) | _U32(0x8000)
            for k in range(1, nw):
                for j in range(LANES):
                    hi = _U32(val[LANES * (k - 1) + j])
                    lo = _U32(val[LANES * k + j])
                    w32[LANES * (5 + k) + j] = _U32(hi << _U32(16)) | (lo >> _U32(16))
            for i in range(8):
                for j in range(LANES):
                    h32[LANES * i + j] = mid[i]
            _compress256(_ptr(h32), _ptr(w32), n)
            for k in range(nw):
                for j in range(LANES):
                    val[LANES * k + j] = h32[LANES * k + j]
        for j in range(LANES):
            c = chain[j]
            if c < 0:
                continue
            step[j] += 1
            done = step[j] == W_MAX
            if rec_at[c] == step[j] or done:
                for k in range(nw):
                    if shake:
                        v64[c * nw + k] = val[LANES * k + j]
                    else:
                        v32[c * nw + k] = _bswap32(_U32(val[LANES * k + j]))
                if rec_at[c] == step[j]:
                    _rows(rec, c, vals, c, n)
            if done:
                chain[j] = -1
                busy -= 1


@_inline
def _t_into(
    mode: int, n: int, wide: bool, cx: Any, buf: Any, out: Any,
    layer: int, tree: Any, type_: int, kp: int, w2: int, w3: int, data: Any,
) -> None:  # fmt: skip
    """out[0] = the hash of ADRS || data (rows of n bytes, concatenated) in lane 0 of
    ``buf`` (a buffer of :func:`_new_buf` for that length): T_l, or H with two
    rows."""
    a = _adrs_size(mode)
    span, base = _layout(mode, n, wide, a + data.shape[0] * n)
    _put_adrs(buf, base, mode, layer, tree, type_, kp, w2, w3)
    for i in range(data.shape[0]):
        _cp_row(buf, base + a + i * n, data, i, n)
    _hash(mode, wide, cx, buf, span, n, out, np.int64(1))


@_inline
def _t_one(
    mode: int, n: int, wide: bool, cx: Any, pk_seed: Any,
    layer: int, tree: Any, type_: int, kp: int, w2: int, w3: int, data: Any,
) -> Any:  # fmt: skip
    """:func:`_t_into` on a fresh buffer; returns the n bytes."""
    buf = _new_buf(mode, n, wide, _adrs_size(mode) + data.shape[0] * n, pk_seed, np.int64(1))
    out = np.empty((LANES, n), dtype=np.uint8)
    _t_into(mode, n, wide, cx, buf, out, layer, tree, type_, kp, w2, w3, data)
    return out[0].copy()


@_inline
def _fors_pk(
    mode: int, n: int, wide: bool, cx: Any, pk_seed: Any, tree0: Any, kp: int, roots: Any
) -> Any:
    """PK_FORS = T_k(ADRS(FORS_ROOTS, key pair), roots): FIPS 205, Algorithm 17
    (fors_pkFromSig) lines 21-24, from the k tree roots (signing has them from
    building the trees, verification from the signature)."""
    zero = np.int64(0)
    return _t_one(
        mode, n, wide, cx, pk_seed, zero, tree0, np.int64(FORS_ROOTS), kp, zero, zero, roots
    )


# --- trees ----------------------------------------------------------------------------


@jit
def _levels(
    mode: int, n: int, wide: bool, cx: Any, pk_seed: Any,
    nodes: Any, height: int, layer: int, tree: Any, type_: int, kp: int, first: int,
) -> None:  # fmt: skip
    """The levels 1..height of a binary tree whose 2^height leaves are nodes[0 ..]:
    level z is stored after level z - 1 (level z, node i at 2^(height+1) -
    2^(height+1-z) + i). Node i of level z is H(ADRS(height z, index (first <<
    (height - z)) + i), left || right): FIPS 205 Algorithms 9 and 15 lines 7-11
    (first = 0 for XMSS; the FORS tree number for FORS, whose indices are global)."""
    a = _adrs_size(mode)
    span, base = _layout(mode, n, wide, a + 2 * n)
    buf = _new_lanes(mode, n, wide, a + 2 * n, pk_seed)
    out = np.empty((LANES, n), dtype=np.uint8)
    src = 0
    for z in range(1, height + 1):
        count = 1 << (height - z)
        dst = src + 2 * count
        for g in range(0, count, LANES):
            for j in range(LANES):
                i = min(g + j, count - 1)
                o = j * span + base
                _put_adrs(buf, o, mode, layer, tree, type_, kp, z, (first << (height - z)) + i)
                _cp_row(buf, o + a, nodes, src + 2 * i, n)
                _cp_row(buf, o + a + n, nodes, src + 2 * i + 1, n)
            _hash(mode, wide, cx, buf, span, n, out, min(LANES, count - g))
            for j in range(min(LANES, count - g)):
                _rows(nodes, dst + g + j, out, j, n)
        src = dst


@jit
def _auth(nodes: Any, height: int, idx: int, sig: Any, off: int, n: int) -> None:
    """AUTH (Algorithms 10 and 16): node (idx >> j) xor 1 of each level j < height."""
    level = 0
    for j in range(height):
        pos = level + ((idx >> j) ^ 1)
        _cp_row(sig, off + j * n, nodes, pos, n)
        level += 1 << (height - j)


@jit
def _digits(m: Any, len1: int, len2: int, out: Any) -> None:
    """FIPS 205, Algorithm 7 lines 1-7 for lg_w = 4: the len1 base-16 digits of m,
    then the len2 digits of the checksum (whose shift on line 5 the base_2^b of line
    6 undoes)."""
    csum = 0
    for i in range(len1):
        byte = np.int64(m[i >> 1])
        digit = (byte >> 4) if (i & 1) == 0 else (byte & 15)
        out[i] = digit
        csum += W_MAX - digit
    for i in range(len2):
        out[len1 + i] = (csum >> (4 * (len2 - 1 - i))) & 15


@jit
def _xmss_tree(
    mode: int, n: int, hp: int, length: int, cx: Any, wide: bool,
    pk_seed: Any, sk_seed: Any,
    layer: int, tree: Any, leaf: int, digits: Any, sig: Any, off: int, nodes: Any,
) -> None:  # fmt: skip
    """Every node of XMSS tree (layer, tree) into ``nodes`` (see :func:`_levels`):
    FIPS 205 Algorithm 6 (wots_pkGen) for each of the 2^hp leaves, then Algorithm 9
    (xmss_node) level by level. With ``leaf`` >= 0 also Algorithm 10 (xmss_sign) for
    that leaf into sig[off:]: the WOTS+ signature of ``digits`` (Algorithm 7,
    chain(sk_i, 0, digits[i]), read while the chain is walked), then AUTH."""
    a = _adrs_size(mode)
    type_at = a - 13  # low byte of the type word (SHAKE 19, SHA-2 9)
    leaves = 1 << hp
    rows = leaves * length
    span, base = _layout(mode, n, False, a + n)
    buf = _new_lanes(mode, n, False, a + n, pk_seed)
    out = np.empty((LANES, n), dtype=np.uint8)
    ends = np.empty((rows, n), dtype=np.uint8)
    first = leaf * length if leaf >= 0 else rows
    starts = np.zeros(LANES, dtype=np.int64)
    rec_at = np.empty(LANES, dtype=np.int64)
    rec = np.empty((LANES, n), dtype=np.uint8)
    for g in range(0, rows, LANES):
        # Algorithm 6 lines 4-6: sk = PRF(PK.seed, SK.seed, skADRS), skADRS =
        # (WOTS_PRF, key pair, chain i, hash 0); row r is chain r % len of key pair r // len.
        for j in range(LANES):
            r = min(g + j, rows - 1)
            o = j * span + base
            _put_adrs(
                buf, o, mode, layer, tree, np.int64(WOTS_PRF), r // length, r % length, np.int64(0)
            )
            _put(buf, o + a, sk_seed, n)
        _hash(mode, np.bool_(False), cx, buf, span, n, out, np.int64(LANES))
        # Lines 7-8: tmp_i = chain(sk_i, 0, w - 1) with ADRS (WOTS_HASH, key pair,
        # chain i, hash s); the signing leaf's rows (first .. first + len - 1) also
        # keep chain(sk_i, 0, digits[i]) (Algorithm 7).
        for j in range(LANES):
            o = j * span + base
            buf[o + type_at] = WOTS_HASH
            r = g + j
            rec_at[j] = digits[r - first] if first <= r < first + length else -1
        _f_chains(mode, n, cx, _templates(mode, n, buf, span, LANES), out, starts, rec_at, rec)
        for j in range(min(LANES, rows - g)):
            _rows(ends, g + j, out, j, n)
            if rec_at[j] >= 0:
                _cp_row(sig, off + (g + j - first) * n, rec, j, n)
    # Lines 10-13: pk = T_len(PK.seed, wotspkADRS, tmp), wotspkADRS = (WOTS_PK, key pair).
    t_len = a + length * n
    span_t, _ = _layout(mode, n, wide, t_len)
    buf_t = _new_lanes(mode, n, wide, t_len, pk_seed)
    for g in range(0, leaves, LANES):
        for j in range(LANES):
            kp = min(g + j, leaves - 1)
            o = j * span_t + base
            _put_adrs(buf_t, o, mode, layer, tree, np.int64(WOTS_PK), kp, np.int64(0), np.int64(0))
            for i in range(length):
                _cp_row(buf_t, o + a + i * n, ends, kp * length + i, n)
        _hash(mode, wide, cx, buf_t, span_t, n, out, min(LANES, leaves - g))
        for j in range(min(LANES, leaves - g)):
            _rows(nodes, g + j, out, j, n)
    _levels(
        mode, n, wide, cx, pk_seed, nodes, hp, layer, tree, np.int64(TREE), np.int64(0), np.int64(0)
    )
    if leaf >= 0:
        _auth(nodes, hp, leaf, sig, off + length * n, n)


@_inline
def _keygen_root(
    mode: int, n: int, hp: int, d: int, len1: int, len2: int, pk_seed: Any, sk_seed: Any
) -> Any:
    """PK.root: FIPS 205, Algorithm 18 lines 2-3 (xmss_node(SK.seed, 0, h') of the
    top layer d - 1, tree 0)."""
    cx = _context(mode, n, pk_seed)
    wide = mode == SHA2 and n > 16
    nodes = np.empty(((2 << hp) - 1, n), dtype=np.uint8)
    digits = np.zeros(len1 + len2, dtype=np.int64)
    sig = np.zeros(1, dtype=np.uint8)
    _xmss_tree(
        mode, n, hp, len1 + len2, cx, wide, pk_seed, sk_seed,
        d - 1, np.uint64(0), np.int64(-1), digits, sig, np.int64(0), nodes,
    )  # fmt: skip
    return nodes[nodes.shape[0] - 1].copy()


@_inline
def _sign(
    mode: int, n: int, hp: int, d: int, a_h: int, k: int, len1: int, len2: int,
    pk_seed: Any, sk_seed: Any, trees: Any, leaves: Any, indices: Any,
) -> Any:  # fmt: skip
    """SIG_FORS || SIG_HT: FIPS 205, Algorithm 19 lines 13-17 (fors_sign, the FORS
    public key, ht_sign). ``trees`` / ``leaves`` (d) are the tree address and leaf
    index of each layer (Algorithm 12 lines 1, 6-8; layer 0: idx_tree, idx_leaf),
    ``indices`` (k) the FORS indices of md (Algorithm 16 line 2)."""
    cx = _context(mode, n, pk_seed)
    wide = mode == SHA2 and n > 16
    length = len1 + len2
    ad = _adrs_size(mode)
    type_at = ad - 13
    fors_bytes = k * (a_h + 1) * n
    sig = np.zeros(fors_bytes + d * (length + hp) * n, dtype=np.uint8)
    tree0 = trees[0]
    kp = leaves[0]
    # Algorithms 14-16 for each of the k FORS trees.
    per = 1 << a_h
    nodes = np.empty(((2 << a_h) - 1, n), dtype=np.uint8)
    roots = np.empty((k, n), dtype=np.uint8)
    span, base = _layout(mode, n, False, ad + n)
    buf = _new_lanes(mode, n, False, ad + n, pk_seed)
    out = np.empty((LANES, n), dtype=np.uint8)
    for t in range(k):
        pick = indices[t]
        off = t * (a_h + 1) * n
        for g in range(0, per, LANES):
            # Algorithm 14: sk = PRF(PK.seed, SK.seed, (FORS_PRF, key pair, 0, index)).
            for j in range(LANES):
                o = j * span + base
                _put_adrs(
                    buf,
                    o,
                    mode,
                    np.int64(0),
                    tree0,
                    np.int64(FORS_PRF),
                    kp,
                    np.int64(0),
                    (t << a_h) + g + j,
                )
                _put(buf, o + ad, sk_seed, n)
            _hash(mode, np.bool_(False), cx, buf, span, n, out, np.int64(LANES))
            for j in range(LANES):
                if g + j == pick:  # Algorithm 16 line 4 (a public index)
                    _cp_row(sig, off, out, j, n)
                # Algorithm 15 lines 2-6: leaf = F(PK.seed, (FORS_TREE, ...), sk).
                o = j * span + base
                buf[o + type_at] = FORS_TREE
                _cp_row(buf, o + ad, out, j, n)
            _hash(mode, np.bool_(False), cx, buf, span, n, out, np.int64(LANES))
            for j in range(LANES):
                _rows(nodes, g + j, out, j, n)
        fors = np.int64(FORS_TREE)
        _levels(mode, n, wide, cx, pk_seed, nodes, a_h, np.int64(0), tree0, fors, kp, t)
        _auth(nodes, a_h, pick, sig, off + n, n)  # Algorithm 16 lines 5-8
        _rows(roots, t, nodes, nodes.shape[0] - 1, n)
    # Algorithm 17 lines 21-24 on this signature: PK_FORS = T_k((FORS_ROOTS, key pair), roots).
    msg = _fors_pk(mode, n, wide, cx, pk_seed, tree0, kp, roots)
    # Algorithm 12 (ht_sign): each layer signs the root of the one below.
    xnodes = np.empty(((2 << hp) - 1, n), dtype=np.uint8)
    digits = np.empty(length, dtype=np.int64)
    for layer in range(d):
        _digits(msg, len1, len2, digits)
        _xmss_tree(
            mode, n, hp, length, cx, wide, pk_seed, sk_seed,
            layer, trees[layer], leaves[layer], digits, sig,
            fors_bytes + layer * (length + hp) * n, xnodes,
        )  # fmt: skip
        msg = xnodes[xnodes.shape[0] - 1].copy()
    return sig


@jit
def _chains(
    mode: int, n: int, cx: Any, work: Any,
    layer: int, tree: Any, kp: int, length: int, digits: Any, sig: Any, off: int, ends: Any,
) -> None:  # fmt: skip
    """FIPS 205, Algorithm 8 lines 8-10: ends[i] = chain(sig[i], digits[i], w - 1 -
    digits[i]) with ADRS (WOTS_HASH, key pair, chain i, hash s). The chains go to
    the lanes longest first (a counting sort by their public digits), so that the
    last lanes to finish hold short chains. ``work`` holds the scratch of
    :func:`_verify_root` (reused for every layer): a one-lane F buffer, the chains'
    templates, values, starts, order and "never record" marks.

    The chains' templates differ in the chain address only (below 256, one byte):
    chain 0's is built from its address, the others patched from it."""
    buf, tpl, vals, starts, order, never = work
    a = _adrs_size(mode)
    span, base = _layout(mode, n, False, a + n)
    _put_adrs(buf, base, mode, layer, tree, np.int64(WOTS_HASH), kp, np.int64(0), np.int64(0))
    row = _templates(mode, n, buf, span, 1)
    c = 0
    for digit in range(W_MAX + 1):
        for i in range(length):
            if digits[i] == digit:
                order[c] = i
                c += 1
    # The word holding the chain address's last byte, and where in it.
    at, shift = (n // 8 + 3, 24) if mode == SHAKE else (4, 16)
    for c in range(length):
        i = order[c]
        for t in range(tpl.shape[1]):
            tpl[c, t] = row[0, t]
        tpl[c, at] |= np.uint64(i) << np.uint64(shift)
        for b in range(n):
            vals[c, b] = sig[off + i * n + b]
        starts[c] = digits[i]
    _f_chains(mode, n, cx, tpl, vals, starts, never, vals)
    for c in range(length):
        i = order[c]
        for b in range(n):
            ends[i, b] = vals[c, b]


@_inline
def _verify_root(
    mode: int, n: int, hp: int, d: int, a_h: int, k: int, len1: int, len2: int,
    pk_seed: Any, trees: Any, leaves: Any, indices: Any, sig: Any,
) -> Any:  # fmt: skip
    """The root that SIG_FORS || SIG_HT (``sig``) implies: FIPS 205, Algorithm 17
    (fors_pkFromSig), then Algorithm 13 (ht_verify) without its final comparison
    (Algorithm 11, xmss_pkFromSig, per layer)."""
    cx = _context(mode, n, pk_seed)
    wide = mode == SHA2 and n > 16
    length = len1 + len2
    ad = _adrs_size(mode)
    tree0 = trees[0]
    kp = leaves[0]
    stride = (a_h + 1) * n
    # Algorithm 17 lines 3-7: node0 = F((FORS_TREE, key pair, 0, i 2^a + indices[i]), sk).
    span, base = _layout(mode, n, False, ad + n)
    buf = _new_lanes(mode, n, False, ad + n, pk_seed)
    span_h, _ = _layout(mode, n, wide, ad + 2 * n)
    buf_h = _new_lanes(mode, n, wide, ad + 2 * n, pk_seed)
    out = np.empty((LANES, n), dtype=np.uint8)
    roots = np.empty((k, n), dtype=np.uint8)
    for g in range(0, k, LANES):
        for j in range(LANES):
            t = min(g + j, k - 1)
            o = j * span + base
            _put_adrs(
                buf,
                o,
                mode,
                np.int64(0),
                tree0,
                np.int64(FORS_TREE),
                kp,
                np.int64(0),
                (t << a_h) + indices[t],
            )
            _cp(buf, o + ad, sig, t * stride, n)
        _hash(mode, np.bool_(False), cx, buf, span, n, out, min(LANES, k - g))
        # Lines 8-19: climb the authentication paths side by side.
        for y in range(a_h):
            for j in range(LANES):
                t = min(g + j, k - 1)
                o = j * span_h + base
                index = ((t << a_h) + indices[t]) >> (y + 1)
                _put_adrs(buf_h, o, mode, np.int64(0), tree0, np.int64(FORS_TREE), kp, y + 1, index)
                auth = t * stride + (y + 1) * n
                if (indices[t] >> y) & 1 == 0:  # public index bits
                    _cp_row(buf_h, o + ad, out, j, n)
                    _cp(buf_h, o + ad + n, sig, auth, n)
                else:
                    _cp(buf_h, o + ad, sig, auth, n)
                    _cp_row(buf_h, o + ad + n, out, j, n)
            _hash(mode, wide, cx, buf_h, span_h, n, out, min(LANES, k - g))
        for j in range(min(LANES, k - g)):
            for b in range(n):
                roots[g + j, b] = out[j, b]
    node = _fors_pk(mode, n, wide, cx, pk_seed, tree0, kp, roots)
    # Algorithm 13: xmss_pkFromSig (Algorithm 11) layer by layer.
    digits = np.empty(length, dtype=np.int64)
    ends = np.empty((length, n), dtype=np.uint8)
    pair = np.empty((2, n), dtype=np.uint8)
    one = np.empty((LANES, n), dtype=np.uint8)
    buf_t = _new_buf(mode, n, wide, ad + length * n, pk_seed, np.int64(1))
    buf_2 = _new_buf(mode, n, wide, ad + 2 * n, pk_seed, np.int64(1))
    work = (
        _new_buf(mode, n, False, ad + n, pk_seed, np.int64(1)),
        np.zeros((length, _RATE // 8 if mode == SHAKE else 16), dtype=np.uint64),
        np.empty((length, n), dtype=np.uint8),
        np.empty(length, dtype=np.int64),
        np.empty(length, dtype=np.int64),
        np.full(length, -1, dtype=np.int64),
    )
    fors_bytes = k * stride
    for layer in range(d):
        off = fors_bytes + layer * (length + hp) * n
        idx = leaves[layer]
        tree = trees[layer]
        _digits(node, len1, len2, digits)
        _chains(mode, n, cx, work, layer, tree, idx, length, digits, sig, off, ends)
        _t_into(
            mode,
            n,
            wide,
            cx,
            buf_t,
            one,
            layer,
            tree,
            np.int64(WOTS_PK),
            idx,
            np.int64(0),
            np.int64(0),
            ends,
        )
        for y in range(hp):  # Algorithm 11 lines 6-15
            auth = off + (length + y) * n
            low = (idx >> y) & 1  # which half the node is (public)
            for b in range(n):
                pair[low, b] = one[0, b]
                pair[1 - low, b] = sig[auth + b]
            _t_into(
                mode,
                n,
                wide,
                cx,
                buf_2,
                one,
                layer,
                tree,
                np.int64(TREE),
                np.int64(0),
                y + 1,
                idx >> (y + 1),
                pair,
            )
        node = one[0].copy()
    return node


@_inline
def _digest_path(hp: int, d: int, a_h: int, k: int, digest: Any) -> Any:
    """(trees, leaves, indices) of an m-byte digest: FIPS 205, Algorithm 19 lines
    7-12 / Algorithm 20 lines 8-13 (md, idx_tree, idx_leaf), Algorithm 12 lines 6-8
    (each layer's tree address and leaf index) and Algorithm 4 (base_2^b, the k
    FORS indices of md). All public (the signature reveals them)."""
    md_bytes = (k * a_h + 7) // 8
    tree_bits = hp * (d - 1)  # h - h / d
    tree_bytes = (tree_bits + 7) // 8
    leaf_bytes = (hp + 7) // 8
    tree = np.uint64(0)
    for b in range(tree_bytes):
        tree = (tree << np.uint64(8)) | np.uint64(digest[md_bytes + b])
    if tree_bits < 64:
        tree &= (np.uint64(1) << np.uint64(tree_bits)) - np.uint64(1)
    leaf = 0
    for b in range(leaf_bytes):
        leaf = (leaf << 8) | np.int64(digest[md_bytes + tree_bytes + b])
    leaf &= (1 << hp) - 1
    trees = np.empty(d, dtype=np.uint64)
    leaves = np.empty(d, dtype=np.int64)
    low = np.uint64((1 << hp) - 1)
    for j in range(d):
        trees[j] = tree
        leaves[j] = leaf
        leaf = np.int64(tree & low)
        tree = tree >> np.uint64(hp)
    indices = np.empty(k, dtype=np.int64)
    total = 0
    bits = 0
    at = 0
    for i in range(k):  # Algorithm 4, the running total kept below 2^(bits + 8)
        while bits < a_h:
            total = ((total << 8) | np.int64(digest[at])) & 0xFFFFFFFF
            at += 1
            bits += 8
        bits -= a_h
        indices[i] = (total >> bits) & ((1 << a_h) - 1)
    return trees, leaves, indices


@jit
def _operation(
    op: int, mode: int, n: int, hp: int, d: int, a_h: int, k: int, len1: int, len2: int,
    pk_seed: Any, sk_seed: Any, trees: Any, leaves: Any, indices: Any, sig: Any, digest: Any,
) -> Any:  # fmt: skip
    """The one compiled entry point: op 0 key generation (:func:`_keygen_root`), 1
    signing (:func:`_sign`), 2 verification (:func:`_verify_root`); ops 3 and 4 sign
    and verify with the path taken from the m-byte ``digest``
    (:func:`_digest_path`, one call per operation from Python). Arguments an
    operation does not read are empty arrays. One entry point because Numba
    optimises each entry point's module with everything it calls: three entry
    points compiled the engine three times (about twice the warm-up time)."""
    if op == 0:
        return _keygen_root(mode, n, hp, d, len1, len2, pk_seed, sk_seed)
    if op >= 3:
        trees, leaves, indices = _digest_path(hp, d, a_h, k, digest)
        op -= 2
    if op == 1:
        return _sign(mode, n, hp, d, a_h, k, len1, len2, pk_seed, sk_seed, trees, leaves, indices)
    return _verify_root(mode, n, hp, d, a_h, k, len1, len2, pk_seed, trees, leaves, indices, sig)


# --- the Python entry points ---------------------------------------------------------


_u8 = kernel_bytes


_NONE_U8 = np.zeros(0, dtype=np.uint8)
_NONE_U64 = np.zeros(0, dtype=np.uint64)
_NONE_I64 = np.zeros(0, dtype=np.int64)


def _call(
    op: int,
    params: Any,
    pk_seed: bytes,
    sk_seed: npt.NDArray[np.uint8] = _NONE_U8,
    trees: npt.NDArray[np.uint64] = _NONE_U64,
    leaves: npt.NDArray[np.int64] = _NONE_I64,
    indices: npt.NDArray[np.int64] = _NONE_I64,
    sig: npt.NDArray[np.uint8] = _NONE_U8,
    digest: npt.NDArray[np.uint8] = _NONE_U8,
) -> bytes:
    out: npt.NDArray[np.uint8] = _operation(
        op, SHA2 if params.is_sha2 else SHAKE, params.n, params.hp, params.d, params.a,
        params.k, params.len1, params.len2, _u8(pk_seed), sk_seed, trees, leaves, indices, sig,
        digest,
    )  # fmt: skip
    return out.tobytes()


def slhdsa_keygen_root(params: Any, sk_seed: bytes, pk_seed: bytes) -> bytes:
    """PK.root of (SK.seed, PK.seed) (FIPS 205, Algorithm 18 lines 2-3)."""
    return _call(0, params, pk_seed, _u8(sk_seed))


def _path_arrays(
    trees: list[int], leaves: list[int]
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64]]:
    return np.array(trees, dtype=np.uint64), np.array(leaves, dtype=np.int64)


def slhdsa_sign_trees(
    params: Any,
    sk_seed: bytes,
    pk_seed: bytes,
    indices: list[int],
    trees: list[int],
    leaves: list[int],
) -> bytes:
    """SIG_FORS || SIG_HT of FIPS 205, Algorithm 19 lines 13-17, for the FORS
    ``indices`` of md and the hypertree path (tree address, leaf index per layer)."""
    tree_arr, leaf_arr = _path_arrays(trees, leaves)
    index_arr = np.array(indices, dtype=np.int64)
    return _call(1, params, pk_seed, _u8(sk_seed), tree_arr, leaf_arr, index_arr)


def slhdsa_verify_root(
    params: Any,
    pk_seed: bytes,
    sig_fors_ht: bytes,
    indices: list[int],
    trees: list[int],
    leaves: list[int],
) -> bytes:
    """The hypertree root SIG_FORS || SIG_HT implies (FIPS 205, Algorithm 20 lines
    17-18 before the comparison with PK.root)."""
    tree_arr, leaf_arr = _path_arrays(trees, leaves)
    index_arr = np.array(indices, dtype=np.int64)
    return _call(2, params, pk_seed, _NONE_U8, tree_arr, leaf_arr, index_arr, _u8(sig_fors_ht))


def slhdsa_sign_digest(params: Any, sk_seed: bytes, pk_seed: bytes, digest: bytes) -> bytes:
    """:func:`slhdsa_sign_trees` for the m-byte H_msg ``digest`` (FIPS 205,
    Algorithm 19 lines 7-17: md, idx_tree and idx_leaf are split off in the
    compiled call)."""
    return _call(3, params, pk_seed, _u8(sk_seed), digest=_u8(digest))


def slhdsa_verify_digest(params: Any, pk_seed: bytes, sig_fors_ht: bytes, digest: bytes) -> bytes:
    """:func:`slhdsa_verify_root` for the m-byte H_msg ``digest`` (FIPS 205,
    Algorithm 20 lines 8-18 before the comparison with PK.root)."""
    return _call(4, params, pk_seed, sig=_u8(sig_fors_ht), digest=_u8(digest))


OPERATIONS: dict[str, Any] = {
    "slhdsa_keygen_root": slhdsa_keygen_root,
    "slhdsa_sign_trees": slhdsa_sign_trees,
    "slhdsa_verify_root": slhdsa_verify_root,
    "slhdsa_sign_digest": slhdsa_sign_digest,
    "slhdsa_verify_digest": slhdsa_verify_digest,
}
