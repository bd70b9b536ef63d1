"""The ``ref`` backend for q = 8380417: plain Python ints, read like FIPS 204.

This is the test oracle of :class:`pqkit.mldsa.kernels.contract.MLDSAKernels`; it favours
matching the pseudo-code line by line over speed, and uses ``%`` and branches
freely. Arrays cross the boundary (the contract's shapes), and each polynomial is
handled as a Python list inside.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.arith.api import Poly, kernel_table
from pqkit.arith.tables import N, bitrev8
from pqkit.mldsa.kernels.contract import MLDSAKernels
from pqkit.mldsa.kernels.tables import MLDSA_D as D
from pqkit.mldsa.kernels.tables import MLDSA_N_INV as _F
from pqkit.mldsa.kernels.tables import MLDSA_Q as Q
from pqkit.mldsa.kernels.tables import MLDSA_ZETA as ZETA
from pqkit.mldsa.kernels.tables import MLDSA_ZETAS as ZETAS

__all__ = ["KERNELS", "ZETA", "ZETAS", "D", "N", "Q", "bitrev8"]


def _rows(a: Any) -> tuple[tuple[int, ...], list[list[int]]]:
    arr = np.asarray(a, dtype=np.int64)
    return arr.shape[:-1], arr.reshape(int(np.prod(arr.shape[:-1])), arr.shape[-1]).tolist()


def _array(shape: tuple[int, ...], rows: list[list[int]]) -> Poly:
    width = len(rows[0]) if rows else N
    return np.array(rows, dtype=np.int64).reshape((*shape, width))


def _per_poly(a: Any, fn: Callable[[list[int]], list[int]]) -> Poly:
    shape, rows = _rows(a)
    return _array(shape, [fn(w) for w in rows])


def _mod_pm(r: int, alpha: int) -> int:
    """r mod± alpha (FIPS 204 §2.3): the representative in (-alpha/2, alpha/2]."""
    r0 = r % alpha
    return r0 - alpha if r0 > alpha // 2 else r0


# --- FIPS 204, Algorithms 41-45 (NTT) ---------------------------------------------


def _ntt_one(w_in: list[int]) -> list[int]:
    # FIPS 204, Algorithm 41 (NTT)
    w_hat = [x % Q for x in w_in]
    m = 0
    length = 128
    while length >= 1:
        start = 0
        while start < 256:
            m += 1
            z = ZETAS[m]
            for j in range(start, start + length):
                t = (z * w_hat[j + length]) % Q
                w_hat[j + length] = (w_hat[j] - t) % Q
                w_hat[j] = (w_hat[j] + t) % Q
            start += 2 * length
        length //= 2
    return w_hat


def _intt_one(w_hat_in: list[int]) -> list[int]:
    # FIPS 204, Algorithm 42 (NTT^-1)
    w = [x % Q for x in w_hat_in]
    m = 256
    length = 1
    while length < 256:
        start = 0
        while start < 256:
            m -= 1
            z = -ZETAS[m]
            for j in range(start, start + length):
                t = w[j]
                w[j] = (t + w[j + length]) % Q
                w[j + length] = (t - w[j + length]) % Q
                w[j + length] = (z * w[j + length]) % Q
            start += 2 * length
        length *= 2
    return [(_F * x) % Q for x in w]


def ntt(a: Poly) -> Poly:
    return _per_poly(a, _ntt_one)


def intt(a_hat: Poly) -> Poly:
    return _per_poly(a_hat, _intt_one)


def pointwise_mul(a_hat: Poly, b_hat: Poly) -> Poly:
    # FIPS 204, Algorithm 45 (MultiplyNTT), broadcast over leading axes: a scalar times
    # a vector is FIPS 204, Algorithm 47 (ScalarVectorNTT).
    a, b = np.broadcast_arrays(np.asarray(a_hat, np.int64), np.asarray(b_hat, np.int64))
    shape, ra = _rows(a)
    _, rb = _rows(b)
    return _array(
        shape,
        [[(x * y) % Q for x, y in zip(u, v, strict=True)] for u, v in zip(ra, rb, strict=True)],
    )


def pointwise_acc(a_hat: Poly, b_hat: Poly) -> Poly:
    # FIPS 204, Algorithm 48 (MatrixVectorNTT): (A_hat ∘ v_hat)[i] = sum_j A_hat[i, j] ∘
    # v_hat[j], the sum being FIPS 204, Algorithm 44 (AddNTT) applied term by term.
    a, b = np.broadcast_arrays(np.asarray(a_hat, np.int64), np.asarray(b_hat, np.int64))
    m = a.shape[-2]
    shape = a.shape[:-2]
    ra = a.reshape(-1, m, N).tolist()
    rb = b.reshape(-1, m, N).tolist()
    out = []
    for u, v in zip(ra, rb, strict=True):
        out.append([sum(u[j][i] * v[j][i] for j in range(m)) % Q for i in range(N)])
    return _array(shape, out)


# --- FIPS 204, Algorithms 35-40 (rounding) ----------------------------------------


def _power2round_one(r: int) -> tuple[int, int]:
    # FIPS 204, Algorithm 35 (Power2Round)
    r_plus = r % Q
    r0 = _mod_pm(r_plus, 1 << D)
    return (r_plus - r0) >> D, r0


def _decompose_one(r: int, gamma2: int) -> tuple[int, int]:
    # FIPS 204, Algorithm 36 (Decompose)
    r_plus = r % Q
    r0 = _mod_pm(r_plus, 2 * gamma2)
    if r_plus - r0 == Q - 1:
        r1 = 0
        r0 = r0 - 1
    else:
        r1 = (r_plus - r0) // (2 * gamma2)
    return r1, r0


def power2round(r: Poly) -> tuple[Poly, Poly]:
    shape, rows = _rows(r)
    pairs = [[_power2round_one(x) for x in row] for row in rows]
    return (
        _array(shape, [[p[0] for p in row] for row in pairs]),
        _array(shape, [[p[1] for p in row] for row in pairs]),
    )


def decompose(r: Poly, gamma2: int) -> tuple[Poly, Poly]:
    shape, rows = _rows(r)
    pairs = [[_decompose_one(x, gamma2) for x in row] for row in rows]
    return (
        _array(shape, [[p[0] for p in row] for row in pairs]),
        _array(shape, [[p[1] for p in row] for row in pairs]),
    )


def make_hint(z: Poly, r: Poly, gamma2: int) -> Poly:
    # FIPS 204, Algorithm 39 (MakeHint): r1 = HighBits(r), v1 = HighBits(r + z)
    zb, rb = np.broadcast_arrays(np.asarray(z, np.int64), np.asarray(r, np.int64))
    shape, zs = _rows(zb)
    _, rs = _rows(rb)
    out = [
        [
            int(_decompose_one(rr, gamma2)[0] != _decompose_one(rr + zz, gamma2)[0])
            for zz, rr in zip(zr, rr_, strict=True)
        ]
        for zr, rr_ in zip(zs, rs, strict=True)
    ]
    return _array(shape, out)


def _use_hint_one(h: int, r: int, gamma2: int) -> int:
    # FIPS 204, Algorithm 40 (UseHint)
    m = (Q - 1) // (2 * gamma2)
    r1, r0 = _decompose_one(r, gamma2)
    if h == 1 and r0 > 0:
        return (r1 + 1) % m
    if h == 1 and r0 <= 0:
        return (r1 - 1) % m
    return r1


def use_hint(h: Poly, r: Poly, gamma2: int) -> Poly:
    hb, rb = np.broadcast_arrays(np.asarray(h, np.int64), np.asarray(r, np.int64))
    shape, hs = _rows(hb)
    _, rs = _rows(rb)
    return _array(
        shape,
        [
            [_use_hint_one(x, y, gamma2) for x, y in zip(hr, rr, strict=True)]
            for hr, rr in zip(hs, rs, strict=True)
        ],
    )


def infinity_norm(a: Poly) -> npt.NDArray[np.int64]:
    # FIPS 204 §2.3: ||w||_inf = max |w_i mod± q|
    shape, rows = _rows(a)
    return np.array([max(abs(_mod_pm(x, Q)) for x in row) for row in rows], dtype=np.int64).reshape(
        shape
    )


# --- FIPS 204, Algorithms 14, 15, 29-31 (sampling) --------------------------------


def _coeff_from_three_bytes(b0: int, b1: int, b2: int) -> int | None:
    # FIPS 204, Algorithm 14 (CoeffFromThreeBytes)
    b2_prime = b2
    if b2_prime > 127:
        b2_prime = b2_prime - 128
    z = 2**16 * b2_prime + 2**8 * b1 + b0
    if z < Q:
        return z
    return None


def _coeff_from_half_byte(b: int, eta: int) -> int | None:
    # FIPS 204, Algorithm 15 (CoeffFromHalfByte)
    if eta == 2 and b < 15:
        return 2 - (b % 5)
    if eta == 4 and b < 9:
        return 4 - b
    return None


def _rows_u8(buf: Any) -> tuple[tuple[int, ...], list[bytes]]:
    arr = np.asarray(buf, dtype=np.uint8)
    flat = arr.reshape(int(np.prod(arr.shape[:-1])), arr.shape[-1])
    return arr.shape[:-1], [bytes(row) for row in flat]


def _per_row(
    buf: Any, sample: Callable[[bytes], tuple[list[int], int | bool]], dtype: type[Any]
) -> tuple[Poly, npt.NDArray[Any]]:
    """``sample`` on every row of ``buf``: the polynomials, and each row's count (or
    success flag) as an array of ``dtype``, both shaped as the rows."""
    shape, rows = _rows_u8(buf)
    results = [sample(s) for s in rows]
    flags = np.array([flag for _, flag in results], dtype=dtype).reshape(shape)
    return _array(shape, [poly for poly, _ in results]), flags


def _rej_ntt_poly(s: bytes) -> tuple[list[int], int]:
    # FIPS 204, Algorithm 30 (RejNTTPoly), reading from a finite stream prefix
    a_hat = [0] * N
    j = 0
    pos = 0
    while j < 256 and pos + 3 <= len(s):
        coeff = _coeff_from_three_bytes(s[pos], s[pos + 1], s[pos + 2])
        pos += 3
        if coeff is not None:
            a_hat[j] = coeff
            j += 1
    return a_hat, j


def rej_uniform(buf: npt.NDArray[np.uint8]) -> tuple[Poly, npt.NDArray[np.int64]]:
    return _per_row(buf, _rej_ntt_poly, np.int64)


def _rej_bounded_poly(s: bytes, eta: int) -> tuple[list[int], int]:
    # FIPS 204, Algorithm 31 (RejBoundedPoly), reading from a finite stream prefix
    a = [0] * N
    j = 0
    pos = 0
    while j < 256 and pos < len(s):
        z = s[pos]
        z0 = _coeff_from_half_byte(z % 16, eta)
        z1 = _coeff_from_half_byte(z // 16, eta)
        if z0 is not None:
            a[j] = z0
            j += 1
        if z1 is not None and j < 256:
            a[j] = z1
            j += 1
        pos += 1
    return a, j


def rej_bounded(buf: npt.NDArray[np.uint8], eta: int) -> tuple[Poly, npt.NDArray[np.int64]]:
    return _per_row(buf, lambda s: _rej_bounded_poly(s, eta), np.int64)


def _sample_in_ball(s: bytes, tau: int) -> tuple[list[int], bool]:
    # FIPS 204, Algorithm 29 (SampleInBall), given the first bytes of H(rho)
    c = [0] * N
    if len(s) < 8:
        return c, False
    h = [(s[i // 8] >> (i % 8)) & 1 for i in range(64)]
    pos = 8
    for i in range(256 - tau, 256):
        while pos < len(s) and s[pos] > i:
            pos += 1
        if pos >= len(s):
            return c, False
        j = s[pos]
        pos += 1
        c[i] = c[j]
        c[j] = (-1) ** h[i + tau - 256]
    return c, True


def sample_in_ball(stream: npt.NDArray[np.uint8], tau: int) -> tuple[Poly, npt.NDArray[np.bool_]]:
    return _per_row(stream, lambda s: _sample_in_ball(s, tau), np.bool_)


# --- FIPS 204, Algorithms 16 and 18 (bit packing) ---------------------------------


def bit_pack(a: Poly, width: int) -> npt.NDArray[np.uint8]:
    # FIPS 204, Algorithm 16 (SimpleBitPack): z = sum w_i 2^(i*width), little-endian;
    # the bit string of FIPS 204, Algorithm 9 (IntegerToBits) for each w_i, turned into
    # bytes by FIPS 204, Algorithm 12 (BitsToBytes), is exactly z's little-endian bytes.
    shape, rows = _rows(a)
    out = []
    for w in rows:
        z = 0
        for i, x in enumerate(w):
            z |= x << (i * width)
        out.append(list(z.to_bytes(32 * width, "little")))
    return np.array(out, dtype=np.uint8).reshape((*shape, 32 * width))


def bit_unpack(b: npt.NDArray[np.uint8], width: int) -> Poly:
    # FIPS 204, Algorithm 18 (SimpleBitUnpack): FIPS 204, Algorithm 13 (BytesToBits)
    # then FIPS 204, Algorithm 10 (BitsToInteger) per coefficient, read here as the
    # width-bit fields of one little-endian integer.
    shape, rows = _rows_u8(b)
    mask = (1 << width) - 1
    out = []
    for s in rows:
        z = int.from_bytes(s, "little")
        out.append([(z >> (i * width)) & mask for i in range(N)])
    return _array(shape, out)


# --- reductions at the boundary of the scheme code (FIPS 204 §2.3) -----------------


def mod_q(x: Poly) -> Poly:
    """x mod q, canonical, for x in (-q, 2q)."""
    return _per_poly(x, lambda r: [v % Q for v in r])


def centre(x: Poly) -> Poly:
    """x mod± q (FIPS 204 §2.3) for canonical x."""
    return _per_poly(x, lambda r: [_mod_pm(v, Q) for v in r])


KERNELS: dict[str, Any] = kernel_table(MLDSAKernels, globals())
