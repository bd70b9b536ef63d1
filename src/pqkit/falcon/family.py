"""Falcon's declaration (round-3 specification v1.2), read by :mod:`pqkit.families`;
module paths only. Kernels: ``ref`` (the oracle), ``numpy`` and ``jit``."""

from __future__ import annotations

from pqkit.families import kernel_family

FAMILY = kernel_family("falcon", rank=40, contract="FalconKernels", order=40)
