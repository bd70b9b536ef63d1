"""pqkit: post-quantum cryptography for Python.

ML-KEM (FIPS 203), ML-DSA (FIPS 204) and SLH-DSA (FIPS 205), the hybrid KEMs
(X-Wing, MLKEM768-P256, MLKEM1024-P384), HPKE (:mod:`pqkit.hpke`), batch views
(:mod:`pqkit.batch`) and the round-3 Kyber and Dilithium variants, on one shared
symmetric layer (:mod:`pqkit.common`) and swappable arithmetic kernels
(:mod:`pqkit.arith`)::

    import pqkit
    kem = pqkit.kem("ML-KEM-768")
    pk, sk = kem.keygen()
    ss, ct = kem.encaps(pk)
    assert kem.decaps(sk, ct) == ss
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pqkit import _moved
from pqkit.errors import InvalidSignature, MissingExtra, UnknownAlgorithm, UnknownBackend
from pqkit.registry import kem, kems, sig, sigs
from pqkit.schemes import Encapsulation, KeyPair

_moved.install()  # the import paths that moved keep working, with a DeprecationWarning

if TYPE_CHECKING:
    from pqkit.keys import (
        HashMLDSA44PrivateKey,
        HashMLDSA44PublicKey,
        HashMLDSA65PrivateKey,
        HashMLDSA65PublicKey,
        HashMLDSA87PrivateKey,
        HashMLDSA87PublicKey,
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
        MLDSA44PrivateKey,
        MLDSA44PublicKey,
        MLDSA65PrivateKey,
        MLDSA65PublicKey,
        MLDSA87PrivateKey,
        MLDSA87PublicKey,
        MLKEM512PrivateKey,
        MLKEM512PublicKey,
        MLKEM768PrivateKey,
        MLKEM768PublicKey,
        MLKEM1024PrivateKey,
        MLKEM1024PublicKey,
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
    from pqkit.keys.frodokem import (
        FrodoKEM976AESPrivateKey,
        FrodoKEM976AESPublicKey,
        FrodoKEM976SHAKEPrivateKey,
        FrodoKEM976SHAKEPublicKey,
        FrodoKEM1344AESPrivateKey,
        FrodoKEM1344AESPublicKey,
        FrodoKEM1344SHAKEPrivateKey,
        FrodoKEM1344SHAKEPublicKey,
        eFrodoKEM976AESPrivateKey,
        eFrodoKEM976AESPublicKey,
        eFrodoKEM976SHAKEPrivateKey,
        eFrodoKEM976SHAKEPublicKey,
        eFrodoKEM1344AESPrivateKey,
        eFrodoKEM1344AESPublicKey,
        eFrodoKEM1344SHAKEPrivateKey,
        eFrodoKEM1344SHAKEPublicKey,
    )
    from pqkit.keys.hqc import (
        HQC1PrivateKey,
        HQC1PublicKey,
        HQC3PrivateKey,
        HQC3PublicKey,
        HQC5PrivateKey,
        HQC5PublicKey,
    )
    from pqkit.keys.hybrid import (
        MLKEM768P256PrivateKey,
        MLKEM768P256PublicKey,
        MLKEM1024P384PrivateKey,
        MLKEM1024P384PublicKey,
        XWingPrivateKey,
        XWingPublicKey,
    )
    from pqkit.keys.loaders import (
        load_der_private_key,
        load_der_public_key,
        load_pem_private_key,
        load_pem_public_key,
    )
    from pqkit.keys.sntrup import Sntrup761PrivateKey, Sntrup761PublicKey
    from pqkit.serialization import (
        BestAvailableEncryption,
        Encoding,
        NoEncryption,
        PrivateFormat,
        PublicFormat,
    )

__version__ = "0.1.0"

# Key objects and serialisation load on first use, so ``import pqkit`` stays cheap.
_LAZY = {
    **{
        f"{stem}{kind}Key": "pqkit.keys"
        for stem in ("MLKEM512", "MLKEM768", "MLKEM1024", "MLDSA44", "MLDSA65", "MLDSA87")
        for kind in ("Private", "Public")
    },
    **{
        f"SLHDSA{family}_{size}{kind}Key": "pqkit.keys"
        for family in ("SHA2", "SHAKE")
        for size in ("128s", "128f", "192s", "192f", "256s", "256f")
        for kind in ("Private", "Public")
    },
    **{  # keys under the pre-hash OIDs, bound to their pre-hash (HashML-DSA, HashSLH-DSA)
        f"Hash{stem}{kind}Key": "pqkit.keys"
        for stem in (
            "MLDSA44",
            "MLDSA65",
            "MLDSA87",
            *(
                f"SLHDSA{family}_{size}"
                for family in ("SHA2", "SHAKE")
                for size in ("128s", "128f", "192s", "192f", "256s", "256f")
            ),
        )
        for kind in ("Private", "Public")
    },
    **{  # FrodoKEM: the sets with OIDs (draft-smyslov-lamps-frodokem-certificates)
        f"{variant}FrodoKEM{n}{gen}{kind}Key": "pqkit.keys"
        for variant in ("", "e")
        for n in (976, 1344)
        for gen in ("AES", "SHAKE")
        for kind in ("Private", "Public")
    },
    **{
        f"{stem}{kind}Key": "pqkit.keys.hybrid"
        for stem in ("XWing", "MLKEM768P256", "MLKEM1024P384")
        for kind in ("Private", "Public")
    },
    **{f"Sntrup761{kind}Key": "pqkit.keys.sntrup" for kind in ("Private", "Public")},
    **{
        f"HQC{level}{kind}Key": "pqkit.keys.hqc"
        for level in (1, 3, 5)
        for kind in ("Private", "Public")
    },
    **{
        name: "pqkit.serialization"
        for name in (
            "BestAvailableEncryption",
            "Encoding",
            "NoEncryption",
            "PrivateFormat",
            "PublicFormat",
        )
    },
    **{
        name: "pqkit.keys.loaders"
        for name in (
            "load_der_private_key",
            "load_der_public_key",
            "load_pem_private_key",
            "load_pem_public_key",
        )
    },
}


def _submodules() -> list[str]:
    """pqkit's public modules and subpackages (``common``, ``keys``, ``mlkem`` ...)."""
    import pkgutil

    return [info.name for info in pkgutil.iter_modules(__path__) if not info.name.startswith("_")]


def __getattr__(name: str) -> Any:
    import importlib

    module = _LAZY.get(name)
    if module is None:
        # ``pqkit.common`` works without an explicit import. Tried by importing, not
        # by listing the package (pkgutil): ``from pqkit import common`` asks here
        # first, on the way of every first operation (start-up).
        if name.isidentifier() and not name.startswith("_"):
            try:
                return importlib.import_module(f"pqkit.{name}")
            except ModuleNotFoundError as exc:
                if exc.name != f"pqkit.{name}":
                    raise  # the submodule exists but needs something missing
        raise AttributeError(f"module 'pqkit' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    # Only the API: the names in __all__ and the public submodules, not the helpers
    # this file imports for itself (Any, TYPE_CHECKING, annotations) (issue 14 item 14).
    return sorted(set(__all__) | set(_submodules()))


__all__ = [
    "BestAvailableEncryption",
    "Encapsulation",
    "Encoding",
    "FrodoKEM976AESPrivateKey",
    "FrodoKEM976AESPublicKey",
    "FrodoKEM976SHAKEPrivateKey",
    "FrodoKEM976SHAKEPublicKey",
    "FrodoKEM1344AESPrivateKey",
    "FrodoKEM1344AESPublicKey",
    "FrodoKEM1344SHAKEPrivateKey",
    "FrodoKEM1344SHAKEPublicKey",
    "HQC1PrivateKey",
    "HQC1PublicKey",
    "HQC3PrivateKey",
    "HQC3PublicKey",
    "HQC5PrivateKey",
    "HQC5PublicKey",
    "HashMLDSA44PrivateKey",
    "HashMLDSA44PublicKey",
    "HashMLDSA65PrivateKey",
    "HashMLDSA65PublicKey",
    "HashMLDSA87PrivateKey",
    "HashMLDSA87PublicKey",
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
    "InvalidSignature",
    "KeyPair",
    "MLDSA44PrivateKey",
    "MLDSA44PublicKey",
    "MLDSA65PrivateKey",
    "MLDSA65PublicKey",
    "MLDSA87PrivateKey",
    "MLDSA87PublicKey",
    "MLKEM512PrivateKey",
    "MLKEM512PublicKey",
    "MLKEM768P256PrivateKey",
    "MLKEM768P256PublicKey",
    "MLKEM768PrivateKey",
    "MLKEM768PublicKey",
    "MLKEM1024P384PrivateKey",
    "MLKEM1024P384PublicKey",
    "MLKEM1024PrivateKey",
    "MLKEM1024PublicKey",
    "MissingExtra",
    "NoEncryption",
    "PrivateFormat",
    "PublicFormat",
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
    "Sntrup761PrivateKey",
    "Sntrup761PublicKey",
    "UnknownAlgorithm",
    "UnknownBackend",
    "XWingPrivateKey",
    "XWingPublicKey",
    "__version__",
    "eFrodoKEM976AESPrivateKey",
    "eFrodoKEM976AESPublicKey",
    "eFrodoKEM976SHAKEPrivateKey",
    "eFrodoKEM976SHAKEPublicKey",
    "eFrodoKEM1344AESPrivateKey",
    "eFrodoKEM1344AESPublicKey",
    "eFrodoKEM1344SHAKEPrivateKey",
    "eFrodoKEM1344SHAKEPublicKey",
    "kem",
    "kems",
    "load_der_private_key",
    "load_der_public_key",
    "load_pem_private_key",
    "load_pem_public_key",
    "sig",
    "sigs",
]
