"""pqkit: post-quantum cryptography for Python.

ML-KEM (FIPS 203) and ML-DSA (FIPS 204), plus the round-3 Kyber and Dilithium
variants, on one shared symmetric layer (:mod:`pqkit.common`) and swappable
arithmetic kernels (:mod:`pqkit.arith`)::

    import pqkit
    kem = pqkit.kem("ML-KEM-768")
    pk, sk = kem.keygen()
    ss, ct = kem.encaps(pk)
    assert kem.decaps(sk, ct) == ss
"""

from __future__ import annotations

from pqkit.errors import InvalidSignature, UnknownAlgorithm, UnknownBackend
from pqkit.registry import kem, kems, sig, sigs
from pqkit.schemes import Encapsulation, KeyPair

__version__ = "0.1.0"

__all__ = [
    "Encapsulation",
    "InvalidSignature",
    "KeyPair",
    "UnknownAlgorithm",
    "UnknownBackend",
    "__version__",
    "kem",
    "kems",
    "sig",
    "sigs",
]
