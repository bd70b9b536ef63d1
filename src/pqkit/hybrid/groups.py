"""The traditional halves of the hybrid KEMs: X25519, P-256 and P-384.

The curve arithmetic is pyca/cryptography's (the ``openssl`` extra); this module
adds what draft-irtf-cfrg-concrete-hybrid-kems specifies around it: the seed ->
scalar map (X25519: the seed is the key; P-256 / P-384: ``RandomScalar``), the
encoding of elements (X25519: 32 bytes; NIST curves: uncompressed SEC1 points), and
the validation of received elements (off-curve points, the point at infinity and
compressed encodings are refused; an all-zero X25519 output is refused, as pyca
and OpenSSL do and as the drafts allow).

Secret scalars are handled as bytes and passed to pyca; ``RandomScalar`` examines
every candidate of the seed and picks the first valid one by a masked select, so
the work done does not depend on which candidate was chosen (Python's integer
comparison itself is not guaranteed constant-time).
"""

from __future__ import annotations

from functools import cache
from types import SimpleNamespace
from typing import Any

from pqkit.mlkem.scheme import masked_select

__all__ = ["GROUPS", "Group", "NistGroup", "X25519Group", "pyca"]

_FEATURE = (
    "the elliptic-curve half of the hybrid KEMs (X-Wing, MLKEM768-P256, MLKEM1024-P384) "
    "and of the TLS key shares"
)


@cache
def pyca() -> Any:
    """The pyca/cryptography modules the curve halves use; :class:`pqkit.MissingExtra`
    naming the ``openssl`` extra when the package is missing."""
    from pqkit._extras import require

    require("openssl", _FEATURE, "cryptography.hazmat.primitives.asymmetric.x25519")
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec, x25519

    return SimpleNamespace(ec=ec, x25519=x25519, serialization=serialization)


class Group:
    """A Diffie-Hellman group as the concrete-hybrid draft uses it ("nominal group")."""

    name: str
    length_element: int
    """Bytes of an encoded element (public key, ciphertext)."""
    length_scalar: int
    """Bytes of an encoded scalar (Nscalar): what one RandomScalar attempt reads."""
    length_shared: int
    """Bytes of the DH output (X25519: 32; P-256 / P-384: the x-coordinate)."""

    def check_seed(self, seed: bytes, what: str) -> bytes:
        """Check the length of a traditional seed (``ValueError`` otherwise)."""
        raise NotImplementedError

    def scalar(self, seed: bytes) -> bytes:
        """The secret scalar derived from ``seed`` (RandomScalar)."""
        raise NotImplementedError

    def public(self, scalar: bytes) -> bytes:
        """The encoded element scalar * G."""
        raise NotImplementedError

    def check_element(self, element: bytes, what: str) -> Any:
        """Decode and validate a received element; ``ValueError`` naming ``what``."""
        raise NotImplementedError

    def dh(self, scalar: bytes, element: Any, what: str) -> bytes:
        """The shared secret of ``scalar`` and a checked element."""
        raise NotImplementedError


class X25519Group(Group):
    """X25519 (RFC 7748): the seed is the secret key itself (32 bytes)."""

    name = "X25519"
    length_element = 32
    length_scalar = 32
    length_shared = 32

    def check_seed(self, seed: bytes, what: str) -> bytes:
        if len(seed) != 32:
            raise ValueError(f"{what}: the X25519 seed must be 32 bytes, got {len(seed)}")
        return seed

    def scalar(self, seed: bytes) -> bytes:
        return seed

    def public(self, scalar: bytes) -> bytes:
        m = pyca()
        key = m.x25519.X25519PrivateKey.from_private_bytes(scalar)
        return bytes(key.public_key().public_bytes_raw())

    def check_element(self, element: bytes, what: str) -> Any:
        # Every 32-byte string is an X25519 u-coordinate (RFC 7748 §5); low-order
        # points show up as an all-zero output in dh().
        return pyca().x25519.X25519PublicKey.from_public_bytes(element)

    def dh(self, scalar: bytes, element: Any, what: str) -> bytes:
        key = pyca().x25519.X25519PrivateKey.from_private_bytes(scalar)
        try:
            return bytes(key.exchange(element))
        except ValueError:
            raise ValueError(
                f"{what}: the X25519 shared secret is all zero (a low-order point)"
            ) from None


class NistGroup(Group):
    """P-256 / P-384 (SEC 1): uncompressed points, scalars by RandomScalar."""

    def __init__(self, name: str, curve: str, order: int, length_scalar: int) -> None:
        self.name = name
        self._curve_name = curve
        self.order = order
        self.length_scalar = length_scalar
        self.length_shared = length_scalar
        self.length_element = 1 + 2 * length_scalar

    def _curve(self) -> Any:
        return getattr(pyca().ec, self._curve_name)()

    def check_seed(self, seed: bytes, what: str) -> bytes:
        n = self.length_scalar
        if len(seed) < n or len(seed) % n:
            raise ValueError(
                f"{what}: the {self.name} seed must be a positive multiple of {n} bytes "
                f"(one RandomScalar candidate each), got {len(seed)}"
            )
        return seed

    def scalar(self, seed: bytes) -> bytes:
        """draft-irtf-cfrg-concrete-hybrid-kems, RandomScalar: the first Nscalar-byte
        block of ``seed`` that, read big-endian, lies in [1, order). Every block is
        examined; ``ValueError`` if none qualifies (probability about 2^-32 per
        block for P-256, far less for P-384)."""
        n = self.length_scalar
        chosen = bytes(n)
        found = 0
        for start in range(0, len(seed), n):
            block = seed[start : start + n]
            value = int.from_bytes(block, "big")
            valid = int(0 < value < self.order)
            take = valid & (1 - found)
            chosen = masked_select(bool(take), block, chosen)
            found |= valid
        if not found:
            raise ValueError(f"RandomScalar: no {self.name} scalar in [1, order) in the seed")
        return chosen

    def public(self, scalar: bytes) -> bytes:
        m = pyca()
        key = m.ec.derive_private_key(int.from_bytes(scalar, "big"), self._curve())
        return bytes(
            key.public_key().public_bytes(
                m.serialization.Encoding.X962, m.serialization.PublicFormat.UncompressedPoint
            )
        )

    def check_element(self, element: bytes, what: str) -> Any:
        if element[0] != 0x04:
            raise ValueError(f"{what}: {self.name} point must be uncompressed (0x04 prefix)")
        try:
            return pyca().ec.EllipticCurvePublicKey.from_encoded_point(self._curve(), element)
        except ValueError:
            raise ValueError(f"{what}: not a point on {self.name}") from None

    def dh(self, scalar: bytes, element: Any, what: str) -> bytes:
        m = pyca()
        key = m.ec.derive_private_key(int.from_bytes(scalar, "big"), self._curve())
        return bytes(key.exchange(m.ec.ECDH(), element))


GROUPS: dict[str, Group] = {
    "X25519": X25519Group(),
    "P-256": NistGroup(
        "P-256",
        "SECP256R1",
        0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551,
        32,
    ),
    "P-384": NistGroup(
        "P-384",
        "SECP384R1",
        int(
            "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFC7634D81F4372DDF"
            "581A0DB248B0A77AECEC196ACCC52973",
            16,
        ),
        48,
    ),
}
"""The groups by name (SEC 2 orders n of secp256r1 / secp384r1)."""
