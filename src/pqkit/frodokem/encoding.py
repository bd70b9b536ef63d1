"""FrodoKEM's encodings (draft-longa-cfrg-frodokem §6.1-6.2): Frodo.Pack and
Frodo.Unpack of matrices mod q, Frodo.Encode / Frodo.Decode of mu, and the 16-bit
little-endian byte form of S^T and of the sampler's input. NumPy, vectorised: no
branch or lookup on the values (mu and S^T are secret)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["decode", "encode", "le16", "pack", "unpack"]

U16 = npt.NDArray[np.uint16]


def le16(data: bytes) -> U16:
    """The bytes as little-endian uint16 values: a read-only view of ``data`` where
    the machine is little-endian (no copy: A is 0.8-3.6 MB), else a new array."""
    view: U16 = np.frombuffer(data, dtype="<u2")
    if view.dtype == np.dtype(np.uint16):
        return view
    native: U16 = view.astype(np.uint16)
    return native


_SHIFTS_15 = np.array([49, 34, 19, 4], dtype=np.uint64)
"""D = 15: eight values fill 120 bits, read as a big-endian 64-bit word (bits 0-63,
values 0-3 and the top of value 4) and the 64-bit word of bytes 7-14 (bits 56-119,
values 4-7); these shift values 0-3 (and 4-7 in the second word) into place."""


def pack(c: U16, logq: int) -> bytes:
    """§6.1.1, Frodo.Pack: the D low bits of every entry, row-major, most
    significant bit first, as one bit string (D * entries / 8 bytes; the entry
    count is a multiple of 8)."""
    values = np.ascontiguousarray(c, dtype=np.uint16).reshape(-1)
    if logq == 16:
        return values.astype(">u2").tobytes()
    v = (values & np.uint16(0x7FFF)).astype(np.uint64).reshape(-1, 8)
    hi = (v[:, :4] << _SHIFTS_15).sum(axis=1, dtype=np.uint64) | (v[:, 4] >> np.uint64(11))
    lo = (v[:, 4:] << (_SHIFTS_15 - np.uint64(4))).sum(axis=1, dtype=np.uint64)
    out = np.empty((v.shape[0], 15), dtype=np.uint8)
    out[:, :8] = hi.astype(">u8").view(np.uint8).reshape(-1, 8)
    out[:, 8:] = lo.astype(">u8").view(np.uint8).reshape(-1, 8)[:, 1:8]
    return out.tobytes()


def unpack(data: bytes, rows: int, cols: int, logq: int) -> U16:
    """§6.1.2, Frodo.Unpack: the inverse of :func:`pack`, uint16 (rows, cols)."""
    raw = np.frombuffer(data, dtype=np.uint8)
    if logq == 16:
        return raw.view(">u2").astype(np.uint16).reshape(rows, cols)
    groups = raw.reshape(-1, 15)
    hi = np.ascontiguousarray(groups[:, :8]).view(">u8").astype(np.uint64)
    lo = np.ascontiguousarray(groups[:, 7:]).view(">u8").astype(np.uint64)
    out = np.empty((groups.shape[0], 8), dtype=np.uint64)
    out[:, :4] = hi >> _SHIFTS_15
    out[:, 4:] = lo >> (_SHIFTS_15 - np.uint64(4))
    values: U16 = (out & np.uint64(0x7FFF)).astype(np.uint16)
    return values.reshape(rows, cols)


def encode(mu: bytes, b: int, logq: int, nbar: int) -> U16:
    """§6.2.1 (Frodo.Encode): entry k of the nbar x nbar matrix (row-major) is the
    k-th B-bit piece of mu (bits taken least significant first) times q / 2^B."""
    bits = np.unpackbits(np.frombuffer(mu, dtype=np.uint8), bitorder="little")
    pieces = bits.reshape(nbar * nbar, b).astype(np.uint16)
    weights = (np.uint16(1) << np.arange(b, dtype=np.uint16)).astype(np.uint16)
    values = (pieces * weights).sum(axis=1, dtype=np.uint16)
    out: U16 = (values << np.uint16(logq - b)).astype(np.uint16)
    return out.reshape(nbar, nbar)


def decode(m: U16, b: int, logq: int) -> bytes:
    """§6.2.1 (Frodo.Decode): each entry rounded to its nearest multiple of
    q / 2^B, those B-bit pieces joined as in :func:`encode`."""
    q_mask = np.uint16((1 << logq) - 1)
    v = np.asarray(m, dtype=np.uint16).reshape(-1) & q_mask
    rounded = ((v.astype(np.uint32) + (1 << (logq - b - 1))) >> (logq - b)) & ((1 << b) - 1)
    shifts = np.arange(b, dtype=np.uint32)
    bits = ((rounded[:, None] >> shifts) & 1).astype(np.uint8)
    return np.packbits(bits.reshape(-1), bitorder="little").tobytes()
