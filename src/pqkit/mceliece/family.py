"""Classic McEliece's declaration, read by :mod:`pqkit.families`: catalogue,
contract, kernel tables and the warm-up part; module paths only, so reading it
loads nothing else."""

from __future__ import annotations

from pqkit.families import kernel_family

FAMILY = kernel_family("mceliece", rank=50, contract="McElieceKernels", order=30)
