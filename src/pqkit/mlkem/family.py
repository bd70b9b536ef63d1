"""ML-KEM's declaration (FIPS 203, round-3 Kyber and Kyber-90s), read by
:mod:`pqkit.families`: the usual layout of ``pqkit/mlkem`` (catalogue, contract,
composite K-PKE kernels, jit / numpy / ref tables, whole and batch operations,
warm-up parts); module paths only, so reading it loads nothing else."""

from __future__ import annotations

from pqkit.families import lattice_family

# Compile order: the single operations after the SLH-DSA engine (10), the batch
# operations after both families' single operations (they reuse their kernels).
FAMILY = lattice_family("mlkem", 10, "MLKEMKernels", orders=(20, 40), composites="COMPOSITES")
