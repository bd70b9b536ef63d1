"""Composite ML-DSA (draft-ietf-lamps-pq-composite-sigs-19).

Keys and signatures are the draft's serializations (§4): public key = ML-DSA pk ||
traditional public key, secret key = 32-byte ML-DSA seed xi || traditional private
key, signature = ML-DSA signature || traditional signature. Signing (§3.2):

    M' = "CompositeAlgorithmSignatures2025" || Label || len(ctx) || ctx || PH(M)
    mldsaSig = ML-DSA.Sign(mldsaSK, M', ctx=Label)      (FIPS 204, Algorithm 2)
    tradSig  = Trad.Sign(tradSK, M')

Verification (§3.3) is valid only if both halves are: a malformed key or signature
half, or either half failing, gives False (no exception).

``sign`` / ``verify`` are :class:`pqkit.schemes.SignatureBase`'s, on this module's hooks
(``_m_prime``, ``_sign_m_prime``, ``_verify_m_prime``).
"""

from __future__ import annotations

from typing import Any, cast

from pqkit._checks import as_bytes
from pqkit.composite.halves import Halves
from pqkit.composite.params import CATALOG, CompositeSigParams, KeyParts
from pqkit.composite.traditional import KEYS, SIGNERS, TradKey, TradSigner
from pqkit.registry import Algorithm
from pqkit.schemes import RNG, Signature, SignatureBase

__all__ = ["PREFIX", "SCHEMES", "CompositeSignature"]

PREFIX = b"CompositeAlgorithmSignatures2025"
"""draft-ietf-lamps-pq-composite-sigs-19 §2.2: the prefix of every M'."""


class CompositeSignature(Halves, SignatureBase):
    """A composite ML-DSA algorithm with the ML-DSA API where it applies
    (:class:`pqkit.schemes.Signature`); ``using(arith=...)`` binds the ML-DSA half."""

    params: CompositeSigParams
    key: TradKey
    signer: TradSigner

    def __init__(self, algorithm: Algorithm, *, arith: str | None = None) -> None:
        super().__init__(algorithm, arith=arith)
        self.params = cast(CompositeSigParams, algorithm.params)
        self.key = KEYS[self.params.key]
        self.signer = SIGNERS[self.params.trad]
        self.label = self.params.label
        from pqkit.registry import sig

        self.mldsa: Signature = sig(self.params.mldsa)
        if arith is not None:
            self.mldsa = self.mldsa.using(arith=arith)

    @property
    def mlx(self) -> Signature:
        """The ML-DSA half (:class:`pqkit.composite.halves.Halves`)."""
        return self.mldsa

    def using(self, *, arith: str | None = None) -> CompositeSignature:
        """A copy whose ML-DSA half runs on the arithmetic backend ``arith``."""
        twin = super().using(arith=arith)
        twin.mldsa = self.mldsa.using(arith=arith)
        return twin

    # --- the draft's pieces -------------------------------------------------------------

    def prehash(self, message: bytes) -> bytes:
        """PH(M) with the algorithm's pre-hash (§6; SHAKE256 gives 64 bytes)."""
        from pqkit.prehash import lookup

        return lookup(self.params.prehash).function(as_bytes(message, "message"))

    def message_representative(self, digest: bytes, ctx: bytes = b"") -> bytes:
        """M' = Prefix || Label || len(ctx) || ctx || PH(M) (§2.2) from ``digest`` = PH(M)."""
        from pqkit.messages import context

        c = context(ctx, "ctx")
        return PREFIX + self.label + bytes([len(c)]) + c + as_bytes(digest, "digest")

    def expand(self, seed: bytes, trad: Any) -> KeyParts:
        """The ML-DSA key pair of ``seed`` (FIPS 204, Algorithm 6) next to the parsed
        traditional key ``trad``: what signing uses (a key object keeps it)."""
        pk_mldsa, sk_mldsa = self.mldsa.keygen_derand(seed)
        return KeyParts(pk_mldsa + self.key.public_bytes(trad), sk_mldsa, trad)

    def public_key_from_secret(self, secret_key: bytes) -> bytes:
        """The public key of a composite secret key (checked)."""
        sk = as_bytes(secret_key, "secret key")
        return self.keygen_derand(sk[:32], sk[32:]).public_key

    # --- signing ---------------------------------------------------------------------------

    def sign_internal(
        self,
        secret_key: bytes,
        m_prime: bytes,
        *,
        deterministic: bool = False,
        rnd: bytes | None = None,
        rng: RNG | None = None,
    ) -> bytes:
        """§3.2 steps 3-6 on M' (:meth:`message_representative`): ML-DSA with context
        Label, the traditional algorithm, concatenated."""
        m = as_bytes(m_prime, "m_prime")
        parts = self.expand(*self.split_secret_key(secret_key))
        return self.sign_parts(parts, m, deterministic=deterministic, rnd=rnd, rng=rng)

    def sign_parts(
        self,
        parts: KeyParts,
        m_prime: bytes,
        *,
        deterministic: bool = False,
        rnd: bytes | None = None,
        rng: RNG | None = None,
    ) -> bytes:
        """:meth:`sign_internal` with the key already expanded (:meth:`expand`)."""
        first = self.mldsa.sign(
            parts.mlx_secret, m_prime, self.label, deterministic=deterministic, rnd=rnd, rng=rng
        )
        return first + self.signer.sign(parts.trad, m_prime)

    def _m_prime(self, message: Any, ctx: Any, prehash: str | None) -> bytes:
        """M' of :meth:`sign` / :meth:`verify` (§3.2 steps 1-2, §3.3 step 1): PH(M) with
        the algorithm's pre-hash; ``prehash`` may only name that PH."""
        self._own_prehash(prehash)
        return self.message_representative(self.prehash(message), ctx)

    def _sign_m_prime(
        self, secret_key: Any, m_prime: bytes, deterministic: bool, rnd: Any, rng: RNG | None
    ) -> bytes:
        """Composite-ML-DSA.Sign (§3.2) through ``SignatureBase.sign``: ``deterministic`` /
        ``rnd`` / ``rng`` are the ML-DSA half's (the traditional half draws from OpenSSL)."""
        return self.sign_internal(
            secret_key, m_prime, deterministic=deterministic, rnd=rnd, rng=rng
        )

    def _own_prehash(self, prehash: str | None) -> None:
        from pqkit.prehash import lookup

        if prehash is not None and lookup(prehash).name != self.params.prehash:
            raise ValueError(
                f"{self.name} pre-hashes with {self.params.prehash} (draft §6), not {prehash}"
            )

    # --- verification ----------------------------------------------------------------------

    def verify_internal(self, public_key: bytes, m_prime: bytes, signature: bytes) -> bool:
        """§3.3 steps 2 and 4 on M': False if a key or signature half is malformed or
        either half fails."""
        m = as_bytes(m_prime, "m_prime")
        s = as_bytes(signature, "signature")
        try:
            mldsa_pk, _, trad = self.split_public_key(public_key)
        except ValueError:
            return False
        n = self.params.length_mldsa_signature
        if len(s) <= n:
            return False
        if not self.mldsa.verify(mldsa_pk, m, s[:n], self.label):
            return False
        return self.signer.verify(trad, m, s[n:])

    def _verify_m_prime(
        self, public_key: Any, m_prime: bytes, message: Any, signature: Any
    ) -> bool:
        """Composite-ML-DSA.Verify (§3.3) through ``SignatureBase.verify``: True only if
        both halves verify; raises only for wrong types and a context over 255 bytes."""
        return self.verify_internal(public_key, m_prime, signature)


SCHEMES: dict[str, CompositeSignature] = {
    a.name: CompositeSignature(a) for a in CATALOG if a.kind == "sig"
}
"""Each composite ML-DSA algorithm by canonical name."""
