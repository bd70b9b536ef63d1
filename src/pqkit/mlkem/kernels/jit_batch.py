"""The ``jit`` ML-KEM batch operations: FIPS 203 key generation, encapsulation and
decapsulation of many items in one compiled call (Numba, ``nogil``).

The batch view (:class:`pqkit.mlkem.batch.MLKEMBatch`) runs these on the ``jit``
backend, one call per chunk of rows, chunks spread over threads
(:func:`pqkit.batch.run_chunks`); every other backend keeps the view's vectorised
NumPy path. Every row equals the single operation of
:mod:`pqkit.mlkem.kernels.jit_ops` (the tests compare them byte for byte).

The rows are taken 16 at a time (a group, ``_G``) and the K-PKE arithmetic of
the 16 items runs in column layout, int32 (256, 16 x count) with one vector lane
per item (:mod:`pqkit.mlkem.kernels.jit_cols32`): the noise is sampled into
columns, the NTTs and inverse NTTs transform the columns in lock-step, A_hat o
s_hat, A_hat^T y_hat and t_hat^T y_hat multiply the 16 items' columns at once
(:func:`pqkit.mlkem.kernels.jit_cols32._matvec_cols32`, a whole product per pass;
the matrix is sampled entry after entry so that each entry's 16 streams land in
adjacent columns), decryption decodes c and s_hat straight into the columns
(:func:`pqkit.mlkem.kernels.jit_cols32._decrypt_group`), decapsulation compares the
re-encryption with c on the compressed values, and keys and ciphertexts are
encoded down the columns. Every reduction is exact (Barrett or Shoup steps, a
multiply-and-shift exact in its range, sign masks), so every value is the single
operation's and the security argument carries over: no branch, ``%`` or division
on secret values.

The hashing: every Keccak of 8 items runs in one
:func:`pqkit.common.kernels.jit._keccak_x8` group (one SIMD lane per item) where
the single operation fills one lane: G, H(ek) and J of 8 items in one sponge
(:func:`pqkit.common.kernels.jit_sponge._sponge_rows`), the matrix streams and the
PRF calls in runs of groups. For ML-KEM-768 that is about 5.5 permutations of 8
states per item instead of 17.

A broadcast key (one row of ``eks`` / ``dks`` against many rows) is decoded and
its matrix expanded once per call. Arguments are trusted (the view checks
types, lengths and the FIPS 203 §7 input checks first, with
:func:`ek_modulus_bad` and :func:`dk_hash_bad`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.arith._jit import jit, jit_inline, put
from pqkit.arith._jit import writable_u8 as _c
from pqkit.arith.api import named_table
from pqkit.common.kernels.jit_sponge import (
    RATE_128,
    RATE_256,
    RATE_512,
    SHA3_PAD,
    SHAKE_PAD,
    _permute,
    _shake_x8,
    _sponge_rows,
)
from pqkit.mlkem.kernels.jit import _COMPRESS_M, _csub32
from pqkit.mlkem.kernels.jit_cols32 import (
    GROUP,
    _cbd_cols32,
    _decode12_32,
    _decrypt_group,
    _equal_mask,
    _into_cols32,
    _intt_cols32,
    _matvec_cols32,
    _mulcache_cols32,
    _ntt_cols32,
    _reduce_cols32,
)
from pqkit.mlkem.kernels.jit_ops import _matrix_nonces
from pqkit.mlkem.kernels.tables import MLKEM_Q as Q

__all__ = ["BATCH_OPERATIONS"]

_G = GROUP
"""Items per group (16): two Keccak groups of 8 (one lane each); the column kernels
run the 16 in lock-step."""


@jit
def _seed_rows(seeds: Any, nonces: Any, width: int) -> Any:
    """Row i * len(nonces) + j: seeds[i] || IntegerToBytes(nonces[j], width),
    little-endian (the matrix inputs rho || j || i, the PRF inputs s || N)."""
    b, s = seeds.shape
    n = nonces.shape[0]
    out = np.empty((b * n, s + width), dtype=np.uint8)
    for i in range(b):
        for j in range(n):
            r = i * n + j
            put(out[r, :s], seeds[i])
            for t in range(width):
                out[r, s + t] = (nonces[j] >> (8 * t)) & 0xFF
    return out


@jit_inline
def _keep(row: Any, c: Any, d: Any) -> Any:
    """Algorithm 7 lines 8-13 for one candidate d: written at row[c], kept by
    advancing the (unsigned) count c by d < q, without a branch."""
    row[c] = np.int32(d)
    return c + np.uint64(d < Q)


@jit_inline
def _parse_block(w: Any, j: int, row: Any, c: Any) -> Any:
    """FIPS 203, Algorithm 7 lines 4-13 on one squeezed SHAKE128 block of state j of
    w (lane j of :func:`pqkit.common.kernels.jit._keccak_x8`'s layout): its 112
    12-bit candidates d1, d2 (3 lanes, 24 bytes, hold 16 of them, in order), each
    written at row[c] and kept by advancing c by d < q (no branch per candidate;
    ``row`` has room for a block's candidates past 256). c is unsigned so that the
    store needs no negative-index fix-up: about 0.6 us less per key's matrix than
    the single operation's parse. Returns c."""
    # Repeats jit_ops._sample_ntt's unpacking on purpose: unsigned count, int32 rows.
    for t in range(RATE_128 // 24):
        a0 = w[8 * (3 * t) + j]
        a1 = w[8 * (3 * t + 1) + j]
        a2 = w[8 * (3 * t + 2) + j]
        c = _keep(row, c, a0 & 0xFFF)
        c = _keep(row, c, (a0 >> 12) & 0xFFF)
        c = _keep(row, c, (a0 >> 24) & 0xFFF)
        c = _keep(row, c, (a0 >> 36) & 0xFFF)
        c = _keep(row, c, (a0 >> 48) & 0xFFF)
        c = _keep(row, c, ((a0 >> 60) & 0xF) | ((a1 & 0xFF) << 4))
        c = _keep(row, c, (a1 >> 8) & 0xFFF)
        c = _keep(row, c, (a1 >> 20) & 0xFFF)
        c = _keep(row, c, (a1 >> 32) & 0xFFF)
        c = _keep(row, c, (a1 >> 44) & 0xFFF)
        c = _keep(row, c, ((a1 >> 56) & 0xFF) | ((a2 & 0xF) << 8))
        c = _keep(row, c, (a2 >> 4) & 0xFFF)
        c = _keep(row, c, (a2 >> 16) & 0xFFF)
        c = _keep(row, c, (a2 >> 28) & 0xFFF)
        c = _keep(row, c, (a2 >> 40) & 0xFFF)
        c = _keep(row, c, (a2 >> 52) & 0xFFF)
    return c


@jit_inline
def _absorb_seeds(w: Any, rho_words: Any, nonces: Any, g: int, n: int) -> None:
    """w := the SHAKE128 states of the matrix streams g .. g + 7 of
    :func:`_matrix_cols` (stream r = b e + i: rho of item i || the 2-byte nonce of
    entry e; past n - 1 the last stream again) after absorbing their 34 bytes and
    permuting (:func:`pqkit.common.kernels.jit_sponge._permute`): the one block
    written as its lanes (FIPS 202 §B.1: little-endian), rho's 4 words, the nonce
    and the SHAKE padding in lane 4, the final bit in lane 20, rather than
    :func:`pqkit.common.kernels.jit_sponge._absorb_x8`'s byte buffer (about 0.3 us
    less per ML-KEM-768 key)."""
    b = rho_words.shape[0]
    w[:] = 0
    for j in range(8):
        r = min(g + j, n - 1)
        e = r // b  # public: the stream's entry
        i = r - b * e
        for t in range(4):
            w[8 * t + j] = rho_words[i, t]
        w[32 + j] = np.uint64(nonces[e] | (SHAKE_PAD << 16))
        w[8 * (RATE_128 // 8 - 1) + j] = np.uint64(0x80) << np.uint64(56)
    _permute(w, np.int64(min(8, n - g)))


@jit
def _matrix_cols(rhos: Any, k: int, spare: int) -> Any:
    """A_hat of up to 16 items in column layout: int32 (256, 16 (k^2 + spare)),
    column 16 e + i item i's entry e = r k + c, A_hat[r, c] = SampleNTT(rho || c || r)
    (the ``spare`` groups after them left for the caller: t_hat) (FIPS 203,
    Algorithm 13 lines 3-7, Algorithm 14 lines 4-8, Algorithm 7); items past the
    last row of rhos (b, 32) repeat it (sampled once: one key broadcast is k^2
    streams). The b k^2 SHAKE128 streams run 8 at a time, one block per round
    (:func:`_absorb_seeds`); a group squeezes again while one of its entries has
    fewer than 256 values (public data: the branch is Algorithm 7's). The values
    are parsed into the columns of a (., 8) scratch, so that 8 streams of one entry
    (adjacent columns of out: every group of a full 16) are copied 8 adjacent values
    at a time (2x the speed of a scattered copy, measured)."""
    b = rhos.shape[0]
    nonces = _matrix_nonces(k)
    n = b * k * k
    rho_words = rhos.copy().view(np.uint64)  # (b, 4), little-endian
    out = np.empty((256, _G * (k * k + spare)), dtype=np.int32)
    w = np.zeros(200, dtype=np.uint64)
    counts = np.zeros(8, dtype=np.uint64)
    tmp = np.zeros((256 + RATE_128 // 3 * 2, 8), dtype=np.int32)  # + one block
    cols = np.empty(8, dtype=np.int64)
    for g in range(0, n, 8):
        m = min(8, n - g)
        _absorb_seeds(w, rho_words, nonces, g, n)
        counts[:] = 0
        while True:
            done = True
            for j in range(m):
                c = counts[j]
                if c >= 256:
                    continue
                c = min(_parse_block(w, j, tmp[:, j], c), np.uint64(256))
                counts[j] = c
                if c < 256:
                    done = False
            if done:
                break
            _permute(w, np.int64(0))
        for j in range(m):
            e = (g + j) // b  # public: the row's entry
            cols[j] = _G * e + g + j - b * e
        if m == 8 and cols[7] == cols[0] + 7:  # public: 8 adjacent columns
            c0 = cols[0]
            for p in range(256):
                for j in range(8):
                    out[p, c0 + j] = tmp[p, j]
        else:
            for p in range(256):
                for j in range(m):
                    out[p, cols[j]] = tmp[p, j]
    for e in range(k * k):  # spare columns: the last item again
        for i in range(b, _G):
            for p in range(256):
                out[p, _G * e + i] = out[p, _G * e + b - 1]
    return out


@jit
def _prf_rows(seeds: Any, count: int, out_len: int) -> Any:
    """PRF(seed, N) = SHAKE256(seed || N, out_len) (FIPS 203 §4.1) for N = 0 ..
    count - 1 and every row of seeds (b, 32): (b, count, out_len), 8 at a time."""
    b = seeds.shape[0]
    nonces = np.arange(count)
    return _shake_x8(_seed_rows(seeds, nonces, 1), RATE_256, out_len).reshape(b, count, out_len)


@jit
def _states(eks: Any, k: int) -> Any:
    """The decoded encapsulation keys of up to 16 items, eks (b, 384 k + 32), in
    column layout (items past the last row repeat it): int32 (256, 16 (k^2 + k)),
    A_hat's entries first (:func:`_matrix_cols`), then t_hat, column 16 (k^2 + j) +
    i item i's t_hat[j] (FIPS 203, Algorithm 14 lines 2-8): one array, so that
    :func:`pqkit.mlkem.kernels.jit_cols32._matvec_cols32` reads both as one."""
    b = eks.shape[0]
    t_rows = np.empty((_G * k, 256), dtype=np.int32)
    for i in range(_G):
        for j in range(k):
            _decode12_32(eks[min(i, b - 1)], 384 * j, t_rows, _G * j + i)
    pub = _matrix_cols(eks[:, 384 * k :].copy(), k, k)
    _into_cols32(t_rows, pub, _G * k * k)
    return pub


@jit
def _encrypt_rows(
    pub: Any, ms: Any, buf: Any, k: int, eta1: int, eta2: int, du: int, dv: int
) -> Any:
    """FIPS 203, Algorithm 14 (K-PKE.Encrypt) of b <= 16 items -> ciphertexts (b, 32
    (du k + dv)): :func:`_encrypt_cols` (the compressed u and v in columns), then
    lines 22-24, encoded down the columns."""
    w = _encrypt_cols(pub, ms, buf, k, eta1, eta2, du, dv)
    out = np.empty((ms.shape[0], 32 * (du * k + dv)), dtype=np.uint8)
    _encode_items(w, k, du, dv, out)
    return out


@jit
def _encrypt_cols(
    pub: Any, ms: Any, buf: Any, k: int, eta1: int, eta2: int, du: int, dv: int
) -> Any:
    """FIPS 203, Algorithm 14 (K-PKE.Encrypt) lines 9-23 before the encoding, for b
    <= 16 items in column layout: pub the keys' A_hat and t_hat (:func:`_states`),
    ms (b, 32) and the PRF outputs buf (b, 2k + 1, >= 64 max(eta1, eta2)) of lines
    9-17 -> int32 (256, 16 (k + 1)), column 16 j + i item i's Compress_du(u[j]) (j <
    k) or Compress_dv(v) (j = k). The arithmetic of
    :func:`pqkit.mlkem.kernels.jit._kpke_encrypt` with the 16 items in lock-step,
    int32 lanes (spare columns repeat the last item): y and e sampled into columns,
    NTT(y), A_hat^T y_hat and t_hat^T y_hat in one pass (:func:`_matvec_cols32`: at
    most k BaseCaseMultiply terms summed, one Barrett step), the inverse NTTs, and
    the noise, mu and compression read straight from the columns. eta is 2 or 3."""
    y = np.empty((256, _G * k), dtype=np.int32)  # column 16 j + i: y[j] of item i
    e = np.empty((256, _G * (k + 1)), dtype=np.int32)  # column 16 j + i: e1[j], e2 (j = k)
    # Lines 9-17, eta spelled out as a constant so that the field shifts fold (about
    # 1.25x the speed); one loop for y and e keeps to one copy of the code per eta.
    for part in range(2):
        dst = y if part == 0 else e
        eta = eta1 if part == 0 else eta2
        first = 0 if part == 0 else k
        count = k if part == 0 else k + 1
        if eta == 2:
            _cbd_cols32(buf, first, count, 2, dst)
        else:
            _cbd_cols32(buf, first, count, 3, dst)
    _ntt_cols32(y)  # line 18
    _reduce_cols32(y)
    z = _mulcache_cols32(y)
    # Lines 19 and 21 in the NTT domain: column 16 o + i of w is item i's (A_hat^T
    # y_hat)[o] (o < k; A_hat^T[o, j] = A_hat[j, o]) or t_hat^T y_hat (o = k).
    w = np.empty((256, _G * (k + 1)), dtype=np.int32)
    _matvec_cols32(w, pub, y, z, k, k)
    _intt_cols32(w)  # lines 19 and 21: NTT^-1 (with 128^-1), canonical
    _compress_cols(w, e, ms, du, dv)
    return w


@jit_inline
def _encode_cols(y: Any, col: int, d: int, out: Any, row: int, off: int) -> None:
    """ByteEncode_d (d <= 15) of column ``col`` of y (256, .), values below 2^d, into
    out[row, off : off + 32 d]: :func:`pqkit.arith._jit.pack_le`'s groups of 8
    values (d bytes, two 64-bit words), read down a column."""
    half = 4 * d  # bits of 4 values, <= 60
    for g in range(32):
        lo_4 = 0
        hi_4 = 0
        for t in range(4):
            lo_4 |= np.int64(y[8 * g + t, col]) << (d * t)
            hi_4 |= np.int64(y[8 * g + 4 + t, col]) << (d * t)
        lo = lo_4 | (hi_4 << half)  # bits 0-63 of the group (the top ones drop)
        hi = hi_4 >> (64 - half)  # bits 64 and up
        for b in range(d):
            if b < 8:  # public positions
                out[row, off + d * g + b] = (lo >> (8 * b)) & 255
            else:
                out[row, off + d * g + b] = (hi >> (8 * (b - 8))) & 255


@jit_inline
def _encode_items(y: Any, k: int, du: int, dv: int, out: Any) -> None:
    """FIPS 203, Algorithm 14 lines 22-23 for the rows of out: c1 || c2 of item i is
    ByteEncode_du of columns j 8 + i (j < k) of y and ByteEncode_dv of column k 8 + i
    (:func:`_encode_cols`)."""
    for i in range(out.shape[0]):
        for j in range(k):
            _encode_cols(y, j * _G + i, du, out, i, 32 * du * j)
        _encode_cols(y, k * _G + i, dv, out, i, 32 * du * k)


@jit
def _compress_cols(w: Any, e: Any, ms: Any, du: int, dv: int) -> None:
    """FIPS 203, Algorithm 14 lines 19-23 before the encoding, from the columns of
    :func:`_encrypt_cols` (column 16 j + i: item i's row j; w the inverse NTTs,
    canonical): u = w[:k] + e1 and v = w[k] + e2 + mu, as
    :func:`pqkit.mlkem.kernels.jit._encrypt_tail` (the sums below 3q, mu by a mask),
    compressed in lock-step, in place in w (the caller's scratch)."""
    b = ms.shape[0]
    k = w.shape[1] // _G - 1
    # w := Compress_du(u), in place: one loop over the k 16 columns of u per
    # coefficient (2x the speed of a loop per polynomial of 16 columns).
    shift_u = du + 1
    mask_u = (1 << du) - 1
    for p in range(256):
        for c in range(k * _G):
            x = w[p, c] + e[p, c]
            w[p, c] = ((((x << shift_u) + Q) * _COMPRESS_M) >> 40) & mask_u
    mt = np.empty((32, _G), dtype=np.int64)  # byte q of item i's m at [q, i]
    for i in range(_G):
        for q in range(32):
            mt[q, i] = ms[min(i, b - 1), q]
    shift_v = dv + 1
    mask_v = (1 << dv) - 1
    for p in range(256):  # Compress_dv(v)
        for i in range(_G):
            bit = (mt[p >> 3, i] >> (p & 7)) & 1
            x = w[p, k * _G + i] + e[p, k * _G + i] + (-bit & 1665)
            w[p, k * _G + i] = ((((x << shift_v) + Q) * _COMPRESS_M) >> 40) & mask_v


@jit
def _keygen_rows(dz: Any, k: int, eta1: int) -> Any:
    """FIPS 203, Algorithm 16 (ML-KEM.KeyGen_internal) on every row d || z of dz
    (m, 64): (eks (m, 384 k + 32), dks (m, 768 k + 96)), 8 rows per group."""
    m = dz.shape[0]
    n_ek = 384 * k + 32
    eks = np.empty((m, n_ek), dtype=np.uint8)
    dks = np.empty((m, 768 * k + 96), dtype=np.uint8)
    for g in range(0, m, _G):
        b = min(_G, m - g)
        seeds = np.empty((b, 33), dtype=np.uint8)
        for i in range(b):
            put(seeds[i, :32], dz[g + i, :32])
            seeds[i, 32] = k
        rs = _sponge_rows(seeds, RATE_512, SHA3_PAD, np.int64(64))  # Algorithm 13 line 1: G(d || k)
        a_hat = _matrix_cols(rs[:, :32].copy(), k, 0)  # lines 3-7
        # Lines 8-17: PRF(sigma, 0 .. 2k - 1), sampled into the columns 8 j + i
        # (item i's s[j], then e[j - k]) and the 8 2k NTTs in lock-step.
        noise = _prf_rows(rs[:, 32:].copy(), 2 * k, 64 * eta1)
        se = np.empty((256, _G * 2 * k), dtype=np.int32)
        if eta1 == 2:
            _cbd_cols32(noise, 0, 2 * k, 2, se)
        else:
            _cbd_cols32(noise, 0, 2 * k, 3, se)
        _ntt_cols32(se)
        _reduce_cols32(se)
        # Line 18: t_hat = A_hat o s_hat + e_hat, column 8 r + i of t item i's row r.
        s_hat = se[:, : _G * k].copy()
        z = _mulcache_cols32(s_hat)
        t = np.empty((256, _G * k), dtype=np.int32)
        _matvec_cols32(t, a_hat, s_hat, z, k, 0)
        for p in range(256):
            for c in range(_G * k):
                t[p, c] = _csub32(t[p, c] + se[p, _G * k + c])
        for i in range(b):
            row = g + i
            for j in range(k):
                _encode_cols(t, _G * j + i, 12, eks, row, 384 * j)  # line 19
                _encode_cols(se, _G * j + i, 12, dks, row, 384 * j)  # line 20
            put(eks[row, 384 * k :], rs[i, :32])  # line 19: rho
            put(dks[row, 384 * k : 384 * k + n_ek], eks[row])  # Algorithm 16 line 3
            put(dks[row, 384 * k + n_ek + 32 :], dz[row, 32:])  # z
        hs = _sponge_rows(eks[g : g + b].copy(), RATE_256, SHA3_PAD, np.int64(32))  # H(ek)
        for i in range(b):
            put(dks[g + i, 384 * k + n_ek : 384 * k + n_ek + 32], hs[i])
    return eks, dks


@jit
def _encaps_rows(eks: Any, ms: Any, k: int, eta1: int, eta2: int, du: int, dv: int) -> Any:
    """FIPS 203, Algorithm 17 (ML-KEM.Encaps_internal) on every row: eks (m or 1,
    384 k + 32; one row broadcasts, decoded once), ms (m, 32) -> (keys (m, 32),
    ciphertexts (m, 32 (du k + dv)))."""
    m = ms.shape[0]
    single = eks.shape[0] == 1
    out_k = np.empty((m, 32), dtype=np.uint8)
    out_c = np.empty((m, 32 * (du * k + dv)), dtype=np.uint8)
    pub = np.zeros((256, _G * (k * k + k)), dtype=np.int32)
    hs = np.zeros((1, 32), dtype=np.uint8)
    if single:
        key = eks[:1].copy()
        pub = _states(key, k)
        hs = _sponge_rows(key, RATE_256, SHA3_PAD, np.int64(32))  # H(ek)
    eta = max(eta1, eta2)
    for g in range(0, m, _G):
        b = min(_G, m - g)
        if not single:
            rows = eks[g : g + b].copy()
            pub = _states(rows, k)
            hs = _sponge_rows(rows, RATE_256, SHA3_PAD, np.int64(32))  # H(ek)
        mh = np.empty((b, 64), dtype=np.uint8)
        for i in range(b):
            put(mh[i, :32], ms[g + i])
            put(mh[i, 32:], hs[0 if single else i])
        kr = _sponge_rows(mh, RATE_512, SHA3_PAD, np.int64(64))  # line 1: (K, r) = G(m || H(ek))
        buf = _prf_rows(kr[:, 32:].copy(), 2 * k + 1, 64 * eta)  # Algorithm 14 lines 9-17
        c = _encrypt_rows(pub, mh[:, :32].copy(), buf, k, eta1, eta2, du, dv)  # line 2
        for i in range(b):
            put(out_k[g + i], kr[i, :32])
            put(out_c[g + i], c[i])
    return out_k, out_c


@jit
def _decaps_rows(dks: Any, cs: Any, k: int, eta1: int, eta2: int, du: int, dv: int) -> Any:
    """FIPS 203, Algorithm 18 (ML-KEM.Decaps_internal) on every row: dks (m or 1,
    768 k + 96) and cs (m or 1, 32 (du k + dv)), a single row broadcasting (a
    single dk's ek is decoded once) -> shared secrets (m, 32). Per group of 16:
    K-PKE.Decrypt in columns (:func:`_decrypt_group`), G, J and the PRF 8 items per
    permutation, the re-encryption up to its compressed values
    (:func:`_encrypt_cols`), compared with c's decoded values
    (:func:`_equal_mask`) and the key chosen by a byte mask."""
    m = max(dks.shape[0], cs.shape[0])
    single = dks.shape[0] == 1
    n_ek = 384 * k + 32
    n_c = cs.shape[1]
    out = np.empty((m, 32), dtype=np.uint8)
    pub = np.zeros((256, _G * (k * k + k)), dtype=np.int32)
    if single:
        pub = _states(dks[:1, 384 * k : 384 * k + n_ek].copy(), k)
    eta = max(eta1, eta2)
    drows = np.empty(_G, dtype=np.int64)
    crows = np.empty(_G, dtype=np.int64)
    for g in range(0, m, _G):
        b = min(_G, m - g)
        if not single:
            pub = _states(dks[g : g + b, 384 * k : 384 * k + n_ek].copy(), k)
        for i in range(_G):  # spare lanes repeat the last item
            drows[i] = 0 if single else g + min(i, b - 1)
            crows[i] = 0 if cs.shape[0] == 1 else g + min(i, b - 1)
        m_prime, cv = _decrypt_group(dks, drows, cs, crows, k, du, dv)  # line 5
        mh = np.empty((b, 64), dtype=np.uint8)
        zc = np.empty((b, 32 + n_c), dtype=np.uint8)
        for i in range(b):
            dk = dks[drows[i]]
            put(mh[i, :32], m_prime[i])
            put(mh[i, 32:], dk[384 * k + n_ek : 384 * k + n_ek + 32])  # line 3: h
            put(zc[i, :32], dk[384 * k + n_ek + 32 :])  # line 4: z
            put(zc[i, 32:], cs[crows[i]])
        kr = _sponge_rows(mh, RATE_512, SHA3_PAD, np.int64(64))  # line 6: (K', r') = G(m' || h)
        k_bar = _sponge_rows(zc, RATE_256, SHAKE_PAD, np.int64(32))  # line 7: K_bar = J(z || c)
        buf = _prf_rows(kr[:, 32:].copy(), 2 * k + 1, 64 * eta)
        w = _encrypt_cols(pub, mh[:, :32].copy(), buf, k, eta1, eta2, du, dv)  # line 8
        mask = _equal_mask(w, cv, b)  # line 9: c == c', on the compressed values
        for i in range(b):  # lines 9-11: K' where equal, else K_bar (byte masks)
            for t in range(32):
                out[g + i, t] = (np.int64(kr[i, t]) & mask[i]) | (
                    np.int64(k_bar[i, t]) & (mask[i] ^ 0xFF)
                )
    return out


@jit
def _ek_modulus_bad(eks: Any, k: int) -> Any:
    """FIPS 203 §7.2 modulus check on every row: True where ByteEncode_12 of
    ByteDecode_12(ek[:384 k]) differs from those bytes. ByteDecode_12 reduces each
    12-bit value mod q and ByteEncode_12 writes it back in the same 12 bits, so the
    bytes differ exactly where some value is q or more: that is what is tested, a
    comparison per value and no temporaries (public keys)."""
    m = eks.shape[0]
    bad = np.zeros(m, dtype=np.bool_)
    for r in range(m):
        high = 0
        for i in range(128 * k):
            b0 = np.int64(eks[r, 3 * i])
            b1 = np.int64(eks[r, 3 * i + 1])
            b2 = np.int64(eks[r, 3 * i + 2])
            high |= np.int64((b0 | ((b1 & 15) << 8)) >= Q) | np.int64(((b1 >> 4) | (b2 << 4)) >= Q)
        bad[r] = high != 0
    return bad


@jit
def _dk_hash_bad(dks: Any, k: int) -> Any:
    """FIPS 203 §7.3 hash check on every row: True where H(dk[384 k : 768 k + 32])
    differs from dk[768 k + 32 : 768 k + 64] (compared by OR-ing every byte's XOR;
    only the verdict is branched on, by the caller)."""
    m = dks.shape[0]
    hs = _sponge_rows(dks[:, 384 * k : 768 * k + 32].copy(), RATE_256, SHA3_PAD, np.int64(32))
    bad = np.zeros(m, dtype=np.bool_)
    for r in range(m):
        diff = 0
        for i in range(32):
            diff |= np.int64(hs[r, i]) ^ np.int64(dks[r, 768 * k + 32 + i])
        bad[r] = diff != 0
    return bad


# --- Python wrappers -----------------------------------------------------------------

U8 = npt.NDArray[np.uint8]


def keygen_rows(dz: U8, k: int, eta1: int) -> tuple[U8, U8]:
    """(eks, dks) of the rows d || z of dz (m, 64)."""
    eks, dks = _keygen_rows(_c(dz), k, eta1)
    return eks, dks


def encaps_rows(eks: U8, ms: U8, k: int, eta1: int, eta2: int, du: int, dv: int) -> tuple[U8, U8]:
    """(shared secrets, ciphertexts) of eks (m or 1 rows) and ms (m, 32)."""
    keys, cts = _encaps_rows(_c(eks), _c(ms), k, eta1, eta2, du, dv)
    return keys, cts


def decaps_rows(dks: U8, cs: U8, k: int, eta1: int, eta2: int, du: int, dv: int) -> U8:
    """Shared secrets of dks and cs (m or 1 rows each)."""
    out: U8 = _decaps_rows(_c(dks), _c(cs), k, eta1, eta2, du, dv)
    return out


def ek_modulus_bad(eks: U8, k: int) -> npt.NDArray[np.bool_]:
    """The rows of eks failing the FIPS 203 §7.2 modulus check."""
    bad: npt.NDArray[np.bool_] = _ek_modulus_bad(_c(eks), k)
    return bad


def dk_hash_bad(dks: U8, k: int) -> npt.NDArray[np.bool_]:
    """The rows of dks failing the FIPS 203 §7.3 hash check."""
    bad: npt.NDArray[np.bool_] = _dk_hash_bad(_c(dks), k)
    return bad


BATCH_OPERATIONS: dict[str, Any] = named_table(
    globals(), "keygen_rows", "encaps_rows", "decaps_rows", "ek_modulus_bad", "dk_hash_bad"
)
