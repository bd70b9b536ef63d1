# Twin of pqkit/common/python/keccak.py: Keccak-f[1600] for Numba (can't call Python).
"""The ``jit`` hash kernels: Keccak-f[1600], SHAKE and the SHA-256 / SHA-512
compressions compiled with Numba, looping over many independent inputs in one call.

Contracts: :class:`pqkit.common.kernels.contract.HashKernels`.

- The permutation (:func:`_keccak_x8`) is FIPS 202 Algorithm 7 on 8 states at
  once: each round is one loop over the 8 states whose body has the lanes in local
  variables and the step mappings written out, as in
  :mod:`pqkit.common.python.keccak` (rho and pi as one in-place cycle); uint64
  arithmetic wraps, so no masks are needed. LLVM vectorises that loop across the
  states (AVX-512: one register holds a lane of all 8; AVX2: two), about 7x the
  speed of one state at a time on this machine (the x4 / x8 Keccak of liboqs and
  XKCP, here written as a plain loop). The SHA-2 compressions
  (:func:`_sha256_x8`, :func:`_sha512_x8`) are FIPS 180-4 §6.2.2 and §6.4.2 on 8
  states at once the same way, on uint64 words (SHA-256's masked to 32 bits).
- Each sponge or hash kernel does the whole job for a range of rows in compiled
  code: the padding (FIPS 202 §5.1 / FIPS 180-4 §5.1) into a per-row scratch
  buffer whose layout only depends on the (public) lengths, absorption, squeezing
  and the output bytes. A common ``prefix`` is absorbed (its whole blocks) once per
  call, in Python through the same compiled permutation, and every row starts from
  a copy of that state.
- Batches of at least :data:`PARALLEL_MIN_ROWS` rows run on several threads: the
  compiled kernels release the GIL (``nogil``), and :func:`_run` splits the rows
  into chunks that the calling thread and helper threads from a shared pool claim
  one by one; the caller never waits for a helper that has not started. The
  number of threads per call is bounded by :func:`workers` (:func:`set_workers`,
  else ``pqkit._workers.resolve_workers``: ``PQKIT_WORKERS``, else the CPUs this
  process may run on). Not
  ``numba.prange``: Numba's default ``workqueue`` layer cannot be entered from two
  threads at once, and on a busy machine a ``prange`` call waits for its worker
  threads to be scheduled (measured here: 16 ms median for a 15 us job), where
  this scheme degrades to the serial speed.
- Batches of at most :data:`HASHLIB_MAX_ROWS` rows of ``shake_many`` /
  ``sha256_many`` / ``sha512_many`` go to ``hashlib`` (as in the ``numpy``
  backend): below that the fixed cost of entering compiled code (argument
  unboxing, a few microseconds) exceeds the work. (The tests set it to 0 to run
  the compiled code on every batch size.)

No branch, division or table lookup depends on the hashed bytes; loop bounds and
branches depend on lengths only (the last group of a batch runs 8 states, of which
only the real rows are written back). SHAKE lanes are loaded from bytes by viewing
a scratch buffer as uint64, which assumes a little-endian machine (every platform
Numba supports); the module refuses to load elsewhere.
"""

from __future__ import annotations

import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit._workers import resolve_workers
from pqkit.arith._jit import (  # imports Numba (ModuleNotFoundError: unavailable)
    jit,
    jit_inline,
    kernel_array,
    kernel_bytes,
    put,
)
from pqkit.arith.api import kernel_table
from pqkit.common.kernels import numpy as numpy_hash
from pqkit.common.kernels._hash import (
    H256,
    H512,
    K256,
    K512,
    ROUND_CONSTANTS,
    SHAKE_PAD,
    compress_args,
    rate_bytes,
)
from pqkit.common.kernels.contract import HashKernels, keccak_args, sha2_args, shake_args

__all__ = ["HASHLIB_MAX_ROWS", "KERNELS", "PARALLEL_MIN_ROWS", "set_workers", "workers"]

if sys.byteorder != "little":  # pragma: no cover - Numba runs on little-endian machines only
    raise ModuleNotFoundError("the jit hash kernels need a little-endian machine", name="numba")

PARALLEL_MIN_ROWS = 256
"""Batches with fewer rows run on the calling thread only."""

ROWS_PER_CHUNK = 128
"""The fewest rows a chunk gets (so a thread's work outweighs handing it over)."""

HASHLIB_MAX_ROWS = 6
"""``*_many`` calls with at most this many rows use hashlib."""

_workers_override: int | None = None
_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def set_workers(n: int | None) -> None:
    """Bound the threads one call uses to ``n`` (>= 1), or None to go back to
    ``PQKIT_WORKERS`` / the CPUs this process may run on."""
    global _workers_override
    if n is not None and (not isinstance(n, int) or isinstance(n, bool)):
        raise TypeError(f"workers must be an int or None, not {type(n).__name__}")
    if n is not None and n < 1:
        raise ValueError(f"workers must be >= 1, got {n}")
    _workers_override = n


def workers() -> int:
    """The thread bound now in force: :func:`set_workers`, else the
    ``PQKIT_WORKERS`` environment variable, else the number of cores this process
    may run on."""
    if _workers_override is not None:
        return _workers_override
    return resolve_workers()  # PQKIT_WORKERS, else the CPUs this process may use


def _helpers() -> ThreadPoolExecutor:
    """The shared pool of helper threads (created on first use)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(thread_name_prefix="pqkit-hash")
        return _pool


def _run(kernel: Any, rows: int, *args: Any) -> None:
    """``kernel(*args, lo, hi)`` over rows 0..rows-1, split into chunks of whole
    8-row groups for up to :func:`workers` threads.

    The calling thread works too, claiming chunks one by one like its helpers, and
    waits only for chunks a helper has already claimed (and so is running): when
    the helpers are slow to start (a busy machine) the caller simply does the
    work itself, instead of waiting for a thread to be scheduled."""
    chunks = 1 if rows < PARALLEL_MIN_ROWS else min(workers(), rows // ROWS_PER_CHUNK)
    if chunks <= 1:
        kernel(*args, 0, rows)
        return
    groups = (rows + W - 1) // W
    bounds = [
        (W * (c * groups // chunks), min(rows, W * ((c + 1) * groups // chunks)))
        for c in range(chunks)
    ]
    claimed = threading.Lock()
    state = {"next": 0}
    done = [threading.Event() for _ in range(chunks)]
    errors: list[BaseException] = []

    def work() -> None:
        while True:
            with claimed:
                i = state["next"]
                state["next"] = i + 1
            if i >= chunks:
                return
            try:
                kernel(*args, *bounds[i])
            except BaseException as exc:  # pragma: no cover - the kernels do not raise
                errors.append(exc)
            finally:
                done[i].set()

    pool = _helpers()
    for _ in range(chunks - 1):
        pool.submit(work)
    work()
    for event in done:
        event.wait()
    if errors:  # pragma: no cover
        raise errors[0]


# --- FIPS 202, Algorithm 7 (KECCAK-p[1600, nr]) -------------------------------------

_RC = np.array(ROUND_CONSTANTS, dtype=np.uint64)


W = 8
"""States per group: the compiled loops run the same step on W independent states
side by side, which LLVM turns into one SIMD instruction per step (one AVX-512
register of 8 uint64 lanes, or two AVX2 ones). The index arithmetic of
:func:`_keccak_x8`, :func:`_sha256_x8` and :func:`_sha512_x8` is written out for
W = 8."""


@jit_inline
def _keccak_round(w: Any, j: int, rc: Any) -> None:
    """One round of FIPS 202 Algorithm 7 (theta, rho, pi, chi, iota with round
    constant ``rc``) on state j of ``w`` (uint64 (200,), lane x + 5y of state j at
    w[8 (x + 5y) + j]), in place; local ``aXY`` holds lane (X, Y)."""
    a00, a10, a20, a30, a40 = w[j], w[8 + j], w[16 + j], w[24 + j], w[32 + j]
    a01, a11, a21, a31, a41 = w[40 + j], w[48 + j], w[56 + j], w[64 + j], w[72 + j]
    a02, a12, a22, a32, a42 = w[80 + j], w[88 + j], w[96 + j], w[104 + j], w[112 + j]
    a03, a13, a23, a33, a43 = w[120 + j], w[128 + j], w[136 + j], w[144 + j], w[152 + j]
    a04, a14, a24, a34, a44 = w[160 + j], w[168 + j], w[176 + j], w[184 + j], w[192 + j]
    # theta (Algorithm 1)
    c0 = a00 ^ a01 ^ a02 ^ a03 ^ a04
    c1 = a10 ^ a11 ^ a12 ^ a13 ^ a14
    c2 = a20 ^ a21 ^ a22 ^ a23 ^ a24
    c3 = a30 ^ a31 ^ a32 ^ a33 ^ a34
    c4 = a40 ^ a41 ^ a42 ^ a43 ^ a44
    d0 = c4 ^ ((c1 << 1) | (c1 >> 63))
    d1 = c0 ^ ((c2 << 1) | (c2 >> 63))
    d2 = c1 ^ ((c3 << 1) | (c3 >> 63))
    d3 = c2 ^ ((c4 << 1) | (c4 >> 63))
    d4 = c3 ^ ((c0 << 1) | (c0 >> 63))
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
    a10 = (a11 << 44) | (a11 >> 20)
    a11 = (a41 << 20) | (a41 >> 44)
    a41 = (a24 << 61) | (a24 >> 3)
    a24 = (a42 << 39) | (a42 >> 25)
    a42 = (a04 << 18) | (a04 >> 46)
    a04 = (a20 << 62) | (a20 >> 2)
    a20 = (a22 << 43) | (a22 >> 21)
    a22 = (a32 << 25) | (a32 >> 39)
    a32 = (a43 << 8) | (a43 >> 56)
    a43 = (a34 << 56) | (a34 >> 8)
    a34 = (a03 << 41) | (a03 >> 23)
    a03 = (a40 << 27) | (a40 >> 37)
    a40 = (a44 << 14) | (a44 >> 50)
    a44 = (a14 << 2) | (a14 >> 62)
    a14 = (a31 << 55) | (a31 >> 9)
    a31 = (a13 << 45) | (a13 >> 19)
    a13 = (a01 << 36) | (a01 >> 28)
    a01 = (a30 << 28) | (a30 >> 36)
    a30 = (a33 << 21) | (a33 >> 43)
    a33 = (a23 << 15) | (a23 >> 49)
    a23 = (a12 << 10) | (a12 >> 54)
    a12 = (a21 << 6) | (a21 >> 58)
    a21 = (a02 << 3) | (a02 >> 61)
    a02 = (t << 1) | (t >> 63)
    # chi (Algorithm 4), one plane y at a time
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
    w[j], w[8 + j], w[16 + j], w[24 + j], w[32 + j] = a00, a10, a20, a30, a40
    w[40 + j], w[48 + j], w[56 + j], w[64 + j], w[72 + j] = a01, a11, a21, a31, a41
    w[80 + j], w[88 + j], w[96 + j], w[104 + j], w[112 + j] = a02, a12, a22, a32, a42
    w[120 + j], w[128 + j], w[136 + j], w[144 + j], w[152 + j] = a03, a13, a23, a33, a43
    w[160 + j], w[168 + j], w[176 + j], w[184 + j], w[192 + j] = a04, a14, a24, a34, a44


@jit
def _keccak_x8(w: Any, first_round: int) -> None:
    """KECCAK-p[1600, 24 - first_round] on 8 states at once, in place: rounds
    first_round .. 23 (:func:`_keccak_round`). The loop over the states j has no
    dependence between iterations, so it vectorises."""
    for i_r in range(first_round, 24):
        rc = _RC[i_r]
        for j in range(8):
            _keccak_round(w, j, rc)


@jit
def _keccak_x4(w: Any, first_round: int) -> None:
    """KECCAK-p[1600, 24 - first_round] on states 0-3 of ``w`` (same layout as
    :func:`_keccak_x8`), the others left as they were: for a group of 2-4 sponges.
    LLVM holds the four states' lanes in one 256-bit vector, so the four cost what
    one costs (0.25 against 0.27 us for :func:`_keccak_x1` and 0.55 for the 8-state
    permutation here, which takes two such vectors per step)."""
    for i_r in range(first_round, 24):
        rc = _RC[i_r]
        for j in range(4):
            _keccak_round(w, j, rc)


@jit
def _keccak_x1(w: Any, first_round: int) -> None:
    """KECCAK-p[1600, 24 - first_round] on state 0 of ``w`` alone (same layout as
    :func:`_keccak_x8`), for one sponge: scalar code, about 2.7x faster than the
    8-state permutation with 7 idle states (0.27 against 0.73 us here)."""
    for i_r in range(first_round, 24):
        _keccak_round(w, 0, _RC[i_r])


@jit
def _permute_rows(states: Any, first_round: int, lo: int, hi: int) -> None:
    """Permute rows lo..hi-1 of ``states`` (rows, 25) in place, 8 at a time."""
    w = np.zeros(25 * W, dtype=np.uint64)
    for g in range(lo, hi, W):
        m = min(W, hi - g)
        for i in range(25):
            for j in range(m):
                w[i * W + j] = states[g + j, i]
        _keccak_x8(w, first_round)
        for i in range(25):
            for j in range(m):
                states[g + j, i] = w[i * W + j]


def keccak_f1600(states: npt.NDArray[np.uint64], rounds: int = 24) -> npt.NDArray[np.uint64]:
    nr, rows, lead = keccak_args(states, rounds)
    out: npt.NDArray[np.uint64] = rows.copy()
    _run(_permute_rows, out.shape[0], out, 24 - nr)
    return out.reshape(*lead, 25)


# --- FIPS 202 §6.2: SHAKE128 / SHAKE256 of many rows ---------------------------------


@jit
def _shake_rows(init: Any, tail: Any, inputs: Any, rate: int, out: Any, lo: int, hi: int) -> None:
    """Rows lo..hi-1 of the SHAKE sponge (FIPS 202 Algorithm 8 with pad10*1), 8 rows
    at a time: each row absorbs tail || inputs[r] || 1111 || pad10*1 into a copy of
    ``init`` (25 lanes) and squeezes out.shape[1] bytes into out[r]."""
    lanes = rate // 8
    p = tail.shape[0]
    length = inputs.shape[1]
    n_blocks = (p + length) // rate + 1
    span = n_blocks * rate  # one padded message, in bytes
    words = np.zeros(W * n_blocks * lanes, dtype=np.uint64)
    buf = words.view(np.uint8)  # W padded messages; little-endian lanes (FIPS 202 §B.1)
    for j in range(W):  # the layout only depends on the lengths: write it once
        put(buf[j * span : j * span + p], tail)
        buf[j * span + p + length] = SHAKE_PAD  # M || 1111 || 10*1: domain bits, first 1
        buf[j * span + span - 1] ^= 0x80  # ... and the last 1
    w = np.zeros(25 * W, dtype=np.uint64)
    out_len = out.shape[1]
    for g in range(lo, hi, W):
        m = min(W, hi - g)
        for j in range(m):
            put(buf[j * span + p : j * span + p + length], inputs[g + j])
        for i in range(25):
            for j in range(W):
                w[i * W + j] = init[i]
        for blk in range(n_blocks):
            for i in range(lanes):
                for j in range(W):
                    w[i * W + j] ^= words[(j * n_blocks + blk) * lanes + i]
            _keccak_x8(w, 0)
        pos = 0
        while True:  # Algorithm 8 steps 7-10
            for i in range(lanes):
                for k in range(8):
                    if pos < out_len:
                        for j in range(m):
                            out[g + j, pos] = (w[i * W + j] >> (8 * k)) & 0xFF
                        pos += 1
            if pos >= out_len:
                break
            _keccak_x8(w, 0)


@jit
def _absorb_blocks(s: Any, words: Any, rate: int) -> None:
    """Absorb the whole rate-blocks of ``words`` (uint64 lanes, a multiple of
    rate / 8 of them) into the state ``s`` (25 lanes), in place: a common prefix,
    once per call, in slot 0 of a group (the other 7 slots are permuted idly)."""
    lanes = rate // 8
    w = np.zeros(25 * W, dtype=np.uint64)
    for i in range(25):
        w[i * W] = s[i]
    for blk in range(words.shape[0] // lanes):
        for i in range(lanes):
            w[i * W] ^= words[blk * lanes + i]
        _keccak_x8(w, 0)
    for i in range(25):
        s[i] = w[i * W]


def shake_many(
    bits: int, inputs: npt.NDArray[np.uint8], out_len: int, prefix: bytes = b""
) -> npt.NDArray[np.uint8]:
    checked, n, rows, lead, data = shake_args(bits, inputs, out_len, prefix)
    rate = rate_bytes(checked)
    if rows.shape[0] <= HASHLIB_MAX_ROWS:
        return numpy_hash.shake_rows(checked, rows, lead, n, data)
    rows = kernel_array(rows)
    full = len(data) - len(data) % rate
    init = np.zeros(25, dtype=np.uint64)
    if full:  # the prefix's whole blocks, once: little-endian lanes (FIPS 202 §B.1)
        _absorb_blocks(init, np.frombuffer(data[:full], dtype="<u8").astype(np.uint64), rate)
    tail = kernel_bytes(data[full:])
    out = np.empty((rows.shape[0], n), dtype=np.uint8)
    _run(_shake_rows, rows.shape[0], init, tail, rows, rate, out)
    return out.reshape(*lead, n)


# --- FIPS 180-4 §6.2.2: the SHA-256 compression -------------------------------------

_K256 = np.array(K256, dtype=np.uint64)
_K512 = np.array(K512, dtype=np.uint64)
_M32 = np.uint64(0xFFFFFFFF)


@jit
def _sha256_x8(h: Any, w: Any) -> None:
    """FIPS 180-4 §6.2.2 steps 1-4 on 8 states at once, in place. ``h`` is uint64
    (64,), word i of state j (below 2^32) at h[8 i + j]; ``w`` is the uint64 (704,)
    scratch: the block's words W_0..W_15 of state j at w[8 t + j] (the rest of the
    schedule is filled here) and the working variables a..h at w[640 + 8 k + j]
    (one array, so that the compiler sees that no two accesses alias and
    vectorises the loops over j)."""
    for t in range(16, 64):  # step 1: sigma0 (4.6) and sigma1 (4.7)
        for j in range(8):
            x = w[8 * (t - 15) + j]
            y = w[8 * (t - 2) + j]
            s0 = ((x >> 7) | (x << 25)) ^ ((x >> 18) | (x << 14)) ^ (x >> 3)
            s1 = ((y >> 17) | (y << 15)) ^ ((y >> 19) | (y << 13)) ^ (y >> 10)
            w[8 * t + j] = (s1 + w[8 * (t - 7) + j] + s0 + w[8 * (t - 16) + j]) & _M32
    for k in range(64):  # step 2
        w[640 + k] = h[k]
    for t in range(64):  # step 3: Sigma1 (4.5), Ch (4.2), Sigma0 (4.4), Maj (4.3)
        kt = _K256[t]
        for j in range(8):
            a, b, c, d = w[640 + j], w[648 + j], w[656 + j], w[664 + j]
            e, f, g, hh = w[672 + j], w[680 + j], w[688 + j], w[696 + j]
            big1 = ((e >> 6) | (e << 26)) ^ ((e >> 11) | (e << 21)) ^ ((e >> 25) | (e << 7))
            ch = (e & f) ^ (~e & g)
            t1 = hh + (big1 & _M32) + ch + kt + w[8 * t + j]
            big0 = ((a >> 2) | (a << 30)) ^ ((a >> 13) | (a << 19)) ^ ((a >> 22) | (a << 10))
            maj = (a & b) ^ (a & c) ^ (b & c)
            w[696 + j], w[688 + j], w[680 + j] = g, f, e
            w[672 + j] = (d + t1) & _M32
            w[664 + j], w[656 + j], w[648 + j] = c, b, a
            w[640 + j] = (t1 + (big0 & _M32) + maj) & _M32
    for k in range(64):  # step 4
        h[k] = (h[k] + w[640 + k]) & _M32


@jit
def _sha512_x8(h: Any, w: Any) -> None:
    """FIPS 180-4 §6.4.2 steps 1-4 on 8 states at once, in place: as
    :func:`_sha256_x8` with 64-bit words and 80 rounds."""
    for t in range(16, 80):  # step 1: sigma0 (4.12) and sigma1 (4.13)
        for j in range(8):
            x = w[8 * (t - 15) + j]
            y = w[8 * (t - 2) + j]
            s0 = ((x >> 1) | (x << 63)) ^ ((x >> 8) | (x << 56)) ^ (x >> 7)
            s1 = ((y >> 19) | (y << 45)) ^ ((y >> 61) | (y << 3)) ^ (y >> 6)
            w[8 * t + j] = s1 + w[8 * (t - 7) + j] + s0 + w[8 * (t - 16) + j]
    for k in range(64):  # step 2
        w[640 + k] = h[k]
    for t in range(80):  # step 3: Sigma1 (4.11), Ch (4.8), Sigma0 (4.10), Maj (4.9)
        kt = _K512[t]
        for j in range(8):
            a, b, c, d = w[640 + j], w[648 + j], w[656 + j], w[664 + j]
            e, f, g, hh = w[672 + j], w[680 + j], w[688 + j], w[696 + j]
            big1 = ((e >> 14) | (e << 50)) ^ ((e >> 18) | (e << 46)) ^ ((e >> 41) | (e << 23))
            ch = (e & f) ^ (~e & g)
            t1 = hh + big1 + ch + kt + w[8 * t + j]
            big0 = ((a >> 28) | (a << 36)) ^ ((a >> 34) | (a << 30)) ^ ((a >> 39) | (a << 25))
            maj = (a & b) ^ (a & c) ^ (b & c)
            w[696 + j], w[688 + j], w[680 + j] = g, f, e
            w[672 + j] = d + t1
            w[664 + j], w[656 + j], w[648 + j] = c, b, a
            w[640 + j] = t1 + big0 + maj
    for k in range(64):  # step 4
        h[k] += w[640 + k]


@jit
def _load_block(w: Any, buf: Any, off: int, j: int, wide: bool) -> None:
    """Words W_0..W_15 of state j from the block at buf[off:], big-endian (§3.1)."""
    size = 8 if wide else 4
    for t in range(16):
        x = np.uint64(0)
        for k in range(size):
            x = (x << 8) | np.uint64(buf[off + size * t + k])
        w[8 * t + j] = x


@jit
def _compress_x8(h: Any, w: Any, wide: bool) -> None:
    if wide:
        _sha512_x8(h, w)
    else:
        _sha256_x8(h, w)


@jit
def _compress_rows(states: Any, blocks: Any, wide: bool, lo: int, hi: int) -> None:
    """One compression per row, 8 rows at a time: states (rows, 8) uint64 in place
    (below 2^32 for SHA-256), blocks (rows, 64 or 128) uint8; SHA-512 if ``wide``."""
    h = np.zeros(64, dtype=np.uint64)
    w = np.zeros(704, dtype=np.uint64)
    for g in range(lo, hi, W):
        m = min(W, hi - g)
        for j in range(m):
            for i in range(8):
                h[8 * i + j] = states[g + j, i]
            _load_block(w, blocks[g + j], 0, j, wide)
        _compress_x8(h, w, wide)
        for j in range(m):
            for i in range(8):
                states[g + j, i] = h[8 * i + j]


def sha256_compress(
    states: npt.NDArray[np.uint32], blocks: npt.NDArray[np.uint8]
) -> npt.NDArray[np.uint32]:
    s, b, lead = compress_args(states, blocks, np.uint32, 64)
    b = kernel_array(b)
    h = s.astype(np.uint64)
    _run(_compress_rows, h.shape[0], h, b, False)
    return h.astype(np.uint32).reshape(*lead, 8)


def sha512_compress(
    states: npt.NDArray[np.uint64], blocks: npt.NDArray[np.uint8]
) -> npt.NDArray[np.uint64]:
    s, b, lead = compress_args(states, blocks, np.uint64, 128)
    b = kernel_array(b)
    _run(_compress_rows, s.shape[0], s, b, True)
    return s.reshape(*lead, 8)


# --- SHA-256 / SHA-512 of prefix || row for many rows ------------------------------


@jit
def _sha2_rows(
    init: Any, tail: Any, inputs: Any, done: int, wide: bool, out: Any, lo: int, hi: int
) -> None:
    """Rows lo..hi-1, 8 at a time: the digest of the message whose first ``done``
    bytes are compressed into ``init`` (8 words), followed by tail || inputs[r];
    padding FIPS 180-4 §5.1.1 (SHA-256) or §5.1.2 (SHA-512, if ``wide``)."""
    block = 128 if wide else 64
    length_bytes = 16 if wide else 8
    word = 8 if wide else 4
    p = tail.shape[0]
    length = inputs.shape[1]
    n_blocks = (p + length + length_bytes) // block + 1
    span = n_blocks * block  # one padded message, in bytes
    buf = np.zeros(W * span, dtype=np.uint8)
    bits = 8 * (done + p + length)
    for j in range(W):  # the layout only depends on the lengths: write it once
        put(buf[j * span : j * span + p], tail)
        buf[j * span + p + length] = 0x80  # M || 1 || 0^k || the length in bits
        for k in range(8):  # the low 64 bits of the length; SHA-512's high 64 stay 0
            buf[j * span + span - 1 - k] = (bits >> (8 * k)) & 0xFF
    h = np.zeros(64, dtype=np.uint64)
    w = np.zeros(704, dtype=np.uint64)
    for g in range(lo, hi, W):
        m = min(W, hi - g)
        for j in range(m):
            put(buf[j * span + p : j * span + p + length], inputs[g + j])
        for i in range(8):
            for j in range(W):
                h[8 * i + j] = init[i]
        for blk in range(n_blocks):
            for j in range(W):
                _load_block(w, buf, j * span + blk * block, j, wide)
            _compress_x8(h, w, wide)
        for j in range(m):  # big-endian output words
            for i in range(8):
                x = h[8 * i + j]
                for k in range(word):
                    out[g + j, word * i + k] = (x >> (8 * (word - 1 - k))) & 0xFF


def _sha2_many(inputs: npt.NDArray[np.uint8], prefix: bytes, wide: bool) -> npt.NDArray[np.uint8]:
    rows, lead, data = sha2_args(inputs, prefix)
    if rows.shape[0] <= HASHLIB_MAX_ROWS:
        return numpy_hash.sha2_rows("sha512" if wide else "sha256", rows, lead, data)
    rows = kernel_array(rows)
    block = 128 if wide else 64
    full = len(data) - len(data) % block
    init = np.array(H512 if wide else H256, dtype=np.uint64)
    if full:
        blocks = kernel_bytes(data[:full]).reshape(-1, block)
        one = init.reshape(1, 8)
        for blk in blocks:
            _compress_rows(one, blk.reshape(1, block), wide, 0, 1)
    tail = kernel_bytes(data[full:])
    size = 64 if wide else 32
    out = np.empty((rows.shape[0], size), dtype=np.uint8)
    _run(_sha2_rows, rows.shape[0], init, tail, rows, full, wide, out)
    return out.reshape(*lead, size)


def sha256_many(inputs: npt.NDArray[np.uint8], prefix: bytes = b"") -> npt.NDArray[np.uint8]:
    return _sha2_many(inputs, prefix, False)


def sha512_many(inputs: npt.NDArray[np.uint8], prefix: bytes = b"") -> npt.NDArray[np.uint8]:
    return _sha2_many(inputs, prefix, True)


KERNELS: dict[str, Any] = kernel_table(HashKernels, globals())
