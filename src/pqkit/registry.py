"""Name -> scheme lookup, aliases and listing.

Each scheme family package exposes ``SCHEMES: dict[str, scheme object]`` in its
canonical spelling; this module only finds them. Names match case-insensitively and
ignore ``-`` and ``_``, so ``"mlkem768"`` and ``"ml_kem_768"`` both mean
``"ML-KEM-768"``. The packages are imported on first use, so ``import pqkit`` stays
cheap.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, cast

from pqkit.errors import UnknownAlgorithm
from pqkit.schemes import Kem, Signature

__all__ = ["kem", "kems", "sig", "sigs"]

# The packages that define KEMs and signature schemes, in listing order.
_KEM_PACKAGES = ("pqkit.mlkem",)
_SIG_PACKAGES = ("pqkit.mldsa",)


def _normalise(name: str) -> str:
    return name.upper().replace("-", "").replace("_", "")


def _collect(packages: tuple[str, ...]) -> dict[str, Any]:
    table: dict[str, Any] = {}
    for package in packages:
        schemes = cast(Mapping[str, Any], importlib.import_module(package).SCHEMES)
        table.update(schemes)
    return table


def _lookup(name: object, packages: tuple[str, ...]) -> Any:
    if not isinstance(name, str):
        raise TypeError(f"algorithm name must be str, not {type(name).__name__}")
    table = _collect(packages)
    wanted = _normalise(name)
    for canonical, scheme in table.items():
        if _normalise(canonical) == wanted:
            return scheme
    raise UnknownAlgorithm(name, list(table))


def kems() -> list[str]:
    """The canonical names of every KEM pqkit provides."""
    return list(_collect(_KEM_PACKAGES))


def sigs() -> list[str]:
    """The canonical names of every signature scheme pqkit provides."""
    return list(_collect(_SIG_PACKAGES))


def kem(name: str) -> Kem:
    """The KEM called ``name``; raises :class:`pqkit.UnknownAlgorithm` otherwise."""
    return cast(Kem, _lookup(name, _KEM_PACKAGES))


def sig(name: str) -> Signature:
    """The signature scheme called ``name``; raises :class:`pqkit.UnknownAlgorithm` otherwise."""
    return cast(Signature, _lookup(name, _SIG_PACKAGES))
