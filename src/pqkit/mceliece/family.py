"""Classic McEliece's declaration, read by :mod:`pqkit.families`: catalogue,
contract and kernel tables; module paths only, so reading it loads nothing else."""

from __future__ import annotations

from pqkit.families import Family

_K = "pqkit.mceliece.kernels"

FAMILY = Family(
    name="mceliece",
    rank=50,
    catalog="pqkit.mceliece.params",
    contract=f"{_K}.contract:McElieceKernels",
    kernels={"numpy": f"{_K}.numpy", "ref": f"{_K}.ref"},
)
