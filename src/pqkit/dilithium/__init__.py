"""The Dilithium family: ML-DSA (FIPS 204), and later Dilithium 3.1 and Dilithium-AES.

One core (:mod:`pqkit.dilithium.core`) serves every member; a member is a
parameter set (:mod:`pqkit.dilithium.params`), a symmetric suite
(:mod:`pqkit.dilithium.symmetric`) and a message frontend (:mod:`.mldsa`).
``SCHEMES`` maps each canonical name to its scheme object (see :mod:`pqkit.registry`).
"""

from __future__ import annotations

from pqkit.dilithium.mldsa import ML_DSA_SCHEMES, MLDSA
from pqkit.schemes import Signature

__all__ = ["MLDSA", "SCHEMES"]

SCHEMES: dict[str, Signature] = {**ML_DSA_SCHEMES}
