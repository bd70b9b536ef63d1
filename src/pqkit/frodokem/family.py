"""FrodoKEM's declaration, read by :mod:`pqkit.families`: catalogue, contract,
ref / numpy / jit kernel tables and the jit warm-up; module paths only."""

from __future__ import annotations

from pqkit.families import kernel_family

FAMILY = kernel_family("frodokem", rank=45, contract="FrodoKernels", order=60)
