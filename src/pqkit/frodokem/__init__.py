"""FrodoKEM and eFrodoKEM (ISO/IEC 18033-2 Amd 2; draft-longa-cfrg-frodokem).

- :mod:`.params`: the twelve parameter sets and the family's catalogue entries;
- :mod:`.encoding`: Pack / Unpack, Encode / Decode;
- :mod:`.kernels`: the kernel contract (sampling, A by SHAKE128, the matrix
  products over Z_q) and its ref / numpy / jit tables;
- :mod:`.scheme`: the scheme object (KeyGen, Encaps, Decaps of §8).

``SCHEMES`` is built on first use, so importing :mod:`.params` stays light.
"""

from __future__ import annotations

from pqkit.registry import lazy_schemes

__all__ = ["SCHEMES"]

__getattr__ = lazy_schemes(__name__, ("scheme",))
