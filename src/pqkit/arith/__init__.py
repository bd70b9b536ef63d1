"""Polynomial arithmetic kernels behind a narrow interface (DESIGN.md §4).

Backends: ``ref`` (plain Python ints, reads like the FIPS pseudo-code: the test
oracle), ``numpy`` (vectorised, the default) and ``jit`` (compiled with Numba,
opt-in: ``pip install pqkit[jit]``). Choose per call
(``kernels(scheme, backend=...)``), per scope (``with pqkit.arith.use("ref"):``),
per process (``PQKIT_ARITH=ref``), else :data:`DEFAULT_BACKEND`.
"""

from __future__ import annotations

import contextlib
import contextvars
import importlib
import os
from collections.abc import Iterator
from functools import cache
from types import SimpleNamespace
from typing import Any, Literal, overload

from pqkit.arith.api import MLDSAKernels, MLKEMKernels, kernel_names
from pqkit.errors import UnknownBackend

__all__ = ["BACKEND_ORDER", "DEFAULT_BACKEND", "backends", "kernels", "use"]

Scheme = Literal["mlkem", "mldsa"]
SCHEMES: tuple[Scheme, ...] = ("mlkem", "mldsa")

BACKEND_ORDER: tuple[str, ...] = ("jit", "numpy", "ref")
"""Backend names, fastest first."""

DEFAULT_BACKEND = "numpy"
"""The backend used when nothing selects one. Not ``jit`` even where Numba is
installed: its first call in a fresh environment compiles (seconds), which an
unsuspecting caller should not pay; ``jit`` is opt-in."""

_CONTRACTS: dict[Scheme, type[Any]] = {"mlkem": MLKEMKernels, "mldsa": MLDSAKernels}
_ENV = "PQKIT_ARITH"
_scope: contextvars.ContextVar[str | None] = contextvars.ContextVar("pqkit_arith", default=None)


def _table(backend: str, scheme: Scheme) -> dict[str, Any] | None:
    try:
        module = importlib.import_module(f"pqkit.arith.{backend}_{scheme}")
    except ModuleNotFoundError as exc:
        # The backend module itself, or a third-party package it needs (Numba for
        # ``jit``), is missing: the backend is unavailable. A missing pqkit module
        # is a bug and propagates.
        missing = exc.name or ""
        if missing == f"pqkit.arith.{backend}_{scheme}" or missing.split(".")[0] != "pqkit":
            return None
        raise
    table: dict[str, Any] = module.KERNELS
    return table


@cache
def _build(backend: str, scheme: Scheme) -> Any:
    """The full kernel table of ``backend``, with ``ref`` filling its gaps."""
    own = _table(backend, scheme)
    if own is None:
        raise UnknownBackend("arith", backend, available(scheme))
    ref = _table("ref", scheme) or {}
    merged: dict[str, Any] = {}
    for name in kernel_names(_CONTRACTS[scheme]):
        merged[name] = own[name] if name in own else ref[name]
    merged.update({k: v for k, v in own.items() if k not in merged})
    return SimpleNamespace(backend=backend, **merged)


def available(scheme: Scheme = "mlkem") -> list[str]:
    """The backends that provide kernels for ``scheme``, fastest first."""
    return [b for b in BACKEND_ORDER if _table(b, scheme) is not None]


def active(backend: str | None = None) -> str:
    """The backend name a call with ``backend`` would use."""
    if backend is not None:
        return backend
    scoped = _scope.get()
    if scoped is not None:
        return scoped
    return os.environ.get(_ENV, "").strip() or DEFAULT_BACKEND


@overload
def kernels(scheme: Literal["mlkem"], backend: str | None = None) -> MLKEMKernels: ...
@overload
def kernels(scheme: Literal["mldsa"], backend: str | None = None) -> MLDSAKernels: ...


def kernels(scheme: Scheme, backend: str | None = None) -> Any:
    """The kernel table for ``scheme`` from the chosen backend.

    Raises :class:`pqkit.UnknownBackend` listing the available ones for an unknown name.
    """
    name = active(backend)
    if not isinstance(name, str) or name not in BACKEND_ORDER:
        raise UnknownBackend("arith", str(name), available(scheme))
    return _build(name, scheme)


@contextlib.contextmanager
def use(backend: str) -> Iterator[None]:
    """Use ``backend`` for the arithmetic of every call inside the ``with`` block."""
    if backend not in BACKEND_ORDER:
        raise UnknownBackend("arith", str(backend), list(BACKEND_ORDER))
    token = _scope.set(backend)
    try:
        yield
    finally:
        _scope.reset(token)


def backends() -> dict[str, Any]:
    """The available backends per scheme, and the active one."""
    return {
        "available": {scheme: available(scheme) for scheme in SCHEMES},
        "active": active(),
    }
