"""The ``numpy`` backend for q = 8380417: vectorised int64 kernels.

Secret-data rules (docs/architecture.md §8): no ``%``, ``//``, branches or data-dependent
indexing on coefficient values. Reduction is Montgomery (R = 2^32) for products
and the folding 2^23 = 2^13 - 1 (mod q) for sums; conditional corrections are
sign-mask arithmetic (``x += (x >> 63) & q``). Decompose and Power2Round use the
multiply-and-shift forms of the Dilithium reference code's constant-time rounding.

NOTE: the rejection samplers (RejNTTPoly, RejBoundedPoly) compact their accepted
samples with a stable sort of the acceptance flags. Which samples were rejected
is independent of the values accepted (the reference implementations branch on
it too); the accepted values themselves go through no branch. SampleInBall is a
fixed-length masked scan (its seed is secret on rejected attempts).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.arith.api import Poly
from pqkit.arith.tables import MLDSA_DECOMPOSE, N
from pqkit.arith.tables import MLDSA_Q as Q
from pqkit.arith.tables import MLDSA_ZETAS as ZETAS

__all__ = ["KERNELS"]

_I64 = np.int64
_M32 = (1 << 32) - 1
_M23 = (1 << 23) - 1
_QINV = pow(Q, -1, 1 << 32)  # q^-1 mod 2^32, for Montgomery reduction
_R = (1 << 32) % Q  # Montgomery R mod q
_R2 = (_R * _R) % Q
_F_MONT = (pow(256, -1, Q) * _R) % Q  # 256^-1 * R: one Montgomery step gives x * 256^-1


def _montgomery(x: npt.NDArray[Any]) -> Poly:
    # FIPS 204, Algorithm 49 (MontgomeryReduce), on int64 arrays
    """x * 2^-32 mod q for |x| < q * 2^31, result in (-q - 2^22, 2^22), in place.

    m = x * q^-1 mod 2^32 (int64 products wrap mod 2^64, which keeps the low 32
    bits right); then (x - m q) is a multiple of 2^32.
    """
    m = x * _QINV
    m &= _M32
    m *= Q
    x -= m
    x >>= 32
    return x


def _fold(x: npt.NDArray[Any]) -> Poly:
    """A representative of x mod q in (-0.25q, 1.25q) for |x| < 2^31."""
    return (x & _M23) + (x >> 23) * 8191


def _freeze(x: npt.NDArray[Any]) -> Poly:
    """The canonical representative in [0, q) of |x| < 2^31, branch-free."""
    x = _fold(x)
    x += (x >> 63) & Q
    x -= Q
    x += (x >> 63) & Q
    return x


# Zetas in Montgomery form (zeta * 2^32 mod q), per layer. FIPS 204, Algorithm 41:
# the layer of length L has G = 128 / L groups and group g uses zetas[G + g];
# Algorithm 42: group g of the layer of length L uses -zetas[2G - 1 - g].
#
# Layout: layers with L >= 16 run on the natural order viewed as (G, 2, L). The
# layers with L < 16 would have inner runs of L < 16 elements, which NumPy loops
# over slowly, so they run on the transpose T[j, b] = x[16 b + j] (b: block of 16,
# j: index in the block) viewed as (S, 2, L, 16) with S = 8 / L: group g = b S + s.
_ZETAS_MONT = [(z * _R) % Q for z in ZETAS]


def _layer_zetas(length: int, inverse: bool) -> npt.NDArray[np.int64]:
    groups = 128 // length
    if inverse:
        z = [(-_ZETAS_MONT[2 * groups - 1 - g]) % Q for g in range(groups)]
    else:
        z = [_ZETAS_MONT[groups + g] for g in range(groups)]
    arr = np.array(z, dtype=_I64)
    if length >= 16:
        return arr[:, None]  # broadcast over (G, L)
    per_block = 8 // length  # S
    # Z[s, 0, b] = z[b S + s]
    table: npt.NDArray[np.int64] = np.ascontiguousarray(arr.reshape(16, per_block).T[:, None, :])
    return table


_LENGTHS = [128 >> s for s in range(8)]
_NTT_ZETAS = {length: _layer_zetas(length, False) for length in _LENGTHS}
_INTT_ZETAS = {length: _layer_zetas(length, True) for length in _LENGTHS}


def _halves(x: Poly, lead: tuple[int, ...], length: int) -> tuple[Poly, Poly]:
    """The two butterfly halves of a layer as views: natural layout for length >= 16,
    transposed layout (see above) for length < 16."""
    if length >= 16:
        v = x.reshape((*lead, 128 // length, 2, length))
        return v[..., 0, :], v[..., 1, :]
    v = x.reshape((*lead, 8 // length, 2, length, 16))
    return v[..., 0, :, :], v[..., 1, :, :]


def _transpose16(x: Poly, lead: tuple[int, ...]) -> Poly:
    """T[j, b] = x[16 b + j] (its own inverse), as a new contiguous array."""
    return np.ascontiguousarray(x.reshape((*lead, 16, 16)).swapaxes(-1, -2)).reshape((*lead, N))


def ntt(a: Poly) -> Poly:
    # FIPS 204, Algorithm 41, one vectorised layer at a time, in place on a copy.
    # Montgomery products lie in (-q - 2^22, 2^22), so |coefficients| grow by at most
    # about q per layer: < 10q < 2^27 at the end, and every product is < q * 2^31.
    x = np.array(a, dtype=_I64, copy=True)
    lead = x.shape[:-1]
    for length in _LENGTHS:
        if length == 8:
            x = _transpose16(x, lead)
        v0, v1 = _halves(x, lead, length)
        t = _montgomery(v1 * _NTT_ZETAS[length])
        np.subtract(v0, t, out=v1)
        v0 += t
    return _freeze(_transpose16(x, lead))


def intt(a_hat: Poly) -> Poly:
    # FIPS 204, Algorithm 42, in place. The sums double per layer, so they are
    # folded back below 1.25q once, after the fourth layer; the differences become
    # Montgomery products, in (-q - 2^22, 2^22).
    lead = np.shape(a_hat)[:-1]
    x = _transpose16(np.asarray(a_hat, dtype=_I64), lead)
    for length in reversed(_LENGTHS):
        if length == 16:
            x = _transpose16(x, lead)
        v0, v1 = _halves(x, lead, length)
        d = v0 - v1
        v0 += v1
        d *= _INTT_ZETAS[length]
        v1[...] = _montgomery(d)
        if length == 8:
            v0[...] = _fold(v0)
    # FIPS 204, Algorithm 42 line 21: multiply by f = 256^-1 (mod q)
    x *= _F_MONT
    return _freeze(_montgomery(x))


def pointwise_mul(a_hat: Poly, b_hat: Poly) -> Poly:
    # FIPS 204, Algorithm 45: (a * b) * R^-1 * R^2 * R^-1 = a * b (mod q)
    prod = np.asarray(a_hat, dtype=_I64) * np.asarray(b_hat, dtype=_I64)
    return _freeze(_montgomery(_montgomery(prod) * _R2))


def pointwise_acc(a_hat: Poly, b_hat: Poly) -> Poly:
    # sum_j a_j * b_j < 8 * q^2 < q * 2^31 fits one Montgomery reduction
    a = np.asarray(a_hat, dtype=_I64)
    b = np.asarray(b_hat, dtype=_I64)
    b_mont = _freeze(_montgomery(b * _R2))  # b * R mod q
    if a.shape[-2] > 8:
        raise ValueError("pointwise_acc: at most 8 terms (FIPS 204 matrices have l <= 7)")
    return _freeze(_montgomery((a * b_mont).sum(axis=-2)))


def power2round(r: Poly) -> tuple[Poly, Poly]:
    # FIPS 204, Algorithm 35 for canonical r: r1 = ceil-ish (r + 2^12 - 1) >> 13
    x = np.asarray(r, dtype=_I64)
    r1 = (x + (1 << 12) - 1) >> 13
    return r1, x - (r1 << 13)


_HB32_M, _HB32_S = MLDSA_DECOMPOSE[(Q - 1) // 32]
_HB88_M, _HB88_S = MLDSA_DECOMPOSE[(Q - 1) // 88]


def decompose(r: Poly, gamma2: int) -> tuple[Poly, Poly]:
    # FIPS 204, Algorithm 36 for canonical r, multiply-and-shift form:
    # r1 = round(r / (2 gamma2)) via a fixed-point reciprocal, with the wrap
    # r1 = (q - 1) / (2 gamma2) -> 0 done by masks; r0 = r - r1 * 2 gamma2, centred.
    x = np.asarray(r, dtype=_I64)
    r1 = (x + 127) >> 7
    if gamma2 == (Q - 1) // 32:
        r1 = ((r1 * _HB32_M + (1 << (_HB32_S - 1))) >> _HB32_S) & 15
    elif gamma2 == (Q - 1) // 88:
        r1 = (r1 * _HB88_M + (1 << (_HB88_S - 1))) >> _HB88_S
        r1 ^= ((43 - r1) >> 63) & r1
    else:
        raise ValueError(f"unsupported gamma2 {gamma2}: FIPS 204 uses (q-1)/88 or (q-1)/32")
    r0 = x - r1 * (2 * gamma2)
    r0 -= (((Q - 1) // 2 - r0) >> 63) & Q
    return r1, r0


def make_hint(z: Poly, r: Poly, gamma2: int) -> Poly:
    # FIPS 204, Algorithm 39
    rr = np.asarray(r, dtype=_I64)
    s = rr + np.asarray(z, dtype=_I64)
    s -= Q
    s += (s >> 63) & Q
    r1, _ = decompose(rr, gamma2)
    v1, _ = decompose(s, gamma2)
    hint: Poly = (r1 != v1).astype(_I64)
    return hint


def use_hint(h: Poly, r: Poly, gamma2: int) -> Poly:
    # FIPS 204, Algorithm 40: with h = 1, step r1 towards the side r0 lies on, mod m
    m = (Q - 1) // (2 * gamma2)
    r1, r0 = decompose(r, gamma2)
    hh = np.asarray(h, dtype=_I64)
    step = hh * (1 - 2 * (r0 <= 0).astype(_I64))  # +1, -1 or 0
    out = r1 + step
    out += (out >> 63) & m  # -1 -> m - 1
    out -= m
    out += (out >> 63) & m  # m -> 0
    return out


def infinity_norm(a: Poly) -> npt.NDArray[np.int64]:
    x = np.asarray(a, dtype=_I64)
    x = x + ((x >> 63) & Q)  # (-q, q) -> [0, q)
    x = x - (((Q - 1) // 2 - x) >> 63 & Q)  # centre: (q-1)/2 < x -> x - q
    out: npt.NDArray[np.int64] = np.abs(x).max(axis=-1)
    return out


def _compact(values: Poly, accept: npt.NDArray[np.bool_]) -> tuple[Poly, npt.NDArray[np.int64]]:
    """The first 256 accepted values of each row, in order, and how many there were."""
    order = np.argsort(~accept, axis=-1, kind="stable")[..., :N]
    out = np.take_along_axis(values, order, axis=-1)
    count = np.minimum(accept.sum(axis=-1, dtype=_I64), N)
    if out.shape[-1] < N:  # fewer candidates than 256: pad (count says it is short)
        pad = np.zeros((*out.shape[:-1], N - out.shape[-1]), dtype=_I64)
        out = np.concatenate([out, pad], axis=-1)
    # entries past `count` are zero, as in the reference twin
    out = out * (np.arange(N) < count[..., None])
    return out, count


def rej_uniform(buf: npt.NDArray[np.uint8]) -> tuple[Poly, npt.NDArray[np.int64]]:
    # FIPS 204, Algorithms 30 and 14: 23-bit little-endian candidates, accept < q
    b = np.asarray(buf, dtype=np.uint8)
    n = b.shape[-1] - b.shape[-1] % 3
    t = b[..., :n].reshape((*b.shape[:-1], n // 3, 3)).astype(_I64)
    cand = t[..., 0] | (t[..., 1] << 8) | ((t[..., 2] & 0x7F) << 16)
    return _compact(cand, cand < Q)


def rej_bounded(buf: npt.NDArray[np.uint8], eta: int) -> tuple[Poly, npt.NDArray[np.int64]]:
    # FIPS 204, Algorithms 31 and 15: low nibble first, then high nibble
    b = np.asarray(buf, dtype=np.uint8).astype(_I64)
    nib = np.stack([b & 15, b >> 4], axis=-1).reshape((*b.shape[:-1], 2 * b.shape[-1]))
    if eta == 2:
        accept = nib < 15
        vals = 2 - (nib - 5 * ((nib * 205) >> 10))  # 2 - (nib mod 5) for nib < 16
    elif eta == 4:
        accept = nib < 9
        vals = 4 - nib
    else:
        raise ValueError(f"unsupported eta {eta}: FIPS 204 uses 2 or 4")
    return _compact(vals, accept)


def sample_in_ball(stream: npt.NDArray[np.uint8], tau: int) -> tuple[Poly, npt.NDArray[np.bool_]]:
    # FIPS 204, Algorithm 29 (SampleInBall) without branches or indexing on the stream.
    # NOTE: the challenge seed of a rejected or speculative attempt is never
    # published, so its bytes decide no branch, loop count or index here:
    # 1. a fixed-length scan of every index byte computes, with mask arithmetic,
    #    whether it is accepted (j <= i < 256, i = 256 - tau + accepted so far);
    # 2. the t-th accepted byte j_t is selected with a one-hot rank mask;
    # 3. the swaps c[i_t] <- c[j_t], c[j_t] <- sign_t (i_t = 256 - tau + t is
    #    public) are replayed on the positions of the tau signs ("particles"):
    #    the sign sitting at j_t moves to i_t, sign t lands at j_t; masked updates.
    # Outputs equal the reference's, including the partial c of a short prefix.
    s = np.asarray(stream, dtype=np.uint8)
    lead = s.shape[:-1]
    rows = s.reshape(int(np.prod(lead)), s.shape[-1])
    count, n = rows.shape
    if n < 8:
        return np.zeros((*lead, N), dtype=_I64), np.zeros(lead, dtype=np.bool_)
    idx = rows[:, 8:].astype(_I64)  # (count, P) index bytes
    accept = np.empty(idx.shape, dtype=_I64)
    for r in range(count):  # 1. masked scan in Python ints, fixed length
        i = N - tau
        flags = []
        for j in rows[r, 8:].tolist():
            a = ((i - N) >> 63) & ~((i - j) >> 63) & 1
            flags.append(a)
            i += a
        accept[r] = flags
    rank = np.cumsum(accept, axis=1) - 1
    steps = np.arange(tau, dtype=_I64)[None, :, None]
    pick = accept[:, None, :] * (rank[:, None, :] == steps)  # (count, tau, P) one-hot
    j_t = (pick * idx[:, None, :]).sum(axis=2)  # 2. the t-th accepted byte
    done = pick.sum(axis=2)  # 1 where step t happened
    pos = np.full((count, tau), -1, dtype=_I64)  # 3. where sign t sits (-1: nowhere)
    for t in range(tau):
        jt, dt = j_t[:, t : t + 1], done[:, t : t + 1]
        pos += dt * (pos == jt) * (N - tau + t - pos)
        pos[:, t] = dt[:, 0] * (jt[:, 0] + 1) - 1
    signs = rows[:, :8].copy().view("<u8")[:, 0].astype(np.uint64)
    bits = (signs[:, None] >> np.arange(tau, dtype=np.uint64)) & np.uint64(1)
    sign = 1 - 2 * bits.astype(_I64)  # (count, tau)
    onehot = pos[:, :, None] == np.arange(N, dtype=_I64)
    c = (sign[:, :, None] * onehot).sum(axis=1)
    oks = done[:, tau - 1] == 1 if tau else np.ones(count, dtype=np.bool_)
    return c.reshape((*lead, N)), oks.reshape(lead)


def bit_pack(a: Poly, width: int) -> npt.NDArray[np.uint8]:
    # FIPS 204, Algorithm 16: coefficient bits, least significant first, packed LE
    x = np.asarray(a, dtype=_I64)
    bits = ((x[..., None] >> np.arange(width, dtype=_I64)) & 1).astype(np.uint8)
    flat = bits.reshape((*x.shape[:-1], N * width))
    return np.packbits(flat, axis=-1, bitorder="little")


# For SimpleBitUnpack of width w: coefficient i starts at bit i*w, i.e. at byte
# (i*w) >> 3, bit (i*w) & 7, and spans at most 4 bytes (w <= 23).
_UNPACK_AT = {w: (np.arange(N) * w >> 3, (np.arange(N) * w & 7).astype(_I64)) for w in range(1, 24)}


def bit_unpack(b: npt.NDArray[np.uint8], width: int) -> Poly:
    # FIPS 204, Algorithm 18: four bytes from each coefficient's first byte (fixed,
    # public positions), shifted and masked
    raw = np.asarray(b, dtype=np.uint8)
    padded = np.zeros((*raw.shape[:-1], raw.shape[-1] + 3), dtype=_I64)
    padded[..., : raw.shape[-1]] = raw
    start, shift = _UNPACK_AT[width]
    word = padded[..., start]
    word |= padded[..., start + 1] << 8
    word |= padded[..., start + 2] << 16
    word |= padded[..., start + 3] << 24
    word >>= shift
    word &= (1 << width) - 1
    return word


def mod_q(x: Poly) -> Poly:
    """Canonical [0, q) for x in (-q, 2q), branch-free."""
    y = np.asarray(x, dtype=_I64)
    y = y + ((y >> 63) & Q)
    y -= Q
    y += (y >> 63) & Q
    return y


def centre(x: Poly) -> Poly:
    """x mod± q for canonical x, branch-free."""
    y = np.asarray(x, dtype=_I64)
    return y - ((((Q - 1) // 2 - y) >> 63) & Q)


KERNELS: dict[str, Any] = {
    "mod_q": mod_q,
    "centre": centre,
    "ntt": ntt,
    "intt": intt,
    "pointwise_mul": pointwise_mul,
    "pointwise_acc": pointwise_acc,
    "power2round": power2round,
    "decompose": decompose,
    "make_hint": make_hint,
    "use_hint": use_hint,
    "infinity_norm": infinity_norm,
    "rej_uniform": rej_uniform,
    "rej_bounded": rej_bounded,
    "sample_in_ball": sample_in_ball,
    "bit_pack": bit_pack,
    "bit_unpack": bit_unpack,
}
