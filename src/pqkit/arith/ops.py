"""Whole-operation kernels per backend (a family's optional ``Operations`` contract,
e.g. :class:`pqkit.mlkem.kernels.contract.MLKEMOperations`).

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

from pqkit import families

__all__ = ["batch_operations", "batch_operations_now", "operations"]


def _table(scheme: str, backend: str, kind: str, attribute: str) -> Any | None:
    declared = families.family(scheme)
    name = getattr(declared, kind).get(backend) if declared is not None else None
    if name is None:
        return None
    table: dict[str, Any] = getattr(importlib.import_module(name), attribute)
    return SimpleNamespace(backend=backend, **table)


@cache
def operations(scheme: str, backend: str) -> Any | None:
    """The whole-operation kernels of ``backend`` for ``scheme`` (attribute access,
    plus ``backend``), or None when it has none: the module a family names in its
    :attr:`pqkit.families.Family.operations`, whose ``OPERATIONS`` dict holds them.
    Call it for a backend whose kernel table is already built (so its requirements
    are known to import)."""
    return _table(scheme, backend, "operations", "OPERATIONS")


@cache
def batch_operations(scheme: str, backend: str) -> Any | None:
    """The batch operations of ``backend`` for ``scheme`` (attribute access, plus
    ``backend``), or None when it has none (the batch view then runs its vectorised
    path on the kernel table): whole operations over many rows in one call, from the
    module a family names in :attr:`pqkit.families.Family.batch_operations` (its
    ``BATCH_OPERATIONS`` dict)."""
    return _table(scheme, backend, "batch_operations", "BATCH_OPERATIONS")


def _forget() -> None:
    operations.cache_clear()
    batch_operations.cache_clear()


families.on_change(_forget)


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
