"""The ``jit`` LM-OTS chains (RFC 8554 §4.4 step 5, §4.6 step 3e) for the SHA-256
sets: every chain of a batch from its begin step to its end step in one compiled
call, each step one compression of
:func:`pqkit.common.kernels.jit_sha256._sha256_1` (SHA-NI where the CPU has it).

One chain step hashes I || u32str(q) || u16str(i) || u8str(j) || tmp: 23 + n <= 55
bytes, one SHA-256 block with its padding (FIPS 180-4 §5.1.1), whose layout
depends only on n: written once per lane, then only j and tmp change. The
reference twin is :func:`pqkit.lms.lmots.chains` on the batched hash kernels
(the tests compare the two). Step counts are public (they come from Q and the
checksum, which the signature reveals); the hashed values may be secret and only
enter the compression.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.arith._jit import jit, kernel_array
from pqkit.common.kernels._hash import H256
from pqkit.common.kernels.jit_sha256 import _sha256_1

__all__ = ["OPERATIONS", "lmots_chains_sha256"]

_H256 = np.array(H256, dtype=np.uint32)


@jit
def _chains(prefix: Any, values: Any, begin: Any, end: Any, n: int, out: Any) -> None:
    """Row after row: the one-block message in ``buf``, compressed from the initial
    hash value by :func:`pqkit.common.kernels.jit_sha256._sha256_1` (SHA-NI where
    the CPU has it) for each step begin <= j < end."""
    rows = values.shape[0]
    buf = np.zeros(64, dtype=np.uint8)
    bits = 8 * (23 + n)
    buf[23 + n] = 0x80
    buf[62] = (bits >> 8) & 0xFF
    buf[63] = bits & 0xFF
    h = np.zeros(8, dtype=np.uint32)
    w = np.zeros(64, dtype=np.uint32)
    for r in range(rows):
        for k in range(22):
            buf[k] = prefix[r, k]
        for k in range(n):
            buf[23 + k] = values[r, k]
        for step in range(begin[r], end[r]):  # public step counts
            buf[22] = step
            for t in range(16):
                w[t] = (
                    (np.uint32(buf[4 * t]) << np.uint32(24))
                    | (np.uint32(buf[4 * t + 1]) << np.uint32(16))
                    | (np.uint32(buf[4 * t + 2]) << np.uint32(8))
                    | np.uint32(buf[4 * t + 3])
                )
            for i in range(8):
                h[i] = _H256[i]
            _sha256_1(h, w)
            for k in range(n):
                buf[23 + k] = (h[k // 4] >> np.uint32(8 * (3 - k % 4))) & np.uint32(0xFF)
        for k in range(n):
            out[r, k] = buf[23 + k]


def lmots_chains_sha256(
    prefix: npt.NDArray[np.uint8],
    values: npt.NDArray[np.uint8],
    begin: npt.NDArray[np.int64],
    end: npt.NDArray[np.int64],
) -> npt.NDArray[np.uint8]:
    """Each row's chain: ``prefix`` uint8 (rows, 22) = I || u32str(q) || u16str(i),
    ``values`` uint8 (rows, n) the chain inputs, steps begin <= j < end (0..255);
    returns uint8 (rows, n)."""
    out = np.empty_like(values)
    _chains(
        kernel_array(np.ascontiguousarray(prefix)),
        kernel_array(np.ascontiguousarray(values)),
        kernel_array(np.ascontiguousarray(begin, dtype=np.int64)),
        kernel_array(np.ascontiguousarray(end, dtype=np.int64)),
        np.int64(values.shape[1]),
        out,
    )
    return out


OPERATIONS: dict[str, Any] = {"lmots_chains_sha256": lmots_chains_sha256}
