"""Key objects in the shape of pyca/cryptography, on top of the scheme API.

For each FIPS parameter set a private and a public key class::

    from pqkit.keys import MLKEM768PrivateKey
    key = MLKEM768PrivateKey.generate()
    shared_secret, ciphertext = key.public_key().encapsulate()
    assert key.decapsulate(ciphertext) == shared_secret

Family base classes (``MLKEMPrivateKey``, ``MLDSAPublicKey`` ...) serve
``isinstance`` checks; ``PrivateKey`` / ``PublicKey`` hold what every key shares
(raw bytes, PKCS#8 and SubjectPublicKeyInfo in PEM or DER).
"""

from __future__ import annotations

from pqkit.keys._base import PrivateKey, PublicKey, private_key_class, public_key_class
from pqkit.keys.loaders import (
    load_der_private_key,
    load_der_public_key,
    load_pem_private_key,
    load_pem_public_key,
)
from pqkit.keys.mldsa import (
    MLDSA44PrivateKey,
    MLDSA44PublicKey,
    MLDSA65PrivateKey,
    MLDSA65PublicKey,
    MLDSA87PrivateKey,
    MLDSA87PublicKey,
    MLDSAPrivateKey,
    MLDSAPublicKey,
    MuHasher,
)
from pqkit.keys.mlkem import (
    MLKEM512PrivateKey,
    MLKEM512PublicKey,
    MLKEM768PrivateKey,
    MLKEM768PublicKey,
    MLKEM1024PrivateKey,
    MLKEM1024PublicKey,
    MLKEMPrivateKey,
    MLKEMPublicKey,
)
from pqkit.keys.slhdsa import (
    SLHDSAPrivateKey,
    SLHDSAPublicKey,
    SLHDSASHA2_128fPrivateKey,
    SLHDSASHA2_128fPublicKey,
    SLHDSASHA2_128sPrivateKey,
    SLHDSASHA2_128sPublicKey,
    SLHDSASHA2_192fPrivateKey,
    SLHDSASHA2_192fPublicKey,
    SLHDSASHA2_192sPrivateKey,
    SLHDSASHA2_192sPublicKey,
    SLHDSASHA2_256fPrivateKey,
    SLHDSASHA2_256fPublicKey,
    SLHDSASHA2_256sPrivateKey,
    SLHDSASHA2_256sPublicKey,
    SLHDSASHAKE_128fPrivateKey,
    SLHDSASHAKE_128fPublicKey,
    SLHDSASHAKE_128sPrivateKey,
    SLHDSASHAKE_128sPublicKey,
    SLHDSASHAKE_192fPrivateKey,
    SLHDSASHAKE_192fPublicKey,
    SLHDSASHAKE_192sPrivateKey,
    SLHDSASHAKE_192sPublicKey,
    SLHDSASHAKE_256fPrivateKey,
    SLHDSASHAKE_256fPublicKey,
    SLHDSASHAKE_256sPrivateKey,
    SLHDSASHAKE_256sPublicKey,
)

__all__ = [
    "MLDSA44PrivateKey",
    "MLDSA44PublicKey",
    "MLDSA65PrivateKey",
    "MLDSA65PublicKey",
    "MLDSA87PrivateKey",
    "MLDSA87PublicKey",
    "MLDSAPrivateKey",
    "MLDSAPublicKey",
    "MLKEM512PrivateKey",
    "MLKEM512PublicKey",
    "MLKEM768PrivateKey",
    "MLKEM768PublicKey",
    "MLKEM1024PrivateKey",
    "MLKEM1024PublicKey",
    "MLKEMPrivateKey",
    "MLKEMPublicKey",
    "MuHasher",
    "PrivateKey",
    "PublicKey",
    "SLHDSAPrivateKey",
    "SLHDSAPublicKey",
    "SLHDSASHA2_128fPrivateKey",
    "SLHDSASHA2_128fPublicKey",
    "SLHDSASHA2_128sPrivateKey",
    "SLHDSASHA2_128sPublicKey",
    "SLHDSASHA2_192fPrivateKey",
    "SLHDSASHA2_192fPublicKey",
    "SLHDSASHA2_192sPrivateKey",
    "SLHDSASHA2_192sPublicKey",
    "SLHDSASHA2_256fPrivateKey",
    "SLHDSASHA2_256fPublicKey",
    "SLHDSASHA2_256sPrivateKey",
    "SLHDSASHA2_256sPublicKey",
    "SLHDSASHAKE_128fPrivateKey",
    "SLHDSASHAKE_128fPublicKey",
    "SLHDSASHAKE_128sPrivateKey",
    "SLHDSASHAKE_128sPublicKey",
    "SLHDSASHAKE_192fPrivateKey",
    "SLHDSASHAKE_192fPublicKey",
    "SLHDSASHAKE_192sPrivateKey",
    "SLHDSASHAKE_192sPublicKey",
    "SLHDSASHAKE_256fPrivateKey",
    "SLHDSASHAKE_256fPublicKey",
    "SLHDSASHAKE_256sPrivateKey",
    "SLHDSASHAKE_256sPublicKey",
    "load_der_private_key",
    "load_der_public_key",
    "load_pem_private_key",
    "load_pem_public_key",
    "private_key_class",
    "public_key_class",
]
