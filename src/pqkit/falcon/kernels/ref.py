"""Falcon's ``ref`` kernels: the readable oracle. Each kernel converts to Python
lists and runs :mod:`pqkit.falcon.kernels.scalar` (plain binary64 floats, the
reference implementation's order of operations)."""

from __future__ import annotations

from typing import Any

import numpy as np

from pqkit.arith.api import kernel_table
from pqkit.falcon.kernels import scalar as S
from pqkit.falcon.kernels.contract import FalconKernels, FloatPoly, Gram, IntPoly, Target
from pqkit.falcon.prng import ChaChaPrng

__all__ = ["KERNELS"]


def _f(a: list[float]) -> FloatPoly:
    return np.array(a, dtype=np.float64)


def fft(a: FloatPoly) -> FloatPoly:
    return _f(S.fft(a.tolist()))


def ifft(a: FloatPoly) -> FloatPoly:
    return _f(S.ifft(a.tolist()))


def poly_add(a: FloatPoly, b: FloatPoly) -> FloatPoly:
    return _f(S.poly_add(a.tolist(), b.tolist()))


def poly_neg(a: FloatPoly) -> FloatPoly:
    return _f(S.poly_neg(a.tolist()))


def poly_mulconst(a: FloatPoly, c: float) -> FloatPoly:
    return _f(S.poly_mulconst(a.tolist(), float(c)))


def poly_mul(a: FloatPoly, b: FloatPoly) -> FloatPoly:
    return _f(S.poly_mul(a.tolist(), b.tolist()))


def poly_muladj(a: FloatPoly, b: FloatPoly) -> FloatPoly:
    return _f(S.poly_muladj(a.tolist(), b.tolist()))


def poly_mulselfadj(a: FloatPoly) -> FloatPoly:
    return _f(S.poly_mulselfadj(a.tolist()))


def ff_sampling(
    prng: ChaChaPrng, target: Target, gram: Gram, logn: int, sigma_min: float
) -> tuple[FloatPoly, FloatPoly]:
    t0, t1 = (a.tolist() for a in target)
    g00, g01, g11 = (a.tolist() for a in gram)
    z0, z1 = S.ff_sampling(prng, (t0, t1), (g00, g01, g11), logn, sigma_min)
    return _f(z0), _f(z1)


def ntt_mul(a: IntPoly, b: IntPoly) -> IntPoly:
    return np.array(S.ntt_mul(a.tolist(), b.tolist()), dtype=np.int64)


def ntt_div(a: IntPoly, b: IntPoly) -> tuple[IntPoly, bool]:
    out, ok = S.ntt_div(a.tolist(), b.tolist())
    return np.array(out, dtype=np.int64), ok


KERNELS: dict[str, Any] = kernel_table(FalconKernels, globals())
