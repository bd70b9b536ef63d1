"""Parameter sets of the hybrid KEMs and their catalogue entries (:mod:`pqkit.registry`).

- ``X-Wing`` (draft-connolly-cfrg-xwing-kem): ML-KEM-768 + X25519. It is the same
  KEM as ``MLKEM768-X25519`` of draft-irtf-cfrg-concrete-hybrid-kems, so that name
  is an alias of the entry.
- ``MLKEM768-P256`` and ``MLKEM1024-P384`` (draft-irtf-cfrg-concrete-hybrid-kems).

Neither draft assigns an object identifier to these KEMs (the LAMPS composite-KEM
draft has none for them either), so the entries have ``oid=None``.
"""

from __future__ import annotations

from dataclasses import dataclass

from pqkit.registry import Algorithm

__all__ = ["CATALOG", "MLKEM768_P256", "MLKEM1024_P384", "XWING", "HybridParams"]


@dataclass(frozen=True)
class HybridParams:
    """One hybrid: its ML-KEM half, its traditional group and the combiner label.

    Sizes of the traditional half (draft-irtf-cfrg-concrete-hybrid-kems, "Group"):
    ``length_group_element`` is an encoded public key / ciphertext (X25519: 32 bytes;
    P-256 / P-384: uncompressed SEC1 point), ``length_scalar`` the bytes one
    RandomScalar attempt consumes (Nscalar) and ``length_group_seed`` the canonical
    traditional seed (Nseed).
    """

    mlkem: str
    group: str
    label: bytes
    nist_level: int
    length_mlkem_public_key: int
    length_mlkem_ciphertext: int
    length_group_element: int
    length_scalar: int
    length_group_seed: int

    @property
    def length_public_key(self) -> int:
        """ek = ek_PQ || ek_T."""
        return self.length_mlkem_public_key + self.length_group_element

    @property
    def length_secret_key(self) -> int:
        """The decapsulation key is the 32-byte seed."""
        return 32

    @property
    def length_seed(self) -> int:
        """DeriveKeyPair takes a 32-byte seed."""
        return 32

    @property
    def length_ciphertext(self) -> int:
        """ct = ct_PQ || ct_T."""
        return self.length_mlkem_ciphertext + self.length_group_element

    @property
    def length_shared_secret(self) -> int:
        """SHA3-256 output: 32 bytes."""
        return 32

    @property
    def length_randomness(self) -> int:
        """EncapsDerand randomness: ML-KEM m (32 bytes) || traditional seed (Nseed)."""
        return 32 + self.length_group_seed


_XWING_LABEL = b"\\.//^\\"  # draft-connolly-cfrg-xwing-kem, XWingLabel = 5c2e2f2f5e5c

# The fields in order: mlkem, group, label, nist_level, length_mlkem_public_key,
# length_mlkem_ciphertext, length_group_element, length_scalar, length_group_seed.
XWING = HybridParams("ML-KEM-768", "X25519", _XWING_LABEL, 3, 1184, 1088, 32, 32, 32)
MLKEM768_P256 = HybridParams("ML-KEM-768", "P-256", b"MLKEM768-P256", 3, 1184, 1088, 65, 32, 128)
MLKEM1024_P384 = HybridParams("ML-KEM-1024", "P-384", b"MLKEM1024-P384", 5, 1568, 1568, 97, 48, 48)

_MODULE = "pqkit.hybrid.scheme"

CATALOG: tuple[Algorithm, ...] = (
    Algorithm(
        "X-Wing", "kem", "hybrid", _MODULE, XWING, aliases=("MLKEM768-X25519",), extra="openssl"
    ),
    Algorithm("MLKEM768-P256", "kem", "hybrid", _MODULE, MLKEM768_P256, extra="openssl"),
    Algorithm("MLKEM1024-P384", "kem", "hybrid", _MODULE, MLKEM1024_P384, extra="openssl"),
)
"""The PQ/T hybrid KEMs, none with an OID; their curve half is pyca/cryptography's
(the ``openssl`` extra)."""
