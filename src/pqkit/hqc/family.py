"""HQC's declaration, read by :mod:`pqkit.families`: catalogue, kernel contract,
the ref / numpy / jit kernel tables and the warm-up part (no whole-operation or
batch kernels: the batch view loops over the single operations); module paths
only."""

from __future__ import annotations

from pqkit.families import kernel_family

# Compiled after ML-KEM's single operations (20), before its batch ones (40).
FAMILY = kernel_family("hqc", rank=15, contract="HQCKernels", order=30)
