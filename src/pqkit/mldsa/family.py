"""ML-DSA's declaration (FIPS 204, round-3 Dilithium and Dilithium-AES), read by
:mod:`pqkit.families`: the usual layout of ``pqkit/mldsa``; module paths only."""

from __future__ import annotations

from pqkit.families import lattice_family

FAMILY = lattice_family("mldsa", 20, "MLDSAKernels", orders=(30, 50), composites="COMPOSITES")
