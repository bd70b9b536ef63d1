"""LMS / HSS (RFC 8554, NIST SP 800-208, RFC 9858): stateful hash-based signatures.

- :mod:`.params`: LM-OTS and LMS types, the HSS parameter sets and the catalogue;
- :mod:`.lmots`: LM-OTS (§4), many chains at a time;
- :mod:`.lms`: the LMS tree, signature and verification (§5);
- :mod:`.hss`: HSS (§6);
- :mod:`.scheme`: the scheme objects (private keys: :mod:`pqkit.stateful.key`).
"""

from __future__ import annotations

from pqkit.registry import lazy_schemes

__all__ = ["SCHEMES"]

__getattr__ = lazy_schemes("pqkit.lms", ("scheme",))
