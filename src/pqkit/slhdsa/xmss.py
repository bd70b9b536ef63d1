"""XMSS (FIPS 205 §6): whole trees at a time.

:func:`xmss_trees` computes every node of one or more XMSS trees level by level
(FIPS 205, Algorithm 9 (xmss_node) for all nodes, the leaves of all trees in one
batch of WOTS+ chains, then one batched H call per level). From a computed tree
:func:`xmss_sign` reads the authentication path and the WOTS+ signature
(Algorithm 10). :func:`xmss_pk_from_sig` is Algorithm 11.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pqkit.slhdsa.adrs import TREE, word
from pqkit.slhdsa.hashes import Hashes
from pqkit.slhdsa.wots import wots_pk_from_sig, wots_pk_gen_many, wots_sign

__all__ = ["Tree", "reduce_levels", "xmss_pk_from_sig", "xmss_sign", "xmss_trees"]


@dataclass
class Tree:
    """One computed XMSS tree: ``levels[z][i]`` is xmss_node(i, z); for the leaf
    to be signed, ``snaps`` holds its WOTS+ chains after 0 .. w-1 steps."""

    levels: list[list[bytes]]
    leaf: int | None
    snaps: list[list[bytes]]

    @property
    def root(self) -> bytes:
        return self.levels[-1][0]


def reduce_levels(
    hs: Hashes,
    leaves: list[bytes],
    trees: int,
    height: int,
    address: Callable[[int, int, int], bytes],
) -> list[list[list[bytes]]]:
    """Every level of ``trees`` binary trees of ``height``, from their leaves.

    ``leaves`` holds the 2^height leaves of each tree, tree after tree;
    ``address(t, z, i)`` is the ADRS of node i at height z of tree t. Each level
    of all trees is one batched H call. Returns ``levels[t][z]``.
    """
    per_tree = 1 << height
    levels = [[leaves[t * per_tree : (t + 1) * per_tree]] for t in range(trees)]
    for z in range(1, height + 1):
        count = per_tree >> z
        inputs = [
            address(t, z, i) + levels[t][z - 1][2 * i] + levels[t][z - 1][2 * i + 1]
            for t in range(trees)
            for i in range(count)
        ]
        nodes = hs.h_many(inputs)
        for t in range(trees):
            levels[t].append(nodes[t * count : (t + 1) * count])
    return levels


def xmss_trees(
    hs: Hashes,
    sk_seed: bytes,
    trees: Sequence[tuple[int, int]],
    sign_leaves: Sequence[int | None],
) -> list[Tree]:
    """Every node of the XMSS trees ``(layer, tree address)`` of ``trees``
    (FIPS 205, Algorithm 9 for each node), keeping the WOTS+ chains of leaf
    ``sign_leaves[t]`` of tree t (None: none kept)."""
    hp = hs.params.hp
    per_tree = 1 << hp
    key_pairs = [(layer, tree, i) for layer, tree in trees for i in range(per_tree)]
    record = [t * per_tree + leaf for t, leaf in enumerate(sign_leaves) if leaf is not None]
    leaves, snaps = wots_pk_gen_many(hs, sk_seed, key_pairs, record)
    heads = [hs.codec.head(layer, tree, TREE) + word(0) for layer, tree in trees]

    def address(t: int, z: int, i: int) -> bytes:
        # Algorithm 9 lines 8-10: setTypeAndClear(TREE), setTreeHeight(z), setTreeIndex(i)
        return heads[t] + word(z) + word(i)

    levels = reduce_levels(hs, leaves, len(trees), hp, address)
    snap_iter = iter(snaps)
    return [
        Tree(levels[t], leaf, next(snap_iter) if leaf is not None else [])
        for t, leaf in enumerate(sign_leaves)
    ]


def xmss_sign(hs: Hashes, m: bytes, tree: Tree) -> bytes:
    """FIPS 205, Algorithm 10 (xmss_sign): SIG_XMSS = sig || AUTH for leaf
    ``tree.leaf``, read from the computed tree."""
    idx = tree.leaf
    if idx is None:  # pragma: no cover - a caller bug
        raise ValueError("this tree was computed without a leaf to sign")
    # Lines 1-4: AUTH[j] = xmss_node(floor(idx / 2^j) xor 1, j)
    auth = b"".join(tree.levels[j][(idx >> j) ^ 1] for j in range(hs.params.hp))
    # Lines 5-8: sig = wots_sign(M, SK.seed, PK.seed, ADRS) for key pair idx
    return wots_sign(hs.params, m, tree.snaps) + auth


def xmss_pk_from_sig(
    hs: Hashes, idx: int, sig_xmss: bytes, m: bytes, layer: int, tree: int
) -> bytes:
    """FIPS 205, Algorithm 11 (xmss_pkFromSig): the root the signature implies."""
    params = hs.params
    n, wots_bytes = params.n, params.len * params.n
    # Lines 1-5: the WOTS+ public key of leaf idx.
    node = wots_pk_from_sig(hs, sig_xmss[:wots_bytes], m, (layer, tree, idx))
    head = hs.codec.head(layer, tree, TREE) + word(0)
    index = idx
    for k in range(params.hp):
        auth = sig_xmss[wots_bytes + k * n : wots_bytes + (k + 1) * n]
        adrs = head + word(k + 1)  # line 8: setTreeHeight(k + 1)
        if (idx >> k) & 1 == 0:  # lines 9-11
            index >>= 1
            node = hs.h_many([adrs + word(index) + node + auth])[0]
        else:  # lines 12-14
            index = (index - 1) >> 1
            node = hs.h_many([adrs + word(index) + auth + node])[0]
    return node
