"""Key serialisation: PKCS#8 and SubjectPublicKeyInfo for ML-KEM and ML-DSA.

RFC 9935 (ML-KEM) and RFC 9881 (ML-DSA) formats, DER or PEM, with
password-encrypted PKCS#8 (PBES2) when ``cryptography`` is installed. The
loaders (:mod:`pqkit.keys.loaders`, exported as ``pqkit.load_*``) read the
algorithm OID and return the matching key class::

    key = pqkit.load_pem_private_key(open("key.pem", "rb").read(), password=None)
    pem = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
"""

from __future__ import annotations

from pqkit.serialization import options as _options
from pqkit.serialization.options import *  # noqa: F403 (re-exported: its __all__)

__all__: list[str] = []
__all__ += _options.__all__
