"""Classic McEliece (NIST round 4 specification, 2022): the KEM on top of the
family's kernels (:mod:`pqkit.mceliece.kernels.contract`).

Byte layouts are the reference implementation's (and so liboqs's): the public key
T row by row, ceil(k / 8) bytes each; the secret key delta || c (8 bytes, little
endian) || g_0 .. g_{t-1} (2 bytes each, little endian) || the control bits of
the Benes network for pi || s; the ciphertext C = H e, ceil(m t / 8) bytes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pqkit import common
from pqkit._checks import as_bytes_len
from pqkit.mceliece.params import PARAMS, Params
from pqkit.registry import Algorithm, algorithm
from pqkit.schemes import RNG, Encapsulation, KemBase, KeyPair, draw

__all__ = ["SCHEMES", "ClassicMcEliece"]

_MAX_ATTEMPTS = 1 << 16
"""Bound on key-generation and FixedWeight retries; each succeeds with probability
above 0.29 (key generation) and 0.3 (FixedWeight), so reaching it means a broken rng."""


def _le16(data: bytes, count: int, m: int) -> np.ndarray:
    """``count`` little-endian 16-bit words of ``data``, each mod 2^m."""
    return (np.frombuffer(data, dtype="<u2", count=count) & ((1 << m) - 1)).astype(np.uint16)


class ClassicMcEliece(KemBase):
    """One Classic McEliece parameter set."""

    KERNELS = "mceliece"

    def __init__(self, alg: Algorithm, *, arith: str | None = None) -> None:
        super().__init__(alg, arith=arith)
        params = alg.params
        assert isinstance(params, Params)
        self.p = params

    # -- key generation ----------------------------------------------------------

    def keygen_derand(self, seed: bytes, /) -> KeyPair:
        """Spec §2.4.3 (SeededKeyGen) from the 32-byte seed delta: expand
        64 || delta with SHAKE256, try Irreducible, FieldOrdering and MatGen, and on
        failure start again from the last 32 bytes of the expansion."""
        delta = as_bytes_len(seed, "seed", 32)
        p, k = self.p, self._kernels()
        n8 = p.n // 8
        rlen = n8 + 4 * p.q + 2 * p.t + 32
        for _ in range(_MAX_ATTEMPTS):
            r = common.shake256_digest(b"\x40" + delta, rlen)
            used, delta = delta, r[rlen - 32 :]
            g = k.irreducible(p, _le16(r[rlen - 32 - 2 * p.t :], p.t, p.m))
            if g is None:
                continue
            pi = k.field_ordering(p, np.frombuffer(r, dtype="<u4", count=p.q, offset=n8))
            if pi is None:
                continue
            reduced = k.systematic(p, k.parity_check(p, g, pi), pi)
            if reduced is None:
                continue
            pk, pi, c = reduced
            cb = k.controlbits(p, pi)
            sk = (
                used
                + int(c).to_bytes(8, "little")
                + np.asarray(g, dtype="<u2").tobytes()
                + np.asarray(cb, dtype=np.uint8).tobytes()
                + r[:n8]
            )
            return KeyPair(np.asarray(pk, dtype=np.uint8).tobytes(), sk)
        raise RuntimeError(f"{self.name}: key generation failed {_MAX_ATTEMPTS} times")

    def keygen(self, *, rng: RNG | None = None) -> KeyPair:
        """A key pair from a 32-byte seed drawn from ``rng`` (one request)."""
        return self.keygen_derand(draw(rng, 32))

    # -- encapsulation -----------------------------------------------------------

    def _public_key(self, public_key: Any) -> bytes:
        pk = as_bytes_len(public_key, "public key", self.length_public_key)
        p = self.p
        if p.k % 8:  # 6960119: the padding bits of each row must be zero
            last = np.frombuffer(pk, dtype=np.uint8)[p.row_bytes - 1 :: p.row_bytes]
            if int(np.bitwise_or.reduce(last)) >> (p.k % 8):
                raise ValueError(f"{self.name} public key: nonzero padding bits in a row")
        return pk

    def _encap(self, pk: bytes, e: np.ndarray) -> Encapsulation:
        """Spec §2.5.2 (Encap) steps 2-3: C = Encode(e, T), K = H(1, e, C)."""
        pkv = np.frombuffer(pk, dtype=np.uint8)
        c = np.asarray(self._kernels().encode(self.p, pkv, e), dtype=np.uint8).tobytes()
        key = common.shake256_digest(b"\x01" + e.tobytes() + c, 32)
        return Encapsulation(key, c)

    def encaps(self, public_key: bytes, *, rng: RNG | None = None) -> Encapsulation:
        """Spec §2.5.2 (Encap): e from FixedWeight, one ``rng`` request of
        ``weight_bytes`` per attempt (the reference's order)."""
        pk = self._public_key(public_key)
        p, k = self.p, self._kernels()
        for _ in range(_MAX_ATTEMPTS):
            e = k.fixed_weight(p, np.frombuffer(draw(rng, p.weight_bytes), dtype=np.uint8))
            if e is not None:
                return self._encap(pk, np.asarray(e, dtype=np.uint8))
        raise RuntimeError(f"{self.name}: FixedWeight failed {_MAX_ATTEMPTS} times")

    def encaps_derand(self, public_key: bytes, m: bytes, /) -> Encapsulation:
        """Encap with a given error vector ``m`` = e: n / 8 bytes of weight t."""
        pk = self._public_key(public_key)
        e = np.frombuffer(as_bytes_len(m, "e", self.p.n // 8), dtype=np.uint8)
        if int(np.unpackbits(e).sum()) != self.p.t:
            raise ValueError(f"e must have weight {self.p.t}")
        return self._encap(pk, e)

    # -- decapsulation -----------------------------------------------------------

    def decaps(self, secret_key: bytes, ciphertext: bytes) -> bytes:
        """Spec §2.5.3 (Decap): decode C with (g, alpha); K = H(1, e, C) on success,
        H(0, s, C) otherwise, chosen by a byte mask (implicit rejection)."""
        p, k = self.p, self._kernels()
        sk = as_bytes_len(secret_key, "secret key", self.length_secret_key)
        c = as_bytes_len(ciphertext, "ciphertext", self.length_ciphertext)
        if p.mt % 8 and c[-1] >> (p.mt % 8):  # 6960119: public padding bits
            raise ValueError(f"{self.name} ciphertext: nonzero padding bits")
        g = _le16(sk[40:], p.t, p.m)
        cb = np.frombuffer(sk, dtype=np.uint8, count=p.cond_bytes, offset=40 + 2 * p.t)
        s = np.frombuffer(sk, dtype=np.uint8, offset=p.length_secret_key - p.n // 8)
        e, ok = k.decode(p, g, k.support(p, cb), np.frombuffer(c, dtype=np.uint8))
        mask = np.uint8((-int(ok)) & 0xFF)
        chosen = s ^ ((np.asarray(e, dtype=np.uint8) ^ s) & mask)
        return common.shake256_digest(bytes([int(ok) & 1]) + chosen.tobytes() + c, 32)


SCHEMES = {name: ClassicMcEliece(algorithm(name)) for name in PARAMS}
