"""SLH-DSA (FIPS 205): the stateless hash-based signature standard.

- :mod:`.params`: the twelve parameter sets (Table 2) and the catalogue entries;
- :mod:`.adrs`: addresses and the byte helpers (§4);
- :mod:`.hashes`: H_msg, PRF, PRF_msg, F, H, T_l for SHAKE (§11.1) and SHA-2 (§11.2),
  batched over many inputs;
- :mod:`.wots`, :mod:`.xmss`, :mod:`.hypertree`, :mod:`.fors`: §5-§8;
- :mod:`.fips205`: the scheme objects (Algorithms 18-25).

``SCHEMES`` maps each canonical name to its scheme object (see :mod:`pqkit.registry`);
it is built on first use, so importing :mod:`.params` stays light.
"""

from __future__ import annotations

from typing import Any

__all__ = ["SCHEMES"]


def __getattr__(name: str) -> Any:
    if name != "SCHEMES":
        raise AttributeError(f"module 'pqkit.slhdsa' has no attribute {name!r}")
    from pqkit.slhdsa import fips205

    globals()["SCHEMES"] = fips205.SCHEMES
    return fips205.SCHEMES
