"""Deprecated import paths: names and modules that moved when each family took its
own kernels (docs/decisions.md, "Issue 27"). Old paths keep working and warn with
a :class:`DeprecationWarning` naming the new one.

Both mechanisms import by name on first use, so nothing here loads a family early.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from importlib.abc import Loader
    from importlib.machinery import ModuleSpec

__all__ = ["MODULES", "install", "moved_attributes"]


def _warn(old: str, new: str) -> None:
    warnings.warn(f"{old} moved to {new}", DeprecationWarning, stacklevel=3)


def moved_attributes(module: str, targets: tuple[str, ...]) -> Callable[[str], Any]:
    """A module ``__getattr__`` serving each name that one of the ``targets`` modules
    exports (``__all__``) from there, with a DeprecationWarning: the names that
    moved out of ``module``. The targets are imported only on such a request."""

    def __getattr__(name: str) -> Any:
        if not name.startswith("__"):
            for target in targets:
                moved_to = importlib.import_module(target)
                if name in getattr(moved_to, "__all__", ()):
                    _warn(f"{module}.{name}", f"{target}.{name}")
                    return getattr(moved_to, name)
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    return __getattr__


MODULES: dict[str, str] = {
    "pqkit.arith.ref_mlkem": "pqkit.mlkem.kernels.ref",
    "pqkit.arith.numpy_mlkem": "pqkit.mlkem.kernels.numpy",
    "pqkit.arith.jit_mlkem": "pqkit.mlkem.kernels.jit",
    "pqkit.arith.jit_mlkem_ops": "pqkit.mlkem.kernels.jit_ops",
    "pqkit.arith.jit_mlkem_batch": "pqkit.mlkem.kernels.jit_batch",
    "pqkit.arith.compose": "pqkit.mlkem.kernels.compose",
    "pqkit.arith.ref_mldsa": "pqkit.mldsa.kernels.ref",
    "pqkit.arith.numpy_mldsa": "pqkit.mldsa.kernels.numpy",
    "pqkit.arith.jit_mldsa": "pqkit.mldsa.kernels.jit",
    "pqkit.arith.jit_mldsa_ops": "pqkit.mldsa.kernels.jit_ops",
    "pqkit.arith.jit_mldsa_batch": "pqkit.mldsa.kernels.jit_batch",
    "pqkit.arith.jit_slhdsa_ops": "pqkit.slhdsa.kernels.jit_ops",
    "pqkit.arith.ref_hash": "pqkit.common.kernels.ref",
    "pqkit.arith.numpy_hash": "pqkit.common.kernels.numpy",
    "pqkit.arith.jit_hash": "pqkit.common.kernels.jit",
    "pqkit.arith.jit_sponge": "pqkit.common.kernels.jit_sponge",
    "pqkit.arith._hash": "pqkit.common.kernels._hash",
}
"""Old module path -> new module path."""


class _Alias:
    """Imports an old module path as its new module (the same module object): a
    meta path finder and loader by protocol (``find_spec``, ``create_module``,
    ``exec_module``). NOTE: not a subclass of ``importlib.abc``'s classes, whose
    import (``importlib.resources`` with it) cost every ``import pqkit`` 15 ms."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname not in MODULES:
            return None
        from importlib.machinery import ModuleSpec

        return ModuleSpec(fullname, cast("Loader", self))

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        new = MODULES[module.__name__]
        _warn(module.__name__, new)
        # The import system returns what sys.modules holds after this call.
        sys.modules[module.__name__] = importlib.import_module(new)


_FINDER = _Alias()


def install() -> None:
    """Serve the old module paths (idempotent)."""
    if _FINDER not in sys.meta_path:
        sys.meta_path.append(_FINDER)
