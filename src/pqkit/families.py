"""The families pqkit knows, each declared once inside its own folder.

A family (ML-KEM, ML-DSA, SLH-DSA, the hybrid KEMs, the batched hash kernels ...)
declares in one module, ``family.py`` in its folder, a :class:`Family`: its name,
where its catalogue of algorithms lives, its kernel contract, its kernel tables per
arithmetic backend, its whole operations, and the parts of its warm-up. Every value
is a module path (``"pqkit.mlkem.kernels.ref"``) or ``"module:attribute"``, so a
declaration imports nothing but this module: reading every family costs a few
small imports, and a family's code loads on first use.

The shared machinery (:mod:`pqkit.registry`, :mod:`pqkit.arith`, the warm-up and
``pqkit compile``) iterates over :func:`families` and never names one. Families
are found by looking for ``family.py`` one or two folders below the package
(``pqkit/<family>/family.py``, ``pqkit/<layer>/<family>/family.py``), on the
first question asked; a family defined elsewhere (a plug-in, a test) calls
:func:`register`. Adding a family is adding its folder (docs/architecture.md,
"Adding a family").
"""

from __future__ import annotations

import importlib
import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

__all__ = [
    "Family",
    "Part",
    "families",
    "family",
    "load",
    "on_change",
    "register",
    "unregister",
]


@dataclass(frozen=True)
class Part:
    """One unit of a family's warm-up: real operations that build (or load) the
    compiled code its calls use. ``pqkit compile`` hands parts to its worker
    processes; the background warm-up runs a group's parts before switching it."""

    name: str
    """Unique over every family (``"mlkem"``, ``"mlkem-batch"``, ``"slhdsa"``)."""
    group: str
    """The kernel group whose automatic backend switches once its parts have run:
    a family's kernel name (``"mlkem"``, ``"hash"``) or a batch group
    (``"mlkem-batch"``, asked for by :func:`pqkit.arith.ops.batch_operations_now`)."""
    steps: str
    """``"module:function"``: the function returns the (label, callable) steps."""
    order: int = 50
    """Compile order, lower first: longest first, so that parallel workers end close
    together, and a batch part after its family's single operations."""
    backend: str = "jit"
    """The backend the group switches to once its parts have run."""
    ahead: bool = False
    """Whether ``pqkit compile`` builds it without ``--all`` / ``--only``: only ML-KEM's
    and ML-DSA's single operations are; every other group compiles on first use, in
    the background (no call waits for it), which keeps the default ``pqkit compile``
    within its CPU budget (docs/decisions.md, "Compile time, fourth round")."""


@dataclass(frozen=True)
class Family:
    """What a family declares (all module paths: nothing here imports the family)."""

    name: str
    """The family's kernel name (``"mlkem"``): the key of its tables in
    :func:`pqkit.arith.kernels` and :func:`pqkit.arith.ops.operations`."""
    rank: int = 50
    """Listing order of its algorithms in :func:`pqkit.kems` / :func:`pqkit.sigs`."""
    catalog: str | None = None
    """The light module whose ``CATALOG`` lists its :class:`pqkit.registry.Algorithm`
    entries, or None (a kernel-only family)."""
    contract: str | None = None
    """``"module:Class"``: the Protocol its kernel tables follow, or None (no table)."""
    composites: str | None = None
    """``"module:NAME"``: composite kernel name -> factory over a table's primitives."""
    kernels: Mapping[str, str] = field(default_factory=dict)
    """Arithmetic backend -> module whose ``KERNELS`` dict is its table."""
    operations: Mapping[str, str] = field(default_factory=dict)
    """Backend -> module whose ``OPERATIONS`` dict holds whole operations."""
    batch_operations: Mapping[str, str] = field(default_factory=dict)
    """Backend -> module whose ``BATCH_OPERATIONS`` dict holds batch operations."""
    warmup: tuple[Part, ...] = ()
    """Its warm-up parts (compile units)."""


def kernel_family(name: str, rank: int, contract: str, order: int, ahead: bool = False) -> Family:
    """The declaration of a family laid out as ``pqkit.<name>`` with kernel tables
    only (no whole-operation or batch kernels): catalogue ``params``,
    ``kernels.contract:<contract>``, tables ``kernels.{jit,numpy,ref}`` and one
    warm-up part ``kernels.warmup:steps`` (part and group ``<name>``, compile order
    ``order``, built by the default ``pqkit compile`` only if ``ahead``)."""
    k = f"pqkit.{name}.kernels"
    return Family(
        name=name,
        rank=rank,
        catalog=f"pqkit.{name}.params",
        contract=f"{k}.contract:{contract}",
        kernels={backend: f"{k}.{backend}" for backend in ("jit", "numpy", "ref")},
        warmup=(Part(name, name, f"{k}.warmup:steps", order=order, ahead=ahead),),
    )


def lattice_family(
    name: str, rank: int, contract: str, orders: tuple[int, int], composites: str | None = None
) -> Family:
    """The declaration of a family laid out as ``pqkit.<name>`` with the usual kernel
    modules: :func:`kernel_family`'s (compile order ``orders[0]``), plus whole
    operations ``kernels.jit_ops``, batch operations ``kernels.jit_batch`` and the
    warm-up ``kernels.warmup:batch_steps`` (part and group ``<name>-batch``,
    ``orders[1]``); ``composites``, if given, names ``kernels.compose:<composites>``.
    The single operations' part is built by the default ``pqkit compile``
    (``ahead``), the batch part on first use or with ``--all``."""
    k = f"pqkit.{name}.kernels"
    single = kernel_family(name, rank, contract, orders[0], ahead=True)
    return replace(
        single,
        composites=f"{k}.compose:{composites}" if composites else None,
        operations={"jit": f"{k}.jit_ops"},
        batch_operations={"jit": f"{k}.jit_batch"},
        warmup=(
            *single.warmup,
            Part(f"{name}-batch", f"{name}-batch", f"{k}.warmup:batch_steps", order=orders[1]),
        ),
    )


_lock = threading.RLock()
_FAMILIES: dict[str, Family] = {}
_state: dict[str, bool] = {"discovered": False}
_listeners: list[Callable[[], None]] = []


def _package_dirs() -> list[str]:
    return [os.path.dirname(os.path.abspath(__file__))]


def _discover() -> None:
    """Import every ``family.py`` one or two folders below the package (once)."""
    found: list[str] = []
    for root in _package_dirs():
        for first in sorted(os.listdir(root)):
            folder = os.path.join(root, first)
            if first.startswith((".", "_")) or not os.path.isdir(folder):
                continue
            if os.path.isfile(os.path.join(folder, "family.py")):
                found.append(f"pqkit.{first}.family")
            for second in sorted(os.listdir(folder)):
                if os.path.isfile(os.path.join(folder, second, "family.py")):
                    found.append(f"pqkit.{first}.{second}.family")
    for module in found:
        declared = importlib.import_module(module).FAMILY
        if not isinstance(declared, Family):  # pragma: no cover - a declaration bug
            raise TypeError(f"{module}.FAMILY is a {type(declared).__name__}, not a Family")
        _FAMILIES.setdefault(declared.name, declared)


def _ensure() -> None:
    if _state["discovered"]:
        return
    with _lock:
        if not _state["discovered"]:
            _discover()
            _state["discovered"] = True


def families() -> tuple[Family, ...]:
    """Every registered family, in listing order (rank, then name)."""
    _ensure()
    return tuple(sorted(_FAMILIES.values(), key=lambda f: (f.rank, f.name)))


def family(name: str) -> Family | None:
    """The family called ``name``, or None."""
    _ensure()
    return _FAMILIES.get(name)


def register(declared: Family) -> Family:
    """Register (or replace) a family defined outside the package's folders."""
    if not isinstance(declared, Family):
        raise TypeError(f"register() takes a Family, not {type(declared).__name__}")
    if not declared.name.replace("-", "_").isidentifier():
        raise ValueError(f"family name must be an identifier, got {declared.name!r}")
    _ensure()
    with _lock:
        _FAMILIES[declared.name] = declared
    _changed()
    return declared


def unregister(name: str) -> None:
    """Remove a family (KeyError if unknown)."""
    _ensure()
    with _lock:
        del _FAMILIES[name]
    _changed()


def on_change(listener: Callable[[], None]) -> None:
    """Call ``listener`` after every :func:`register` / :func:`unregister` (the
    registry and the kernel tables drop what they derived from the old set)."""
    _listeners.append(listener)


def _changed() -> None:
    for listener in _listeners:
        listener()


def load(reference: str) -> Any:
    """The object a ``"module:attribute"`` reference names (the module for a bare
    module path)."""
    module, _, attribute = reference.partition(":")
    loaded = importlib.import_module(module)
    return getattr(loaded, attribute) if attribute else loaded
