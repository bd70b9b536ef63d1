"""Polynomial arithmetic kernels behind a narrow interface (docs/architecture.md).

Backends: ``ref`` (plain Python ints, reads like the FIPS pseudo-code: the test
oracle, not constant time), ``numpy`` (vectorised) and ``jit`` (compiled with
Numba: ``pip install ".[jit]"``). Choose per call (``kernels(scheme,
backend=...)``), per scope (``with pqkit.arith.use("ref"):``), per process
(``PQKIT_ARITH=ref``), else the automatic default: ``jit`` where Numba is installed
and its compiled code is ready, ``numpy`` until then (it compiles in a background
thread, :mod:`pqkit.arith.auto`; ``pqkit compile`` builds the cache ahead of time).

A backend is one :func:`register` call saying what it needs installed; each family
names its own table for the backend in its ``family.py`` (:mod:`pqkit.families`),
and :func:`register` may add tables too (a module with a ``KERNELS`` dict, or a
function returning one). A table must hold every *primitive* kernel of its family's
contract (``pqkit.<family>.kernels.contract``; the shared rules are in
:mod:`pqkit.arith.api`) and nothing else; the *composite* kernels it lacks are
written over its own primitives (the family's ``COMPOSITES``). This module names
no family. Nothing is ever
filled in from another backend: an incomplete or inconsistent table is refused
when it is built, with the backend and kernel named.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import warnings
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from pqkit import _env
from pqkit import families as _families
from pqkit.arith import auto as _auto
from pqkit.arith.api import kernel_names
from pqkit.errors import UnknownBackend

__all__ = [
    "BACKEND_ORDER",
    "DEFAULT_BACKEND",
    "Backend",
    "BackendUnavailable",
    "InvalidKernelTable",
    "NotConstantTimeWarning",
    "active",
    "available",
    "backends",
    "kernels",
    "register",
    "sources",
    "unregister",
    "use",
]

Scheme = str
"""A kernel family's name (:attr:`pqkit.families.Family.name`): ``"mlkem"`` ..."""

TableSource = str | Callable[[], Mapping[str, Any]]
"""Where a backend's table for one scheme comes from: the name of a module with a
``KERNELS`` dict, or a function returning the dict (called once, when the table is
built)."""

DEFAULT_BACKEND = "numpy"
"""The backend used when nothing selects one, until the ``jit`` backend's compiled
code is ready (:mod:`pqkit.arith.auto`; for good where Numba is not installed). The
first call in a fresh environment never waits for compilation."""

_ENV = "PQKIT_ARITH"
_scope = _auto.scope


class BackendUnavailable(UnknownBackend):
    """A registered backend whose requirements are not installed (``jit`` without
    Numba). A :class:`pqkit.UnknownBackend`, so existing handlers keep working; the
    message says what is missing and how to install it."""

    def __init__(self, name: str, available: list[str], reason: str) -> None:
        super().__init__("arith", name, available)
        self.reason = reason
        self.args = (
            f"arith backend {name!r} is unavailable: {reason}; available: {', '.join(available)}",
        )


class InvalidKernelTable(ValueError):
    """A backend's kernel table that does not match the contract (missing primitive
    kernels, unknown names, values that are not callable)."""


class NotConstantTimeWarning(RuntimeWarning):
    """A backend that is not constant time (``ref``) was selected for the process
    through the environment, so secret-key operations may leak through timing."""


@dataclass(frozen=True)
class Backend:
    """One registered arithmetic backend."""

    name: str
    tables: Mapping[str, TableSource]
    """Per scheme: where its kernel table comes from, beyond the tables the families
    declare for this backend (:func:`sources`)."""
    requires: tuple[str, ...] = ()
    """Top-level packages it imports, checked with ``importlib.util.find_spec``
    (without importing them) to decide availability."""
    extra: str | None = None
    """The pyproject extra that installs ``requires`` (for the error message)."""
    constant_time: bool = True
    """False for a backend that branches or divides on secret data (``ref``)."""
    rank: int = 50
    """Listing order, fastest first (lower first; ties by name)."""

    def missing(self) -> str | None:
        """What keeps this backend from loading, or None if nothing does."""
        for package in self.requires:
            if importlib.util.find_spec(package) is None:
                how = f'pip install ".[{self.extra}]"' if self.extra else f"pip install {package}"
                extra = f"the {self.extra!r} extra ({package})" if self.extra else package
                return f"{extra} is not installed; install it with {how}"
        return None


_REGISTRY: dict[str, Backend] = {}
_TABLES: dict[tuple[str, str], Any] = {}  # built tables, by (backend, scheme)
_WARNED: set[str] = set()


def _schemes() -> tuple[Scheme, ...]:
    """The kernel families: the registered families with a kernel contract."""
    return tuple(f.name for f in _families.families() if f.contract is not None)


def _family_changed() -> None:
    _TABLES.clear()


_families.on_change(_family_changed)


def sources(backend: Backend) -> dict[Scheme, TableSource]:
    """Where ``backend``'s table for each scheme comes from: the families' own
    declarations for it, and what :func:`register` named."""
    declared: dict[Scheme, TableSource] = {
        f.name: f.kernels[backend.name]
        for f in _families.families()
        if f.contract is not None and backend.name in f.kernels
    }
    return {**declared, **backend.tables}


def register(
    name: str,
    tables: Mapping[str, TableSource],
    *,
    requires: tuple[str, ...] = (),
    extra: str | None = None,
    constant_time: bool = True,
    rank: int = 50,
) -> Backend:
    """Register (or replace) the arithmetic backend ``name``.

    ``tables`` maps each scheme it serves to a module name (whose ``KERNELS`` dict
    is the table) or a function returning the table; a family may also name its
    table for ``name`` in its ``family.py``. Nothing is imported here: the table is
    loaded and checked against the contract the first time it is used.
    """
    if not isinstance(name, str) or not name or not name.replace("-", "_").isidentifier():
        raise ValueError(f"backend name must be a non-empty identifier, got {name!r}")
    known = _schemes()
    unknown = sorted(set(tables) - set(known))
    if unknown or not tables:
        raise ValueError(
            f"backend {name!r}: tables must map some of {', '.join(known)} to a source, "
            f"got {sorted(tables)}"
        )
    for scheme, source in tables.items():
        if not (isinstance(source, str) or callable(source)):
            raise TypeError(
                f"backend {name!r}: the {scheme} table source must be a module name or a "
                f"function, got {type(source).__name__}"
            )
    backend = Backend(name, dict(tables), tuple(requires), extra, constant_time, rank)
    _REGISTRY[name] = backend
    _forget(name)
    return backend


def unregister(name: str) -> None:
    """Remove a backend registered with :func:`register` (KeyError if unknown)."""
    del _REGISTRY[name]
    _forget(name)


def _forget(name: str) -> None:
    for key in [key for key in _TABLES if key[0] == name]:
        del _TABLES[key]
    _WARNED.discard(name)


def _ordered() -> list[Backend]:
    return sorted(_REGISTRY.values(), key=lambda b: (b.rank, b.name))


def __getattr__(attr: str) -> Any:
    # Derived from the registrations on every read (they may change).
    if attr == "BACKEND_ORDER":
        return tuple(b.name for b in _ordered())
    if attr == "SCHEMES":
        return _schemes()
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")


def _serves(backend: Backend, scheme: Scheme | None) -> bool:
    return scheme is None or scheme in backend.tables or scheme in sources(backend)


def available(scheme: Scheme | None = None) -> list[str]:
    """The backends that provide kernels for ``scheme`` (None: for any family) and
    whose requirements are installed, fastest first. Imports no backend (and so not
    Numba)."""
    return [b.name for b in _ordered() if _serves(b, scheme) and b.missing() is None]


def active(backend: str | None = None, scheme: Scheme | None = None) -> str:
    """The backend name a call for ``scheme`` (None: the first kernel family) with
    ``backend`` would use now (asking starts no background compilation)."""
    return _resolve(backend, scheme or _first(), start=False)[0]


def _first() -> Scheme:
    found = _schemes()
    return found[0] if found else ""


def _resolve(backend: str | None, scheme: Scheme, *, start: bool = True) -> tuple[str, bool]:
    """(name, whether it came from the environment)."""
    if backend is not None:
        return backend, False
    scoped = _scope.get()
    if scoped is not None:
        return scoped, False
    env = _env.value(_ENV)
    return (env, True) if env else (_auto.choice(scheme, start=start), False)


def _check(name: object, scheme: Scheme | None) -> Backend:
    """The registered backend ``name``, serving ``scheme`` (None: any) and installed;
    UnknownBackend / BackendUnavailable otherwise."""
    listed = available(scheme)
    backend = _REGISTRY.get(name) if isinstance(name, str) else None
    if backend is None or not _serves(backend, scheme):
        raise UnknownBackend("arith", str(name), listed)
    reason = backend.missing()
    if reason is not None:
        raise BackendUnavailable(backend.name, listed, reason)
    return backend


def _load(backend: Backend, scheme: Scheme) -> Mapping[str, Any]:
    source = sources(backend)[scheme]
    if not isinstance(source, str):
        return source()
    try:
        module = importlib.import_module(source)
    except ImportError as exc:
        # A requirement that find_spec saw but that does not import (Numba built for
        # another NumPy, say): the backend cannot be used; say why.
        if (exc.name or "").split(".")[0] in backend.requires:
            raise BackendUnavailable(backend.name, [], f"{exc}") from exc
        raise
    table: Mapping[str, Any] = module.KERNELS
    return table


def _build(backend: Backend, scheme: Scheme) -> Any:
    """The kernel table of ``backend`` for ``scheme``: its own primitives, its own
    composites where it has them, the others composed over its primitives."""
    own = _load(backend, scheme)
    where = f"arith backend {backend.name!r} ({scheme})"
    if not isinstance(own, Mapping):
        raise InvalidKernelTable(f"{where}: the table is a {type(own).__name__}, not a dict")
    declared = _families.family(scheme)
    assert declared is not None and declared.contract is not None  # kernels() checked
    names = kernel_names(_families.load(declared.contract))
    composites = _families.load(declared.composites) if declared.composites else {}
    unknown = sorted(set(own) - set(names))
    if unknown:
        raise InvalidKernelTable(f"{where}: kernels not in the contract: {', '.join(unknown)}")
    bad = sorted(n for n, fn in own.items() if not callable(fn))
    if bad:
        raise InvalidKernelTable(f"{where}: not callable: {', '.join(bad)}")
    missing = [n for n in names if n not in composites and n not in own]
    if missing:
        raise InvalidKernelTable(
            f"{where} lacks the primitive kernels {', '.join(missing)} "
            "(primitives are never filled in from another backend)"
        )
    table = SimpleNamespace(backend=backend.name, **{n: own[n] for n in names if n in own})
    composed = []
    for name, factory in composites.items():
        if name not in own:
            setattr(table, name, factory(table))
            composed.append(name)
    table.composed = frozenset(composed)
    return table


def kernels(scheme: Scheme, backend: str | None = None) -> Any:
    """The kernel table for ``scheme`` from the chosen backend: an object following
    the family's contract (``pqkit.<family>.kernels.contract``).

    Raises :class:`pqkit.UnknownBackend` listing the available ones for an unknown
    name (:class:`BackendUnavailable`, saying what to install, for a registered one
    whose requirements are missing) and :class:`InvalidKernelTable` for a table that
    does not match the contract. Warns once (:class:`NotConstantTimeWarning`) when
    ``PQKIT_ARITH`` selects a backend that is not constant time.
    """
    name, from_env = _resolve(backend, scheme)
    table = _TABLES.get((name, scheme)) if isinstance(name, str) else None
    if table is None:
        if scheme not in _schemes():
            raise ValueError(f"unknown scheme {scheme!r}; known: {', '.join(_schemes())}")
        chosen = _check(name, scheme)
        table = _TABLES[(name, scheme)] = _build(chosen, scheme)
    if from_env and name not in _WARNED and not _REGISTRY[name].constant_time:
        _WARNED.add(name)
        warnings.warn(
            f"{_ENV}={name} selects the {name!r} arithmetic backend, which is not constant "
            "time: secret-key operations (key generation, decapsulation, signing) may leak "
            "secrets through timing. Use it for testing only.",
            NotConstantTimeWarning,
            stacklevel=2,
        )
    return table


def use(backend: str) -> contextlib.AbstractContextManager[None]:
    """Use ``backend`` for the arithmetic of every call inside the ``with`` block.

    Fails at once, at the call (not at ``with`` nor at the first operation), for an
    unknown backend or one whose requirements are not installed.
    """
    _check(backend, None)
    return _using(backend)


@contextlib.contextmanager
def _using(backend: str) -> Iterator[None]:
    token = _scope.set(backend)
    try:
        yield
    finally:
        _scope.reset(token)


def backends() -> dict[str, Any]:
    """The available backends per scheme, and the active one."""
    return {
        "available": {scheme: available(scheme) for scheme in _schemes()},
        "active": active(),
    }


# --- the built-in backends: each family names its own table for them --------------

_REGISTRY["jit"] = Backend("jit", {}, ("numba",), "jit", rank=10)
_REGISTRY["numpy"] = Backend("numpy", {}, rank=20)
_REGISTRY["ref"] = Backend("ref", {}, constant_time=False, rank=30)
