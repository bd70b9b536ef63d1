"""SLH-DSA key objects (FIPS 205) in the pyca shape, with RFC 9909 key formats.

A private key is the FIPS 205 sk = SK.seed || SK.prf || PK.seed || PK.root (4n
bytes): ``private_bytes_raw`` returns it and RFC 9909 puts it, raw, in the
PKCS#8 privateKey OCTET STRING. ``from_seed_bytes`` takes the 3n-byte
SK.seed || SK.prf || PK.seed that key generation draws (FIPS 205, Algorithm 18);
``from_private_bytes`` (= ``from_expanded_bytes``) takes the 4n-byte sk and checks
that PK.root is the root its seeds give (this recomputes one XMSS tree: about a
second for the ``s`` sets in Python).

``HashSLHDSASHA2_128sPrivateKey`` ... are the keys of the pre-hash OIDs
(id-hash-slh-dsa-*-with-*, RFC 9909): the same key bytes, bound to HashSLH-DSA
(FIPS 205, Algorithms 23 and 25) with the OID's pre-hash, which their ``sign`` /
``verify`` apply to the message. They are not subclasses of the pure classes.
"""

from __future__ import annotations

import hmac
from functools import cache
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar, cast

from pqkit._checks import as_bytes, as_bytes_len
from pqkit.errors import InvalidSignature
from pqkit.keys._base import (
    BoundPrehashSigner,
    BoundPrehashVerifier,
    PrivateKey,
    PublicKey,
    SchemeSigner,
    _concrete,
    algorithm_named,
    as_context,
    prehash_m_prime,
)
from pqkit.schemes import RNG

__all__ = [
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
]

_PrivT = TypeVar("_PrivT", bound="SLHDSAPrivateKey")


@cache
def _scheme(name: str) -> Any:
    from pqkit.registry import sig

    return sig(name)


class SLHDSAPublicKey(PublicKey):
    """An SLH-DSA verification key (PK.seed || PK.root); base of the set classes."""

    __slots__ = ()

    if TYPE_CHECKING:  # pyca/cryptography has no SLH-DSA (pqkit.keys.pyca)

        def to_cryptography_key(self) -> NoReturn: ...

    def _check(self, ok: bool) -> None:
        if not ok:
            raise InvalidSignature(f"{self.algorithm.name} signature does not verify")

    def verify(self, signature: Any, data: Any, context: Any = None) -> None:
        """Check a pure SLH-DSA signature (FIPS 205, Algorithm 24); InvalidSignature if bad."""
        sig = as_bytes(signature, "signature")
        msg = as_bytes(data, "data")
        ctx = as_context(context)
        self._check(_scheme(self.algorithm.parameter_set).verify(self._public, msg, sig, ctx))

    def verify_prehashed(
        self, signature: Any, digest: Any, algorithm: str, context: Any = None
    ) -> None:
        """Check a HashSLH-DSA signature (FIPS 205, Algorithm 25) over ``digest`` = PH(M);
        ``algorithm`` names PH as ACVP does ("SHA2-256", "SHAKE-128", ...)."""
        m_prime = prehash_m_prime(digest, algorithm, context)
        sig = as_bytes(signature, "signature")
        self._check(
            _scheme(self.algorithm.parameter_set).verify_internal(self._public, m_prime, sig)
        )


class SLHDSAPrivateKey(SchemeSigner, PrivateKey):
    """An SLH-DSA signing key; base of the parameter-set classes."""

    __slots__ = ()

    if TYPE_CHECKING:  # pyca/cryptography has no SLH-DSA (pqkit.keys.pyca)

        def to_cryptography_key(self) -> NoReturn: ...

    @classmethod
    def _check_expanded(cls, expanded: bytes) -> bytes:
        n = len(expanded) // 4
        public, sk = cls._keygen(expanded[: 3 * n])
        if not hmac.compare_digest(sk, expanded):
            raise ValueError(
                f"inconsistent {cls.algorithm.name} private key: PK.root is not the "
                "hypertree root of its SK.seed and PK.seed (FIPS 205, Algorithm 18)"
            )
        return public

    @classmethod
    def from_expanded_bytes(cls: type[_PrivT], data: bytes) -> _PrivT:
        """The key from its 4n-byte FIPS 205 sk (checked: PK.root is recomputed)."""
        alg = _concrete(cls)
        sk = as_bytes_len(data, f"{alg.name} private key", alg.expanded_key_length)
        public = cls._check_expanded(sk)
        return cls._make(sk[: alg.seed_length], sk, public)

    @classmethod
    def from_private_bytes(cls: type[_PrivT], data: bytes) -> _PrivT:
        """The key from its raw 4n-byte sk (what ``private_bytes_raw`` returns)."""
        return cls.from_expanded_bytes(data)

    def private_bytes_raw(self) -> bytes:
        """The 4n-byte FIPS 205 sk (SK.seed || SK.prf || PK.seed || PK.root)."""
        return self._expanded

    def public_key(self) -> SLHDSAPublicKey:
        """The matching verification key."""
        return cast(SLHDSAPublicKey, super().public_key())

    def _signer(self) -> Any:
        return _scheme(self.algorithm.parameter_set)

    def _internal_randomness(self, deterministic: bool, rng: RNG | None) -> bytes | None:
        from pqkit.schemes import draw

        # addrnd of FIPS 205 Algorithm 23 line 5 (None: the deterministic variant)
        return None if deterministic else draw(rng, self.algorithm.seed_length // 3)


class SLHDSASHA2_128sPublicKey(SLHDSAPublicKey):
    """An SLH-DSA-SHA2-128s verification key."""

    __slots__ = ()
    algorithm = algorithm_named("SLH-DSA-SHA2-128s")


class SLHDSASHA2_128sPrivateKey(SLHDSAPrivateKey):
    """An SLH-DSA-SHA2-128s signing key."""

    __slots__ = ()
    algorithm = algorithm_named("SLH-DSA-SHA2-128s")
    _public_class = SLHDSASHA2_128sPublicKey


class SLHDSASHA2_128fPublicKey(SLHDSAPublicKey):
    """An SLH-DSA-SHA2-128f verification key."""

    __slots__ = ()
    algorithm = algorithm_named("SLH-DSA-SHA2-128f")


class SLHDSASHA2_128fPrivateKey(SLHDSAPrivateKey):
    """An SLH-DSA-SHA2-128f signing key."""

    __slots__ = ()
    algorithm = algorithm_named("SLH-DSA-SHA2-128f")
    _public_class = SLHDSASHA2_128fPublicKey


class SLHDSASHA2_192sPublicKey(SLHDSAPublicKey):
    """An SLH-DSA-SHA2-192s verification key."""

    __slots__ = ()
    algorithm = algorithm_named("SLH-DSA-SHA2-192s")


class SLHDSASHA2_192sPrivateKey(SLHDSAPrivateKey):
    """An SLH-DSA-SHA2-192s signing key."""

    __slots__ = ()
    algorithm = algorithm_named("SLH-DSA-SHA2-192s")
    _public_class = SLHDSASHA2_192sPublicKey


class SLHDSASHA2_192fPublicKey(SLHDSAPublicKey):
    """An SLH-DSA-SHA2-192f verification key."""

    __slots__ = ()
    algorithm = algorithm_named("SLH-DSA-SHA2-192f")


class SLHDSASHA2_192fPrivateKey(SLHDSAPrivateKey):
    """An SLH-DSA-SHA2-192f signing key."""

    __slots__ = ()
    algorithm = algorithm_named("SLH-DSA-SHA2-192f")
    _public_class = SLHDSASHA2_192fPublicKey


class SLHDSASHA2_256sPublicKey(SLHDSAPublicKey):
    """An SLH-DSA-SHA2-256s verification key."""

    __slots__ = ()
    algorithm = algorithm_named("SLH-DSA-SHA2-256s")


class SLHDSASHA2_256sPrivateKey(SLHDSAPrivateKey):
    """An SLH-DSA-SHA2-256s signing key."""

    __slots__ = ()
    algorithm = algorithm_named("SLH-DSA-SHA2-256s")
    _public_class = SLHDSASHA2_256sPublicKey


class SLHDSASHA2_256fPublicKey(SLHDSAPublicKey):
    """An SLH-DSA-SHA2-256f verification key."""

    __slots__ = ()
    algorithm = algorithm_named("SLH-DSA-SHA2-256f")


class SLHDSASHA2_256fPrivateKey(SLHDSAPrivateKey):
    """An SLH-DSA-SHA2-256f signing key."""

    __slots__ = ()
    algorithm = algorithm_named("SLH-DSA-SHA2-256f")
    _public_class = SLHDSASHA2_256fPublicKey


class SLHDSASHAKE_128sPublicKey(SLHDSAPublicKey):
    """An SLH-DSA-SHAKE-128s verification key."""

    __slots__ = ()
    algorithm = algorithm_named("SLH-DSA-SHAKE-128s")


class SLHDSASHAKE_128sPrivateKey(SLHDSAPrivateKey):
    """An SLH-DSA-SHAKE-128s signing key."""

    __slots__ = ()
    algorithm = algorithm_named("SLH-DSA-SHAKE-128s")
    _public_class = SLHDSASHAKE_128sPublicKey


class SLHDSASHAKE_128fPublicKey(SLHDSAPublicKey):
    """An SLH-DSA-SHAKE-128f verification key."""

    __slots__ = ()
    algorithm = algorithm_named("SLH-DSA-SHAKE-128f")


class SLHDSASHAKE_128fPrivateKey(SLHDSAPrivateKey):
    """An SLH-DSA-SHAKE-128f signing key."""

    __slots__ = ()
    algorithm = algorithm_named("SLH-DSA-SHAKE-128f")
    _public_class = SLHDSASHAKE_128fPublicKey


class SLHDSASHAKE_192sPublicKey(SLHDSAPublicKey):
    """An SLH-DSA-SHAKE-192s verification key."""

    __slots__ = ()
    algorithm = algorithm_named("SLH-DSA-SHAKE-192s")


class SLHDSASHAKE_192sPrivateKey(SLHDSAPrivateKey):
    """An SLH-DSA-SHAKE-192s signing key."""

    __slots__ = ()
    algorithm = algorithm_named("SLH-DSA-SHAKE-192s")
    _public_class = SLHDSASHAKE_192sPublicKey


class SLHDSASHAKE_192fPublicKey(SLHDSAPublicKey):
    """An SLH-DSA-SHAKE-192f verification key."""

    __slots__ = ()
    algorithm = algorithm_named("SLH-DSA-SHAKE-192f")


class SLHDSASHAKE_192fPrivateKey(SLHDSAPrivateKey):
    """An SLH-DSA-SHAKE-192f signing key."""

    __slots__ = ()
    algorithm = algorithm_named("SLH-DSA-SHAKE-192f")
    _public_class = SLHDSASHAKE_192fPublicKey


class SLHDSASHAKE_256sPublicKey(SLHDSAPublicKey):
    """An SLH-DSA-SHAKE-256s verification key."""

    __slots__ = ()
    algorithm = algorithm_named("SLH-DSA-SHAKE-256s")


class SLHDSASHAKE_256sPrivateKey(SLHDSAPrivateKey):
    """An SLH-DSA-SHAKE-256s signing key."""

    __slots__ = ()
    algorithm = algorithm_named("SLH-DSA-SHAKE-256s")
    _public_class = SLHDSASHAKE_256sPublicKey


class SLHDSASHAKE_256fPublicKey(SLHDSAPublicKey):
    """An SLH-DSA-SHAKE-256f verification key."""

    __slots__ = ()
    algorithm = algorithm_named("SLH-DSA-SHAKE-256f")


class SLHDSASHAKE_256fPrivateKey(SLHDSAPrivateKey):
    """An SLH-DSA-SHAKE-256f signing key."""

    __slots__ = ()
    algorithm = algorithm_named("SLH-DSA-SHAKE-256f")
    _public_class = SLHDSASHAKE_256fPublicKey


# --- the pre-hash OIDs: HashSLH-DSA keys -------------------------------------------------


class HashSLHDSAPublicKey(BoundPrehashVerifier, SLHDSAPublicKey):
    """An SLH-DSA verification key under a HashSLH-DSA OID (id-hash-slh-dsa-*-with-*):
    it verifies HashSLH-DSA signatures (FIPS 205, Algorithm 25) with the OID's
    pre-hash and nothing else. Base of the parameter-set classes."""

    __slots__ = ()


class HashSLHDSAPrivateKey(BoundPrehashSigner, SLHDSAPrivateKey):
    """An SLH-DSA signing key under a HashSLH-DSA OID: ``sign`` makes HashSLH-DSA
    signatures (FIPS 205, Algorithm 23) with the OID's pre-hash. Base of the
    parameter-set classes."""

    __slots__ = ()

    def public_key(self) -> HashSLHDSAPublicKey:
        """The matching verification key (bound to the same pre-hash)."""
        return cast(HashSLHDSAPublicKey, super().public_key())


class HashSLHDSASHA2_128sPublicKey(HashSLHDSAPublicKey):
    """An SLH-DSA-SHA2-128s verification key, HashSLH-DSA with SHA-256 (OID ...3.4.3.35)."""

    __slots__ = ()
    algorithm = algorithm_named("HashSLH-DSA-SHA2-128s-with-SHA256")


class HashSLHDSASHA2_128sPrivateKey(HashSLHDSAPrivateKey):
    """An SLH-DSA-SHA2-128s signing key, HashSLH-DSA with SHA-256 (OID ...3.4.3.35)."""

    __slots__ = ()
    algorithm = algorithm_named("HashSLH-DSA-SHA2-128s-with-SHA256")
    _public_class = HashSLHDSASHA2_128sPublicKey


class HashSLHDSASHA2_128fPublicKey(HashSLHDSAPublicKey):
    """An SLH-DSA-SHA2-128f verification key, HashSLH-DSA with SHA-256 (OID ...3.4.3.36)."""

    __slots__ = ()
    algorithm = algorithm_named("HashSLH-DSA-SHA2-128f-with-SHA256")


class HashSLHDSASHA2_128fPrivateKey(HashSLHDSAPrivateKey):
    """An SLH-DSA-SHA2-128f signing key, HashSLH-DSA with SHA-256 (OID ...3.4.3.36)."""

    __slots__ = ()
    algorithm = algorithm_named("HashSLH-DSA-SHA2-128f-with-SHA256")
    _public_class = HashSLHDSASHA2_128fPublicKey


class HashSLHDSASHA2_192sPublicKey(HashSLHDSAPublicKey):
    """An SLH-DSA-SHA2-192s verification key, HashSLH-DSA with SHA-512 (OID ...3.4.3.37)."""

    __slots__ = ()
    algorithm = algorithm_named("HashSLH-DSA-SHA2-192s-with-SHA512")


class HashSLHDSASHA2_192sPrivateKey(HashSLHDSAPrivateKey):
    """An SLH-DSA-SHA2-192s signing key, HashSLH-DSA with SHA-512 (OID ...3.4.3.37)."""

    __slots__ = ()
    algorithm = algorithm_named("HashSLH-DSA-SHA2-192s-with-SHA512")
    _public_class = HashSLHDSASHA2_192sPublicKey


class HashSLHDSASHA2_192fPublicKey(HashSLHDSAPublicKey):
    """An SLH-DSA-SHA2-192f verification key, HashSLH-DSA with SHA-512 (OID ...3.4.3.38)."""

    __slots__ = ()
    algorithm = algorithm_named("HashSLH-DSA-SHA2-192f-with-SHA512")


class HashSLHDSASHA2_192fPrivateKey(HashSLHDSAPrivateKey):
    """An SLH-DSA-SHA2-192f signing key, HashSLH-DSA with SHA-512 (OID ...3.4.3.38)."""

    __slots__ = ()
    algorithm = algorithm_named("HashSLH-DSA-SHA2-192f-with-SHA512")
    _public_class = HashSLHDSASHA2_192fPublicKey


class HashSLHDSASHA2_256sPublicKey(HashSLHDSAPublicKey):
    """An SLH-DSA-SHA2-256s verification key, HashSLH-DSA with SHA-512 (OID ...3.4.3.39)."""

    __slots__ = ()
    algorithm = algorithm_named("HashSLH-DSA-SHA2-256s-with-SHA512")


class HashSLHDSASHA2_256sPrivateKey(HashSLHDSAPrivateKey):
    """An SLH-DSA-SHA2-256s signing key, HashSLH-DSA with SHA-512 (OID ...3.4.3.39)."""

    __slots__ = ()
    algorithm = algorithm_named("HashSLH-DSA-SHA2-256s-with-SHA512")
    _public_class = HashSLHDSASHA2_256sPublicKey


class HashSLHDSASHA2_256fPublicKey(HashSLHDSAPublicKey):
    """An SLH-DSA-SHA2-256f verification key, HashSLH-DSA with SHA-512 (OID ...3.4.3.40)."""

    __slots__ = ()
    algorithm = algorithm_named("HashSLH-DSA-SHA2-256f-with-SHA512")


class HashSLHDSASHA2_256fPrivateKey(HashSLHDSAPrivateKey):
    """An SLH-DSA-SHA2-256f signing key, HashSLH-DSA with SHA-512 (OID ...3.4.3.40)."""

    __slots__ = ()
    algorithm = algorithm_named("HashSLH-DSA-SHA2-256f-with-SHA512")
    _public_class = HashSLHDSASHA2_256fPublicKey


class HashSLHDSASHAKE_128sPublicKey(HashSLHDSAPublicKey):
    """An SLH-DSA-SHAKE-128s verification key, HashSLH-DSA with SHAKE128 (OID ...3.4.3.41)."""

    __slots__ = ()
    algorithm = algorithm_named("HashSLH-DSA-SHAKE-128s-with-SHAKE128")


class HashSLHDSASHAKE_128sPrivateKey(HashSLHDSAPrivateKey):
    """An SLH-DSA-SHAKE-128s signing key, HashSLH-DSA with SHAKE128 (OID ...3.4.3.41)."""

    __slots__ = ()
    algorithm = algorithm_named("HashSLH-DSA-SHAKE-128s-with-SHAKE128")
    _public_class = HashSLHDSASHAKE_128sPublicKey


class HashSLHDSASHAKE_128fPublicKey(HashSLHDSAPublicKey):
    """An SLH-DSA-SHAKE-128f verification key, HashSLH-DSA with SHAKE128 (OID ...3.4.3.42)."""

    __slots__ = ()
    algorithm = algorithm_named("HashSLH-DSA-SHAKE-128f-with-SHAKE128")


class HashSLHDSASHAKE_128fPrivateKey(HashSLHDSAPrivateKey):
    """An SLH-DSA-SHAKE-128f signing key, HashSLH-DSA with SHAKE128 (OID ...3.4.3.42)."""

    __slots__ = ()
    algorithm = algorithm_named("HashSLH-DSA-SHAKE-128f-with-SHAKE128")
    _public_class = HashSLHDSASHAKE_128fPublicKey


class HashSLHDSASHAKE_192sPublicKey(HashSLHDSAPublicKey):
    """An SLH-DSA-SHAKE-192s verification key, HashSLH-DSA with SHAKE256 (OID ...3.4.3.43)."""

    __slots__ = ()
    algorithm = algorithm_named("HashSLH-DSA-SHAKE-192s-with-SHAKE256")


class HashSLHDSASHAKE_192sPrivateKey(HashSLHDSAPrivateKey):
    """An SLH-DSA-SHAKE-192s signing key, HashSLH-DSA with SHAKE256 (OID ...3.4.3.43)."""

    __slots__ = ()
    algorithm = algorithm_named("HashSLH-DSA-SHAKE-192s-with-SHAKE256")
    _public_class = HashSLHDSASHAKE_192sPublicKey


class HashSLHDSASHAKE_192fPublicKey(HashSLHDSAPublicKey):
    """An SLH-DSA-SHAKE-192f verification key, HashSLH-DSA with SHAKE256 (OID ...3.4.3.44)."""

    __slots__ = ()
    algorithm = algorithm_named("HashSLH-DSA-SHAKE-192f-with-SHAKE256")


class HashSLHDSASHAKE_192fPrivateKey(HashSLHDSAPrivateKey):
    """An SLH-DSA-SHAKE-192f signing key, HashSLH-DSA with SHAKE256 (OID ...3.4.3.44)."""

    __slots__ = ()
    algorithm = algorithm_named("HashSLH-DSA-SHAKE-192f-with-SHAKE256")
    _public_class = HashSLHDSASHAKE_192fPublicKey


class HashSLHDSASHAKE_256sPublicKey(HashSLHDSAPublicKey):
    """An SLH-DSA-SHAKE-256s verification key, HashSLH-DSA with SHAKE256 (OID ...3.4.3.45)."""

    __slots__ = ()
    algorithm = algorithm_named("HashSLH-DSA-SHAKE-256s-with-SHAKE256")


class HashSLHDSASHAKE_256sPrivateKey(HashSLHDSAPrivateKey):
    """An SLH-DSA-SHAKE-256s signing key, HashSLH-DSA with SHAKE256 (OID ...3.4.3.45)."""

    __slots__ = ()
    algorithm = algorithm_named("HashSLH-DSA-SHAKE-256s-with-SHAKE256")
    _public_class = HashSLHDSASHAKE_256sPublicKey


class HashSLHDSASHAKE_256fPublicKey(HashSLHDSAPublicKey):
    """An SLH-DSA-SHAKE-256f verification key, HashSLH-DSA with SHAKE256 (OID ...3.4.3.46)."""

    __slots__ = ()
    algorithm = algorithm_named("HashSLH-DSA-SHAKE-256f-with-SHAKE256")


class HashSLHDSASHAKE_256fPrivateKey(HashSLHDSAPrivateKey):
    """An SLH-DSA-SHAKE-256f signing key, HashSLH-DSA with SHAKE256 (OID ...3.4.3.46)."""

    __slots__ = ()
    algorithm = algorithm_named("HashSLH-DSA-SHAKE-256f-with-SHAKE256")
    _public_class = HashSLHDSASHAKE_256fPublicKey
