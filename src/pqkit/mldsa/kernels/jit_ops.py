# Twin of pqkit/mlkem/kernels/jit_ops.py: the 8-row SampleNTT loop (shared: no Numba cache)
"""The ``jit`` ML-DSA operations: FIPS 204 key generation, signing on mu and
verification on mu, each one compiled call (Numba), hashing included.

Contract: :class:`pqkit.mldsa.kernels.contract.MLDSAOperations`. The ``ref`` twin is the
step-by-step path of :mod:`pqkit.mldsa.core` (the kernel table plus the
:mod:`pqkit.common` hash providers), which every backend without this module and
every suite other than SHAKE (Dilithium-AES) runs; the differential tests compare
the two byte for byte. Round-3 Dilithium (SHAKE) shares the core, so it runs here
too (its parameters say how the key-generation seed is expanded and how long tr and
c_tilde are).

Inside the compiled code:

- Every Keccak-f[1600] is :func:`pqkit.common.kernels.jit._keccak_x8`: the k l matrix
  entries (ExpandA, SHAKE128), the l + k secret polynomials (ExpandS) and the l
  mask polynomials of an attempt (ExpandMask, SHAKE256) run as groups of 8
  sponges; H of one input (FIPS 204 §3.7), or a group of one, runs on the
  one-state permutation (:func:`pqkit.common.kernels.jit._keccak_x1`).
- The arithmetic is the ``jit`` kernels' own loops (:mod:`pqkit.mldsa.kernels.jit`),
  so their constant-time argument carries over, SampleInBall included (the
  fixed-length masked scan).
- Signing runs FIPS 204 Algorithm 7's loop one attempt at a time (the batch of
  four of the step path suits NumPy, not compiled code): every check of an attempt
  (z, r0, ct0, the hint count) is folded into one accept bit with masks, and only
  that bit is branched on. ExpandS and the samplers of public data branch as the
  kernels do (the number of rejected candidates shows, not their values).
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
from pqkit.arith._jit import pack_le as _bit_pack
from pqkit.arith._jit import unpack_le as _bit_unpack
from pqkit.arith.api import kernel_table
from pqkit.common.kernels.jit_sponge import (
    RATE_128,
    RATE_256,
    SHAKE_PAD,
    _absorb_x8,
    _lane_bytes,
    _permute,
    _seeded,
    _shake_x8,
    _sponge1,
)
from pqkit.mldsa.kernels.contract import MLDSAOperations
from pqkit.mldsa.kernels.jit import (
    _centred_abs,
    _half_byte,
    _high,
    _infinity_norm,
    _low,
    _mat_vec_intt,
    _mat_vec_intt_p,
    _mat_vec_sub_intt,
    _mod_q,
    _mul_intt_p,
    _ntt,
    _ntt_p,
    _power2round,
    _sample_in_ball,
    _to_p,
    _use_hint,
)
from pqkit.mldsa.kernels.tables import MLDSA_Q as Q

__all__ = ["OPERATIONS"]

_D = 13


# --- FIPS 202: 8 sponges side by side ---------------------------------------------------


@jit_inline
def _h(data: Any, n: int) -> Any:
    """H(data, n) = SHAKE256 (FIPS 204 §3.7), one sponge."""
    return _sponge1(data, RATE_256, SHAKE_PAD, n)


@jit_inline
def _mu(tr: Any, m_prime: Any) -> Any:
    """mu = H(tr || M', 64) (FIPS 204, Algorithm 7 line 6; Algorithm 8 line 7) of M'
    as the caller's ``bytes``."""
    t = tr.shape[0]
    n = len(m_prime)
    data = np.empty(t + n, dtype=np.uint8)
    put(data[:t], tr)
    for i in range(n):
        data[t + i] = m_prime[i]
    return _h(data, 64)


# --- FIPS 204, Algorithms 32-34 (expansion) ----------------------------------------------


@jit
def _take23(row: Any, c: int, z: int) -> int:
    """Algorithm 30 lines 4-8 for one candidate z (Algorithm 14, CoeffFromThreeBytes,
    the top bit of the third byte cleared): written at the entry's next free
    position, the position advancing by z < q. ``row`` has room for one block's 56
    candidates past 256 (a block is parsed only while the entry is short)."""
    row[c] = z
    return c + (z < Q)


@jit
def _expand_a(rho: Any, k: int, l: int) -> Any:  # noqa: E741 - the spec's name
    """FIPS 204, Algorithm 32 (ExpandA) with Algorithm 30 (RejNTTPoly): A_hat[r, s]
    from SHAKE128(rho || s || r), one block of every stream of a group at a time
    until each entry has 256 coefficients (public data: branches allowed).

    Each block is parsed straight from the state's 64-bit lanes: 3 lanes (24
    bytes) are 8 candidates of 3 bytes, in order, each written without a branch
    (:func:`_take23`).

    NOTE: this group loop is written out again in :func:`_expand_s` and in
    :func:`pqkit.mlkem.kernels.jit_ops._sample_ntt`, with a different parser each.
    One loop taking the parser as an argument compiles, but Numba then refuses to
    cache every function above it ("dynamic globals"): tried and measured, reverted.
    """
    n = k * l
    nonces = np.empty(n, dtype=np.int64)
    for r in range(k):
        for s in range(l):
            nonces[r * l + s] = (r << 8) | s
    msgs = _seeded(rho, nonces, 2)
    out = np.zeros((n, 256), dtype=np.int64)
    w = np.zeros(200, dtype=np.uint64)
    counts = np.zeros(8, dtype=np.int64)
    tmp = np.zeros((8, 256 + RATE_128 // 3), dtype=np.int64)  # + one block
    mask = 0x7FFFFF
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
                    c = _take23(row, c, a0 & mask)
                    c = _take23(row, c, (a0 >> 24) & mask)
                    c = _take23(row, c, (((a0 >> 48) & 0xFFFF) | (a1 << 16)) & mask)
                    c = _take23(row, c, (a1 >> 8) & mask)
                    c = _take23(row, c, (a1 >> 32) & mask)
                    c = _take23(row, c, (((a1 >> 56) & 0xFF) | (a2 << 8)) & mask)
                    c = _take23(row, c, (a2 >> 16) & mask)
                    c = _take23(row, c, (a2 >> 40) & mask)
                c = min(c, 256)
                counts[j] = c
                if c < 256:
                    done = False
            if done:
                break
            _permute(w, m)
        for j in range(m):
            put(out[g + j], tmp[j, :256])
    return out.reshape(k, l, 256)


@jit
def _expand_s(rho_prime: Any, k: int, l: int, eta: int) -> Any:  # noqa: E741
    """FIPS 204, Algorithm 33 (ExpandS) with Algorithm 31 (RejBoundedPoly): s1 then
    s2, (l + k, 256) signed. As the ``jit`` kernel: every candidate is written at
    position j and j advances by its acceptance bit (no branch on the secret
    values); a group squeezes again while one of its rows is short."""
    n = l + k
    msgs = _seeded(rho_prime, np.arange(n), 2)
    out = np.zeros((n, 257), dtype=np.int64)
    w = np.zeros(200, dtype=np.uint64)
    raw = np.empty(RATE_256, dtype=np.int64)
    counts = np.zeros(8, dtype=np.int64)
    for g in range(0, n, 8):
        m = min(8, n - g)
        _absorb_x8(w, msgs, g, RATE_256)
        counts[:] = 0
        while True:
            done = True
            for j in range(m):
                c = counts[j]
                if c >= 256:
                    continue
                _lane_bytes(w, j, RATE_256, raw)
                row = out[g + j]
                pos = 0
                while c < 256 and pos < RATE_256:
                    z = raw[pos]
                    pos += 1
                    v0, ok0 = _half_byte(z & 15, eta)
                    row[c] = v0
                    c += ok0
                    v1, ok1 = _half_byte(z >> 4, eta)
                    row[c] = v1
                    c += ok1 & ((c - 256) >> 63)  # only while c < 256
                row[c] = 0  # the last write, if it was rejected
                counts[j] = c
                if c < 256:
                    done = False
            if done:
                break
            _permute(w, m)
    return out[:, :256].copy()


@jit_inline
def _sample_c(c_tilde: Any, tau: int) -> Any:
    """FIPS 204, Algorithm 29 (SampleInBall) on H(c_tilde): 136 stream bytes first,
    a longer prefix in the rare case they ran out (as the step path)."""
    n = RATE_256
    while True:
        c, ok = _sample_in_ball(_h(c_tilde, n).reshape(1, n), tau)
        if ok[0]:
            return c
        n *= 4


# --- FIPS 204, Algorithms 6-8 --------------------------------------------------------------


@jit_inline
def _t_parts(a_hat: Any, s: Any, k: int, l: int) -> Any:  # noqa: E741
    """FIPS 204, Algorithm 6 lines 5-6: t = NTT^-1(A_hat o NTT(s1)) + s2 (mod q) and
    Power2Round(t) = (t1, t0), from A_hat and s = s1 || s2 (l + k, 256) signed."""
    s1_hat = _ntt(s[:l].copy())
    t = _mat_vec_intt(a_hat, s1_hat)  # line 5: NTT^-1(A_hat o NTT(s1)) + s2
    t = _mod_q((t + s[l:]).reshape(-1))
    return _power2round(t)  # line 6


@jit_inline
def _keygen_body(
    ex: Any,
    k: int,
    l: int,  # noqa: E741
    eta: int,
    eta_bits: int,
    tr_bytes: int,
) -> Any:
    """FIPS 204, Algorithm 6 lines 3-10 from (rho, rho', K) = ``ex`` (128 bytes):
    (pk, sk), the tr field of sk (line 9: H(pk)) left for the caller."""
    rho = ex[:32].copy()
    a_hat = _expand_a(rho, k, l)  # line 3
    s = _expand_s(ex[32:96].copy(), k, l, eta)  # line 4
    t1, t0 = _t_parts(a_hat, s, k, l)  # lines 5-6
    pk = np.empty(32 + 320 * k, dtype=np.uint8)  # line 8: pkEncode
    put(pk[:32], rho)
    put(pk[32:], _bit_pack(t1.reshape(k, 256), 10).reshape(-1))
    n_s = (l + k) * 32 * eta_bits
    sk = np.zeros(64 + tr_bytes + n_s + k * 32 * _D, dtype=np.uint8)  # line 10: skEncode
    put(sk[:32], rho)
    put(sk[32:64], ex[96:])
    put(sk[64 + tr_bytes : 64 + tr_bytes + n_s], _bit_pack(eta - s, eta_bits).reshape(-1))
    t0_bytes = _bit_pack(((1 << (_D - 1)) - t0).reshape(k, 256), _D).reshape(-1)
    put(sk[64 + tr_bytes + n_s :], t0_bytes)
    return pk, sk


@jit
def _keygen(
    xi: Any,
    k: int,
    l: int,  # noqa: E741
    eta: int,
    eta_bits: int,
    domain: bool,
    tr_bytes: int,
) -> Any:
    """FIPS 204, Algorithm 6 (ML-DSA.KeyGen_internal) of the ``bytes`` xi: (pk, sk).
    ``domain``: the seed is xi || k || l (FIPS 204) rather than xi alone (round 3)."""
    if domain:
        seed = np.empty(34, dtype=np.uint8)
        put(seed[:32], owned(xi))
        seed[32] = k
        seed[33] = l
    else:
        seed = owned(xi)
    ex = _h(seed, 128)  # line 1: (rho, rho', K)
    pk, sk = _keygen_body(ex, k, l, eta, eta_bits, tr_bytes)  # lines 3-10
    put(sk[64 : 64 + tr_bytes], _h(pk, tr_bytes))  # line 9
    return pk, sk


@jit
def _check_secret(sk_bytes: Any, a_hat: Any, eta: int, eta_bits: int, tr_bytes: int) -> Any:
    """The consistency check of an encoded secret key (the step path's
    :func:`pqkit.mldsa.core.public_key_from_secret`): skDecode (FIPS 204, Algorithm
    25) with the range of s1 / s2, t = NTT^-1(A_hat o NTT(s1)) + s2 and its
    Power2Round (Algorithm 6 lines 5-6) against the t0 in sk, and tr against
    H(pkEncode(rho, t1)) (lines 8-9). Returns (failed, pk): failed 0 when it passes,
    else the first check that failed, 1 range, 2 t0, 3 tr; each verdict an OR of
    masks over the whole key (no early exit), the three combined at the end only.
    ``a_hat`` is ExpandA(rho) of sk's rho, (k, l, 256); ``sk_bytes`` the caller's
    ``bytes`` (copied here: :func:`pqkit.arith._jit.owned`)."""
    sk = owned(sk_bytes)
    k = a_hat.shape[0]
    l = a_hat.shape[1]  # noqa: E741
    off = 64 + tr_bytes
    n_s = (l + k) * 32 * eta_bits
    u = _bit_unpack(sk[off : off + n_s].copy().reshape(l + k, 32 * eta_bits), eta_bits)
    over = 0
    for i in range(l + k):
        for j in range(256):
            over |= 2 * eta - u[i, j]  # negative where u > 2 eta
    t1, t0 = _t_parts(a_hat, eta - u, k, l)
    t0_bytes = _bit_pack(((1 << (_D - 1)) - t0).reshape(k, 256), _D).reshape(-1)
    diff_t0 = 0
    for i in range(t0_bytes.shape[0]):
        diff_t0 |= np.int64(t0_bytes[i]) ^ np.int64(sk[off + n_s + i])
    pk = np.empty(32 + 320 * k, dtype=np.uint8)  # line 8: pkEncode
    put(pk[:32], sk[:32])
    put(pk[32:], _bit_pack(t1.reshape(k, 256), 10).reshape(-1))
    tr = _h(pk, tr_bytes)  # line 9
    diff_tr = 0
    for i in range(tr_bytes):
        diff_tr |= np.int64(tr[i]) ^ np.int64(sk[64 + i])
    range_bad = (over >> 63) & 1
    t0_bad = ((-diff_t0) >> 63) & 1
    tr_bad = ((-diff_tr) >> 63) & 1
    return 1 if range_bad else 2 if t0_bad else 3 if tr_bad else 0, pk


@jit_inline
def _checks(
    y: Any, w: Any, cs: Any, gamma1: int, gamma2: int, beta: int, omega: int
) -> tuple[int, Any, Any]:
    """FIPS 204, Algorithm 7 lines 20-28 of one attempt, one pass per vector: z = y +
    cs1 (canonical), r0 = LowBits(w - cs2), the hint h = MakeHint(-ct0, w - cs2 +
    ct0) (Algorithm 39: HighBits(w - cs2 + ct0) != HighBits(w - cs2)), and every
    check (||z||, ||r0||, ||ct0||, the count of ones) folded into one accept bit
    with masks: (ok, z, hint). ``cs`` = c s1 || c s2 || c t0 (canonical rows), y in
    (-gamma1, gamma1], w canonical; sums are brought to [0, q) by sign masks."""
    l = y.shape[0]  # noqa: E741
    k = w.shape[0]
    z = np.empty(l * 256, dtype=np.int64)
    over = 0  # OR of bound - 1 - |x|: negative once any |x| reaches its bound
    for i in range(l):
        for j in range(256):
            v = y[i, j] + cs[i, j]  # (-gamma1, q + gamma1)
            v += ((v >> 63) & Q) - Q
            v += (v >> 63) & Q
            z[i * 256 + j] = v
            over |= gamma1 - beta - 1 - _centred_abs(v)  # line 23: ||z|| < gamma1 - beta
    hint = np.empty(k * 256, dtype=np.int64)
    ones = 0
    for i in range(k):
        for j in range(256):
            x = w[i, j] - cs[l + i, j]  # w - cs2 in (-q, q)
            x += (x >> 63) & Q
            r1 = _high(x, gamma2)
            over |= gamma2 - beta - 1 - _centred_abs(_low(x, r1, gamma2))  # line 23: r0
            ct0 = cs[l + k + i, j]
            over |= gamma2 - 1 - _centred_abs(ct0)  # line 28: ||ct0|| < gamma2
            x += ct0 - Q  # w - cs2 + ct0 in [-q, q)
            x += (x >> 63) & Q
            d = r1 ^ _high(x, gamma2)
            bit = ((d | -d) >> 63) & 1  # 1 where they differ, without a branch
            hint[i * 256 + j] = bit
            ones += bit
    ok = ((over >> 63) ^ 1) & 1 & (((omega - ones) >> 63) ^ 1)  # line 28: ones <= omega
    return ok, z, hint


@jit
def _sign(
    sk: Any,
    a_hat: Any,
    mu: Any,
    rho_pp: Any,
    eta: int,
    tau: int,
    gamma1: int,
    gamma2: int,
    omega: int,
    ctb: int,
    tr_bytes: int,
    max_attempts: int,
) -> Any:
    """FIPS 204, Algorithm 7 (ML-DSA.Sign_internal) from line 7 on, given mu and
    rho'': the signature, or an empty array after ``max_attempts`` rejected
    attempts. One attempt per loop pass; only the combined accept bit branches."""
    k = a_hat.shape[0]
    l = a_hat.shape[1]  # noqa: E741
    eta_bits = 3 if eta == 2 else 4
    z_bits = 18 if gamma1 == (1 << 17) else 20
    w1_bits = 6 if gamma2 == (Q - 1) // 88 else 4
    beta = tau * eta
    # Lines 1-5: skDecode and the NTTs of s1, s2, t0 (the key was checked before).
    off = 64 + tr_bytes
    n_s = (l + k) * 32 * eta_bits
    s = eta - _bit_unpack(sk[off : off + n_s].copy().reshape(l + k, 32 * eta_bits), eta_bits)
    t0 = (1 << (_D - 1)) - _bit_unpack(sk[off + n_s :].copy().reshape(k, 32 * _D), _D)
    small = np.empty((l + 2 * k, 256), dtype=np.int64)  # s1 || s2 || t0
    for i in range(l + k):
        put(small[i], s[i])
    for i in range(k):
        put(small[l + k + i], t0[i])
    small_hat = _ntt_p(small)  # NTT(s1), NTT(s2), NTT(t0) in one call, in the order P
    a_p = _to_p(a_hat.reshape(k * l, 256)).reshape(k, l, 256)  # A_hat in P too
    inputs = np.empty(64 + k * 32 * w1_bits, dtype=np.uint8)  # mu || w1Encode(w1)
    put(inputs[:64], mu)
    # Line 11: ExpandMask(rho'', kappa) is the streams of nonces kappa .. kappa + l - 1,
    # and kappa advances by l (line 32): attempt after attempt, nonces 0, 1, 2, ...
    # They are squeezed 8 at a time (one 8-way permutation per block, whatever the
    # number of streams in use) into ``ys``, which the attempts draw l rows from:
    # one batch of 8 serves 2 attempts of ML-DSA-44, 1.6 of ML-DSA-65. The same y
    # as one call per attempt; at most 7 rows are squeezed and not used.
    ys = np.empty((l + 8, 256), dtype=np.int64)
    have = 0
    nonces = np.arange(8)
    for _attempt in range(max_attempts):
        if have < l:
            more = gamma1 - _bit_unpack(
                _shake_x8(_seeded(rho_pp, nonces, 2), RATE_256, 32 * z_bits), z_bits
            )
            for r in range(8):
                put(ys[have + r], more[r])
            have += 8
            nonces += 8
        y = ys[:l].copy()
        for r in range(have - l):
            put(ys[r], ys[l + r])
        have -= l
        w = _mat_vec_intt_p(a_p, _ntt_p(y))  # line 12
        w1 = np.empty((k, 256), dtype=np.int64)  # line 13: HighBits
        for i in range(k):
            for j in range(256):
                w1[i, j] = _high(w[i, j], gamma2)
        put(inputs[64:], _bit_pack(w1, w1_bits).reshape(-1))
        c_tilde = _h(inputs, ctb)  # line 15
        c_hat = _ntt_p(_sample_c(c_tilde, tau))  # lines 16-17
        cs = _mul_intt_p(small_hat, c_hat[0])  # lines 18, 19 and 25: c s1, c s2, c t0
        ok, z, hint = _checks(y, w, cs, gamma1, gamma2, beta, omega)  # lines 20-28
        if ok:
            return _sig_encode(c_tilde, z, hint, k, l, gamma1, omega, z_bits)
    return np.empty(0, dtype=np.uint8)


@jit
def _sign_m(
    sk_bytes: Any,
    a_hat: Any,
    m_prime: Any,
    rnd: Any,
    check: bool,
    eta: int,
    eta_bits: int,
    tau: int,
    gamma1: int,
    gamma2: int,
    omega: int,
    ctb: int,
    tr_bytes: int,
    max_attempts: int,
    k: int,
    l: int,  # noqa: E741
) -> Any:
    """FIPS 204, Algorithm 7 (ML-DSA.Sign_internal) whole, on M' and rnd: ExpandA(rho)
    (line 3) unless ``a_hat`` holds it (an empty ``a_hat``: expand here), the key's
    consistency check when ``check`` (:func:`_check_secret`), mu = H(tr || M', 64)
    (line 6), rho'' = H(K || rnd || mu, 64) (line 7), then :func:`_sign`. Returns
    (failed, sigma, A_hat): failed as :func:`mldsa_check_secret` gives it (then no
    signing: sigma is empty), sigma empty also after ``max_attempts`` rejections.
    Secret inputs: sk, rnd; the check's verdict is the only branch on the key before
    the attempts' accept bits."""
    sk = owned(sk_bytes)
    if a_hat.shape[0] == 0:
        a_hat = _expand_a(sk[:32].copy(), k, l)
    if check:
        failed, _ = _check_secret(sk_bytes, a_hat, eta, eta_bits, tr_bytes)
        if failed:
            return failed, np.empty(0, dtype=np.uint8), a_hat
    mu = _mu(sk[64 : 64 + tr_bytes], m_prime)  # line 6
    seed = np.empty(128, dtype=np.uint8)  # K || rnd || mu
    put(seed[:32], sk[32:64])
    for i in range(32):
        seed[32 + i] = rnd[i]
    put(seed[64:], mu)
    rho_pp = _h(seed, 64)  # line 7
    sigma = _sign(
        sk, a_hat, mu, rho_pp, eta, tau, gamma1, gamma2, omega, ctb, tr_bytes, max_attempts
    )
    return 0, sigma, a_hat


@jit
def _sig_encode(
    c_tilde: Any,
    z: Any,
    hint: Any,
    k: int,
    l: int,  # noqa: E741
    gamma1: int,
    omega: int,
    z_bits: int,
) -> Any:
    """FIPS 204, Algorithm 26 (sigEncode) with Algorithm 20 (HintBitPack) of an
    accepted attempt (public from here on): z canonical, centred here."""
    ctb = c_tilde.shape[0]
    n_z = l * 32 * z_bits
    out = np.zeros(ctb + n_z + omega + k, dtype=np.uint8)
    put(out[:ctb], c_tilde)
    zc = z.copy()
    for i in range(zc.shape[0]):
        zc[i] = gamma1 - (zc[i] - (((Q - 1) // 2 - zc[i]) >> 63 & Q))
    put(out[ctb : ctb + n_z], _bit_pack(zc.reshape(l, 256), z_bits).reshape(-1))
    index = 0
    base = ctb + n_z
    for i in range(k):
        for j in range(256):
            if hint[i * 256 + j]:
                out[base + index] = j
                index += 1
        out[base + omega + i] = index
    return out


@jit
def _ball_public(stream: Any, tau: int) -> Any:
    """FIPS 204, Algorithm 29 (SampleInBall) as written, for a published c_tilde
    (verification: the signature is public, so its challenge may be sampled with
    branches; signing keeps the masked scan of :func:`_sample_in_ball`). ``stream``
    is a prefix of H(c_tilde): (c, ok), ok False when it ran out (read a longer
    one)."""
    n = stream.shape[0]
    c = np.zeros(256, dtype=np.int64)
    if n < 8:
        return c, False
    signs = 0
    for k in range(8):
        signs |= np.int64(stream[k]) << (8 * k)
    pos = 8
    for i in range(256 - tau, 256):
        while True:  # lines 7-10: the first index byte j <= i
            if pos >= n:
                return c, False
            j = np.int64(stream[pos])
            pos += 1
            if j <= i:
                break
        c[i] = c[j]  # line 11
        c[j] = 1 - 2 * (signs & 1)  # line 12
        signs >>= 1
    return c, True


@jit_inline
def _challenge_public(c_tilde: Any, stream: Any, tau: int) -> Any:
    """SampleInBall(c_tilde) of a published c_tilde from a first prefix ``stream``
    of H(c_tilde), re-reading a longer prefix in the rare case it runs out."""
    c, ok = _ball_public(stream, tau)
    n = stream.shape[0]
    while not ok:
        n *= 4
        c, ok = _ball_public(_h(c_tilde, n), tau)
    return c


@jit
def _verify_w1(
    pk: Any,
    a_hat: Any,
    sig: Any,
    c: Any,
    gamma1: int,
    gamma2: int,
    omega: int,
    ctb: int,
    beta: int,
) -> Any:
    """FIPS 204, Algorithm 8 lines 2-11 given the challenge c of sig's c_tilde:
    (ok, w1Encode(w'_1)); ok is False for a malformed hint or z out of range (then
    the bytes are meaningless). pk and sig have the right lengths. Public data
    only: branches allowed."""
    k = a_hat.shape[0]
    l = a_hat.shape[1]  # noqa: E741
    z_bits = 18 if gamma1 == (1 << 17) else 20
    w1_bits = 6 if gamma2 == (Q - 1) // 88 else 4
    w1_bytes = np.zeros(k * 32 * w1_bits, dtype=np.uint8)
    n_z = l * 32 * z_bits
    z = gamma1 - _bit_unpack(sig[ctb : ctb + n_z].copy().reshape(l, 32 * z_bits), z_bits)
    # Algorithm 21 (HintBitUnpack): None (reject) for a malformed hint.
    y = sig[ctb + n_z :]
    hint = np.zeros(k * 256, dtype=np.int64)
    index = 0
    for i in range(k):
        end = np.int64(y[omega + i])
        if end < index or end > omega:
            return False, w1_bytes
        first = index
        while index < end:
            if index > first and y[index - 1] >= y[index]:
                return False, w1_bytes
            hint[i * 256 + y[index]] = 1
            index += 1
    for i in range(index, omega):
        if y[i] != 0:
            return False, w1_bytes
    if np.max(_infinity_norm(z)) >= gamma1 - beta:  # line 13 (its first half)
        return False, w1_bytes
    t1 = _bit_unpack(pk[32:].copy().reshape(k, 320), 10)
    c_hat = _ntt(c.reshape(1, 256))
    z_hat = _ntt(z)
    t1_hat = _ntt(t1 << _D)
    w = _mat_vec_sub_intt(a_hat, z_hat, t1_hat, c_hat[0])  # line 9
    w1 = _use_hint(hint, w.reshape(-1), gamma2)  # line 10
    put(w1_bytes, _bit_pack(w1.reshape(k, 256), w1_bits).reshape(-1))
    return True, w1_bytes


@jit_inline
def _verify_mu(
    pk: Any,
    a_hat: Any,
    mu: Any,
    sig: Any,
    tau: int,
    gamma1: int,
    gamma2: int,
    omega: int,
    ctb: int,
    beta: int,
) -> bool:
    """FIPS 204, Algorithm 8 (ML-DSA.Verify_internal) from line 2 on, mu given, on
    arrays; pk and sig have the right lengths. Public data only: branches allowed."""
    c_tilde = sig[:ctb].copy()
    c = _challenge_public(c_tilde, _h(c_tilde, RATE_256), tau)  # line 8
    ok, w1_bytes = _verify_w1(pk, a_hat, sig, c, gamma1, gamma2, omega, ctb, beta)
    if not ok:
        return False
    data = np.empty(64 + w1_bytes.shape[0], dtype=np.uint8)
    put(data[:64], mu)
    put(data[64:], w1_bytes)
    again = _h(data, ctb)  # line 12
    diff = 0
    for i in range(ctb):
        diff |= np.int64(again[i]) ^ np.int64(c_tilde[i])
    return diff == 0


@jit
def _verify(
    pk_bytes: Any,
    a_hat: Any,
    mu_bytes: Any,
    sig_bytes: Any,
    tau: int,
    gamma1: int,
    gamma2: int,
    omega: int,
    ctb: int,
    beta: int,
) -> bool:
    """:func:`_verify_mu` of the caller's ``bytes`` (copied here: external mu)."""
    return _verify_mu(
        owned(pk_bytes),
        a_hat,
        owned(mu_bytes),
        owned(sig_bytes),
        tau,
        gamma1,
        gamma2,
        omega,
        ctb,
        beta,
    )


@jit
def _verify_m(
    pk_bytes: Any,
    a_hat: Any,
    m_prime: Any,
    sig_bytes: Any,
    tau: int,
    gamma1: int,
    gamma2: int,
    omega: int,
    ctb: int,
    beta: int,
    tr_bytes: int,
    k: int,
    l: int,  # noqa: E741
) -> Any:
    """FIPS 204, Algorithm 8 (ML-DSA.Verify_internal) whole, on M': ExpandA(rho)
    (line 5) unless ``a_hat`` holds it (an empty ``a_hat``: expand here), tr = H(pk)
    (line 6), mu = H(tr || M', 64) (line 7), then :func:`_verify_mu`. Returns (ok,
    A_hat). Public data only."""
    pk = owned(pk_bytes)
    if a_hat.shape[0] == 0:
        a_hat = _expand_a(pk[:32].copy(), k, l)
    mu = _mu(_h(pk, tr_bytes), m_prime)  # lines 6-7
    ok = _verify_mu(pk, a_hat, mu, owned(sig_bytes), tau, gamma1, gamma2, omega, ctb, beta)
    return ok, a_hat


# --- Python wrappers: the contract --------------------------------------------------------


_u8 = kernel_bytes
_NO_A_HAT = np.zeros((0, 0, 256), dtype=np.int64)  # "expand it here"; never written


def _a_hat_in(A_hat: npt.NDArray[np.int64] | None) -> npt.NDArray[np.int64]:
    """A whole operation's A_hat argument: the cached one, or none (expand inside)."""
    return _NO_A_HAT if A_hat is None else kernel_array(A_hat)


def _a_hat_out(A_hat: npt.NDArray[np.int64] | None, made: Any) -> npt.NDArray[np.int64]:
    """The A_hat a whole operation hands back: the one given, or the one it made."""
    return frozen_view(made) if A_hat is None else A_hat


def mldsa_expand_a(rho: bytes, k: int, l: int) -> npt.NDArray[np.int64]:  # noqa: E741
    a_hat: npt.NDArray[np.int64] = frozen_view(_expand_a(_u8(rho), k, l))
    return a_hat


def mldsa_keygen_internal(xi: bytes, *params: Any) -> tuple[bytes, bytes]:
    """``params``: k, l, eta, eta_bits, domain, tr_bytes (the contract's
    :class:`MLDSAOperations`)."""
    pk, sk = _keygen(xi, *params)
    return pk.tobytes(), sk.tobytes()


def mldsa_check_secret(sk: bytes, A_hat: npt.NDArray[np.int64], *params: int) -> tuple[int, bytes]:
    """``params``: k, l, eta, eta_bits, tr_bytes (the contract's
    :class:`MLDSAOperations`; k and l are A_hat's shape)."""
    failed, pk = _check_secret(sk, kernel_array(A_hat), *params[2:])
    return int(failed), pk.tobytes()


def mldsa_sign_internal(
    sk: bytes, A_hat: npt.NDArray[np.int64], mu: bytes, rho_pp: bytes, *params: int
) -> bytes | None:
    """``params``: eta, tau, gamma1, gamma2, omega, c_tilde_bytes, tr_bytes,
    max_attempts (the contract's :class:`MLDSAOperations`)."""
    out = _sign(_u8(sk), kernel_array(A_hat), _u8(mu), _u8(rho_pp), *params)
    return out.tobytes() if out.shape[0] else None


def mldsa_sign(
    sk: bytes,
    A_hat: npt.NDArray[np.int64] | None,
    m_prime: bytes,
    rnd: bytes,
    check: bool,
    *params: int,
) -> tuple[int, bytes | None, npt.NDArray[np.int64]]:
    """``params``: eta, eta_bits, tau, gamma1, gamma2, omega, c_tilde_bytes,
    tr_bytes, max_attempts, k, l (the contract's :class:`MLDSAOperations`)."""
    failed, out, made = _sign_m(sk, _a_hat_in(A_hat), m_prime, rnd, check, *params)
    return int(failed), out.tobytes() if out.shape[0] else None, _a_hat_out(A_hat, made)


def mldsa_verify_internal(
    pk: bytes, A_hat: npt.NDArray[np.int64], mu: bytes, sig: bytes, *params: int
) -> bool:
    """``params``: tau, gamma1, gamma2, omega, c_tilde_bytes, beta (the contract's
    :class:`MLDSAOperations`)."""
    return bool(_verify(pk, kernel_array(A_hat), mu, sig, *params))


def mldsa_verify(
    pk: bytes, A_hat: npt.NDArray[np.int64] | None, m_prime: bytes, sig: bytes, *params: int
) -> tuple[bool, npt.NDArray[np.int64]]:
    """``params``: tau, gamma1, gamma2, omega, c_tilde_bytes, beta, tr_bytes, k, l
    (the contract's :class:`MLDSAOperations`)."""
    ok, made = _verify_m(pk, _a_hat_in(A_hat), m_prime, sig, *params)
    return bool(ok), _a_hat_out(A_hat, made)


OPERATIONS: dict[str, Any] = kernel_table(MLDSAOperations, globals())
