"""The K-PKE family: ML-KEM (FIPS 203), round-3 Kyber and Kyber-90s (v3.02).

``SCHEMES`` maps each canonical name to its scheme object (see :mod:`pqkit.registry`).
"""

from __future__ import annotations

from pqkit.mlkem import fips203, round3
from pqkit.schemes import Kem

SCHEMES: dict[str, Kem] = {}
SCHEMES.update(fips203.SCHEMES)
SCHEMES.update(round3.SCHEMES)
