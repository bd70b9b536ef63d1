"""ML-KEM batch operations (FIPS 203), vectorised across items.

K-PKE (FIPS 203 §5) with a leading batch axis: a chunk of m items is one set of
kernel calls on (m, ...) arrays, the matrix expansion of m keys is m k^2
SHAKE128 streams in one hashing call, the noise of m items one SHAKE256 call
per run of equal eta. The rules (inputs, broadcasting, randomness order, checks)
are those of :mod:`pqkit.batch`; every row equals the single operation of
:mod:`pqkit.mlkem.fips203`.

A broadcast key (one public key, many encapsulations; one secret key, many
ciphertexts) is decoded and its matrix expanded once; the kernels broadcast it.

On a backend with batch operations (:func:`pqkit.arith.ops.batch_operations`:
``jit``, :mod:`pqkit.mlkem.kernels.jit_batch`) each chunk is instead one compiled
call running the whole operation row after row, 8 rows per Keccak group; the
checks, the randomness and the chunks are the same (docs/decisions.md, "Batch on
compiled kernels").
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.arith.api import Poly
from pqkit.arith.ops import batch_operations_now
from pqkit.batch import (
    KemBatch,
    Rows,
    as_rows,
    batch_size,
    collect,
    draw_rows,
    raise_first_bad,
    resolve_workers,
    run_chunks,
)
from pqkit.batch._hash import concat_rows, sha3_rows, shake_rows
from pqkit.mlkem.kernels.contract import MLKEMKernels
from pqkit.mlkem.params import Params, Q
from pqkit.mlkem.symmetric import SHAKE128_XOF_BYTES
from pqkit.schemes import RNG

__all__ = ["CHUNK", "FEW", "MLKEMBatch"]

FEW = 8
"""Below this many rows in a chunk, encapsulation and decapsulation on a backend with
compiled batch operations run the single operations row by row instead: the
compiled batch computes a group of 16 items in vector lanes whatever the count (one
item: about 130 us of encapsulation against 19-35 for one single encapsulation;
the batch is ahead from about 8 rows on, measured), and the single operations give
the same bytes."""

U8 = npt.NDArray[np.uint8]

CHUNK = 256
"""Rows per chunk. ML-KEM-768 holds about 120 kB of int64 intermediates per row
(the largest: basemul_acc's (k+1, 2, k, 256) products in encryption), so a chunk
of 256 is about 30 MB; per-row time stops improving beyond about 128 rows
(benchmarks/batch_throughput.py), and chunks of that size keep the working set
within the caches' reach on the threads that run them."""


def _add(a: Poly, b: Poly) -> Poly:
    """(a + b) mod q for canonical inputs (masked subtraction, no branch)."""
    s = a + b
    return s - (s >= Q) * Q


def expand_matrices(K: MLKEMKernels, rho: U8, k: int, *, transposed: bool = False) -> Poly:
    """A_hat for every row of rho (m, 32): (m, k, k, 256), A_hat[., i, j] =
    SampleNTT(rho || j || i) (FIPS 203, Algorithm 13 lines 3-7, Algorithm 7),
    all m k^2 SHAKE128 streams in one call; a short entry is re-read from a longer
    prefix of its stream (public data). ``transposed``: A_hat^T instead (entry
    [i, j] = SampleNTT(rho || i || j)), the order K-PKE.Encrypt line 19 reads.
    """
    m = rho.shape[0]
    ji = np.array([[j, i] for i in range(k) for j in range(k)], dtype=np.uint8)
    if transposed:
        ji = ji[:, ::-1]
    inputs = np.concatenate([np.repeat(rho, k * k, axis=0), np.tile(ji, (m, 1))], axis=1)
    a_hat, counts = K.rej_uniform(shake_rows(128, inputs, SHAKE128_XOF_BYTES, K.backend))
    n = SHAKE128_XOF_BYTES
    while m and int(counts.min()) < 256:
        a_hat = np.array(a_hat)
        n *= 2
        short = np.flatnonzero(counts < 256)
        redo, recount = K.rej_uniform(shake_rows(128, inputs[short], n, K.backend))
        a_hat[short], counts[short] = redo, recount
    return a_hat.reshape(m, k, k, 256)


def sample_noise(K: MLKEMKernels, seed: U8, eta: int, first: int, count: int) -> Poly:
    """SamplePolyCBD_eta(PRF_eta(seed, N)) for N = first .. first + count - 1 and
    every row of seed (m, 32): (m, count, 256) (FIPS 203, Algorithm 8, §4.1 PRF)."""
    m = seed.shape[0]
    nonces = np.arange(first, first + count, dtype=np.uint8).reshape(count, 1)
    inputs = np.concatenate([np.repeat(seed, count, axis=0), np.tile(nonces, (m, 1))], axis=1)
    return K.cbd(shake_rows(256, inputs, 64 * eta, K.backend), eta).reshape(m, count, 256)


def kpke_keygen(p: Params, K: MLKEMKernels, d: U8) -> tuple[U8, U8]:
    """FIPS 203, Algorithm 13 (K-PKE.KeyGen) on every row of d (m, 32):
    (ek_PKE (m, 384 k + 32), dk_PKE (m, 384 k))."""
    k, m = p.k, d.shape[0]
    g = sha3_rows(512, concat_rows(d, np.full((1, 1), k, dtype=np.uint8)))  # line 1
    rho, sigma = g[:, :32], g[:, 32:]
    a_hat = expand_matrices(K, rho, k)  # lines 3-7
    se_hat = K.ntt(sample_noise(K, sigma, p.eta1, 0, 2 * k))  # lines 8-17
    s_hat, e_hat = se_hat[:, :k], se_hat[:, k:]
    t_hat = _add(K.basemul_acc(a_hat, s_hat[:, None]), e_hat)  # line 18
    ek = np.concatenate([K.byte_encode(t_hat, 12).reshape(m, -1), rho], axis=1)  # line 19
    dk = K.byte_encode(s_hat, 12).reshape(m, -1)  # line 20
    return ek, dk


def kpke_encrypt(p: Params, K: MLKEMKernels, t_hat: Poly, a_hat_t: Poly, msg: U8, r: U8) -> U8:
    """FIPS 203, Algorithm 14 (K-PKE.Encrypt) lines 9-24 on every row: t_hat
    (m or 1, k, 256) and A_hat^T (m or 1, k, k, 256; ``expand_matrices(...,
    transposed=True)``) decoded from ek (a single key broadcasts), msg and r
    (m, 32) -> c (m, 32 (du k + dv))."""
    k, m = p.k, msg.shape[0]
    y = sample_noise(K, r, p.eta1, 0, k)  # lines 9-12
    e = sample_noise(K, r, p.eta2, k, k + 1)  # lines 13-17: e1, then e2
    y_hat = K.ntt(y)  # line 18
    u = K.intt(K.basemul_acc(a_hat_t, y_hat[:, None])) + e[:, :k]  # line 19: < 2q
    mu = K.decompress(K.byte_decode(msg, 1), 1)  # line 20
    v = K.intt(K.basemul_acc(t_hat, y_hat)) + e[:, k] + mu  # line 21: < 3q (Compress_d: mod q)
    c1 = K.byte_encode(K.compress(u, p.du), p.du).reshape(m, -1)  # line 22
    c2 = K.byte_encode(K.compress(v, p.dv), p.dv)  # line 23
    return np.concatenate([c1, c2], axis=1)  # line 24


def kpke_decrypt(p: Params, K: MLKEMKernels, dk_pke: U8, c: U8) -> U8:
    """FIPS 203, Algorithm 15 (K-PKE.Decrypt) on every row: dk_pke (m or 1, 384 k),
    c (m, 32 (du k + dv)) -> m (m, 32)."""
    k, m = p.k, c.shape[0]
    split = 32 * p.du * k
    u = K.decompress(K.byte_decode(c[:, :split].reshape(m, k, 32 * p.du), p.du), p.du)  # 3
    v = K.decompress(K.byte_decode(c[:, split:], p.dv), p.dv)  # line 4
    s_hat = K.byte_decode(dk_pke.reshape(-1, k, 384), 12)  # line 5
    # Line 6: w = v - NTT^-1(s_hat^T o NTT(u)), + q to stay positive (< 2q).
    w = v - K.intt(K.basemul_acc(s_hat, K.ntt(u))) + Q
    return K.byte_encode(K.compress(w, 1), 1)  # line 7


def _stack(items: list[bytes], length: int) -> U8:
    """Byte strings of one length as a (len(items), length) uint8 array."""
    out: U8 = np.array(np.frombuffer(b"".join(items), dtype=np.uint8).reshape(len(items), length))
    return out


class MLKEMBatch(KemBatch):
    """The vectorised batch view of an ML-KEM scheme object (FIPS 203,
    Algorithms 16-21 on rows); see :mod:`pqkit.batch` for the rules."""

    chunk = CHUNK

    def _kernels(self) -> MLKEMKernels:
        K: MLKEMKernels = self.scheme._kernels()
        return K

    def _fast(self, K: MLKEMKernels) -> Any | None:
        """The backend's compiled batch operations, or None (vectorised path)."""
        return batch_operations_now("mlkem", K.backend, self.scheme.arith)

    # --- key generation: FIPS 203, Algorithms 19 and 16 ---------------------------------

    def _seed_rows(self, count: int, rng: RNG | None) -> U8:
        # Algorithm 19 lines 1-2, row after row, in the single keygen's requests.
        return draw_rows(rng, count, self.scheme.KEYGEN_DRAWS)

    def _keygen_rows(self, count: int, rng: RNG | None) -> U8:
        return self._seed_rows(count, rng)

    def _keygen_compute(self, prepared: Any) -> tuple[U8, U8]:
        return self._keygen_internal(self._kernels(), prepared)

    def _keygen_internal(self, K: MLKEMKernels, dz: U8) -> tuple[U8, U8]:
        """FIPS 203, Algorithm 16 (ML-KEM.KeyGen_internal) on rows d || z."""
        fast = self._fast(K)
        if fast is not None:
            p = self.scheme.params
            pair: tuple[U8, U8] = fast.keygen_rows(dz, p.k, p.eta1)
            return pair
        ek, dk_pke = kpke_keygen(self.scheme.params, K, dz[:, :32])  # line 1
        h = sha3_rows(256, ek)  # H(ek)
        return ek, np.concatenate([dk_pke, ek, h, dz[:, 32:]], axis=1)  # line 3

    def keygen_derand(self, seeds: Any, *, workers: int | None = None) -> tuple[U8, U8]:
        """FIPS 203, Algorithm 16 on each seed row d || z (n, 64)."""
        rows = as_rows(seeds, "seeds", 64)
        n = batch_size(seeds=rows)
        s = self.scheme
        K = self._kernels()
        parts = run_chunks(
            n,
            self.chunk,
            lambda lo, hi: np.broadcast_to(rows.take(lo, hi), (hi - lo, 64)),
            lambda dz: self._keygen_internal(K, dz),
            resolve_workers(workers),
        )
        pks, sks = collect(n, (s.length_public_key, s.length_secret_key), parts)
        return pks, sks

    # --- encapsulation: FIPS 203, Algorithms 20 and 17 ----------------------------------

    def _check_public_keys(self, K: MLKEMKernels, keys: Rows, workers: int) -> None:
        """FIPS 203 §7.2 modulus check on every row, before anything else; the first
        failing row raises the single operation's ValueError, naming the row. The
        chunks are checked on ``workers`` threads (compiled, ``nogil``, on ``jit``)
        and their verdicts read in row order."""
        k = self.scheme.params.k
        fast = self._fast(K)

        def check(b: tuple[int, int]) -> tuple[npt.NDArray[np.bool_]]:
            rows = keys.data[b[0] : b[1]]
            if fast is not None:
                return (fast.ek_modulus_bad(rows, k),)
            t = rows[:, : 384 * k].reshape(-1, k, 384)
            again = K.byte_encode(K.byte_decode(t, 12), 12)
            return ((again != t).reshape(t.shape[0], -1).any(1),)

        n = keys.data.shape[0]
        for lo, _, (bad,) in run_chunks(n, self.chunk, lambda lo, hi: (lo, hi), check, workers):
            raise_first_bad(
                bad, lo, lambda i: self.scheme.check_encapsulation_key(keys.data[i].tobytes())
            )

    def _decoded(self, K: MLKEMKernels, ek: U8) -> tuple[Poly, Poly, U8]:
        """(t_hat, A_hat, H(ek)) for rows of ek (FIPS 203, Algorithm 14 lines 2-8)."""
        k = self.scheme.params.k
        t_hat = K.byte_decode(ek[:, : 384 * k].reshape(-1, k, 384), 12)
        return (
            t_hat,
            expand_matrices(K, np.ascontiguousarray(ek[:, 384 * k :]), k, transposed=True),
            sha3_rows(256, ek),
        )

    def encaps(
        self, pks: Any, *, rng: RNG | None = None, workers: int | None = None
    ) -> tuple[U8, U8]:
        """FIPS 203, Algorithm 20 on each row: (shared_secrets (n, 32), ciphertexts).
        Every key passes the §7.2 checks first; then rng is asked for m (32 bytes)
        row after row, as a loop of single ``encaps`` calls would."""
        return self._encaps(pks, None, rng, workers)

    def encaps_derand(self, pks: Any, ms: Any, *, workers: int | None = None) -> tuple[U8, U8]:
        """FIPS 203, Algorithm 17 with the given m rows (n, 32)."""
        return self._encaps(pks, as_rows(ms, "ms", 32), None, workers)

    def _encaps(
        self, pks: Any, ms: Rows | None, rng: RNG | None, workers: int | None
    ) -> tuple[U8, U8]:
        s = self.scheme
        keys = as_rows(pks, "pks", s.length_public_key)
        n = batch_size(pks=keys) if ms is None else batch_size(pks=keys, ms=ms)
        K = self._kernels()
        self._check_public_keys(K, keys, resolve_workers(workers))
        fast = self._fast(K)
        p = s.params
        fixed = self._decoded(K, keys.data) if keys.single and fast is None else None

        def prepare(lo: int, hi: int) -> tuple[int, int, U8]:
            if ms is None:
                return lo, hi, draw_rows(rng, hi - lo, (32,))
            return lo, hi, np.broadcast_to(ms.take(lo, hi), (hi - lo, 32))

        def compute(job: tuple[int, int, U8]) -> tuple[U8, U8]:
            lo, hi, m = job
            if fast is not None and hi - lo < FEW:  # a few rows: the single operations
                done = [s.encaps_derand(keys.row(i), m[i - lo].tobytes()) for i in range(lo, hi)]
                return (
                    _stack([e.shared_secret for e in done], s.length_shared_secret),
                    _stack([e.ciphertext for e in done], s.length_ciphertext),
                )
            if fast is not None:  # one compiled call (a single key decoded once in it)
                pair: tuple[U8, U8] = fast.encaps_rows(
                    keys.take(lo, hi), m, p.k, p.eta1, p.eta2, p.du, p.dv
                )
                return pair
            t_hat, a_hat_t, h = fixed if fixed is not None else self._decoded(K, keys.take(lo, hi))
            g = sha3_rows(512, concat_rows(m, h))  # Algorithm 17 line 1: (K, r) = G(m || H(ek))
            c = kpke_encrypt(s.params, K, t_hat, a_hat_t, m, g[:, 32:])  # line 2
            return g[:, :32], c

        parts = run_chunks(n, self.chunk, prepare, compute, resolve_workers(workers))
        ss, cts = collect(n, (s.length_shared_secret, s.length_ciphertext), parts)
        return ss, cts

    # --- decapsulation: FIPS 203, Algorithms 21 and 18 ----------------------------------

    def _check_secret_keys(self, K: MLKEMKernels, keys: Rows, workers: int) -> None:
        """FIPS 203 §7.3 hash check on every row, first (the lengths are checked);
        chunks on ``workers`` threads, verdicts read in row order."""
        k = self.scheme.params.k
        fast = self._fast(K)

        def check(b: tuple[int, int]) -> tuple[npt.NDArray[np.bool_]]:
            rows = keys.data[b[0] : b[1]]
            if fast is not None:
                return (fast.dk_hash_bad(rows, k),)
            h = sha3_rows(256, np.ascontiguousarray(rows[:, 384 * k : 768 * k + 32]))
            return ((h != rows[:, 768 * k + 32 : 768 * k + 64]).any(axis=1),)

        n = keys.data.shape[0]
        for lo, _, (bad,) in run_chunks(n, self.chunk, lambda lo, hi: (lo, hi), check, workers):
            raise_first_bad(
                bad, lo, lambda i: self.scheme.check_decapsulation_key(keys.data[i].tobytes())
            )

    def decaps(self, sks: Any, cts: Any, *, workers: int | None = None) -> U8:
        """FIPS 203, Algorithm 21 on each row: shared secrets (n, 32); a ciphertext
        that does not re-encrypt gives that row's implicit-rejection key."""
        s = self.scheme
        p = s.params
        k = p.k
        keys = as_rows(sks, "sks", s.length_secret_key)
        cs = as_rows(cts, "cts", s.length_ciphertext)
        n = batch_size(sks=keys, cts=cs)
        K = self._kernels()
        self._check_secret_keys(K, keys, resolve_workers(workers))
        fast = self._fast(K)

        def decoded(dk: U8) -> tuple[Poly, Poly]:
            ek = dk[:, 384 * k : 768 * k + 32]
            t_hat = K.byte_decode(ek[:, : 384 * k].reshape(-1, k, 384), 12)
            rho = np.ascontiguousarray(ek[:, 384 * k :])
            return t_hat, expand_matrices(K, rho, k, transposed=True)

        fixed = decoded(keys.data) if keys.single and fast is None else None

        def compute(b: tuple[int, int]) -> tuple[U8]:
            lo, hi = b
            dk = keys.take(lo, hi)
            if fast is not None and hi - lo < FEW:  # a few rows: the single operations
                done = [s.decaps(keys.row(i), cs.row(i)) for i in range(lo, hi)]
                return (_stack(done, s.length_shared_secret),)
            if fast is not None:  # one compiled call (a single dk decoded once in it)
                return (fast.decaps_rows(dk, cs.take(lo, hi), k, p.eta1, p.eta2, p.du, p.dv),)
            c = np.broadcast_to(cs.take(lo, hi), (hi - lo, s.length_ciphertext))
            t_hat, a_hat_t = fixed if fixed is not None else decoded(dk)
            # Algorithm 18 lines 1-4: dk_PKE, ek_PKE, h, z are slices of dk.
            h = dk[:, 768 * k + 32 : 768 * k + 64]
            z = dk[:, 768 * k + 64 :]
            m_prime = kpke_decrypt(p, K, dk[:, : 384 * k], c)  # line 5
            g = sha3_rows(512, concat_rows(m_prime, h))  # line 6: (K', r') = G(m' || h)
            k_bar = shake_rows(256, concat_rows(z, c), 32, K.backend)  # line 7: J(z || c)
            c_prime = kpke_encrypt(p, K, t_hat, a_hat_t, m_prime, g[:, 32:])  # line 8
            # Lines 9-11: K' unless c != c', then K_bar; a byte mask, no branch and
            # no early exit: OR of every byte difference, then 0xFF where non-zero
            # (the top bit of d | -d is set exactly when d != 0).
            diff = np.bitwise_or.reduce(c ^ c_prime, axis=1)
            differ = (diff | (np.uint8(0) - diff)) >> np.uint8(7)
            mask = (np.uint8(0) - differ)[:, None]  # 0xFF where the row differs
            return ((g[:, :32] & ~mask) | (k_bar & mask),)

        parts = run_chunks(
            n, self.chunk, lambda lo, hi: (lo, hi), compute, resolve_workers(workers)
        )
        (ss,) = collect(n, (s.length_shared_secret,), parts)
        return ss
