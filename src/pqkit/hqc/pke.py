"""HQC-PKE and its symmetric functions (HQC specification of 2025-08-22, §3;
the reference code's ``hqc.c``, ``parsing.c``, ``symmetric.c``, ``vector.c``).

Backend-independent: the vector and code arithmetic goes through the kernel table
(:class:`pqkit.hqc.kernels.contract.HQCKernels`), the hashing through
:mod:`pqkit.common`. Vectors are (W,) uint64 arrays (see the contract).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pqkit import common
from pqkit.common import Xof
from pqkit.hqc.kernels.contract import HQCKernels, Support, Words
from pqkit.hqc.params import SEED_BYTES, Params

__all__ = [
    "Ciphertext",
    "decrypt",
    "encrypt",
    "hash_g",
    "hash_h",
    "hash_i",
    "hash_j",
    "keygen",
    "xof",
]

# Domain-separation bytes (reference code, symmetric.h).
_XOF_DOMAIN = b"\x01"
_G_DOMAIN, _H_DOMAIN, _I_DOMAIN, _J_DOMAIN = b"\x00", b"\x01", b"\x02", b"\x03"


def xof(seed: bytes) -> Xof:
    """XOF(seed): SHAKE256(seed || 0x01)."""
    return common.shake256(seed + _XOF_DOMAIN)


def hash_i(seed: bytes) -> bytes:
    """I(seed) = SHA3-512(seed || 0x02): seed_dk || seed_ek."""
    return common.sha3_512(seed + _I_DOMAIN)


def hash_h(ek: bytes) -> bytes:
    """H(ek) = SHA3-256(ek || 0x01)."""
    return common.sha3_256(ek + _H_DOMAIN)


def hash_g(h_ek: bytes, m: bytes, salt: bytes) -> bytes:
    """G(H(ek) || m || salt) = SHA3-512(... || 0x00): K || theta."""
    return common.sha3_512(h_ek + m + salt + _G_DOMAIN)


def hash_j(h_ek: bytes, sigma: bytes, c: bytes) -> bytes:
    """J(H(ek) || sigma || c) = SHA3-256(... || 0x03): the rejection key K_bar."""
    return common.sha3_256(h_ek + sigma + c + _J_DOMAIN)


# --- vectors ----------------------------------------------------------------------------


def vector_from_bytes(data: bytes, p: Params) -> Words:
    """The (W,) vector of a byte string of ceil(n / 8) bytes. The bits past x^(n-1)
    in the last byte are read as the reference code's multiplication reads them,
    as x^n, x^(n+1), ... = 1, x, ... (folded onto the low bits), so that any byte
    string gives the reference's result."""
    words = np.frombuffer(data.ljust(8 * p.words, b"\0"), dtype="<u8").astype(np.uint64)
    shift = np.uint64(p.n % 64)
    stray = words[-1] >> shift
    words[-1] &= (np.uint64(1) << shift) - np.uint64(1)
    words[0] ^= stray
    return words


def vector_bytes(v: Words, nbytes: int) -> bytes:
    return v.astype("<u8").tobytes()[:nbytes]


def random_vector(ctx: Xof, p: Params) -> Words:
    """SampleVect (``vect_set_random``): ceil(n / 8) XOF bytes, the bits past n cleared."""
    words = np.frombuffer(ctx.read(p.n_bytes).ljust(8 * p.words, b"\0"), dtype="<u8")
    words = words.astype(np.uint64)
    words[-1] &= (np.uint64(1) << np.uint64(p.n % 64)) - np.uint64(1)
    return words


class _Stream:
    """An XOF read in 3-byte steps from a buffer refilled in large reads (the bytes
    are the same as the reference's one call per step)."""

    def __init__(self, ctx: Xof, chunk: int) -> None:
        self.ctx, self.chunk = ctx, chunk
        self.buf, self.pos = b"", 0

    def take3(self) -> int:
        if self.pos + 3 > len(self.buf):
            self.buf = self.buf[self.pos :] + self.ctx.read(self.chunk)
            self.pos = 0
        value = int.from_bytes(self.buf[self.pos : self.pos + 3], "little")
        self.pos += 3
        return value


def rejection_support(stream: _Stream, weight: int, n: int) -> Support:
    """SampleFixedWeightVect (``vect_generate_random_support1``, the key's x and y):
    24-bit candidates below the largest multiple of n under 2^24, reduced mod n
    (Barrett: multiply and shift), kept unless already drawn.

    NOTE: the number of XOF bytes read, and the comparisons with earlier positions,
    depend on the secret stream (as in the reference code, whose loop exits early):
    timing can reveal how many candidates were rejected or repeated, not which."""
    threshold = ((1 << 24) // n) * n
    mu = (1 << 32) // n
    support: list[int] = []
    while len(support) < weight:
        candidate = stream.take3()
        if candidate >= threshold:
            continue
        r = candidate - ((candidate * mu) >> 32) * n
        r -= n & -int(r >= n)
        if r not in support:
            support.append(r)
    return np.array(support, dtype=np.int64)


def random_supports(ctx: Xof, weights: tuple[int, ...], n: int, K: HQCKernels) -> list[Support]:
    """SampleFixedWeightVect$ for each weight in turn (``vect_sample_fixed_weight2``):
    4 w XOF bytes each, read in one call."""
    rand = np.frombuffer(ctx.read(4 * sum(weights)), dtype="<u4").astype(np.uint32)
    out, at = [], 0
    for w in weights:
        out.append(K.support_from_random(rand[at : at + w], n))
        at += w
    return out


def truncate(v: Words, p: Params) -> Words:
    """The first n1 n2 coefficients (n1 n2 is a multiple of 128)."""
    return v[: p.n1n2 // 64]


# --- HQC-PKE ----------------------------------------------------------------------------


def keygen(seed_pke: bytes, p: Params, K: HQCKernels) -> tuple[bytes, bytes]:
    """HQC-PKE.KeyGen(seed): (ek_pke, dk_pke) = (seed_ek || s, seed_dk), with
    s = x + h y, x and y of weight omega from XOF(seed_dk), h from XOF(seed_ek)."""
    seeds = hash_i(seed_pke)
    seed_dk, seed_ek = seeds[:SEED_BYTES], seeds[SEED_BYTES:]
    stream = _Stream(xof(seed_dk), 6 * p.omega + 48)
    y = rejection_support(stream, p.omega, p.n)
    x = rejection_support(stream, p.omega, p.n)
    h = random_vector(xof(seed_ek), p)
    s = K.mul_sparse(y, h, p.n) ^ K.support_to_vector(x, p.n)
    return seed_ek + vector_bytes(s, p.n_bytes), seed_dk


@dataclass(frozen=True)
class Ciphertext:
    """HQC-PKE ciphertext (u, v): u (W,) words, v (n1 n2 / 64,) words."""

    u: Words
    v: Words

    def to_bytes(self, p: Params) -> bytes:
        return vector_bytes(self.u, p.n_bytes) + vector_bytes(self.v, p.n1n2_bytes)


def encrypt(ek: bytes, m: bytes, theta: bytes, p: Params, K: HQCKernels) -> Ciphertext:
    """HQC-PKE.Encrypt(ek, m, theta): r2, e, r1 from XOF(theta) (in that order);
    u = r1 + h r2, v = C.Encode(m) + Truncate(s r2 + e)."""
    h = random_vector(xof(ek[:SEED_BYTES]), p)
    s = vector_from_bytes(ek[SEED_BYTES:], p)
    r2, e, r1 = random_supports(xof(theta), (p.omega_r, p.omega_e, p.omega_r), p.n, K)
    r2h, r2s = K.mul_sparse(r2, np.stack([h, s]), p.n)  # one call: r2 times both
    u = r2h ^ K.support_to_vector(r1, p.n)
    code = K.rm_encode(K.rs_encode(np.frombuffer(m, dtype=np.uint8), p.delta), p.multiplicity)
    noise = r2s ^ K.support_to_vector(e, p.n)
    return Ciphertext(u, code ^ truncate(noise, p))


def decrypt(dk_pke: bytes, u: Words, v: Words, p: Params, K: HQCKernels) -> bytes:
    """HQC-PKE.Decrypt(dk, (u, v)): C.Decode(v - Truncate(u y)), y from XOF(seed_dk)."""
    y = rejection_support(_Stream(xof(dk_pke), 3 * p.omega + 48), p.omega, p.n)
    word = v ^ truncate(K.mul_sparse(y, u, p.n), p)
    symbols = K.rm_decode(word, p.n1, p.multiplicity)
    return K.rs_decode(symbols, p.k, p.delta).tobytes()
