"""The arithmetic kernel contract (DESIGN.md §4).

Modelled on mlkem-native's native-backend interface: few kernels, each with a
written contract, a reference twin (the ``ref`` backend) and a differential test.

Shared rules for every kernel:

- Polynomials are int arrays whose last axis has length 256; every leading axis is
  a batch axis, so one call serves a polynomial, a vector, a matrix or a batch of
  many keys. Kernels never modify their inputs.
- Coefficients at the boundary are canonical, in [0, q), unless a kernel says
  otherwise; NTT-domain polynomials are in bit-reversed order as in the FIPS texts.
  Montgomery or Barrett forms stay inside a backend.
- Opaque values (the ML-KEM mulcache) belong to the backend that made them.

A backend module ``pqkit.arith.<backend>_<scheme>`` exposes ``KERNELS``, a dict from
kernel name to function. Kernels a backend lacks are taken from ``ref`` when the
table is built (:func:`pqkit.arith.kernels`), not per call.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

__all__ = ["MLDSAKernels", "MLKEMKernels", "Poly"]

Poly = npt.NDArray[np.int64]
"""A (..., 256) array of coefficients (int64 at the boundary; see each contract)."""


class MLKEMKernels(Protocol):
    """Kernels for q = 3329 (FIPS 203). Filled in by the ML-KEM work."""


class MLDSAKernels(Protocol):
    """Kernels for q = 8380417 (FIPS 204). Filled in by the ML-DSA work."""


def kernel_names(contract: type[Any]) -> list[str]:
    """The kernel names a contract requires: its public attributes."""
    return sorted(
        name
        for name in vars(contract)
        if not name.startswith("_") and callable(vars(contract)[name])
    )
