"""The ``jit`` LM-OTS chains (RFC 8554 §4.4 step 5, §4.6 step 3e) for the SHA-256
sets: every chain of a batch from its begin step to its end step in one compiled
call, each step one compression of
:func:`pqkit.common.kernels.jit_sha256._sha256_1` (SHA-NI where the CPU has it),
rows split over the worker threads of the batched hash kernels.

One chain step hashes I || u32str(q) || u16str(i) || u8str(j) || tmp: 23 + n <= 55
bytes, one SHA-256 block with its padding (FIPS 180-4 §5.1.1), built directly as
the block's 16 big-endian words: words 0-4 are I || q, word 5 is i || j || the
first byte of tmp, then tmp's words shifted by one byte, then 0x80 and the length.
The digest's words are the next tmp (truncated to n bytes for SHA-256/192), so no
step converts between bytes and words. The reference twin is
:func:`pqkit.lms.lmots.chains` on the batched hash kernels (the tests compare the
two). Step counts are public (they come from Q and the checksum, which the
signature reveals); the hashed values may be secret and only enter the compression.
"""

from __future__ import annotations

import functools
import threading
from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.arith._jit import jit, jit_inline, kernel_array
from pqkit.common.kernels._hash import H256
from pqkit.common.kernels.jit import _helpers, _run, workers
from pqkit.common.kernels.jit_sha256 import AVX512, SHA_NI, _sha256_iv, _sha256_x16_iv
from pqkit.common.kernels.jit_sha256 import _sha256_1_clean as _sha256_1

__all__ = [
    "OPERATIONS",
    "key_words",
    "lmots_chains_sha256",
    "lmots_sign_sha256",
    "lms_leaves_sha256",
]

_H256 = np.array(H256, dtype=np.uint32)
_U32 = np.uint32


LANES = 4  # chains stepped side by side: their compressions overlap in the CPU


@jit
def _chains(
    head: Any, ij: Any, values: Any, begin: Any, end: Any, out: Any, lo: int, hi: int
) -> None:
    """Rows lo..hi-1: ``head`` uint32 (rows, 5) the words of I || u32str(q), ``ij``
    (rows,) u16str(i) as a number, ``values`` / ``out`` uint32 (rows, n / 4) the
    chain values as big-endian words; steps begin <= j < end. Up to LANES
    consecutive rows with the same steps (every row of key generation) advance
    together, one step of each per round, so that the compressions of independent
    chains overlap instead of waiting on one chain's latency."""
    nw = values.shape[1]
    h = np.zeros((LANES, 8), dtype=np.uint32)
    w = np.zeros((LANES, 64), dtype=np.uint32)  # the compression reads w[:, 0:16] only
    t = np.zeros((LANES, 8), dtype=np.uint32)
    for lane in range(LANES):
        w[lane, 15] = _U32(8 * (23 + 4 * nw))  # length in bits; words 6 + nw .. 14 stay 0
    r = lo
    while r < hi:
        m = 1
        while m < LANES and r + m < hi and begin[r + m] == begin[r] and end[r + m] == end[r]:
            m += 1
        for lane in range(m):
            for k in range(5):
                w[lane, k] = head[r + lane, k]
            for k in range(nw):
                t[lane, k] = values[r + lane, k]
        for step in range(begin[r], end[r]):  # public step counts
            for lane in range(m):
                x = (_U32(ij[r + lane]) << _U32(16)) | (_U32(step) << _U32(8))
                w[lane, 5] = x | (t[lane, 0] >> _U32(24))
                for k in range(1, nw):
                    w[lane, 5 + k] = (t[lane, k - 1] << _U32(8)) | (t[lane, k] >> _U32(24))
                w[lane, 5 + nw] = (t[lane, nw - 1] << _U32(8)) | _U32(0x80)
                for k in range(8):
                    h[lane, k] = _H256[k]
                _sha256_1(h[lane], w[lane])
                for k in range(nw):
                    t[lane, k] = h[lane, k]
        for lane in range(m):
            for k in range(nw):
                out[r + lane, k] = t[lane, k]
        r += m


def lmots_chains_sha256(
    prefix: npt.NDArray[np.uint8],
    values: npt.NDArray[np.uint8],
    begin: npt.NDArray[np.int64],
    end: npt.NDArray[np.int64],
) -> npt.NDArray[np.uint8]:
    """Each row's chain: ``prefix`` uint8 (rows, 22) = I || u32str(q) || u16str(i),
    ``values`` uint8 (rows, n) the chain inputs, steps begin <= j < end (0..256);
    returns uint8 (rows, n)."""
    rows, n = values.shape
    prefix = np.ascontiguousarray(prefix)
    head = kernel_array(np.ascontiguousarray(prefix[:, :20]).view(">u4").astype(np.uint32))
    ij = kernel_array(prefix[:, 20].astype(np.int64) << 8 | prefix[:, 21])
    words = kernel_array(np.ascontiguousarray(values).view(">u4").astype(np.uint32))
    out = np.empty((rows, n // 4), dtype=np.uint32)
    _run(
        _chains,
        rows,
        head,
        ij,
        words,
        kernel_array(np.ascontiguousarray(begin, dtype=np.int64)),
        kernel_array(np.ascontiguousarray(end, dtype=np.int64)),
        out,
    )
    return out.astype(">u4").view(np.uint8).reshape(rows, n)


# --- whole LM-OTS signatures and LMS leaves ----------------------------------------
#
# The kernels below take the key as words: ``key`` uint32 (4 + n / 4,) = I || SEED
# read big-endian (LmsTree keeps it). A task is one chain i of one-time key q: its
# first step derives x_q[i] = H(I || u32str(q) || u16str(i) || u8str(0xff) || SEED)
# (RFC 8554, Appendix A), the same one-block layout as a chain step with j = 0xff
# on SEED, so a task runs steps -1 .. end - 1 with j = step & 0xff from SEED. Up to
# LANES tasks are in flight, each with its own step counter; a lane that finishes
# takes the next task, so chains of different lengths (signing's) still overlap.


@jit_inline
def _lanes(width: int) -> Any:
    """Per-lane bookkeeping of a chain engine: task (-1: idle), step, end step, and
    u16str(i) in a word's top two bytes."""
    task = np.full(width, -1, dtype=np.int64)
    step = np.zeros(width, dtype=np.int64)
    end = np.zeros(width, dtype=np.int64)
    return task, step, end, np.zeros(width, dtype=np.uint32)


@jit_inline
def _refill(
    task: Any, step: Any, end: Any, iw: Any, qw: Any, order: Any, ends: Any, qs: Any,
    p: int, cursor: Any, hi: int,
) -> bool:  # fmt: skip
    """Give each idle lane the next task, order[cursor[0]] while cursor[0] < hi
    (task order is public): its step -1 (the x_q[i] step), end step, u32str(q) and
    u16str(i); cursor[1] counts the busy lanes. Whether any lane is busy."""
    for lane in range(task.shape[0]):
        if task[lane] < 0 and cursor[0] < hi:
            tk = order[cursor[0]]
            task[lane], step[lane], end[lane] = tk, -1, ends[tk]
            qw[lane], iw[lane] = _U32(qs[tk // p]), _U32(tk % p) << _U32(16)
            cursor[0] += 1
            cursor[1] += 1
    return bool(cursor[1] > 0)


@jit_inline
def _put_be(dst: Any, g: int, at: int, x: Any) -> None:
    """dst[g, at .. at + 3] = the word ``x`` big-endian."""
    for b in range(4):
        dst[g, at + b] = np.uint8((x >> _U32(24 - 8 * b)) & 0xFF)


@jit
def _step(h: Any, r: int, nw: int, w0: Any, w1: Any, w2: Any, w3: Any, w4: Any, x: Any) -> None:
    """One chain step in place: h[r, 0:nw] = H(I || u32str(q) || x || tmp) with tmp
    = h[r, 0:nw] (words w0..w4 = I || u32str(q), ``x`` = u16str(i) || u8str(j) as
    the top three bytes of a word), the block built in registers
    (:func:`_sha256_iv`)."""
    t0, t1, t2, t3 = h[r, 0], h[r, 1], h[r, 2], h[r, 3]
    t4, t5, t6, t7 = h[r, 4], h[r, 5], h[r, 6], h[r, 7]
    e = _U32(8)
    w5 = x | (t0 >> _U32(24))
    w6, w7 = (t0 << e) | (t1 >> _U32(24)), (t1 << e) | (t2 >> _U32(24))
    w8, w9 = (t2 << e) | (t3 >> _U32(24)), (t3 << e) | (t4 >> _U32(24))
    w10 = (t4 << e) | (t5 >> _U32(24))
    z = _U32(0)
    if nw == 8:
        w11, w12 = (t5 << e) | (t6 >> _U32(24)), (t6 << e) | (t7 >> _U32(24))
        w13 = (t7 << e) | _U32(0x80)
        length = _U32(8 * (23 + 32))
        _sha256_iv(h, r, w0, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10, w11, w12, w13, z, length)
    else:  # n = 24
        w11 = (t5 << e) | _U32(0x80)
        length = _U32(8 * (23 + 24))
        _sha256_iv(h, r, w0, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10, w11, z, z, z, length)


@jit
def _tasks(
    key: Any, qs: Any, p: int, ends: Any, order: Any, dst: Any, off: int, lo: int, hi: int
) -> None:
    """Tasks order[lo..hi-1], task g p + i the chain i < p of one-time key qs[g]
    from x_q[i] to step ends[g p + i] (RFC 8554 §4.3 step 3 / §4.5 step 5): the
    chain value, n bytes, goes to dst[g, off + i n ...], LANES tasks in flight on
    SHA-NI's one-at-a-time compression. Steps and order are public; the values
    only enter the compression."""
    nw = key.shape[0] - 4
    n = 4 * nw
    w0, w1, w2, w3 = _U32(key[0]), _U32(key[1]), _U32(key[2]), _U32(key[3])
    h = np.zeros((LANES, 8), dtype=np.uint32)  # each lane's chain value (tmp)
    task, step, end, iw = _lanes(LANES)
    qw = np.zeros(LANES, dtype=np.uint32)  # u32str(q)
    cursor = np.array([lo, 0])  # the next task, the busy lanes
    while _refill(task, step, end, iw, qw, order, ends, qs, p, cursor, hi):
        for lane in range(LANES):
            if task[lane] < 0:
                continue
            if step[lane] < 0:
                for k in range(nw):
                    h[lane, k] = key[4 + k]  # SEED: the x_q[i] step
            x = iw[lane] | (_U32(step[lane] & 0xFF) << _U32(8))
            _step(h, lane, nw, w0, w1, w2, w3, qw[lane], x)
            step[lane] += 1
            if step[lane] == end[lane]:
                tk = task[lane]
                for k in range(nw):
                    _put_be(dst, tk // p, off + (tk % p) * n + 4 * k, h[lane, k])
                task[lane] = -1
                cursor[1] -= 1


WIDE = 16  # states of :func:`_sha256_x16_iv`


@jit
def _tasks16(
    key: Any, qs: Any, p: int, ends: Any, order: Any, dst: Any, off: int, lo: int, hi: int
) -> None:
    """:func:`_tasks` on sixteen states side by side (:func:`_sha256_x16_iv`, one
    AVX-512 register per word): lane j holds a task with its own step counter, the
    blocks of all sixteen lanes are built in ``w`` (word t of lane j at
    w[16 t + j]) and compressed together; a lane whose chain ends takes the next
    task, an idle lane's block is hashed and ignored. Steps are public."""
    nw = key.shape[0] - 4
    n = 4 * nw
    w = np.zeros(16 * WIDE, dtype=np.uint32)
    t = np.zeros(8 * WIDE, dtype=np.uint32)  # word k of lane j's chain value at t[16 k + j]
    task, step, end, iw = _lanes(WIDE)
    for j in range(WIDE):
        for k in range(4):
            w[16 * k + j] = key[k]
        w[16 * 15 + j] = _U32(8 * (23 + n))  # words 6 + nw .. 14 stay 0
    cursor = np.array([lo, 0])  # the next task, the busy lanes
    while _refill(task, step, end, iw, w[16 * 4 : 16 * 5], order, ends, qs, p, cursor, hi):
        for j in range(WIDE):  # word 4 of each block (u32str(q)) set by _refill
            if step[j] < 0:
                for k in range(nw):
                    t[16 * k + j] = key[4 + k]  # SEED: the x_q[i] step
        for j in range(WIDE):
            x = iw[j] | (_U32(step[j] & 0xFF) << _U32(8))
            w[16 * 5 + j] = x | (t[j] >> _U32(24))
        for k in range(1, nw):
            for j in range(WIDE):
                prev, cur = t[16 * (k - 1) + j], t[16 * k + j]
                w[16 * (5 + k) + j] = (prev << _U32(8)) | (cur >> _U32(24))
        for j in range(WIDE):
            w[16 * (5 + nw) + j] = (t[16 * (nw - 1) + j] << _U32(8)) | _U32(0x80)
        _sha256_x16_iv(t, w)
        for j in range(WIDE):
            if task[j] < 0:
                continue
            step[j] += 1
            if step[j] == end[j]:
                tk = task[j]
                for k in range(nw):
                    _put_be(dst, tk // p, off + (tk % p) * n + 4 * k, t[16 * k + j])
                task[j] = -1
                cursor[1] -= 1


_WIDE_ENGINE = AVX512 or not SHA_NI
"""Sixteen portable compressions side by side (:func:`_tasks16`) where the CPU has
512-bit vectors, or has no SHA-NI; else SHA-NI's (:func:`_tasks`). Chosen once, as
:data:`pqkit.common.kernels.jit_sha256.SHA_NI` is."""

_engine = _tasks16 if _WIDE_ENGINE else _tasks
GROUP = WIDE if _WIDE_ENGINE else LANES
"""Leaves per group of key generation: their p GROUP chains keep every lane busy."""


@jit
def _digits(q_hash: Any, w: int, u: int, v: int, ls: int) -> Any:
    """coef(Q || Cksm(Q), i, w) for i < u + v (RFC 8554 §4.4 step 5 and Algorithm 2
    of §4.5): public values (Q is computed from public data)."""
    mask = (1 << w) - 1
    out = np.empty(u + v, dtype=np.int64)
    total = 0
    for i in range(u):
        bit = i * w
        d = (np.int64(q_hash[bit >> 3]) >> (8 - w - (bit & 7))) & mask
        out[i] = d
        total += mask - d
    cksm = total << ls
    for i in range(v):
        bit = i * w
        byte = (cksm >> 8) & 0xFF if bit < 8 else cksm & 0xFF
        out[u + i] = (byte >> (8 - w - (bit & 7))) & mask
    return out


@jit
def _ots_sign(
    key: Any, q: int, q_hash: Any, w: int, u: int, v: int, ls: int, heap: Any, h: int, code: int
) -> Any:
    """y[0] || ... || y[p-1] of the LM-OTS signature with one-time key q (RFC 8554
    §4.5 steps 4-5, private key of Appendix A), then, when ``heap`` holds the tree
    (uint8 (2^(h+1), n), T[r] at row r), u32str(type) || path of the LMS signature
    (§5.4.1 steps 2-3: path[i] = T[(2^h + q) / 2^i xor 1], public nodes); one call:
    uint8 (p n [+ 4 + h n],)."""
    ends = _digits(q_hash, w, u, v, ls)
    p = u + v
    n = 4 * (key.shape[0] - 4)
    path = heap.shape[0] > 1
    out = np.empty((1, p * n + (4 + h * n if path else 0)), dtype=np.uint8)
    order = np.argsort(-ends, kind="mergesort")  # longest chains first: fewer idle lanes
    _engine(key, np.full(1, q, dtype=np.int64), p, ends, order, out, 0, 0, p)
    if path:
        at = p * n
        _put_be(out, 0, at, _U32(code))
        node = (1 << h) + q
        for i in range(h):
            sibling = node ^ 1
            for b in range(n):
                out[0, at + 4 + i * n + b] = heap[sibling, b]
            node >>= 1
    return out[0]


@jit
def _hash_rows(buf: Any, rows: int, blocks: int, out: Any) -> None:
    """SHA-256 of rows 0..rows-1 of ``buf`` (each ``blocks`` padded blocks, FIPS
    180-4 §5.1.1), side by side: out[g, 0:8] the digest words."""
    w = np.zeros((rows, 64), dtype=np.uint32)
    for g in range(rows):
        for k in range(8):
            out[g, k] = _H256[k]
    for b in range(blocks):
        for g in range(rows):
            at = 64 * b
            for k in range(16):
                x = _U32(buf[g, at + 4 * k]) << _U32(24)
                x |= _U32(buf[g, at + 4 * k + 1]) << _U32(16)
                x |= _U32(buf[g, at + 4 * k + 2]) << _U32(8)
                w[g, k] = x | _U32(buf[g, at + 4 * k + 3])
            _sha256_1(out[g], w[g])


@jit
def _put_head(buf: Any, g: int, key: Any, r: int, marker: int) -> None:
    """I || u32str(r) || u16str(marker) at the start of row g."""
    for k in range(4):
        _put_be(buf, g, 4 * k, key[k])
    _put_be(buf, g, 16, _U32(r))
    buf[g, 20] = np.uint8(marker >> 8)
    buf[g, 21] = np.uint8(marker & 0xFF)


@jit
def _pad(buf: Any, length: int) -> int:
    """FIPS 180-4 §5.1.1 padding of a ``length``-byte message in every row of
    ``buf`` (zeroed beyond the message); returns the block count."""
    blocks = (length + 9 + 63) // 64
    for g in range(buf.shape[0]):
        buf[g, length] = 0x80
        for b in range(8):
            buf[g, 64 * blocks - 1 - b] = np.uint8(((8 * length) >> (8 * b)) & 0xFF)
    return blocks


@jit
def _leaves(key: Any, h: int, p: int, top: int, first: int, out: Any, lo: int, hi: int) -> None:
    """Leaves T[2^h + q] for q = first + lo .. first + hi - 1 into out[lo .. hi-1]
    (uint8, n bytes each): RFC 8554 §4.3 (the LM-OTS public key K of one-time key
    q: its p chains to step 2^w - 1, then H(I || u32str(q) || u16str(D_PBLC) ||
    y[0] || ... || y[p-1])) and the leaf hash of §5.3, GROUP leaves at a time."""
    nw = key.shape[0] - 4
    n = 4 * nw
    length = 22 + p * n
    pub = np.zeros((GROUP, 64 * ((length + 9 + 63) // 64)), dtype=np.uint8)
    blocks = _pad(pub, length)
    leaf = np.zeros((GROUP, 64), dtype=np.uint8)
    _pad(leaf, 22 + n)
    ends = np.full(GROUP * p, top, dtype=np.int64)
    order = np.arange(GROUP * p)
    digest = np.zeros((GROUP, 8), dtype=np.uint32)
    for g0 in range(lo, hi, GROUP):
        rows = min(GROUP, hi - g0)
        qs = np.arange(first + g0, first + g0 + rows, dtype=np.int64)
        for g in range(rows):
            _put_head(pub, g, key, qs[g], 0x8080)  # D_PBLC
        _engine(key, qs, p, ends, order, pub, 22, 0, rows * p)
        _hash_rows(pub, rows, blocks, digest)
        for g in range(rows):
            _put_head(leaf, g, key, (1 << h) + qs[g], 0x8282)  # D_LEAF
            for k in range(nw):
                _put_be(leaf, g, 22 + 4 * k, digest[g, k])
        _hash_rows(leaf, rows, 1, digest)
        for g in range(rows):
            for k in range(nw):
                _put_be(out, g0 + g, 4 * k, digest[g, k])


def key_words(ident: bytes, seed: bytes) -> npt.NDArray[np.uint32]:
    """I || SEED as the kernels take it: uint32 (4 + n / 4,), big-endian words."""
    return np.frombuffer(ident + seed, dtype=">u4").astype(np.uint32)


LEAVES_PER_THREAD = 8
"""The fewest leaves a thread of key generation gets."""


def _claimed(kernel: Any, args: tuple[Any, ...], bounds: list[tuple[int, int]]) -> None:
    """``kernel(*args, lo, hi)`` for every (lo, hi) in ``bounds``, claimed one by one
    by the calling thread and helpers of the shared pool: the caller works too and
    waits only for chunks a helper has claimed (and so is running)."""
    if len(bounds) == 1:
        kernel(*args, *bounds[0])
        return
    claims = iter(range(len(bounds)))  # next() of a range iterator is atomic under the GIL
    finished = [threading.Event() for _ in bounds]

    def claim() -> None:
        for c in claims:
            kernel(*args, *bounds[c])
            finished[c].set()

    for _ in range(len(bounds) - 1):
        _helpers().submit(claim)
    claim()
    for event in finished:
        event.wait()


_NO_TREE = np.zeros((1, 1), dtype=np.uint8)


def lmots_sign_sha256(
    key: npt.NDArray[np.uint32],
    q: int,
    q_hash: bytes,
    ots: Any,
    heap: npt.NDArray[np.uint8] | None = None,
    lms: Any = None,
) -> bytes:
    """y[0] || ... || y[p-1] of one-time key ``q``'s LM-OTS signature for the
    message hash ``q_hash`` = Q (RFC 8554 §4.5 steps 3-5: the digits of Q and its
    checksum, then every chain from x_q[i], the private key of Appendix A), one
    compiled call on the calling thread; given the tree in heap order (``heap``,
    see :func:`_ots_sign`) and the LMS type ``lms``, followed by u32str(type) ||
    path (RFC 8554 §5.4.1)."""
    w, u, v, ls = _shape(ots)
    digest = np.frombuffer(q_hash, dtype=np.uint8)
    if heap is None:
        out = _ots_sign(key, q, digest, w, u, v, ls, _NO_TREE, 0, 0)
    else:
        out = _ots_sign(key, q, digest, w, u, v, ls, heap, lms.h, lms.code)
    return bytes(out.tobytes())


@functools.cache
def _shape(ots: Any) -> tuple[int, int, int, int]:
    """(w, u, v, ls) of an LM-OTS type (computed properties: kept per type)."""
    return ots.w, ots.u, ots.v, ots.ls


def lms_leaves_sha256(
    key: npt.NDArray[np.uint32], h: int, ots: Any, first: int, count: int
) -> npt.NDArray[np.uint8]:
    """T[2^h + q] for q = first .. first + count - 1 (RFC 8554 §5.3 leaves of the
    §4.3 public keys): uint8 (count, n), split over the worker threads in chunks of
    leaves (each chunk runs GROUP leaves' chains side by side)."""
    out = np.empty((count, 4 * (key.shape[0] - 4)), dtype=np.uint8)
    args = (key, h, ots.p, (1 << ots.w) - 1, first, out)
    chunks = max(1, min(workers(), count // LEAVES_PER_THREAD))
    bounds = [(c * count // chunks, (c + 1) * count // chunks) for c in range(chunks)]
    _claimed(_leaves, args, bounds)
    return out


OPERATIONS: dict[str, Any] = {
    "key_words": key_words,
    "lmots_chains_sha256": lmots_chains_sha256,
    "lmots_sign_sha256": lmots_sign_sha256,
    "lms_leaves_sha256": lms_leaves_sha256,
}
