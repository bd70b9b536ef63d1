"""ML-KEM's declaration (FIPS 203, round-3 Kyber and Kyber-90s): read by
:mod:`pqkit.families`; module paths only, so reading it loads nothing else."""

from __future__ import annotations

from pqkit.families import Family, Part

_K = "pqkit.mlkem.kernels"

FAMILY = Family(
    name="mlkem",
    rank=10,
    catalog="pqkit.mlkem.params",
    contract=f"{_K}.contract:MLKEMKernels",
    composites=f"{_K}.compose:COMPOSITES",
    kernels={"jit": f"{_K}.jit", "numpy": f"{_K}.numpy", "ref": f"{_K}.ref"},
    operations={"jit": f"{_K}.jit_ops"},
    batch_operations={"jit": f"{_K}.jit_batch"},
    warmup=(
        Part("mlkem", "mlkem", f"{_K}.warmup:steps", order=20),
        Part("mlkem-batch", "mlkem-batch", f"{_K}.warmup:batch_steps", order=40),
    ),
)
