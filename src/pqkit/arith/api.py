"""The arithmetic kernel contract (docs/architecture.md §6).

Modelled on mlkem-native's native-backend interface: few kernels, each with a
written contract, a reference twin (the ``ref`` backend) and a differential test.

Shared rules for every kernel:

- Polynomials are int arrays whose last axis has length 256; every leading axis is
  a batch axis, so one call serves a polynomial, a vector, a matrix or a batch of
  many keys. Kernels never modify their inputs.
- Coefficients at the boundary are canonical, in [0, q), unless a kernel says
  otherwise; NTT-domain polynomials are in bit-reversed order as in the FIPS texts.
  Montgomery or Barrett forms stay inside a backend.
- Opaque values (the ML-KEM mulcache) belong to the backend that made them.

Two kinds of kernel:

- *primitive* kernels (every name in a contract except the composites) are what a
  backend must implement; a backend that lacks one is refused when its table is
  built, never filled from ``ref``;
- *composite* kernels (:data:`pqkit.arith.compose.COMPOSITES`: the fused K-PKE steps)
  are written once in :mod:`pqkit.arith.compose` over the selected backend's own
  primitives; a backend overrides one only where its own copy is faster.

A backend is registered with :func:`pqkit.arith.register`; its table for a scheme
is a dict from kernel name to function (``KERNELS`` of a module).
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from pqkit.arith.tables import N

__all__ = [
    "HashKernels",
    "MLDSAKernels",
    "MLDSAOperations",
    "MLKEMKernels",
    "MLKEMOperations",
    "Poly",
    "kpke_check",
]

Poly = npt.NDArray[np.int64]
"""A (..., 256) array of coefficients (int64 at the boundary; see each contract)."""


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
        stacked on t_hat^T, (k + 1, k, 256): :func:`pqkit.arith.compose.encrypt_rows`)
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


def kernel_names(contract: type[Any]) -> list[str]:
    """The kernel names a contract requires: its public attributes."""
    return sorted(
        name
        for name in vars(contract)
        if not name.startswith("_") and callable(vars(contract)[name])
    )


class HashKernels(Protocol):
    """Batched hash kernels: Keccak-f[1600] / SHAKE (FIPS 202) and the SHA-256 /
    SHA-512 compression functions (FIPS 180-4) over many independent inputs at once
    (the WOTS+ chains, tree nodes and FORS leaves of FIPS 205, matrix and noise
    sampling of FIPS 203 / 204).

    Shared rules: arguments are NumPy arrays of exactly the dtype each contract
    names (TypeError otherwise; ValueError for a wrong last-axis length); every
    leading axis is a batch axis and may be empty (zero rows give an empty result);
    results are new arrays and inputs are never modified. Byte strings are uint8
    (..., L) arrays, one string per row, all of the same length L. ``prefix``
    arguments are bytes-like (TypeError otherwise) and are hashed in front of every
    row; a backend absorbs their whole blocks once per call. Every kernel is a pure
    function of its arguments and runs the same code for every value of the data
    (no branch or table lookup on the bytes hashed: they may be secret).
    """

    backend: str

    def keccak_f1600(
        self, states: npt.NDArray[np.uint64], rounds: int = 24
    ) -> npt.NDArray[np.uint64]:
        """FIPS 202, Algorithm 7 (KECCAK-p[1600, nr]) on every state.

        ``states`` is uint64 (..., 25), lane (x, y) at index x + 5y (FIPS 202 §3.1.2
        with w = 64, lanes little-endian as §B.1 reads bytes). ``rounds`` = nr in
        1..24 runs rounds 24 - nr .. 23 (the last nr round constants): 24 is
        KECCAK-f[1600], 12 is TurboSHAKE's KECCAK-p[1600, 12] (RFC 9861). Returns the
        permuted states as a new uint64 (..., 25) array."""
        ...

    def shake_many(
        self, bits: int, inputs: npt.NDArray[np.uint8], out_len: int, prefix: bytes = b""
    ) -> npt.NDArray[np.uint8]:
        """SHAKE128 (``bits`` = 128) or SHAKE256 (``bits`` = 256) of every row
        (FIPS 202 §6.2): ``inputs`` uint8 (..., L) -> uint8 (..., out_len), row i
        equal to ``hashlib.shake_<bits>(prefix + inputs[i]).digest(out_len)``.
        ``out_len`` >= 0 may span many squeeze blocks. ValueError for ``bits`` other
        than 128 / 256 or a negative ``out_len``."""
        ...

    def sha256_compress(
        self, states: npt.NDArray[np.uint32], blocks: npt.NDArray[np.uint8]
    ) -> npt.NDArray[np.uint32]:
        """FIPS 180-4 §6.2.2 steps 1-4: the SHA-256 compression of one 64-byte block
        into each chaining value. ``states`` uint32 (..., 8) (H_0 .. H_7) and
        ``blocks`` uint8 (..., 64) (the block as bytes, big-endian words as §3.1)
        broadcast against each other; returns the new uint32 (..., 8) states."""
        ...

    def sha512_compress(
        self, states: npt.NDArray[np.uint64], blocks: npt.NDArray[np.uint8]
    ) -> npt.NDArray[np.uint64]:
        """FIPS 180-4 §6.4.2 steps 1-4: the SHA-512 compression of one 128-byte block
        into each chaining value: uint64 (..., 8) and uint8 (..., 128), broadcast,
        -> uint64 (..., 8)."""
        ...

    def sha256_many(
        self, inputs: npt.NDArray[np.uint8], prefix: bytes = b""
    ) -> npt.NDArray[np.uint8]:
        """SHA-256 (FIPS 180-4 §6.2, padding §5.1.1) of ``prefix`` followed by each
        row: uint8 (..., L) -> uint8 (..., 32), row i equal to
        ``hashlib.sha256(prefix + inputs[i]).digest()``. The whole 64-byte blocks of
        ``prefix`` are compressed once per call: FIPS 205's SHA-2 F, H and T_l
        (§11.2) pass PK.seed || toByte(0, 64 - n) as ``prefix`` and ADRSc || M as
        the rows, so each row costs only its own blocks."""
        ...

    def sha512_many(
        self, inputs: npt.NDArray[np.uint8], prefix: bytes = b""
    ) -> npt.NDArray[np.uint8]:
        """SHA-512 (FIPS 180-4 §6.4, padding §5.1.2) of ``prefix`` followed by each
        row: uint8 (..., L) -> uint8 (..., 64), equal to
        ``hashlib.sha512(prefix + inputs[i]).digest()``; the whole 128-byte blocks
        of ``prefix`` are compressed once per call (FIPS 205 §11.2.2: PK.seed ||
        toByte(0, 128 - n))."""
        ...


class MLKEMOperations(Protocol):
    """Whole ML-KEM operations (FIPS 203, Algorithms 16-18) in one call each, for a
    backend that can run them as a unit (``jit``: one compiled call, hashing
    included; :mod:`pqkit.arith.jit_mlkem_ops`). Optional: a backend without them
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


class MLDSAOperations(Protocol):
    """Whole ML-DSA operations (FIPS 204, Algorithms 6-8) in one call each, for a
    backend that can run them as a unit (``jit``: :mod:`pqkit.arith.jit_mldsa_ops`),
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
