"""K-PKE, the CPA-secure public-key encryption under ML-KEM and round-3 Kyber.

FIPS 203 §5 (Algorithms 13-15), written against a :class:`SuiteOps` (the
suite: SHA-3 for ML-KEM and Kyber, SHA-2/AES for Kyber-90s) and a kernel table
(:mod:`pqkit.arith`), so every variant shares this code. Vectors and matrices are
single arrays: a k-vector is (k, 256), the matrix A_hat is (k, k, 256).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.arith.api import Poly
from pqkit.mlkem.kernels.contract import MLKEMKernels
from pqkit.mlkem.params import Params, Q
from pqkit.mlkem.symmetric import SHAKE128_XOF_BYTES, SuiteOps

__all__ = [
    "XOF_BYTES",
    "decode_t_hat",
    "decrypt",
    "encrypt",
    "encrypt_prf",
    "expand_matrix",
    "keygen",
]

XOF_BYTES = SHAKE128_XOF_BYTES
"""The first XOF read per matrix entry of ML-KEM and Kyber (SHAKE128), for tools that
report it; :func:`expand_matrix` uses the suite's own ``ops.xof_bytes``."""


def _u8(data: bytes) -> npt.NDArray[np.uint8]:
    return np.frombuffer(data, dtype=np.uint8)


def decode_t_hat(K: MLKEMKernels, ek: bytes, k: int) -> tuple[Poly, bool]:
    """t_hat = ByteDecode_12(ek[:384 k]) (FIPS 203, Algorithm 14 line 2) and whether
    ek passes the §7.2 modulus check ByteEncode_12(ByteDecode_12(ek[:384 k])) ==
    ek[:384 k].

    ByteDecode_12 reduces each 12-bit field mod q, and ByteEncode_12 is injective on
    [0, 4096): so the check holds exactly when every field is already below q, which
    is tested on the fields themselves (little-endian 16-bit reads at bytes 3i and
    3i + 1 of each triple: b0 + 256 (b1 mod 16) and floor(b1 / 16) + 16 b2), without
    encoding t_hat again. ek is public, so the fields are read here directly (the
    same values as ``K.byte_decode(., 12)``, a few NumPy calls) and reduced only when
    the check fails (that key is refused by encapsulation; decapsulation, which does
    not run the check, still needs t_hat mod q)."""
    raw = np.frombuffer(ek, dtype=np.uint8, count=384 * k)
    low = np.ndarray((k, 128), dtype="<u2", buffer=raw, offset=0, strides=(384, 3))
    high = np.ndarray((k, 128), dtype="<u2", buffer=raw, offset=1, strides=(384, 3))
    fields = np.empty((k, 128, 2), dtype=np.int64)
    np.bitwise_and(low, 0xFFF, out=fields[..., 0])
    np.right_shift(high, 4, out=fields[..., 1])
    t_hat: Poly = fields.reshape(k, 256)
    ok = bool(t_hat.max() < Q)
    if not ok:  # public: each field is below 4096 < 2 q
        t_hat -= (t_hat >= Q) * Q
    return t_hat, ok


def expand_matrix(ops: SuiteOps, K: MLKEMKernels, rho: bytes, k: int) -> Poly:
    """A_hat (k, k, 256) with A_hat[i, j] = SampleNTT(rho || j || i).

    FIPS 203, Algorithm 13 (K-PKE.KeyGen) lines 3-7 and Algorithm 7 (SampleNTT):
    one batched XOF call for all k^2 entries (``ops.xof_bytes`` bytes each), then
    vectorised rejection sampling on that public output.
    """
    buf = ops.xof_matrix(rho, k, ops.xof_bytes)
    a_hat, counts = K.rej_uniform(buf)
    if min(counts.tolist()) < 256:
        # NOTE: SampleNTT reads the XOF until 256 values are accepted; here a short
        # entry is re-sampled from a longer prefix of the same XOF stream, which
        # gives the same values.
        a_hat = np.array(a_hat)
        for row in np.flatnonzero(counts < 256):
            i, j = divmod(int(row), k)
            n = ops.xof_bytes
            while True:
                n *= 2
                entry, count = K.rej_uniform(ops.xof_entry(rho, i, j, n))
                if int(count) == 256:
                    a_hat[row] = entry
                    break
    return a_hat.reshape(k, k, 256)


def encrypt_prf(
    ops: SuiteOps, r: bytes, eta1: int, eta2: int, k: int
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """FIPS 203, Algorithm 14 lines 9-17, the PRF calls: PRF_eta1(r, N) for N = 0 ..
    k - 1 (y) and PRF_eta2(r, N) for N = k .. 2k (e1, then e2), as uint8 (k, 64 eta1)
    and (k + 1, 64 eta2) arrays: views of one batched call of the longer width. Each
    PRF output is a prefix of its stream (SHAKE256, or an AES-CTR keystream for
    Kyber-90s), so PRF_eta2(r, N) is the first 64 eta2 bytes of the longer read."""
    block = ops.prf_many(max(eta1, eta2), r, range(2 * k + 1))
    return block[:k, : 64 * eta1], block[k:, : 64 * eta2]


def keygen(
    params: Params, ops: SuiteOps, K: MLKEMKernels, d: bytes, *, append_k: bool
) -> tuple[bytes, bytes]:
    """FIPS 203, Algorithm 13 (K-PKE.KeyGen): (ek_PKE, dk_PKE) from the seed d.

    ``append_k``: line 1 hashes d || k (FIPS 203); round-3 Kyber hashes d alone.
    """
    k = params.k
    rho, sigma = ops.G(d + bytes([k]) if append_k else d)  # line 1
    A_hat = expand_matrix(ops, K, rho, k)  # lines 3-7
    prf = ops.prf_many(params.eta1, sigma, range(2 * k))  # lines 8-15: s, then e
    # Lines 8-20 in one kernel call: s, e = SamplePolyCBD(prf); s_hat = NTT(s),
    # e_hat = NTT(e), t_hat = A_hat o s_hat + e_hat; ByteEncode_12 of t_hat (then
    # rho) and of s_hat.
    encoded = K.kpke_keygen(A_hat, prf)
    ek = encoded[:k].tobytes() + rho  # line 19
    dk = encoded[k:].tobytes()  # line 20
    return ek, dk


def encrypt(
    params: Params,
    ops: SuiteOps,
    K: MLKEMKernels,
    ek: bytes,
    m: bytes,
    r: bytes,
    t_hat: Poly | None = None,
    A_hat: Poly | None = None,
    rows: tuple[Poly, Any] | None = None,
) -> bytes:
    """FIPS 203, Algorithm 14 (K-PKE.Encrypt): ciphertext of the 32-byte m with
    randomness r under ek (already length-checked by the caller). ``t_hat`` is
    ByteDecode_12 of ek's first 384 k bytes and ``A_hat`` the matrix of lines 4-8,
    when the caller has them already (a decoded key); ``rows`` is then
    (encrypt_rows(t_hat, A_hat), K.kpke_cache of it) when the caller has that too."""
    k = params.k
    if t_hat is None:
        t_hat = K.byte_decode(_u8(ek[: 384 * k]).reshape(k, 384), 12)  # line 2
    if A_hat is None:
        rho = ek[384 * k :]  # line 3
        A_hat = expand_matrix(ops, K, rho, k)  # lines 4-8
    # Lines 9-17: the PRF outputs for y (eta1) and for e1, e2 (eta2), nonces 0 .. 2k.
    prf_y, prf_e = encrypt_prf(ops, r, params.eta1, params.eta2, k)
    # Lines 9-24 in one kernel call: y, e1, e2 = SamplePolyCBD(.); y_hat = NTT(y);
    # u = NTT^-1(A_hat^T o y_hat) + e1; mu = Decompress_1(ByteDecode_1(m));
    # v = NTT^-1(t_hat^T o y_hat) + e2 + mu; c1 = ByteEncode_du(Compress_du(u));
    # c2 = ByteEncode_dv(Compress_dv(v)).
    rows_, rows_cache = rows if rows is not None else (None, None)
    c = K.kpke_encrypt(t_hat, A_hat, prf_y, prf_e, _u8(m), params.du, params.dv, rows_, rows_cache)
    return c.tobytes()  # line 24: c1 || c2


def decrypt(
    params: Params,
    K: MLKEMKernels,
    dk: bytes,
    c: bytes,
    decoded: tuple[Poly, Any] | None = None,
) -> bytes:
    """FIPS 203, Algorithm 15 (K-PKE.Decrypt): the 32-byte message of c under dk.

    Lines 1-7 in one kernel call: c1, c2 = c; u' = Decompress_du(ByteDecode_du(c1));
    v' = Decompress_dv(ByteDecode_dv(c2)); s_hat = ByteDecode_12(dk_PKE);
    w = v' - NTT^-1(s_hat^T o NTT(u')); m = ByteEncode_1(Compress_1(w)). ``decoded``:
    (s_hat, K.kpke_cache(s_hat)) of dk when the caller has them (a decoded key)."""
    s_hat, s_cache = decoded if decoded is not None else (None, None)
    m = K.kpke_decrypt(_u8(dk), _u8(c), params.k, params.du, params.dv, s_hat, s_cache)
    return m.tobytes()
