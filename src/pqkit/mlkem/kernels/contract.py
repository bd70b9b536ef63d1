"""ML-KEM's kernel contract (FIPS 203): the primitive and composite kernels every
arithmetic backend provides (:class:`MLKEMKernels`), the argument checks of the
fused K-PKE kernels, and the optional whole operations (:class:`MLKEMOperations`).
The shared rules of every contract are in :mod:`pqkit.arith.api`.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from pqkit.arith.api import Poly
from pqkit.arith.tables import N

__all__ = [
    "MLKEMKernels",
    "MLKEMOperations",
    "cbd_eta",
    "kpke_check",
    "kpke_decrypt_args",
    "kpke_encrypt_args",
    "kpke_keygen_args",
]


class MLKEMKernels(Protocol):
    """Kernels for q = 3329 (FIPS 203).

    Every polynomial argument is a ``(..., 256)`` integer array (any leading batch
    axes) with canonical coefficients in [0, q); every polynomial result is a new
    ``(..., 256)`` int64 array with canonical coefficients. Byte strings are uint8
    arrays ``(..., nbytes)``.
    """

    backend: str

    def ntt(self, f: Poly) -> Poly:
        """FIPS 203, Algorithm 9 (NTT): f (..., 256), normal domain -> f_hat in the NTT
        domain (bit-reversed order: pairs (f_hat[2i], f_hat[2i+1]) are residues
        mod X^2 - zeta^(2 BitRev7(i) + 1))."""
        ...

    def intt(self, f_hat: Poly) -> Poly:
        """FIPS 203, Algorithm 10 (NTT^-1): NTT domain (..., 256) -> normal domain,
        including the factor 128^-1."""
        ...

    def mulcache(self, b_hat: Poly) -> Any:
        """Precompute what :meth:`basemul_acc` needs of ``b_hat`` (..., k, 256, NTT
        domain) besides ``b_hat`` itself: the odd coefficients times their
        +-zeta^(2 BitRev7(i) + 1). Opaque; only valid with the same backend and the
        same ``b_hat``; broadcasts like ``b_hat``."""
        ...

    def basemul_acc(self, a_hat: Poly, b_hat: Poly, cache: Any | None = None) -> Poly:
        """The dot product in the NTT domain: sum over j of
        MultiplyNTTs(a_hat[..., j, :], b_hat[..., j, :]) (FIPS 203, Algorithm 11).

        ``a_hat`` and ``b_hat`` are (..., k, 256) and broadcast against each other
        (a (k, k, 256) matrix times a (k, 256) vector gives (k, 256)); the result
        has the broadcast shape without the k axis. ``cache`` is
        ``mulcache(b_hat)`` or None (computed on the fly); the accumulation is
        reduced once at the end.
        """
        ...

    def rej_uniform(self, buf: npt.NDArray[np.uint8]) -> tuple[Poly, npt.NDArray[np.int64]]:
        """FIPS 203, Algorithm 7 (SampleNTT) lines 4-16 on given XOF output.

        ``buf`` is uint8 (..., n) with n a multiple of 3 (public data). Returns
        ``(a_hat, count)``: a_hat (..., 256) holds the first min(count, 256)
        accepted 12-bit values (< q) in order, zeros after them; ``count`` (...)
        is the number accepted, capped at 256. A row with count < 256 needs more
        XOF output: the caller asks for a longer prefix and samples again.
        """
        ...

    def cbd(self, buf: npt.NDArray[np.uint8], eta: int) -> Poly:
        """FIPS 203, Algorithm 8 (SamplePolyCBD_eta): uint8 (..., 64 eta) -> (..., 256)
        with coefficients in [-eta, eta] given mod q (canonical). eta in {2, 3}."""
        ...

    def byte_encode(self, f: Poly, d: int) -> npt.NDArray[np.uint8]:
        """FIPS 203, Algorithm 5 (ByteEncode_d): (..., 256) with coefficients in
        [0, 2^d) (d < 12) or [0, q) (d = 12) -> uint8 (..., 32 d)."""
        ...

    def byte_decode(self, b: npt.NDArray[np.uint8], d: int) -> Poly:
        """FIPS 203, Algorithm 6 (ByteDecode_d): uint8 (..., 32 d) -> (..., 256) in
        [0, 2^d), or for d = 12 reduced mod q (so a non-canonical input does not
        survive ByteEncode_12(ByteDecode_12(.)): the §7.2 modulus check)."""
        ...

    def compress(self, f: Poly, d: int) -> Poly:
        """FIPS 203 §4.2.1 Compress_d: x -> round(2^d x / q) mod 2^d on (..., 256);
        d in 1..11. Result in [0, 2^d).

        The input may be lazily reduced: any 0 <= x < 4q is taken mod q (the
        result is the same, since round(2^d (x + q) / q) = round(2^d x / q) + 2^d),
        so callers may compress a sum of canonical terms without reducing it."""
        ...

    def decompress(self, y: Poly, d: int) -> Poly:
        """FIPS 203 §4.2.1 Decompress_d: y in [0, 2^d) -> round(q y / 2^d), canonical;
        d in 1..11."""
        ...

    def add(self, a: Poly, b: Poly) -> Poly:
        """(a + b) mod q element by element, canonical in and out, broadcasting the
        leading axes (the additions of FIPS 203, e.g. Algorithm 13 line 18).
        Secret inputs: constant time."""
        ...

    # Fused kernels: a whole K-PKE step in one call, so that a compiled backend pays
    # the per-call overhead once. Single key, no batch axes; k in 1..4.

    def kpke_cache(self, b_hat: Poly, reused: bool = False) -> Any:
        """What the fused K-PKE kernels take as ``s_cache`` / ``rows_cache`` for
        ``b_hat`` (s_hat, or the encryption rows): opaque, only valid with the same
        backend and the same ``b_hat``. ``reused``: the caller keeps it for many
        calls, so a backend may spend more time on a faster form. Default
        (composed): :meth:`mulcache`."""
        ...

    def kpke_decrypt(
        self,
        dk_pke: npt.NDArray[np.uint8],
        c: npt.NDArray[np.uint8],
        k: int,
        du: int,
        dv: int,
        s_hat: Poly | None = None,
        s_cache: Any = None,
    ) -> npt.NDArray[np.uint8]:
        """FIPS 203, Algorithm 15 (K-PKE.Decrypt) lines 1-7: dk_PKE, uint8 (384 k,),
        and c, uint8 (32 (du k + dv),) -> m, uint8 (32,). Equal to
        ByteEncode_1(Compress_1(v' - NTT^-1(s_hat^T o NTT(u')))) with
        u' = Decompress_du(ByteDecode_du(c1)), v' = Decompress_dv(ByteDecode_dv(c2)),
        s_hat = ByteDecode_12(dk_PKE). Secret inputs: dk_pke (and m, the result).
        ``s_hat`` and ``s_cache`` (``kpke_cache(s_hat)``), when given, are dk_pke
        already decoded (a backend may use them instead of decoding dk_pke).
        ValueError on wrong lengths or parameters."""
        ...

    def kpke_encrypt(
        self,
        t_hat: Poly,
        A_hat: Poly,
        prf_y: npt.NDArray[np.uint8],
        prf_e: npt.NDArray[np.uint8],
        m: npt.NDArray[np.uint8],
        du: int,
        dv: int,
        rows: Poly | None = None,
        rows_cache: Any = None,
    ) -> npt.NDArray[np.uint8]:
        """FIPS 203, Algorithm 14 (K-PKE.Encrypt) lines 9-24, after the hashing:
        t_hat (k, 256) and A_hat (k, k, 256) canonical, NTT domain, with A_hat[i, j]
        as Algorithm 13 builds it (line 19 uses its transpose); the PRF outputs
        prf_y, uint8 (k, 64 eta1), of nonces 0 .. k - 1 (y, lines 9-12) and prf_e,
        uint8 (k + 1, 64 eta2), of nonces k .. 2k (e1, then e2, lines 13-17), with
        eta1 and eta2 in {2, 3} read from their widths; m uint8 (32,) -> c = c1 ||
        c2, uint8 (32 (du k + dv),). Secret inputs: prf_y, prf_e, m. ``rows`` (A_hat^T
        stacked on t_hat^T, (k + 1, k, 256): :func:`pqkit.mlkem.kernels.compose.encrypt_rows`)
        and ``rows_cache`` (``kpke_cache(rows)``), when given, are that public data
        prepared already. Default (composed): cbd, then ntt, basemul_acc, intt,
        byte_decode, decompress, compress, byte_encode. ValueError on wrong shapes or
        parameters."""
        ...

    def kpke_keygen(self, A_hat: Poly, prf: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        """FIPS 203, Algorithm 13 (K-PKE.KeyGen) lines 8-20, after the hashing:
        A_hat (k, k, 256) canonical, NTT domain (line 6's A_hat[i, j]), and the PRF
        outputs prf, uint8 (2 k, 64 eta) with eta in {2, 3} read from its width, of
        nonces 0 .. 2k - 1 (s, then e: lines 8-15) -> uint8 (2 k, 384): rows 0..k-1
        ByteEncode_12(t_hat) with t_hat = A_hat o NTT(s) + NTT(e), rows k..2k-1
        ByteEncode_12(NTT(s)). Secret inputs: prf (and the result). Default
        (composed): cbd, ntt, mulcache, basemul_acc, add, byte_encode. ValueError on
        wrong shapes."""
        ...


def kpke_check(
    k: int,
    du: int,
    dv: int,
    names: tuple[str, ...],
    got: tuple[tuple[int, ...], ...],
    want: tuple[tuple[int, ...], ...],
) -> None:
    """The argument checks of the fused K-PKE kernels: k in 1..4, du and dv in 1..11,
    and the shapes ``got`` of the arguments ``names`` equal to ``want``. ValueError
    otherwise. (One tuple comparison on the hot path: it runs on every call.)"""
    if 1 <= k <= 4 and 1 <= du <= 11 and 1 <= dv <= 11 and got == want:
        return
    if not (1 <= k <= 4 and 1 <= du <= 11 and 1 <= dv <= 11):
        raise ValueError(f"K-PKE parameters out of range: k={k}, du={du}, dv={dv}")
    bad = [
        f"{n}: expected shape {w}, got {g}"
        for n, g, w in zip(names, got, want, strict=True)
        if g != w
    ]
    raise ValueError("; ".join(bad))


def kpke_decrypt_args(
    dk_pke: Any, c: Any, k: int, du: int, dv: int
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """The arguments of a fused ``kpke_decrypt`` as uint8 arrays, checked
    (:func:`kpke_check`)."""
    dk = np.asarray(dk_pke, dtype=np.uint8)
    ct = np.asarray(c, dtype=np.uint8)
    kpke_check(
        k, du, dv, ("dk_pke", "c"), (dk.shape, ct.shape), ((384 * k,), (32 * (du * k + dv),))
    )
    return dk, ct


_ENCRYPT_NAMES = ("t_hat", "A_hat", "prf_y", "prf_e", "m")


def cbd_eta(prf: npt.NDArray[Any]) -> int:
    """eta of PRF_eta output ``prf`` (..., 64 eta): 2 or 3, read from the width; 0
    for any other width (the shape check then names the argument)."""
    width = prf.shape[-1] if prf.ndim else 0
    return width // 64 if width in (128, 192) else 0


def kpke_encrypt_args(
    t_hat: Any, A_hat: Any, prf_y: Any, prf_e: Any, m: Any, du: int, dv: int
) -> tuple[int, int, int, tuple[npt.NDArray[Any], ...]]:
    """k, eta1, eta2 and the arguments of a fused ``kpke_encrypt`` as arrays (the
    PRF outputs and m as uint8), checked (:func:`kpke_check`; eta1 and eta2 must be 2
    or 3)."""
    t = np.asarray(t_hat)
    a = np.asarray(A_hat)
    py, pe, mb = (np.asarray(x, dtype=np.uint8) for x in (prf_y, prf_e, m))
    k = t.shape[0] if t.ndim else 0
    eta1, eta2 = cbd_eta(py), cbd_eta(pe)
    kpke_check(
        k,
        du,
        dv,
        _ENCRYPT_NAMES,
        (t.shape, a.shape, py.shape, pe.shape, mb.shape),
        ((k, N), (k, k, N), (k, 64 * (eta1 or 2)), (k + 1, 64 * (eta2 or 2)), (32,)),
    )
    return k, eta1, eta2, (t, a, py, pe, mb)


def kpke_keygen_args(
    A_hat: Any, prf: Any
) -> tuple[int, int, npt.NDArray[Any], npt.NDArray[np.uint8]]:
    """k, eta and the arguments of a fused ``kpke_keygen`` as arrays, checked: k in
    1..4, A_hat (k, k, 256) and prf uint8 (2 k, 64 eta), eta 2 or 3. ValueError
    otherwise."""
    a = np.asarray(A_hat)
    x = np.asarray(prf, dtype=np.uint8)
    k = a.shape[0] if a.ndim else 0
    eta = cbd_eta(x)
    kpke_check(k, 1, 1, ("A_hat", "prf"), (a.shape, x.shape), ((k, k, N), (2 * k, 64 * (eta or 2))))
    return k, eta, a, x


class MLKEMOperations(Protocol):
    """Whole ML-KEM operations (FIPS 203, Algorithms 16-18) in one call each, for a
    backend that can run them as a unit (``jit``: one compiled call, hashing
    included; :mod:`pqkit.mlkem.kernels.jit_ops`). Optional: a backend without them
    runs the step-by-step path of :mod:`pqkit.mlkem.fips203` (K-PKE over the
    :class:`MLKEMKernels` table and the :mod:`pqkit.common` hash providers), which
    is their reference twin: every result must equal that path's, byte for byte.
    :func:`pqkit.arith.ops.operations` finds them.

    Arguments are trusted: the scheme object checks types and lengths first (``k``
    in 2..4, ``eta1``/``eta2`` in {2, 3}, ``du``/``dv`` from FIPS 203 Table 2,
    byte strings of the FIPS 203 lengths). Arrays are int64 and canonical.
    Secret inputs (d, z, m, dk, and c in decapsulation) go through code without
    branches, divisions or lookups on their values; the matrix sampling branches on
    public XOF output only.
    """

    backend: str

    def mlkem_keygen_internal(self, d: bytes, z: bytes, k: int, eta1: int) -> tuple[bytes, bytes]:
        """FIPS 203, Algorithm 16 (ML-KEM.KeyGen_internal): the 32-byte seeds d and z
        -> (ek, dk), with Algorithm 13 (K-PKE.KeyGen) hashing d || k."""
        ...

    def mlkem_public_state(
        self, ek: bytes, k: int
    ) -> tuple[bool, npt.NDArray[np.int64], npt.NDArray[np.int64], bytes]:
        """What every operation with the encapsulation key ek (384 k + 32 bytes)
        needs, computed once per key: (ok, t_hat, A_hat, H(ek)). t_hat (k, 256) is
        ByteDecode_12(ek[:384 k]) reduced mod q; ok says whether ByteEncode_12(t_hat)
        gives those bytes back (FIPS 203 §7.2 modulus check); A_hat (k, k, 256) is
        Algorithm 14 lines 4-8 (A_hat[i, j] = SampleNTT(rho || j || i)); H = SHA3-256.
        The arrays are new and read-only."""
        ...

    def mlkem_encaps_internal(
        self,
        t_hat: npt.NDArray[np.int64],
        A_hat: npt.NDArray[np.int64],
        h: bytes,
        m: bytes,
        eta1: int,
        eta2: int,
        du: int,
        dv: int,
    ) -> tuple[bytes, bytes]:
        """FIPS 203, Algorithm 17 (ML-KEM.Encaps_internal) on the state of
        :meth:`mlkem_public_state` (t_hat, A_hat, h = H(ek)) and the 32-byte m ->
        (K, c). Secret inputs: m."""
        ...

    def mlkem_decaps_internal(
        self,
        dk: bytes,
        t_hat: npt.NDArray[np.int64],
        A_hat: npt.NDArray[np.int64],
        c: bytes,
        k: int,
        eta1: int,
        eta2: int,
        du: int,
        dv: int,
    ) -> bytes:
        """FIPS 203, Algorithm 18 (ML-KEM.Decaps_internal) lines 1-11: dk (768 k + 96
        bytes) and c -> K' when K-PKE.Encrypt(ek, m', r') equals c, else
        K_bar = J(z || c), through a masked select. t_hat and A_hat are the state of
        the ek inside dk (:meth:`mlkem_public_state`; the hash check is the
        caller's). Secret inputs: dk, c (the comparison), the result."""
        ...

    def mlkem_encaps_ek(
        self, ek: bytes, m: bytes, k: int, eta1: int, eta2: int, du: int, dv: int
    ) -> tuple[bool, npt.NDArray[np.int64], npt.NDArray[np.int64], bytes, bytes, bytes]:
        """:meth:`mlkem_public_state` of ek and :meth:`mlkem_encaps_internal` on it in
        one call, for a key met for the first time: (ok, t_hat, A_hat, h, K, c). The
        caller refuses ek when ok is False (FIPS 203 §7.2) before anything of K or c
        leaves. Secret inputs: m."""
        ...

    def mlkem_decaps_dk(
        self, dk: bytes, c: bytes, k: int, eta1: int, eta2: int, du: int, dv: int
    ) -> tuple[bool, npt.NDArray[np.int64], npt.NDArray[np.int64], bytes, bytes]:
        """:meth:`mlkem_public_state` of the ek inside dk and
        :meth:`mlkem_decaps_internal` on it in one call, for a key met for the first
        time: (ok, t_hat, A_hat, H(ek), K'-or-K_bar). The caller runs the FIPS 203 §7.3
        hash check (H(ek) against the copy in dk) before the key leaves. Secret
        inputs: dk, c, the result."""
        ...
