"""What each family's scheme object offers, as typing protocols (issue 25 item 4).

:class:`pqkit.schemes.Kem` and :class:`pqkit.schemes.Signature` hold what every
KEM and every signature scheme has. The protocols here add what one family has
besides, and :func:`pqkit.kem` / :func:`pqkit.sig` are overloaded on the canonical
names, so a type checker knows ``pqkit.sig("ML-DSA-65").mu`` and
``pqkit.kem("ML-KEM-768").check_encapsulation_key``. A name given in another
spelling (``"mlkem768"``) or held in a ``str`` variable gets the generic protocol.

This module costs nothing at run time: it imports only ``typing``, and the
scheme classes are checked against these protocols by ``mypy --strict src``
(:func:`_conformance`), never at import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Protocol, TypeVar

from pqkit.schemes import RNG, Encapsulation, Kem, Signature

if TYPE_CHECKING:
    from pqkit.batch import KemBatch, SignatureBatch

__all__ = [
    "DilithiumName",
    "DilithiumR3Scheme",
    "HybridKemScheme",
    "HybridName",
    "MLDSAName",
    "MLDSAScheme",
    "MLKEMName",
    "MLKEMScheme",
    "SLHDSAName",
    "SLHDSAScheme",
]

_T = TypeVar("_T")

MLKEMName = Literal["ML-KEM-512", "ML-KEM-768", "ML-KEM-1024"]
MLDSAName = Literal["ML-DSA-44", "ML-DSA-65", "ML-DSA-87"]
SLHDSAName = Literal[
    "SLH-DSA-SHA2-128s",
    "SLH-DSA-SHA2-128f",
    "SLH-DSA-SHA2-192s",
    "SLH-DSA-SHA2-192f",
    "SLH-DSA-SHA2-256s",
    "SLH-DSA-SHA2-256f",
    "SLH-DSA-SHAKE-128s",
    "SLH-DSA-SHAKE-128f",
    "SLH-DSA-SHAKE-192s",
    "SLH-DSA-SHAKE-192f",
    "SLH-DSA-SHAKE-256s",
    "SLH-DSA-SHAKE-256f",
]
DilithiumName = Literal[
    "Dilithium2",
    "Dilithium3",
    "Dilithium5",
    "Dilithium2-AES",
    "Dilithium3-AES",
    "Dilithium5-AES",
]
HybridName = Literal["X-Wing", "MLKEM768-X25519", "MLKEM768-P256", "MLKEM1024-P384"]


class MLKEMScheme(Kem, Protocol):
    """ML-KEM (FIPS 203): the generic KEM plus the FIPS 203 §7.2 and §7.3 input
    checks on their own (ValueError naming the check that failed)."""

    @property
    def batch(self) -> KemBatch: ...

    def using(self: _T, *, arith: str | None = None) -> _T: ...

    def check_encapsulation_key(self, ek: bytes) -> None: ...

    def check_decapsulation_key(self, dk: bytes) -> None: ...


class HybridKemScheme(Kem, Protocol):
    """X-Wing, MLKEM768-P256, MLKEM1024-P384: ``encaps_derand`` takes the ML-KEM m
    followed by the curve's randomness (``length_randomness`` bytes)."""

    length_randomness: int

    def using(self: _T, *, arith: str | None = None) -> _T: ...

    def public_key(self, secret_key: bytes) -> bytes: ...

    def encaps_derand(self, public_key: bytes, randomness: bytes) -> Encapsulation: ...


class MLDSAScheme(Signature, Protocol):
    """ML-DSA (FIPS 204): external mu, and Sign_internal with its 32-byte rnd."""

    @property
    def batch(self) -> SignatureBatch: ...

    def using(self: _T, *, arith: str | None = None) -> _T: ...

    def sign_internal(self, secret_key: bytes, m_prime: bytes, rnd: bytes) -> bytes: ...

    def mu(
        self, public_key: bytes, message: bytes, ctx: bytes = b"", *, prehash: str | None = None
    ) -> bytes: ...

    def sign_mu(
        self,
        secret_key: bytes,
        mu: bytes,
        *,
        deterministic: bool = False,
        rnd: bytes | None = None,
        rng: RNG | None = None,
    ) -> bytes: ...

    def verify_mu(self, public_key: bytes, mu: bytes, signature: bytes) -> bool: ...


class SLHDSAScheme(Signature, Protocol):
    """SLH-DSA (FIPS 205): slh_sign_internal with ``addrnd`` (n bytes), None for the
    deterministic variant."""

    @property
    def batch(self) -> SignatureBatch: ...

    def using(self: _T, *, arith: str | None = None) -> _T: ...

    def sign_internal(
        self, secret_key: bytes, m_prime: bytes, addrnd: bytes | None = None
    ) -> bytes: ...


class DilithiumR3Scheme(Signature, Protocol):
    """Round-3 Dilithium (v3.1): no ``rnd`` (refused); ``rho_prime`` (64 bytes) for
    tests and known-answer vectors."""

    @property
    def batch(self) -> SignatureBatch: ...

    def using(self: _T, *, arith: str | None = None) -> _T: ...

    def sign(
        self,
        secret_key: bytes,
        message: bytes,
        ctx: bytes = b"",
        *,
        prehash: str | None = None,
        deterministic: bool = False,
        rnd: bytes | None = None,
        rng: RNG | None = None,
        rho_prime: bytes | None = None,
    ) -> bytes: ...

    def sign_internal(
        self,
        secret_key: bytes,
        m_prime: bytes,
        rnd: bytes | None = None,
        *,
        rho_prime: bytes | None = None,
    ) -> bytes: ...

    def sign_mu(
        self,
        secret_key: bytes,
        mu: bytes,
        *,
        deterministic: bool = False,
        rnd: bytes | None = None,
        rng: RNG | None = None,
        rho_prime: bytes | None = None,
    ) -> bytes: ...

    def verify_mu(self, public_key: bytes, mu: bytes, signature: bytes) -> bool: ...


if TYPE_CHECKING:
    from pqkit.hybrid.scheme import HybridKem
    from pqkit.mldsa.fips204 import MLDSA
    from pqkit.mldsa.round3 import DilithiumR3
    from pqkit.mlkem.fips203 import MLKEM
    from pqkit.mlkem.round3 import KyberR3
    from pqkit.slhdsa.fips205 import SLHDSA

    def _conformance(
        mlkem: MLKEM,
        kyber: KyberR3,
        hybrid: HybridKem,
        mldsa: MLDSA,
        dilithium: DilithiumR3,
        slhdsa: SLHDSA,
    ) -> None:
        """Never called: mypy checks that each scheme class has its protocol's shape."""
        kems: list[Kem] = [mlkem, kyber, hybrid]
        sigs: list[Signature] = [mldsa, dilithium, slhdsa]
        family_kems: tuple[MLKEMScheme, HybridKemScheme] = (mlkem, hybrid)
        family_sigs: tuple[MLDSAScheme, DilithiumR3Scheme, SLHDSAScheme] = (
            mldsa,
            dilithium,
            slhdsa,
        )
        del kems, sigs, family_kems, family_sigs
