"""XMSS / XMSS^MT's declaration: read by :mod:`pqkit.families`; module paths only.
The trees are hashed on the batched hash kernels (kernel group ``"hash"``); the
``jit`` backend runs the WOTS+ chains of the SHA-256 sets whole (:mod:`.kernels`)."""

from __future__ import annotations

from pqkit.families import Family

FAMILY = Family(
    name="xmss",
    rank=70,
    catalog="pqkit.xmss.params",
    operations={"jit": "pqkit.xmss.kernels.jit_ops"},
)
