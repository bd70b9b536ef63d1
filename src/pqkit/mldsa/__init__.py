"""The Dilithium family: ML-DSA (FIPS 204), Dilithium 3.1 and Dilithium-AES.

One core (:mod:`pqkit.mldsa.core`) serves every member; a member is a
parameter set (:mod:`pqkit.mldsa.params`), a symmetric suite
(:mod:`pqkit.mldsa.symmetric`) and a message frontend (:mod:`.mldsa`,
:mod:`.round3`).
``SCHEMES`` maps each canonical name to its scheme object (see :mod:`pqkit.registry`).
"""

from __future__ import annotations

from pqkit.mldsa.fips204 import ML_DSA_SCHEMES, MLDSA
from pqkit.mldsa.round3 import ROUND3_SCHEMES, DilithiumR3
from pqkit.schemes import Signature

__all__ = ["MLDSA", "SCHEMES", "DilithiumR3"]

SCHEMES: dict[str, Signature] = {**ML_DSA_SCHEMES, **ROUND3_SCHEMES}
