"""Falcon (round-3 specification v1.2, as liboqs 0.16 ships it): compact lattice
signatures over NTRU lattices, Falcon-512 / Falcon-1024 and their padded forms.

- :mod:`.params`: the parameter sets and catalogue entries;
- :mod:`.codec`: the key and signature encodings (§3.11);
- :mod:`.prng`: the randomness of key generation and signing;
- :mod:`.ntrugen`: NTRUGen / NTRUSolve (§3.8);
- :mod:`.core`: HashToPoint, one signing attempt, verification (§3.7-§3.10);
- :mod:`.round3`: the scheme objects;
- :mod:`.kernels`: the FFT, ffSampling and its sampler, the NTT (``ref``, ``numpy``, ``jit``).

This is Falcon as submitted to round 3, not FN-DSA (FIPS 206, unpublished): FN-DSA
will move in as its own names beside these.
"""

from __future__ import annotations

from pqkit.registry import lazy_schemes

__all__ = ["SCHEMES"]

__getattr__ = lazy_schemes(__name__, ("round3",))
