"""Shared plumbing of the ``jit`` backends (:mod:`pqkit.mlkem.kernels.jit`,
:mod:`pqkit.mldsa.kernels.jit`): the Numba decorator and the boundary helpers that
turn contract arrays (any leading batch axes) into the fixed 2-D shapes the
compiled loops take.

Importing this module imports Numba; :mod:`pqkit.arith` treats the backend as
unavailable when that import fails. Compiled code is cached on disk
(``cache=True``), so only the first call of a kernel in a fresh environment pays
for compilation. The wrappers keep argument types fixed (C-contiguous int64 or
uint8, int64 scalars) so that every kernel compiles once per argument type
(byte kernels twice: for writable arrays and for read-only ``np.frombuffer`` ones).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

try:
    import numba  # type: ignore[import-not-found, unused-ignore]
except ImportError as exc:
    if isinstance(exc, ModuleNotFoundError):
        raise
    # Installed but unusable (for instance built for another NumPy): report it as a
    # missing package, which pqkit.arith reads as "backend unavailable".
    raise ModuleNotFoundError(f"numba cannot be imported: {exc}", name="numba") from exc

from pqkit.arith._cache_trust import guard

__all__ = [
    "as_bytes",
    "as_polys",
    "bcast_rows",
    "frozen_view",
    "jit",
    "jit_inline",
    "kernel_array",
    "kernel_bytes",
    "owned",
    "put",
    "writable_u8",
]

_F = TypeVar("_F", bound=Callable[..., Any])
_I64 = np.dtype(np.int64)  # builtin dtypes are singletons: `is` is a cheap exact test
_U8 = np.dtype(np.uint8)


def jit(fn: _F) -> _F:
    """``numba.njit`` with the on-disk cache (checked before use:
    :mod:`pqkit.arith._cache_trust`), typed for mypy as the identity."""
    return cast(_F, guard(numba.njit(cache=True, nogil=True)(fn)))


def jit_inline(fn: _F) -> _F:
    """:func:`jit` for a short step between compiled functions: Numba splices its
    body into every compiled caller (``inline="always"``) instead of compiling it
    as a function of its own.

    NOTE: for compile time. Numba links the code of every compiled function a
    function calls into its module and LLVM optimises the whole module again, so a
    chain of thin steps (Encaps -> K-PKE.Encrypt -> its noise -> the fused
    encryption) optimised the large body at the bottom once per step: about 2 s per
    step here. Run time is the same (LLVM inlined these steps anyway), and an inlined
    function's array arguments skip Numba's reference counting.

    Not for a function with many blocks called from many places: Numba's inliner
    copies the callee's IR block by block at every call site and types it again
    there, which can cost more than compiling it once (the SLH-DSA engine's
    ``_put_adrs`` and ``_new_buf``: 34 s of CPU against 23 s for the engine)."""
    return cast(_F, guard(numba.njit(cache=True, nogil=True, inline="always")(fn)))


@jit_inline
def put(dst: Any, src: Any) -> None:
    """``dst[:] = src`` for two 1-D arrays of one length, as a loop (the arrays must
    not overlap).

    NOTE: for compile time. Numba's assignment of an array to a slice formats its
    shape-mismatch message with string code that every compiling process builds and
    every function using it links and optimises again: 4-5 s of CPU in one warm-up
    part here (docs/decisions.md, "Compile time, third round")."""
    n = src.shape[0]
    if dst.shape[0] != n:
        raise ValueError("put: the arrays differ in length")
    for i in range(n):
        dst[i] = src[i]


def as_polys(a: Any, width: int = 256) -> tuple[npt.NDArray[np.int64], tuple[int, ...]]:
    """``a`` as a C-contiguous int64 (rows, width) array and its leading shape.

    The result may share memory with ``a``; the compiled kernels only read it.
    """
    if type(a) is np.ndarray and a.dtype is _I64 and a.flags.c_contiguous:
        arr = a  # the common case, with as few NumPy calls as possible
    else:
        arr = np.asarray(a)
        if arr.dtype != np.int64:
            if arr.dtype.kind not in "iub":
                raise ValueError(f"expected an integer array, got dtype {arr.dtype}")
            arr = arr.astype(np.int64)
        arr = np.ascontiguousarray(arr)
    shape = arr.shape
    if not shape or shape[-1] != width:
        raise ValueError(f"expected an array of shape (..., {width}), got {shape}")
    lead = shape[:-1]
    return arr.reshape(math.prod(lead), width), lead


def as_bytes(b: Any, width: int | None = None) -> tuple[npt.NDArray[np.uint8], tuple[int, ...]]:
    """``b`` as a C-contiguous uint8 (rows, n) array and its leading shape.

    The result may share memory with ``b`` when that is writable; a read-only input
    (``np.frombuffer`` arrays) is copied, so that the compiled kernels see one array
    type (:func:`kernel_array`); they only read it.
    """
    if type(b) is np.ndarray and b.dtype is _U8 and b.flags.c_contiguous:
        arr = b
    else:
        arr = np.asarray(b)
        if arr.dtype.kind not in "iub":
            raise ValueError(f"expected an integer array, got dtype {arr.dtype}")
        arr = np.ascontiguousarray(arr, dtype=np.uint8)
    arr = kernel_array(arr)
    shape = arr.shape
    if not shape or (width is not None and shape[-1] != width):
        raise ValueError(f"expected a uint8 array of shape (..., {width}), got {shape}")
    lead = shape[:-1]
    return arr.reshape(math.prod(lead), shape[-1]), lead


@lru_cache(maxsize=256)
def bcast_rows(
    lead_a: tuple[int, ...], lead_b: tuple[int, ...]
) -> tuple[tuple[int, ...], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Broadcast two leading shapes: (the result's leading shape, for every result
    row the row of ``a`` and the row of ``b`` it reads). ValueError if they do not
    broadcast. Shapes are public, so the (read-only) index maps are cached."""
    lead = np.broadcast_shapes(lead_a, lead_b)
    rows_a = np.arange(int(np.prod(lead_a, dtype=np.int64)), dtype=np.int64).reshape(lead_a)
    rows_b = np.arange(int(np.prod(lead_b, dtype=np.int64)), dtype=np.int64).reshape(lead_b)
    ia = np.ascontiguousarray(np.broadcast_to(rows_a, lead)).reshape(-1)
    ib = np.ascontiguousarray(np.broadcast_to(rows_b, lead)).reshape(-1)
    return lead, ia, ib


# --- little-endian bit packing, shared by ML-KEM ByteEncode_d / ByteDecode_d and
# --- ML-DSA SimpleBitPack / SimpleBitUnpack (the same layout) ------------------------


@jit
def pack_le(a: Any, width: int) -> Any:
    """(rows, 256) ints -> (rows, 32 width) bytes: coefficient i (its low ``width``
    bits) at bits [i width, i width + width), least significant first. The loop
    shape depends on ``width`` only.

    Up to 15 bits, 8 coefficients are exactly ``width`` bytes: two 64-bit words
    hold 4 coefficients each, combined into the low and high words of the group's
    8 width bits, then written byte by byte (no loop-carried accumulator, so the
    groups are independent: about 10x the speed of the bit-by-bit loop below,
    which wider fields (ML-DSA's z, 18 and 20 bits) keep)."""
    rows = a.shape[0]
    out = np.empty((rows, 32 * width), dtype=np.uint8)
    mask = (1 << width) - 1
    if width <= 15:
        half = 4 * width  # bits of 4 coefficients, <= 60
        for r in range(rows):
            for g in range(32):
                lo_4 = 0
                hi_4 = 0
                for t in range(4):
                    lo_4 |= (a[r, 8 * g + t] & mask) << (width * t)
                    hi_4 |= (a[r, 8 * g + 4 + t] & mask) << (width * t)
                lo = lo_4 | (hi_4 << half)  # bits 0-63 of the group (the top ones drop)
                hi = hi_4 >> (64 - half)  # bits 64 and up
                for b in range(width):
                    if b < 8:  # public positions
                        out[r, width * g + b] = (lo >> (8 * b)) & 255
                    else:
                        out[r, width * g + b] = (hi >> (8 * (b - 8))) & 255
        return out
    for r in range(rows):
        acc = 0
        bits = 0
        o = 0
        for i in range(256):
            acc |= (a[r, i] & mask) << bits
            bits += width
            while bits >= 8:  # depends on width only
                out[r, o] = acc & 255
                o += 1
                acc >>= 8
                bits -= 8
    return out


@jit
def unpack_le(b: Any, width: int) -> Any:
    """The inverse of :func:`pack_le` for ``width`` <= 24: coefficient i is bits
    [i w, i w + w), read as the little-endian 4-byte word at byte (i w) >> 3, shifted
    by (i w) & 7 and masked. Positions are public and the iterations independent
    (vectorisable); each row is copied into a buffer with 3 zero bytes after it for
    the last reads. Up to 15 bits, by groups of 8 coefficients instead (below)."""
    rows, n = b.shape
    out = np.empty((rows, 256), dtype=np.int64)
    mask = (1 << width) - 1
    if width <= 15:
        # As pack_le: each group of ``width`` bytes holds 8 coefficients; bytes 0-6
        # of the group as one 56-bit word (non-negative), the rest as another.
        for r in range(rows):
            for g in range(32):
                base = width * g
                lo = 0
                hi = 0
                for q in range(width):
                    if q < 7:  # public positions
                        lo |= np.int64(b[r, base + q]) << (8 * q)
                    else:
                        hi |= np.int64(b[r, base + q]) << (8 * (q - 7))
                for t in range(8):
                    p = width * t
                    if p + width <= 56:
                        v = lo >> p
                    elif p >= 56:
                        v = hi >> (p - 56)
                    else:
                        v = (lo >> p) | (hi << (56 - p))
                    out[r, 8 * g + t] = v & mask
        return out
    buf = np.zeros(n + 3, dtype=np.int64)
    for r in range(rows):
        for k in range(n):
            buf[k] = b[r, k]
        for i in range(256):
            off = i * width
            k = off >> 3
            word = buf[k] | (buf[k + 1] << 8) | (buf[k + 2] << 16) | (buf[k + 3] << 24)
            out[r, i] = (word >> (off & 7)) & mask
    return out


def check_width(width: int, low: int, high: int, name: str = "bit width") -> None:
    """ValueError unless ``low <= width <= high``."""
    if not low <= width <= high:
        raise ValueError(f"{name} must be in {low}..{high}, got {width}")


def writable_u8(a: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """``a`` if it is a writable C-contiguous uint8 array, else such a copy: the
    batch kernels then compile once per argument type (a read-only or strided
    array would be another specialization)."""
    if a.dtype is _U8 and a.flags.c_contiguous and a.flags.writeable:
        return a
    return np.array(a, dtype=np.uint8, order="C")


# --- one array type at the compiled entries ----------------------------------------------
#
# Numba compiles a function once per argument type, and a read-only array is another
# type than a writable one: every compiled function called with both (the single
# operations got read-only ``np.frombuffer`` bytes and cached states, the batch kernels
# their own writable rows) was compiled, with everything it inlines, twice or more.
# The entries therefore take writable arrays only.


def kernel_bytes(data: bytes) -> npt.NDArray[np.uint8]:
    """``data`` as a writable uint8 array (a copy), for a compiled entry. A hot entry
    takes ``bytes`` itself and copies it with :func:`owned` instead."""
    return np.frombuffer(bytearray(data), dtype=np.uint8)


@jit_inline
def owned(data: Any) -> Any:
    """A compiled entry's ``bytes`` argument as a fresh writable uint8 array, made in
    compiled code: Numba takes ``bytes`` as a read-only buffer (one argument type, so
    one specialization), and the copy skips the NumPy array that
    :func:`kernel_bytes` builds in Python (about 1 us for two arguments, a tenth of
    the Python around an ML-KEM operation)."""
    n = len(data)
    out = np.empty(n, dtype=np.uint8)
    for i in range(n):
        out[i] = data[i]
    return out


def frozen_view(a: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """A read-only view of ``a``, a compiled kernel's result (writable, owning its
    data), for state that is shared (the caches hand these out);
    :func:`kernel_array` turns it back into ``a`` for the compiled entries."""
    view: npt.NDArray[Any] = a.view()
    view.setflags(write=False)
    return view


def kernel_array(a: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """``a`` as a compiled entry takes it: writable. A :func:`frozen_view` gives its
    owner back (no copy; the kernels only read it); any other read-only array is
    copied."""
    if a.flags.writeable:
        return a
    base = a.base
    # Same shape, both C-contiguous: ``a`` covers all of ``base``, from its start.
    if (
        type(base) is np.ndarray
        and base.flags.writeable
        and base.dtype is a.dtype
        and base.shape == a.shape
        and base.flags.c_contiguous
        and a.flags.c_contiguous
    ):
        owner: npt.NDArray[Any] = base
        return owner
    copy: npt.NDArray[Any] = a.copy()
    return copy
