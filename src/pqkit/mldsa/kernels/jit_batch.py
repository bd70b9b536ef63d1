# Twin of pqkit/mldsa/kernels/jit_ops.py: the same FIPS 204 steps over many rows per call.
"""The ``jit`` ML-DSA batch operations: FIPS 204 key generation, signing and
verification of many items in one compiled call (Numba, ``nogil``).

The batch view (:class:`pqkit.mldsa.batch.MLDSABatch`) runs these on the ``jit``
backend for the SHAKE parameter sets, one call per chunk of rows, chunks spread
over threads (:func:`pqkit.batch.run_chunks`); other backends keep the view's
vectorised NumPy path. Each row runs the single operation's compiled code
(:mod:`pqkit.mldsa.kernels.jit_ops`: :func:`_keygen_body`, :func:`_sign`,
:func:`_verify`), so it gives the same bytes and keeps that module's security
argument:

- Signing: every row runs its own rejection loop (FIPS 204, Algorithm 7) to its
  own first acceptable attempt; a row needing many attempts delays no other row
  beyond its own compute time (threads take whole chunks).
- The hashes of one input per item (H(pk) = tr in key generation, verification
  and the key check, the seed expansion) run 8 items per Keccak group
  (:func:`pqkit.common.kernels.jit_sponge._sponge_rows`); mu = H(tr || M') and rho'' over
  messages of any length run per row (:func:`_sponge1`).
- Messages are passed as M' (FIPS 204, Algorithm 2 line 10 / Algorithm 4,
  formatted by :func:`pqkit.messages.m_prime_for`) concatenated, with offsets.
- A broadcast key (one sk, many messages; one pk, many signatures) is decoded,
  checked and its matrix expanded once per call.

Arguments are trusted: the view checks types, lengths and skDecode's range check
first; the consistency check of an expanded secret key (t0 and tr must follow
from rho, s1, s2: :meth:`pqkit.mldsa.scheme.DilithiumScheme._check_consistent`)
runs here on every row of a chunk before any row of it is signed.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.arith._jit import jit, kernel_bytes, put
from pqkit.arith._jit import pack_le as _bit_pack
from pqkit.arith._jit import unpack_le as _bit_unpack
from pqkit.arith._jit import writable_u8 as _c
from pqkit.arith.api import named_table
from pqkit.common.kernels.jit_sponge import RATE_256, SHAKE_PAD, _sponge1, _sponge_rows
from pqkit.mldsa.kernels.jit_ops import (
    _challenge_public,
    _expand_a,
    _keygen_body,
    _sign,
    _t_parts,
    _verify_w1,
)
from pqkit.mldsa.kernels.tables import MLDSA_Q as Q

__all__ = ["BATCH_OPERATIONS"]

_D = 13
_G = 8
"""Items per group: one Keccak lane each."""

# Status codes of _sign_rows, per row.
OK = 0
INCONSISTENT = 1
NO_SIGNATURE = 2


@jit
def _keygen_rows(
    xis: Any,
    k: int,
    l: int,  # noqa: E741
    eta: int,
    eta_bits: int,
    domain: bool,
    tr_bytes: int,
) -> Any:
    """FIPS 204, Algorithm 6 (ML-DSA.KeyGen_internal) on every row of xis (m, 32):
    (pks, sks); the seed expansion (line 1) and tr = H(pk) (line 9) of 8 rows per
    Keccak group."""
    m = xis.shape[0]
    n_pk = 32 + 320 * k
    pks = np.empty((m, n_pk), dtype=np.uint8)
    sks = np.empty((m, 64 + tr_bytes + (l + k) * 32 * eta_bits + k * 32 * _D), dtype=np.uint8)
    width = 34 if domain else 32
    for g in range(0, m, _G):
        b = min(_G, m - g)
        seeds = np.empty((b, width), dtype=np.uint8)
        for i in range(b):
            put(seeds[i, :32], xis[g + i])
            if domain:
                seeds[i, 32] = k
                seeds[i, 33] = l
        ex = _sponge_rows(seeds, RATE_256, SHAKE_PAD, np.int64(128))  # line 1: (rho, rho', K)
        for i in range(b):
            pk, sk = _keygen_body(ex[i].copy(), k, l, eta, eta_bits, tr_bytes)  # lines 3-10
            put(pks[g + i], pk)
            put(sks[g + i], sk)
        trs = _sponge_rows(pks[g : g + b].copy(), RATE_256, SHAKE_PAD, tr_bytes)  # line 9
        for i in range(b):
            put(sks[g + i, 64 : 64 + tr_bytes], trs[i])
    return pks, sks


@jit
def _check_keys(
    sks: Any,
    a_hats: Any,
    k: int,
    l: int,  # noqa: E741
    eta: int,
    eta_bits: int,
    tr_bytes: int,
) -> Any:
    """The consistency check of every row of sks (skDecode in range already): t0
    must be Power2Round(A s1 + s2)'s low part and tr = H(pk) (FIPS 204, Algorithm 6
    lines 5-9), with A_hat[i] the matrix of row i. Bool (m,), True where it fails;
    differences are OR-reduced over every byte (no early exit on secret t0)."""
    m = sks.shape[0]
    off = 64 + tr_bytes
    n_s = (l + k) * 32 * eta_bits
    bad = np.zeros(m, dtype=np.bool_)
    for g in range(0, m, _G):
        b = min(_G, m - g)
        pks = np.empty((b, 32 + 320 * k), dtype=np.uint8)
        for i in range(b):
            sk = sks[g + i]
            raw = sk[off : off + n_s].copy().reshape(l + k, 32 * eta_bits)
            s = eta - _bit_unpack(raw, eta_bits)
            t1, t0 = _t_parts(a_hats[g + i], s, k, l)
            t0_bytes = _bit_pack(((1 << (_D - 1)) - t0).reshape(k, 256), _D).reshape(-1)
            diff = 0
            for j in range(t0_bytes.shape[0]):
                diff |= np.int64(t0_bytes[j]) ^ np.int64(sk[off + n_s + j])
            bad[g + i] = diff != 0
            put(pks[i, :32], sk[:32])
            put(pks[i, 32:], _bit_pack(t1.reshape(k, 256), 10).reshape(-1))
        trs = _sponge_rows(pks, RATE_256, SHAKE_PAD, tr_bytes)
        for i in range(b):
            diff = 0
            for j in range(tr_bytes):
                diff |= np.int64(trs[i, j]) ^ np.int64(sks[g + i, 64 + j])
            bad[g + i] |= diff != 0
    return bad


@jit
def _mu(tr: Any, mp: Any, lo: int, hi: int) -> Any:
    """mu = H(tr || M', 64) (FIPS 204, Algorithm 7 line 6 / Algorithm 8 line 7) for
    the M' at mp[lo:hi]."""
    data = np.empty(tr.shape[0] + hi - lo, dtype=np.uint8)
    put(data[: tr.shape[0]], tr)
    put(data[tr.shape[0] :], mp[lo:hi])
    return _sponge1(data, RATE_256, SHAKE_PAD, np.int64(64))


@jit
def _sign_rows(
    sks: Any,
    mp: Any,
    offsets: Any,
    rnds: Any,
    k: int,
    l: int,  # noqa: E741
    eta: int,
    eta_bits: int,
    tau: int,
    gamma1: int,
    gamma2: int,
    omega: int,
    ctb: int,
    tr_bytes: int,
    max_attempts: int,
) -> Any:
    """FIPS 204, Algorithm 7 (ML-DSA.Sign_internal) from line 6 on every row: sks
    (m or 1 rows; one broadcasts), the M' of row i at mp[offsets[i]:offsets[i+1]],
    rnds (m or 1, 32) -> (signatures (m, length), status (m,)): status OK, or
    INCONSISTENT for every failing key of the chunk (then nothing is signed), or
    NO_SIGNATURE for a row whose loop ended without a signature."""
    m = offsets.shape[0] - 1
    single = sks.shape[0] == 1
    keys = 1 if single else m
    a_hats = np.empty((keys, k, l, 256), dtype=np.int64)
    for i in range(keys):
        put(a_hats[i].reshape(-1), _expand_a(sks[i, :32].copy(), k, l).reshape(-1))
    status = np.zeros(m, dtype=np.int64)
    n_sig = ctb + l * 32 * (18 if gamma1 == (1 << 17) else 20) + omega + k
    sigs = np.zeros((m, n_sig), dtype=np.uint8)
    bad = _check_keys(sks, a_hats, k, l, eta, eta_bits, tr_bytes)
    if bad.any():  # a malformed key: report, sign nothing
        for i in range(m):
            status[i] = INCONSISTENT if bad[0 if single else i] else OK
        return sigs, status
    kr = np.empty(32 + 32 + 64, dtype=np.uint8)  # K || rnd || mu
    for i in range(m):
        s = 0 if single else i
        sk = sks[s]
        mu = _mu(sk[64 : 64 + tr_bytes].copy(), mp, offsets[i], offsets[i + 1])  # line 6
        put(kr[:32], sk[32:64])
        put(kr[32:64], rnds[0 if rnds.shape[0] == 1 else i])
        put(kr[64:], mu)
        rho_pp = _sponge1(kr, RATE_256, SHAKE_PAD, np.int64(64))  # line 7
        sig = _sign(
            sk.copy(),
            a_hats[s],
            mu,
            rho_pp,
            eta,
            tau,
            gamma1,
            gamma2,
            omega,
            ctb,
            tr_bytes,
            max_attempts,
        )
        if sig.shape[0] == 0:
            status[i] = NO_SIGNATURE
        else:
            put(sigs[i], sig)
    return sigs, status


@jit
def _verify_rows(
    pks: Any,
    mp: Any,
    offsets: Any,
    sigs: Any,
    k: int,
    l: int,  # noqa: E741
    tau: int,
    gamma1: int,
    gamma2: int,
    omega: int,
    ctb: int,
    beta: int,
    tr_bytes: int,
) -> Any:
    """FIPS 204, Algorithm 8 (ML-DSA.Verify_internal) from line 6 on every row: pks
    and sigs (m or 1 rows; one broadcasts, a single pk decoded once), the M' of
    row i at mp[offsets[i]:offsets[i+1]] -> bool (m,). Public data only. H(pk)
    (line 6), the challenge streams H(c_tilde) (line 8) and H(mu || w1Encode(w'_1))
    (line 12) run 8 rows per Keccak group."""
    m = offsets.shape[0] - 1
    single = pks.shape[0] == 1
    out = np.zeros(m, dtype=np.bool_)
    a_hat = _expand_a(pks[0, :32].copy(), k, l)
    trs = _sponge_rows(pks[:1].copy(), RATE_256, SHAKE_PAD, tr_bytes)
    w1_len = k * 32 * (6 if gamma2 == (Q - 1) // 88 else 4)
    for g in range(0, m, _G):
        b = min(_G, m - g)
        if not single:
            trs = _sponge_rows(pks[g : g + b].copy(), RATE_256, SHAKE_PAD, tr_bytes)  # line 6
        c_tildes = np.empty((b, ctb), dtype=np.uint8)
        for i in range(b):
            put(c_tildes[i], sigs[0 if sigs.shape[0] == 1 else g + i, :ctb])
        streams = _sponge_rows(c_tildes, RATE_256, SHAKE_PAD, RATE_256)
        data = np.zeros((b, 64 + w1_len), dtype=np.uint8)  # mu || w1Encode(w'_1)
        ok = np.zeros(b, dtype=np.bool_)
        for i in range(b):
            r = g + i
            pk = pks[0 if single else r]
            if not single:
                a_hat = _expand_a(pk[:32].copy(), k, l)
            put(data[i, :64], _mu(trs[0 if single else i].copy(), mp, offsets[r], offsets[r + 1]))
            c = _challenge_public(c_tildes[i].copy(), streams[i].copy(), tau)  # line 8
            sig = sigs[0 if sigs.shape[0] == 1 else r].copy()
            ok[i], w1_bytes = _verify_w1(pk.copy(), a_hat, sig, c, gamma1, gamma2, omega, ctb, beta)
            put(data[i, 64:], w1_bytes)
        again = _sponge_rows(data, RATE_256, SHAKE_PAD, ctb)  # line 12
        for i in range(b):
            diff = 0
            for j in range(ctb):
                diff |= np.int64(again[i, j]) ^ np.int64(c_tildes[i, j])
            out[g + i] = ok[i] and diff == 0
    return out


# --- Python wrappers -----------------------------------------------------------------

U8 = npt.NDArray[np.uint8]


def messages_flat(m_primes: list[bytes]) -> tuple[U8, npt.NDArray[np.int64]]:
    """The M' of every row concatenated, and the offsets (m + 1,) of each."""
    offsets = np.zeros(len(m_primes) + 1, dtype=np.int64)
    np.cumsum([len(x) for x in m_primes], out=offsets[1:])
    flat = kernel_bytes(b"".join(m_primes))
    return flat, offsets


def keygen_rows(xis: U8, *params: Any) -> tuple[U8, U8]:
    """(pks, sks) of the seed rows xis (m, 32); ``params``: k, l, eta, eta_bits,
    domain, tr_bytes."""
    pks, sks = _keygen_rows(_c(xis), *params)
    return pks, sks


def sign_rows(
    sks: U8, m_primes: list[bytes], rnds: U8, *args: int
) -> tuple[U8, npt.NDArray[np.int64]]:
    """(signatures, status) of sks (m or 1 rows), the M' of every row and rnds (m
    or 1, 32); ``args``: k, l, eta, eta_bits, tau, gamma1, gamma2, omega,
    c_tilde_bytes, tr_bytes, max_attempts."""
    flat, offsets = messages_flat(m_primes)
    sigs, status = _sign_rows(_c(sks), flat, offsets, _c(rnds), *args)
    return sigs, status


def verify_rows(pks: U8, m_primes: list[bytes], sigs: U8, *args: int) -> npt.NDArray[np.bool_]:
    """The verdict of every row: pks and sigs (m or 1 rows), the M' of every row;
    ``args``: k, l, tau, gamma1, gamma2, omega, c_tilde_bytes, beta, tr_bytes."""
    flat, offsets = messages_flat(m_primes)
    out: npt.NDArray[np.bool_] = _verify_rows(_c(pks), flat, offsets, _c(sigs), *args)
    return out


BATCH_OPERATIONS: dict[str, Any] = named_table(
    globals(), "keygen_rows", "sign_rows", "verify_rows", "OK", "INCONSISTENT", "NO_SIGNATURE"
)
