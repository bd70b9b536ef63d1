"""ML-DSA's composite kernels, written once over the selected backend's own primitives
(see :mod:`pqkit.mlkem.kernels.compose` for the mechanism).

Today: the products <<c s1>>, <<c s2>>, <<c t0>> of signing (FIPS 204, Algorithm 7
lines 19-24) as ``challenge_prepare`` (the key's part, once per signature) and
``challenge_mul`` (per attempt). Composed, they are the NTT products of the FIPS
text; ``numpy`` has its own (an exact complex FFT: the products are short).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pqkit.arith.api import Poly, named_table

__all__ = ["COMPOSITES", "challenge_mul", "challenge_prepare"]

Factory = Callable[[Any], Callable[..., Any]]
"""Takes a table of primitives (attribute access), returns the composite kernel."""


def challenge_prepare(k: Any) -> Callable[[Poly], Any]:
    def prepare(small: Poly) -> Any:
        # FIPS 204, Algorithm 7 lines 2-5 (s1_hat, s2_hat, t0_hat)
        return k.ntt(small)

    return prepare


def challenge_mul(k: Any) -> Callable[[Poly, Any], Poly]:
    def mul(c: Poly, prepared: Any) -> Poly:
        # FIPS 204, Algorithm 7 lines 18-19 and 24: NTT^-1(c_hat * s_hat), centred
        c_hat = k.ntt(c)
        out: Poly = k.centre(k.intt(k.pointwise_mul(c_hat[:, None], prepared[None])))
        return out

    return mul


COMPOSITES: Mapping[str, Factory] = named_table(globals(), "challenge_prepare", "challenge_mul")
"""ML-DSA's composite kernels: name -> factory over the backend's primitives
(declared as the family's ``composites``)."""
