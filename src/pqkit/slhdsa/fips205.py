"""SLH-DSA and HashSLH-DSA (FIPS 205, Algorithms 18-25): the scheme objects.

Keys are plain bytes: pk = PK.seed || PK.root (2n bytes), sk = SK.seed || SK.prf ||
PK.seed || PK.root (4n bytes). ``keygen_derand`` takes the 3n-byte seed
SK.seed || SK.prf || PK.seed. Signing is hedged by default (n fresh bytes of
addrnd, Algorithm 22 line 5); ``deterministic=True`` uses opt_rand = PK.seed
(Algorithm 19 line 2).
"""

from __future__ import annotations

import hmac
from typing import Any, cast

from pqkit import messages
from pqkit._checks import as_bytes, as_bytes_len
from pqkit.arith.ops import operations
from pqkit.registry import Algorithm
from pqkit.schemes import RNG, KeyPair, SignatureBase, draw
from pqkit.slhdsa import hashes
from pqkit.slhdsa.adrs import to_int
from pqkit.slhdsa.fors import fors_pk_from_sig, fors_sign
from pqkit.slhdsa.hashes import Hashes
from pqkit.slhdsa.hypertree import ht_root, ht_sign, ht_verify
from pqkit.slhdsa.params import CATALOG, Params

__all__ = ["SCHEMES", "SLHDSA"]


class SLHDSA(SignatureBase):
    """One SLH-DSA parameter set (FIPS 205): pure and HashSLH-DSA signing with
    contexts, hedged or deterministic. See :class:`pqkit.schemes.Signature`.

    SLH-DSA runs on hash functions alone. Its kernel family is ``"hash"``. Where the
    selected backend has a compiled SLH-DSA engine (``jit``:
    :mod:`pqkit.slhdsa.kernels.jit_ops`, found by :func:`pqkit.arith.ops.operations`),
    key generation's tree, signing's FORS and hypertree trees and verification's
    walk are one compiled call each, for every parameter set; H_msg and PRF_msg
    stay on the :mod:`pqkit.common` providers. Elsewhere the batched Python path of
    :mod:`.wots`, :mod:`.xmss`, :mod:`.fors` and :mod:`.hypertree` runs (the
    engine's reference twin): every batch of F, H, T_l or PRF goes through the
    providers one input at a time, or, given compiled hash kernels,
    :class:`~pqkit.slhdsa.hashes.KernelPrefixed`.
    """

    KERNELS = "hash"
    COMPILED_HASH_BACKENDS = frozenset({"jit"})
    """Backends whose hash kernels run the batches (the others loop per input)."""

    params: Params

    def __init__(self, algorithm: Algorithm, *, arith: str | None = None) -> None:
        super().__init__(algorithm, arith=arith)
        self.params = cast(Params, algorithm.params)

    def _hashes(self, pk_seed: bytes) -> Hashes:
        """The hash functions of this parameter set bound to PK.seed, on the compiled
        hash kernels where the selected backend has them."""
        kernels = self._kernels()
        compiled = getattr(kernels, "backend", None) in self.COMPILED_HASH_BACKENDS
        use = compiled and not self.params.is_sha2
        return Hashes(self.params, pk_seed, kernels=kernels if use else None)

    def _engine(self) -> Any | None:
        """The backend's compiled SLH-DSA engine, or None (then the batched Python
        path runs)."""
        return operations("slhdsa", getattr(self._kernels(), "backend", ""))

    # --- argument checks --------------------------------------------------------------

    def _public_key(self, public_key: Any) -> bytes:
        return as_bytes_len(public_key, f"{self.name} public key", self.length_public_key)

    def _secret_key(self, secret_key: Any) -> bytes:
        return as_bytes_len(secret_key, f"{self.name} secret key", self.length_secret_key)

    def _opt_rand(self, sk: bytes, deterministic: bool, rnd: Any, rng: RNG | None) -> bytes:
        n = self.params.n
        if rnd is not None:
            if deterministic:
                raise ValueError("give rnd or deterministic=True, not both")
            return as_bytes_len(rnd, "rnd", n)
        if deterministic:
            return sk[2 * n : 3 * n]  # Algorithm 19 line 2: opt_rand <- PK.seed
        return draw(rng, n)  # Algorithm 22 line 5: addrnd <-$ B^n

    # --- key generation ---------------------------------------------------------------

    def keygen(self, *, rng: RNG | None = None) -> KeyPair:
        """FIPS 205, Algorithm 21 (slh_keygen): draws SK.seed, SK.prf and PK.seed
        (3n bytes, one call of ``rng``; default os.urandom)."""
        return self.keygen_derand(draw(rng, self.length_seed))

    def keygen_derand(self, seed: bytes) -> KeyPair:
        """FIPS 205, Algorithm 18 (slh_keygen_internal) on the 3n-byte
        ``seed`` = SK.seed || SK.prf || PK.seed."""
        data = as_bytes_len(seed, f"{self.name} seed", self.length_seed)
        n = self.params.n
        sk_seed, pk_seed = data[:n], data[2 * n :]
        engine = self._engine()
        if engine is not None:
            pk_root = engine.slhdsa_keygen_root(self.params, sk_seed, pk_seed)  # lines 1-3
        else:
            pk_root = ht_root(self._hashes(pk_seed), sk_seed)  # lines 1-3
        return KeyPair(pk_seed + pk_root, data + pk_root)

    def public_key_from_secret(self, secret_key: bytes) -> bytes:
        """Check a secret key (its PK.root must be the root its SK.seed and PK.seed
        give, Algorithm 18) and return its public key; ValueError if it fails."""
        sk = self._secret_key(secret_key)
        n = self.params.n
        pk = self.keygen_derand(sk[: 3 * n]).public_key
        if pk != sk[2 * n :]:
            raise ValueError(
                f"{self.name} secret key: PK.root is not the hypertree root of its "
                "SK.seed and PK.seed (FIPS 205, Algorithm 18)"
            )
        return pk

    # --- internal functions -----------------------------------------------------------

    def _digest_indices(self, digest: bytes) -> tuple[bytes, int, int]:
        """Algorithm 19 lines 7-12 / Algorithm 20 lines 8-13: md, idx_tree, idx_leaf."""
        p = self.params
        md = digest[: p.md_bytes]
        tree_part = digest[p.md_bytes : p.md_bytes + p.tree_bytes]
        leaf_part = digest[p.md_bytes + p.tree_bytes : p.md_bytes + p.tree_bytes + p.leaf_bytes]
        idx_tree = to_int(tree_part) & ((1 << (p.h - p.hp)) - 1)
        idx_leaf = to_int(leaf_part) & ((1 << p.hp) - 1)
        return md, idx_tree, idx_leaf

    def _sign(self, sk: bytes, m: bytes, opt_rand: bytes) -> bytes:
        """FIPS 205, Algorithm 19 (slh_sign_internal), then the secret key's check.

        The signature is verified under the public key inside sk (Algorithm 20)
        before it is returned: its hypertree walk ends at the root that SK.seed and
        PK.seed give, so it verifies exactly when sk's PK.root is that root (and no
        fault corrupted the signing). A key whose PK.root is wrong is refused with a
        ValueError instead of giving a signature that never verifies. The check costs
        one verification: about 9 % of a signature for the ``f`` sets and 0.2 % for
        the ``s`` sets (Python path); recomputing PK.root (one XMSS tree of 2^h'
        leaves) would cost about as much for the ``f`` sets and 100 times more for
        the ``s`` sets (docs/decisions.md, "Issue 28: Hardening II")."""
        sig = self._sign_unchecked(sk, m, opt_rand)
        n = self.params.n
        if not self._verify(sk[2 * n :], m, sig):
            raise ValueError(
                f"{self.name} secret key: PK.root is not the hypertree root of its "
                "SK.seed and PK.seed (FIPS 205, Algorithm 18): its signature does not "
                "verify under its own public key"
            )
        return sig

    def _sign_unchecked(self, sk: bytes, m: bytes, opt_rand: bytes) -> bytes:
        """FIPS 205, Algorithm 19 (slh_sign_internal)."""
        n = self.params.n
        sk_seed, sk_prf, pk_seed, pk_root = (sk[i * n : (i + 1) * n] for i in range(4))
        p = self.params
        engine = self._engine()
        if engine is not None:  # the message hashes on the providers, lines 7-17 compiled
            sha = hashes.message_provider(p)
            r = hashes.prf_msg(p, sha, sk_prf, opt_rand, m)  # line 3
            digest = hashes.h_msg(p, sha, pk_seed, r, pk_root, m)  # line 5
            trees: bytes = engine.slhdsa_sign_digest(p, sk_seed, pk_seed, digest)
            return r + trees
        hs = self._hashes(pk_seed)
        r = hs.prf_msg(sk_prf, opt_rand, m)  # line 3
        digest = hs.h_msg(r, pk_root, m)  # line 5
        md, idx_tree, idx_leaf = self._digest_indices(digest)
        sig_fors, pk_fors = fors_sign(hs, md, sk_seed, idx_tree, idx_leaf)  # lines 13-15
        sig_ht = ht_sign(hs, pk_fors, sk_seed, idx_tree, idx_leaf)  # line 17
        return r + sig_fors + sig_ht

    def _verify(self, pk: bytes, m: bytes, signature: Any) -> bool:
        """FIPS 205, Algorithm 20 (slh_verify_internal); False for a wrong length."""
        sig = as_bytes(signature, "signature")
        p = self.params
        if len(sig) != p.length_signature:  # line 1
            return False
        n = p.n
        pk_seed, pk_root = pk[:n], pk[n:]
        r = sig[:n]
        engine = self._engine()
        if engine is not None:  # line 8 on the provider; lines 9-18 in one compiled call
            digest = hashes.h_msg(p, hashes.message_provider(p), pk_seed, r, pk_root, m)
            root = engine.slhdsa_verify_digest(p, pk_seed, sig[n:], digest)
            return hmac.compare_digest(root, pk_root)
        hs = self._hashes(pk_seed)
        sig_fors = sig[n : n + p.length_fors_signature]
        sig_ht = sig[n + p.length_fors_signature :]
        digest = hs.h_msg(r, pk_root, m)  # line 8
        md, idx_tree, idx_leaf = self._digest_indices(digest)
        pk_fors = fors_pk_from_sig(hs, sig_fors, md, idx_tree, idx_leaf)  # line 17
        return ht_verify(hs, pk_fors, sig_ht, idx_tree, idx_leaf, pk_root)  # line 18

    def sign_internal(
        self, secret_key: bytes, m_prime: bytes, addrnd: bytes | None = None
    ) -> bytes:
        """FIPS 205, Algorithm 19 (slh_sign_internal) on M' directly; ``addrnd``
        (n bytes) is opt_rand, None for the deterministic variant (PK.seed)."""
        sk = self._secret_key(secret_key)
        m = as_bytes(m_prime, "m_prime")
        n = self.params.n
        opt_rand = sk[2 * n : 3 * n] if addrnd is None else as_bytes_len(addrnd, "addrnd", n)
        return self._sign(sk, m, opt_rand)

    def verify_internal(self, public_key: bytes, m_prime: bytes, signature: bytes) -> bool:
        """FIPS 205, Algorithm 20 (slh_verify_internal) on M' directly."""
        pk = self._public_key(public_key)
        m = as_bytes(m_prime, "m_prime")
        return self._verify(pk, m, signature)

    # --- public API -------------------------------------------------------------------

    def _m_prime(self, message: Any, ctx: Any, prehash: str | None) -> bytes:
        return messages.m_prime_for(message, ctx, prehash)  # Algorithms 22-25, M'

    def _sign_m_prime(
        self, secret_key: Any, m_prime: bytes, deterministic: bool, rnd: Any, rng: RNG | None
    ) -> bytes:
        """FIPS 205, Algorithm 22 (slh_sign), or Algorithm 23 (hash_slh_sign) with
        ``prehash``. ``rnd`` gives addrnd (n bytes)."""
        sk = self._secret_key(secret_key)
        return self._sign(sk, m_prime, self._opt_rand(sk, deterministic, rnd, rng))

    def _verify_m_prime(
        self, public_key: Any, m_prime: bytes, message: Any, signature: Any
    ) -> bool:
        """FIPS 205, Algorithm 24 (slh_verify) or 25 (hash_slh_verify)."""
        return self._verify(self._public_key(public_key), m_prime, signature)


SCHEMES: dict[str, SLHDSA] = {a.name: SLHDSA(a) for a in CATALOG}
