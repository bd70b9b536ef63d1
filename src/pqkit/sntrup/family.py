"""Streamlined NTRU Prime's declaration, read by :mod:`pqkit.families`: catalogue,
contract, the jit / numpy / ref tables and the warm-up part; module paths only."""

from __future__ import annotations

from pqkit.families import kernel_family

# Compile order 60: after the families the usual paths need first.
FAMILY = kernel_family("sntrup", rank=30, contract="SntrupKernels", order=60)
