"""The ``jit`` SLH-DSA engine: whole FIPS 205 structures (XMSS trees, FORS, the
hypertree walk of verification), each one compiled call (Numba), hashing included.

The ``ref`` twin is the batched Python path of :mod:`pqkit.slhdsa` (``wots``,
``xmss``, ``fors``, ``hypertree`` over :class:`pqkit.slhdsa.hashes.Hashes`), which
every backend without this module runs; the differential tests compare the two byte
for byte. One engine serves both instantiations, chosen by ``mode``:

- mode 0, SHAKE (FIPS 205 §11.1): every tweakable hash is SHAKE256(PK.seed || ADRS ||
  M, 8n) with the 32-byte ADRS; each input is padded into its own Keccak lanes.
- mode 1, SHA-2 (§11.2): the 22-byte compressed ADRSc; F and PRF are SHA-256, H and
  T_l SHA-256 for n = 16 and SHA-512 for n = 24, 32. PK.seed || toByte(0, 64 - n)
  (128 - n for SHA-512) is one compression block: its midstate is computed once per
  call and every input starts from it (as the SPHINCS+ reference does).

Every hash is one lane of an 8-lane group (:func:`_hash8`): the SHAKE lanes go
through :func:`pqkit.arith.jit_hash._keccak_x8`, the SHA-2 ones through
``_sha256_x8`` / ``_sha512_x8``. Each lane's padded message lives in a buffer whose
padding depends only on the (public) lengths, written once per structure; the
structure code writes the address (built here by :func:`_put_adrs`, the layout of
:class:`pqkit.slhdsa.adrs.AdrsCodec`) and the payload into the lanes and reads the
n-byte outputs back. The w - 1 steps of a WOTS+ chain run with 8 chains side by
side, the H levels 8 nodes at a time.

Secrets (SK.seed and what is derived from it) only enter hash inputs and outputs:
no branch, index or loop bound depends on them. The branches that exist read public
values only: tree and leaf indices, the FORS indices and WOTS+ digits of the
message digest (all of which the signature reveals), and lengths.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.arith._hash import H256, H512
from pqkit.arith._jit import jit
from pqkit.arith.jit_hash import _load_block, _sha256_x8, _sha512_x8
from pqkit.arith.jit_sponge import _permute

__all__ = ["OPERATIONS", "adrs_bytes"]

SHAKE = 0
SHA2 = 1

# FIPS 205, Table 1: the address types (as in pqkit.slhdsa.adrs).
WOTS_HASH = 0
WOTS_PK = 1
TREE = 2
FORS_TREE = 3
FORS_ROOTS = 4
WOTS_PRF = 5
FORS_PRF = 6

W_MAX = 15
"""w - 1: the steps of a WOTS+ chain (lg_w = 4 in every FIPS 205 set)."""

_H256 = np.array(H256, dtype=np.uint64)
_H512 = np.array(H512, dtype=np.uint64)
_FF = np.uint64(0xFF)
_EIGHT = np.uint64(8)
_RATE = 136  # SHAKE256 (FIPS 202 §6.2)


# --- addresses (FIPS 205 §4.2, §11.2) ----------------------------------------------


@jit
def _adrs_size(mode: int) -> int:
    return 32 if mode == SHAKE else 22


@jit
def _put_word(buf: Any, off: int, x: int) -> None:
    """toByte(x, 4) (FIPS 205, Algorithm 3) at buf[off:]."""
    for k in range(4):
        buf[off + 3 - k] = (x >> (8 * k)) & 0xFF


@jit
def _put_adrs(
    buf: Any, off: int, mode: int, layer: int, tree: Any, type_: int, kp: int, w2: int, w3: int
) -> None:
    """The address at buf[off:]: 32 bytes layer (4) || tree (12) || type (4) || key
    pair || word 2 || word 3 for SHAKE (§4.2); the 22-byte ADRSc = layer (1) || tree
    (8) || type (1) || the last 12 bytes for SHA-2 (§11.2). ``tree`` is a uint64."""
    t = tree
    if mode == SHAKE:
        _put_word(buf, off, layer)
        for k in range(4):
            buf[off + 4 + k] = 0
        for k in range(8):
            buf[off + 15 - k] = t & _FF
            t = t >> _EIGHT
        _put_word(buf, off + 16, type_)
        tail = off + 20
    else:
        buf[off] = layer
        for k in range(8):
            buf[off + 8 - k] = t & _FF
            t = t >> _EIGHT
        buf[off + 9] = type_
        tail = off + 10
    _put_word(buf, tail, kp)
    _put_word(buf, tail + 4, w2)
    _put_word(buf, tail + 8, w3)


@jit
def _adrs_array(mode: int, layer: int, tree: Any, type_: int, kp: int, w2: int, w3: int) -> Any:
    out = np.zeros(_adrs_size(mode), dtype=np.uint8)
    _put_adrs(out, 0, mode, layer, tree, type_, kp, w2, w3)
    return out


def adrs_bytes(
    compressed: bool, layer: int, tree: int, type_: int, keypair: int, word2: int, word3: int
) -> bytes:
    """The compiled address builder's bytes (for the tests against
    :class:`pqkit.slhdsa.adrs.AdrsCodec`, the reference layout)."""
    mode = SHA2 if compressed else SHAKE
    out: npt.NDArray[np.uint8] = _adrs_array(
        mode, layer, np.uint64(tree), type_, keypair, word2, word3
    )
    return out.tobytes()


# --- 8 tweakable hashes at once ------------------------------------------------------


@jit
def _compress(h: Any, w: Any, wide: bool, depth: int) -> None:
    """One SHA-256 (or SHA-512 if ``wide``) compression of 8 states. Recursive on a
    branch never taken (``depth`` = 0) only so that LLVM does not inline the large
    round body at every call site (see :func:`pqkit.arith.jit_sponge._permute`)."""
    if depth > 0:
        _compress(h, w, wide, depth - 1)
        return
    if wide:
        _sha512_x8(h, w)
    else:
        _sha256_x8(h, w)


@jit
def _layout(mode: int, n: int, wide: bool, length: int) -> tuple[int, int]:
    """(span, base) of a lane buffer for inputs ADRS || payload of ``length`` bytes:
    the padded message's bytes per lane, and where the input starts in it (after
    PK.seed for SHAKE; SHA-2 starts from the PK.seed midstate)."""
    if mode == SHAKE:
        return ((n + length) // _RATE + 1) * _RATE, n
    block = 128 if wide else 64
    tail = 16 if wide else 8
    return ((length + tail) // block + 1) * block, 0


@jit
def _new_lanes(mode: int, n: int, wide: bool, length: int, pk_seed: Any) -> Any:
    """8 padded messages for inputs of ``length`` bytes, the input bytes left zero.
    SHAKE: PK.seed || input || 1111 || pad10*1 (FIPS 202 §6.2, §5.1); SHA-2: input ||
    1 || 0* || the bit length of block || input (FIPS 180-4 §5.1)."""
    span, base = _layout(mode, n, wide, length)
    buf = np.zeros(8 * span, dtype=np.uint8)
    block = 128 if wide else 64
    bits = 8 * (block + length)
    for j in range(8):
        o = j * span
        if mode == SHAKE:
            buf[o : o + n] = pk_seed
            buf[o + base + length] = 0x1F
            buf[o + span - 1] ^= 0x80
        else:
            buf[o + length] = 0x80
            for k in range(8):
                buf[o + span - 1 - k] = (bits >> (8 * k)) & 0xFF
    return buf


@jit
def _hash8(
    mode: int, wide: bool, mid: Any, buf: Any, span: int, n: int, st: Any, hh: Any, out: Any
) -> None:
    """out[j] = the n-byte hash of lane j's message in ``buf`` (j = 0..7). ``st``
    (uint64, 704) and ``hh`` (uint64, 64) are scratch; ``mid`` is the SHA-2
    midstate after the PK.seed block."""
    if mode == SHAKE:
        words = buf.view(np.uint64)
        for i in range(200):
            st[i] = 0
        for blk in range(span // _RATE):
            for i in range(_RATE // 8):
                for j in range(8):
                    st[8 * i + j] ^= words[(j * span + blk * _RATE) // 8 + i]
            _permute(st, 0)
        for j in range(8):
            for b in range(n):
                out[j, b] = (st[8 * (b >> 3) + j] >> (8 * (b & 7))) & 0xFF
        return
    block = 128 if wide else 64
    size = 8 if wide else 4
    for i in range(8):
        for j in range(8):
            hh[8 * i + j] = mid[i]
    for blk in range(span // block):
        for j in range(8):
            _load_block(st, buf, j * span + blk * block, j, wide)
        _compress(hh, st, wide, 0)
    for j in range(8):
        for b in range(n):
            x = hh[8 * (b // size) + j]
            out[j, b] = (x >> (8 * (size - 1 - b % size))) & 0xFF


@jit
def _midstate(pk_seed: Any, n: int, wide: bool, st: Any, hh: Any) -> Any:
    """The SHA-256 (SHA-512 if ``wide``) state after PK.seed || toByte(0, block - n)."""
    block = 128 if wide else 64
    buf = np.zeros(8 * block, dtype=np.uint8)
    buf[:n] = pk_seed
    init = _H512 if wide else _H256
    st[:] = 0
    for i in range(8):
        for j in range(8):
            hh[8 * i + j] = init[i]
    _load_block(st, buf, 0, 0, wide)
    _compress(hh, st, wide, 0)
    mid = np.empty(8, dtype=np.uint64)
    for i in range(8):
        mid[i] = hh[8 * i]
    return mid


@jit
def _context(mode: int, n: int, pk_seed: Any) -> tuple[Any, Any, bool, Any, Any]:
    """(midstate of F/PRF, midstate of H/T_l, whether H/T_l is SHA-512, scratch st, hh)."""
    st = np.zeros(704, dtype=np.uint64)
    hh = np.zeros(64, dtype=np.uint64)
    wide = mode == SHA2 and n > 16
    if mode == SHAKE:
        return np.zeros(8, np.uint64), np.zeros(8, np.uint64), wide, st, hh
    return _midstate(pk_seed, n, False, st, hh), _midstate(pk_seed, n, wide, st, hh), wide, st, hh


@jit
def _t_one(
    mode: int, n: int, wide: bool, mid: Any, pk_seed: Any, st: Any, hh: Any,
    layer: int, tree: Any, type_: int, kp: int, w2: int, w3: int, data: Any,
) -> Any:  # fmt: skip
    """One hash of ADRS || data (rows of n bytes, concatenated), in lane 0: T_l, or H
    with two rows. Returns n bytes."""
    a = _adrs_size(mode)
    length = a + data.shape[0] * n
    span, base = _layout(mode, n, wide, length)
    buf = _new_lanes(mode, n, wide, length, pk_seed)
    _put_adrs(buf, base, mode, layer, tree, type_, kp, w2, w3)
    for i in range(data.shape[0]):
        buf[base + a + i * n : base + a + (i + 1) * n] = data[i]
    out = np.empty((8, n), dtype=np.uint8)
    _hash8(mode, wide, mid, buf, span, n, st, hh, out)
    return out[0].copy()


# --- trees ----------------------------------------------------------------------------


@jit
def _levels(
    mode: int, n: int, wide: bool, mid: Any, pk_seed: Any, st: Any, hh: Any,
    nodes: Any, height: int, layer: int, tree: Any, type_: int, kp: int, first: int,
) -> None:  # fmt: skip
    """The levels 1..height of a binary tree whose 2^height leaves are nodes[0 ..]:
    level z is stored after level z - 1 (level z, node i at 2^(height+1) -
    2^(height+1-z) + i). Node i of level z is H(ADRS(height z, index (first <<
    (height - z)) + i), left || right): FIPS 205 Algorithms 9 and 15 lines 7-11
    (first = 0 for XMSS; the FORS tree number for FORS, whose indices are global)."""
    a = _adrs_size(mode)
    span, base = _layout(mode, n, wide, a + 2 * n)
    buf = _new_lanes(mode, n, wide, a + 2 * n, pk_seed)
    out = np.empty((8, n), dtype=np.uint8)
    src = 0
    for z in range(1, height + 1):
        count = 1 << (height - z)
        dst = src + 2 * count
        for g in range(0, count, 8):
            for j in range(8):
                i = min(g + j, count - 1)
                o = j * span + base
                _put_adrs(buf, o, mode, layer, tree, type_, kp, z, (first << (height - z)) + i)
                buf[o + a : o + a + n] = nodes[src + 2 * i]
                buf[o + a + n : o + a + 2 * n] = nodes[src + 2 * i + 1]
            _hash8(mode, wide, mid, buf, span, n, st, hh, out)
            for j in range(min(8, count - g)):
                nodes[dst + g + j] = out[j]
        src = dst


@jit
def _auth(nodes: Any, height: int, idx: int, sig: Any, off: int, n: int) -> None:
    """AUTH (Algorithms 10 and 16): node (idx >> j) xor 1 of each level j < height."""
    level = 0
    for j in range(height):
        pos = level + ((idx >> j) ^ 1)
        sig[off + j * n : off + (j + 1) * n] = nodes[pos]
        level += 1 << (height - j)


@jit
def _digits(m: Any, len1: int, len2: int, out: Any) -> None:
    """FIPS 205, Algorithm 7 lines 1-7 for lg_w = 4: the len1 base-16 digits of m,
    then the len2 digits of the checksum (whose shift on line 5 the base_2^b of line
    6 undoes)."""
    csum = 0
    for i in range(len1):
        byte = np.int64(m[i >> 1])
        digit = (byte >> 4) if (i & 1) == 0 else (byte & 15)
        out[i] = digit
        csum += W_MAX - digit
    for i in range(len2):
        out[len1 + i] = (csum >> (4 * (len2 - 1 - i))) & 15


@jit
def _xmss_tree(
    mode: int, n: int, hp: int, length: int, mids: Any, mid_big: Any, wide: bool,
    pk_seed: Any, sk_seed: Any, st: Any, hh: Any,
    layer: int, tree: Any, leaf: int, digits: Any, sig: Any, off: int, nodes: Any,
) -> None:  # fmt: skip
    """Every node of XMSS tree (layer, tree) into ``nodes`` (see :func:`_levels`):
    FIPS 205 Algorithm 6 (wots_pkGen) for each of the 2^hp leaves, then Algorithm 9
    (xmss_node) level by level. With ``leaf`` >= 0 also Algorithm 10 (xmss_sign) for
    that leaf into sig[off:]: the WOTS+ signature of ``digits`` (Algorithm 7,
    chain(sk_i, 0, digits[i]), read while the chain is walked), then AUTH."""
    a = _adrs_size(mode)
    type_at = a - 13  # low byte of the type word (SHAKE 19, SHA-2 9)
    leaves = 1 << hp
    rows = leaves * length
    span, base = _layout(mode, n, False, a + n)
    buf = _new_lanes(mode, n, False, a + n, pk_seed)
    out = np.empty((8, n), dtype=np.uint8)
    ends = np.empty((rows, n), dtype=np.uint8)
    for g in range(0, rows, 8):
        # Algorithm 6 lines 4-6: sk = PRF(PK.seed, SK.seed, skADRS), skADRS =
        # (WOTS_PRF, key pair, chain i, hash 0); row r is chain r % len of key pair r // len.
        for j in range(8):
            r = min(g + j, rows - 1)
            o = j * span + base
            _put_adrs(buf, o, mode, layer, tree, WOTS_PRF, r // length, r % length, 0)
            buf[o + a : o + a + n] = sk_seed
        _hash8(mode, False, mids, buf, span, n, st, hh, out)
        # Lines 7-8: chain(sk, 0, w - 1) with ADRS (WOTS_HASH, key pair, chain i, hash s).
        for s in range(W_MAX + 1):
            if leaf >= 0:
                for j in range(min(8, rows - g)):
                    r = g + j
                    if r // length == leaf and digits[r % length] == s:
                        q = off + (r % length) * n
                        sig[q : q + n] = out[j]
            if s == W_MAX:
                break
            for j in range(8):
                o = j * span + base
                buf[o + type_at] = WOTS_HASH
                buf[o + a - 1] = s
                buf[o + a : o + a + n] = out[j]
            _hash8(mode, False, mids, buf, span, n, st, hh, out)
        for j in range(min(8, rows - g)):
            ends[g + j] = out[j]
    # Lines 10-13: pk = T_len(PK.seed, wotspkADRS, tmp), wotspkADRS = (WOTS_PK, key pair).
    t_len = a + length * n
    span_t, _ = _layout(mode, n, wide, t_len)
    buf_t = _new_lanes(mode, n, wide, t_len, pk_seed)
    for g in range(0, leaves, 8):
        for j in range(8):
            kp = min(g + j, leaves - 1)
            o = j * span_t + base
            _put_adrs(buf_t, o, mode, layer, tree, WOTS_PK, kp, 0, 0)
            for i in range(length):
                buf_t[o + a + i * n : o + a + (i + 1) * n] = ends[kp * length + i]
        _hash8(mode, wide, mid_big, buf_t, span_t, n, st, hh, out)
        for j in range(min(8, leaves - g)):
            nodes[g + j] = out[j]
    _levels(mode, n, wide, mid_big, pk_seed, st, hh, nodes, hp, layer, tree, TREE, 0, 0)
    if leaf >= 0:
        _auth(nodes, hp, leaf, sig, off + length * n, n)


@jit
def _keygen_root(
    mode: int, n: int, hp: int, d: int, len1: int, len2: int, pk_seed: Any, sk_seed: Any
) -> Any:
    """PK.root: FIPS 205, Algorithm 18 lines 2-3 (xmss_node(SK.seed, 0, h') of the
    top layer d - 1, tree 0)."""
    mids, mid_big, wide, st, hh = _context(mode, n, pk_seed)
    nodes = np.empty(((2 << hp) - 1, n), dtype=np.uint8)
    digits = np.zeros(len1 + len2, dtype=np.int64)
    sig = np.zeros(1, dtype=np.uint8)
    _xmss_tree(
        mode, n, hp, len1 + len2, mids, mid_big, wide, pk_seed, sk_seed, st, hh,
        d - 1, np.uint64(0), -1, digits, sig, 0, nodes,
    )  # fmt: skip
    return nodes[nodes.shape[0] - 1].copy()


@jit
def _sign(
    mode: int, n: int, hp: int, d: int, a_h: int, k: int, len1: int, len2: int,
    pk_seed: Any, sk_seed: Any, trees: Any, leaves: Any, indices: Any,
) -> Any:  # fmt: skip
    """SIG_FORS || SIG_HT: FIPS 205, Algorithm 19 lines 13-17 (fors_sign, the FORS
    public key, ht_sign). ``trees`` / ``leaves`` (d) are the tree address and leaf
    index of each layer (Algorithm 12 lines 1, 6-8; layer 0: idx_tree, idx_leaf),
    ``indices`` (k) the FORS indices of md (Algorithm 16 line 2)."""
    mids, mid_big, wide, st, hh = _context(mode, n, pk_seed)
    length = len1 + len2
    ad = _adrs_size(mode)
    type_at = ad - 13
    fors_bytes = k * (a_h + 1) * n
    sig = np.zeros(fors_bytes + d * (length + hp) * n, dtype=np.uint8)
    tree0 = trees[0]
    kp = leaves[0]
    # Algorithms 14-16 for each of the k FORS trees.
    per = 1 << a_h
    nodes = np.empty(((2 << a_h) - 1, n), dtype=np.uint8)
    roots = np.empty((k, n), dtype=np.uint8)
    span, base = _layout(mode, n, False, ad + n)
    buf = _new_lanes(mode, n, False, ad + n, pk_seed)
    out = np.empty((8, n), dtype=np.uint8)
    for t in range(k):
        pick = indices[t]
        off = t * (a_h + 1) * n
        for g in range(0, per, 8):
            # Algorithm 14: sk = PRF(PK.seed, SK.seed, (FORS_PRF, key pair, 0, index)).
            for j in range(8):
                o = j * span + base
                _put_adrs(buf, o, mode, 0, tree0, FORS_PRF, kp, 0, (t << a_h) + g + j)
                buf[o + ad : o + ad + n] = sk_seed
            _hash8(mode, False, mids, buf, span, n, st, hh, out)
            for j in range(8):
                if g + j == pick:  # Algorithm 16 line 4 (a public index)
                    sig[off : off + n] = out[j]
                # Algorithm 15 lines 2-6: leaf = F(PK.seed, (FORS_TREE, ...), sk).
                o = j * span + base
                buf[o + type_at] = FORS_TREE
                buf[o + ad : o + ad + n] = out[j]
            _hash8(mode, False, mids, buf, span, n, st, hh, out)
            for j in range(8):
                nodes[g + j] = out[j]
        _levels(mode, n, wide, mid_big, pk_seed, st, hh, nodes, a_h, 0, tree0, FORS_TREE, kp, t)
        _auth(nodes, a_h, pick, sig, off + n, n)  # Algorithm 16 lines 5-8
        roots[t] = nodes[nodes.shape[0] - 1]
    # Algorithm 17 lines 21-24 on this signature: PK_FORS = T_k((FORS_ROOTS, key pair), roots).
    msg = _t_one(
        mode, n, wide, mid_big, pk_seed, st, hh, 0, tree0, FORS_ROOTS, kp, 0, 0, roots
    )
    # Algorithm 12 (ht_sign): each layer signs the root of the one below.
    xnodes = np.empty(((2 << hp) - 1, n), dtype=np.uint8)
    digits = np.empty(length, dtype=np.int64)
    for layer in range(d):
        _digits(msg, len1, len2, digits)
        _xmss_tree(
            mode, n, hp, length, mids, mid_big, wide, pk_seed, sk_seed, st, hh,
            layer, trees[layer], leaves[layer], digits, sig,
            fors_bytes + layer * (length + hp) * n, xnodes,
        )  # fmt: skip
        msg = xnodes[xnodes.shape[0] - 1].copy()
    return sig


@jit
def _chains(
    mode: int, n: int, mids: Any, pk_seed: Any, st: Any, hh: Any,
    layer: int, tree: Any, kp: int, length: int, digits: Any, sig: Any, off: int, ends: Any,
) -> None:  # fmt: skip
    """FIPS 205, Algorithm 8 lines 8-10: ends[i] = chain(sig[i], digits[i], w - 1 -
    digits[i]), 8 chains side by side, taken in the order of their (public) digits so
    that the chains of a group start close together."""
    a = _adrs_size(mode)
    span, base = _layout(mode, n, False, a + n)
    buf = _new_lanes(mode, n, False, a + n, pk_seed)
    out = np.empty((8, n), dtype=np.uint8)
    order = np.argsort(digits, kind="mergesort")
    lane = np.empty(8, dtype=np.int64)
    for g in range(0, length, 8):
        for j in range(8):
            i = order[min(g + j, length - 1)]
            lane[j] = i
            o = j * span + base
            _put_adrs(buf, o, mode, layer, tree, WOTS_HASH, kp, i, 0)
            buf[o + a : o + a + n] = sig[off + i * n : off + (i + 1) * n]
        for s in range(digits[lane[0]], W_MAX):
            for j in range(8):
                buf[j * span + base + a - 1] = s
            _hash8(mode, False, mids, buf, span, n, st, hh, out)
            for j in range(8):
                if digits[lane[j]] <= s:  # this chain has started (public digits)
                    o = j * span + base
                    buf[o + a : o + a + n] = out[j]
        for j in range(min(8, length - g)):
            o = j * span + base
            ends[lane[j]] = buf[o + a : o + a + n]


@jit
def _verify_root(
    mode: int, n: int, hp: int, d: int, a_h: int, k: int, len1: int, len2: int,
    pk_seed: Any, trees: Any, leaves: Any, indices: Any, sig: Any,
) -> Any:  # fmt: skip
    """The root that SIG_FORS || SIG_HT (``sig``) implies: FIPS 205, Algorithm 17
    (fors_pkFromSig), then Algorithm 13 (ht_verify) without its final comparison
    (Algorithm 11, xmss_pkFromSig, per layer)."""
    mids, mid_big, wide, st, hh = _context(mode, n, pk_seed)
    length = len1 + len2
    ad = _adrs_size(mode)
    tree0 = trees[0]
    kp = leaves[0]
    stride = (a_h + 1) * n
    # Algorithm 17 lines 3-7: node0 = F((FORS_TREE, key pair, 0, i 2^a + indices[i]), sk).
    span, base = _layout(mode, n, False, ad + n)
    buf = _new_lanes(mode, n, False, ad + n, pk_seed)
    span_h, _ = _layout(mode, n, wide, ad + 2 * n)
    buf_h = _new_lanes(mode, n, wide, ad + 2 * n, pk_seed)
    out = np.empty((8, n), dtype=np.uint8)
    roots = np.empty((k, n), dtype=np.uint8)
    for g in range(0, k, 8):
        for j in range(8):
            t = min(g + j, k - 1)
            o = j * span + base
            _put_adrs(buf, o, mode, 0, tree0, FORS_TREE, kp, 0, (t << a_h) + indices[t])
            buf[o + ad : o + ad + n] = sig[t * stride : t * stride + n]
        _hash8(mode, False, mids, buf, span, n, st, hh, out)
        # Lines 8-19: climb the 8 authentication paths side by side.
        for y in range(a_h):
            for j in range(8):
                t = min(g + j, k - 1)
                o = j * span_h + base
                index = ((t << a_h) + indices[t]) >> (y + 1)
                _put_adrs(buf_h, o, mode, 0, tree0, FORS_TREE, kp, y + 1, index)
                auth = t * stride + (y + 1) * n
                if (indices[t] >> y) & 1 == 0:  # public index bits
                    buf_h[o + ad : o + ad + n] = out[j]
                    buf_h[o + ad + n : o + ad + 2 * n] = sig[auth : auth + n]
                else:
                    buf_h[o + ad : o + ad + n] = sig[auth : auth + n]
                    buf_h[o + ad + n : o + ad + 2 * n] = out[j]
            _hash8(mode, wide, mid_big, buf_h, span_h, n, st, hh, out)
        for j in range(min(8, k - g)):
            roots[g + j] = out[j]
    node = _t_one(mode, n, wide, mid_big, pk_seed, st, hh, 0, tree0, FORS_ROOTS, kp, 0, 0, roots)
    # Algorithm 13: xmss_pkFromSig (Algorithm 11) layer by layer.
    digits = np.empty(length, dtype=np.int64)
    ends = np.empty((length, n), dtype=np.uint8)
    pair = np.empty((2, n), dtype=np.uint8)
    fors_bytes = k * stride
    for layer in range(d):
        off = fors_bytes + layer * (length + hp) * n
        idx = leaves[layer]
        tree = trees[layer]
        _digits(node, len1, len2, digits)
        _chains(mode, n, mids, pk_seed, st, hh, layer, tree, idx, length, digits, sig, off, ends)
        node = _t_one(mode, n, wide, mid_big, pk_seed, st, hh, layer, tree, WOTS_PK, idx, 0, 0, ends)
        for y in range(hp):  # Algorithm 11 lines 6-15
            auth = sig[off + (length + y) * n : off + (length + y + 1) * n]
            if (idx >> y) & 1 == 0:
                pair[0] = node
                pair[1] = auth
            else:
                pair[0] = auth
                pair[1] = node
            node = _t_one(
                mode, n, wide, mid_big, pk_seed, st, hh, layer, tree, TREE, 0, y + 1,
                idx >> (y + 1), pair,
            )  # fmt: skip
    return node


# --- the Python entry points ---------------------------------------------------------


def _u8(data: bytes) -> npt.NDArray[np.uint8]:
    """A writable uint8 copy (read-only arrays would compile a second specialization)."""
    return np.frombuffer(bytearray(data), dtype=np.uint8)


def _shape(params: Any) -> tuple[int, int, int, int]:
    return (SHA2 if params.is_sha2 else SHAKE), params.n, params.len1, params.len2


def slhdsa_keygen_root(params: Any, sk_seed: bytes, pk_seed: bytes) -> bytes:
    """PK.root of (SK.seed, PK.seed) (FIPS 205, Algorithm 18 lines 2-3)."""
    mode, n, len1, len2 = _shape(params)
    root: npt.NDArray[np.uint8] = _keygen_root(
        mode, n, params.hp, params.d, len1, len2, _u8(pk_seed), _u8(sk_seed)
    )
    return root.tobytes()


def _path_arrays(
    trees: list[int], leaves: list[int]
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64]]:
    return np.array(trees, dtype=np.uint64), np.array(leaves, dtype=np.int64)


def slhdsa_sign_trees(
    params: Any,
    sk_seed: bytes,
    pk_seed: bytes,
    indices: list[int],
    trees: list[int],
    leaves: list[int],
) -> bytes:
    """SIG_FORS || SIG_HT of FIPS 205, Algorithm 19 lines 13-17, for the FORS
    ``indices`` of md and the hypertree path (tree address, leaf index per layer)."""
    mode, n, len1, len2 = _shape(params)
    tree_arr, leaf_arr = _path_arrays(trees, leaves)
    sig: npt.NDArray[np.uint8] = _sign(
        mode, n, params.hp, params.d, params.a, params.k, len1, len2,
        _u8(pk_seed), _u8(sk_seed), tree_arr, leaf_arr, np.array(indices, dtype=np.int64),
    )  # fmt: skip
    return sig.tobytes()


def slhdsa_verify_root(
    params: Any,
    pk_seed: bytes,
    sig_fors_ht: bytes,
    indices: list[int],
    trees: list[int],
    leaves: list[int],
) -> bytes:
    """The hypertree root SIG_FORS || SIG_HT implies (FIPS 205, Algorithm 20 lines
    17-18 before the comparison with PK.root)."""
    mode, n, len1, len2 = _shape(params)
    tree_arr, leaf_arr = _path_arrays(trees, leaves)
    root: npt.NDArray[np.uint8] = _verify_root(
        mode, n, params.hp, params.d, params.a, params.k, len1, len2,
        _u8(pk_seed), tree_arr, leaf_arr, np.array(indices, dtype=np.int64), _u8(sig_fors_ht),
    )  # fmt: skip
    return root.tobytes()


OPERATIONS: dict[str, Any] = {
    "slhdsa_keygen_root": slhdsa_keygen_root,
    "slhdsa_sign_trees": slhdsa_sign_trees,
    "slhdsa_verify_root": slhdsa_verify_root,
}
