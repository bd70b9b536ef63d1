"""pqkit's optional extras: which package each installs, whether it is here, and the
one place that raises :class:`pqkit.MissingExtra` when a feature needs one that is
not.

The default install needs NumPy only. What needs more says so through
:func:`require`, so every such error is the same one line (naming the feature, the
package and the extra), and the ``pqkit`` command maps it to exit status 2.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

from pqkit.errors import MissingExtra

__all__ = ["EXTRAS", "installed", "require"]

EXTRAS: dict[str, str] = {
    "openssl": "cryptography",
    "jit": "numba",
    "dask": "dask",
    "progress": "tqdm",
    "x509": "pyasn1",
    "cms": "pyasn1_alt_modules",
}
"""Each extra of pyproject.toml that a feature may need -> the top-level package it
installs (the import name)."""


def _package(extra: str) -> str:
    try:
        return EXTRAS[extra]
    except KeyError:
        raise ValueError(f"unknown extra {extra!r}; known: {', '.join(EXTRAS)}") from None


def installed(extra: str) -> bool:
    """Whether the package of ``extra`` can be found (it is not imported)."""
    package = _package(extra)
    try:
        return importlib.util.find_spec(package) is not None
    except (ImportError, ValueError):  # a broken or blocked entry in sys.modules
        return False


def require(extra: str, feature: str, module: str | None = None) -> ModuleType:
    """``module`` (default: the extra's package) imported, or :class:`MissingExtra`
    naming ``feature`` and ``extra`` when the extra's package is missing or does not
    import. An ``ImportError`` of anything else propagates unchanged."""
    package = _package(extra)
    name = module or package
    if name.split(".")[0] != package:
        raise ValueError(f"{name} is not part of {package} (the {extra!r} extra)")
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        if (exc.name or package).split(".")[0] != package:
            raise
        reason = "" if not installed(extra) else " ".join(str(exc).split())
        raise MissingExtra(feature, extra, package, reason) from None
