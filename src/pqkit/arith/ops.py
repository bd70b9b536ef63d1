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

__all__ = ["batch_operations", "batch_operations_now", "operations"]

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


_BATCH_MODULES: dict[tuple[str, str], str] = {
    ("jit", "mlkem"): "pqkit.arith.jit_mlkem_batch",
    ("jit", "mldsa"): "pqkit.arith.jit_mldsa_batch",
}
"""(backend, scheme) -> the module whose ``BATCH_OPERATIONS`` dict holds its batch
operations: whole operations over many rows in one call (the batch views run them
per chunk; :mod:`pqkit.mlkem.batch`, :mod:`pqkit.mldsa.batch`)."""


@cache
def batch_operations(scheme: str, backend: str) -> Any | None:
    """The batch operations of ``backend`` for ``scheme`` (attribute access, plus
    ``backend``), or None when it has none (the batch view then runs its
    vectorised path on the kernel table)."""
    name = _BATCH_MODULES.get((backend, scheme))
    if name is None:
        return None
    table: dict[str, Any] = importlib.import_module(name).BATCH_OPERATIONS
    return SimpleNamespace(backend=backend, **table)


def batch_operations_now(scheme: str, backend: str, bound: str | None) -> Any | None:
    """:func:`batch_operations`, except while the automatic backend has not built
    them: when the backend was chosen automatically (``bound``, the scheme object's
    ``arith``, is None, and neither a :func:`pqkit.arith.use` scope nor
    ``PQKIT_ARITH`` names one) and the background warm-up's ``<scheme>-batch`` family
    (:mod:`pqkit.arith.warmup`) has not run yet, None: the batch view then runs its
    vectorised path on the same kernels instead of waiting for the compiler. An
    explicit ``jit`` compiles on first use, as every explicit jit call does."""
    table = batch_operations(scheme, backend)
    if table is None or bound is not None:
        return table
    from pqkit.arith import auto

    if auto.explicit():
        return table
    return table if auto.choice(f"{scheme}-batch") == "jit" else None
