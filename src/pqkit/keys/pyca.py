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
what it does offer; without cryptography, ``ImportError`` says how to install it.
"""

from __future__ import annotations

from typing import Any

from pqkit.keys._base import PrivateKey, PublicKey, from_pyca
from pqkit.keys._pyca import pyca_class

__all__ = ["from_cryptography_key", "pyca_class", "to_cryptography_key"]


def to_cryptography_key(key: PrivateKey | PublicKey) -> Any:
    """The pyca/cryptography key object of ``key``'s parameter set, same key material.

    A private key goes over as its seed (pyca keeps only seeds), so a key loaded
    from an expanded key alone cannot be converted: ``ValueError``.
    """
    if isinstance(key, (PrivateKey, PublicKey)):
        return key.to_cryptography_key()
    raise TypeError(f"key must be a pqkit key object, not {type(key).__name__}")


def from_cryptography_key(key: Any) -> PrivateKey | PublicKey:
    """The pqkit key object of a pyca/cryptography ML-KEM or ML-DSA key.

    The private key is rebuilt from its seed and the public key from its raw bytes,
    with pqkit's own checks; ``TypeError`` for any other object.
    """
    return from_pyca(key)
