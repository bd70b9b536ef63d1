"""The Dilithium family: ML-DSA (FIPS 204), and later Dilithium 3.1 and Dilithium-AES.

``SCHEMES`` maps each canonical name to its scheme object (see :mod:`pqkit.registry`).
"""

from __future__ import annotations

from pqkit.schemes import Signature

SCHEMES: dict[str, Signature] = {}
