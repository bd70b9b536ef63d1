"""The K-PKE family: ML-KEM (FIPS 203), round-3 Kyber and Kyber-90s (v3.02).

- :mod:`.params`: the parameter sets and the family's catalogue entries;
- :mod:`.symmetric`: the symmetric suites (SHA-3 / SHAKE; SHA-2 / AES-256-CTR);
- :mod:`.kpke`: K-PKE (FIPS 203 §5), shared by every member;
- :mod:`.scheme`: the scheme object every member shares;
- :mod:`.fips203`: ML-KEM's FO transform; :mod:`.round3`: round-3 Kyber's.

``SCHEMES`` maps each canonical name to its scheme object (see :mod:`pqkit.registry`);
it is built on first use, so importing :mod:`.params` stays light.
"""

from __future__ import annotations

from pqkit.registry import lazy_schemes

__all__ = ["SCHEMES"]

__getattr__ = lazy_schemes(__name__, ("fips203", "round3"))
