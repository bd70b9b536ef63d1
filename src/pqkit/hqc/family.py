"""HQC's declaration, read by :mod:`pqkit.families`: catalogue, kernel contract,
the ref / numpy / jit kernel tables and the warm-up part; module paths only."""

from __future__ import annotations

from pqkit.families import Family

FAMILY = Family(
    name="hqc",
    rank=15,
    catalog="pqkit.hqc.params",
    contract="pqkit.hqc.kernels.contract:HQCKernels",
    kernels={"ref": "pqkit.hqc.kernels.ref", "numpy": "pqkit.hqc.kernels.numpy"},
)
