"""The pyca/cryptography side of key conversion: which pyca class serves a parameter
set, and which parameter set a pyca key object holds. Knows no pqkit key class, so
the key classes (:mod:`pqkit.keys._base`) and :mod:`pqkit.keys.pyca` both build on
it.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["identify", "pyca_class"]

# pqkit parameter set -> (pyca module under cryptography.hazmat.primitives.asymmetric,
# the stem of its class names). ML-KEM-512 is listed so that the error can say that
# the installed cryptography lacks it, rather than that pqkit does.
_PYCA_NAMES: dict[str, tuple[str, str]] = {
    "ML-KEM-512": ("mlkem", "MLKEM512"),
    "ML-KEM-768": ("mlkem", "MLKEM768"),
    "ML-KEM-1024": ("mlkem", "MLKEM1024"),
    "ML-DSA-44": ("mldsa", "MLDSA44"),
    "ML-DSA-65": ("mldsa", "MLDSA65"),
    "ML-DSA-87": ("mldsa", "MLDSA87"),
}


def _cryptography() -> Any:
    try:
        return importlib.import_module("cryptography")
    except ImportError:
        raise ImportError(
            "converting keys to and from pyca/cryptography needs the cryptography package: "
            "pip install cryptography (or pqkit's 'openssl' extra)"
        ) from None


def _unsupported(message: str) -> Exception:
    from cryptography.exceptions import UnsupportedAlgorithm

    return UnsupportedAlgorithm(message)


def _pyca_module(family_module: str) -> Any | None:
    try:
        return importlib.import_module(f"cryptography.hazmat.primitives.asymmetric.{family_module}")
    except ImportError:
        return None


def _offered(family_module: str, kind: str) -> list[str]:
    """The pqkit names of the parameter sets the installed cryptography has."""
    module = _pyca_module(family_module)
    return [
        name
        for name, (mod, stem) in _PYCA_NAMES.items()
        if mod == family_module and module is not None and hasattr(module, f"{stem}{kind}Key")
    ]


def pyca_class(name: str, kind: str) -> Any:
    """The pyca/cryptography class for parameter set ``name``; ``kind`` is
    ``"Private"`` or ``"Public"``.

    ``UnsupportedAlgorithm`` when the installed cryptography has no such class,
    ``ImportError`` without cryptography, ``ValueError`` for a name pqkit cannot
    convert (a round-3 variant, say).
    """
    if kind not in ("Private", "Public"):
        raise ValueError(f"kind must be 'Private' or 'Public', not {kind!r}")
    if name not in _PYCA_NAMES:
        raise ValueError(
            f"{name} keys have no pyca/cryptography counterpart; convertible: "
            + ", ".join(_PYCA_NAMES)
        )
    crypto = _cryptography()
    family_module, stem = _PYCA_NAMES[name]
    module = _pyca_module(family_module)
    cls = None if module is None else getattr(module, f"{stem}{kind}Key", None)
    if cls is None:
        offered = _offered(family_module, kind)
        raise _unsupported(
            f"cryptography {crypto.__version__} has no {name}"
            + (f" (it offers {', '.join(offered)})" if offered else "")
        )
    return cls


def identify(key: Any) -> tuple[str, bool]:
    """(parameter set, whether private) of a pyca/cryptography ML-KEM or ML-DSA key
    object; ``TypeError`` for any other object."""
    _cryptography()
    for name, (family_module, stem) in _PYCA_NAMES.items():
        module = _pyca_module(family_module)
        if module is None:
            continue
        private = getattr(module, f"{stem}PrivateKey", None)
        public = getattr(module, f"{stem}PublicKey", None)
        if private is not None and isinstance(key, private):
            return name, True
        if public is not None and isinstance(key, public):
            return name, False
    raise TypeError(
        "key must be a pyca/cryptography ML-KEM or ML-DSA key object, "
        f"not {type(key).__module__}.{type(key).__name__}"
    )
