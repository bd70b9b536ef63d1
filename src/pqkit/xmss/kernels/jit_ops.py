"""The ``jit`` WOTS+ chains of XMSS (RFC 8391 §3.1.2, Algorithm 2) for the SHA-256
sets (n = 32 with 32-byte padding, SP 800-208's n = 24 with 4-byte padding): every
chain of a batch from its begin step to its end step in one compiled call, each
compression on :func:`pqkit.common.kernels.jit_sha256._sha256_1` (SHA-NI where the
CPU has it), rows split over the worker threads of the batched hash kernels.

One chain step is three hashes (§5.1, with ``toByte(x, padding)`` in front):
KEY = PRF(SEED, ADRS with keyAndMask 0), BM = PRF(SEED, ADRS with keyAndMask 1),
tmp = F(KEY, tmp XOR BM). Each message has a length fixed by the parameter set, so
its padded blocks (FIPS 180-4 §5.1.1) are laid out once, in big-endian words
(every field of these messages is whole words), and only the changing words are
rewritten. When toByte(3, padding) || SEED fills whole blocks
(n = 32: one block), PRF starts from that prefix's chaining value, computed once:
two compressions of a step's five are saved (the reference code hashes the prefix
every time). The reference twin is :meth:`pqkit.xmss.core.Xmss.chains` on the
batched hash kernels (the tests compare the two). Step counts are public (they
come from the message digest and its checksum, which the signature reveals); the
chained values may be secret and only enter the compression.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.arith._jit import jit, kernel_array
from pqkit.common.kernels._hash import H256
from pqkit.common.kernels.jit import _run
from pqkit.common.kernels.jit_sha256 import _sha256_1

__all__ = ["OPERATIONS", "xmss_chains_sha256"]

_H256 = np.array(H256, dtype=np.uint32)
PRF_PAD, F_PAD = 3, 0


@jit
def _pad(msg: Any, words: int, done: int) -> int:
    """FIPS 180-4 §5.1.1 padding after ``words`` message words in ``msg`` (uint32,
    big-endian words; ``done`` bytes already compressed before them); returns the
    number of 16-word blocks."""
    blocks = (words + 2) // 16 + 1
    for k in range(words, 16 * blocks):
        msg[k] = 0
    msg[words] = np.uint32(0x80000000)
    msg[16 * blocks - 1] = np.uint32(8 * (done + 4 * words))
    return blocks


@jit
def _digest(h: Any, init: Any, msg: Any, blocks: int, w: Any) -> None:
    """h = the chaining value after ``blocks`` blocks of ``msg`` (words), from ``init``."""
    for i in range(8):
        h[i] = init[i]
    for b in range(blocks):
        for t in range(16):
            w[t] = msg[16 * b + t]
        _sha256_1(h, w)


@jit
def _chains(
    prf_init: Any,
    prf_head: Any,
    done: int,
    pad: int,
    addr: Any,
    values: Any,
    begin: Any,
    end: Any,
    out: Any,
    lo: int,
    hi: int,
) -> None:
    """Rows lo..hi-1 (see the module), in big-endian uint32 words: ``prf_init`` the
    chaining value after the whole blocks (``done`` bytes) of toByte(3, pad) ||
    SEED, ``prf_head`` the rest of that prefix, ``addr`` (rows, 8) with the hash
    address and keyAndMask zero, ``values`` (rows, n / 4)."""
    nw, pw = values.shape[1], pad // 4
    head = prf_head.shape[0]
    prf = np.zeros(32, dtype=np.uint32)  # [head] || ADRS
    for k in range(head):
        prf[k] = prf_head[k]
    prf_blocks = _pad(prf, head + 8, done)
    f = np.zeros(32, dtype=np.uint32)  # toByte(0, pad) || KEY || (tmp XOR BM)
    f_blocks = _pad(f, pw + 2 * nw, 0)
    h = np.zeros(8, dtype=np.uint32)
    w = np.zeros(64, dtype=np.uint32)
    init = np.zeros(8, dtype=np.uint32)
    for i in range(8):
        init[i] = _H256[i]
    for r in range(lo, hi):
        for k in range(8):
            prf[head + k] = addr[r, k]
        for k in range(nw):
            f[pw + nw + k] = values[r, k]  # tmp, before its mask
        for step in range(begin[r], end[r]):  # public step counts
            prf[head + 6] = step  # ADRS word 6: the hash address
            prf[head + 7] = 0  # keyAndMask 0: KEY
            _digest(h, prf_init, prf, prf_blocks, w)
            for k in range(nw):
                f[pw + k] = h[k]
            prf[head + 7] = 1  # keyAndMask 1: BM
            _digest(h, prf_init, prf, prf_blocks, w)
            for k in range(nw):
                f[pw + nw + k] ^= h[k]
            _digest(h, init, f, f_blocks, w)
            for k in range(nw):
                f[pw + nw + k] = h[k]
        for k in range(nw):
            out[r, k] = f[pw + nw + k]


def _words(data: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint32]:
    """Big-endian uint32 words of each row (FIPS 180-4 §3.1: words big-endian)."""
    rows = np.ascontiguousarray(data).view(">u4").astype(np.uint32)
    return kernel_array(rows)


def _prf_prefix(pub_seed: bytes, pad: int) -> tuple[Any, Any, int]:
    """(chaining value, rest in words, bytes compressed) of toByte(3, pad) || SEED:
    its whole blocks compressed once (FIPS 180-4 §6.2.2), the rest kept for every
    PRF message."""
    prefix = bytes(pad - 1) + bytes([PRF_PAD]) + pub_seed
    state = _H256.copy()
    whole = len(prefix) - len(prefix) % 64
    w = np.zeros(64, dtype=np.uint32)
    if whole:
        msg = _words(np.frombuffer(prefix[:whole], dtype=np.uint8))
        _digest(state, _H256, msg, whole // 64, w)
    return state, _words(np.frombuffer(prefix[whole:], dtype=np.uint8)), whole


def xmss_chains_sha256(
    pub_seed: bytes,
    pad: int,
    addr: npt.NDArray[np.uint8],
    values: npt.NDArray[np.uint8],
    begin: npt.NDArray[np.int64],
    end: npt.NDArray[np.int64],
) -> npt.NDArray[np.uint8]:
    """Each row's chain: ``addr`` uint8 (rows, 32) the OTS address (RFC 8391 §2.5)
    with hash address and keyAndMask zero, ``values`` uint8 (rows, n) the chain
    inputs, steps begin <= j < end (0..15); SHA-256 with ``pad``-byte toByte
    padding (n = 32: 32, n = 24: 4). Returns uint8 (rows, n)."""
    init, head, done = _prf_prefix(pub_seed, pad)
    rows, n = values.shape
    out = np.empty((rows, n // 4), dtype=np.uint32)
    _run(
        _chains,
        rows,
        init,
        head,
        np.int64(done),
        np.int64(pad),
        _words(addr),
        _words(values),
        kernel_array(np.ascontiguousarray(begin, dtype=np.int64)),
        kernel_array(np.ascontiguousarray(end, dtype=np.int64)),
        out,
    )
    return out.astype(">u4").view(np.uint8).reshape(rows, n)


OPERATIONS: dict[str, Any] = {"xmss_chains_sha256": xmss_chains_sha256}
