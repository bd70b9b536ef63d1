"""The ``ref`` ML-KEM kernels: plain Python ints, reading like FIPS 203.

This is the test oracle for every other backend. Arrays are accepted and returned
at the boundary (see :class:`pqkit.mlkem.kernels.contract.MLKEMKernels` for the contracts), but
all arithmetic inside is on Python ints, one polynomial at a time, following the
pseudo-code of FIPS 203 §4.2.1 and §4.3. It is not constant time (it uses ``%``
and branches) and is never the default.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.arith.api import Poly, kernel_table
from pqkit.arith.tables import N, bitrev7
from pqkit.mlkem.kernels.contract import MLKEMKernels
from pqkit.mlkem.kernels.tables import MLKEM_GAMMAS as GAMMAS
from pqkit.mlkem.kernels.tables import MLKEM_N_INV
from pqkit.mlkem.kernels.tables import MLKEM_Q as Q
from pqkit.mlkem.kernels.tables import MLKEM_ZETA as ZETA
from pqkit.mlkem.kernels.tables import MLKEM_ZETAS as ZETAS

__all__ = ["GAMMAS", "KERNELS", "ZETA", "ZETAS", "N", "Q", "bitrev7"]


# --- boundary helpers -------------------------------------------------------------


def _rows(a: npt.ArrayLike, width: int) -> tuple[list[list[int]], tuple[int, ...]]:
    arr = np.asarray(a)
    if arr.ndim == 0 or arr.shape[-1] != width:
        raise ValueError(f"expected an array of shape (..., {width}), got {arr.shape}")
    lead = arr.shape[:-1]
    rows = arr.reshape(int(np.prod(lead, dtype=np.int64)), width)
    return [[int(x) for x in row] for row in rows], lead


def _out(rows: Sequence[Sequence[int]], lead: tuple[int, ...], width: int, dtype: Any) -> Any:
    return np.array(rows, dtype=dtype).reshape((*lead, width))


def _per_poly(fn: Callable[[list[int]], list[int]], f: npt.ArrayLike) -> Poly:
    rows, lead = _rows(f, N)
    return _out([fn(r) for r in rows], lead, N, np.int64)  # type: ignore[no-any-return]


# --- FIPS 203, Algorithm 9 (NTT) and Algorithm 10 (NTT^-1) ---------------------------


def _ntt(f: list[int]) -> list[int]:
    """FIPS 203, Algorithm 9 (NTT)."""
    f_hat = list(f)
    i = 1
    length = 128
    while length >= 2:
        for start in range(0, N, 2 * length):
            zeta = ZETAS[i]
            i += 1
            for j in range(start, start + length):
                t = zeta * f_hat[j + length] % Q
                f_hat[j + length] = (f_hat[j] - t) % Q
                f_hat[j] = (f_hat[j] + t) % Q
        length //= 2
    return f_hat


def _intt(f_hat: list[int]) -> list[int]:
    """FIPS 203, Algorithm 10 (NTT^-1)."""
    f = list(f_hat)
    i = 127
    length = 2
    while length <= 128:
        for start in range(0, N, 2 * length):
            zeta = ZETAS[i]
            i -= 1
            for j in range(start, start + length):
                t = f[j]
                f[j] = (t + f[j + length]) % Q
                f[j + length] = zeta * (f[j + length] - t) % Q
        length *= 2
    return [x * MLKEM_N_INV % Q for x in f]  # line 14: times 128^-1 mod q


def ntt(f: Poly) -> Poly:
    return _per_poly(_ntt, f)


def intt(f_hat: Poly) -> Poly:
    return _per_poly(_intt, f_hat)


# --- FIPS 203, Algorithm 11 (MultiplyNTTs) and Algorithm 12 (BaseCaseMultiply) ---


def _base_case_multiply(a0: int, a1: int, b0: int, b1: int, gamma: int) -> tuple[int, int]:
    """FIPS 203, Algorithm 12 (BaseCaseMultiply)."""
    c0 = (a0 * b0 + a1 * b1 * gamma) % Q
    c1 = (a0 * b1 + a1 * b0) % Q
    return c0, c1


def mulcache(b_hat: Poly) -> Any:
    """For ``ref``: b1 * gamma_i mod q for each odd coefficient, shape (..., 128)."""
    rows, lead = _rows(b_hat, N)
    return _out(
        [[r[2 * i + 1] * GAMMAS[i] % Q for i in range(128)] for r in rows], lead, 128, np.int64
    )


def basemul_acc(a_hat: Poly, b_hat: Poly, cache: Any = None) -> Poly:
    a_arr = np.asarray(a_hat)
    b_arr = np.asarray(b_hat)
    if a_arr.ndim < 2 or b_arr.ndim < 2 or a_arr.shape[-1] != N or b_arr.shape[-1] != N:
        raise ValueError("basemul_acc expects (..., k, 256) arrays")
    shape = np.broadcast_shapes(a_arr.shape, b_arr.shape)
    a_b = np.broadcast_to(a_arr, shape).reshape(-1, shape[-2], N)
    b_b = np.broadcast_to(b_arr, shape).reshape(-1, shape[-2], N)
    if cache is not None:
        # The cache is only a speed-up; ref recomputes and checks it agrees.
        c_arr = np.broadcast_to(np.asarray(cache), (*shape[:-1], 128)).reshape(-1, shape[-2], 128)
    out: list[list[int]] = []
    for row in range(a_b.shape[0]):
        acc = [0] * N
        for j in range(shape[-2]):
            a = [int(x) for x in a_b[row, j]]
            b = [int(x) for x in b_b[row, j]]
            for i in range(128):
                if cache is not None and int(c_arr[row, j, i]) != b[2 * i + 1] * GAMMAS[i] % Q:
                    raise ValueError("mulcache does not belong to b_hat")
                c0, c1 = _base_case_multiply(
                    a[2 * i], a[2 * i + 1], b[2 * i], b[2 * i + 1], GAMMAS[i]
                )
                acc[2 * i] = (acc[2 * i] + c0) % Q
                acc[2 * i + 1] = (acc[2 * i + 1] + c1) % Q
        out.append(acc)
    return _out(out, shape[:-2], N, np.int64)  # type: ignore[no-any-return]


# --- FIPS 203, Algorithm 7 (SampleNTT), lines 4-16: rejection from XOF bytes --------


def rej_uniform(buf: npt.NDArray[np.uint8]) -> tuple[Poly, npt.NDArray[np.int64]]:
    arr = np.asarray(buf)
    if arr.ndim == 0 or arr.shape[-1] % 3:
        raise ValueError(f"rej_uniform needs (..., 3 m) bytes, got shape {arr.shape}")
    rows, lead = _rows(arr, arr.shape[-1])
    coeffs: list[list[int]] = []
    counts: list[int] = []
    for C in rows:
        a_hat: list[int] = []
        pos = 0
        while len(a_hat) < N and pos + 3 <= len(C):
            d1 = C[pos] + 256 * (C[pos + 1] % 16)
            d2 = C[pos + 1] // 16 + 16 * C[pos + 2]
            if d1 < Q:
                a_hat.append(d1)
            if d2 < Q and len(a_hat) < N:
                a_hat.append(d2)
            pos += 3
        counts.append(len(a_hat))
        coeffs.append(a_hat + [0] * (N - len(a_hat)))
    return (
        _out(coeffs, lead, N, np.int64),
        np.array(counts, dtype=np.int64).reshape(lead),
    )


# --- FIPS 203, Algorithm 8 (SamplePolyCBD) -------------------------------------------


def _bytes_to_bits(b: Sequence[int]) -> list[int]:
    """FIPS 203, Algorithm 4 (BytesToBits)."""
    bits = []
    for byte in b:
        for _ in range(8):
            bits.append(byte % 2)
            byte //= 2
    return bits


def cbd(buf: npt.NDArray[np.uint8], eta: int) -> Poly:
    rows, lead = _rows(buf, 64 * eta)
    out = []
    for B in rows:
        b = _bytes_to_bits(B)
        f = []
        for i in range(N):
            x = sum(b[2 * i * eta + j] for j in range(eta))
            y = sum(b[2 * i * eta + eta + j] for j in range(eta))
            f.append((x - y) % Q)
        out.append(f)
    return _out(out, lead, N, np.int64)  # type: ignore[no-any-return]


# --- FIPS 203, Algorithms 5 and 6 (ByteEncode_d, ByteDecode_d) -----------------------


def byte_encode(f: Poly, d: int) -> npt.NDArray[np.uint8]:
    rows, lead = _rows(f, N)
    out = []
    for F in rows:
        b = [0] * (N * d)
        for i in range(N):
            a = F[i]
            for j in range(d):
                b[i * d + j] = a % 2
                a = (a - b[i * d + j]) // 2
        # FIPS 203, Algorithm 3 (BitsToBytes)
        B = [0] * (32 * d)
        for i in range(N * d):
            B[i // 8] += b[i] * 2 ** (i % 8)
        out.append(B)
    return _out(out, lead, 32 * d, np.uint8)  # type: ignore[no-any-return]


def byte_decode(b: npt.NDArray[np.uint8], d: int) -> Poly:
    rows, lead = _rows(b, 32 * d)
    m = 2**d if d < 12 else Q
    out = []
    for B in rows:
        bits = _bytes_to_bits(B)
        out.append([sum(bits[i * d + j] * 2**j for j in range(d)) % m for i in range(N)])
    return _out(out, lead, N, np.int64)  # type: ignore[no-any-return]


# --- FIPS 203 §4.2.1 (Compress_d, Decompress_d) --------------------------------------


def compress(f: Poly, d: int) -> Poly:
    # Compress_d(x) = round((2^d / q) * x) mod 2^d, rounding half up, on exact rationals.
    return _per_poly(lambda F: [((x * 2**d * 2 + Q) // (2 * Q)) % 2**d for x in F], f)


def decompress(y: Poly, d: int) -> Poly:
    # Decompress_d(y) = round((q / 2^d) * y), rounding half up.
    return _per_poly(lambda Y: [(y * Q * 2 + 2**d) // 2 ** (d + 1) for y in Y], y)


# --- addition mod q (FIPS 203, Algorithm 13 line 18 and wherever the text adds) -----


def add(a: Poly, b: Poly) -> Poly:
    """(a + b) mod q, element by element."""
    x, y = np.broadcast_arrays(np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64))
    if x.ndim == 0 or x.shape[-1] != N:
        raise ValueError(f"expected arrays of shape (..., {N}), got {x.shape}")
    return _per_poly(lambda r: [v % Q for v in r], x + y)


KERNELS: dict[str, Any] = kernel_table(MLKEMKernels, globals())
