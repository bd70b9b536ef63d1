"""LM-OTS one-time signatures (RFC 8554 §4), many chains at a time.

Every hash of LM-OTS is H(I || u32str(q) || u16str(i) || u8str(j) || tmp) over
one chain step, or the D_PBLC / D_MESG hashes of §4.3 / §4.5. :func:`chains` runs
any number of chains between per-chain start and end steps as one batched hash
call per step (:class:`pqkit.stateful.hashing.RowHash`), the way key generation
(every chain of every leaf) and signing (the p chains of one key) need them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.lms.params import LmotsType
from pqkit.stateful.hashing import RowHash

__all__ = [
    "D_MESG",
    "D_PBLC",
    "chains",
    "checksum_digits",
    "private_elements",
    "public_key_hash",
]

D_PBLC = 0x8080
D_MESG = 0x8181

Rows = npt.NDArray[np.uint8]


def u32(values: npt.NDArray[np.int64]) -> Rows:
    """u32str of every value: (count,) -> uint8 (count, 4), big-endian (RFC 8554 §3.1.1)."""
    return np.asarray(values, dtype=">u4").reshape(-1, 1).view(np.uint8).reshape(-1, 4)


def u16(values: npt.NDArray[np.int64]) -> Rows:
    return np.asarray(values, dtype=">u2").reshape(-1, 1).view(np.uint8).reshape(-1, 2)


def _prefix(ident: bytes, q: npt.NDArray[np.int64], i: npt.NDArray[np.int64]) -> Rows:
    """I || u32str(q) || u16str(i) for each row: uint8 (count, 22)."""
    ident_rows = np.broadcast_to(np.frombuffer(ident, dtype=np.uint8), (len(q), 16))
    return np.concatenate([ident_rows, u32(q), u16(i)], axis=1)


def private_elements(
    h: RowHash, ident: bytes, seed: bytes, q: npt.NDArray[np.int64], p: int
) -> Rows:
    """x_q[i] = H(I || u32str(q) || u16str(i) || u8str(0xff) || SEED) for every q and
    i < p, rows q-major: (len(q) p, n) (RFC 8554, Appendix A)."""
    qs = np.repeat(q, p)
    idx = np.tile(np.arange(p, dtype=np.int64), len(q))
    compiled = _compiled_chains(h)
    if compiled is not None and len(seed) == h.n:
        # the same one-block layout as a chain step with j = 0xff on SEED
        seeds = np.broadcast_to(np.frombuffer(seed, dtype=np.uint8), (len(qs), h.n))
        steps = np.full(len(qs), 0xFF, dtype=np.int64)
        out: Rows = compiled(_prefix(ident, qs, idx), seeds, steps, steps + 1)
        return out
    tail = np.frombuffer(b"\xff" + seed, dtype=np.uint8)
    rows = np.concatenate([_prefix(ident, qs, idx), np.broadcast_to(tail, (len(qs), len(tail)))], 1)
    return h(rows)


def compiled(h: RowHash) -> Any | None:
    """The ``jit`` backend's LMS operations for the SHA-256 sets
    (:mod:`pqkit.lms.kernels.jit_ops`: whole chains, whole LM-OTS signatures, whole
    leaves in compiled calls), or None (then the batched hash calls of this module
    run, the reference twin)."""
    backend = getattr(h.kernels, "backend", None)
    if h.function != "sha256" or backend != "jit":
        return None
    from pqkit.arith.ops import operations

    return operations("lms", backend)


def _compiled_chains(h: RowHash) -> Any | None:
    """The whole-chain kernel of :func:`compiled`, or None."""
    ops = compiled(h)
    return None if ops is None else ops.lmots_chains_sha256


def chains(
    h: RowHash,
    ident: bytes,
    q: npt.NDArray[np.int64],
    i: npt.NDArray[np.int64],
    values: Rows,
    begin: npt.NDArray[np.int64],
    end: npt.NDArray[np.int64],
) -> Rows:
    """Each row's chain from step ``begin`` to ``end`` (RFC 8554 §4.4 step 5 /
    §4.6 step 3e): for j = begin .. end - 1, tmp = H(I || u32str(q) || u16str(i) ||
    u8str(j) || tmp). Steps are public (they come from Q and the checksum)."""
    n = values.shape[1]
    buf = np.empty((len(q), 23 + n), dtype=np.uint8)
    buf[:, :22] = _prefix(ident, q, i)
    tmp: Rows = values.copy()
    if len(q) == 0:
        return tmp
    compiled = _compiled_chains(h)
    if compiled is not None:
        out: Rows = compiled(buf[:, :22], values, begin, end)
        return out
    lo, hi = int(begin.min()), int(end.max())
    everyone = bool((begin == lo).all() and (end == hi).all())
    for j in range(lo, hi):
        buf[:, 22] = j
        if everyone:
            buf[:, 23:] = tmp
            tmp = h(buf)
            continue
        active = np.flatnonzero((begin <= j) & (j < end))  # public step counts
        if active.size:
            rows = buf[active]
            rows[:, 23:] = tmp[active]
            tmp[active] = h(rows)
    return tmp


def public_key_hash(h: RowHash, ident: bytes, q: npt.NDArray[np.int64], ends: Rows, p: int) -> Rows:
    """K = H(I || u32str(q) || u16str(D_PBLC) || y[0] || ... || y[p-1]) for each q,
    ``ends`` holding the chain ends q-major (len(q) p, n) (RFC 8554 §4.3 step 5)."""
    count, n = len(q), ends.shape[1]
    head = _prefix(ident, q, np.full(count, D_PBLC, dtype=np.int64))
    return h(np.concatenate([head, ends.reshape(count, p * n)], axis=1))


def checksum_digits(ots: LmotsType, q_hash: bytes) -> npt.NDArray[np.int64]:
    """coef(Q || Cksm(Q), i, w) for i < p (RFC 8554 §4.4 step 5, §4.5 Algorithm 2)."""
    w = ots.w
    bits = np.unpackbits(np.frombuffer(q_hash, dtype=np.uint8))
    digits = bits[: ots.u * w].reshape(ots.u, w) @ (1 << np.arange(w - 1, -1, -1))
    cksm = int(((1 << w) - 1) * ots.u - int(digits.sum())) << ots.ls
    tail = np.unpackbits(np.frombuffer(cksm.to_bytes(2, "big"), dtype=np.uint8))
    extra = tail[: ots.v * w].reshape(ots.v, w) @ (1 << np.arange(w - 1, -1, -1))
    return np.concatenate([digits, extra]).astype(np.int64)
