"""ML-DSA's kernel contract (FIPS 204): the kernels every arithmetic backend
provides (:class:`MLDSAKernels`) and the optional whole operations
(:class:`MLDSAOperations`). The shared rules of every contract are in
:mod:`pqkit.arith.api`.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from pqkit.arith.api import Poly

__all__ = ["MLDSAKernels", "MLDSAOperations"]


class MLDSAKernels(Protocol):
    """Kernels for q = 8380417 (FIPS 204; also Dilithium 3.1 and Dilithium-AES).

    Domains: "canonical" means int64 in [0, q); "signed" means the centred
    representative the FIPS text uses (r0 of Power2Round / Decompose, small secret
    coefficients). Every kernel accepts leading batch axes and broadcasts them.
    Rejection samplers take the XOF/stream output as a uint8 array and report how
    many samples they found, so the caller can ask for a longer prefix when a row
    ran short (the stream output is a prefix-stable function of its length).
    """

    backend: str

    def ntt(self, a: Poly) -> Poly:
        """FIPS 204, Algorithm 41 (NTT): (..., 256) ints in (-q, q) -> canonical NTT
        domain (bit-reversed order)."""
        ...

    def intt(self, a_hat: Poly) -> Poly:
        """FIPS 204, Algorithm 42 (NTT^-1), including the factor 256^-1: NTT domain
        in (-q, q) -> canonical coefficients."""
        ...

    def pointwise_mul(self, a_hat: Poly, b_hat: Poly) -> Poly:
        """FIPS 204, Algorithm 45 (MultiplyNTT): canonical a_hat * b_hat mod q,
        element by element, with broadcasting."""
        ...

    def pointwise_acc(self, a_hat: Poly, b_hat: Poly) -> Poly:
        """Sum over axis -2 of ``a_hat * b_hat`` mod q (FIPS 204 §2.5 matrix-vector
        product in the NTT domain): (..., m, 256) x (..., m, 256) -> (..., 256),
        canonical in and out."""
        ...

    def power2round(self, r: Poly) -> tuple[Poly, Poly]:
        """FIPS 204, Algorithm 35 (Power2Round) with d = 13: canonical r ->
        (r1 in [0, 2^10), r0 signed in (-2^12, 2^12])."""
        ...

    def decompose(self, r: Poly, gamma2: int) -> tuple[Poly, Poly]:
        """FIPS 204, Algorithm 36 (Decompose): canonical r -> (r1 = HighBits(r),
        r0 = LowBits(r) signed in (-gamma2, gamma2]), including the r+ - r0 = q - 1
        case."""
        ...

    def make_hint(self, z: Poly, r: Poly, gamma2: int) -> Poly:
        """FIPS 204, Algorithm 39 (MakeHint): 1 where HighBits(r) != HighBits(r + z),
        else 0 (int64); z and r canonical."""
        ...

    def use_hint(self, h: Poly, r: Poly, gamma2: int) -> Poly:
        """FIPS 204, Algorithm 40 (UseHint): h in {0, 1}, canonical r -> adjusted
        high bits in [0, (q - 1) / (2 gamma2))."""
        ...

    def mod_q(self, x: Poly) -> Poly:
        """x mod q, canonical, for int64 x in (-q, 2q) (a sum or difference of two
        canonical values). Secret inputs: constant time."""
        ...

    def centre(self, x: Poly) -> Poly:
        """x mod± q (FIPS 204 §2.3): canonical x -> the representative in
        [-(q - 1) / 2, (q - 1) / 2]. Secret inputs: constant time."""
        ...

    def infinity_norm(self, a: Poly) -> npt.NDArray[np.int64]:
        """FIPS 204 §2.3 infinity norm per polynomial: (..., 256) ints in (-q, q)
        -> (...,) max ``|a mod± q|``. The caller compares it with the bound (the norm
        checks of Algorithms 7 and 8)."""
        ...

    def rej_uniform(self, buf: npt.NDArray[np.uint8]) -> tuple[Poly, npt.NDArray[np.int64]]:
        """FIPS 204, Algorithm 30 (RejNTTPoly) over a stream prefix: (..., 3n) bytes
        -> (canonical (..., 256), count (...,)) where count (capped at 256) says how
        many coefficients were found; a row is complete when count == 256."""
        ...

    def rej_bounded(
        self, buf: npt.NDArray[np.uint8], eta: int
    ) -> tuple[Poly, npt.NDArray[np.int64]]:
        """FIPS 204, Algorithm 31 (RejBoundedPoly) over a stream prefix: (..., n)
        bytes -> (signed coefficients in [-eta, eta] (..., 256), count (...,))."""
        ...

    def sample_in_ball(
        self, stream: npt.NDArray[np.uint8], tau: int
    ) -> tuple[Poly, npt.NDArray[np.bool_]]:
        """FIPS 204, Algorithm 29 (SampleInBall) given H(rho) as a (..., n) byte
        prefix: -> (c signed in {-1, 0, 1} (..., 256), ok (...,)); ok is False where
        the prefix ran out (ask for a longer one)."""
        ...

    def bit_pack(self, a: Poly, width: int) -> npt.NDArray[np.uint8]:
        """FIPS 204, Algorithm 16 (SimpleBitPack): (..., 256) ints in [0, 2^width)
        -> (..., 32 * width) bytes, little-endian bit order."""
        ...

    def bit_unpack(self, b: npt.NDArray[np.uint8], width: int) -> Poly:
        """FIPS 204, Algorithm 18 (SimpleBitUnpack): (..., 32 * width) bytes ->
        (..., 256) int64 in [0, 2^width)."""
        ...

    # --- composites (pqkit.mldsa.kernels.compose: written once over the primitives) ---

    def challenge_prepare(self, small: Poly) -> Any:
        """The secret short polynomials of a key (m, 256), signed (s1 || s2 || t0,
        FIPS 204, Algorithm 7 lines 2-5), in the form :meth:`challenge_mul` takes
        (opaque; default, composed: their NTT). Secret inputs: constant time."""
        ...

    def challenge_mul(self, c: Poly, prepared: Any) -> Poly:
        """Algorithm 7 lines 19-24's products <<c s>>: (b, 256) challenges c in
        {-1, 0, 1} (SampleInBall) times each polynomial s of ``prepared``
        (:meth:`challenge_prepare`) in R_q -> (b, m, 256) int64, centred (each
        product coefficient is at most tau * max|s| < (q - 1) / 2 in absolute value,
        so this is the product in Z[X]/(X^256 + 1)). Default (composed): ntt,
        pointwise_mul, intt, centre. Secret inputs: constant time."""
        ...


class MLDSAOperations(Protocol):
    """Whole ML-DSA operations (FIPS 204, Algorithms 6-8) in one call each, for a
    backend that can run them as a unit (``jit``: :mod:`pqkit.mldsa.kernels.jit_ops`),
    with the SHAKE suite (FIPS 204 §3.7; round-3 Dilithium's SHAKE variant shares
    them through its parameters). Optional, like :class:`MLKEMOperations`: their
    reference twin is the step-by-step code of :mod:`pqkit.mldsa.core`, and every
    result must equal it byte for byte. Arguments are trusted (checked by the scheme
    object); ``A_hat`` is the read-only (k, l, 256) int64 ExpandA(rho) of the key.
    """

    backend: str

    def mldsa_expand_a(self, rho: bytes, k: int, l: int) -> npt.NDArray[np.int64]:  # noqa: E741
        """FIPS 204, Algorithm 32 (ExpandA): A_hat (k, l, 256), canonical, read-only."""
        ...

    def mldsa_keygen_internal(
        self,
        xi: bytes,
        k: int,
        l: int,  # noqa: E741
        eta: int,
        eta_bits: int,
        domain: bool,
        tr_bytes: int,
    ) -> tuple[bytes, bytes]:
        """FIPS 204, Algorithm 6 (ML-DSA.KeyGen_internal): (pk, sk) from the 32-byte
        xi; ``domain`` appends k and l to xi before H (FIPS 204; round 3 does not);
        tr is H(pk, tr_bytes). Secret inputs: xi."""
        ...

    def mldsa_check_secret(
        self,
        sk: bytes,
        A_hat: npt.NDArray[np.int64],
        k: int,
        l: int,  # noqa: E741
        eta: int,
        eta_bits: int,
        tr_bytes: int,
    ) -> tuple[int, bytes]:
        """The consistency check of an encoded secret key of the right length
        (:func:`pqkit.mldsa.core.public_key_from_secret`): (failed, pk) with failed 0
        when it passes, else the first check that failed: 1 an s1 / s2 coefficient
        outside [-eta, eta] (skDecode), 2 t0 is not Power2Round(A s1 + s2)'s low
        part, 3 tr is not H(pk); pk = pkEncode(rho, t1) (meaningless unless 0).
        Secret inputs: sk; only the verdict leaves."""
        ...

    def mldsa_sign_internal(
        self,
        sk: bytes,
        A_hat: npt.NDArray[np.int64],
        mu: bytes,
        rho_pp: bytes,
        eta: int,
        tau: int,
        gamma1: int,
        gamma2: int,
        omega: int,
        c_tilde_bytes: int,
        tr_bytes: int,
        max_attempts: int,
    ) -> bytes | None:
        """FIPS 204, Algorithm 7 (ML-DSA.Sign_internal) from line 7 on: the encoded,
        already validated secret key, mu and rho'' -> sigma, or None when
        ``max_attempts`` attempts were all rejected. Attempt i uses kappa = i l; the
        checks of an attempt are combined into one accept bit before any branch.
        Secret inputs: sk, rho'' (and everything of a rejected attempt)."""
        ...

    def mldsa_sign(
        self,
        sk: bytes,
        A_hat: npt.NDArray[np.int64] | None,
        m_prime: bytes,
        rnd: bytes,
        check: bool,
        eta: int,
        eta_bits: int,
        tau: int,
        gamma1: int,
        gamma2: int,
        omega: int,
        c_tilde_bytes: int,
        tr_bytes: int,
        max_attempts: int,
        k: int,
        l: int,  # noqa: E741
    ) -> tuple[int, bytes | None, npt.NDArray[np.int64]]:
        """FIPS 204, Algorithm 7 (ML-DSA.Sign_internal) whole, on M' and rnd: the
        encoded secret key's consistency check when ``check`` (as
        :meth:`mldsa_check_secret`), mu = H(tr || M', 64), rho'' = H(K || rnd || mu,
        64) and, when ``A_hat`` is None, ExpandA(rho), inside; then as
        :meth:`mldsa_sign_internal`. Returns (failed: the check's code, 0 when it
        passed or did not run, and then no signature; sigma or None after
        ``max_attempts`` rejected attempts; A_hat, read-only: the one given or the
        one expanded, for the caller's cache). Secret inputs: sk, rnd."""
        ...

    def mldsa_verify_internal(
        self,
        pk: bytes,
        A_hat: npt.NDArray[np.int64],
        mu: bytes,
        sig: bytes,
        tau: int,
        gamma1: int,
        gamma2: int,
        omega: int,
        c_tilde_bytes: int,
        beta: int,
    ) -> bool:
        """FIPS 204, Algorithm 8 (ML-DSA.Verify_internal) from line 2 on, mu given:
        whether sig (of the right length) is valid for pk; False for a malformed
        hint (Algorithm 21) or a z over the bound."""
        ...

    def mldsa_verify(
        self,
        pk: bytes,
        A_hat: npt.NDArray[np.int64] | None,
        m_prime: bytes,
        sig: bytes,
        tau: int,
        gamma1: int,
        gamma2: int,
        omega: int,
        c_tilde_bytes: int,
        beta: int,
        tr_bytes: int,
        k: int,
        l: int,  # noqa: E741
    ) -> tuple[bool, npt.NDArray[np.int64]]:
        """FIPS 204, Algorithm 8 (ML-DSA.Verify_internal) whole, on M': tr = H(pk),
        mu = H(tr || M', 64) and, when ``A_hat`` is None, ExpandA(rho) hashed inside.
        Returns (whether sig, of the right length, is valid for pk; A_hat, read-only:
        the one given or the one expanded, for the caller's cache)."""
        ...
