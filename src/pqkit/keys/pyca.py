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

from typing import Any

from pqkit.keys._base import PrivateKey, PublicKey, from_pyca
from pqkit.keys._pyca import convertible, pyca_class

__all__ = ["convertible", "from_cryptography_key", "pyca_class", "to_cryptography_key"]


def to_cryptography_key(key: Any) -> Any:
    """The pyca/cryptography key object of ``key``'s parameter set, same key material
    (each key class's ``to_cryptography_key``).

    ``UnsupportedAlgorithm`` for a key not in :func:`convertible` (the hybrid KEMs'
    keys included). A private key goes over as its seed (pyca keeps only seeds), so
    a key loaded from an expanded key alone cannot be converted: ``ValueError``.
    """
    from pqkit.keys.hybrid import HybridPrivateKey, HybridPublicKey

    if isinstance(key, (PrivateKey, PublicKey, HybridPrivateKey, HybridPublicKey)):
        return key.to_cryptography_key()
    raise TypeError(f"key must be a pqkit key object, not {type(key).__name__}")


def from_cryptography_key(key: Any) -> PrivateKey | PublicKey:
    """The pqkit key object of a pyca/cryptography ML-KEM or ML-DSA key.

    The private key is rebuilt from its seed and the public key from its raw bytes,
    with pqkit's own checks; ``TypeError`` for any other object.
    """
    return from_pyca(key)
