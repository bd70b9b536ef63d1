"""pqkit key objects to and from pyca/cryptography key objects.

pyca/cryptography (version 46 and later, on OpenSSL 3.5+) has ML-KEM-768,
ML-KEM-1024 and ML-DSA-44/65/87 key classes; its certificate and CSR builders
accept only those. :func:`to_cryptography_key` turns a pqkit key into the pyca
key of the same parameter set (the private key through its seed, the public key
through its raw bytes), :func:`from_cryptography_key` goes back. The names follow
pyOpenSSL's ``PKey.to_cryptography_key`` / ``PKey.from_cryptography_key``; the
key classes have them as methods too::

    from cryptography import x509
    key = pqkit.MLDSA65PrivateKey.generate()
    csr = x509.CertificateSigningRequestBuilder().subject_name(name).sign(
        key.to_cryptography_key(), None
    )

A parameter set that the installed cryptography lacks (ML-KEM-512 in every
release so far) raises ``cryptography.exceptions.UnsupportedAlgorithm`` naming
what it does offer; without cryptography, :class:`pqkit.MissingExtra` (an
``ImportError``) names the ``openssl`` extra.
"""

from __future__ import annotations

import importlib
from typing import Any

from pqkit.keys._base import PrivateKey, PublicKey

__all__ = ["from_cryptography_key", "pyca_class", "to_cryptography_key"]

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
    from pqkit._extras import require

    return require("openssl", "converting keys to and from pyca/cryptography")


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
    :class:`pqkit.MissingExtra` without cryptography, ``ValueError`` for a name pqkit cannot
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


def to_cryptography_key(key: PrivateKey | PublicKey) -> Any:
    """The pyca/cryptography key object of ``key``'s parameter set, same key material.

    A private key goes over as its seed (pyca keeps only seeds), so a key loaded
    from an expanded key alone cannot be converted: ``ValueError``.
    """
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
    for name, (family_module, stem) in _PYCA_NAMES.items():
        module = _pyca_module(family_module)
        if module is None:
            continue
        private = getattr(module, f"{stem}PrivateKey", None)
        public = getattr(module, f"{stem}PublicKey", None)
        pqkit_class = private_key_class(name)
        if private is not None and isinstance(key, private):
            return pqkit_class.from_seed_bytes(key.private_bytes_raw())
        if public is not None and isinstance(key, public):
            return pqkit_class._public_class.from_public_bytes(key.public_bytes_raw())
    raise TypeError(
        "key must be a pyca/cryptography ML-KEM or ML-DSA key object, "
        f"not {type(key).__module__}.{type(key).__name__}"
    )
