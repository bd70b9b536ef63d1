"""The traditional halves of the composites, on pyca/cryptography (``openssl`` extra).

Encodings (draft-ietf-lamps-pq-composite-sigs-19 §4 and
draft-ietf-lamps-pq-composite-kem-17 §4, "Serialization"):

- RSA: public key RSAPublicKey, private key RSAPrivateKey (version 0, no
  otherPrimeInfos), RFC 8017 A.1.1 / A.1.2, DER;
- ECDSA / ECDH: public key the uncompressed X9.62 point (0x04 || x || y); private key
  ECPrivateKey (RFC 5915) with the named-curve parameters and without publicKey;
  an ECDSA signature is Ecdsa-Sig-Value DER (RFC 3279 §2.2.3);
- Ed25519 / Ed448 / X25519 / X448: raw keys (RFC 8032 §3, RFC 7748 §5).

Every reader checks what the OID fixes (the modulus size, the curve, the lengths,
that a point is on the curve) and raises ``ValueError`` naming the half and the
defect; no pyca exception leaves this module. The DER is read with
:mod:`pqkit.der` (minimal encodings, bounded lengths), then the numbers go to pyca,
which checks their consistency.

Randomness: a traditional key comes from pyca's generator (OpenSSL's CSPRNG, the
drafts' ``Trad.KeyGen()``); the ephemeral keys and the RSA-OAEP secret of the KEMs
come from the caller's ``rng`` (or ``os.urandom``); OpenSSL draws the PSS salt, the
OAEP seed and the ECDSA nonce itself.
"""

from __future__ import annotations

from functools import cache
from types import SimpleNamespace
from typing import Any

from pqkit import der
from pqkit.schemes import RNG, draw

__all__ = ["KEMS", "KEYS", "SIGNERS", "TradKem", "TradKey", "TradSigner", "pyca"]

_FEATURE = "the traditional half of the composite ML-DSA and composite ML-KEM algorithms"


@cache
def pyca() -> Any:
    """The pyca/cryptography modules the traditional halves use; :class:`pqkit.MissingExtra`
    naming the ``openssl`` extra when the package is missing."""
    from pqkit._extras import require

    require("openssl", _FEATURE, "cryptography.hazmat.primitives.asymmetric.rsa")
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import (
        ec,
        ed448,
        ed25519,
        padding,
        rsa,
        utils,
        x448,
        x25519,
    )

    return SimpleNamespace(
        InvalidSignature=InvalidSignature,
        hashes=hashes,
        serialization=serialization,
        ec=ec,
        ed25519=ed25519,
        ed448=ed448,
        padding=padding,
        rsa=rsa,
        utils=utils,
        x25519=x25519,
        x448=x448,
    )


def _hash(name: str) -> Any:
    return getattr(pyca().hashes, name)()


# --- keys ---------------------------------------------------------------------------


class TradKey:
    """A traditional key type: its encodings and their checks."""

    name: str
    length_private: int = 0
    """Bytes of a raw private key or scalar (EC, EdDSA, X25519 / X448; 0 for RSA)."""

    def generate(self) -> bytes:
        """A fresh private key, encoded (pyca's generator)."""
        raise NotImplementedError

    def private(self, data: bytes, what: str) -> Any:
        """The pyca private key of encoded ``data``; ``ValueError`` naming ``what``."""
        raise NotImplementedError

    def public(self, data: bytes, what: str) -> Any:
        """The pyca public key of encoded ``data``; ``ValueError`` naming ``what``."""
        raise NotImplementedError

    def public_bytes(self, key: Any) -> bytes:
        """The encoded public key of pyca private key ``key``."""
        raise NotImplementedError


def _integers(data: bytes, count: int, octets: int, what: str) -> list[int]:
    """The ``count`` non-negative INTEGERs of a DER SEQUENCE (each at most ``octets``)."""
    body = der.read_single(data, der.SEQUENCE, "SEQUENCE", what)
    reader = der.DerReader(body, what)
    out = []
    for _ in range(count):
        value = der.decode_integer(reader.expect(der.INTEGER, "INTEGER"), what, max_octets=octets)
        if value < 0:
            raise ValueError(f"{what}: negative INTEGER")
        out.append(value)
    if not reader.at_end():
        raise ValueError(f"{what}: unexpected fields after the key (otherPrimeInfos?)")
    return out


class RsaKey(TradKey):
    """RSA with a modulus of exactly ``bits`` bits (RFC 8017 A.1.1 / A.1.2)."""

    def __init__(self, bits: int) -> None:
        self.bits = bits
        self.name = f"RSA{bits}"
        self.octets = bits // 4 + 1  # a bound: twice the size, so that "too large" is named

    def _check_modulus(self, n: int, what: str) -> None:
        if n.bit_length() != self.bits:
            size = "too small" if n.bit_length() < self.bits else "too large"
            raise ValueError(
                f"{what}: the RSA modulus has {n.bit_length()} bits, {size} for this "
                f"algorithm ({self.bits} bits)"
            )

    def generate(self) -> bytes:
        m = pyca()
        key = m.rsa.generate_private_key(public_exponent=65537, key_size=self.bits)
        s = m.serialization
        encoded: bytes = key.private_bytes(
            s.Encoding.DER, s.PrivateFormat.TraditionalOpenSSL, s.NoEncryption()
        )
        return encoded

    def private(self, data: bytes, what: str) -> Any:
        what = f"{what} (RSAPrivateKey)"
        version, n, e, d, p, q, dp, dq, qinv = _integers(data, 9, self.octets, what)
        if version != 0:
            raise ValueError(f"{what}: version must be 0 (two-prime), got {version}")
        self._check_modulus(n, what)
        m = pyca()
        try:
            public = m.rsa.RSAPublicNumbers(e, n)
            return m.rsa.RSAPrivateNumbers(p, q, d, dp, dq, qinv, public).private_key()
        except ValueError:
            raise ValueError(f"{what}: inconsistent RSA private key numbers") from None

    def public(self, data: bytes, what: str) -> Any:
        what = f"{what} (RSAPublicKey)"
        n, e = _integers(data, 2, self.octets, what)
        self._check_modulus(n, what)
        if e < 3 or e % 2 == 0:
            raise ValueError(f"{what}: the public exponent must be odd and at least 3")
        try:
            return pyca().rsa.RSAPublicNumbers(e, n).public_key()
        except ValueError:
            raise ValueError(f"{what}: not a valid RSA public key") from None

    def public_bytes(self, key: Any) -> bytes:
        s = pyca().serialization
        encoded: bytes = key.public_key().public_bytes(s.Encoding.DER, s.PublicFormat.PKCS1)
        return encoded


class EcKey(TradKey):
    """An elliptic curve: uncompressed points, ECPrivateKey (RFC 5915) without publicKey."""

    def __init__(self, name: str, curve: str, oid: str, order: int) -> None:
        self.name = name
        self._curve_name = curve
        self.oid = oid
        self.order = order
        self.size = (order.bit_length() + 7) // 8
        self.length_private = self.size
        self.length_point = 1 + 2 * self.size

    def curve(self) -> Any:
        return getattr(pyca().ec, self._curve_name)()

    def from_scalar(self, scalar: bytes, what: str) -> Any:
        """The pyca private key of big-endian ``scalar`` (in [1, n), else ``ValueError``)."""
        value = int.from_bytes(scalar, "big")
        if not 0 < value < self.order:
            raise ValueError(f"{what}: the {self.name} private scalar is not in [1, n)")
        return pyca().ec.derive_private_key(value, self.curve())

    def encode_private(self, key: Any) -> bytes:
        """ECPrivateKey { version 1, privateKey, [0] namedCurve } (RFC 5915 §3)."""
        scalar = key.private_numbers().private_value.to_bytes(self.size, "big")
        return der.encode_sequence(
            der.encode_integer(1),
            der.encode_octet_string(scalar),
            der.encode_tlv(der.CONTEXT_CONSTRUCTED_0, der.encode_oid(self.oid)),
        )

    def generate(self) -> bytes:
        return self.encode_private(pyca().ec.generate_private_key(self.curve()))

    def private(self, data: bytes, what: str) -> Any:
        what = f"{what} (ECPrivateKey)"
        body = der.read_single(data, der.SEQUENCE, "SEQUENCE", what)
        reader = der.DerReader(body, what)
        version = der.decode_integer(reader.expect(der.INTEGER, "version"), what)
        if version != 1:
            raise ValueError(f"{what}: version must be 1 (RFC 5915), got {version}")
        scalar = reader.expect(der.OCTET_STRING, "privateKey")
        if len(scalar) != self.size:
            raise ValueError(
                f"{what}: the {self.name} private key must be {self.size} bytes, got {len(scalar)}"
            )
        if reader.peek_tag() == der.CONTEXT_CONSTRUCTED_0:
            params = der.DerReader(reader.read()[1], f"{what} parameters")
            oid = der.decode_oid(params.expect(der.OBJECT_IDENTIFIER, "namedCurve"), what)
            params.finish()
            if oid != self.oid:
                raise ValueError(
                    f"{what}: the key is on the curve {oid}, not {self.name} ({self.oid})"
                )
        key = self.from_scalar(scalar, what)
        if reader.peek_tag() == der.CONTEXT_CONSTRUCTED_1:
            inner = der.DerReader(reader.read()[1], f"{what} publicKey")
            point = der.decode_bit_string(inner.expect(der.BIT_STRING, "publicKey"), what)
            inner.finish()
            if point != self.public_bytes(key):
                raise ValueError(f"{what}: its publicKey is not the key of its private scalar")
        reader.finish()
        return key

    def public(self, data: bytes, what: str) -> Any:
        if len(data) != self.length_point or data[0] != 0x04:
            raise ValueError(
                f"{what}: a {self.name} public key is an uncompressed point "
                f"(0x04 || x || y, {self.length_point} bytes), got {len(data)} bytes"
            )
        try:
            return pyca().ec.EllipticCurvePublicKey.from_encoded_point(self.curve(), data)
        except ValueError:
            raise ValueError(f"{what}: not a point on {self.name}") from None

    def public_bytes(self, key: Any) -> bytes:
        s = pyca().serialization
        encoded: bytes = key.public_key().public_bytes(
            s.Encoding.X962, s.PublicFormat.UncompressedPoint
        )
        return encoded


class RawKey(TradKey):
    """Ed25519, Ed448, X25519, X448: raw private and public keys of fixed length."""

    def __init__(self, name: str, module: str, stem: str, length_private: int, length_public: int):
        self.name = name
        self._module = module
        self._stem = stem
        self.length_private = length_private
        self.length_public = length_public

    def _classes(self) -> tuple[Any, Any]:
        module = getattr(pyca(), self._module)
        return getattr(module, f"{self._stem}PrivateKey"), getattr(module, f"{self._stem}PublicKey")

    def generate(self) -> bytes:
        raw: bytes = self._classes()[0].generate().private_bytes_raw()
        return raw

    def private(self, data: bytes, what: str) -> Any:
        if len(data) != self.length_private:
            raise ValueError(
                f"{what}: an {self.name} private key is {self.length_private} bytes, "
                f"got {len(data)}"
            )
        try:
            return self._classes()[0].from_private_bytes(data)
        except ValueError:  # pragma: no cover - every string of the length is a key
            raise ValueError(f"{what}: not an {self.name} private key") from None

    def public(self, data: bytes, what: str) -> Any:
        if len(data) != self.length_public:
            raise ValueError(
                f"{what}: an {self.name} public key is {self.length_public} bytes, got {len(data)}"
            )
        try:
            return self._classes()[1].from_public_bytes(data)
        except ValueError:
            raise ValueError(f"{what}: not an {self.name} public key") from None

    def public_bytes(self, key: Any) -> bytes:
        raw: bytes = key.public_key().public_bytes_raw()
        return raw


_P256_N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
_P384_N = int(
    "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFC7634D81F4372DDF581A0DB248B0A77AECEC196ACCC52973",
    16,
)
_P521_N = int(
    "01FF" + "FFFFFFFF" * 7 + "FFFFFFFA"
    "51868783BF2F966B7FCC0148F709A5D03BB5C9B8899C47AEBB6FB71E91386409",
    16,
)
_BP256_N = 0xA9FB57DBA1EEA9BC3E660A909D838D718C397AA3B561A6F7901E0E82974856A7
_BP384_N = int(
    "8CB91E82A3386D280F5D6F7E50E641DF152F7109ED5456B31F166E6CAC0425A7CF3AB6AF6B7FC3103B883202E9046565",
    16,
)

KEYS: dict[str, TradKey] = {
    "RSA2048": RsaKey(2048),
    "RSA3072": RsaKey(3072),
    "RSA4096": RsaKey(4096),
    "P-256": EcKey("P-256", "SECP256R1", "1.2.840.10045.3.1.7", _P256_N),
    "P-384": EcKey("P-384", "SECP384R1", "1.3.132.0.34", _P384_N),
    "P-521": EcKey("P-521", "SECP521R1", "1.3.132.0.35", _P521_N),
    "brainpoolP256r1": EcKey(
        "brainpoolP256r1", "BrainpoolP256R1", "1.3.36.3.3.2.8.1.1.7", _BP256_N
    ),
    "brainpoolP384r1": EcKey(
        "brainpoolP384r1", "BrainpoolP384R1", "1.3.36.3.3.2.8.1.1.11", _BP384_N
    ),
    "Ed25519": RawKey("Ed25519", "ed25519", "Ed25519", 32, 32),
    "Ed448": RawKey("Ed448", "ed448", "Ed448", 57, 57),
    "X25519": RawKey("X25519", "x25519", "X25519", 32, 32),
    "X448": RawKey("X448", "x448", "X448", 56, 56),
}
"""The traditional key types by name (SEC 2 and RFC 5639 group orders n)."""


# --- signatures -----------------------------------------------------------------------


class TradSigner:
    """A traditional signature algorithm over M' (draft-ietf-lamps-pq-composite-sigs §3.2)."""

    def sign(self, key: Any, message: bytes) -> bytes:
        raise NotImplementedError

    def _verify(self, key: Any, message: bytes, signature: bytes) -> None:
        """pyca's verify: raises pyca's InvalidSignature if bad."""
        raise NotImplementedError

    def verify(self, key: Any, message: bytes, signature: bytes) -> bool:
        """Whether ``signature`` is valid; never raises on a bad signature."""
        m = pyca()
        try:
            self._verify(key, message, signature)
        except (m.InvalidSignature, ValueError):
            return False
        return True


class RsaPss(TradSigner):
    """RSASSA-PSS (RFC 8017 §8.1) with MGF1 of the same hash and a salt of its length."""

    def __init__(self, hash_name: str, salt: int) -> None:
        self.hash_name = hash_name
        self.salt = salt

    def _padding(self) -> Any:
        m = pyca()
        return m.padding.PSS(m.padding.MGF1(_hash(self.hash_name)), self.salt)

    def sign(self, key: Any, message: bytes) -> bytes:
        signature: bytes = key.sign(message, self._padding(), _hash(self.hash_name))
        return signature

    def _verify(self, key: Any, message: bytes, signature: bytes) -> None:
        if len(signature) != (key.key_size + 7) // 8:
            raise ValueError("RSA signature of the wrong length")
        key.verify(signature, message, self._padding(), _hash(self.hash_name))


class RsaPkcs15(TradSigner):
    """RSASSA-PKCS1-v1_5 (RFC 8017 §8.2)."""

    def __init__(self, hash_name: str) -> None:
        self.hash_name = hash_name

    def sign(self, key: Any, message: bytes) -> bytes:
        signature: bytes = key.sign(message, pyca().padding.PKCS1v15(), _hash(self.hash_name))
        return signature

    def _verify(self, key: Any, message: bytes, signature: bytes) -> None:
        if len(signature) != (key.key_size + 7) // 8:
            raise ValueError("RSA signature of the wrong length")
        key.verify(signature, message, pyca().padding.PKCS1v15(), _hash(self.hash_name))


class Ecdsa(TradSigner):
    """ECDSA (FIPS 186-5 §6) with Ecdsa-Sig-Value DER signatures; a signature that is not
    the DER of its (r, s) (BER, trailing bytes, r or s out of range) fails."""

    def __init__(self, hash_name: str) -> None:
        self.hash_name = hash_name

    def sign(self, key: Any, message: bytes) -> bytes:
        signature: bytes = key.sign(message, pyca().ec.ECDSA(_hash(self.hash_name)))
        return signature

    def _verify(self, key: Any, message: bytes, signature: bytes) -> None:
        m = pyca()
        r, s = m.utils.decode_dss_signature(signature)
        if m.utils.encode_dss_signature(r, s) != signature:
            raise ValueError("the ECDSA signature is not DER")
        key.verify(signature, message, m.ec.ECDSA(_hash(self.hash_name)))


class EdDsa(TradSigner):
    """Pure Ed25519 / Ed448 (RFC 8032), empty context."""

    def sign(self, key: Any, message: bytes) -> bytes:
        signature: bytes = key.sign(message)
        return signature

    def _verify(self, key: Any, message: bytes, signature: bytes) -> None:
        key.verify(signature, message)


SIGNERS: dict[str, TradSigner] = {
    "RSA2048-PSS": RsaPss("SHA256", 32),
    "RSA4096-PSS": RsaPss("SHA384", 48),
    "RSA-PKCS15-SHA256": RsaPkcs15("SHA256"),
    "RSA-PKCS15-SHA384": RsaPkcs15("SHA384"),
    "ECDSA-SHA256": Ecdsa("SHA256"),
    "ECDSA-SHA384": Ecdsa("SHA384"),
    "ECDSA-SHA512": Ecdsa("SHA512"),
    "Ed25519": EdDsa(),
    "Ed448": EdDsa(),
}
"""The traditional signature algorithms of draft-ietf-lamps-pq-composite-sigs §6
(RSASSA-PSS parameters: §6.1)."""


# --- KEMs -------------------------------------------------------------------------------


class TradKem:
    """A traditional algorithm promoted to a KEM (draft-ietf-lamps-pq-composite-kem §2.1,
    §2.2): ``encaps`` from ``length_randomness`` bytes, ``decaps`` returning
    ``(shared secret, ok)`` so that the caller decides what a failure shows."""

    length_randomness: int

    def __init__(self, key: TradKey) -> None:
        self.key = key

    def randomness(self, rng: RNG | None) -> bytes:
        """Fresh randomness for ``encaps``."""
        return draw(rng, self.length_randomness)

    def encaps(self, public: Any, randomness: bytes) -> tuple[bytes, bytes]:
        """``(shared secret, ciphertext)`` for pyca public key ``public``."""
        raise NotImplementedError

    def decaps(self, private: Any, ciphertext: bytes) -> tuple[bytes, bool]:
        """``(shared secret, ok)``; on failure the secret is a placeholder."""
        raise NotImplementedError


class RsaOaepKem(TradKem):
    """RSAOAEPKEM (§2.1): a 32-byte secret, RSAES-OAEP with SHA-256, MGF1-SHA-256, empty
    label (§6.1). The randomness is the secret; OpenSSL draws the OAEP seed."""

    length_randomness = 32

    def _padding(self) -> Any:
        m = pyca()
        sha256 = m.hashes.SHA256()
        return m.padding.OAEP(m.padding.MGF1(sha256), sha256, None)

    def encaps(self, public: Any, randomness: bytes) -> tuple[bytes, bytes]:
        ciphertext: bytes = public.encrypt(randomness, self._padding())
        return randomness, ciphertext

    def decaps(self, private: Any, ciphertext: bytes) -> tuple[bytes, bool]:
        try:
            secret: bytes = private.decrypt(ciphertext, self._padding())
        except ValueError:
            return bytes(32), False
        return secret, len(secret) == 32


class DhKem(TradKem):
    """DHKEM (§2.2): an ephemeral key pair, ciphertext = its public key, ss = DH(skE, pkR)
    (ECDH: the x-coordinate Z, SP 800-56A §5.7.1.2; X25519 / X448: K, RFC 7748 §6).
    The randomness is the ephemeral private key: raw for X25519 / X448, the
    big-endian scalar (in [1, n)) for the NIST and brainpool curves."""

    def __init__(self, key: TradKey) -> None:
        super().__init__(key)
        self.length_randomness = key.length_private

    def randomness(self, rng: RNG | None) -> bytes:
        key = self.key
        if not isinstance(key, EcKey):
            return draw(rng, self.length_randomness)
        # rejection sampling (FIPS 186-5 A.2.2): a rejected candidate is discarded
        top = key.order.bit_length() % 8 or 8
        for _ in range(64):
            candidate = bytearray(draw(rng, key.size))
            candidate[0] &= (1 << top) - 1
            if 0 < int.from_bytes(candidate, "big") < key.order:
                return bytes(candidate)
        raise ValueError(f"no {key.name} scalar in [1, n) in 64 draws: is the rng broken?")

    def _ephemeral(self, randomness: bytes) -> Any:
        key = self.key
        if isinstance(key, EcKey):
            return key.from_scalar(randomness, "encapsulation randomness")
        return key.private(randomness, "encapsulation randomness")

    def _exchange(self, private: Any, public: Any) -> bytes:
        if isinstance(self.key, EcKey):
            return bytes(private.exchange(pyca().ec.ECDH(), public))
        return bytes(private.exchange(public))

    def encaps(self, public: Any, randomness: bytes) -> tuple[bytes, bytes]:
        ephemeral = self._ephemeral(randomness)
        try:
            secret = self._exchange(ephemeral, public)
        except ValueError:  # X25519 / X448 all-zero output: a low-order public key
            raise ValueError(
                f"public key: the {self.key.name} shared secret is all zero (a low-order point)"
            ) from None
        return secret, self.key.public_bytes(ephemeral)

    def decaps(self, private: Any, ciphertext: bytes) -> tuple[bytes, bool]:
        try:
            public = self.key.public(ciphertext, "ciphertext")
            return self._exchange(private, public), True
        except ValueError:
            return bytes(32), False


KEMS: dict[str, TradKem] = {
    name: (RsaOaepKem(key) if isinstance(key, RsaKey) else DhKem(key))
    for name, key in KEYS.items()
    if not name.startswith("Ed")
}
"""The traditional KEMs of draft-ietf-lamps-pq-composite-kem §6, by key type."""
