"""Classic McEliece (NIST round 4): the code-based KEM, ten parameter sets as liboqs.

- :mod:`.params`: the parameter sets and the family's catalogue entries;
- :mod:`.kernels`: the GF(2) / GF(2^m) kernels (contract, ref, numpy, jit);
- :mod:`.scheme`: the KEM.

``SCHEMES`` is built on first use, so importing :mod:`.params` stays light.
"""

from __future__ import annotations

from pqkit.registry import lazy_schemes

__all__ = ["SCHEMES"]

__getattr__ = lazy_schemes(__name__, ("scheme",))
