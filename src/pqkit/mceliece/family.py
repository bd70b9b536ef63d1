"""Classic McEliece's declaration, read by :mod:`pqkit.families`: catalogue,
contract, kernel tables and the warm-up part; module paths only, so reading it
loads nothing else."""

from __future__ import annotations

from pqkit.families import Family, Part

_K = "pqkit.mceliece.kernels"

FAMILY = Family(
    name="mceliece",
    rank=50,
    catalog="pqkit.mceliece.params",
    contract=f"{_K}.contract:McElieceKernels",
    kernels={backend: f"{_K}.{backend}" for backend in ("jit", "numpy", "ref")},
    warmup=(Part("mceliece", "mceliece", f"{_K}.warmup:steps", order=30),),
)
