"""HQC (Hamming Quasi-Cyclic), the code-based KEM NIST selected in 2025: the
specification of 2025-08-22 (HQC-1, HQC-3, HQC-5; liboqs 0.16's names).

- :mod:`.params`: the parameter sets and the family's catalogue entries;
- :mod:`.kernels`: the kernel contract (GF(2)[x]/(x^n - 1) products, the
  Reed-Muller / Reed-Solomon code, fixed-weight vectors) and its backends;
- :mod:`.pke`: HQC-PKE; :mod:`.scheme`: HQC-KEM, the scheme objects.

``SCHEMES`` maps each canonical name to its scheme object, built on first use.
"""

from __future__ import annotations

from pqkit.registry import lazy_schemes

__all__ = ["SCHEMES"]

__getattr__ = lazy_schemes(__name__, ("scheme",))
