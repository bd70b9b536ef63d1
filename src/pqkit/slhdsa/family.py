"""SLH-DSA's declaration (FIPS 205): read by :mod:`pqkit.families`; module paths
only. SLH-DSA runs on the batched hash kernels (kernel group ``"hash"``); its
compiled engine is its ``jit`` operations, warmed up with the hash group."""

from __future__ import annotations

from pqkit.families import Family, Part

FAMILY = Family(
    name="slhdsa",
    rank=30,
    catalog="pqkit.slhdsa.params",
    operations={"jit": "pqkit.slhdsa.kernels.jit_ops"},
    # The engine alone takes the longest to compile: first.
    warmup=(Part("slhdsa", "hash", "pqkit.slhdsa.kernels.warmup:steps", order=10),),
)
