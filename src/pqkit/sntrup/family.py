"""Streamlined NTRU Prime's declaration, read by :mod:`pqkit.families`: catalogue,
contract, the jit / numpy / ref tables and the warm-up part; module paths only."""

from __future__ import annotations

from pqkit.families import Family, Part

_K = "pqkit.sntrup.kernels"

FAMILY = Family(
    name="sntrup",
    rank=30,
    catalog="pqkit.sntrup.params",
    contract=f"{_K}.contract:SntrupKernels",
    kernels={"jit": f"{_K}.jit", "ref": f"{_K}.ref", "numpy": f"{_K}.numpy"},
    # Compile order: after the families the usual paths need first.
    warmup=(Part("sntrup", "sntrup", f"{_K}.warmup:steps", order=60),),
)
