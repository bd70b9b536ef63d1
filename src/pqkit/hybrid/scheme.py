"""The hybrid KEM scheme objects (draft-connolly-cfrg-xwing-kem,
draft-irtf-cfrg-concrete-hybrid-kems).

Every member is the same construction: ML-KEM (pqkit's own, :mod:`pqkit.mlkem`)
next to a Diffie-Hellman group (:mod:`pqkit.hybrid.groups`), keys from one 32-byte
seed expanded with SHAKE256, and the combiner

    ss = SHA3-256(ss_PQ || ss_T || ct_T || ek_T || label)

(X-Wing's "XWingCombiner" and the concrete draft's QSF-SHA3-256 "C2PRI" combiner
are this same function; only the label differs).
"""

from __future__ import annotations

from typing import cast

from pqkit import common
from pqkit._checks import as_bytes, as_bytes_len
from pqkit.hybrid.groups import GROUPS, Group
from pqkit.hybrid.params import CATALOG, HybridParams
from pqkit.registry import Algorithm
from pqkit.schemes import RNG, Encapsulation, Kem, KemBase, KeyPair, draw

__all__ = ["SCHEMES", "HybridKem"]


class HybridKem(KemBase):
    """A PQ/T hybrid KEM with the ML-KEM API (see :class:`pqkit.schemes.Kem`).

    ``using(arith=...)`` binds the arithmetic backend of the ML-KEM half.
    """

    params: HybridParams
    group: Group

    def __init__(self, algorithm: Algorithm, *, arith: str | None = None) -> None:
        super().__init__(algorithm, arith=arith)
        self.params = cast(HybridParams, algorithm.params)
        self.group = GROUPS[self.params.group]
        self.length_randomness = self.params.length_randomness
        from pqkit.registry import kem

        self.pq: Kem = kem(self.params.mlkem)
        if arith is not None:
            self.pq = self.pq.using(arith=arith)

    def using(self, *, arith: str | None = None) -> HybridKem:
        """A copy whose ML-KEM half runs on the arithmetic backend ``arith``."""
        twin = super().using(arith=arith)
        twin.pq = self.pq.using(arith=arith)
        return twin

    # --- the construction ------------------------------------------------------------

    def _expand(self, seed: bytes) -> tuple[bytes, bytes, bytes, bytes]:
        """DeriveKeyPair / expandDecapsulationKey: SHAKE256(seed, 64 + Nseed) gives
        the ML-KEM seed d || z and the traditional seed. Returns
        (ek_PQ, dk_PQ, sk_T scalar, ek_T)."""
        p = self.params
        expanded = common.shake256_digest(seed, 64 + p.length_group_seed)
        ek_pq, dk_pq = self.pq.keygen_derand(expanded[:64])
        sk_t = self.group.scalar(expanded[64:])
        return ek_pq, dk_pq, sk_t, self.group.public(sk_t)

    def _combine(self, ss_pq: bytes, ss_t: bytes, ct_t: bytes, ek_t: bytes) -> bytes:
        return common.sha3_256(ss_pq + ss_t + ct_t + ek_t + self.params.label)

    def _split_public_key(self, public_key: bytes) -> tuple[bytes, bytes]:
        ek = as_bytes_len(public_key, "public key", self.length_public_key)
        n = self.params.length_mlkem_public_key
        return ek[:n], ek[n:]

    def _randomness_length_ok(self, randomness: bytes) -> bytes:
        r = as_bytes(randomness, "randomness")
        if len(r) < 32:
            raise ValueError(
                f"randomness must be ML-KEM m (32 bytes) followed by the {self.group.name} "
                f"seed ({self.length_randomness} bytes in all), got {len(r)}"
            )
        self.group.check_seed(r[32:], "randomness")
        return r

    def _encaps(self, ek_pq: bytes, ek_t: bytes, randomness: bytes) -> Encapsulation:
        point = self.group.check_element(ek_t, "public key")
        ss_pq, ct_pq = self.pq.encaps_derand(ek_pq, randomness[:32])
        sk_e = self.group.scalar(randomness[32:])
        ct_t = self.group.public(sk_e)
        ss_t = self.group.dh(sk_e, point, "public key")
        return Encapsulation(self._combine(ss_pq, ss_t, ct_t, ek_t), ct_pq + ct_t)

    # --- public API --------------------------------------------------------------------

    def keygen(self, *, rng: RNG | None = None) -> KeyPair:
        """A new key pair; asks ``rng`` for the 32-byte seed, which is the secret key."""
        return self.keygen_derand(draw(rng, 32))

    def keygen_derand(self, seed: bytes) -> KeyPair:
        """(public key, secret key) of the 32-byte ``seed``; the secret key is the seed."""
        seed = as_bytes_len(seed, "seed", 32)
        ek_pq, _dk, _sk_t, ek_t = self._expand(seed)
        return KeyPair(ek_pq + ek_t, seed)

    def public_key(self, secret_key: bytes) -> bytes:
        """The public key of a (seed) secret key."""
        return self.keygen_derand(as_bytes_len(secret_key, "secret key", 32)).public_key

    def encaps(self, public_key: bytes, *, rng: RNG | None = None) -> Encapsulation:
        """(shared_secret, ciphertext) for ``public_key``; asks ``rng`` for the ML-KEM m
        and the traditional seed in one call (``length_randomness`` bytes)."""
        ek_pq, ek_t = self._split_public_key(public_key)
        self.group.check_element(ek_t, "public key")
        return self._encaps(ek_pq, ek_t, draw(rng, self.length_randomness))

    def encaps_derand(self, public_key: bytes, randomness: bytes) -> Encapsulation:
        """Encapsulation with the given randomness: ML-KEM m (32 bytes) followed by the
        traditional seed. X25519 takes exactly 32 bytes; P-256 / P-384 take any
        positive multiple of Nscalar (32 / 48) bytes, each block one RandomScalar
        candidate: the canonical lengths are 160 (MLKEM768-P256) and 80
        (MLKEM1024-P384) in all, and draft-ietf-hpke-pq's 128-byte MLKEM768-P256
        ``ikmE`` is the same with three candidates instead of four."""
        ek_pq, ek_t = self._split_public_key(public_key)
        randomness = self._randomness_length_ok(randomness)
        return self._encaps(ek_pq, ek_t, randomness)

    def decaps(self, secret_key: bytes, ciphertext: bytes) -> bytes:
        """The shared secret of ``ciphertext``. A modified ML-KEM part gives ML-KEM's
        implicit-rejection key and so a wrong shared secret, not an error; a
        traditional part that is not a valid point raises ``ValueError``."""
        ct = as_bytes_len(ciphertext, "ciphertext", self.length_ciphertext)
        seed = as_bytes_len(secret_key, "secret key", self.length_secret_key)
        n = self.params.length_mlkem_ciphertext
        ct_pq, ct_t = ct[:n], ct[n:]
        point = self.group.check_element(ct_t, "ciphertext")
        _ek_pq, dk_pq, sk_t, ek_t = self._expand(seed)
        ss_pq = self.pq.decaps(dk_pq, ct_pq)
        ss_t = self.group.dh(sk_t, point, "ciphertext")
        return self._combine(ss_pq, ss_t, ct_t, ek_t)


SCHEMES: dict[str, HybridKem] = {a.name: HybridKem(a) for a in CATALOG}
"""Each hybrid KEM by canonical name."""
