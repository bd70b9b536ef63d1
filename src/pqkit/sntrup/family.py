"""Streamlined NTRU Prime's declaration, read by :mod:`pqkit.families`: catalogue,
contract, the jit / numpy / ref tables and the warm-up part; module paths only."""

from __future__ import annotations

from pqkit.families import Family

_K = "pqkit.sntrup.kernels"

FAMILY = Family(
    name="sntrup",
    rank=30,
    catalog="pqkit.sntrup.params",
    contract=f"{_K}.contract:SntrupKernels",
    kernels={"ref": f"{_K}.ref", "numpy": f"{_K}.numpy"},
)
