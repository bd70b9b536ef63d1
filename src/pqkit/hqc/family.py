"""HQC's declaration, read by :mod:`pqkit.families`: catalogue, kernel contract,
the ref / numpy / jit kernel tables and the warm-up part (no whole-operation or
batch kernels: the batch view loops over the single operations); module paths
only."""

from __future__ import annotations

from pqkit.families import Family, Part

FAMILY = Family(
    name="hqc",
    rank=15,
    catalog="pqkit.hqc.params",
    contract="pqkit.hqc.kernels.contract:HQCKernels",
    kernels={
        "ref": "pqkit.hqc.kernels.ref",
        "numpy": "pqkit.hqc.kernels.numpy",
        "jit": "pqkit.hqc.kernels.jit",
    },
    # Compiled after ML-KEM's single operations (20), before its batch ones (40).
    warmup=(Part("hqc", "hqc", "pqkit.hqc.kernels.warmup:steps", order=30),),
)
