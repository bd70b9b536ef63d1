"""Parameter sets of composite ML-DSA and composite ML-KEM, and their catalogue.

Composite ML-DSA: draft-ietf-lamps-pq-composite-sigs-19, §6 ("Algorithm Identifiers
and Parameters"), OIDs 1.3.6.1.5.5.7.6.37-.54. Composite ML-KEM:
draft-ietf-lamps-pq-composite-kem-17, §6, OIDs 1.3.6.1.5.5.7.6.55-.66. The names
are the drafts' without ``id-`` (the ``id-`` spelling is an alias).

Sizes: ML-DSA / ML-KEM halves are fixed; the traditional halves of RSA and ECDSA
vary by a few bytes (DER drops leading zeros; an RSA exponent other than 65537), so
``length_public_key``, ``length_secret_key`` and ``length_signature`` are the
drafts' maxima ("Maximum Key and Signature Sizes" tables, e = 65537), not exact
lengths; the loaders check each half instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from pqkit.registry import Algorithm

__all__ = ["CATALOG", "TRAD_SIZES", "CompositeKemParams", "CompositeSigParams", "KeyParts"]

TRAD_SIZES: dict[str, tuple[int, int, int]] = {
    # traditional half -> (public key, private key, signature / ciphertext), maxima
    "RSA2048": (270, 1194, 256),
    "RSA3072": (398, 1770, 384),
    "RSA4096": (526, 2351, 512),
    "Ed25519": (32, 32, 64),
    "Ed448": (57, 57, 114),
    "X25519": (32, 32, 32),
    "X448": (56, 56, 56),
    "P-256": (65, 51, 72),
    "P-384": (97, 64, 104),
    "P-521": (133, 82, 139),
    "brainpoolP256r1": (65, 52, 72),
    "brainpoolP384r1": (97, 68, 104),
}
"""RSAPublicKey / RSAPrivateKey DER, raw EdDSA and X25519 / X448 keys, uncompressed
points and ECPrivateKey DER without publicKey (RFC 5915); signatures: RSA k bytes,
EdDSA raw, ECDSA Ecdsa-Sig-Value DER; ECDH ciphertexts are points. The drafts' size
tables less the ML-x half."""

_MLDSA = {"ML-DSA-44": (1312, 2420, 2), "ML-DSA-65": (1952, 3309, 3), "ML-DSA-87": (2592, 4627, 5)}
_MLKEM = {"ML-KEM-768": (1184, 1088, 3), "ML-KEM-1024": (1568, 1568, 5)}


class KeyParts(NamedTuple):
    """A composite private key taken apart once: the composite public key, the expanded
    ML-x secret key (FIPS 204 sk / FIPS 203 dk) and the parsed pyca traditional key."""

    public_key: bytes
    mlx_secret: bytes
    trad: Any


@dataclass(frozen=True)
class CompositeSigParams:
    """One composite ML-DSA algorithm (draft-ietf-lamps-pq-composite-sigs §6)."""

    mldsa: str
    """The ML-DSA parameter set: ``"ML-DSA-65"``."""
    trad: str
    """The traditional algorithm: ``"RSA2048-PSS"``, ``"RSA3072-PKCS15"``,
    ``"ECDSA-P-256"``, ``"Ed25519"`` ... (:data:`pqkit.composite.traditional.SIGNERS`)."""
    key: str
    """The traditional key type, a key of :data:`TRAD_SIZES`: ``"RSA2048"``, ``"P-256"``."""
    prehash: str
    """PH, by its ACVP name (:mod:`pqkit.prehash`): ``"SHA2-512"``, ``"SHAKE-256"``."""
    label: bytes
    """The signature label: ML-DSA's context and part of M'."""

    @property
    def nist_level(self) -> int:
        return _MLDSA[self.mldsa][2]

    @property
    def length_mldsa_public_key(self) -> int:
        return _MLDSA[self.mldsa][0]

    @property
    def length_mldsa_signature(self) -> int:
        return _MLDSA[self.mldsa][1]

    @property
    def length_public_key(self) -> int:
        """Maximum: ML-DSA pk || traditional public key."""
        return self.length_mldsa_public_key + TRAD_SIZES[self.key][0]

    @property
    def length_secret_key(self) -> int:
        """Maximum: 32-byte ML-DSA seed || traditional private key."""
        return 32 + TRAD_SIZES[self.key][1]

    @property
    def length_seed(self) -> int:
        """The ML-DSA seed xi (32 bytes); the traditional key is not derived from it."""
        return 32

    @property
    def length_signature(self) -> int:
        """Maximum: ML-DSA signature || traditional signature."""
        return self.length_mldsa_signature + TRAD_SIZES[self.key][2]


@dataclass(frozen=True)
class CompositeKemParams:
    """One composite ML-KEM algorithm (draft-ietf-lamps-pq-composite-kem §6)."""

    mlkem: str
    key: str
    """The traditional KEM: ``"RSA2048"`` (RSA-OAEP), ``"X25519"``, ``"P-256"`` (ECDH) ..."""
    label: bytes
    """The KEM combiner label."""

    @property
    def nist_level(self) -> int:
        return _MLKEM[self.mlkem][2]

    @property
    def length_mlkem_public_key(self) -> int:
        return _MLKEM[self.mlkem][0]

    @property
    def length_mlkem_ciphertext(self) -> int:
        return _MLKEM[self.mlkem][1]

    @property
    def length_public_key(self) -> int:
        """Maximum: ML-KEM ek || traditional public key."""
        return self.length_mlkem_public_key + TRAD_SIZES[self.key][0]

    @property
    def length_secret_key(self) -> int:
        """Maximum: 64-byte ML-KEM seed d || z || traditional private key."""
        return 64 + TRAD_SIZES[self.key][1]

    @property
    def length_seed(self) -> int:
        """The ML-KEM seed d || z (64 bytes)."""
        return 64

    @property
    def length_ciphertext(self) -> int:
        """ML-KEM ciphertext || traditional ciphertext (fixed: RSA-OAEP k bytes, or an
        ephemeral public key)."""
        public, _, signature = TRAD_SIZES[self.key]
        return self.length_mlkem_ciphertext + (signature if self.key.startswith("RSA") else public)

    @property
    def length_shared_secret(self) -> int:
        """SHA3-256 output: 32 bytes."""
        return 32


_ARC = "1.3.6.1.5.5.7.6"

# draft-ietf-lamps-pq-composite-sigs-19, §6: (arc, name, ML-DSA, traditional, key, PH, label)
_SIGS: tuple[tuple[int, str, str, str, str, str, str], ...] = (
    (37, "MLDSA44-RSA2048-PSS-SHA256", "ML-DSA-44", "RSA2048-PSS", "RSA2048", "SHA2-256", ""),
    (
        38,
        "MLDSA44-RSA2048-PKCS15-SHA256",
        "ML-DSA-44",
        "RSA-PKCS15-SHA256",
        "RSA2048",
        "SHA2-256",
        "",
    ),
    (39, "MLDSA44-Ed25519-SHA512", "ML-DSA-44", "Ed25519", "Ed25519", "SHA2-512", ""),
    (40, "MLDSA44-ECDSA-P256-SHA256", "ML-DSA-44", "ECDSA-SHA256", "P-256", "SHA2-256", ""),
    (41, "MLDSA65-RSA3072-PSS-SHA512", "ML-DSA-65", "RSA2048-PSS", "RSA3072", "SHA2-512", ""),
    (
        42,
        "MLDSA65-RSA3072-PKCS15-SHA512",
        "ML-DSA-65",
        "RSA-PKCS15-SHA256",
        "RSA3072",
        "SHA2-512",
        "",
    ),
    (43, "MLDSA65-RSA4096-PSS-SHA512", "ML-DSA-65", "RSA4096-PSS", "RSA4096", "SHA2-512", ""),
    (
        44,
        "MLDSA65-RSA4096-PKCS15-SHA512",
        "ML-DSA-65",
        "RSA-PKCS15-SHA384",
        "RSA4096",
        "SHA2-512",
        "",
    ),
    (45, "MLDSA65-ECDSA-P256-SHA512", "ML-DSA-65", "ECDSA-SHA256", "P-256", "SHA2-512", ""),
    (46, "MLDSA65-ECDSA-P384-SHA512", "ML-DSA-65", "ECDSA-SHA384", "P-384", "SHA2-512", ""),
    (
        47,
        "MLDSA65-ECDSA-brainpoolP256r1-SHA512",
        "ML-DSA-65",
        "ECDSA-SHA256",
        "brainpoolP256r1",
        "SHA2-512",
        "COMPSIG-MLDSA65-ECDSA-BP256-SHA512",
    ),
    (48, "MLDSA65-Ed25519-SHA512", "ML-DSA-65", "Ed25519", "Ed25519", "SHA2-512", ""),
    (49, "MLDSA87-ECDSA-P384-SHA512", "ML-DSA-87", "ECDSA-SHA384", "P-384", "SHA2-512", ""),
    (
        50,
        "MLDSA87-ECDSA-brainpoolP384r1-SHA512",
        "ML-DSA-87",
        "ECDSA-SHA384",
        "brainpoolP384r1",
        "SHA2-512",
        "COMPSIG-MLDSA87-ECDSA-BP384-SHA512",
    ),
    (51, "MLDSA87-Ed448-SHAKE256", "ML-DSA-87", "Ed448", "Ed448", "SHAKE-256", ""),
    (52, "MLDSA87-RSA3072-PSS-SHA512", "ML-DSA-87", "RSA2048-PSS", "RSA3072", "SHA2-512", ""),
    (53, "MLDSA87-RSA4096-PSS-SHA512", "ML-DSA-87", "RSA4096-PSS", "RSA4096", "SHA2-512", ""),
    (54, "MLDSA87-ECDSA-P521-SHA512", "ML-DSA-87", "ECDSA-SHA512", "P-521", "SHA2-512", ""),
)
"""The label is "COMPSIG-" + the name where the draft's table says so (empty here);
the brainpool rows shorten the curve to BP256 / BP384. The traditional "RSA2048-PSS"
is RSASSA-PSS with SHA-256, MGF1-SHA-256 and a 32-byte salt (draft §6.1, for the
2048- and 3072-bit keys); "RSA4096-PSS" with SHA-384 and a 48-byte salt."""

# draft-ietf-lamps-pq-composite-kem-17, §6: (arc, name, ML-KEM, traditional, label)
_KEMS: tuple[tuple[int, str, str, str, bytes], ...] = (
    (55, "MLKEM768-RSA2048-SHA3-256", "ML-KEM-768", "RSA2048", b"MLKEM768-RSAOAEP2048"),
    (56, "MLKEM768-RSA3072-SHA3-256", "ML-KEM-768", "RSA3072", b"MLKEM768-RSAOAEP3072"),
    (57, "MLKEM768-RSA4096-SHA3-256", "ML-KEM-768", "RSA4096", b"MLKEM768-RSAOAEP4096"),
    (58, "MLKEM768-X25519-SHA3-256", "ML-KEM-768", "X25519", bytes.fromhex("5c2e2f2f5e5c")),
    (59, "MLKEM768-ECDH-P256-SHA3-256", "ML-KEM-768", "P-256", b"MLKEM768-P256"),
    (60, "MLKEM768-ECDH-P384-SHA3-256", "ML-KEM-768", "P-384", b"MLKEM768-P384"),
    (
        61,
        "MLKEM768-ECDH-brainpoolP256r1-SHA3-256",
        "ML-KEM-768",
        "brainpoolP256r1",
        b"MLKEM768-BP256",
    ),
    (62, "MLKEM1024-RSA3072-SHA3-256", "ML-KEM-1024", "RSA3072", b"MLKEM1024-RSAOAEP3072"),
    (63, "MLKEM1024-ECDH-P384-SHA3-256", "ML-KEM-1024", "P-384", b"MLKEM1024-P384"),
    (
        64,
        "MLKEM1024-ECDH-brainpoolP384r1-SHA3-256",
        "ML-KEM-1024",
        "brainpoolP384r1",
        b"MLKEM1024-BP384",
    ),
    (65, "MLKEM1024-X448-SHA3-256", "ML-KEM-1024", "X448", b"MLKEM1024-X448"),
    (66, "MLKEM1024-ECDH-P521-SHA3-256", "ML-KEM-1024", "P-521", b"MLKEM1024-P521"),
)

_SIG_MODULE = "pqkit.composite.sig"
_KEM_MODULE = "pqkit.composite.kem"


def _catalog() -> tuple[Algorithm, ...]:
    out = []
    for arc, name, mldsa, trad, key, prehash, label in _SIGS:
        params = CompositeSigParams(
            mldsa, trad, key, prehash, (label or f"COMPSIG-{name}").encode()
        )
        out.append(
            Algorithm(
                name,
                "sig",
                "Composite-ML-DSA",
                _SIG_MODULE,
                params,
                f"{_ARC}.{arc}",
                aliases=(f"id-{name}",),
                extra="openssl",
            )
        )
    for arc, name, mlkem, key, kem_label in _KEMS:
        kem_params = CompositeKemParams(mlkem, key, kem_label)
        out.append(
            Algorithm(
                name,
                "kem",
                "Composite-ML-KEM",
                _KEM_MODULE,
                kem_params,
                f"{_ARC}.{arc}",
                aliases=(f"id-{name}",),
                extra="openssl",
            )
        )
    return tuple(out)


CATALOG: tuple[Algorithm, ...] = _catalog()
"""The 18 composite ML-DSA and 12 composite ML-KEM algorithms, each with its OID;
their traditional half is pyca/cryptography's (the ``openssl`` extra)."""
