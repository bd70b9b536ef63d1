"""The key algorithms pqkit serialises, with their object identifiers and sizes.

One table, the single place these facts live. OIDs: RFC 9935 §3 (ML-KEM,
id-alg-ml-kem-*) and RFC 9881 §2 (ML-DSA, id-ml-dsa-*), both under NIST's
2.16.840.1.101.3.4 arc. Sizes: FIPS 203 Table 3 (ek, dk, ct) and FIPS 204
Table 2 (pk, sk, signature). ``seed_length`` is the private-key seed of the RFCs'
``seed`` CHOICE: d || z (64 bytes, FIPS 203 Alg. 16) or xi (32 bytes, FIPS 204
Alg. 6).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pqkit.der import oid_to_der

__all__ = ["ALGORITHMS", "KeyAlgorithm", "by_name", "by_oid"]

Family = Literal["ML-KEM", "ML-DSA"]


@dataclass(frozen=True)
class KeyAlgorithm:
    """One parameter set as the key formats see it."""

    name: str
    """The FIPS name, as ``pqkit.kem`` / ``pqkit.sig`` spell it: ``"ML-KEM-768"``."""
    family: Family
    oid: str
    """Dotted AlgorithmIdentifier OID."""
    seed_length: int
    public_key_length: int
    expanded_key_length: int
    """FIPS 203 dk / FIPS 204 sk length."""
    output_length: int
    """Ciphertext (ML-KEM) or signature (ML-DSA) length."""
    oid_der: bytes = field(init=False, repr=False)
    """Content octets of the OID (cached)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "oid_der", oid_to_der(self.oid))

    @property
    def class_stem(self) -> str:
        """``"MLKEM768"``: the key classes are ``<stem>PrivateKey`` and ``<stem>PublicKey``."""
        return self.name.replace("-", "")


_KEM = "2.16.840.1.101.3.4.4."  # NIST kems arc (RFC 9935 §3)
_SIG = "2.16.840.1.101.3.4.3."  # NIST sigAlgs arc (RFC 9881 §2)

ALGORITHMS: tuple[KeyAlgorithm, ...] = (
    KeyAlgorithm("ML-KEM-512", "ML-KEM", _KEM + "1", 64, 800, 1632, 768),
    KeyAlgorithm("ML-KEM-768", "ML-KEM", _KEM + "2", 64, 1184, 2400, 1088),
    KeyAlgorithm("ML-KEM-1024", "ML-KEM", _KEM + "3", 64, 1568, 3168, 1568),
    KeyAlgorithm("ML-DSA-44", "ML-DSA", _SIG + "17", 32, 1312, 2560, 2420),
    KeyAlgorithm("ML-DSA-65", "ML-DSA", _SIG + "18", 32, 1952, 4032, 3309),
    KeyAlgorithm("ML-DSA-87", "ML-DSA", _SIG + "19", 32, 2592, 4896, 4627),
)

_BY_OID = {alg.oid: alg for alg in ALGORITHMS}
_BY_NAME = {alg.name.upper().replace("-", "").replace("_", ""): alg for alg in ALGORITHMS}


def by_oid(oid: str) -> KeyAlgorithm | None:
    """The algorithm with dotted ``oid``, or None."""
    return _BY_OID.get(oid)


def by_name(name: str) -> KeyAlgorithm | None:
    """The algorithm called ``name`` (case, ``-`` and ``_`` ignored), or None."""
    return _BY_NAME.get(name.upper().replace("-", "").replace("_", ""))
