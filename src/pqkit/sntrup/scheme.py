"""Streamlined NTRU Prime, sntrup761: key generation, encapsulation and
decapsulation as the round-3 submission defines them (§3.3-3.5 of "NTRU Prime:
round 3", the compact reference kem.c; draft-josefsson-ntruprime-streamlined §2-4),
byte for byte as liboqs and OpenSSH's sntrup761.c.

Hashes: Hash_b(x) = SHA-512(b || x)[:32] with the prefixes 1 (session key, valid
ciphertext), 0 (session key, implicit rejection), 2 (confirmation), 3 (the
encoded input r), 4 (the public key's cache).

Randomness (the reference's ``randombytes`` calls, in order; the split matters for
a DRBG such as NIST's): key generation draws 4p bytes for g until g is invertible in
R/3, then 4p bytes for f, then Small_bytes for rho; encapsulation draws 4p bytes
for r.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from pqkit._checks import as_bytes_len
from pqkit.common import CtrDrbg
from pqkit.registry import Algorithm, algorithm
from pqkit.schemes import RNG, Encapsulation, KemBase, KeyPair, draw
from pqkit.sntrup.params import Params

__all__ = ["SCHEMES", "Sntrup"]

I64 = npt.NDArray[np.int64]

MAX_KEYGEN_TRIES = 32
"""Draws of g before key generation gives up (RuntimeError): a g that is not
invertible in R/3 is rare, so only a broken ``rng`` gets near this bound."""


def hash_prefix(b: int, data: bytes) -> bytes:
    """Hash_b(data) = the first 32 bytes of SHA-512(b || data) (submission §3.5)."""
    return hashlib.sha512(bytes((b,)) + data).digest()[:32]


_SMALL_WEIGHTS = np.array([1, 4, 16, 64], dtype=np.int64)


def small_encode(f: I64) -> bytes:
    """Small_encode: coefficients + 1 packed 2 bits each, little end first; the last
    byte holds the last coefficient alone (p = 4 * 190 + 1)."""
    d = np.asarray(f, dtype=np.int64) + 1
    p = d.shape[-1]
    packed = d[: p - p % 4].reshape(-1, 4) @ _SMALL_WEIGHTS  # each < 256
    return packed.astype(np.uint8).tobytes() + d[p - p % 4 :].astype(np.uint8).tobytes()


def small_decode(s: bytes, p: int) -> I64:
    """Small_decode: each 2-bit field minus 1 (a field 3 gives 2, as the reference's)."""
    raw = np.frombuffer(s, dtype=np.uint8).astype(np.int64)
    body = (raw[: p // 4, None] >> np.array([0, 2, 4, 6])) & 3
    tail = raw[p // 4 :] & 3
    return np.concatenate([body.reshape(-1), tail[: p % 4]]) - 1


def _words(data: bytes) -> I64:
    """The little-endian 32-bit words of ``data`` (crypto_decode_pxint32)."""
    return np.frombuffer(data, dtype="<u4").astype(np.int64)


def small_random(data: bytes) -> I64:
    """Small_random on 4p drawn bytes: ((L & (2^30 - 1)) * 3 >> 30) - 1 per word."""
    return (((_words(data) & 0x3FFFFFFF) * 3) >> 30) - 1


class Sntrup(KemBase):
    """sntrup761 on the family's kernels (:mod:`pqkit.sntrup.kernels`)."""

    KERNELS = "sntrup"

    params: Params

    def __init__(self, alg: Algorithm, *, arith: str | None = None) -> None:
        super().__init__(alg, arith=arith)
        self.params = cast(Params, alg.params)
        self.length_randomness = self.params.length_randomness

    # --- the pieces of the submission -------------------------------------------

    def _short_fromlist(self, data: bytes, k: Any) -> I64:
        """Short_fromlist: w words with their low bit cleared (-> -1 or +1 after the
        sort), p - w with bit 1 cleared and bit 0 set (-> 0), sorted by a constant-
        time network, then each low two bits minus 1: a weight-w small polynomial."""
        prm = self.params
        marked = _words(data)  # a fresh array: marked in place
        marked[: prm.w] &= 0xFFFFFFFE
        marked[prm.w :] &= 0xFFFFFFFC
        marked[prm.w :] |= 1
        return cast(I64, (k.sort_uint32(marked) & 3) - 1)

    def _round(self, a: I64) -> I64:
        """Round: each coefficient to the nearest multiple of 3 (a - F3_freeze(a))."""
        return a - (a - 3 * ((10923 * a + 16384) >> 15))

    def _hide(self, k: Any, r: I64, pk: bytes, cache: bytes) -> tuple[bytes, bytes]:
        """Hide (submission §3.5): (ciphertext, r_enc): Rounded_encode(Round(h r)) and
        the confirmation Hash_2(Hash_3(r_enc) || cache)."""
        r_enc = small_encode(r)
        h = k.decode_rq(np.frombuffer(pk, dtype=np.uint8))
        c = k.encode_rounded(self._round(k.rq_mult_small(h, r))).tobytes()
        return c + hash_prefix(2, hash_prefix(3, r_enc) + cache), r_enc

    # --- the public API ---------------------------------------------------------

    def keygen(self, *, rng: RNG | None = None) -> KeyPair:
        """A fresh key pair: the randomness of the submission's KeyGen (module
        docstring) from ``rng`` (``os.urandom`` if None)."""
        prm = self.params
        k = self._kernels()
        for _ in range(MAX_KEYGEN_TRIES):
            g = small_random(draw(rng, 4 * prm.p))
            ginv, bad = k.r3_recip(g)
            if int(bad) == 0:  # public: whether this draw is kept (crypto_declassify)
                break
        else:
            raise RuntimeError(
                f"sntrup761 keygen: no invertible g in {MAX_KEYGEN_TRIES} draws; is the rng broken?"
            )
        f = self._short_fromlist(draw(rng, 4 * prm.p), k)
        h = k.rq_mult_small(k.rq_recip3(f), g)
        pk = k.encode_rq(h).tobytes()
        rho = draw(rng, prm.length_small)
        sk = small_encode(f) + small_encode(ginv) + pk + rho + hash_prefix(4, pk)
        return KeyPair(pk, sk)

    def keygen_derand(self, seed: bytes) -> KeyPair:
        """The key pair of ``keygen`` when its randomness comes from NIST's
        CTR_DRBG seeded with ``seed`` (48 bytes): the procedure of the NIST and
        liboqs KAT generators, so the seed of a KAT entry gives that entry's keys.
        NOTE: the submission defines no seed form (its key generation draws until
        g is invertible); this is pqkit's, chosen to match the KATs."""
        return self.keygen(rng=CtrDrbg(as_bytes_len(seed, "seed", self.length_seed)))

    def encaps(self, public_key: bytes, *, rng: RNG | None = None) -> Encapsulation:
        as_bytes_len(public_key, "public key", self.length_public_key)
        return self.encaps_derand(public_key, draw(rng, self.length_randomness))

    def encaps_derand(self, public_key: bytes, m: bytes) -> Encapsulation:
        """Encapsulation with ``m`` = the 4p bytes Short_random draws for r."""
        pk = as_bytes_len(public_key, "public key", self.length_public_key)
        data = as_bytes_len(m, "m", self.length_randomness)
        k = self._kernels()
        r = self._short_fromlist(data, k)
        ct, r_enc = self._hide(k, r, pk, hash_prefix(4, pk))
        return Encapsulation(hash_prefix(1, hash_prefix(3, r_enc) + ct), ct)

    def decaps(self, secret_key: bytes, ciphertext: bytes) -> bytes:
        """Decapsulation with implicit rejection (submission §3.5): a ciphertext that
        does not re-encrypt to itself gives Hash_0(Hash_3(rho) || ct), selected by a
        mask rather than a branch."""
        prm = self.params
        sk = as_bytes_len(secret_key, "secret key", self.length_secret_key)
        ct = as_bytes_len(ciphertext, "ciphertext", self.length_ciphertext)
        n = prm.length_small
        pk = sk[2 * n : 2 * n + prm.length_public_key]
        rho = sk[2 * n + prm.length_public_key : 3 * n + prm.length_public_key]
        cache = sk[3 * n + prm.length_public_key :]
        k = self._kernels()
        f = small_decode(sk[:n], prm.p)
        v = small_decode(sk[n : 2 * n], prm.p)
        c = k.decode_rounded(np.frombuffer(ct[: prm.length_rounded], dtype=np.uint8))
        cf3 = k.rq_mult3(k.rq_mult_small(c, f))  # then R3_fromRq (F3_freeze):
        e = cf3 - 3 * ((10923 * cf3 + 16384) >> 15)
        ev = k.r3_mult(e, v)
        # Decrypt: r = ev if its weight is w, else the fixed weight-w vector
        # (1, ..., 1, 0, ..., 0), through the mask of Weightw_mask.
        weight = int(np.sum(ev & 1))
        bad = -((((weight - prm.w) | (prm.w - weight)) >> 63) & 1)
        r = np.empty(prm.p, dtype=np.int64)
        r[: prm.w] = ((ev[: prm.w] ^ 1) & ~bad) ^ 1
        r[prm.w :] = ev[prm.w :] & ~bad
        cnew, r_enc = self._hide(k, r, pk, cache)
        equal = hmac.compare_digest(cnew, ct)
        keep = np.uint8(-int(equal) & 0xFF)  # 0xFF: keep r_enc; 0x00: take rho
        a = np.frombuffer(r_enc, dtype=np.uint8)
        b = np.frombuffer(rho, dtype=np.uint8)
        chosen = (b ^ ((a ^ b) & keep)).tobytes()
        return hash_prefix(int(equal), hash_prefix(3, chosen) + ct)


SCHEMES = {"sntrup761": Sntrup(algorithm("sntrup761"))}
