"""The pyca/cryptography side of key conversion: which keys convert with the
installed cryptography (:func:`convertible`), the pyca class that serves a parameter
set, and which parameter set a pyca key object holds. Knows no pqkit key class, so
the key classes (:mod:`pqkit.keys._base`, :mod:`pqkit.keys.hybrid`) and
:mod:`pqkit.keys.pyca` all build on it; :mod:`pqkit.keys.pyca` documents the policy.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any, NoReturn

__all__ = ["convertible", "identify", "not_convertible", "pyca_class"]

# pqkit parameter set -> (pyca module under cryptography.hazmat.primitives.asymmetric,
# the stem of its class names): every pairing pqkit knows how to make. Whether one
# works is up to the installed cryptography (convertible()); ML-KEM-512 is here so
# that a cryptography release that adds it converts without a change here.
_PYCA_NAMES: dict[str, tuple[str, str]] = {
    "ML-KEM-512": ("mlkem", "MLKEM512"),
    "ML-KEM-768": ("mlkem", "MLKEM768"),
    "ML-KEM-1024": ("mlkem", "MLKEM1024"),
    "ML-DSA-44": ("mldsa", "MLDSA44"),
    "ML-DSA-65": ("mldsa", "MLDSA65"),
    "ML-DSA-87": ("mldsa", "MLDSA87"),
}


def _cryptography() -> Any:
    from pqkit._extras import require

    return require("openssl", "converting keys to and from pyca/cryptography")


def _pyca_module(family_module: str) -> Any | None:
    try:
        return importlib.import_module(f"cryptography.hazmat.primitives.asymmetric.{family_module}")
    except ImportError:
        return None


def _pyca_classes(name: str) -> tuple[Any, Any] | None:
    """pyca's (private, public) classes for ``name``, if this cryptography has both."""
    if name not in _PYCA_NAMES:
        return None
    family_module, stem = _PYCA_NAMES[name]
    module = _pyca_module(family_module)
    private = getattr(module, f"{stem}PrivateKey", None)
    public = getattr(module, f"{stem}PublicKey", None)
    return None if private is None or public is None else (private, public)


@cache
def convertible() -> tuple[str, ...]:
    """The parameter sets whose keys convert with the installed cryptography, in
    registry order: those whose pyca classes exist and build a key (the probe: a
    private key from an all-zero seed). :class:`pqkit.MissingExtra` (an
    ``ImportError``) without cryptography."""
    _cryptography()
    from cryptography.exceptions import UnsupportedAlgorithm

    from pqkit.registry import algorithm

    works = []
    for name in _PYCA_NAMES:
        classes = _pyca_classes(name)
        if classes is None:
            continue
        try:
            classes[0].from_seed_bytes(bytes(algorithm(name).length_seed))
        except UnsupportedAlgorithm:
            continue
        works.append(name)
    return tuple(works)


def not_convertible(name: str) -> NoReturn:
    """Raise ``UnsupportedAlgorithm`` for ``name``'s keys, naming what converts."""
    version = _cryptography().__version__  # MissingExtra without cryptography
    from cryptography.exceptions import UnsupportedAlgorithm

    offered = (
        ", ".join(convertible()) or "none (pyca/cryptography 48 or later has ML-KEM and ML-DSA)"
    )
    raise UnsupportedAlgorithm(
        f"{name} keys do not convert to pyca/cryptography {version}; "
        f"the keys that convert with it: {offered}"
    )


def pyca_class(name: str, kind: str) -> Any:
    """The pyca/cryptography class for parameter set ``name``; ``kind`` is
    ``"Private"`` or ``"Public"`` (else ``ValueError``).

    ``cryptography.exceptions.UnsupportedAlgorithm`` for a parameter set that is
    not in :func:`convertible`, :class:`pqkit.MissingExtra` (an ``ImportError``)
    without cryptography.
    """
    if kind not in ("Private", "Public"):
        raise ValueError(f"kind must be 'Private' or 'Public', not {kind!r}")
    _cryptography()
    classes = _pyca_classes(name) if name in convertible() else None
    if classes is None:
        not_convertible(name)
    return classes[0] if kind == "Private" else classes[1]


def identify(key: Any) -> tuple[str, bool]:
    """(parameter set, whether private) of a pyca/cryptography ML-KEM or ML-DSA key
    object; ``TypeError`` for any other object."""
    _cryptography()
    for name in _PYCA_NAMES:
        classes = _pyca_classes(name)
        if classes is None:
            continue
        if isinstance(key, classes[0]):
            return name, True
        if isinstance(key, classes[1]):
            return name, False
    raise TypeError(
        "key must be a pyca/cryptography ML-KEM or ML-DSA key object, "
        f"not {type(key).__module__}.{type(key).__name__}"
    )
