"""The ``numpy`` backend for q = 8380417: vectorised int64 kernels.

Secret-data rules (DESIGN.md §5): no ``%``, ``//``, branches or data-dependent
indexing on coefficient values. Reduction is Montgomery (R = 2^32) for products
and the folding 2^23 = 2^13 - 1 (mod q) for sums; conditional corrections are
sign-mask arithmetic (``x += (x >> 63) & q``). Decompose and Power2Round use the
multiply-and-shift forms of the Dilithium reference code's constant-time rounding.

NOTE: the rejection samplers (RejNTTPoly, RejBoundedPoly, SampleInBall) compact
their accepted samples with a stable sort of the acceptance flags. Which samples
were rejected is independent of the values accepted, and FIPS 204 §3.6.3 allows
their timing to vary; the accepted values themselves go through no branch.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.arith.api import Poly
from pqkit.arith.ref_mldsa import ZETAS, N, Q

__all__ = ["KERNELS"]

_I64 = np.int64
_M32 = (1 << 32) - 1
_M23 = (1 << 23) - 1
_QINV = pow(Q, -1, 1 << 32)  # q^-1 mod 2^32, for Montgomery reduction
_R = (1 << 32) % Q  # Montgomery R mod q
_R2 = (_R * _R) % Q
_F_MONT = (pow(256, -1, Q) * _R) % Q  # 256^-1 * R: one Montgomery step gives x * 256^-1


def _montgomery(x: npt.NDArray[Any]) -> Poly:
    """x * 2^-32 mod q for |x| < q * 2^31, result in (-1.5q, 0.5q)."""
    m = ((x & _M32) * _QINV) & _M32
    return (x - m * Q) >> 32  # type: ignore[no-any-return]


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


# Zetas in Montgomery form (zeta * 2^32 mod q), per NTT layer: layer with 2^s groups
# uses zetas[2^s : 2^(s+1)] (FIPS 204, Algorithm 41, m = 2^s .. 2^(s+1) - 1).
_ZETAS_MONT = np.array([(z * _R) % Q for z in ZETAS], dtype=_I64)
_NTT_LAYERS = [(1 << s, 128 >> s, _ZETAS_MONT[1 << s : 2 << s, None]) for s in range(8)]
# FIPS 204, Algorithm 42: the layer with G groups uses -zetas[2G - 1 - g] for group g.
_INTT_LAYERS = [
    (128 >> s, 1 << s, (-_ZETAS_MONT[(256 >> s) - 1 : (128 >> s) - 1 : -1, None]) % Q)
    for s in range(8)
]


def ntt(a: Poly) -> Poly:
    # FIPS 204, Algorithm 41, one vectorised layer at a time; |coefficients| grow by
    # at most q per layer (Montgomery products lie in (-1.5q, 0.5q)), so < 13q < 2^27.
    x = np.asarray(a, dtype=_I64)
    lead = x.shape[:-1]
    for groups, length, zetas in _NTT_LAYERS:
        v = x.reshape((*lead, groups, 2, length))
        t = _montgomery(v[..., 1, :] * zetas)
        out = np.empty_like(v)
        np.add(v[..., 0, :], t, out=out[..., 0, :])
        np.subtract(v[..., 0, :], t, out=out[..., 1, :])
        x = out.reshape((*lead, N))
    return _freeze(x)


def intt(a_hat: Poly) -> Poly:
    # FIPS 204, Algorithm 42. The sums double per layer, so the even halves are
    # folded back below 1.25q after every layer; the odd halves are Montgomery
    # products, in (-1.5q, 0.5q).
    x = np.asarray(a_hat, dtype=_I64)
    lead = x.shape[:-1]
    for groups, length, zetas in _INTT_LAYERS:
        v = x.reshape((*lead, groups, 2, length))
        a, b = v[..., 0, :], v[..., 1, :]
        out = np.empty_like(v)
        out[..., 0, :] = _fold(a + b)
        out[..., 1, :] = _montgomery((a - b) * zetas)
        x = out.reshape((*lead, N))
    # FIPS 204, Algorithm 42 line 21: multiply by f = 256^-1 (mod q)
    x = _montgomery(x * _F_MONT)
    return _freeze(x)


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


def decompose(r: Poly, gamma2: int) -> tuple[Poly, Poly]:
    # FIPS 204, Algorithm 36 for canonical r, multiply-and-shift form:
    # r1 = round(r / (2 gamma2)) via a fixed-point reciprocal, with the wrap
    # r1 = (q - 1) / (2 gamma2) -> 0 done by masks; r0 = r - r1 * 2 gamma2, centred.
    x = np.asarray(r, dtype=_I64)
    r1 = (x + 127) >> 7
    if gamma2 == (Q - 1) // 32:
        r1 = ((r1 * 1025 + (1 << 21)) >> 22) & 15
    elif gamma2 == (Q - 1) // 88:
        r1 = (r1 * 11275 + (1 << 23)) >> 24
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
    # FIPS 204, Algorithm 29. NOTE: the Fisher-Yates swap is sequential; it runs in
    # Python on the 256-entry list, as the reference code runs it in C.
    s = np.asarray(stream, dtype=np.uint8)
    lead = s.shape[:-1]
    rows = s.reshape(int(np.prod(lead)), s.shape[-1])
    polys = np.zeros((rows.shape[0], N), dtype=_I64)
    oks = np.ones(rows.shape[0], dtype=np.bool_)
    for r, row in enumerate(rows):
        data = row.tobytes()
        if len(data) < 8:
            oks[r] = False
            continue
        signs = int.from_bytes(data[:8], "little")
        c = [0] * N
        pos = 8
        end = len(data)
        ok = True
        for i in range(N - tau, N):
            while pos < end and data[pos] > i:
                pos += 1
            if pos >= end:
                ok = False
                break
            j = data[pos]
            pos += 1
            c[i] = c[j]
            c[j] = 1 - 2 * (signs & 1)
            signs >>= 1
        polys[r] = c
        oks[r] = ok
    return polys.reshape((*lead, N)), oks.reshape(lead)


_BITS = {w: (1 << np.arange(w, dtype=_I64)) for w in range(1, 24)}


def bit_pack(a: Poly, width: int) -> npt.NDArray[np.uint8]:
    # FIPS 204, Algorithm 16: coefficient bits, least significant first, packed LE
    x = np.asarray(a, dtype=_I64)
    bits = ((x[..., None] >> np.arange(width, dtype=_I64)) & 1).astype(np.uint8)
    flat = bits.reshape((*x.shape[:-1], N * width))
    return np.packbits(flat, axis=-1, bitorder="little")


def bit_unpack(b: npt.NDArray[np.uint8], width: int) -> Poly:
    # FIPS 204, Algorithm 18
    raw = np.asarray(b, dtype=np.uint8)
    bits = np.unpackbits(raw, axis=-1, bitorder="little").reshape((*raw.shape[:-1], N, width))
    return bits.astype(_I64) @ _BITS[width]


KERNELS: dict[str, Any] = {
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
