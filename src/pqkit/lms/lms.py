"""LMS (RFC 8554 §5): the Merkle tree over 2^h LM-OTS keys, its signatures and
their verification.

:class:`LmsTree` is one LMS private key (I, SEED) with the tree nodes signing
needs. The whole tree is computed once (key generation, or the first signature
after loading); the levels at and above ``k = max(0, h - 15)`` are kept (at most
2^16 nodes), the levels below come from the one subtree of 2^k leaves that holds
the current index, recomputed when the index leaves it (RFC 8554 §5.2 leaves the
traversal to the implementation). Leaves are computed in chunks, every chain of a
chunk in one batched hash call per step.
"""

from __future__ import annotations

import hashlib
import hmac
import struct

import numpy as np
import numpy.typing as npt

from pqkit.lms import lmots
from pqkit.lms.params import LMOTS_TYPES, LMS_TYPES, LmotsType, LmsType
from pqkit.stateful.hashing import RowHash
from pqkit.stateful.tree import auth_path

__all__ = ["LmsTree", "lms_hash", "lms_signature_length", "verify_lms"]

D_LEAF = 0x8282
D_INTR = 0x8383
CHUNK_LEAVES = 1 << 10  # leaves per batched call in key generation

Rows = npt.NDArray[np.uint8]


def lms_hash(hash_: str, n: int, kernels: object | None) -> RowHash:
    """H of a parameter set: SHA-256 (truncated to 24 bytes for m = 24, RFC 9858 §2)
    or SHAKE256 with n output bytes."""
    return RowHash("sha256" if hash_ == "SHA256" else "shake256", n, kernels)


def _node_rows(ident: bytes, r: npt.NDArray[np.int64], marker: int, payload: Rows) -> Rows:
    head = np.concatenate(
        [
            np.broadcast_to(np.frombuffer(ident, dtype=np.uint8), (len(r), 16)),
            lmots.u32(r),
            lmots.u16(np.full(len(r), marker, dtype=np.int64)),
        ],
        axis=1,
    )
    return np.concatenate([head, payload], axis=1)


def leaves(
    h: RowHash, lms: LmsType, ots: LmotsType, ident: bytes, seed: bytes, lo: int, count: int
) -> Rows:
    """T[2^h + q] for q in lo .. lo + count - 1 (RFC 8554 §5.3, Algorithm 4's leaves
    from the LM-OTS public keys of §4.3 with the private keys of Appendix A)."""
    fast = lmots.compiled(h)
    if fast is not None:  # one compiled call: chains, public keys and leaf hashes
        out: Rows = fast.lms_leaves_sha256(fast.key_words(ident, seed), lms.h, ots, lo, count)
        return out
    p, top = ots.p, (1 << ots.w) - 1
    q = np.arange(lo, lo + count, dtype=np.int64)
    x = lmots.private_elements(h, ident, seed, q, p)
    qs, idx = np.repeat(q, p), np.tile(np.arange(p, dtype=np.int64), count)
    zeros = np.zeros(len(qs), dtype=np.int64)
    ends = lmots.chains(h, ident, qs, idx, x, zeros, zeros + top)
    k = lmots.public_key_hash(h, ident, q, ends, p)
    return h(_node_rows(ident, q + (1 << lms.h), D_LEAF, k))


def parents(h: RowHash, ident: bytes, level_nodes: Rows, first_r: int) -> Rows:
    """The next level up: T[r] = H(I || u32str(r) || u16str(D_INTR) || T[2r] ||
    T[2r+1]) (§5.3), for children T[first_r ..] (first_r even)."""
    count = level_nodes.shape[0] // 2
    r = np.arange(first_r // 2, first_r // 2 + count, dtype=np.int64)
    pairs = level_nodes.reshape(count, 2 * level_nodes.shape[1])
    return h(_node_rows(ident, r, D_INTR, pairs))


def subtree_levels(
    h: RowHash, lms: LmsType, ots: LmotsType, ident: bytes, seed: bytes, lo: int, height: int
) -> list[Rows]:
    """Every level of the subtree of 2^height leaves starting at leaf ``lo``: level
    0 the leaves, level ``height`` its root (one node)."""
    out = [leaves(h, lms, ots, ident, seed, lo, 1 << height)]
    for level in range(height):
        first_r = ((1 << lms.h) + lo) >> level
        out.append(parents(h, ident, out[-1], first_r))
    return out


class LmsTree:
    """One LMS private key (I, SEED) and the nodes signing needs (see the module)."""

    def __init__(self, lms: LmsType, ots: LmotsType, ident: bytes, seed: bytes, h: RowHash):
        self.lms, self.ots, self.ident, self.seed, self.hash = lms, ots, ident, seed, h
        self.k = max(0, lms.h - 15)
        self._top: list[Rows] | None = None  # levels k .. h, level l: (2^(h-l), n)
        self._bottom: tuple[int, list[Rows]] | None = None
        self._heap: Rows | None = None  # every node, T[r] at row r (compiled path, k = 0)
        self._fast = lmots.compiled(h)  # the jit kernels (SHA-256 sets) or None
        self._key = None if self._fast is None else self._fast.key_words(ident, seed)

    def _build(self) -> list[Rows]:
        lms, k = self.lms, self.k
        chunk = max(1 << k, min(CHUNK_LEAVES, 1 << lms.h))
        height = chunk.bit_length() - 1
        top: list[list[Rows]] = [[] for _ in range(k, height + 1)]
        for lo in range(0, 1 << lms.h, chunk):
            levels = subtree_levels(self.hash, lms, self.ots, self.ident, self.seed, lo, height)
            for level in range(k, height + 1):
                top[level - k].append(levels[level])
        out = [np.concatenate(parts) for parts in top]
        for level in range(height, lms.h):
            out.append(parents(self.hash, self.ident, out[-1], (1 << lms.h) >> level))
        return out

    def top(self) -> list[Rows]:
        if self._top is None:
            self._top = self._build()
        return self._top

    def heap(self) -> Rows:
        """Every node of the tree, T[r] at row r (row 0 unused): for k = 0, where
        top() holds every level."""
        if self._heap is None:
            self._heap = np.concatenate([self.top()[0][:1], *reversed(self.top())])
        return self._heap

    def root(self) -> bytes:
        return bytes(self.top()[-1][0].tobytes())

    def public_key(self) -> bytes:
        """u32str(type) || u32str(otstype) || I || T[1] (RFC 8554 §5.3)."""
        return struct.pack(">II", self.lms.code, self.ots.code) + self.ident + self.root()

    def auth_path(self, q: int) -> bytes:
        """path[i] = T[(2^h + q) / 2^i xor 1] for i < h (§5.4.1 step 3)."""
        top, k = self.top(), self.k
        base = (q >> k) << k
        if k and (self._bottom is None or self._bottom[0] != base):
            levels = subtree_levels(self.hash, self.lms, self.ots, self.ident, self.seed, base, k)
            self._bottom = (base, levels)
        bottom = self._bottom[1] if self._bottom is not None else []
        return auth_path(top, bottom, base, k, self.lms.h, q)

    def sign(self, q: int, message: bytes, c: bytes) -> bytes:
        """u32str(q) || lmots_signature || u32str(type) || path (RFC 8554 §5.4.1),
        the LM-OTS signature of §4.5 with randomizer ``c`` (n bytes)."""
        ots, ident = self.ots, self.ident
        if self._fast is not None:
            # §4.5 step 3 on hashlib's SHA-256 (one message: nothing to batch), then
            # steps 4-5 with the private elements in one compiled call
            data = ident + struct.pack(">IH", q, lmots.D_MESG) + c + message
            q_hash = hashlib.sha256(data).digest()[: ots.n]
            if self.k == 0:  # the auth path too, from the tree in heap order
                signed: bytes = self._fast.lmots_sign_sha256(
                    self._key, q, q_hash, ots, self.heap(), self.lms
                )
                return struct.pack(">II", q, ots.code) + c + signed
            y: bytes = self._fast.lmots_sign_sha256(self._key, q, q_hash, ots)
        else:
            y = self._ots_sign(q, message, c)
        ots_sig = struct.pack(">I", ots.code) + c + y
        return struct.pack(">I", q) + ots_sig + struct.pack(">I", self.lms.code) + self.auth_path(q)

    def _ots_sign(self, q: int, message: bytes, c: bytes) -> bytes:
        """y[0] || ... || y[p-1] on the batched hash kernels (RFC 8554 §4.5 steps
        3-5), the reference twin of the compiled ``lmots_sign_sha256``."""
        h, ots, ident = self.hash, self.ots, self.ident
        qa = np.array([q], dtype=np.int64)
        q_hash = h(_message_rows(ident, q, c, message))[0].tobytes()
        digits = lmots.checksum_digits(ots, q_hash)
        x = lmots.private_elements(h, ident, self.seed, qa, ots.p)
        zeros = np.zeros(ots.p, dtype=np.int64)
        y = lmots.chains(h, ident, np.repeat(qa, ots.p), np.arange(ots.p), x, zeros, digits)
        return bytes(y.tobytes())


def _message_rows(ident: bytes, q: int, c: bytes, message: bytes) -> Rows:
    """I || u32str(q) || u16str(D_MESG) || C || message (§4.5 step 3, §4.6 step 3b)."""
    data = ident + struct.pack(">IH", q, lmots.D_MESG) + c + message
    return np.frombuffer(data, dtype=np.uint8).reshape(1, -1)


def lms_signature_length(signature: bytes, offset: int) -> int | None:
    """The length of the LMS signature at ``offset`` read from its type fields
    (RFC 8554 §5.4.2 steps 2b-2i), None if the types are unknown or it overruns."""
    if len(signature) < offset + 8:
        return None
    ots = LMOTS_TYPES.get(struct.unpack_from(">I", signature, offset + 4)[0])
    if ots is None:
        return None
    at = offset + 4 + ots.length_signature
    if len(signature) < at + 4:
        return None
    lms = LMS_TYPES.get(struct.unpack_from(">I", signature, at)[0])
    if lms is None:
        return None
    total = at + 4 + lms.h * lms.m - offset
    return total if len(signature) >= offset + total else None


def verify_lms(public_key: bytes, message: bytes, signature: bytes, kernels: object | None) -> bool:
    """RFC 8554 §5.4.2 (Algorithm 6 and 6a): False for any malformed input."""
    if len(public_key) < 8:
        return False
    pk_lms, pk_ots = struct.unpack_from(">II", public_key)
    lms, ots = LMS_TYPES.get(pk_lms), LMOTS_TYPES.get(pk_ots)
    if lms is None or ots is None or ots.hash != lms.hash or ots.n != lms.m:
        return False
    if len(public_key) != 24 + lms.m or len(signature) < 8:
        return False
    ident, root = public_key[8:24], public_key[24:]
    q, sig_ots = struct.unpack_from(">II", signature)
    if sig_ots != pk_ots or len(signature) != 8 + ots.length_signature + lms.h * lms.m:
        return False
    at = 4 + ots.length_signature
    if struct.unpack_from(">I", signature, at)[0] != pk_lms or q >= (1 << lms.h):
        return False
    n = ots.n
    h = lms_hash(lms.hash, n, kernels)
    c = signature[8 : 8 + n]
    y = np.frombuffer(signature[8 + n : at], dtype=np.uint8).reshape(ots.p, n)
    # §4.6 Algorithm 4b: the candidate public key
    q_hash = h(_message_rows(ident, q, c, message))[0].tobytes()
    digits = lmots.checksum_digits(ots, q_hash)
    qs = np.full(ots.p, q, dtype=np.int64)
    z = lmots.chains(
        h,
        ident,
        qs,
        np.arange(ots.p, dtype=np.int64),
        y,
        digits,
        np.full(ots.p, (1 << ots.w) - 1, dtype=np.int64),
    )
    kc = lmots.public_key_hash(h, ident, qs[:1], z, ots.p)
    node = (1 << lms.h) + q
    tmp = h(_node_rows(ident, np.array([node], dtype=np.int64), D_LEAF, kc))
    path = np.frombuffer(signature[at + 4 :], dtype=np.uint8).reshape(lms.h, n)
    for i in range(lms.h):
        pair = [path[i : i + 1], tmp] if node & 1 else [tmp, path[i : i + 1]]
        node >>= 1
        tmp = h(
            _node_rows(ident, np.array([node], dtype=np.int64), D_INTR, np.concatenate(pair, 1))
        )
    return hmac.compare_digest(tmp[0].tobytes(), root)
