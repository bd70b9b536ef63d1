"""Streamlined NTRU Prime's parameter set sntrup761 (NTRU Prime round-3 submission,
§3.3 and Table 2; draft-josefsson-ntruprime-streamlined §2) and its catalogue entry
(:mod:`pqkit.registry`). Light: no NumPy."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from pqkit.registry import Algorithm

__all__ = ["CATALOG", "SNTRUP761", "Params"]


@dataclass(frozen=True)
class Params:
    """One Streamlined NTRU Prime parameter set: the ring Z_q[x]/(x^p - x - 1) and the
    weight w of the short polynomials."""

    p: int
    q: int
    w: int
    nist_level: int

    @property
    def q12(self) -> int:
        """(q - 1) / 2: coefficients of R/q are kept in [-q12, q12]."""
        return (self.q - 1) // 2

    @property
    def length_small(self) -> int:
        """Small_bytes: a small polynomial packed 2 bits per coefficient, ceil(p / 4)."""
        return (self.p + 3) // 4

    @property
    def length_rq(self) -> int:
        """Rq_bytes: the Encode of p coefficients of radix q."""
        return _encoded_length(self.p, self.q)

    @property
    def length_rounded(self) -> int:
        """Rounded_bytes: the Encode of p coefficients of radix (q + 2) / 3."""
        return _encoded_length(self.p, (self.q + 2) // 3)

    @property
    def length_public_key(self) -> int:
        """PublicKeys_bytes = Rq_bytes (1158 for sntrup761)."""
        return self.length_rq

    @property
    def length_secret_key(self) -> int:
        """SecretKeys_bytes: f, 1/g (small each), the public key, rho (small) and
        the cached Hash4(pk) (32): 1763 for sntrup761."""
        return 3 * self.length_small + self.length_public_key + 32

    @property
    def length_ciphertext(self) -> int:
        """Ciphertexts_bytes: Rounded_bytes plus the 32-byte confirmation hash."""
        return self.length_rounded + 32

    @property
    def length_shared_secret(self) -> int:
        """Session keys: 32 bytes (the first half of SHA-512)."""
        return 32

    @property
    def length_randomness(self) -> int:
        """Bytes of encapsulation randomness: one ``randombytes(4 p)`` of
        Short_random (little-endian 32-bit words)."""
        return 4 * self.p

    @property
    def length_seed(self) -> int:
        """The seed of ``keygen_derand``: a 48-byte NIST CTR_DRBG entropy input
        (see :meth:`pqkit.sntrup.scheme.Sntrup.keygen_derand`)."""
        return 48


@functools.cache
def _encoded_length(n: int, m: int) -> int:
    """Bytes of Encode(R, M) for n entries of one radix m (the recursion of the
    round-3 submission §3.2 / draft-josefsson-ntruprime-streamlined §2.1), counted
    without encoding anything."""
    radices = [m] * n
    total = 0
    while len(radices) > 1:
        merged = []
        for i in range(0, len(radices) - 1, 2):
            r = radices[i] * radices[i + 1]
            while r >= 16384:
                total += 1
                r = (r + 255) >> 8
            merged.append(r)
        if len(radices) % 2:
            merged.append(radices[-1])
        radices = merged
    r = radices[0]
    while r > 1:
        total += 1
        r = (r + 255) >> 8
    return total


SNTRUP761 = Params(p=761, q=4591, w=286, nist_level=2)
"""sntrup761: p = 761, q = 4591, w = 286 (liboqs claims NIST level 2)."""

CATALOG: tuple[Algorithm, ...] = (
    Algorithm("sntrup761", "kem", "sntrup", "pqkit.sntrup.scheme", SNTRUP761),
)
"""Streamlined NTRU Prime as liboqs and OpenSSH ship it (round 3, 1039-byte ciphertexts)."""
