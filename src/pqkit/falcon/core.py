"""Falcon's signing and verification on polynomials (round-3 specification v1.2,
§3.7-§3.10), over a kernel table (``kernels/contract.py``).

- :func:`hash_to_point`: HashToPoint (§3.7, Algorithm 3), SHAKE256 of nonce || message;
- :func:`sign_attempt`: Sign (§3.10, Algorithm 10) lines 3-9 for one sampler key:
  the basis and Gram matrix in the FFT domain, the target, ffSampling, the norm check;
- :func:`verify_raw`: Verify (Algorithm 16) lines 5-7, integers only;
- :func:`complete_private`: G from (f, g, F) (f G - g F = q), since the secret key
  holds only f, g and F.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit import common
from pqkit.falcon.kernels.tables import INV_Q, L2BOUND, Q
from pqkit.falcon.prng import ChaChaPrng

__all__ = ["complete_private", "hash_to_point", "sign_attempt", "verify_raw"]

Ints = npt.NDArray[np.int64]


def hash_to_point(nonce: bytes, message: bytes, n: int) -> Ints:
    """HashToPoint (§3.7, Algorithm 3): 16-bit big-endian draws below 5q, reduced
    mod q. The rejection depends on public data only (nonce and message)."""
    xof = common.shake256(nonce + message)
    parts: list[Ints] = []
    have = 0
    while have < n:
        w = np.frombuffer(xof.read(2 * (n - have) + 64), dtype=">u2").astype(np.int64)
        w = w[w < 5 * Q]
        parts.append(w)
        have += len(w)
    return np.concatenate(parts)[:n] % Q


def sign_attempt(
    k: Any,
    f: Ints,
    g: Ints,
    F: Ints,
    G: Ints,
    hm: Ints,
    prng: ChaChaPrng,
    logn: int,
    sigma_min: float,
) -> Ints | None:
    """One pass of Sign (§3.10, Algorithm 10 lines 3-9) in the reference's
    operation order: s2, or None when ||(s1, s2)||^2 exceeds floor(beta^2)."""
    b00 = k.fft(g.astype(np.float64))
    b01 = k.poly_neg(k.fft(f.astype(np.float64)))
    b10 = k.fft(G.astype(np.float64))
    b11 = k.poly_neg(k.fft(F.astype(np.float64)))
    g00 = k.poly_add(k.poly_mulselfadj(b00), k.poly_mulselfadj(b01))
    g01 = k.poly_add(k.poly_muladj(b01, b11), k.poly_muladj(b00, b10))
    g11 = k.poly_add(k.poly_mulselfadj(b10), k.poly_mulselfadj(b11))
    th = k.fft(hm.astype(np.float64))
    t1 = k.poly_mulconst(k.poly_mul(th, b01), -INV_Q)
    t0 = k.poly_mulconst(k.poly_mul(th, b11), INV_Q)
    z0, z1 = k.ff_sampling(prng, (t0, t1), (g00, g01, g11), logn, sigma_min)
    r0 = k.ifft(k.poly_add(k.poly_mul(z0, b00), k.poly_mul(z1, b10)))
    r1 = k.ifft(k.poly_add(k.poly_mul(z1, b11), k.poly_mul(z0, b01)))
    s1 = hm - np.rint(r0).astype(np.int64)  # rint: half to even, as the reference
    s2 = -np.rint(r1).astype(np.int64)
    if int(s1 @ s1) + int(s2 @ s2) > L2BOUND[logn]:
        return None
    out: Ints = s2
    return out


def verify_raw(k: Any, hm: Ints, s2: Ints, h: Ints, logn: int) -> bool:
    """Verify (§3.10, Algorithm 16 lines 5-7): s1 = c - s2 h mod q, centred, and
    ||(s1, s2)||^2 <= floor(beta^2). Integers only (the NTT modulo q)."""
    s1 = (hm - k.ntt_mul(s2 % Q, h)) % Q
    s1 = s1 - Q * (s1 > Q >> 1)
    return int(s1 @ s1) + int(s2 @ s2) <= L2BOUND[logn]


def complete_private(k: Any, f: Ints, g: Ints, F: Ints) -> Ints | None:
    """G = g F / f mod q, centred (f G - g F = q, and q = 0 mod q); None if f is not
    invertible mod q or a coefficient of G falls outside [-127, 127] (then the
    input is not a Falcon key)."""
    gF = k.ntt_mul(g % Q, F % Q)
    G, ok = k.ntt_div(gF, f % Q)
    G = G - Q * (G > Q >> 1)
    if not ok or bool(np.any(np.abs(G) > 127)):
        return None
    out: Ints = G
    return out
