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
    """The bytes as little-endian uint16 values (a new, writable array)."""
    return np.frombuffer(data, dtype="<u2").astype(np.uint16)


def pack(c: U16, logq: int) -> bytes:
    """§6.1.1, Frodo.Pack: the D low bits of every entry, row-major, most
    significant bit first, as one bit string (D * entries / 8 bytes)."""
    values = np.ascontiguousarray(c, dtype=np.uint16).reshape(-1)
    if logq == 16:
        return values.astype(">u2").tobytes()
    bits = np.unpackbits(values.astype(">u2").view(np.uint8)).reshape(-1, 16)
    return np.packbits(bits[:, 16 - logq :].reshape(-1)).tobytes()


def unpack(data: bytes, rows: int, cols: int, logq: int) -> U16:
    """§6.1.2, Frodo.Unpack: the inverse of :func:`pack`, uint16 (rows, cols)."""
    raw = np.frombuffer(data, dtype=np.uint8)
    if logq == 16:
        return raw.view(">u2").astype(np.uint16).reshape(rows, cols)
    bits = np.unpackbits(raw).reshape(-1, logq)
    full = np.zeros((bits.shape[0], 16), dtype=np.uint8)
    full[:, 16 - logq :] = bits
    return np.packbits(full, axis=1).view(">u2").astype(np.uint16).reshape(rows, cols)


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
