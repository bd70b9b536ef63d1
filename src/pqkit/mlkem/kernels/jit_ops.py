"""The ``jit`` ML-KEM operations: FIPS 203 key generation, encapsulation and
decapsulation, each one compiled call (Numba), hashing included.

Contract: :class:`pqkit.mlkem.kernels.contract.MLKEMOperations`. The ``ref`` twin is the
step-by-step path of :mod:`pqkit.mlkem.fips203` (K-PKE over the kernel table and the
:mod:`pqkit.common` hash providers), which every backend without this module runs;
the differential tests compare the two byte for byte.

Inside the compiled code:

- Every Keccak-f[1600] runs through the sponges of
  :mod:`pqkit.common.kernels.jit_sponge`: the k^2 matrix entries (FIPS 203,
  Algorithm 7, SHAKE128) and the PRF calls (§4.1, SHAKE256) of one operation run as
  groups of up to 8 independent sponges (:func:`_sample_matrix`, :func:`_prf`) on
  the 8-state permutation, or the 4-state one for groups of 2-4 (ML-KEM-512's
  matrix), which costs what one state costs; a single hash (G, H, J) runs on the
  one-state permutation, and decapsulation of a new key hashes H(ek) and J(z || c)
  as a pair (:func:`pqkit.common.kernels.jit_sponge._sponge2`).
- The entries take the caller's ``bytes`` and copy them into arrays in compiled
  code (:func:`pqkit.arith._jit.owned`): about 1 us a call less than making the
  arrays in Python.
- The arithmetic is the ``jit`` kernels' own loops (:mod:`pqkit.mlkem.kernels.jit`:
  NTT, base multiplication, CBD, packing, compression, the fused K-PKE encryption),
  so their security argument carries over: Barrett reductions and sign masks, no
  ``%``, division or branch on secret values.
- Rejection sampling of the matrix branches on the (public) XOF output, as
  Algorithm 7 does; a group squeezes one more block while any of its entries has
  fewer than 256 values (the stream read is the same as the step path's longer
  prefix, so the results are equal).
- Decapsulation compares c with c' by OR-ing the XOR of every byte and selects K'
  or K_bar with a byte mask derived from that (Algorithm 18 lines 9-11): no branch
  on the comparison.

The Python wrappers take and return ``bytes`` and read-only int64 arrays (the
public-key state, :class:`pqkit.mlkem.fips203.PublicState`); argument shapes are
checked by the caller (the scheme object), which is the only one.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.arith._jit import (
    frozen_view,
    jit,
    jit_inline,
    kernel_array,
    kernel_bytes,
    owned,
    put,
)
from pqkit.arith.api import kernel_table
from pqkit.common.kernels.jit_sponge import (
    RATE_128,
    RATE_256,
    RATE_512,
    SHA3_PAD,
    SHAKE_PAD,
    _absorb_x8,
    _permute,
    _seeded,
    _shake_x8,
    _sponge1,
    _sponge2,
)
from pqkit.mlkem.kernels.contract import MLKEMOperations
from pqkit.mlkem.kernels.jit import (
    _basemul_acc,
    _byte_decode,
    _byte_encode,
    _cbd,
    _csub,
    _kpke_decrypt,
    _kpke_encrypt,
    _mulcache,
    _ntt,
)
from pqkit.mlkem.kernels.tables import MLKEM_Q as Q

__all__ = ["OPERATIONS"]


# --- FIPS 202 sponges on the x8 permutation -----------------------------------------


@jit_inline
def _prf(seed: Any, first: int, count: int, out_len: int) -> Any:
    """PRF_eta(seed, N) = SHAKE256(seed || N, out_len) (FIPS 203 §4.1) for the
    nonces N = first .. first + count - 1, 8 at a time: (count, out_len) uint8.
    A prefix of each row is the PRF output for a smaller eta (SHAKE is prefix
    stable), so one call serves a run of mixed eta1 / eta2 nonces."""
    return _shake_x8(_seeded(seed, np.arange(first, first + count), 1), RATE_256, out_len)


@jit
def _take12(row: Any, c: int, d: int) -> int:
    """Algorithm 7 lines 8-13 for one candidate d (12 bits): write it at the
    entry's next free position and advance by its acceptance bit d < q, without a
    branch. ``row`` has room for one block's 112 candidates past 256: the caller
    parses a block only while the entry is short, and drops what lies past 256."""
    row[c] = d
    return c + (d < Q)


@jit
def _sample_ntt(msgs: Any) -> Any:
    """FIPS 203, Algorithm 7 (SampleNTT) of every row of ``msgs`` (the 34-byte
    inputs rho || j || i): (rows, 256), the SHAKE128 streams 8 at a time, one
    168-byte block per round; a group squeezes again while one of its entries has
    fewer than 256 values. The rows may belong to one matrix or to the matrices
    of several keys (the batch kernels).

    The block is parsed straight from the state's 64-bit lanes: 3 lanes (24
    bytes) hold 16 candidates of 12 bits, d1 and d2 of 8 byte triples
    (Algorithm 7 lines 5-7), in order. There is no branch per candidate
    (:func:`_take12`). The data is public, so this is for speed: with a branch,
    about one candidate in five (a rejection) is a mispredicted jump, which cost
    more than the parsing. Whether a group needs another block is still a
    branch (public)."""
    n = msgs.shape[0]
    out = np.empty((n, 256), dtype=np.int64)  # every row is written below
    w = np.zeros(200, dtype=np.uint64)
    counts = np.zeros(8, dtype=np.int64)
    tmp = np.zeros((8, 256 + RATE_128 // 3 * 2), dtype=np.int64)  # + one block
    for g in range(0, n, 8):
        m = min(8, n - g)
        _absorb_x8(w, msgs, g, RATE_128)
        counts[:] = 0
        while True:
            done = True
            for j in range(m):
                c = counts[j]
                if c >= 256:
                    continue
                row = tmp[j]
                for t in range(RATE_128 // 24):
                    a0 = np.int64(w[8 * (3 * t) + j])  # same bits, as int64
                    a1 = np.int64(w[8 * (3 * t + 1) + j])
                    a2 = np.int64(w[8 * (3 * t + 2) + j])
                    c = _take12(row, c, a0 & 0xFFF)
                    c = _take12(row, c, (a0 >> 12) & 0xFFF)
                    c = _take12(row, c, (a0 >> 24) & 0xFFF)
                    c = _take12(row, c, (a0 >> 36) & 0xFFF)
                    c = _take12(row, c, (a0 >> 48) & 0xFFF)
                    c = _take12(row, c, ((a0 >> 60) & 0xF) | ((a1 & 0xFF) << 4))
                    c = _take12(row, c, (a1 >> 8) & 0xFFF)
                    c = _take12(row, c, (a1 >> 20) & 0xFFF)
                    c = _take12(row, c, (a1 >> 32) & 0xFFF)
                    c = _take12(row, c, (a1 >> 44) & 0xFFF)
                    c = _take12(row, c, ((a1 >> 56) & 0xFF) | ((a2 & 0xF) << 8))
                    c = _take12(row, c, (a2 >> 4) & 0xFFF)
                    c = _take12(row, c, (a2 >> 16) & 0xFFF)
                    c = _take12(row, c, (a2 >> 28) & 0xFFF)
                    c = _take12(row, c, (a2 >> 40) & 0xFFF)
                    c = _take12(row, c, (a2 >> 52) & 0xFFF)
                c = min(c, 256)
                counts[j] = c
                if c < 256:
                    done = False
            if done:
                break
            _permute(w, m)
        for j in range(m):
            put(out[g + j], tmp[j, :256])
    return out


@jit_inline
def _matrix_nonces(k: int) -> Any:
    """The 2-byte nonces j + 256 i of the entries (i, j) of A_hat, row-major."""
    nonces = np.empty(k * k, dtype=np.int64)
    for e in range(k * k):
        nonces[e] = (e % k) | ((e // k) << 8)  # bytes j, i of entry (i, j) = e
    return nonces


@jit_inline
def _sample_matrix(rho: Any, k: int) -> Any:
    """FIPS 203, Algorithm 13 lines 3-7 with Algorithm 7 (SampleNTT): A_hat (k, k,
    256) with A_hat[i, j] = SampleNTT(rho || j || i), the k^2 SHAKE128 streams 8 at
    a time (:func:`_sample_ntt`)."""
    return _sample_ntt(_seeded(rho, _matrix_nonces(k), 2)).reshape(k, k, 256)


@jit_inline
def _cat(a: Any, b: Any) -> Any:
    """a || b (uint8): the hash inputs m || h and z || c, and the entries' byte
    outputs, returned as one array where the operation has several (Numba boxes
    each array it returns into a NumPy array, about 0.4 us apiece, where slicing
    ``bytes`` costs a tenth of that)."""
    out = np.empty(a.shape[0] + b.shape[0], dtype=np.uint8)
    put(out[: a.shape[0]], a)
    put(out[a.shape[0] :], b)
    return out


# --- FIPS 203 operations --------------------------------------------------------------


@jit_inline
def _noise(seed: Any, first: int, count: int, eta: int) -> Any:
    """SamplePolyCBD_eta(PRF_eta(seed, N)) for count nonces from ``first``."""
    return _cbd(_prf(seed, first, count, 64 * eta), eta)


@jit_inline
def _keygen_body(a_hat: Any, se_hat: Any, rho: Any, k: int) -> Any:
    """FIPS 203, Algorithm 13 lines 18-20 from A_hat and the transformed noise
    NTT(s) || NTT(e) (2k, 256) (lines 8-17), and Algorithm 16 line 3 but H(ek) and
    z: (ek, dk) as uint8 arrays, the last 64 bytes of dk (H(ek) || z) left for the
    caller."""
    s_hat = se_hat[:k].copy()
    e_hat = se_hat[k:]
    row = np.arange(k)
    zero = np.zeros(k, dtype=np.int64)
    t_hat = _basemul_acc(
        a_hat, s_hat.reshape(1, k, 256), _mulcache(s_hat).reshape(1, k, 128), row, zero, 1, 1
    )
    for i in range(k):  # line 18: t_hat = A_hat o s_hat + e_hat
        for j in range(256):
            t_hat[i, j] = _csub(t_hat[i, j] + e_hat[i, j])
    n_ek = 384 * k + 32
    ek = np.empty(n_ek, dtype=np.uint8)
    put(ek[: 384 * k], _byte_encode(t_hat, 12).reshape(-1))  # line 19
    put(ek[384 * k :], rho)
    dk = np.zeros(768 * k + 96, dtype=np.uint8)
    put(dk[: 384 * k], _byte_encode(s_hat, 12).reshape(-1))  # line 20
    put(dk[384 * k : 384 * k + n_ek], ek)  # Algorithm 16 line 3: dk_PKE || ek || H(ek) || z
    return ek, dk


@jit
def _keygen(d: Any, z: Any, k: int, eta1: int) -> Any:
    """FIPS 203, Algorithm 16 (ML-KEM.KeyGen_internal) with Algorithm 13
    (K-PKE.KeyGen) of the ``bytes`` d and z: ek || dk (one array: :func:`_cat`)."""
    seed = np.empty(33, dtype=np.uint8)
    put(seed[:32], owned(d))
    seed[32] = k
    rs = _sponge1(seed, RATE_512, SHA3_PAD, np.int64(64))  # Algorithm 13 line 1: G(d || k)
    rho = rs[:32].copy()
    sigma = rs[32:].copy()
    a_hat = _sample_matrix(rho, k)  # lines 3-7
    se_hat = _ntt(_noise(sigma, 0, 2 * k, eta1))  # lines 8-17: s then e
    ek, dk = _keygen_body(a_hat, se_hat, rho, k)  # lines 18-20
    n_ek = 384 * k + 32
    put(dk[384 * k + n_ek : 384 * k + n_ek + 32], _sponge1(ek, RATE_256, SHA3_PAD, np.int64(32)))
    put(dk[384 * k + n_ek + 32 :], owned(z))
    return _cat(ek, dk)


@jit_inline
def _public_arrays(ek: Any, k: int) -> Any:
    """t_hat = ByteDecode_12(ek[:384k]) (reduced mod q), whether that is the FIPS 203
    §7.2 modulus check's pass (re-encoding gives ek back), and A_hat (Algorithm 14
    lines 4-8)."""
    t_bytes = ek[: 384 * k].copy().reshape(k, 384)
    t_hat = _byte_decode(t_bytes, 12)
    again = _byte_encode(t_hat, 12)
    ok = True
    for i in range(k):
        for j in range(384):
            if again[i, j] != t_bytes[i, j]:  # public key: branches allowed
                ok = False
    return ok, t_hat, _sample_matrix(ek[384 * k :].copy(), k)


@jit
def _public_state(ek: Any, k: int) -> Any:
    """What every operation with ek needs: :func:`_public_arrays` and H(ek)."""
    ok, t_hat, a_hat = _public_arrays(ek, k)
    return ok, t_hat, a_hat, _sponge1(ek, RATE_256, SHA3_PAD, np.int64(32))


@jit_inline
def _encrypt_noise(
    t_hat: Any, a_hat: Any, m: Any, buf: Any, eta1: int, eta2: int, du: int, dv: int
) -> Any:
    """FIPS 203, Algorithm 14 (K-PKE.Encrypt) from the decoded key and the PRF
    outputs ``buf`` (2k + 1, >= 64 max(eta1, eta2)) of lines 9-17: y with eta1, then
    e1 and e2 with eta2, then the fused lines 18-24."""
    k = t_hat.shape[0]
    y = _cbd(buf[:k, : 64 * eta1].copy(), eta1)
    e = _cbd(buf[k:, : 64 * eta2].copy(), eta2)
    return _kpke_encrypt(t_hat, a_hat, y, e[:k].copy(), e[k].copy(), m, du, dv)


@jit_inline
def _encrypt(t_hat: Any, a_hat: Any, m: Any, r: Any, eta1: int, eta2: int, du: int, dv: int) -> Any:
    """FIPS 203, Algorithm 14 (K-PKE.Encrypt) from the decoded key: the noise of
    lines 9-17 from one batch of PRF calls (:func:`_encrypt_noise`)."""
    k = t_hat.shape[0]
    buf = _prf(r, 0, 2 * k + 1, 64 * max(eta1, eta2))
    return _encrypt_noise(t_hat, a_hat, m, buf, eta1, eta2, du, dv)


@jit_inline
def _encaps_body(
    t_hat: Any, a_hat: Any, h: Any, m: Any, eta1: int, eta2: int, du: int, dv: int
) -> Any:
    """FIPS 203, Algorithm 17 (ML-KEM.Encaps_internal): (K, c)."""
    mh = _cat(m, h)
    kr = _sponge1(mh, RATE_512, SHA3_PAD, np.int64(64))  # line 1: (K, r) = G(m || H(ek))
    c = _encrypt(t_hat, a_hat, m, kr[32:].copy(), eta1, eta2, du, dv)  # line 2
    return kr[:32].copy(), c


@jit
def _encaps(t_hat: Any, a_hat: Any, h: Any, m: Any, eta1: int, eta2: int, du: int, dv: int) -> Any:
    """:func:`_encaps_body` with the ``bytes`` H(ek) and m (a key whose state is
    cached): K || c."""
    key, c = _encaps_body(t_hat, a_hat, owned(h), owned(m), eta1, eta2, du, dv)
    return _cat(key, c)


@jit_inline
def _select_key(c: Any, c2: Any, kr: Any, k_bar: Any) -> Any:
    """FIPS 203, Algorithm 18 lines 9-11: K' (the first 32 bytes of ``kr``) when c
    equals c', else K_bar. c and c' are compared by OR-ing the XOR of every byte,
    and the key chosen with a byte mask derived from that: no branch."""
    diff = 0
    for i in range(c.shape[0]):
        diff |= np.int64(c[i]) ^ np.int64(c2[i])
    mask = ((diff - 1) >> 8) & 0xFF  # 0xFF when c == c', else 0 (diff in [0, 255])
    out = np.empty(32, dtype=np.uint8)
    for i in range(32):
        out[i] = (np.int64(kr[i]) & mask) | (np.int64(k_bar[i]) & (mask ^ 0xFF))
    return out


@jit_inline
def _z_c(dk: Any, c: Any) -> Any:
    """z || c, the input of J in FIPS 203, Algorithm 18 line 7 (z: dk's last 32 bytes)."""
    return _cat(dk[dk.shape[0] - 32 :], c)


@jit_inline
def _decaps_body(
    dk: Any,
    t_hat: Any,
    a_hat: Any,
    c: Any,
    k_bar: Any,
    k: int,
    eta1: int,
    eta2: int,
    du: int,
    dv: int,
) -> Any:
    """FIPS 203, Algorithm 18 (ML-KEM.Decaps_internal), given the decoded state of
    the ek inside dk and K_bar = J(z || c) (line 7, hashed by the caller): K' or,
    when c does not re-encrypt, K_bar (masked select)."""
    n_ek = 384 * k + 32
    h = dk[384 * k + n_ek : 384 * k + n_ek + 32]  # line 3
    m = _kpke_decrypt(dk[: 384 * k].copy(), c.copy(), k, du, dv)  # line 5 (Algorithm 15)
    mh = _cat(m, h)
    kr = _sponge1(mh, RATE_512, SHA3_PAD, np.int64(64))  # line 6: (K', r') = G(m' || h)
    c2 = _encrypt(t_hat, a_hat, m, kr[32:].copy(), eta1, eta2, du, dv)  # line 8
    return _select_key(c, c2, kr, k_bar)  # lines 9-11


@jit
def _decaps(
    dk: Any, t_hat: Any, a_hat: Any, c: Any, k: int, eta1: int, eta2: int, du: int, dv: int
) -> Any:
    """:func:`_decaps_body` with the ``bytes`` dk and c (a key whose ek state is
    cached)."""
    dk_a = owned(dk)
    c_a = owned(c)
    k_bar = _sponge1(_z_c(dk_a, c_a), RATE_256, SHAKE_PAD, np.int64(32))  # line 7: J(z || c)
    return _decaps_body(dk_a, t_hat, a_hat, c_a, k_bar, k, eta1, eta2, du, dv)


@jit
def _encaps_ek(ek: Any, m: Any, k: int, eta1: int, eta2: int, du: int, dv: int) -> Any:
    """:func:`_public_state` and :func:`_encaps_body` in one call on the ``bytes`` ek
    and m (a key met for the first time): (ok, t_hat, A_hat, H(ek) || K || c); the
    caller refuses ek unless ok."""
    ok, t_hat, a_hat, h = _public_state(owned(ek), k)
    key, c = _encaps_body(t_hat, a_hat, h, owned(m), eta1, eta2, du, dv)
    return ok, t_hat, a_hat, _cat(_cat(h, key), c)


@jit
def _decaps_dk(dk: Any, c: Any, k: int, eta1: int, eta2: int, du: int, dv: int) -> Any:
    """:func:`_public_arrays` of the ek inside dk (FIPS 203, Algorithm 18 line 2) and
    :func:`_decaps_body` in one call on the ``bytes`` dk and c (a key met for the
    first time): (ok, t_hat, A_hat, H(ek) || K) with ok the ek's §7.2 verdict (kept
    with its state); the caller runs the §7.3 hash check before K leaves. H(ek) and
    J(z || c) (line 7) are hashed side by side (:func:`_sponge2`)."""
    dk_a = owned(dk)
    c_a = owned(c)
    ek = dk_a[384 * k : 768 * k + 32].copy()
    h, k_bar = _sponge2(ek, SHA3_PAD, _z_c(dk_a, c_a), SHAKE_PAD, RATE_256, np.int64(32))
    ok, t_hat, a_hat = _public_arrays(ek, k)
    key = _decaps_body(dk_a, t_hat, a_hat, c_a, k_bar, k, eta1, eta2, du, dv)
    return ok, t_hat, a_hat, _cat(h, key)


# --- Python wrappers: the contract ----------------------------------------------------


def mlkem_keygen_internal(d: bytes, z: bytes, k: int, eta1: int) -> tuple[bytes, bytes]:
    out = _keygen(d, z, k, eta1).tobytes()
    return out[: 384 * k + 32], out[384 * k + 32 :]


def mlkem_public_state(
    ek: bytes, k: int
) -> tuple[bool, npt.NDArray[np.int64], npt.NDArray[np.int64], bytes]:
    ok, t_hat, a_hat, h = _public_state(kernel_bytes(ek), k)
    return bool(ok), frozen_view(t_hat), frozen_view(a_hat), h.tobytes()


def mlkem_encaps_internal(
    t_hat: npt.NDArray[np.int64], A_hat: npt.NDArray[np.int64], h: bytes, m: bytes, *params: int
) -> tuple[bytes, bytes]:
    """``params``: eta1, eta2, du, dv (the contract's :class:`MLKEMOperations`)."""
    out = _encaps(kernel_array(t_hat), kernel_array(A_hat), h, m, *params).tobytes()
    return out[:32], out[32:]


def mlkem_decaps_internal(
    dk: bytes, t_hat: npt.NDArray[np.int64], A_hat: npt.NDArray[np.int64], c: bytes, *params: int
) -> bytes:
    """``params``: k, eta1, eta2, du, dv (the contract's :class:`MLKEMOperations`)."""
    out: npt.NDArray[np.uint8] = _decaps(dk, kernel_array(t_hat), kernel_array(A_hat), c, *params)
    return out.tobytes()


def mlkem_encaps_ek(
    ek: bytes, m: bytes, *params: int
) -> tuple[bool, npt.NDArray[np.int64], npt.NDArray[np.int64], bytes, bytes, bytes]:
    """``params``: k, eta1, eta2, du, dv (the contract's :class:`MLKEMOperations`)."""
    ok, t_hat, a_hat, out = _encaps_ek(ek, m, *params)
    hkc = out.tobytes()
    return bool(ok), frozen_view(t_hat), frozen_view(a_hat), hkc[:32], hkc[32:64], hkc[64:]


def mlkem_decaps_dk(
    dk: bytes, c: bytes, *params: int
) -> tuple[bool, npt.NDArray[np.int64], npt.NDArray[np.int64], bytes, bytes]:
    """``params``: k, eta1, eta2, du, dv (the contract's :class:`MLKEMOperations`)."""
    ok, t_hat, a_hat, out = _decaps_dk(dk, c, *params)
    hk = out.tobytes()
    return bool(ok), frozen_view(t_hat), frozen_view(a_hat), hk[:32], hk[32:]


OPERATIONS: dict[str, Any] = kernel_table(MLKEMOperations, globals())
