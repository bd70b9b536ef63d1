"""Whole-operation kernels per backend (:class:`pqkit.arith.api.MLKEMOperations`,
:class:`pqkit.arith.api.MLDSAOperations`).

A backend may run a whole operation (ML-KEM key generation, encapsulation,
decapsulation; ML-DSA key generation, signing, verification) as one unit: the
``jit`` backend as one compiled call with the hashing inside. These are optional:
:func:`operations` returns None for a backend without them, and the scheme code
then runs its step-by-step path (the reference twin) on the backend's kernel
table. Kept apart from the kernel tables of :func:`pqkit.arith.kernels`, which hold
the primitive and composite kernels every backend provides.
"""

from __future__ import annotations

import importlib
from functools import cache
from types import SimpleNamespace
from typing import Any

__all__ = ["operations"]

_MODULES: dict[tuple[str, str], str] = {
    ("jit", "mlkem"): "pqkit.arith.jit_mlkem_ops",
    ("jit", "mldsa"): "pqkit.arith.jit_mldsa_ops",
    ("jit", "slhdsa"): "pqkit.arith.jit_slhdsa_ops",
}
"""(backend, scheme) -> the module whose ``OPERATIONS`` dict holds its operations."""


@cache
def operations(scheme: str, backend: str) -> Any | None:
    """The whole-operation kernels of ``backend`` for ``scheme`` (attribute access,
    plus ``backend``), or None when it has none. Call it for a backend whose kernel
    table is already built (so its requirements are known to import)."""
    name = _MODULES.get((backend, scheme))
    if name is None:
        return None
    table: dict[str, Any] = importlib.import_module(name).OPERATIONS
    return SimpleNamespace(backend=backend, **table)
