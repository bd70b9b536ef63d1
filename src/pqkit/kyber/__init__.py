"""The K-PKE family: ML-KEM (FIPS 203), and later round-3 Kyber and Kyber-90s.

``SCHEMES`` maps each canonical name to its scheme object (see :mod:`pqkit.registry`).
"""

from __future__ import annotations

from pqkit.kyber import mlkem
from pqkit.schemes import Kem

SCHEMES: dict[str, Kem] = {}
SCHEMES.update(mlkem.SCHEMES)
