"""FORS (FIPS 205 §8): k trees of height a, computed level by level.

Signing computes all leaves of a group of FORS trees in one batched PRF call
and one batched F call, then every level of the group in one batched H call
(Algorithms 14 and 15 for every node). The signature (Algorithm 16) and the
FORS public key (Algorithm 17's output on that signature) are read from the
computed trees. Verification (Algorithm 17) walks the k authentication paths in
lock step.
"""

from __future__ import annotations

from pqkit.slhdsa.adrs import FORS_PRF, FORS_ROOTS, FORS_TREE, base_2b, word
from pqkit.slhdsa.hashes import Hashes
from pqkit.slhdsa.xmss import reduce_levels

__all__ = ["fors_pk_from_sig", "fors_sign"]

_MAX_LEAVES = 1 << 15
"""Leaves computed in one batch (bounds memory for the s parameter sets)."""


def _roots_adrs(hs: Hashes, idx_tree: int, idx_leaf: int) -> bytes:
    # Algorithm 17 lines 21-23: setTypeAndClear(FORS_ROOTS), setKeyPairAddress
    return hs.codec.head(0, idx_tree, FORS_ROOTS) + word(idx_leaf) + word(0) + word(0)


def fors_sign(
    hs: Hashes, md: bytes, sk_seed: bytes, idx_tree: int, idx_leaf: int
) -> tuple[bytes, bytes]:
    """FIPS 205, Algorithm 16 (fors_sign): ``(SIG_FORS, PK_FORS)``.

    The address is layer 0, tree ``idx_tree``, key pair ``idx_leaf``
    (Algorithm 19 lines 11-13). PK_FORS is T_k over the k tree roots, which is
    what Algorithm 17 (fors_pkFromSig) returns for this signature.
    """
    params = hs.params
    a, k = params.a, params.k
    indices = base_2b(md, a, k)  # line 2
    leaves_per_tree = 1 << a
    prf_head = hs.codec.head(0, idx_tree, FORS_PRF) + word(idx_leaf) + word(0)
    tree_head = hs.codec.head(0, idx_tree, FORS_TREE) + word(idx_leaf)
    group = max(1, _MAX_LEAVES >> a)
    parts: list[bytes] = []
    roots: list[bytes] = []
    for first in range(0, k, group):
        trees = min(group, k - first)
        start = first * leaves_per_tree
        stop = start + trees * leaves_per_tree
        # Algorithm 14 (fors_skGen) for every leaf: PRF with FORS_PRF, tree index g.
        sks = hs.prf_many([prf_head + word(g) + sk_seed for g in range(start, stop)])
        # Algorithm 15 lines 1-6: leaf g = F(PK.seed, ADRS(height 0, index g), sk).
        height0 = tree_head + word(0)
        leaves = hs.f_many(
            [height0 + word(g) + sk for g, sk in zip(range(start, stop), sks, strict=True)]
        )

        def address(t: int, z: int, i: int, first: int = first) -> bytes:
            # Algorithm 15 lines 8-10: setTreeHeight(z), setTreeIndex(i) (global index)
            return tree_head + word(z) + word(((first + t) << (a - z)) + i)

        levels = reduce_levels(hs, leaves, trees, a, address)
        for t in range(trees):
            idx = indices[first + t]
            # Algorithm 16 lines 4-9: the secret leaf value, then AUTH.
            parts.append(sks[t * leaves_per_tree + idx])
            parts.extend(levels[t][j][(idx >> j) ^ 1] for j in range(a))
            roots.append(levels[t][a][0])
    pk = hs.t_many([_roots_adrs(hs, idx_tree, idx_leaf) + b"".join(roots)])[0]
    return b"".join(parts), pk


def fors_pk_from_sig(hs: Hashes, sig_fors: bytes, md: bytes, idx_tree: int, idx_leaf: int) -> bytes:
    """FIPS 205, Algorithm 17 (fors_pkFromSig), the k trees in lock step."""
    params = hs.params
    n, a, k = params.n, params.a, params.k
    indices = base_2b(md, a, k)  # line 1
    tree_head = hs.codec.head(0, idx_tree, FORS_TREE) + word(idx_leaf)
    stride = (a + 1) * n
    # Lines 3-7: node0 = F(PK.seed, ADRS(height 0, index i 2^a + indices[i]), sk)
    index = [(i << a) + indices[i] for i in range(k)]
    height0 = tree_head + word(0)
    nodes = hs.f_many(
        [height0 + word(index[i]) + sig_fors[i * stride : i * stride + n] for i in range(k)]
    )
    # Lines 8-19: climb the k authentication paths one level at a time.
    for j in range(a):
        height = tree_head + word(j + 1)
        inputs = []
        for i in range(k):
            auth = sig_fors[i * stride + (j + 1) * n : i * stride + (j + 2) * n]
            index[i] >>= 1  # even: index / 2; odd: (index - 1) / 2
            if (indices[i] >> j) & 1 == 0:
                inputs.append(height + word(index[i]) + nodes[i] + auth)
            else:
                inputs.append(height + word(index[i]) + auth + nodes[i])
        nodes = hs.h_many(inputs)
    # Lines 21-24: pk = T_k(PK.seed, forspkADRS, root)
    return hs.t_many([_roots_adrs(hs, idx_tree, idx_leaf) + b"".join(nodes)])[0]
