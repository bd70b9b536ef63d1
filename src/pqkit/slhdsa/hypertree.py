"""The hypertree (FIPS 205 §7): d layers of XMSS trees.

Signing needs one tree per layer; the trees do not depend on each other (only
the message each one signs does), so :func:`ht_sign` computes all d of them in
one batch and then signs bottom-up (Algorithm 12).
"""

from __future__ import annotations

import hmac

from pqkit.slhdsa.hashes import Hashes
from pqkit.slhdsa.params import Params
from pqkit.slhdsa.xmss import xmss_pk_from_sig, xmss_sign, xmss_trees

__all__ = ["ht_path", "ht_root", "ht_sign", "ht_verify"]


def ht_root(hs: Hashes, sk_seed: bytes) -> bytes:
    """PK.root: the root of the top-layer tree (FIPS 205, Algorithm 18 lines 2-3,
    xmss_node(SK.seed, 0, h', PK.seed, ADRS) with layer d - 1)."""
    return xmss_trees(hs, sk_seed, [(hs.params.d - 1, 0)], [None])[0].root


def ht_path(params: Params, idx_tree: int, idx_leaf: int) -> list[tuple[int, int]]:
    """(tree address, leaf index) of each layer on the way up (Algorithm 12 lines 6-8)."""
    hp = params.hp
    path = [(idx_tree, idx_leaf)]
    for _ in range(1, params.d):
        idx_leaf = idx_tree & ((1 << hp) - 1)
        idx_tree >>= hp
        path.append((idx_tree, idx_leaf))
    return path


def ht_sign(hs: Hashes, m: bytes, sk_seed: bytes, idx_tree: int, idx_leaf: int) -> bytes:
    """FIPS 205, Algorithm 12 (ht_sign). The root each layer signs is the root of
    the tree below, taken from the computed trees (what xmss_pkFromSig returns
    on a valid signature, lines 4 and 13)."""
    path = ht_path(hs.params, idx_tree, idx_leaf)
    trees = xmss_trees(
        hs, sk_seed, [(j, tree) for j, (tree, _) in enumerate(path)], [leaf for _, leaf in path]
    )
    parts = []
    for tree in trees:
        parts.append(xmss_sign(hs, m, tree))
        m = tree.root
    return b"".join(parts)


def ht_verify(
    hs: Hashes, m: bytes, sig_ht: bytes, idx_tree: int, idx_leaf: int, pk_root: bytes
) -> bool:
    """FIPS 205, Algorithm 13 (ht_verify)."""
    size = hs.params.length_xmss_signature
    node = m
    for j, (tree, leaf) in enumerate(ht_path(hs.params, idx_tree, idx_leaf)):
        node = xmss_pk_from_sig(hs, leaf, sig_ht[j * size : (j + 1) * size], node, j, tree)
    return hmac.compare_digest(node, pk_root)
