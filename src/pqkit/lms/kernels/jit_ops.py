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

from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.arith._jit import jit, kernel_array
from pqkit.common.kernels._hash import H256
from pqkit.common.kernels.jit import _run
from pqkit.common.kernels.jit_sha256 import _sha256_1

__all__ = ["OPERATIONS", "lmots_chains_sha256"]

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


OPERATIONS: dict[str, Any] = {"lmots_chains_sha256": lmots_chains_sha256}
