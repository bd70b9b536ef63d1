"""Key objects in the shape of pyca/cryptography, on top of the scheme API.

For each FIPS parameter set a private and a public key class::

    from pqkit.keys import MLKEM768PrivateKey
    key = MLKEM768PrivateKey.generate()
    shared_secret, ciphertext = key.public_key().encapsulate()
    assert key.decapsulate(ciphertext) == shared_secret

The pre-hash OIDs have their own classes (``HashMLDSA65PrivateKey``,
``HashSLHDSASHA2_128sPublicKey`` ...): the same key bytes as the pure set, bound to
HashML-DSA / HashSLH-DSA with the OID's pre-hash. Family base classes
(``MLKEMPrivateKey``, ``MLDSAPublicKey``, ``HashMLDSAPublicKey`` ...) serve
``isinstance`` checks; the composites (``MLDSA65_ECDSA_P256_SHA512PrivateKey`` ...,
:mod:`pqkit.keys.composite`) have ``CompositeSigPrivateKey`` and the like;
``PrivateKey`` / ``PublicKey`` hold what every key shares (raw bytes, PKCS#8 and
SubjectPublicKeyInfo in PEM or DER).
"""

from __future__ import annotations

# Each module lists what it exports (its __all__); this package re-exports them all.
from pqkit.keys import composite as _composite
from pqkit.keys import frodokem as _frodokem
from pqkit.keys import hqc as _hqc
from pqkit.keys import loaders as _loaders
from pqkit.keys import mceliece as _mceliece
from pqkit.keys import mldsa as _mldsa
from pqkit.keys import mlkem as _mlkem
from pqkit.keys import slhdsa as _slhdsa
from pqkit.keys import sntrup as _sntrup
from pqkit.keys._base import PrivateKey, PublicKey, private_key_class, public_key_class
from pqkit.keys.composite import *  # noqa: F403
from pqkit.keys.frodokem import *  # noqa: F403
from pqkit.keys.hqc import *  # noqa: F403
from pqkit.keys.loaders import *  # noqa: F403
from pqkit.keys.mceliece import *  # noqa: F403
from pqkit.keys.mldsa import *  # noqa: F403
from pqkit.keys.mlkem import *  # noqa: F403
from pqkit.keys.slhdsa import *  # noqa: F403
from pqkit.keys.sntrup import *  # noqa: F403

__all__ = ["PrivateKey", "PublicKey", "private_key_class", "public_key_class"]
__all__ += _composite.__all__
__all__ += _frodokem.__all__
__all__ += _hqc.__all__
__all__ += _loaders.__all__
__all__ += _mceliece.__all__
__all__ += _mldsa.__all__
__all__ += _mlkem.__all__
__all__ += _slhdsa.__all__
__all__ += _sntrup.__all__
