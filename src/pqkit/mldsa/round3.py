"""Dilithium 3.1 and Dilithium-AES (round 3 of the NIST process) on the Dilithium core.

What differs from ML-DSA (Dilithium v3.1 specification, §5; NIST-KAT-FORMAT §7):
the parameters carry a 32-byte tr and a 32-byte c_tilde and key generation
hashes the seed alone (:mod:`pqkit.mldsa.params`); the message is signed
as is, mu = CRH(tr || M) with no context and no domain byte; deterministic
signing takes rho' = CRH(K || mu) and randomised signing draws rho' as 64 bytes
from ``rng``. Dilithium-AES swaps the SHAKE streams of ExpandA / ExpandS /
ExpandMask for AES-256-CTR (:data:`pqkit.mldsa.symmetric.AES_SUITE`).

Randomness requests follow the NIST KAT order (NIST-KAT-FORMAT §3): key
generation asks for 32 bytes, randomised signing for 64, so a
:class:`pqkit.common.CtrDrbg` passed as ``rng`` reproduces the round-3 KATs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pqkit._checks import as_bytes, as_bytes_len
from pqkit.mldsa import core
from pqkit.mldsa.params import CATALOG
from pqkit.mldsa.scheme import DilithiumScheme
from pqkit.mldsa.symmetric import AES_SUITE, SHAKE_SUITE, Suite
from pqkit.registry import Algorithm
from pqkit.schemes import RNG, draw

__all__ = ["SCHEMES", "DilithiumR3"]

_SUITES: dict[str, Suite] = {"Dilithium": SHAKE_SUITE, "Dilithium-AES": AES_SUITE}
"""The symmetric suite of each round-3 family (Dilithium v3.1, §5.3)."""

_CRHBYTES = 64


def _refuse_rnd(rnd: Any, name: str) -> None:
    """Round 3 has no ``rnd``: its signing randomness is rho' itself, not a hedge."""
    if rnd is not None:
        raise TypeError(
            f"{name} (round 3) does not take rnd=: in Dilithium 3.1 the signing randomness "
            "is rho' itself, so a value reused for two messages leaks the secret key "
            "(unlike ML-DSA's rnd, which is hedged with K and mu). Use rng= (or "
            "deterministic=True); rho_prime= (64 bytes) exists for tests and KATs only"
        )


def _no_context(ctx: Any, prehash: Any, name: str) -> None:
    if as_bytes(ctx, "ctx"):
        raise ValueError(f"{name} (round 3) takes no context string; got {len(ctx)} bytes")
    if prehash is not None:
        raise ValueError(f"{name} (round 3) has no pre-hash variant; got prehash={prehash!r}")


class DilithiumR3(DilithiumScheme):
    """Dilithium2/3/5 and Dilithium2/3/5-AES, version 3.1.

    The :class:`pqkit.schemes.Signature` API, with the round-3 meaning of the
    randomness arguments: ``deterministic=True`` derives rho' = CRH(K || mu) (the
    reference default); otherwise rho' is 64 bytes drawn from ``rng`` (the
    reference build with DILITHIUM_RANDOMIZED_SIGNING). ``ctx`` must be empty and
    ``prehash`` None. ``sign_internal``/``verify_internal`` take the message itself
    (round 3 has no M' formatting).

    NOTE: ``rnd=`` is refused with ``TypeError``. ML-DSA's rnd is hedged
    (rho'' = H(K || rnd || mu)), so reusing it is harmless; round 3 uses the value as
    rho' directly, and two signatures under one rho' give z_i - z_j = c_i s1 - c_j s1,
    which recovers s1. The raw value is ``rho_prime=`` (64 bytes), for tests and
    known-answer vectors only.
    """

    def __init__(self, algorithm: Algorithm, *, arith: str | None = None) -> None:
        super().__init__(algorithm, _SUITES[algorithm.family], arith=arith)

    def _rho_prime(
        self,
        ops: core.Ops,
        sk: core.SecretKey,
        mu: bytes,
        deterministic: bool,
        rho_prime: Any,
        rng: RNG | None,
    ) -> bytes:
        if rho_prime is not None:
            if deterministic:
                raise ValueError("give rho_prime or deterministic=True, not both")
            return as_bytes_len(rho_prime, "rho_prime (round-3 rho')", _CRHBYTES)
        if deterministic:
            return core.h(ops, sk.key + mu, _CRHBYTES)  # rho' = CRH(key || mu)
        return draw(rng, _CRHBYTES)  # randombytes(rhoprime, CRHBYTES)

    def _mu(self, ops: core.Ops, tr: bytes, message: bytes) -> bytes:
        return core.h(ops, tr + message, _CRHBYTES)  # mu = CRH(tr || M)

    def _sign(
        self,
        secret_key: Any,
        mu_of: Callable[[core.Ops, core.SecretKey], bytes],
        deterministic: bool,
        rho_prime: Any,
        rng: RNG | None,
    ) -> bytes:
        ops = self._ops()
        sk = self._secret_key(ops, secret_key)
        mu = mu_of(ops, sk)
        rho = self._rho_prime(ops, sk, mu, deterministic, rho_prime, rng)
        return core.sign_mu_internal(self.params, ops, sk, mu, rho)

    def _verify(
        self, public_key: Any, mu_of: Callable[[core.Ops, bytes], bytes], signature: Any
    ) -> bool:
        ops = self._ops()
        pk = self._public_key(public_key)
        mu = mu_of(ops, pk)
        sig = self._signature(signature)
        if sig is None:
            return False
        return core.verify_mu_internal(self.params, ops, pk, mu, sig)

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
    ) -> bytes:
        """Dilithium v3.1 Sign: the detached signature of ``message``.

        ``rnd`` is refused (TypeError, see the class note); ``rho_prime`` (64 bytes)
        is the raw rho', for tests and known-answer vectors only: never reuse one.
        """
        _refuse_rnd(rnd, self.name)
        msg = self._m_prime(message, ctx, prehash)
        return self._sign(
            secret_key, lambda ops, sk: self._mu(ops, sk.tr, msg), deterministic, rho_prime, rng
        )

    def _m_prime(self, message: Any, ctx: Any, prehash: str | None) -> bytes:
        """Round 3 signs the message itself: no context string, no pre-hash."""
        _no_context(ctx, prehash, self.name)
        return as_bytes(message, "message")

    def _verify_m_prime(
        self, public_key: Any, m_prime: bytes, message: Any, signature: Any
    ) -> bool:
        """Dilithium v3.1 Verify (``SignatureBase.verify``); False for any malformed
        signature, TypeError for the likely swap of message and signature
        (``SignatureBase._refuse_swapped``)."""
        self._refuse_swapped(m_prime, as_bytes(signature, "signature"))
        return self._verify(
            public_key,
            lambda ops, pk: self._mu(ops, core.h(ops, pk, self.params.tr_bytes), m_prime),
            signature,
        )

    def sign_internal(
        self,
        secret_key: bytes,
        m_prime: bytes,
        rnd: bytes | None = None,
        *,
        rho_prime: bytes | None = None,
    ) -> bytes:
        """Sign the message ``m_prime`` as is with the given 64-byte ``rho_prime``
        (tests and known-answer vectors only). ``rnd`` is refused (TypeError)."""
        _refuse_rnd(rnd, self.name)
        msg = as_bytes(m_prime, "m_prime")
        if rho_prime is None:
            raise TypeError(f"{self.name} (round 3) sign_internal needs rho_prime= (64 bytes)")
        return self._sign(
            secret_key, lambda ops, sk: self._mu(ops, sk.tr, msg), False, rho_prime, None
        )

    def verify_internal(self, public_key: bytes, m_prime: bytes, signature: bytes) -> bool:
        """Verify on the message ``m_prime`` as is (the same as :meth:`verify`)."""
        return self.verify(public_key, m_prime, signature)

    def sign_mu(
        self,
        secret_key: bytes,
        mu: bytes,
        *,
        deterministic: bool = False,
        rnd: bytes | None = None,
        rng: RNG | None = None,
        rho_prime: bytes | None = None,
    ) -> bytes:
        """Sign an external mu = CRH(CRH(pk, 32) || M, 64); ``rnd`` and ``rho_prime``
        as in :meth:`sign`."""
        _refuse_rnd(rnd, self.name)
        mu_bytes = as_bytes_len(mu, "mu", _CRHBYTES)
        return self._sign(secret_key, lambda ops, sk: mu_bytes, deterministic, rho_prime, rng)

    def verify_mu(self, public_key: bytes, mu: bytes, signature: bytes) -> bool:
        """Verify against an external mu (64 bytes)."""
        mu_bytes = as_bytes_len(mu, "mu", _CRHBYTES)
        as_bytes(signature, "signature")
        return self._verify(public_key, lambda ops, pk: mu_bytes, signature)


SCHEMES: dict[str, DilithiumR3] = {a.name: DilithiumR3(a) for a in CATALOG if a.family in _SUITES}
