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

if TYPE_CHECKING:  # what the lazy names below are, for type checkers (explicit re-exports)
    from pqkit.keys import HashMLDSA44PrivateKey as HashMLDSA44PrivateKey
    from pqkit.keys import HashMLDSA44PublicKey as HashMLDSA44PublicKey
    from pqkit.keys import HashMLDSA65PrivateKey as HashMLDSA65PrivateKey
    from pqkit.keys import HashMLDSA65PublicKey as HashMLDSA65PublicKey
    from pqkit.keys import HashMLDSA87PrivateKey as HashMLDSA87PrivateKey
    from pqkit.keys import HashMLDSA87PublicKey as HashMLDSA87PublicKey
    from pqkit.keys import HashSLHDSASHA2_128fPrivateKey as HashSLHDSASHA2_128fPrivateKey
    from pqkit.keys import HashSLHDSASHA2_128fPublicKey as HashSLHDSASHA2_128fPublicKey
    from pqkit.keys import HashSLHDSASHA2_128sPrivateKey as HashSLHDSASHA2_128sPrivateKey
    from pqkit.keys import HashSLHDSASHA2_128sPublicKey as HashSLHDSASHA2_128sPublicKey
    from pqkit.keys import HashSLHDSASHA2_192fPrivateKey as HashSLHDSASHA2_192fPrivateKey
    from pqkit.keys import HashSLHDSASHA2_192fPublicKey as HashSLHDSASHA2_192fPublicKey
    from pqkit.keys import HashSLHDSASHA2_192sPrivateKey as HashSLHDSASHA2_192sPrivateKey
    from pqkit.keys import HashSLHDSASHA2_192sPublicKey as HashSLHDSASHA2_192sPublicKey
    from pqkit.keys import HashSLHDSASHA2_256fPrivateKey as HashSLHDSASHA2_256fPrivateKey
    from pqkit.keys import HashSLHDSASHA2_256fPublicKey as HashSLHDSASHA2_256fPublicKey
    from pqkit.keys import HashSLHDSASHA2_256sPrivateKey as HashSLHDSASHA2_256sPrivateKey
    from pqkit.keys import HashSLHDSASHA2_256sPublicKey as HashSLHDSASHA2_256sPublicKey
    from pqkit.keys import HashSLHDSASHAKE_128fPrivateKey as HashSLHDSASHAKE_128fPrivateKey
    from pqkit.keys import HashSLHDSASHAKE_128fPublicKey as HashSLHDSASHAKE_128fPublicKey
    from pqkit.keys import HashSLHDSASHAKE_128sPrivateKey as HashSLHDSASHAKE_128sPrivateKey
    from pqkit.keys import HashSLHDSASHAKE_128sPublicKey as HashSLHDSASHAKE_128sPublicKey
    from pqkit.keys import HashSLHDSASHAKE_192fPrivateKey as HashSLHDSASHAKE_192fPrivateKey
    from pqkit.keys import HashSLHDSASHAKE_192fPublicKey as HashSLHDSASHAKE_192fPublicKey
    from pqkit.keys import HashSLHDSASHAKE_192sPrivateKey as HashSLHDSASHAKE_192sPrivateKey
    from pqkit.keys import HashSLHDSASHAKE_192sPublicKey as HashSLHDSASHAKE_192sPublicKey
    from pqkit.keys import HashSLHDSASHAKE_256fPrivateKey as HashSLHDSASHAKE_256fPrivateKey
    from pqkit.keys import HashSLHDSASHAKE_256fPublicKey as HashSLHDSASHAKE_256fPublicKey
    from pqkit.keys import HashSLHDSASHAKE_256sPrivateKey as HashSLHDSASHAKE_256sPrivateKey
    from pqkit.keys import HashSLHDSASHAKE_256sPublicKey as HashSLHDSASHAKE_256sPublicKey
    from pqkit.keys import MLDSA44PrivateKey as MLDSA44PrivateKey
    from pqkit.keys import MLDSA44PublicKey as MLDSA44PublicKey
    from pqkit.keys import MLDSA65PrivateKey as MLDSA65PrivateKey
    from pqkit.keys import MLDSA65PublicKey as MLDSA65PublicKey
    from pqkit.keys import MLDSA87PrivateKey as MLDSA87PrivateKey
    from pqkit.keys import MLDSA87PublicKey as MLDSA87PublicKey
    from pqkit.keys import MLKEM512PrivateKey as MLKEM512PrivateKey
    from pqkit.keys import MLKEM512PublicKey as MLKEM512PublicKey
    from pqkit.keys import MLKEM768PrivateKey as MLKEM768PrivateKey
    from pqkit.keys import MLKEM768PublicKey as MLKEM768PublicKey
    from pqkit.keys import MLKEM1024PrivateKey as MLKEM1024PrivateKey
    from pqkit.keys import MLKEM1024PublicKey as MLKEM1024PublicKey
    from pqkit.keys import SLHDSASHA2_128fPrivateKey as SLHDSASHA2_128fPrivateKey
    from pqkit.keys import SLHDSASHA2_128fPublicKey as SLHDSASHA2_128fPublicKey
    from pqkit.keys import SLHDSASHA2_128sPrivateKey as SLHDSASHA2_128sPrivateKey
    from pqkit.keys import SLHDSASHA2_128sPublicKey as SLHDSASHA2_128sPublicKey
    from pqkit.keys import SLHDSASHA2_192fPrivateKey as SLHDSASHA2_192fPrivateKey
    from pqkit.keys import SLHDSASHA2_192fPublicKey as SLHDSASHA2_192fPublicKey
    from pqkit.keys import SLHDSASHA2_192sPrivateKey as SLHDSASHA2_192sPrivateKey
    from pqkit.keys import SLHDSASHA2_192sPublicKey as SLHDSASHA2_192sPublicKey
    from pqkit.keys import SLHDSASHA2_256fPrivateKey as SLHDSASHA2_256fPrivateKey
    from pqkit.keys import SLHDSASHA2_256fPublicKey as SLHDSASHA2_256fPublicKey
    from pqkit.keys import SLHDSASHA2_256sPrivateKey as SLHDSASHA2_256sPrivateKey
    from pqkit.keys import SLHDSASHA2_256sPublicKey as SLHDSASHA2_256sPublicKey
    from pqkit.keys import SLHDSASHAKE_128fPrivateKey as SLHDSASHAKE_128fPrivateKey
    from pqkit.keys import SLHDSASHAKE_128fPublicKey as SLHDSASHAKE_128fPublicKey
    from pqkit.keys import SLHDSASHAKE_128sPrivateKey as SLHDSASHAKE_128sPrivateKey
    from pqkit.keys import SLHDSASHAKE_128sPublicKey as SLHDSASHAKE_128sPublicKey
    from pqkit.keys import SLHDSASHAKE_192fPrivateKey as SLHDSASHAKE_192fPrivateKey
    from pqkit.keys import SLHDSASHAKE_192fPublicKey as SLHDSASHAKE_192fPublicKey
    from pqkit.keys import SLHDSASHAKE_192sPrivateKey as SLHDSASHAKE_192sPrivateKey
    from pqkit.keys import SLHDSASHAKE_192sPublicKey as SLHDSASHAKE_192sPublicKey
    from pqkit.keys import SLHDSASHAKE_256fPrivateKey as SLHDSASHAKE_256fPrivateKey
    from pqkit.keys import SLHDSASHAKE_256fPublicKey as SLHDSASHAKE_256fPublicKey
    from pqkit.keys import SLHDSASHAKE_256sPrivateKey as SLHDSASHAKE_256sPrivateKey
    from pqkit.keys import SLHDSASHAKE_256sPublicKey as SLHDSASHAKE_256sPublicKey
    from pqkit.keys.frodokem import FrodoKEM976AESPrivateKey as FrodoKEM976AESPrivateKey
    from pqkit.keys.frodokem import FrodoKEM976AESPublicKey as FrodoKEM976AESPublicKey
    from pqkit.keys.frodokem import FrodoKEM976SHAKEPrivateKey as FrodoKEM976SHAKEPrivateKey
    from pqkit.keys.frodokem import FrodoKEM976SHAKEPublicKey as FrodoKEM976SHAKEPublicKey
    from pqkit.keys.frodokem import FrodoKEM1344AESPrivateKey as FrodoKEM1344AESPrivateKey
    from pqkit.keys.frodokem import FrodoKEM1344AESPublicKey as FrodoKEM1344AESPublicKey
    from pqkit.keys.frodokem import FrodoKEM1344SHAKEPrivateKey as FrodoKEM1344SHAKEPrivateKey
    from pqkit.keys.frodokem import FrodoKEM1344SHAKEPublicKey as FrodoKEM1344SHAKEPublicKey
    from pqkit.keys.frodokem import eFrodoKEM976AESPrivateKey as eFrodoKEM976AESPrivateKey
    from pqkit.keys.frodokem import eFrodoKEM976AESPublicKey as eFrodoKEM976AESPublicKey
    from pqkit.keys.frodokem import eFrodoKEM976SHAKEPrivateKey as eFrodoKEM976SHAKEPrivateKey
    from pqkit.keys.frodokem import eFrodoKEM976SHAKEPublicKey as eFrodoKEM976SHAKEPublicKey
    from pqkit.keys.frodokem import eFrodoKEM1344AESPrivateKey as eFrodoKEM1344AESPrivateKey
    from pqkit.keys.frodokem import eFrodoKEM1344AESPublicKey as eFrodoKEM1344AESPublicKey
    from pqkit.keys.frodokem import eFrodoKEM1344SHAKEPrivateKey as eFrodoKEM1344SHAKEPrivateKey
    from pqkit.keys.frodokem import eFrodoKEM1344SHAKEPublicKey as eFrodoKEM1344SHAKEPublicKey
    from pqkit.keys.hqc import HQC1PrivateKey as HQC1PrivateKey
    from pqkit.keys.hqc import HQC1PublicKey as HQC1PublicKey
    from pqkit.keys.hqc import HQC3PrivateKey as HQC3PrivateKey
    from pqkit.keys.hqc import HQC3PublicKey as HQC3PublicKey
    from pqkit.keys.hqc import HQC5PrivateKey as HQC5PrivateKey
    from pqkit.keys.hqc import HQC5PublicKey as HQC5PublicKey
    from pqkit.keys.hybrid import MLKEM768P256PrivateKey as MLKEM768P256PrivateKey
    from pqkit.keys.hybrid import MLKEM768P256PublicKey as MLKEM768P256PublicKey
    from pqkit.keys.hybrid import MLKEM1024P384PrivateKey as MLKEM1024P384PrivateKey
    from pqkit.keys.hybrid import MLKEM1024P384PublicKey as MLKEM1024P384PublicKey
    from pqkit.keys.hybrid import XWingPrivateKey as XWingPrivateKey
    from pqkit.keys.hybrid import XWingPublicKey as XWingPublicKey
    from pqkit.keys.loaders import load_der_private_key as load_der_private_key
    from pqkit.keys.loaders import load_der_public_key as load_der_public_key
    from pqkit.keys.loaders import load_pem_private_key as load_pem_private_key
    from pqkit.keys.loaders import load_pem_public_key as load_pem_public_key
    from pqkit.keys.sntrup import Sntrup761PrivateKey as Sntrup761PrivateKey
    from pqkit.keys.sntrup import Sntrup761PublicKey as Sntrup761PublicKey
    from pqkit.serialization import BestAvailableEncryption as BestAvailableEncryption
    from pqkit.serialization import Encoding as Encoding
    from pqkit.serialization import NoEncryption as NoEncryption
    from pqkit.serialization import PrivateFormat as PrivateFormat
    from pqkit.serialization import PublicFormat as PublicFormat

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
    "Encapsulation",
    "InvalidSignature",
    "KeyPair",
    "MissingExtra",
    "UnknownAlgorithm",
    "UnknownBackend",
    "__version__",
    "kem",
    "kems",
    "sig",
    "sigs",
]
__all__ += _LAZY  # the key classes, the serialization enums and the key loaders
