"""Streamlined NTRU Prime (sntrup761, the NTRU Prime round-3 submission).

- :mod:`.params`: the parameter set and the family's catalogue entry;
- :mod:`.kernels`: the ring arithmetic, inversions, sort and encodings per backend;
- :mod:`.scheme`: the KEM.

``SCHEMES`` is built on first use, so importing :mod:`.params` stays light.
"""

from __future__ import annotations

from pqkit.registry import lazy_schemes

__all__ = ["SCHEMES"]

__getattr__ = lazy_schemes(__name__, ("scheme",))
