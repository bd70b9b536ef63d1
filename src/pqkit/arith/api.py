"""The rules every kernel contract shares (docs/architecture.md §6).

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

Two kinds of kernel:

- *primitive* kernels (every name in a contract except the composites) are what a
  backend must implement; a backend that lacks one is refused when its table is
  built, never filled from ``ref``;
- *composite* kernels (a family's ``COMPOSITES``, e.g. the fused K-PKE steps of
  :mod:`pqkit.mlkem.kernels.compose`) are written once over the selected backend's
  own primitives; a backend overrides one only where its own copy is faster.

Each family holds its own contract (``pqkit.<family>.kernels.contract``) and
declares it, with its backends' tables (a dict from kernel name to function,
``KERNELS`` of a module), in its ``family.py`` (:mod:`pqkit.families`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit._moved import moved_attributes

__all__ = ["Poly", "kernel_names", "kernel_table"]

Poly = npt.NDArray[np.int64]
"""A (..., 256) array of coefficients (int64 at the boundary; see each contract)."""


def kernel_names(contract: type[Any]) -> list[str]:
    """The kernel names a contract requires: its public attributes."""
    return sorted(
        name
        for name in vars(contract)
        if not name.startswith("_") and callable(vars(contract)[name])
    )


def kernel_table(contract: type[Any], namespace: Mapping[str, Any]) -> dict[str, Any]:
    """A backend module's ``KERNELS``: each kernel of ``contract`` that ``namespace``
    (the module's ``globals()``, read at its end) defines under the kernel's name.
    The names come from the contract, so no backend writes them out again."""
    return {name: namespace[name] for name in kernel_names(contract) if name in namespace}


def named_table(namespace: Mapping[str, Any], *names: str) -> dict[str, Any]:
    """A table of ``names`` -> their values in ``namespace`` (a module's ``globals()``)
    for a backend's tables that no contract lists (batch operations, composites)."""
    return {name: namespace[name] for name in names}


# Deprecated locations (before each family held its own contract): resolved on first
# use, so this module imports no family.
__getattr__ = moved_attributes(
    __name__,
    (
        "pqkit.mlkem.kernels.contract",
        "pqkit.mldsa.kernels.contract",
        "pqkit.common.kernels.contract",
    ),
)
