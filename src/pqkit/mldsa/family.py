"""ML-DSA's declaration (FIPS 204, round-3 Dilithium and Dilithium-AES): read by
:mod:`pqkit.families`; module paths only, so reading it loads nothing else."""

from __future__ import annotations

from pqkit.families import Family, Part

_K = "pqkit.mldsa.kernels"

FAMILY = Family(
    name="mldsa",
    rank=20,
    catalog="pqkit.mldsa.params",
    contract=f"{_K}.contract:MLDSAKernels",
    kernels={"jit": f"{_K}.jit", "numpy": f"{_K}.numpy", "ref": f"{_K}.ref"},
    operations={"jit": f"{_K}.jit_ops"},
    batch_operations={"jit": f"{_K}.jit_batch"},
    warmup=(
        Part("mldsa", "mldsa", f"{_K}.warmup:steps", order=30),
        Part("mldsa-batch", "mldsa-batch", f"{_K}.warmup:batch_steps", order=50),
    ),
)
