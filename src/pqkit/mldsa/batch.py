"""ML-DSA batch operations (FIPS 204), vectorised across items.

Key generation, signing and verification with a leading batch axis: a chunk of
m items is one set of kernel calls on (m, ...) arrays, and each expansion
(ExpandA, ExpandS, ExpandMask, SampleInBall, H) one hashing call over all rows
(:mod:`pqkit.batch._hash`). The rules (inputs, broadcasting, randomness order,
checks) are those of :mod:`pqkit.batch`; every row equals the single operation of
:mod:`pqkit.mldsa.fips204`.

Signing runs the rejection loop of FIPS 204, Algorithm 7 on all unfinished rows
at once: each pass evaluates the next attempt(s) of every row still going, a row
leaves the batch at its first acceptable attempt, and only that combined accept
bit is branched on (as in the single operation, which reveals its iteration
count). Rows needing different numbers of attempts therefore share every pass
they are in; no row waits for another.

On a backend with batch operations (:func:`pqkit.arith.ops.batch_operations`:
``jit``, :mod:`pqkit.mldsa.kernels.jit_batch`) each chunk is instead one compiled
call running the whole operation row after row (signing: each row its own attempt
loop); the checks, the randomness and the chunks are the same (docs/decisions.md,
"Batch on compiled kernels").
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit.arith.api import Poly
from pqkit.arith.ops import batch_operations_now
from pqkit.batch import (
    Messages,
    Rows,
    SignatureBatch,
    as_messages,
    as_rows,
    as_signature_rows,
    batch_size,
    call_row,
    collect,
    draw_rows,
    raise_first_bad,
    resolve_workers,
    run_chunks,
)
from pqkit.batch._hash import concat_rows, shake_list, shake_rows
from pqkit.messages import m_prime_for
from pqkit.mldsa.core import MAX_SIGN_ATTEMPTS, SIGN_BATCH
from pqkit.mldsa.kernels.contract import MLDSAKernels
from pqkit.mldsa.params import D, Params
from pqkit.schemes import RNG

__all__ = ["CHUNK", "MLDSABatch"]

U8 = npt.NDArray[np.uint8]
_I64 = np.int64

CHUNK = 128
"""Rows per chunk. ML-DSA-65 holds A_hat (k l polynomials, 61 kB as int64), the
NTT of s1, s2, t0 (35 kB) and one signing attempt's intermediates (about 40
polynomials, 80 kB) per row: a chunk of 128 is about 25 MB. Per-row time stops
improving well before 128 rows (benchmarks/batch_throughput.py)."""

# First stream reads, as in pqkit.mldsa.core (a short row is re-read longer).
_REJ_UNIFORM_BYTES = 5 * 168
_REJ_BOUNDED_BYTES = 2 * 136
_BALL_BYTES = 136


def _keep(arr: npt.NDArray[Any], keep: npt.NDArray[np.bool_]) -> npt.NDArray[Any]:
    """The rows of arr where ``keep`` is set, or arr itself when it is one broadcast
    row."""
    return arr if arr.shape[0] == 1 else arr[keep]


def _stream_inputs(seeds: U8, nonces: npt.NDArray[np.int64]) -> U8:
    """Row r * len(nonces) + j: seeds[r] || IntegerToBytes(nonces[j], 2), the input
    of the streams of FIPS 204, Algorithms 32-34 (§3.7)."""
    m = seeds.shape[0]
    le = np.stack([nonces & 0xFF, (nonces >> 8) & 0xFF], axis=1).astype(np.uint8)
    return np.concatenate([np.repeat(seeds, len(nonces), axis=0), np.tile(le, (m, 1))], axis=1)


def expand_a(p: Params, kk: MLDSAKernels, rho: U8) -> Poly:
    """FIPS 204, Algorithm 32 (ExpandA) for every row of rho (m, 32): (m, k, l, 256)."""
    m = rho.shape[0]
    nonces = np.array([(r << 8) | s for r in range(p.k) for s in range(p.l)], dtype=_I64)
    inputs = _stream_inputs(rho, nonces)
    n = _REJ_UNIFORM_BYTES
    a_hat, count = kk.rej_uniform(shake_rows(128, inputs, n, kk.backend))
    while m and (count < 256).any():  # public data (rho): a rare longer read
        n *= 4
        short = np.flatnonzero(count < 256)
        a_hat[short], count[short] = kk.rej_uniform(shake_rows(128, inputs[short], n, kk.backend))
    return a_hat.reshape(m, p.k, p.l, 256)


def expand_s(p: Params, kk: MLDSAKernels, rho_prime: U8) -> Poly:
    """FIPS 204, Algorithm 33 (ExpandS) for every row of rho' (m, 64): s1 || s2
    stacked, (m, l + k, 256), signed in [-eta, eta]."""
    m = rho_prime.shape[0]
    inputs = _stream_inputs(rho_prime, np.arange(p.l + p.k, dtype=_I64))
    n = _REJ_BOUNDED_BYTES
    s, count = kk.rej_bounded(shake_rows(256, inputs, n, kk.backend), p.eta)
    # NOTE: a short row is re-read, as in the single operation; this reveals only
    # how many samples were rejected, not the accepted values.
    while m and (count < 256).any():
        n *= 2
        short = np.flatnonzero(count < 256)
        s[short], count[short] = kk.rej_bounded(
            shake_rows(256, inputs[short], n, kk.backend), p.eta
        )
    return s.reshape(m, p.l + p.k, 256)


def sample_in_ball(p: Params, kk: MLDSAKernels, c_tilde: U8) -> Poly:
    """FIPS 204, Algorithm 29 (SampleInBall) for every row of c_tilde: (m, 256)."""
    n = _BALL_BYTES
    c, ok = kk.sample_in_ball(shake_rows(256, c_tilde, n, kk.backend), p.tau)
    while not ok.all():  # rare: more than 128 index bytes needed (public c_tilde)
        n *= 4
        bad = np.flatnonzero(~ok)
        redo, reok = kk.sample_in_ball(shake_rows(256, c_tilde[bad], n, kk.backend), p.tau)
        c[bad], ok[bad] = redo, reok
    return c


def hint_bit_pack(p: Params, hint: Poly) -> U8:
    """FIPS 204, Algorithm 20 (HintBitPack) on rows: hint (m, k, 256) in {0, 1}
    with at most omega ones per row -> (m, omega + k). The hint is public."""
    m = hint.shape[0]
    flat = hint.reshape(m, -1)
    y = np.zeros((m, p.omega + p.k), dtype=np.uint8)
    position = np.cumsum(flat, axis=1) - 1
    r, f = np.nonzero(flat)
    y[r, position[r, f]] = f & 0xFF
    y[:, p.omega :] = np.cumsum(hint.sum(axis=2), axis=1)
    return y


def hint_bit_unpack(p: Params, y: U8) -> tuple[Poly, npt.NDArray[np.bool_]]:
    """FIPS 204, Algorithm 21 (HintBitUnpack) on rows y (m, omega + k): (hint
    (m, k, 256), ok (m,)); ok is False where the single operation returns None
    (counts decreasing or above omega, indices not increasing within a
    polynomial, non-zero padding), and such a row's hint is meaningless. Public
    data (signatures), so indexing by it is fine."""
    m, omega = y.shape[0], p.omega
    ends = y[:, omega:].astype(_I64)  # (m, k)
    prev = np.concatenate([np.zeros((m, 1), dtype=_I64), ends[:, :-1]], axis=1)
    ok = (ends >= prev).all(axis=1) & (ends <= omega).all(axis=1)
    pos = np.arange(omega)
    used = pos[None, :] < ends[:, -1:]  # (m, omega)
    poly = (ends[:, None, :] <= pos[None, :, None]).sum(axis=2)  # which polynomial
    idx = y[:, :omega].astype(_I64)
    same = (poly[:, 1:] == poly[:, :-1]) & used[:, 1:]
    ok &= ~(same & (idx[:, :-1] >= idx[:, 1:])).any(axis=1)
    ok &= ~(~used & (idx != 0)).any(axis=1)
    hint = np.zeros((m, p.k, 256), dtype=_I64)
    r, c = np.nonzero(used & ok[:, None])
    hint[r, poly[r, c], idx[r, c]] = 1
    return hint, ok


def _w1_encode(p: Params, kk: MLDSAKernels, w1: Poly) -> U8:
    """FIPS 204, Algorithm 28 (w1Encode) on (..., k, 256) -> (..., k 32 w1_bits)."""
    packed: U8 = kk.bit_pack(w1, p.w1_bits)
    return packed.reshape((*w1.shape[:-2], -1))


def _mu_rows(p: Params, tr: U8, m_primes: list[bytes]) -> U8:
    """mu = H(tr || M', 64) per row (FIPS 204, Algorithm 7 line 6); tr (m or 1, 64)."""
    rows = [tr[0 if tr.shape[0] == 1 else i].tobytes() + mp for i, mp in enumerate(m_primes)]
    return shake_list(256, rows, 64)


class MLDSABatch(SignatureBatch):
    """The vectorised batch view of an ML-DSA scheme object (FIPS 204,
    Algorithms 1-3 and 6-8 on rows); see :mod:`pqkit.batch` for the rules."""

    chunk = CHUNK

    def _kernels(self) -> MLDSAKernels:
        kk: MLDSAKernels = self.scheme._kernels()
        return kk

    def _fast(self, kk: MLDSAKernels) -> Any | None:
        """The backend's compiled batch operations, or None (vectorised path)."""
        return batch_operations_now("mldsa", kk.backend, self.scheme.arith)

    # --- key generation: FIPS 204, Algorithms 1 and 6 -----------------------------------

    def _keygen_rows(self, count: int, rng: RNG | None) -> U8:
        return self._seed_rows(count, rng)  # Algorithm 1 line 1: xi, row after row

    def _keygen_compute(self, prepared: Any) -> tuple[U8, U8]:
        return self._keygen_internal(self._kernels(), prepared)

    def _keygen_internal(self, kk: MLDSAKernels, xi: U8) -> tuple[U8, U8]:
        """FIPS 204, Algorithm 6 (ML-DSA.KeyGen_internal) on rows of xi (m, 32)."""
        p = self.scheme.params
        fast = self._fast(kk)
        if fast is not None:
            pair: tuple[U8, U8] = fast.keygen_rows(
                xi, p.k, p.l, p.eta, p.eta_bits, True, p.tr_bytes
            )
            return pair
        m = xi.shape[0]
        kl = np.array([[p.k, p.l]], dtype=np.uint8)
        expanded = shake_rows(256, concat_rows(xi, kl), 128, kk.backend)  # line 1
        rho, rho_prime, key = expanded[:, :32], expanded[:, 32:96], expanded[:, 96:]
        a_hat = expand_a(p, kk, np.ascontiguousarray(rho))  # line 3
        s = expand_s(p, kk, np.ascontiguousarray(rho_prime))  # line 4
        s1, s2 = s[:, : p.l], s[:, p.l :]
        s1_hat = kk.ntt(s1)
        t = kk.mod_q(kk.intt(kk.pointwise_acc(a_hat, s1_hat[:, None])) + s2)  # line 5
        t1, t0 = kk.power2round(t)  # line 6
        pk = np.concatenate([rho, kk.bit_pack(t1, 10).reshape(m, -1)], axis=1)  # line 8
        tr = shake_rows(256, pk, 64, kk.backend)  # line 9
        packed_s = kk.bit_pack(p.eta - s, p.eta_bits).reshape(m, -1)  # line 10 (skEncode)
        packed_t0 = kk.bit_pack((1 << (D - 1)) - t0, D).reshape(m, -1)
        sk = np.concatenate([rho, key, tr, packed_s, packed_t0], axis=1)
        return pk, sk

    def keygen_derand(self, seeds: Any, *, workers: int | None = None) -> tuple[U8, U8]:
        """FIPS 204, Algorithm 6 on each seed row xi (n, 32)."""
        rows = as_rows(seeds, "seeds", 32)
        n = batch_size(seeds=rows)
        s = self.scheme
        kk = self._kernels()
        parts = run_chunks(
            n,
            self.chunk,
            lambda lo, hi: np.broadcast_to(rows.take(lo, hi), (hi - lo, 32)),
            lambda xi: self._keygen_internal(kk, np.ascontiguousarray(xi)),
            resolve_workers(workers),
        )
        pks, sks = collect(n, (s.length_public_key, s.length_secret_key), parts)
        return pks, sks

    # --- signing: FIPS 204, Algorithms 2 and 7 -------------------------------------------

    def _check_secret_keys(self, keys: Rows) -> None:
        """The skDecode range check (s1, s2 in [-eta, eta]) on every row first; the
        first failing row raises the single operation's ValueError, naming the row."""
        p = self.scheme.params
        kk = self._kernels()
        off = 64 + p.tr_bytes
        n_s = (p.k + p.l) * 32 * p.eta_bits
        for lo in range(0, keys.data.shape[0], self.chunk):
            raw = keys.data[lo : lo + self.chunk, off : off + n_s]
            u = kk.bit_unpack(raw.reshape(raw.shape[0], p.k + p.l, -1), p.eta_bits)
            bad = (u > 2 * p.eta).reshape(raw.shape[0], -1).any(axis=1)
            raise_first_bad(
                bad,
                lo,
                lambda i: self.scheme._secret_key(self.scheme._ops(), keys.data[i].tobytes()),
            )

    def _decode_secret_keys(
        self, kk: MLDSAKernels, sk: U8, lo: int, keys: Rows
    ) -> tuple[U8, U8, U8, Poly, Poly]:
        """FIPS 204, Algorithm 25 (skDecode) on rows lo.. of ``keys`` (``sk``, already
        range-checked): (rho, K, tr, A_hat, NTT of s1 || s2 || t0).

        Also the consistency check of the single operation
        (:meth:`pqkit.mldsa.scheme.DilithiumScheme._check_consistent`): t0 must be
        Power2Round(A s1 + s2)'s low part and tr = H(pk) (FIPS 204, Algorithm 6
        lines 5-9), else the first failing row raises that ValueError, naming the
        row. Differences are OR-reduced byte by byte (no early exit on secret t0)."""
        p = self.scheme.params
        m = sk.shape[0]
        off = 64 + p.tr_bytes
        n_s = (p.k + p.l) * 32 * p.eta_bits
        s = p.eta - kk.bit_unpack(sk[:, off : off + n_s].reshape(m, p.k + p.l, -1), p.eta_bits)
        t0 = (1 << (D - 1)) - kk.bit_unpack(sk[:, off + n_s :].reshape(m, p.k, -1), D)
        small_hat = kk.ntt(np.concatenate([s, t0], axis=1))  # s1_hat, s2_hat, t0_hat
        rho = np.ascontiguousarray(sk[:, :32])
        a_hat = expand_a(p, kk, rho)
        t = kk.mod_q(kk.intt(kk.pointwise_acc(a_hat, small_hat[:, None, : p.l])) + s[:, p.l :])
        t1, t0_again = kk.power2round(t)
        t0_bytes = kk.bit_pack((1 << (D - 1)) - t0_again, D).reshape(m, -1)
        pk = np.concatenate([rho, kk.bit_pack(t1, 10).reshape(m, -1)], axis=1)
        diff = np.bitwise_or.reduce(t0_bytes ^ sk[:, off + n_s :], axis=1)
        diff |= np.bitwise_or.reduce(
            shake_rows(256, pk, p.tr_bytes, kk.backend) ^ sk[:, 64:off], axis=1
        )
        ops = self.scheme._ops()
        raise_first_bad(
            diff != 0, lo, lambda i: self.scheme._secret_key(ops, keys.data[i].tobytes())
        )
        return rho, sk[:, 32:64], sk[:, 64:off], a_hat, small_hat

    def sign(
        self,
        sks: Any,
        messages: Any,
        ctx: bytes = b"",
        *,
        prehash: str | None = None,
        deterministic: bool = False,
        rnd: Any = None,
        rng: RNG | None = None,
        workers: int | None = None,
    ) -> U8:
        """FIPS 204, Algorithm 2 (ML-DSA.Sign), or 4 (HashML-DSA.Sign) with
        ``prehash``, on each row: signatures (n, length_signature).

        ``rnd``: None (fresh: 32 bytes from rng per row, row after row), one 32-byte
        value for every row, or rows (n, 32); ``deterministic=True``: 32 zero bytes.
        A secret key that fails skDecode's range check raises ValueError naming its
        row before anything is computed or drawn; one whose t0 or tr is inconsistent
        (the single operation's key check, which needs the matrix) raises naming its
        row when its chunk is decoded, before that chunk is signed. Either way
        nothing is returned.
        """
        s = self.scheme
        keys = as_rows(sks, "sks", s.length_secret_key)
        msgs = as_messages(messages)
        m_prime_for(b"", ctx, prehash)  # the context and prehash checks, once
        if rnd is not None:
            if deterministic:
                raise ValueError("give rnd or deterministic=True, not both")
            given = as_rows(rnd, "rnd", 32)
            n = batch_size(sks=keys, messages=msgs, rnd=given)
            rnds: Rows | None = given
        else:
            rnds = Rows(np.zeros((1, 32), np.uint8), True) if deterministic else None
            n = batch_size(sks=keys, messages=msgs)
        self._check_secret_keys(keys)
        kk = self._kernels()
        fast = self._fast(kk)
        if fast is not None:
            if keys.single:  # the key check once, here (each chunk repeats it, cheaply)
                call_row(0, s._secret_key, s._ops(), keys.row(0))
            fixed = None
        else:
            fixed = self._decode_secret_keys(kk, keys.data, 0, keys) if keys.single else None

        def prepare(lo: int, hi: int) -> tuple[int, int, U8]:
            if rnds is None:
                return lo, hi, draw_rows(rng, hi - lo, (32,))  # Algorithm 2 line 5
            return lo, hi, rnds.take(lo, hi)

        def compute(job: tuple[int, int, U8]) -> tuple[U8]:
            lo, hi, rnd_rows = job
            if fast is not None:
                return (self._sign_compiled(fast, keys, msgs, ctx, prehash, rnd_rows, lo, hi),)
            dec = fixed or self._decode_secret_keys(kk, keys.take(lo, hi), lo, keys)
            _, key, tr, a_hat, small_hat = dec
            m_primes = [m_prime_for(x, ctx, prehash) for x in msgs.take(lo, hi)]
            mu = _mu_rows(s.params, tr, m_primes)  # Algorithm 7 line 6
            rho_pp = shake_rows(256, concat_rows(key, rnd_rows, mu), 64, kk.backend)  # line 7
            return (self._sign_rows(kk, a_hat, small_hat, mu, rho_pp, lo),)

        parts = run_chunks(n, self.chunk, prepare, compute, resolve_workers(workers))
        (sigs,) = collect(n, (s.length_signature,), parts)
        return sigs

    def _sign_compiled(
        self,
        fast: Any,
        keys: Rows,
        msgs: Messages,
        ctx: bytes,
        prehash: str | None,
        rnd_rows: U8,
        lo: int,
        hi: int,
    ) -> U8:
        """Rows lo..hi signed by the compiled batch operation (one call): the key
        check of every row first (the first failing row raises the single
        operation's ValueError, naming it), then each row's own attempt loop."""
        p = self.scheme.params
        m_primes = [m_prime_for(x, ctx, prehash) for x in msgs.take(lo, hi)]
        sigs, status = fast.sign_rows(
            keys.take(lo, hi),
            m_primes,
            rnd_rows,
            p.k,
            p.l,
            p.eta,
            p.eta_bits,
            *p.signing,
            p.tr_bytes,
            MAX_SIGN_ATTEMPTS,
        )
        ops = self.scheme._ops()
        raise_first_bad(
            status == fast.INCONSISTENT,
            lo,
            lambda i: self.scheme._secret_key(ops, keys.row(i)),
        )
        if (status == fast.NO_SIGNATURE).any():
            raise RuntimeError(
                f"row {lo + int(np.argmax(status == fast.NO_SIGNATURE))}: {p.name} signing "
                f"found no acceptable signature in {MAX_SIGN_ATTEMPTS} attempts (FIPS 204, "
                "Algorithm 7 loop bound): the secret key is not a valid key"
            )
        out: U8 = sigs
        return out

    def _sign_rows(
        self, kk: MLDSAKernels, a_hat: Poly, small_hat: Poly, mu: U8, rho_pp: U8, lo: int
    ) -> U8:
        """FIPS 204, Algorithm 7 lines 8-33 on every row (rows lo.. of the batch): the
        rejection loop, each pass over the rows still unsigned, at most
        ``MAX_SIGN_ATTEMPTS`` attempts per row as in the single operation (then
        RuntimeError naming the row). a_hat and small_hat may be one broadcast row."""
        p = self.scheme.params
        m = mu.shape[0]
        gamma1, gamma2, ctb = p.gamma1, p.gamma2, p.c_tilde_bytes
        out = np.zeros((m, p.length_signature), dtype=np.uint8)
        # The unsigned rows: their indices and their rows of every per-row input,
        # compacted only after a pass in which some rows were signed.
        active = np.arange(m)
        a_cur, small_cur, mu_cur, rho_cur = a_hat, small_hat, mu, rho_pp
        kappa = 0  # the same for every unsigned row: they have made the same passes
        while active.size and kappa < MAX_SIGN_ATTEMPTS * p.l:
            a = active.size
            # Attempts per pass: about 64 / a, at least one and at most SIGN_BATCH, so
            # a pass holds about 64 row-attempts once few rows are left (32 or
            # fewer): consecutive kappa values at once, the first acceptable one
            # taken, so the signature is the same.
            b = max(1, min(SIGN_BATCH, 64 // a, MAX_SIGN_ATTEMPTS - kappa // p.l))
            nonces = np.arange(kappa, kappa + b * p.l, dtype=_I64)
            # Line 11: ExpandMask(rho'', kappa) for each of the b attempts.
            v = shake_rows(256, _stream_inputs(rho_cur, nonces), 32 * p.z_bits, kk.backend)
            y = (gamma1 - kk.bit_unpack(v, p.z_bits)).reshape(a, b, p.l, 256)
            y_hat = kk.ntt(y)
            w = kk.intt(
                kk.pointwise_acc(a_cur[:, None], y_hat[:, :, None])
            )  # line 12: (a, b, k, 256)
            w1, _ = kk.decompose(w, gamma2)  # line 13
            w1_bytes = _w1_encode(p, kk, w1).reshape(a * b, -1)
            mu_rows = np.repeat(mu_cur, b, axis=0)
            c_tilde = shake_rows(
                256, np.concatenate([mu_rows, w1_bytes], axis=1), ctb, kk.backend
            )  # 15
            c = sample_in_ball(p, kk, c_tilde).reshape(a, b, 256)  # line 16
            c_hat = kk.ntt(c)  # line 17
            cs = kk.intt(kk.pointwise_mul(c_hat[:, :, None], small_cur[:, None]))
            cs1, cs2, ct0 = cs[:, :, : p.l], cs[:, :, p.l : p.l + p.k], cs[:, :, p.l + p.k :]
            z = kk.mod_q(y + cs1)  # line 20
            w_cs2 = kk.mod_q(w - cs2)
            r1_w_cs2, r0 = kk.decompose(w_cs2, gamma2)  # line 21
            # h = MakeHint(-ct0, w - cs2 + ct0) (line 26) is, by Algorithm 39,
            # HighBits(w - cs2 + ct0) != HighBits(w - cs2).
            r1_plus_ct0, _ = kk.decompose(kk.mod_q(w_cs2 + ct0), gamma2)
            hint = (r1_w_cs2 != r1_plus_ct0).astype(_I64)
            ok = (  # lines 23, 28: every check folded into one bit per attempt
                (kk.infinity_norm(z).max(axis=-1) < gamma1 - p.beta)
                & (kk.infinity_norm(r0).max(axis=-1) < gamma2 - p.beta)
                & (kk.infinity_norm(ct0).max(axis=-1) < gamma2)
                & (hint.sum(axis=(-2, -1)) <= p.omega)
            )
            done = ok.any(axis=1)
            if done.any():
                rows = np.flatnonzero(done)
                first = np.argmax(ok[rows], axis=1)  # the first acceptable attempt
                z_ok = kk.centre(z[rows, first])
                sig = np.concatenate(  # line 33: sigEncode (Algorithm 26)
                    [
                        c_tilde.reshape(a, b, ctb)[rows, first],
                        kk.bit_pack(gamma1 - z_ok, p.z_bits).reshape(len(rows), -1),
                        hint_bit_pack(p, hint[rows, first]),
                    ],
                    axis=1,
                )
                out[active[rows]] = sig
                keep = ~done
                active, mu_cur, rho_cur = active[keep], mu_cur[keep], rho_cur[keep]
                a_cur, small_cur = _keep(a_cur, keep), _keep(small_cur, keep)
            kappa += b * p.l  # line 32
        if active.size:
            raise RuntimeError(
                f"row {lo + int(active[0])}: {p.name} signing found no acceptable signature "
                f"in {MAX_SIGN_ATTEMPTS} attempts (FIPS 204, Algorithm 7 loop bound): the "
                "secret key is not a valid key"
            )
        return out

    # --- verification: FIPS 204, Algorithms 3 and 8 -------------------------------------

    def verify(
        self,
        pks: Any,
        messages: Any,
        signatures: Any,
        ctx: bytes = b"",
        *,
        prehash: str | None = None,
        workers: int | None = None,
    ) -> npt.NDArray[np.bool_]:
        """FIPS 204, Algorithm 3 (ML-DSA.Verify), or 5 with ``prehash``, on each row:
        a bool array (n,). A malformed signature (wrong length, bad hint encoding,
        z out of range) is a False row, never an error; raises only for wrong types,
        wrong public-key lengths, a context over 255 bytes or an unknown prehash."""
        s = self.scheme
        keys = as_rows(pks, "pks", s.length_public_key)
        msgs = as_messages(messages)
        sigs, sig_ok = as_signature_rows(signatures, "signatures", s.length_signature)
        n = batch_size(pks=keys, messages=msgs, signatures=sigs)
        m_prime_for(b"", ctx, prehash)
        kk = self._kernels()
        fast = self._fast(kk)
        p = s.params
        single = keys.single and fast is None
        fixed = self._decode_public_keys(kk, keys.data) if single else None

        def compute(b: tuple[int, int]) -> tuple[npt.NDArray[np.bool_]]:
            lo, hi = b
            if fast is not None:  # one compiled call (a single pk decoded once in it)
                ok_rows = np.broadcast_to(sig_ok if sigs.single else sig_ok[lo:hi], (hi - lo,))
                verdict = fast.verify_rows(
                    keys.take(lo, hi),
                    [m_prime_for(x, ctx, prehash) for x in msgs.take(lo, hi)],
                    sigs.take(lo, hi),
                    p.k,
                    p.l,
                    *p.signing,
                    p.beta,
                    p.tr_bytes,
                )
                return (verdict & ok_rows,)
            dec = fixed if fixed is not None else self._decode_public_keys(kk, keys.take(lo, hi))
            sig = np.broadcast_to(sigs.take(lo, hi), (hi - lo, s.length_signature))
            ok = np.broadcast_to(sig_ok if sigs.single else sig_ok[lo:hi], (hi - lo,))
            return (self._verify_rows(kk, dec, msgs, lo, hi, ctx, prehash, sig, ok),)

        parts = run_chunks(
            n, self.chunk, lambda lo, hi: (lo, hi), compute, resolve_workers(workers)
        )
        (out,) = collect(n, (0,), parts)
        return out

    def _decode_public_keys(self, kk: MLDSAKernels, pk: U8) -> tuple[U8, Poly, Poly]:
        """pkDecode (Algorithm 23) on rows: (tr = H(pk, 64), A_hat, NTT(t1 2^d))."""
        p = self.scheme.params
        m = pk.shape[0]
        t1 = kk.bit_unpack(pk[:, 32:].reshape(m, p.k, 320), 10)
        tr = shake_rows(256, pk, p.tr_bytes, kk.backend)  # Algorithm 3 line 6 / Algorithm 8 line 6
        return tr, expand_a(p, kk, np.ascontiguousarray(pk[:, :32])), kk.ntt(t1 << D)

    def _verify_rows(
        self,
        kk: MLDSAKernels,
        dec: tuple[U8, Poly, Poly],
        msgs: Messages,
        lo: int,
        hi: int,
        ctx: bytes,
        prehash: str | None,
        sig: U8,
        sig_ok: npt.NDArray[np.bool_],
    ) -> npt.NDArray[np.bool_]:
        """FIPS 204, Algorithm 8 (ML-DSA.Verify_internal) on rows lo..hi."""
        p = self.scheme.params
        m = hi - lo
        tr, a_hat, t1_hat = dec
        mu = _mu_rows(p, tr, [m_prime_for(x, ctx, prehash) for x in msgs.take(lo, hi)])  # line 7
        ctb = p.c_tilde_bytes
        n_z = p.l * 32 * p.z_bits
        c_tilde = np.ascontiguousarray(sig[:, :ctb])  # line 2: sigDecode
        z = p.gamma1 - kk.bit_unpack(sig[:, ctb : ctb + n_z].reshape(m, p.l, -1), p.z_bits)
        hint, hint_ok = hint_bit_unpack(p, np.ascontiguousarray(sig[:, ctb + n_z :]))
        z_ok = kk.infinity_norm(z).max(axis=-1) < p.gamma1 - p.beta  # line 13
        c = sample_in_ball(p, kk, c_tilde)  # line 8
        hats = kk.ntt(np.concatenate([z, c[:, None]], axis=1))
        z_hat, c_hat = hats[:, : p.l], hats[:, p.l]
        # Line 9: w'_approx = NTT^-1(A_hat o NTT(z) - NTT(c) o NTT(t1 2^d)).
        az = kk.pointwise_acc(a_hat, z_hat[:, None])
        w_approx = kk.intt(az - kk.pointwise_mul(c_hat[:, None], t1_hat))
        w1 = kk.use_hint(hint, w_approx, p.gamma2)  # line 10
        w1_bytes = _w1_encode(p, kk, w1)
        c_tilde_prime = shake_rows(
            256, np.concatenate([mu, w1_bytes], axis=1), ctb, kk.backend
        )  # 12
        same = (c_tilde == c_tilde_prime).all(axis=1)
        return sig_ok & hint_ok & z_ok & same  # type: ignore[no-any-return]
