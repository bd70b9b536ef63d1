"""Shared plumbing of the ``hash`` kernel family
(:class:`pqkit.common.kernels.contract.HashKernels`):
argument checks with the library's error messages, and the constants every backend
reads (FIPS 202 round constants and rho offsets, FIPS 180-4 initial values and round
constants), taken from the pure-Python providers in :mod:`pqkit.common.python`,
which compute them from their definitions.

NumPy-only; no backend-specific code.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit._checks import as_bytes
from pqkit.common.python.keccak import RHO_OFFSETS, ROUND_CONSTANTS
from pqkit.common.python.sha2 import H256, H512, K256, K512

__all__ = [
    "H256",
    "H512",
    "K256",
    "K512",
    "RHO_OFFSETS",
    "ROUND_CONSTANTS",
    "SHAKE_PAD",
    "as_prefix",
    "check_bits",
    "check_out_len",
    "check_rounds",
    "compress_args",
    "rate_bytes",
    "rows_u8",
    "states_u64",
]

SHAKE_PAD = 0x1F
"""The SHAKE domain bits 1111 and the first bit of pad10*1 as one byte (FIPS 202
§6.2, with the bit order of §B.1); the last bit of pad10*1 is 0x80 in the last
byte of the final block."""


def _is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def check_bits(bits: Any) -> int:
    """The SHAKE security strength: 128 or 256 (ValueError otherwise)."""
    if not _is_int(bits):
        raise TypeError(f"bits must be an int (128 or 256), not {type(bits).__name__}")
    if bits not in (128, 256):
        raise ValueError(f"bits must be 128 or 256 (SHAKE128 or SHAKE256), got {bits}")
    return int(bits)


def rate_bytes(bits: int) -> int:
    """The SHAKE rate r / 8 in bytes: 168 for SHAKE128, 136 for SHAKE256 (FIPS 202 §6.2)."""
    return 200 - bits // 4


def check_out_len(out_len: Any) -> int:
    """A non-negative int output length."""
    if not _is_int(out_len):
        raise TypeError(f"out_len must be an int, not {type(out_len).__name__}")
    if out_len < 0:
        raise ValueError(f"out_len must be >= 0, got {out_len}")
    return int(out_len)


def check_rounds(rounds: Any) -> int:
    """The number of rounds of KECCAK-p[1600, nr]: 1..24."""
    if not _is_int(rounds):
        raise TypeError(f"rounds must be an int, not {type(rounds).__name__}")
    if not 1 <= rounds <= 24:
        raise ValueError(f"rounds must be in 1..24, got {rounds}")
    return int(rounds)


def as_prefix(prefix: Any) -> bytes:
    """``prefix`` as bytes (TypeError unless bytes-like)."""
    return as_bytes(prefix, "prefix")


def _array(a: Any, name: str, dtype: type[np.generic]) -> npt.NDArray[Any]:
    if not isinstance(a, np.ndarray):
        kind = np.dtype(dtype)
        raise TypeError(f"{name} must be a numpy array of {kind}, not {type(a).__name__}")
    if a.dtype != dtype:
        raise TypeError(f"{name} must have dtype {np.dtype(dtype)}, got {a.dtype}")
    if a.ndim == 0:
        raise ValueError(f"{name} must have at least one axis, got a 0-d array")
    return a


def rows_u8(
    a: Any, name: str, width: int | None = None
) -> tuple[npt.NDArray[np.uint8], tuple[int, ...]]:
    """``a`` (a uint8 array (..., L)) as a C-contiguous (rows, L) array and its leading
    shape. With ``width``, L must equal it (ValueError). May share memory with ``a``:
    callers only read it."""
    arr = _array(a, name, np.uint8)
    if width is not None and arr.shape[-1] != width:
        raise ValueError(f"{name} must have shape (..., {width}), got {arr.shape}")
    lead = arr.shape[:-1]
    return np.ascontiguousarray(arr).reshape(math.prod(lead), arr.shape[-1]), lead


def states_u64(
    a: Any, name: str = "states", width: int = 25, dtype: type[np.generic] = np.uint64
) -> tuple[npt.NDArray[Any], tuple[int, ...]]:
    """A (..., width) state array of ``dtype`` as C-contiguous (rows, width) and its
    leading shape (TypeError for another dtype, ValueError for another width)."""
    arr = _array(a, name, dtype)
    if arr.shape[-1] != width:
        raise ValueError(f"{name} must have shape (..., {width}), got {arr.shape}")
    lead = arr.shape[:-1]
    return np.ascontiguousarray(arr).reshape(math.prod(lead), width), lead


def compress_args(
    states: Any, blocks: Any, dtype: type[np.generic], block_bytes: int
) -> tuple[npt.NDArray[Any], npt.NDArray[np.uint8], tuple[int, ...]]:
    """Check the arguments of a SHA-2 compression kernel and broadcast their leading
    axes: (states as a fresh C-contiguous (rows, 8) copy, blocks as C-contiguous
    (rows, block_bytes), possibly sharing memory with ``blocks``: callers only read
    it, the broadcast leading shape)."""
    s = _array(states, "states", dtype)
    b = _array(blocks, "blocks", np.uint8)
    if s.shape[-1] != 8:
        raise ValueError(f"states must have shape (..., 8), got {s.shape}")
    if b.shape[-1] != block_bytes:
        raise ValueError(f"blocks must have shape (..., {block_bytes}), got {b.shape}")
    try:
        lead = np.broadcast_shapes(s.shape[:-1], b.shape[:-1])
    except ValueError:
        raise ValueError(
            f"the leading axes of states {s.shape} and blocks {b.shape} do not broadcast"
        ) from None
    rows = math.prod(lead)
    s2 = np.array(np.broadcast_to(s, (*lead, 8)), dtype=dtype, order="C").reshape(rows, 8)
    b2 = np.ascontiguousarray(np.broadcast_to(b, (*lead, block_bytes))).reshape(rows, block_bytes)
    return s2, b2, lead
