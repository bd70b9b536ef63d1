"""The hashing of the batch paths, one small function per hash shape.

Every batched SHA-3 / SHAKE call of :mod:`pqkit.mlkem.batch` and
:mod:`pqkit.mldsa.batch` goes through these functions, so what runs them is
chosen in one place:

- :func:`shake_rows` (equal-length inputs: matrix and noise streams, ExpandMask,
  H of keys, the challenge) runs on the ``hash`` kernels of :mod:`pqkit.arith`
  (``shake_many``): the compiled n-way Keccak when the scheme runs on ``jit``,
  else the ``numpy`` hash backend (hashlib per row; the pure-Python ``ref``
  Keccak is not used for batches: the ``ref`` arithmetic is the oracle, not the
  hashing).
- :func:`sha3_rows` (SHA3-256 / SHA3-512: H and G of ML-KEM) and
  :func:`shake_list` (inputs of different lengths: mu over messages) call the
  active :mod:`pqkit.common` SHA-3 provider per row; the hash kernels have no
  fixed-output SHA-3 (padding 0x06) nor ragged inputs yet.

Shapes: ``rows`` is a uint8 array ``(n, L)`` (every input the same length); the
result is a new uint8 array ``(n, out_len)``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from pqkit import arith
from pqkit.common import provider

__all__ = ["concat_rows", "sha3_rows", "shake_list", "shake_rows"]

U8 = npt.NDArray[np.uint8]


def _hash_backend(arith_backend: str) -> str:
    """The hash-kernel backend for a scheme running on ``arith_backend``."""
    return "jit" if arith_backend == "jit" else "numpy"


def shake_rows(bits: int, rows: U8, out_len: int, arith_backend: str) -> U8:
    """Row i: the first ``out_len`` bytes of SHAKE``bits``(rows[i]) (FIPS 202 §6.2),
    on the hash kernels that go with ``arith_backend`` (the scheme's kernels')."""
    if rows.shape[0] == 0:
        return np.zeros((0, out_len), dtype=np.uint8)
    kernels = arith.kernels("hash", _hash_backend(arith_backend))
    out: U8 = kernels.shake_many(bits, np.ascontiguousarray(rows, dtype=np.uint8), out_len)
    return out


def sha3_rows(bits: int, rows: U8) -> U8:
    """Row i: SHA3-``bits``(rows[i]) (FIPS 202 §6.1), ``bits // 8`` bytes."""
    p = provider("sha3")
    data = np.ascontiguousarray(rows, dtype=np.uint8).tobytes()
    width = rows.shape[1]
    out = b"".join(p.sha3(bits, data[i * width : (i + 1) * width]) for i in range(rows.shape[0]))
    return np.frombuffer(bytearray(out), dtype=np.uint8).reshape(rows.shape[0], bits // 8)


def shake_list(bits: int, inputs: Sequence[bytes], out_len: int) -> U8:
    """Row i: the first ``out_len`` bytes of SHAKE``bits``(inputs[i]); inputs may
    differ in length (messages)."""
    if not inputs:
        return np.zeros((0, out_len), dtype=np.uint8)
    return provider("sha3").shake_many(bits, list(inputs), out_len)


def concat_rows(*parts: U8) -> U8:
    """Concatenate uint8 blocks along the last axis, broadcasting a single row
    ``(1, L)`` against the others' row count."""
    n = max(p.shape[0] for p in parts)
    return np.concatenate([np.broadcast_to(p, (n, p.shape[1])) for p in parts], axis=1)
