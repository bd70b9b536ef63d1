"""LMS / HSS's declaration: read by :mod:`pqkit.families`; module paths only. The
trees are hashed on the batched hash kernels (kernel group ``"hash"``)."""

from __future__ import annotations

from pqkit.families import Family

FAMILY = Family(
    name="lms",
    rank=60,
    catalog="pqkit.lms.params",
    operations={"jit": "pqkit.lms.kernels.jit_ops"},
)
