"""pqkit key objects to and from pyca/cryptography key objects.

:func:`to_cryptography_key` turns a pqkit key into the pyca key of the same
parameter set (the private key through its seed, the public key through its raw
bytes), :func:`from_cryptography_key` goes back. The names follow pyOpenSSL's
``PKey.to_cryptography_key`` / ``PKey.from_cryptography_key``; the key classes
have them as methods too::

    from cryptography import x509
    key = pqkit.MLDSA65PrivateKey.generate()
    csr = x509.CertificateSigningRequestBuilder().subject_name(name).sign(
        key.to_cryptography_key(), None
    )

Which keys convert depends on the installed cryptography, and :func:`convertible`
computes it from that installation (docs/decisions.md, "Issue 25"): the parameter
sets whose pyca key class exists *and* works (cryptography 47 has the ML-KEM and
ML-DSA classes, but its OpenSSL refuses them). Measured on the releases that
pyproject.toml accepts: cryptography 44, 45, 46 and 47: none; 48, 49 and 50:
ML-KEM-768, ML-KEM-1024, ML-DSA-44, ML-DSA-65, ML-DSA-87. No release has
ML-KEM-512, SLH-DSA or the hybrid KEMs.

Every key that does not convert with the installed cryptography raises
``cryptography.exceptions.UnsupportedAlgorithm`` naming what does; without
cryptography, :class:`pqkit.MissingExtra` (an ``ImportError``) names the ``openssl``
extra; a private key loaded from an
expanded key alone (no seed, which is all pyca keeps) raises ``ValueError``.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any, NoReturn

from pqkit.keys._base import PrivateKey, PublicKey

__all__ = ["convertible", "from_cryptography_key", "pyca_class", "to_cryptography_key"]

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
    private key from an all-zero seed). ``ImportError`` without cryptography."""
    from cryptography.exceptions import UnsupportedAlgorithm

    from pqkit.registry import algorithm

    _cryptography()
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


def _not_convertible(name: str) -> NoReturn:
    from cryptography.exceptions import UnsupportedAlgorithm

    version = _cryptography().__version__
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
        _not_convertible(name)
    return classes[0] if kind == "Private" else classes[1]


def to_cryptography_key(key: Any) -> Any:
    """The pyca/cryptography key object of ``key``'s parameter set, same key material.

    ``UnsupportedAlgorithm`` for a key not in :func:`convertible` (the hybrid KEMs'
    keys included). A private key goes over as its seed (pyca keeps only seeds), so
    a key loaded from an expanded key alone cannot be converted: ``ValueError``.
    """
    from pqkit.keys.hybrid import HybridPrivateKey, HybridPublicKey

    _cryptography()
    if isinstance(key, (HybridPrivateKey, HybridPublicKey)):
        _not_convertible(key.algorithm)
    if isinstance(key, PrivateKey):
        cls = pyca_class(key.algorithm.name, "Private")
        if key._seed is None:
            raise ValueError(
                f"this {key.algorithm.name} key was loaded from an expanded key and has no "
                "seed; pyca/cryptography builds private keys only from the seed"
            )
        return cls.from_seed_bytes(key._seed)
    if isinstance(key, PublicKey):
        cls = pyca_class(key.algorithm.name, "Public")
        return cls.from_public_bytes(key.public_bytes_raw())
    raise TypeError(f"key must be a pqkit key object, not {type(key).__name__}")


def from_cryptography_key(key: Any) -> PrivateKey | PublicKey:
    """The pqkit key object of a pyca/cryptography ML-KEM or ML-DSA key.

    The private key is rebuilt from its seed and the public key from its raw bytes,
    with pqkit's own checks; ``TypeError`` for any other object.
    """
    from pqkit.keys import private_key_class

    _cryptography()
    for name in _PYCA_NAMES:
        classes = _pyca_classes(name)
        if classes is None:
            continue
        private, public = classes
        pqkit_class = private_key_class(name)
        if isinstance(key, private):
            return pqkit_class.from_seed_bytes(key.private_bytes_raw())
        if isinstance(key, public):
            return pqkit_class._public_class.from_public_bytes(key.public_bytes_raw())
    raise TypeError(
        "key must be a pyca/cryptography ML-KEM or ML-DSA key object, "
        f"not {type(key).__module__}.{type(key).__name__}"
    )
