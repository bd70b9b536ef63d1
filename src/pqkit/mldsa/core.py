"""The Dilithium core shared by ML-DSA (FIPS 204) and Dilithium 3.1 / Dilithium-AES.

Key generation, signing on a message representative mu, and verification on mu,
with the encodings of FIPS 204 §7.2. What differs between the members is data:
the :class:`~pqkit.mldsa.params.Params` (lengths of tr and c_tilde, how the
key-generation seed is expanded) and the :class:`~pqkit.mldsa.symmetric.Suite`
(SHAKE or AES-256-CTR streams). The frontends (:mod:`pqkit.mldsa.fips204`,
:mod:`pqkit.mldsa.round3`) build mu and rho'' and call in here.

Polynomials are int64 arrays of shape (..., 256); the arithmetic goes through
the kernels of :mod:`pqkit.arith` (``ops.k``), so the same code runs on every
backend.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass, replace
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from pqkit import _keystate as keystate
from pqkit import arith
from pqkit._lru import LruCache
from pqkit.arith.api import Poly
from pqkit.arith.ops import operations
from pqkit.common import provider
from pqkit.common.providers import Sha3Provider
from pqkit.mldsa.kernels.contract import MLDSAKernels
from pqkit.mldsa.params import D, Params
from pqkit.mldsa.symmetric import Suite

__all__ = [
    "Ops",
    "SecretKey",
    "decode_secret_key",
    "h",
    "keygen_internal",
    "ops_for",
    "public_key_from_secret",
    "sign_mu_internal",
    "sign_whole",
    "verify_mu_internal",
    "verify_whole",
]

_I64 = np.int64

# Stream prefix lengths (bytes) asked for first; a row that runs short is asked
# again with a longer prefix (the outputs are prefix-stable).
_REJ_UNIFORM_BYTES = 5 * 168  # 280 candidates, 256 needed (FIPS 204, Algorithm 30)
_REJ_BOUNDED_BYTES = 2 * 136  # 544 nibbles, 256 needed (FIPS 204, Algorithm 31)
_BALL_BYTES = 136  # 8 sign bytes + 128 index bytes (FIPS 204, Algorithm 29)

SIGN_BATCH = 4
"""At most how many rejection-loop iterations (kappa values) signing evaluates per
pass (:func:`sign_batch` gives each parameter set's number).

NOTE: FIPS 204, Algorithm 7 runs the iterations one after another. Evaluating a
batch of consecutive kappa values at once and returning the first acceptable one
gives the same signature; it only changes how much speculative work is done.
"""

_REPETITIONS = {(4, 4): 4.25, (6, 5): 5.1, (8, 7): 3.85}
"""Expected loop iterations per signature by (k, l) (FIPS 204, Table 1; round 3 alike)."""


def sign_batch(p: Params) -> int:
    """Iterations per pass of the step-by-step signing loop on ``numpy``: the
    smallest number (at most :data:`SIGN_BATCH`) whose first pass succeeds more
    often than not, so the median signature is one pass (3 for ML-DSA-44 and -87, 4
    for ML-DSA-65; docs/decisions.md, issue 26). Other backends, whose attempts cost
    little beside a pass's Python, run :data:`SIGN_BATCH`."""
    reject = 1 - 1 / _REPETITIONS.get((p.k, p.l), 4.0)
    return next((b for b in range(1, SIGN_BATCH) if reject**b < 0.5), SIGN_BATCH)


MAX_SIGN_ATTEMPTS = 1000
"""Rejection-loop iterations after which signing gives up with RuntimeError.

FIPS 204 (Appendix C) allows a bound on the loop of Algorithm 7 if it is at least
814. One iteration is accepted with probability about 1/4.25, 1/5.1 and 1/3.85
(ML-DSA-44/65/87, FIPS 204 Table 1; round 3 alike), so a valid key runs 1000
iterations without success with probability below (1 - 1/5.1)^1000 < 2^-300: never.
Only an inconsistent secret key (refused beforehand by the scheme objects) can.
"""


@dataclass(eq=False, slots=True)
class Ops:
    """What one operation runs on: arithmetic kernels, SHA-3 provider, suite.

    NOTE: not frozen (a frozen dataclass costs 0.4 us more to make, on every
    operation); nothing assigns to it after it is made."""

    k: MLDSAKernels
    sha3: Sha3Provider
    suite: Suite
    a_cache: LruCache[Poly]
    """A_hat per rho, owned by the scheme object (one parameter set and suite)."""


def ops_for(suite: Suite, arith_backend: str | None, a_cache: LruCache[Poly]) -> Ops:
    """Resolve the kernels and the SHA-3 provider once per operation."""
    return Ops(arith.kernels("mldsa", arith_backend), provider("sha3"), suite, a_cache)


def _fast(ops: Ops) -> Any | None:
    """The backend's whole-operation kernels (:class:`pqkit.mldsa.kernels.contract.MLDSAOperations`)
    when it has them and the suite is SHAKE (they hash with SHAKE inside), else None:
    then the step-by-step code below runs, their reference twin."""
    if ops.suite.name != "shake":
        return None
    return operations("mldsa", ops.k.backend)


def h(ops: Ops, data: bytes, n: int) -> bytes:
    """H = SHAKE256 (FIPS 204 §3.7): the first n bytes of H(data)."""
    return ops.sha3.shake_digest(256, data, n)


# --- FIPS 204, Algorithms 32-34 (expansion) ---------------------------------------


def expand_a(p: Params, ops: Ops, rho: bytes) -> Poly:
    """FIPS 204, Algorithm 32 (ExpandA): A_hat[r, s] = RejNTTPoly(rho || s || r)."""
    nonces = [(r << 8) | s for r in range(p.k) for s in range(p.l)]
    n = _REJ_UNIFORM_BYTES
    a_hat, count = ops.k.rej_uniform(ops.suite.stream128(rho, nonces, n))
    while (count < 256).any():  # public data (rho): a rare longer read
        n *= 4
        short = np.nonzero(count < 256)[0]
        redo, recount = ops.k.rej_uniform(ops.suite.stream128(rho, [nonces[i] for i in short], n))
        a_hat[short], count[short] = redo, recount
    return a_hat.reshape(p.k, p.l, 256)


A_CACHE_SIZE = 16
"""How many decoded public values a scheme object keeps (:attr:`Ops.a_cache`): A_hat
per rho, and NTT(t1 2^d) per public key (verification)."""


def expand_a_cached(p: Params, ops: Ops, rho: bytes) -> Poly:
    """ExpandA(rho) through the scheme object's LRU cache, read-only.

    NOTE: rho is public (it opens the public key), so keeping A_hat for the keys
    in use saves signing and verification the matrix expansion; nothing derived
    from secret data is cached.
    """

    def make() -> Poly:
        fast = _fast(ops)
        if fast is not None:
            made: Poly = fast.mldsa_expand_a(rho, p.k, p.l)  # read-only already
            return made
        a_hat = np.ascontiguousarray(expand_a(p, ops, rho))
        a_hat.setflags(write=False)
        return a_hat

    return ops.a_cache.get_or_make(rho, make)


def t1_hat_cached(p: Params, ops: Ops, pk: bytes) -> Poly:
    """NTT(t1 2^d) of the public key pk (FIPS 204, Algorithm 8 lines 2 and 9),
    read-only, through the scheme object's cache (keyed by pk: public, like rho)."""
    return t1_hat_and_ntt(p, ops, pk, np.zeros((0, 256), dtype=_I64))[0]


def t1_hat_and_ntt(p: Params, ops: Ops, pk: bytes, rows: Poly) -> tuple[Poly, Poly]:
    """:func:`t1_hat_cached`, and NTT(rows) of (r, 256) ``rows``: on a cache miss both
    transforms are one NTT call (verification with a new key)."""
    done: list[Poly] = []

    def make() -> Poly:
        _, t1 = pk_decode(p, ops, pk)
        hats = ops.k.ntt(np.concatenate([rows, t1 << D]))
        done.append(hats[: len(rows)])
        t1_hat = np.ascontiguousarray(hats[len(rows) :])
        t1_hat.setflags(write=False)
        return t1_hat

    t1_hat = ops.a_cache.get_or_make(("t1_hat", pk), make)
    if done or not len(rows):
        return t1_hat, done[0] if done else rows
    return t1_hat, ops.k.ntt(rows)


def expand_s(p: Params, ops: Ops, rho_prime: bytes) -> tuple[Poly, Poly]:
    """FIPS 204, Algorithm 33 (ExpandS): s1 (l), s2 (k), signed in [-eta, eta]."""
    nonces = list(range(p.l + p.k))
    n = _REJ_BOUNDED_BYTES
    s, count = ops.k.rej_bounded(ops.suite.stream256(rho_prime, nonces, n), p.eta)
    # NOTE: a short row is re-read; this reveals only how many samples were
    # rejected, which is independent of the accepted values.
    while (count < 256).any():
        n *= 2
        short = np.nonzero(count < 256)[0]
        redo, recount = ops.k.rej_bounded(
            ops.suite.stream256(rho_prime, [nonces[i] for i in short], n), p.eta
        )
        s[short], count[short] = redo, recount
    return s[: p.l], s[p.l :]


def expand_mask(p: Params, ops: Ops, rho_pp: bytes, kappa: int, count: int) -> Poly:
    """FIPS 204, Algorithm 34 (ExpandMask) for ``count`` consecutive iterations:
    (count, l, 256) signed y in (-gamma1, gamma1], iteration i using kappa + i*l."""
    nonces = [kappa + i for i in range(count * p.l)]
    v = ops.suite.stream256(rho_pp, nonces, 32 * p.z_bits)
    y = p.gamma1 - ops.k.bit_unpack(v, p.z_bits)  # BitUnpack(v, gamma1 - 1, gamma1)
    return y.reshape(count, p.l, 256)


def sample_in_ball(p: Params, ops: Ops, c_tildes: list[bytes]) -> Poly:
    """FIPS 204, Algorithm 29 (SampleInBall) for each c_tilde: (len, 256) in {-1, 0, 1}."""
    n = _BALL_BYTES
    stream = ops.sha3.shake_many(256, c_tildes, n)
    c, ok = ops.k.sample_in_ball(stream, p.tau)
    while not ok.all():  # rare: more than 128 index bytes needed
        n *= 4
        bad = np.nonzero(~ok)[0]
        redo, reok = ops.k.sample_in_ball(
            ops.sha3.shake_many(256, [c_tildes[i] for i in bad], n), p.tau
        )
        c[bad], ok[bad] = redo, reok
    return c


def sample_in_ball_public(p: Params, ops: Ops, c_tilde: bytes) -> Poly:
    """SampleInBall (FIPS 204, Algorithm 29) of a *published* c_tilde, for
    verification: (1, 256).

    NOTE: c_tilde is part of the signature being verified, so its challenge is
    public and the plain algorithm (branches and indexing on the stream) is allowed
    here; it is much faster in NumPy than the masked scan the signing loop needs for
    the challenges of rejected attempts. Same values (tests/test_hardening_sample_in_ball.py
    compares it with the ``ref`` kernel).
    """
    n = _BALL_BYTES
    while True:
        c = _sample_in_ball_public(ops.sha3.shake_digest(256, c_tilde, n), p.tau)
        if c is not None:
            return np.array(c, dtype=_I64)[None]
        n *= 4


def _sample_in_ball_public(s: bytes, tau: int) -> list[int] | None:
    """FIPS 204, Algorithm 29 (SampleInBall) on the first len(s) bytes of
    H(c_tilde), for a public c_tilde: c as a list, or None when s runs out.

    Twin of the ``ref`` kernel's sampler on purpose: the signs as one integer and no
    per-row array handling (about twice as fast, in verification's critical path)."""
    c = [0] * 256
    signs = int.from_bytes(s[:8], "little")  # lines 4-5: h, bit t for step t
    pos = 8
    for t in range(tau):  # lines 6-12, i = 256 - tau + t
        i = 256 - tau + t
        while pos < len(s) and s[pos] > i:
            pos += 1
        if pos == len(s):
            return None
        j = s[pos]
        pos += 1
        c[i] = c[j]
        c[j] = 1 - 2 * ((signs >> t) & 1)  # (-1)^h[i + tau - 256]
    return c


# --- FIPS 204 §7.2 (encodings) -----------------------------------------------------


def pk_encode(p: Params, ops: Ops, rho: bytes, t1: Poly) -> bytes:
    """FIPS 204, Algorithm 22 (pkEncode)."""
    return rho + ops.k.bit_pack(t1, 10).tobytes()


def pk_decode(p: Params, ops: Ops, pk: bytes) -> tuple[bytes, Poly]:
    """FIPS 204, Algorithm 23 (pkDecode); pk has the right length."""
    t1 = ops.k.bit_unpack(np.frombuffer(pk, np.uint8, offset=32).reshape(p.k, 320), 10)
    return pk[:32], t1


def sk_encode(
    p: Params, ops: Ops, rho: bytes, key: bytes, tr: bytes, s1: Poly, s2: Poly, t0: Poly
) -> bytes:
    """FIPS 204, Algorithm 24 (skEncode), with FIPS 204, Algorithm 17 (BitPack):
    BitPack(w, a, b) = SimpleBitPack(b - w)."""
    s = np.concatenate([s1, s2])
    packed_s = ops.k.bit_pack(p.eta - s, p.eta_bits).tobytes()
    packed_t0 = ops.k.bit_pack((1 << (D - 1)) - t0, D).tobytes()
    return rho + key + tr + packed_s + packed_t0


@dataclass(frozen=True)
class SecretKey:
    """A decoded secret key (FIPS 204, Algorithm 25), s1/s2/t0 signed."""

    rho: bytes
    key: bytes
    tr: bytes
    s1: Poly
    s2: Poly
    t0: Poly
    raw: bytes = b""
    """The encoded key it came from (for the whole-operation kernels)."""
    s1_hat: Poly | None = None
    """NTT(s1), (l, 256), read-only, when made already (:func:`secret_key_cached`);
    else the consistency check computes it."""
    challenge: Any = None
    """The kernels' ``challenge_prepare(s1 || s2 || t0)``, read-only, when made
    already (:func:`secret_key_cached`); else signing computes it."""

    def matches(self, sk: bytes) -> bool:
        """Whether ``sk`` is the key this was decoded from: constant time in its bytes."""
        return hmac.compare_digest(self.raw, sk)


def decode_secret_key(p: Params, ops: Ops, sk: bytes) -> SecretKey:
    """FIPS 204, Algorithm 25 (skDecode), plus the range check it leaves to the
    caller: every s1/s2 coefficient in [-eta, eta], else ValueError. sk has the
    right length."""
    rho, key, tr = sk[:32], sk[32:64], sk[64 : 64 + p.tr_bytes]
    off = 64 + p.tr_bytes
    n_s = (p.k + p.l) * 32 * p.eta_bits
    raw_s = np.frombuffer(sk, np.uint8, count=n_s, offset=off).reshape(p.k + p.l, -1)
    u = ops.k.bit_unpack(raw_s, p.eta_bits)
    # one bit leaves this check: whether the key is malformed
    if bool((u > 2 * p.eta).any()):
        raise _out_of_range(p)
    s = p.eta - u
    raw_t0 = np.frombuffer(sk, np.uint8, offset=off + n_s).reshape(p.k, 32 * D)
    t0 = (1 << (D - 1)) - ops.k.bit_unpack(raw_t0, D)
    return SecretKey(rho, key, tr, s[: p.l], s[p.l :], t0, sk)


def _out_of_range(p: Params) -> ValueError:
    return ValueError(
        f"{p.name} secret key: s1/s2 coefficient outside [-{p.eta}, {p.eta}] "
        "(FIPS 204, Algorithm 25 skDecode)"
    )


def secret_key(p: Params, ops: Ops, sk: bytes) -> SecretKey:
    """The secret key sk (right length, already checked consistent, so in range) in
    the form signing needs: encoded only (rho, K, tr and the bytes) when the backend's
    whole-operation kernels sign, since they decode it themselves; else decoded
    (:func:`decode_secret_key`)."""
    if _fast(ops) is not None:
        none = np.zeros((0, 256), dtype=np.int64)
        return SecretKey(sk[:32], sk[32:64], sk[64 : 64 + p.tr_bytes], none, none, none, sk)
    return decode_secret_key(p, ops, sk)


def secret_key_cached(p: Params, ops: Ops, sk: bytes) -> SecretKey:
    """:func:`secret_key`, with the step path's decoded key, NTT(s1) and the key's
    challenge_prepare (signing's form of s1, s2, t0) kept in the key object that
    signs (:func:`pqkit._keystate.cached`), served only when its whole encoded key
    equals ``sk`` (``hmac.compare_digest``); the bytes API decodes on every call
    (docs/decisions.md, "Issue 28: Hardening II")."""
    if _fast(ops) is not None:
        return secret_key(p, ops, sk)  # compiled signing decodes in about 1 us

    def make() -> SecretKey:
        dec = decode_secret_key(p, ops, sk)
        challenge = ops.k.challenge_prepare(np.concatenate([dec.s1, dec.s2, dec.t0]))
        # composed, challenge_prepare is NTT(s1 || s2 || t0) (mldsa/kernels/compose.py)
        composed = "challenge_prepare" in getattr(ops.k, "composed", ())
        s1_hat: Poly = np.ascontiguousarray(challenge[: p.l] if composed else ops.k.ntt(dec.s1))
        for a in (dec.s1, dec.s2, dec.t0, s1_hat, challenge):
            a.setflags(write=False)
        return replace(dec, s1_hat=s1_hat, challenge=challenge)

    return keystate.cached(keystate.MLDSA_SK, lambda st: st.matches(sk), make)


def hint_bit_pack(p: Params, hint: Poly) -> bytes:
    """FIPS 204, Algorithm 20 (HintBitPack); the hint is public (part of sigma)."""
    y = bytearray(p.omega + p.k)
    rows, cols = np.nonzero(hint)
    y[: len(cols)] = bytes(cols.astype(np.uint8))
    ends = np.cumsum(np.bincount(rows, minlength=p.k))
    y[p.omega :] = bytes(ends.astype(np.uint8))
    return bytes(y)


def hint_bit_unpack(p: Params, y: bytes) -> Poly | None:
    """FIPS 204, Algorithm 21 (HintBitUnpack): the hint, or None if malformed
    (counts out of order or above omega, indices not increasing, non-zero padding)."""
    hint = np.zeros((p.k, 256), dtype=_I64)
    index = 0
    for i in range(p.k):
        end = y[p.omega + i]
        if end < index or end > p.omega:
            return None
        first = index
        while index < end:
            if index > first and y[index - 1] >= y[index]:
                return None
            hint[i, y[index]] = 1
            index += 1
    if any(y[index : p.omega]):
        return None
    return hint


def sig_encode(p: Params, ops: Ops, c_tilde: bytes, z: Poly, hint: Poly) -> bytes:
    """FIPS 204, Algorithm 26 (sigEncode); z signed, packed by FIPS 204, Algorithm 17
    (BitPack) and read back by FIPS 204, Algorithm 19 (BitUnpack) in sig_decode."""
    packed_z = ops.k.bit_pack(p.gamma1 - z, p.z_bits).tobytes()
    return c_tilde + packed_z + hint_bit_pack(p, hint)


def sig_decode(p: Params, ops: Ops, sigma: bytes) -> tuple[bytes, Poly, Poly] | None:
    """FIPS 204, Algorithm 27 (sigDecode); None for malformed hints. sigma has the
    right length."""
    c_tilde = sigma[: p.c_tilde_bytes]
    n_z = p.l * 32 * p.z_bits
    raw_z = np.frombuffer(sigma, np.uint8, count=n_z, offset=p.c_tilde_bytes)
    z = p.gamma1 - ops.k.bit_unpack(raw_z.reshape(p.l, -1), p.z_bits)
    hint = hint_bit_unpack(p, sigma[p.c_tilde_bytes + n_z :])
    if hint is None:
        return None
    return c_tilde, z, hint


def w1_encode(p: Params, ops: Ops, w1: Poly) -> npt.NDArray[np.uint8]:
    """FIPS 204, Algorithm 28 (w1Encode), batched: (..., k, 256) -> (..., k * 32 * bits)."""
    packed = ops.k.bit_pack(w1, p.w1_bits)
    return packed.reshape((*w1.shape[:-2], -1))


# --- FIPS 204, Algorithms 6-8 (internal) ------------------------------------------


def _t(p: Params, ops: Ops, a_hat: Poly, s1: Poly, s2: Poly, s1_hat: Poly | None = None) -> Poly:
    """t = NTT^-1(A_hat ∘ NTT(s1)) + s2, canonical (FIPS 204, Algorithm 6 line 5);
    ``s1_hat`` is NTT(s1) when the caller has it."""
    if s1_hat is None:
        s1_hat = ops.k.ntt(s1)
    return ops.k.mod_q(ops.k.intt(ops.k.pointwise_acc(a_hat, s1_hat[None])) + s2)


def keygen_internal(p: Params, ops: Ops, xi: bytes) -> tuple[bytes, bytes]:
    """FIPS 204, Algorithm 6 (ML-KEM.KeyGen_internal); round 3 when
    ``p.keygen_domain`` is False (seed expanded without k, l)."""
    fast = _fast(ops)
    if fast is not None:
        pair: tuple[bytes, bytes] = fast.mldsa_keygen_internal(
            xi, p.k, p.l, p.eta, p.eta_bits, p.keygen_domain, p.tr_bytes
        )
        return pair
    seed = xi + bytes([p.k, p.l]) if p.keygen_domain else xi
    expanded = h(ops, seed, 128)
    rho, rho_prime, key = expanded[:32], expanded[32:96], expanded[96:]
    a_hat = expand_a(p, ops, rho)
    s1, s2 = expand_s(p, ops, rho_prime)
    t = _t(p, ops, a_hat, s1, s2)
    t1, t0 = ops.k.power2round(t)
    pk = pk_encode(p, ops, rho, t1)
    tr = h(ops, pk, p.tr_bytes)
    sk = sk_encode(p, ops, rho, key, tr, s1, s2, t0)
    return pk, sk


def public_key_from_secret(p: Params, ops: Ops, sk: bytes, dec: SecretKey | None = None) -> bytes:
    """Check an expanded secret key and return its public key.

    Checks, in order, each a ValueError naming it: s1/s2 ranges (skDecode), t0
    equal to Power2Round(A s1 + s2)'s low part, tr equal to H(pk). On a backend
    with whole-operation kernels, one compiled call runs all three. A_hat comes
    through the scheme object's cache of public values (:func:`expand_a_cached`),
    where signing then finds it. ``dec``: sk decoded already on the step path
    (:func:`secret_key_cached`; its NTT(s1) is reused when present).
    """
    fast = _fast(ops)
    if fast is not None:
        a_hat = expand_a_cached(p, ops, sk[:32])
        failed, pk_fast = fast.mldsa_check_secret(
            sk, a_hat, p.k, p.l, p.eta, p.eta_bits, p.tr_bytes
        )
        if failed:
            raise _inconsistent(p, failed)
        return cast(bytes, pk_fast)
    if dec is None or dec.s1.size == 0:
        dec = decode_secret_key(p, ops, sk)
    a_hat = expand_a_cached(p, ops, dec.rho)
    t1, t0 = ops.k.power2round(_t(p, ops, a_hat, dec.s1, dec.s2, dec.s1_hat))
    # Both t0 lie in [-2^12 + 1, 2^12] (skDecode's BitUnpack of 13 bits, Power2Round),
    # so comparing them as int64 bytes is comparing their bitPack encodings.
    if not hmac.compare_digest(
        np.ascontiguousarray(t0, dtype=_I64).tobytes(),
        np.ascontiguousarray(dec.t0, dtype=_I64).tobytes(),
    ):
        raise _inconsistent(p, 2)
    pk = pk_encode(p, ops, dec.rho, t1)
    if not hmac.compare_digest(h(ops, pk, p.tr_bytes), dec.tr):
        raise _inconsistent(p, 3)
    return pk


def _inconsistent(p: Params, failed: int) -> ValueError:
    """The error of a failed secret-key check: 1 range (skDecode), 2 t0, 3 tr."""
    if failed == 1:
        return _out_of_range(p)
    if failed == 2:
        return ValueError(
            f"{p.name} secret key: t0 is not Power2Round(A*s1 + s2) (FIPS 204, Algorithm 6)"
        )
    return ValueError(f"{p.name} secret key: tr is not H(pk) (FIPS 204, Algorithm 6 line 9)")


def sign_whole(p: Params, ops: Ops, sk: bytes, m_prime: bytes, rnd: bytes) -> bytes | None:
    """FIPS 204, Algorithm 7 (ML-DSA.Sign_internal) on M' in one compiled call, or
    None when the backend has no whole-operation kernels (then the caller checks and
    decodes the key, hashes mu and rho'' and runs :func:`sign_mu_internal`). Inside
    the call: the key's consistency check (skipped when the key object signing has
    passed it already: :mod:`pqkit._keystate`; ValueError when it fails, as
    :func:`public_key_from_secret`), mu, rho'' and, for a key whose rho the scheme
    object has not seen, ExpandA. sk has the right length."""
    fast = _fast(ops)
    if fast is None:
        return None
    check = not keystate.known(
        keystate.MLDSA_CONSISTENT, lambda checked: hmac.compare_digest(checked, sk)
    )
    rho = sk[:32]
    cached = ops.a_cache.get(rho)
    failed, sigma, a_hat = fast.mldsa_sign(
        sk,
        cached,
        m_prime,
        rnd,
        check,
        p.eta,
        p.eta_bits,
        *p.signing,
        p.tr_bytes,
        MAX_SIGN_ATTEMPTS,
        p.k,
        p.l,
    )
    if cached is None:
        ops.a_cache.put(rho, a_hat)
    if failed:
        raise _inconsistent(p, failed)
    if check:
        keystate.note(keystate.MLDSA_CONSISTENT, sk)
    if sigma is None:
        raise _no_signature(p)
    return cast(bytes, sigma)


def sign_mu_internal(p: Params, ops: Ops, sk: SecretKey, mu: bytes, rho_pp: bytes) -> bytes:
    """FIPS 204, Algorithm 7 (ML-DSA.Sign_internal) from line 7 on: mu and
    rho'' = H(K || rnd || mu) (or round 3's rho') are given.

    Every check of an iteration (z, r0, ct0, hint count) is folded into one
    boolean before anything branches on it, so only the iteration count shows.
    """
    fast = _fast(ops)
    if fast is not None and sk.raw:
        # One compiled call: the loop one attempt at a time (same signature).
        sigma: bytes | None = fast.mldsa_sign_internal(
            sk.raw,
            expand_a_cached(p, ops, sk.rho),
            mu,
            rho_pp,
            p.eta,
            *p.signing,
            p.tr_bytes,
            MAX_SIGN_ATTEMPTS,
        )
        if sigma is None:
            raise _no_signature(p)
        return sigma
    if sk.s1.size == 0:  # an encoded-only key (secret_key) on a backend without them
        sk = decode_secret_key(p, ops, sk.raw)
    kk = ops.k
    prepared = sk.challenge  # s1, s2, t0 as challenge_mul takes them
    if prepared is None:
        prepared = kk.challenge_prepare(np.concatenate([sk.s1, sk.s2, sk.t0]))
    a_hat = expand_a_cached(p, ops, sk.rho)
    gamma2 = p.gamma2
    per_pass = sign_batch(p) if kk.backend == "numpy" else SIGN_BATCH
    bounds = np.repeat([p.gamma1 - p.beta, gamma2 - p.beta, gamma2], [p.l, p.k, p.k])
    kappa = 0
    attempts = 0
    while attempts < MAX_SIGN_ATTEMPTS:
        b = min(per_pass, MAX_SIGN_ATTEMPTS - attempts)  # the cap may shorten a pass
        y = expand_mask(p, ops, rho_pp, kappa, b)  # (b, l, 256)
        y_hat = kk.ntt(y)
        w = kk.intt(kk.pointwise_acc(a_hat[None], y_hat[:, None]))  # (b, k, 256)
        w1, _ = kk.decompose(w, gamma2)
        w1_bytes = w1_encode(p, ops, w1)
        c_tildes = [h(ops, mu + w1_bytes[i].tobytes(), p.c_tilde_bytes) for i in range(b)]
        c = sample_in_ball(p, ops, c_tildes)  # (b, 256)
        cs = kk.challenge_mul(c, prepared)  # (b, l+2k, 256), centred
        cs1, cs2, ct0 = cs[:, : p.l], cs[:, p.l : p.l + p.k], cs[:, p.l + p.k :]
        z = y + cs1  # centred: |y| <= gamma1, |cs1| <= beta
        # FIPS 204, Algorithm 38 (LowBits) of w - cs2 (line 25), and h = MakeHint(-ct0,
        # w - cs2 + ct0) (line 26), which is, by Algorithm 39, HighBits(w - cs2 + ct0)
        # != HighBits(w - cs2): one Decompose of both (w canonical, cs2 and ct0 short).
        r1, r0s = kk.decompose(kk.mod_q(w - np.stack([cs2, cs2 - ct0])), gamma2)
        r0 = r0s[0]
        hint = (r1[0] != r1[1]).astype(np.int64)
        # Lines 23 and 28: every polynomial of z, r0, ct0 below its bound (one norm
        # call over all of them), and at most omega hints.
        norms = kk.infinity_norm(np.concatenate([z, r0, ct0], axis=1))  # (b, l + 2k)
        ok = (norms < bounds).all(axis=-1) & (hint.sum(axis=(-2, -1)) <= p.omega)
        if ok.any():
            i = int(np.argmax(ok))
            return sig_encode(p, ops, c_tildes[i], z[i], hint[i])
        kappa += b * p.l
        attempts += b
    raise _no_signature(p)


def _no_signature(p: Params) -> RuntimeError:
    return RuntimeError(
        f"{p.name} signing found no acceptable signature in {MAX_SIGN_ATTEMPTS} attempts "
        "(FIPS 204, Algorithm 7 loop bound): the secret key is not a valid key"
    )


def verify_whole(p: Params, ops: Ops, pk: bytes, m_prime: bytes, sigma: bytes) -> bool | None:
    """FIPS 204, Algorithm 8 (ML-DSA.Verify_internal) on M' in one compiled call
    (tr, mu and, for a key not in the scheme object's cache, ExpandA hashed inside),
    or None when the backend has no whole-operation kernels: then the caller hashes
    tr and mu and runs :func:`verify_mu_internal`. pk and sigma have the right
    lengths."""
    fast = _fast(ops)
    if fast is None:
        return None
    rho = pk[:32]
    cached = ops.a_cache.get(rho)
    ok, a_hat = fast.mldsa_verify(
        pk, cached, m_prime, sigma, *p.signing, p.beta, p.tr_bytes, p.k, p.l
    )
    if cached is None:
        ops.a_cache.put(rho, a_hat)
    return bool(ok)


def verify_mu_internal(p: Params, ops: Ops, pk: bytes, mu: bytes, sigma: bytes) -> bool:
    """FIPS 204, Algorithm 8 (ML-DSA.Verify_internal) from line 7 on, mu given;
    pk and sigma have the right lengths."""
    fast = _fast(ops)
    if fast is not None:
        a_hat = expand_a_cached(p, ops, pk[:32])
        ok: bool = fast.mldsa_verify_internal(pk, a_hat, mu, sigma, *p.signing, p.beta)
        return ok
    kk = ops.k
    decoded = sig_decode(p, ops, sigma)
    if decoded is None:
        return False
    c_tilde, z, hint = decoded
    if int(kk.infinity_norm(z).max()) >= p.gamma1 - p.beta:
        return False
    a_hat = expand_a_cached(p, ops, pk[:32])
    c = sample_in_ball_public(p, ops, c_tilde)
    t1_hat, hats = t1_hat_and_ntt(p, ops, pk, np.concatenate([z, c]))
    z_hat, c_hat = hats[: p.l], hats[p.l]
    # Line 9: A_hat z_hat - c_hat t1_hat, the difference being FIPS 204, Algorithm 46
    # (AddVectorNTT) with the second vector negated.
    w_approx = kk.intt(kk.pointwise_acc(a_hat, z_hat[None]) - kk.pointwise_mul(c_hat, t1_hat))
    w1 = kk.use_hint(hint, w_approx, p.gamma2)
    c_tilde_prime = h(ops, mu + w1_encode(p, ops, w1).tobytes(), p.c_tilde_bytes)
    return hmac.compare_digest(c_tilde, c_tilde_prime)
