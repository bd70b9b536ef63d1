"""Falcon's kernel contract (round-3 specification v1.2): the kernels every
arithmetic backend provides (:class:`FalconKernels`). The shared rules of every
contract are in :mod:`pqkit.arith.api`.

Domains: a real polynomial is a float64 array of its n = 2^logn coefficients; an
FFT-domain polynomial (§3.7.1) is a float64 array of n values, the n/2 real parts
then the n/2 imaginary parts, in bit-reversed order. Integer polynomials modulo q
are int64 arrays in [0, q). Kernels never modify their inputs.

Bit-exactness is part of the contract: every floating-point kernel performs the
IEEE-754 binary64 operations of the specification's reference implementation in
its order (no fused multiply-add, no reassociation), so every backend gives the
``ref`` backend's bits (tests/test_falcon_kernels.py).

Secret inputs: the FFT-domain polynomials of signing (the basis, the Gram matrix,
the target) and the sampler's state. Public: the NTT inputs of verification.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
import numpy.typing as npt

from pqkit.falcon.prng import ChaChaPrng

__all__ = ["FalconKernels", "FloatPoly", "Gram", "IntPoly", "Target"]

FloatPoly = npt.NDArray[np.float64]
IntPoly = npt.NDArray[np.int64]
Target = tuple[FloatPoly, FloatPoly]
"""ffSampling's target (t0, t1), FFT domain."""
Gram = tuple[FloatPoly, FloatPoly, FloatPoly]
"""The Gram matrix [[g00, g01], [adj(g01), g11]] as (g00, g01, g11), FFT domain."""


class FalconKernels(Protocol):
    """Kernels for Falcon (q = 12289, n = 512 or 1024)."""

    backend: str

    def fft(self, a: FloatPoly) -> FloatPoly:
        """FFT (§3.7.1): n real coefficients -> FFT domain."""
        ...

    def ifft(self, a: FloatPoly) -> FloatPoly:
        """Inverse FFT: FFT domain -> n real coefficients (with the factor 2/n)."""
        ...

    def poly_add(self, a: FloatPoly, b: FloatPoly) -> FloatPoly:
        """a + b, element by element."""
        ...

    def poly_neg(self, a: FloatPoly) -> FloatPoly:
        """-a."""
        ...

    def poly_mulconst(self, a: FloatPoly, c: float) -> FloatPoly:
        """a * c, element by element."""
        ...

    def poly_mul(self, a: FloatPoly, b: FloatPoly) -> FloatPoly:
        """a * b in the FFT domain (complex products, the reference's formula)."""
        ...

    def poly_muladj(self, a: FloatPoly, b: FloatPoly) -> FloatPoly:
        """a * adj(b) in the FFT domain."""
        ...

    def poly_mulselfadj(self, a: FloatPoly) -> FloatPoly:
        """a * adj(a) in the FFT domain (the imaginary half is zero)."""
        ...

    def ff_sampling(
        self, prng: ChaChaPrng, target: Target, gram: Gram, logn: int, sigma_min: float
    ) -> tuple[FloatPoly, FloatPoly]:
        """ffSampling (§3.9.2, Algorithm 11) on the Gram matrix ``gram`` and the
        target ``target`` (FFT domain), with SamplerZ
        (Algorithm 15: BaseSampler, BerExp) reading ``prng``, which it advances.
        Returns (z0, z1) in the FFT domain. Secret: everything."""
        ...

    def ntt_mul(self, a: IntPoly, b: IntPoly) -> IntPoly:
        """a * b modulo (q, x^n + 1); canonical in and out. Public in verification,
        secret when the signing key is completed (G = g F / f)."""
        ...

    def ntt_div(self, a: IntPoly, b: IntPoly) -> tuple[IntPoly, bool]:
        """(a / b modulo (q, x^n + 1), whether b is invertible); canonical in and
        out. The inverse is b^(q - 2) in the NTT domain (a fixed exponent chain: no
        branch on the values); the quotient is meaningless when b is not
        invertible. Secret: both (the signing key's f and g F)."""
        ...
