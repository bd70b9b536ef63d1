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
``isinstance`` checks; ``PrivateKey`` / ``PublicKey`` hold what every key shares
(raw bytes, PKCS#8 and SubjectPublicKeyInfo in PEM or DER).
"""

from __future__ import annotations

from pqkit.keys._base import PrivateKey, PublicKey
from pqkit.keys.loaders import (
    load_der_private_key,
    load_der_public_key,
    load_pem_private_key,
    load_pem_public_key,
)
from pqkit.keys.mldsa import (
    HashMLDSA44PrivateKey,
    HashMLDSA44PublicKey,
    HashMLDSA65PrivateKey,
    HashMLDSA65PublicKey,
    HashMLDSA87PrivateKey,
    HashMLDSA87PublicKey,
    HashMLDSAPrivateKey,
    HashMLDSAPublicKey,
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
    HashSLHDSAPrivateKey,
    HashSLHDSAPublicKey,
    HashSLHDSASHA2_128fPrivateKey,
    HashSLHDSASHA2_128fPublicKey,
    HashSLHDSASHA2_128sPrivateKey,
    HashSLHDSASHA2_128sPublicKey,
    HashSLHDSASHA2_192fPrivateKey,
    HashSLHDSASHA2_192fPublicKey,
    HashSLHDSASHA2_192sPrivateKey,
    HashSLHDSASHA2_192sPublicKey,
    HashSLHDSASHA2_256fPrivateKey,
    HashSLHDSASHA2_256fPublicKey,
    HashSLHDSASHA2_256sPrivateKey,
    HashSLHDSASHA2_256sPublicKey,
    HashSLHDSASHAKE_128fPrivateKey,
    HashSLHDSASHAKE_128fPublicKey,
    HashSLHDSASHAKE_128sPrivateKey,
    HashSLHDSASHAKE_128sPublicKey,
    HashSLHDSASHAKE_192fPrivateKey,
    HashSLHDSASHAKE_192fPublicKey,
    HashSLHDSASHAKE_192sPrivateKey,
    HashSLHDSASHAKE_192sPublicKey,
    HashSLHDSASHAKE_256fPrivateKey,
    HashSLHDSASHAKE_256fPublicKey,
    HashSLHDSASHAKE_256sPrivateKey,
    HashSLHDSASHAKE_256sPublicKey,
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
    "HashMLDSA44PrivateKey",
    "HashMLDSA44PublicKey",
    "HashMLDSA65PrivateKey",
    "HashMLDSA65PublicKey",
    "HashMLDSA87PrivateKey",
    "HashMLDSA87PublicKey",
    "HashMLDSAPrivateKey",
    "HashMLDSAPublicKey",
    "HashSLHDSAPrivateKey",
    "HashSLHDSAPublicKey",
    "HashSLHDSASHA2_128fPrivateKey",
    "HashSLHDSASHA2_128fPublicKey",
    "HashSLHDSASHA2_128sPrivateKey",
    "HashSLHDSASHA2_128sPublicKey",
    "HashSLHDSASHA2_192fPrivateKey",
    "HashSLHDSASHA2_192fPublicKey",
    "HashSLHDSASHA2_192sPrivateKey",
    "HashSLHDSASHA2_192sPublicKey",
    "HashSLHDSASHA2_256fPrivateKey",
    "HashSLHDSASHA2_256fPublicKey",
    "HashSLHDSASHA2_256sPrivateKey",
    "HashSLHDSASHA2_256sPublicKey",
    "HashSLHDSASHAKE_128fPrivateKey",
    "HashSLHDSASHAKE_128fPublicKey",
    "HashSLHDSASHAKE_128sPrivateKey",
    "HashSLHDSASHAKE_128sPublicKey",
    "HashSLHDSASHAKE_192fPrivateKey",
    "HashSLHDSASHAKE_192fPublicKey",
    "HashSLHDSASHAKE_192sPrivateKey",
    "HashSLHDSASHAKE_192sPublicKey",
    "HashSLHDSASHAKE_256fPrivateKey",
    "HashSLHDSASHAKE_256fPublicKey",
    "HashSLHDSASHAKE_256sPrivateKey",
    "HashSLHDSASHAKE_256sPublicKey",
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

_PRIVATE: dict[str, type[PrivateKey]] = {
    cls.algorithm.name: cls
    for cls in (
        MLKEM512PrivateKey,
        MLKEM768PrivateKey,
        MLKEM1024PrivateKey,
        MLDSA44PrivateKey,
        MLDSA65PrivateKey,
        MLDSA87PrivateKey,
        SLHDSASHA2_128sPrivateKey,
        SLHDSASHA2_128fPrivateKey,
        SLHDSASHA2_192sPrivateKey,
        SLHDSASHA2_192fPrivateKey,
        SLHDSASHA2_256sPrivateKey,
        SLHDSASHA2_256fPrivateKey,
        SLHDSASHAKE_128sPrivateKey,
        SLHDSASHAKE_128fPrivateKey,
        SLHDSASHAKE_192sPrivateKey,
        SLHDSASHAKE_192fPrivateKey,
        SLHDSASHAKE_256sPrivateKey,
        SLHDSASHAKE_256fPrivateKey,
        HashMLDSA44PrivateKey,
        HashMLDSA65PrivateKey,
        HashMLDSA87PrivateKey,
        HashSLHDSASHA2_128sPrivateKey,
        HashSLHDSASHA2_128fPrivateKey,
        HashSLHDSASHA2_192sPrivateKey,
        HashSLHDSASHA2_192fPrivateKey,
        HashSLHDSASHA2_256sPrivateKey,
        HashSLHDSASHA2_256fPrivateKey,
        HashSLHDSASHAKE_128sPrivateKey,
        HashSLHDSASHAKE_128fPrivateKey,
        HashSLHDSASHAKE_192sPrivateKey,
        HashSLHDSASHAKE_192fPrivateKey,
        HashSLHDSASHAKE_256sPrivateKey,
        HashSLHDSASHAKE_256fPrivateKey,
    )
}


def private_key_class(name: str) -> type[PrivateKey]:
    """The private key class of the parameter set ``name`` ("ML-KEM-768", "mldsa65",
    "HashML-DSA-65-with-SHA512", ...)."""
    from pqkit.errors import UnknownAlgorithm
    from pqkit.serialization.algorithms import by_name

    alg = by_name(name) if isinstance(name, str) else None
    if alg is None:
        if not isinstance(name, str):
            raise TypeError(f"algorithm name must be str, not {type(name).__name__}")
        raise UnknownAlgorithm(name, list(_PRIVATE))
    return _PRIVATE[alg.name]


def public_key_class(name: str) -> type[PublicKey]:
    """The public key class of the parameter set ``name``."""
    return private_key_class(name)._public_class
