"""ML-DSA and HashML-DSA (FIPS 204, Algorithms 1-8) on the Dilithium core."""

from __future__ import annotations

from typing import Any

from pqkit._checks import as_bytes, as_bytes_len
from pqkit.messages import RND_LENGTH, m_prime_for, signing_rnd
from pqkit.mldsa import core
from pqkit.mldsa.params import CATALOG
from pqkit.mldsa.scheme import DilithiumScheme
from pqkit.mldsa.symmetric import SHAKE_SUITE
from pqkit.registry import Algorithm
from pqkit.schemes import RNG

__all__ = ["MLDSA", "SCHEMES"]


class MLDSA(DilithiumScheme):
    """ML-DSA-44/65/87 (FIPS 204): pure and HashML-DSA signing, contexts, hedged
    and deterministic signing, external mu. See :class:`pqkit.schemes.Signature`."""

    BATCH = "pqkit.mldsa.batch:MLDSABatch"

    def __init__(self, algorithm: Algorithm, *, arith: str | None = None) -> None:
        super().__init__(algorithm, SHAKE_SUITE, arith=arith)

    def _rnd(self, deterministic: bool, rnd: Any, rng: RNG | None) -> bytes:
        if rnd is not None:
            if deterministic:
                raise ValueError("give rnd or deterministic=True, not both")
            return as_bytes_len(rnd, "rnd", RND_LENGTH)
        return signing_rnd(deterministic, rng)

    # --- FIPS 204, Algorithms 7 and 8 on mu -----------------------------------------

    def _sign_mu(self, ops: core.Ops, sk: core.SecretKey, mu: bytes, rnd: bytes) -> bytes:
        rho_pp = core.h(ops, sk.key + rnd + mu, 64)  # Algorithm 7 line 7
        return core.sign_mu_internal(self.params, ops, sk, mu, rho_pp)

    def _sign_m(self, ops: core.Ops, sk: bytes, m: bytes, rnd: bytes) -> bytes:
        """Algorithm 7 on M' (sk of the right length): one compiled call where the
        backend has one (:func:`core.sign_whole`), else the key checked and decoded,
        mu (line 6) here, then the rest."""
        whole = core.sign_whole(self.params, ops, sk, m, rnd)
        if whole is not None:
            return whole
        key = self._secret_key(ops, sk)
        return self._sign_mu(ops, key, self._mu(ops, key.tr, m), rnd)

    def _verify_mu(self, ops: core.Ops, pk: bytes, mu: bytes, signature: Any) -> bool:
        sig = self._signature(signature)
        if sig is None:
            return False
        return core.verify_mu_internal(self.params, ops, pk, mu, sig)

    def _verify_m(self, ops: core.Ops, pk: bytes, m: bytes, signature: Any) -> bool:
        """Algorithm 8 on M': one compiled call where the backend has one
        (:func:`core.verify_whole`), else tr and mu (lines 6-7) here, then the rest."""
        sig = self._signature(signature)
        if sig is None:
            return False
        whole = core.verify_whole(self.params, ops, pk, m, sig)
        if whole is not None:
            return whole
        tr = core.h(ops, pk, self.params.tr_bytes)
        return core.verify_mu_internal(self.params, ops, pk, self._mu(ops, tr, m), sig)

    def _mu(self, ops: core.Ops, tr: bytes, m_prime: bytes) -> bytes:
        return core.h(ops, tr + m_prime, 64)  # Algorithm 7 line 6

    # --- public API -----------------------------------------------------------------

    def _m_prime(self, message: Any, ctx: Any, prehash: str | None) -> bytes:
        return m_prime_for(message, ctx, prehash)  # Algorithm 2 lines 5-10, Algorithm 4

    def _sign_m_prime(
        self, secret_key: Any, m_prime: bytes, deterministic: bool, rnd: Any, rng: RNG | None
    ) -> bytes:
        """FIPS 204, Algorithm 2 (ML-DSA.Sign), or Algorithm 4 (HashML-DSA.Sign) with
        ``prehash``: Algorithm 7 on M' with fresh (or the given) rnd."""
        ops = self._ops()
        sk = self._secret_bytes(secret_key)
        rnd_bytes = self._rnd(deterministic, rnd, rng)
        return self._sign_m(ops, sk, m_prime, rnd_bytes)

    def _verify_m_prime(
        self, public_key: Any, m_prime: bytes, message: Any, signature: Any
    ) -> bool:
        """FIPS 204, Algorithm 3 (ML-DSA.Verify), or Algorithm 5 (HashML-DSA.Verify)
        with ``prehash``; TypeError for the likely swap of message and signature."""
        ops = self._ops()
        pk = self._public_key(public_key)
        self._refuse_swapped(as_bytes(message, "message"), as_bytes(signature, "signature"))
        return self._verify_m(ops, pk, m_prime, signature)

    def sign_internal(self, secret_key: bytes, m_prime: bytes, rnd: bytes) -> bytes:
        """FIPS 204, Algorithm 7 (ML-DSA.Sign_internal) on M' directly."""
        ops = self._ops()
        m = as_bytes(m_prime, "m_prime")
        sk = self._secret_bytes(secret_key)
        rnd_bytes = as_bytes_len(rnd, "rnd", RND_LENGTH)
        return self._sign_m(ops, sk, m, rnd_bytes)

    def verify_internal(self, public_key: bytes, m_prime: bytes, signature: bytes) -> bool:
        """FIPS 204, Algorithm 8 (ML-DSA.Verify_internal) on M' directly."""
        ops = self._ops()
        pk = self._public_key(public_key)
        m = as_bytes(m_prime, "m_prime")
        as_bytes(signature, "signature")
        return self._verify_m(ops, pk, m, signature)

    def sign_mu(
        self,
        secret_key: bytes,
        mu: bytes,
        *,
        deterministic: bool = False,
        rnd: bytes | None = None,
        rng: RNG | None = None,
    ) -> bytes:
        """Algorithm 7 with an external mu = H(tr || M', 64) (FIPS 204 §6.2 note)."""
        ops = self._ops()
        mu_bytes = as_bytes_len(mu, "mu", 64)
        sk = self._secret_key(ops, secret_key)
        rnd_bytes = self._rnd(deterministic, rnd, rng)
        return self._sign_mu(ops, sk, mu_bytes, rnd_bytes)

    def verify_mu(self, public_key: bytes, mu: bytes, signature: bytes) -> bool:
        """Algorithm 8 with an external mu (64 bytes)."""
        ops = self._ops()
        pk = self._public_key(public_key)
        mu_bytes = as_bytes_len(mu, "mu", 64)
        as_bytes(signature, "signature")
        return self._verify_mu(ops, pk, mu_bytes, signature)

    def mu(
        self, public_key: bytes, message: bytes, ctx: bytes = b"", *, prehash: str | None = None
    ) -> bytes:
        """The message representative mu = H(H(pk, 64) || M', 64) (Algorithm 7 line 6)."""
        ops = self._ops()
        pk = self._public_key(public_key)
        tr = core.h(ops, pk, self.params.tr_bytes)
        return self._mu(ops, tr, m_prime_for(message, ctx, prehash))


SCHEMES: dict[str, MLDSA] = {a.name: MLDSA(a) for a in CATALOG if a.family == "ML-DSA"}
