"""Falcon's declaration (round-3 specification v1.2), read by :mod:`pqkit.families`;
module paths only. Kernels: ``ref`` (the oracle), ``numpy`` and ``jit``."""

from __future__ import annotations

from pqkit.families import Family, Part

FAMILY = Family(
    name="falcon",
    rank=40,
    catalog="pqkit.falcon.params",
    contract="pqkit.falcon.kernels.contract:FalconKernels",
    kernels={backend: f"pqkit.falcon.kernels.{backend}" for backend in ("jit", "numpy", "ref")},
    warmup=(Part("falcon", "falcon", "pqkit.falcon.kernels.warmup:steps", order=40),),
)
