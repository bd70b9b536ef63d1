"""XMSS and XMSS^MT (RFC 8391 §3-§4), many hashes at a time.

Every hash is ``func(toByte(X, padding) || KEY || M)`` truncated to n bytes
(§5.1; SP 800-208 §5 for the 4-byte padding of the 192-bit sets), computed over
whole batches of rows by :class:`pqkit.stateful.hashing.RowHash`. Addresses
(§2.5) are built as uint8 (count, 32) arrays. The WOTS+ private keys follow the
reference implementation's seed expansion (SP 800-208 §5: PRF_keygen(SK_SEED,
PUB_SEED || ADRS) with padding value 4), which the shared vector files use.

:class:`XmssTree` is one tree of one layer; its nodes are kept whole when it has
at most 2^16 leaves, else the levels at and above h - 15 with the current subtree
of 2^(h-16)... leaves recomputed when the index leaves it (as LMS, pqkit.lms.lms).
"""

from __future__ import annotations

import hmac
from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.stateful.hashing import RowHash
from pqkit.stateful.tree import auth_path
from pqkit.xmss.params import XmssParams

__all__ = ["Xmss", "XmssTree"]

Rows = npt.NDArray[np.uint8]
Ints = npt.NDArray[np.int64]
CHUNK_LEAVES = 1 << 8

F_PAD, H_PAD, HMSG_PAD, PRF_PAD, PRF_KEYGEN_PAD = 0, 1, 2, 3, 4
OTS, LTREE, HASHTREE = 0, 1, 2


def _col(value: Ints | int, count: int) -> Ints:
    return np.broadcast_to(np.asarray(value, dtype=np.int64), (count,))


def addresses(
    count: int,
    layer: Ints | int,
    tree: Ints | int,
    kind: int,
    w4: Ints | int,
    w5: Ints | int,
    w6: Ints | int,
    w7: Ints | int,
) -> Rows:
    """ADRS (RFC 8391 §2.5) of every row: layer, tree (64 bits), type, then the
    type's three words and keyAndMask; uint8 (count, 32), big-endian words."""
    words = np.empty((count, 8), dtype=">u4")
    tree64 = _col(tree, count).astype(np.uint64)
    words[:, 0] = _col(layer, count)
    words[:, 1] = (tree64 >> np.uint64(32)).astype(np.uint32)
    words[:, 2] = (tree64 & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    words[:, 3] = kind
    words[:, 4], words[:, 5] = _col(w4, count), _col(w5, count)
    words[:, 6], words[:, 7] = _col(w6, count), _col(w7, count)
    return words.view(np.uint8).reshape(count, 32)


def _compiled_chains(params: XmssParams, kernels: object | None) -> Any | None:
    """The ``jit`` backend's whole-chain kernel for the SHA-256 sets (every step of
    every chain in one compiled call, :mod:`pqkit.xmss.kernels.jit_ops`), or None
    (then a batched hash call per step runs, the reference twin)."""
    if params.func != "sha256" or getattr(kernels, "backend", None) != "jit":
        return None
    from pqkit.arith.ops import operations

    ops = operations("xmss", "jit")
    return None if ops is None else ops.xmss_chains_sha256


class Xmss:
    """The hash functions of one parameter set (RFC 8391 §5.1) bound to PUB_SEED."""

    def __init__(self, params: XmssParams, pub_seed: bytes, kernels: object | None) -> None:
        self.p = params
        self.pub_seed = np.frombuffer(pub_seed, dtype=np.uint8)
        self.hash = RowHash(params.func, params.n, kernels)
        self._compiled = _compiled_chains(params, kernels)

    def _h(self, pad: int, key: Rows, message: Rows) -> Rows:
        count = key.shape[0]
        head = np.zeros((count, self.p.padding), dtype=np.uint8)
        head[:, -1] = pad
        return self.hash(np.concatenate([head, key, message], axis=1))

    def _tobyte(self, pad: int) -> bytes:
        return bytes(self.p.padding - 1) + bytes([pad])

    def _seed_rows(self, count: int) -> Rows:
        return np.broadcast_to(self.pub_seed, (count, self.p.n))

    def prf(self, addr: Rows) -> Rows:
        """PRF(PUB_SEED, ADRS) (§5.1): the keys and bitmasks of F and H; the common
        toByte(3) || PUB_SEED goes to the kernel as a prefix (compressed once)."""
        return self.hash(addr, self._tobyte(PRF_PAD) + self.pub_seed.tobytes())

    def _with_mask(self, addr: Rows, km: int) -> Rows:
        out: Rows = addr.copy()
        out[:, 28:] = np.array([0, 0, 0, km], dtype=np.uint8)
        return out

    def f(self, addr: Rows, x: Rows) -> Rows:
        """F with the key and bitmask of ``addr`` (§3.1.2, chain step)."""
        key = self.prf(self._with_mask(addr, 0))
        mask = self.prf(self._with_mask(addr, 1))
        return self._h(F_PAD, key, x ^ mask)

    def rand_hash(self, addr: Rows, left: Rows, right: Rows) -> Rows:
        """RAND_HASH (§4.1.4, Algorithm 7)."""
        key = self.prf(self._with_mask(addr, 0))
        bm0 = self.prf(self._with_mask(addr, 1))
        bm1 = self.prf(self._with_mask(addr, 2))
        return self._h(H_PAD, key, np.concatenate([left ^ bm0, right ^ bm1], axis=1))

    def prf_keygen(self, sk_seed: bytes, addr: Rows) -> Rows:
        """The WOTS+ private elements: H(toByte(4, pad) || SK_SEED || PUB_SEED || ADRS)."""
        rows = np.concatenate([self._seed_rows(addr.shape[0]), addr], 1)
        return self.hash(rows, self._tobyte(PRF_KEYGEN_PAD) + sk_seed)

    def prf_bytes(self, key: bytes, message: bytes) -> bytes:
        """PRF(KEY, M) on one input (the randomizer r, §4.1.9)."""
        k = np.frombuffer(key, dtype=np.uint8).reshape(1, -1)
        m = np.frombuffer(message, dtype=np.uint8).reshape(1, -1)
        return bytes(self._h(PRF_PAD, k, m)[0].tobytes())

    def h_msg(self, key: bytes, message: bytes) -> bytes:
        """H_msg(KEY, M) (§5.1), KEY = r || root || toByte(idx, n)."""
        k = np.frombuffer(key, dtype=np.uint8).reshape(1, -1)
        m = np.frombuffer(message, dtype=np.uint8).reshape(1, -1)
        return bytes(self._h(HMSG_PAD, k, m)[0].tobytes())

    # --- WOTS+ (§3.1) -------------------------------------------------------------------

    def chains(
        self, layer: Ints, tree: Ints, leaf: Ints, chain: Ints, x: Rows, begin: Ints, end: Ints
    ) -> Rows:
        """chain(X, begin, end - begin, ADRS) of every row (Algorithm 2); step counts public."""
        tmp: Rows = x.copy()
        if len(chain) == 0:
            return tmp
        if self._compiled is not None:
            addr = addresses(len(chain), layer, tree, OTS, leaf, chain, 0, 0)
            out: Rows = self._compiled(self.pub_seed.tobytes(), self.p.padding, addr, x, begin, end)
            return out
        lo, hi = int(begin.min()), int(end.max())
        for j in range(lo, hi):
            active = np.flatnonzero((begin <= j) & (j < end))
            if active.size == 0:
                continue
            addr = addresses(
                active.size, layer[active], tree[active], OTS, leaf[active], chain[active], j, 0
            )
            tmp[active] = self.f(addr, tmp[active])
        return tmp

    def digits(self, message: bytes) -> Ints:
        """base_w(M, w, len1) || base_w(csum, w, len2) (Algorithm 5 lines 1-10)."""
        p = self.p
        m = np.frombuffer(message, dtype=np.uint8).astype(np.int64)
        msg = np.stack([m >> 4, m & 15], axis=1).reshape(-1)[: p.len1]
        csum = int(((p.w - 1) - msg).sum()) << (8 - (p.len2 * 4) % 8)
        c = np.frombuffer(csum.to_bytes((p.len2 * 4 + 7) // 8, "big"), dtype=np.uint8)
        cd = np.stack([c.astype(np.int64) >> 4, c.astype(np.int64) & 15], 1).reshape(-1)
        return np.concatenate([msg, cd[: p.len2]])

    def wots_sk(self, sk_seed: bytes, layer: int, tree: int, leaves: Ints) -> Rows:
        """Private elements of the WOTS+ keys of ``leaves``: (count len, n), leaf-major."""
        ln = self.p.len
        leaf = np.repeat(leaves, ln)
        chain = np.tile(np.arange(ln, dtype=np.int64), len(leaves))
        return self.prf_keygen(sk_seed, addresses(len(leaf), layer, tree, OTS, leaf, chain, 0, 0))

    def ltree(self, layer: int, tree: int, leaves: Ints, pk: Rows) -> Rows:
        """Algorithm 8 (ltree) for every leaf: pk (count, len, n) -> (count, n)."""
        count, length = pk.shape[0], pk.shape[1]
        height = 0
        while length > 1:
            half = length // 2
            left = pk[:, 0 : 2 * half : 2].reshape(-1, self.p.n)
            right = pk[:, 1 : 2 * half : 2].reshape(-1, self.p.n)
            idx = np.tile(np.arange(half, dtype=np.int64), count)
            addr = addresses(
                count * half, layer, tree, LTREE, np.repeat(leaves, half), height, idx, 0
            )
            merged = self.rand_hash(addr, left, right).reshape(count, half, self.p.n)
            if length % 2:
                merged = np.concatenate([merged, pk[:, length - 1 : length]], axis=1)
            pk, length, height = merged, merged.shape[1], height + 1
        return np.ascontiguousarray(pk[:, 0])

    def leaves(self, sk_seed: bytes, layer: int, tree: int, lo: int, count: int) -> Rows:
        """The leaves lo .. lo + count - 1 of one tree (Algorithm 9's ltree(pk))."""
        ln, top = self.p.len, self.p.w - 1
        leaves = np.arange(lo, lo + count, dtype=np.int64)
        x = self.wots_sk(sk_seed, layer, tree, leaves)
        rows = count * ln
        pk = self.chains(
            _col(layer, rows).copy(),
            _col(tree, rows).copy(),
            np.repeat(leaves, ln),
            np.tile(np.arange(ln, dtype=np.int64), count),
            x,
            np.zeros(rows, dtype=np.int64),
            np.full(rows, top, dtype=np.int64),
        )
        return self.ltree(layer, tree, leaves, pk.reshape(count, ln, self.p.n))

    def parents(self, layer: int, tree: int, nodes: Rows, height: int, first: int) -> Rows:
        """Nodes of level height + 1 from level ``height`` nodes first, first + 1, ..."""
        count = nodes.shape[0] // 2
        idx = np.arange(first // 2, first // 2 + count, dtype=np.int64)
        addr = addresses(count, layer, tree, HASHTREE, 0, height, idx, 0)
        return self.rand_hash(addr, nodes[0::2], nodes[1::2])

    def wots_sign(self, sk_seed: bytes, layer: int, tree: int, leaf: int, message: bytes) -> Rows:
        ln = self.p.len
        x = self.wots_sk(sk_seed, layer, tree, np.array([leaf], dtype=np.int64))
        digits = self.digits(message)
        return self.chains(
            np.full(ln, layer),
            np.full(ln, tree),
            np.full(ln, leaf),
            np.arange(ln, dtype=np.int64),
            x,
            np.zeros(ln, dtype=np.int64),
            digits,
        )

    def root_from_sig(
        self, layer: int, tree: int, leaf: int, message: bytes, sig: Rows, auth: Rows
    ) -> Rows:
        """Algorithms 6 and 13 lines 4-15: the root a WOTS+ signature and its
        authentication path lead to."""
        ln = self.p.len
        digits = self.digits(message)
        pk = self.chains(
            np.full(ln, layer),
            np.full(ln, tree),
            np.full(ln, leaf),
            np.arange(ln, dtype=np.int64),
            sig,
            digits,
            np.full(ln, self.p.w - 1),
        )
        node = self.ltree(layer, tree, np.array([leaf], dtype=np.int64), pk.reshape(1, ln, -1))
        for k in range(auth.shape[0]):
            addr = addresses(1, layer, tree, HASHTREE, 0, k, leaf >> (k + 1), 0)
            pair = (auth[k : k + 1], node) if (leaf >> k) & 1 else (node, auth[k : k + 1])
            node = self.rand_hash(addr, *pair)
        return node


class XmssTree:
    """One tree (layer, tree index) of a key: its nodes for signing (module doc)."""

    def __init__(self, x: Xmss, sk_seed: bytes, layer: int, tree: int) -> None:
        self.x, self.sk_seed, self.layer, self.tree = x, sk_seed, layer, tree
        self.h = x.p.tree_height
        self.k = max(0, self.h - 15)
        self._top: list[Rows] | None = None
        self._bottom: tuple[int, list[Rows]] | None = None

    def _subtree(self, lo: int, height: int) -> list[Rows]:
        out = [self.x.leaves(self.sk_seed, self.layer, self.tree, lo, 1 << height)]
        for level in range(height):
            out.append(self.x.parents(self.layer, self.tree, out[-1], level, lo >> level))
        return out

    def top(self) -> list[Rows]:
        if self._top is None:
            chunk = max(1 << self.k, min(CHUNK_LEAVES, 1 << self.h))
            height = chunk.bit_length() - 1
            parts: list[list[Rows]] = [[] for _ in range(self.k, height + 1)]
            for lo in range(0, 1 << self.h, chunk):
                levels = self._subtree(lo, height)
                for level in range(self.k, height + 1):
                    parts[level - self.k].append(levels[level])
            top = [np.concatenate(p) for p in parts]
            for level in range(height, self.h):
                top.append(self.x.parents(self.layer, self.tree, top[-1], level, 0))
            self._top = top
        return self._top

    def root(self) -> bytes:
        return bytes(self.top()[-1][0].tobytes())

    def auth_path(self, leaf: int) -> bytes:
        top, k = self.top(), self.k
        base = (leaf >> k) << k
        if k and (self._bottom is None or self._bottom[0] != base):
            self._bottom = (base, self._subtree(base, k))
        bottom = self._bottom[1] if self._bottom is not None else []
        return auth_path(top, bottom, base, k, self.h, leaf)

    def sign(self, leaf: int, message: bytes) -> bytes:
        """WOTS+ signature of ``message`` with ``leaf`` || the authentication path."""
        sig = self.x.wots_sign(self.sk_seed, self.layer, self.tree, leaf, message)
        return sig.tobytes() + self.auth_path(leaf)


def verify(
    params: XmssParams, public_key: bytes, message: bytes, signature: bytes, kernels: object | None
) -> bool:
    """XMSS_verify / XMSSMT_verify (RFC 8391 Algorithms 14 and 17)."""
    p, n = params, params.n
    if len(public_key) != p.length_public_key or len(signature) != p.length_signature:
        return False
    if int.from_bytes(public_key[:4], "big") != p.oid:
        return False
    root, pub_seed = public_key[4 : 4 + n], public_key[4 + n :]
    x = Xmss(p, pub_seed, kernels)
    ib = p.index_bytes
    idx = int.from_bytes(signature[:ib], "big")
    if idx >= (1 << p.h):
        return False
    r = signature[ib : ib + n]
    node = x.h_msg(r + root + idx.to_bytes(n, "big"), message)
    at, th, ln = ib + n, p.tree_height, p.len
    for layer in range(p.d):
        leaf, tree = idx & ((1 << th) - 1), idx >> th
        sig = np.frombuffer(signature[at : at + ln * n], dtype=np.uint8).reshape(ln, n)
        auth = np.frombuffer(signature[at + ln * n : at + (ln + th) * n], dtype=np.uint8)
        node = x.root_from_sig(layer, tree, leaf, node, sig, auth.reshape(th, n))[0].tobytes()
        at += (ln + th) * n
        idx = tree
    return hmac.compare_digest(node, root)
