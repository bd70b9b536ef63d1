"""The Dilithium family: ML-DSA (FIPS 204), Dilithium 3.1 and Dilithium-AES.

One core (:mod:`.core`) serves every member; a member is a parameter set
(:mod:`.params`, with the family's catalogue entries), a symmetric suite
(:mod:`.symmetric`) and a message frontend (:mod:`.fips204`, :mod:`.round3`) on
the family's scheme object (:mod:`.scheme`). HashML-DSA's pre-hash functions live
in :mod:`.prehash`.

``SCHEMES`` maps each canonical name to its scheme object (see :mod:`pqkit.registry`);
it is built on first use, so importing :mod:`.params` stays light.
"""

from __future__ import annotations

from pqkit.registry import lazy_schemes

__all__ = ["SCHEMES"]

__getattr__ = lazy_schemes(__name__, ("fips204", "round3"))
