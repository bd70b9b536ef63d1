"""FrodoKEM's declaration, read by :mod:`pqkit.families`: catalogue, contract,
ref / numpy / jit kernel tables and the jit warm-up; module paths only."""

from __future__ import annotations

from pqkit.families import Family, Part

_K = "pqkit.frodokem.kernels"

FAMILY = Family(
    name="frodokem",
    rank=45,
    catalog="pqkit.frodokem.params",
    contract=f"{_K}.contract:FrodoKernels",
    kernels={backend: f"{_K}.{backend}" for backend in ("jit", "numpy", "ref")},
    warmup=(Part("frodokem", "frodokem", f"{_K}.warmup:steps", order=60),),
)
