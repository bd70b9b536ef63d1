"""XMSS and XMSS^MT (RFC 8391, NIST SP 800-208): stateful hash-based signatures.

- :mod:`.params`: the parameter sets and the catalogue;
- :mod:`.core`: the hash functions, WOTS+, L-trees, trees, verification;
- :mod:`.scheme`: the scheme objects (private keys: :mod:`pqkit.stateful.key`).
"""

from __future__ import annotations

from pqkit.registry import lazy_schemes

__all__ = ["SCHEMES"]

__getattr__ = lazy_schemes("pqkit.xmss", ("scheme",))
