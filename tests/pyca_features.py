"""Skips for the pyca/cryptography features a test needs, with the reason.

pqkit accepts cryptography >= 44 (for AES and PBES2); its ML-KEM and ML-DSA key
classes came later, and ``MLDSAMuHasher`` / ``sign_mu`` / ``verify_mu`` later
still. A test that needs one of those skips with a reason naming the installed
version and the missing feature, and fails as usual where the feature exists.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

import pytest

cryptography = pytest.importorskip("cryptography", reason="cryptography is not installed")
VERSION: str = cryptography.__version__

_FAMILY = {"mlkem": "ML-KEM", "mldsa": "ML-DSA"}


def pyca_module(name: str) -> ModuleType:
    """``cryptography.hazmat.primitives.asymmetric.<name>``; skips the calling test
    module when this cryptography does not have it, or has its classes but cannot
    use them (cryptography 47: "not supported by this backend")."""
    from pqkit.keys.pyca import convertible

    family = _FAMILY.get(name, name)
    try:
        module = importlib.import_module(f"cryptography.hazmat.primitives.asymmetric.{name}")
    except ImportError:
        pytest.skip(
            f"cryptography {VERSION} has no {family} "
            f"(no cryptography.hazmat.primitives.asymmetric.{name})",
            allow_module_level=True,
        )
    if not any(n.startswith(family + "-") for n in convertible()):
        pytest.skip(
            f"cryptography {VERSION} has {family} key classes, but its OpenSSL refuses them",
            allow_module_level=True,
        )
    return module


def lacks(owner: Any, attribute: str) -> pytest.MarkDecorator:
    """A skipif mark for a test that needs ``owner.attribute`` (a class or module)."""
    where = getattr(owner, "__name__", repr(owner))
    return pytest.mark.skipif(
        not hasattr(owner, attribute),
        reason=f"cryptography {VERSION} has no {where}.{attribute}",
    )
