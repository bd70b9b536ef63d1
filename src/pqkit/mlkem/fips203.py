"""ML-KEM (FIPS 203): the FIPS 203 FO transform on K-PKE with the SHA-3 suite.

Two paths give the same bytes: a backend with whole-operation kernels
(:func:`pqkit.arith.ops.operations`: ``jit``, one compiled call per operation) runs
those; every other backend runs the step-by-step path below (K-PKE over the kernel
table, hashing through :mod:`pqkit.common`), their reference twin.

Both reuse the decoded encapsulation key (:class:`PublicState`: t_hat, A_hat,
H(ek), the modulus check's verdict) from a bounded cache keyed by ek (its rho, checked
against the whole ek: :meth:`MLKEM._cached`). ek is public,
so a hit or miss reveals nothing secret; decapsulation looks up the ek stored
inside dk (public too). The step path reuses the decoded secret key
(:class:`SecretState`: s_hat) only while a key object decapsulates: the state is
kept in that key object (:mod:`pqkit._keystate`) and served only for the same dk
(``hmac.compare_digest``); the bytes API decodes dk on every call, and no scheme
object keeps secret state (docs/decisions.md, "Issue 28: Hardening II").
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pqkit import _keystate as keystate
from pqkit._checks import as_bytes_len
from pqkit._lru import LruCache
from pqkit.arith.api import Poly
from pqkit.arith.ops import operations
from pqkit.mlkem import kpke
from pqkit.mlkem.kernels.compose import encrypt_rows
from pqkit.mlkem.kernels.contract import MLKEMKernels
from pqkit.mlkem.params import CATALOG, Q
from pqkit.mlkem.scheme import KpkeKem, bytes_equal, masked_select
from pqkit.mlkem.symmetric import FIPS203, SuiteOps
from pqkit.registry import Algorithm
from pqkit.schemes import RNG, Encapsulation, KeyPair, draw

__all__ = [
    "EK_CACHE_SIZE",
    "MLKEM",
    "ROWS_REUSED_AT",
    "SCHEMES",
    "S_REUSED_AT",
    "PublicState",
    "SecretState",
]

EK_CACHE_SIZE = 32
"""Decoded encapsulation keys kept per parameter set (at most 40 KiB each, plus per
backend the prepared encryption rows: up to 660 KiB on numpy for ML-KEM-1024 once a
key is used twice)."""
ROWS_REUSED_AT = 32
"""Encapsulations / decapsulations with one ek after which its encryption rows get
the backend's ``reused`` kpke_cache form (numpy: about 7 us faster a call, 0.3-0.7 ms
to make)."""
S_REUSED_AT = 2
"""Decapsulations with one dk after which s_hat gets the ``reused`` kpke_cache form
(numpy: about 8 us faster a call, about 60 us to make)."""


@dataclass(eq=False, slots=True)
class PublicState:
    """An encapsulation key ek, decoded once (FIPS 203, Algorithm 14 lines 2-8 and
    the §7.2 modulus check): every value is a function of the public ek only.

    Nothing assigns to its fields after it is made (the arrays are read-only). It is
    not a frozen dataclass because one is made for every new key, and a frozen
    dataclass's ``__init__`` (``object.__setattr__`` per field) cost 0.5 us more."""

    ek: bytes
    """The encapsulation key itself (the cache is keyed by its rho: :meth:`MLKEM._cached`)."""
    ok: bool
    """Whether ek passes the §7.2 modulus check."""
    t_hat: Poly
    """ByteDecode_12(ek[:384 k]), reduced mod q: (k, 256), read-only."""
    A_hat: Poly
    """A_hat[i, j] = SampleNTT(rho || j || i): (k, k, 256), read-only."""
    h: bytes
    """H(ek) = SHA3-256(ek)."""
    prepared: dict[str, Any] = field(default_factory=dict, compare=False)
    """The encryption rows ("rows") and per kernel backend (their kpke_cache, uses)
    for K-PKE.Encrypt, made on use (:meth:`encrypt_rows`); values of the public ek
    only."""

    def encrypt_rows(self, K: MLKEMKernels) -> tuple[Poly, Any]:
        """A_hat^T stacked on t_hat^T and its kpke_cache on ``K``'s backend."""
        rows = self.prepared.get("rows")
        if rows is None:
            rows = self.prepared["rows"] = _frozen(encrypt_rows(self.t_hat, self.A_hat))
        return rows, _prepared(self.prepared, K, rows, ROWS_REUSED_AT)


def _prepared(store: dict[str, Any], K: MLKEMKernels, b_hat: Poly, reused_at: int) -> Any:
    """``K.kpke_cache(b_hat)`` kept in ``store`` per backend with a use count: the
    cheap form at first, the ``reused`` form (faster, costlier to make) from the
    ``reused_at``-th use on. Racing threads may both make it; the values are equal."""
    got = store.get(K.backend)
    if got is None:
        got = (K.kpke_cache(b_hat), 1)
    elif got[1] < reused_at:
        uses = got[1] + 1
        got = (K.kpke_cache(b_hat, reused=True) if uses == reused_at else got[0], uses)
    else:
        return got[0]
    store[K.backend] = got
    return got[0]


@dataclass(frozen=True, eq=False)
class SecretState:
    """A decapsulation key dk, decoded once: s_hat = ByteDecode_12(dk_PKE) (FIPS 203,
    Algorithm 15 line 5) and, per kernel backend, kpke_cache(s_hat). Kept only in
    the key object that decapsulates (:mod:`pqkit._keystate`), served only for the
    same dk."""

    dk: bytes
    """The whole decapsulation key this state was decoded from."""
    s_hat: Poly
    """ByteDecode_12(dk[:384 k]): (k, 256), read-only."""
    prepared: dict[str, Any] = field(default_factory=dict, compare=False)

    def s_cache(self, K: MLKEMKernels) -> Any:
        """kpke_cache(s_hat) on ``K``'s backend."""
        return _prepared(self.prepared, K, self.s_hat, S_REUSED_AT)

    def matches(self, dk: bytes) -> bool:
        """Whether ``dk`` is this state's key: constant time in the key's bytes."""
        return hmac.compare_digest(self.dk, dk)


def _frozen(a: Any) -> Poly:
    """``a`` as a read-only C-contiguous int64 array, for the shared state. Every
    caller passes an array just made for it (a kernel's or a decoder's result), so
    one already in that form is frozen in place rather than copied (a copy per
    decoded key cost about 1 us on NumPy)."""
    out: Poly = np.ascontiguousarray(a, dtype=np.int64)
    out.setflags(write=False)
    return out


class MLKEM(KpkeKem):
    """ML-KEM-512/768/1024 (FIPS 203, Algorithms 16-21)."""

    BATCH = "pqkit.mlkem.batch:MLKEMBatch"

    def __init__(self, algorithm: Algorithm, *, arith: str | None = None) -> None:
        super().__init__(algorithm, FIPS203, arith=arith)
        self._ek_cache: LruCache[PublicState] = LruCache(EK_CACHE_SIZE)

    def _secret_state(self, dk: bytes, K: MLKEMKernels) -> SecretState:
        """The decoded dk: the one kept in the key object that decapsulates when it
        holds this very dk (constant-time comparison), else decoded now (and kept in
        that key object, if any: :func:`pqkit._keystate.cached`)."""
        k = self.params.k

        def decode() -> SecretState:
            s = np.frombuffer(dk, dtype=np.uint8, count=384 * k).reshape(k, 384)
            return SecretState(dk, _frozen(K.byte_decode(s, 12)))

        return keystate.cached(keystate.MLKEM_DK, lambda st: st.matches(dk), decode)

    def _public_state(self, ek: bytes, ops: SuiteOps, K: MLKEMKernels) -> PublicState:
        """The decoded ek, from the cache or made now (whole-operation kernels when the
        backend has them, else the kernel table: the same values)."""
        return self._cached(ek, lambda: self._decode_public(ek, ops, K))

    def _cached(self, ek: bytes, make: Callable[[], PublicState]) -> PublicState:
        """ek's :class:`PublicState` from the cache, else ``make()``'s (then cached).
        The cache is keyed by rho, ek's last 32 bytes, and serves an entry only for
        the same whole ek: hashing 32 bytes instead of up to 1568 (a new ``bytes``
        object each decapsulation, whose ek is a slice of dk) saves about 0.5 us a
        call. ek is public, so the lookup may branch on it."""
        rho = ek[-32:]
        state = self._ek_cache.get(rho)
        if state is None or state.ek != ek:
            state = make()
            self._ek_cache.put(rho, state)
        return state

    def _decode_public(self, ek: bytes, ops: SuiteOps, K: MLKEMKernels) -> PublicState:
        k = self.params.k
        fast = operations("mlkem", K.backend)
        if fast is not None:
            return PublicState(ek, *fast.mlkem_public_state(ek, k))
        t_hat, ok = kpke.decode_t_hat(K, ek, k)  # Algorithm 14 line 2, §7.2 check 2
        A_hat = kpke.expand_matrix(ops, K, ek[384 * k :], k)  # lines 3-8
        return PublicState(ek, ok, _frozen(t_hat), _frozen(A_hat), ops.H(ek))

    def _keygen_internal(self, ops: SuiteOps, K: MLKEMKernels, d: bytes, z: bytes) -> KeyPair:
        """FIPS 203, Algorithm 16 (ML-KEM.KeyGen_internal)."""
        fast = operations("mlkem", K.backend)
        if fast is not None:
            return KeyPair(*fast.mlkem_keygen_internal(d, z, self.params.k, self.params.eta1))
        ek_pke, dk_pke = kpke.keygen(self.params, ops, K, d, append_k=True)  # line 1
        ek = ek_pke  # line 2
        dk = dk_pke + ek + ops.H(ek) + z  # line 3
        return KeyPair(ek, dk)

    def _encaps_internal(
        self, ops: SuiteOps, K: MLKEMKernels, ek: bytes, m: bytes, state: Any
    ) -> Encapsulation:
        """FIPS 203, Algorithm 17 (ML-KEM.Encaps_internal); ``state`` is ek's
        :class:`PublicState` (from the key check)."""
        st: PublicState = state if state is not None else self._public_state(ek, ops, K)
        p = self.params
        fast = operations("mlkem", K.backend)
        if fast is not None:
            return Encapsulation(
                *fast.mlkem_encaps_internal(st.t_hat, st.A_hat, st.h, m, p.eta1, p.eta2, p.du, p.dv)
            )
        K_, r = ops.G(m + st.h)  # line 1
        c = kpke.encrypt(p, ops, K, ek, m, r, st.t_hat, st.A_hat, st.encrypt_rows(K))  # line 2
        return Encapsulation(K_, c)

    def _decaps_internal(
        self, ops: SuiteOps, K: MLKEMKernels, dk: bytes, c: bytes, state: Any = None
    ) -> bytes:
        """FIPS 203, Algorithm 18 (ML-KEM.Decaps_internal); ``state`` is the
        :class:`PublicState` of the ek inside dk (from the hash check)."""
        p = self.params
        k = p.k
        ek_pke = dk[384 * k : 768 * k + 32]  # line 2
        st: PublicState = state if state is not None else self._public_state(ek_pke, ops, K)
        fast = operations("mlkem", K.backend)
        if fast is not None:
            return bytes(
                fast.mlkem_decaps_internal(dk, st.t_hat, st.A_hat, c, k, p.eta1, p.eta2, p.du, p.dv)
            )
        dk_pke = dk[: 384 * k]  # line 1
        h = dk[768 * k + 32 : 768 * k + 64]  # line 3
        z = dk[768 * k + 64 :]  # line 4
        sec = self._secret_state(dk, K)
        m_prime = kpke.decrypt(p, K, dk_pke, c, (sec.s_hat, sec.s_cache(K)))  # line 5
        K_prime, r_prime = ops.G(m_prime + h)  # line 6
        K_bar = ops.J(z + c)  # line 7
        rows = st.encrypt_rows(K)
        c_prime = kpke.encrypt(p, ops, K, ek_pke, m_prime, r_prime, st.t_hat, st.A_hat, rows)
        # (line 8)
        # Lines 9-11: K' unless c != c', then K_bar; a masked select, no branch.
        return masked_select(bytes_equal(c, c_prime), K_prime, K_bar)

    def _encaps_checked(
        self, ops: SuiteOps, K: MLKEMKernels, ek: bytes, rng: RNG | None
    ) -> Encapsulation:
        """FIPS 203, Algorithm 20 (ML-KEM.Encaps) on a checked-length ek. On a backend
        with whole-operation kernels, an ek not in the cache is decoded, checked and
        encapsulated to in one compiled call (its state then cached); m is drawn
        first, which only ``os.urandom`` may do (a caller's ``rng`` sees its request
        after the check, as the step path makes it)."""
        fast = operations("mlkem", K.backend)
        if fast is None or rng is not None:
            return super()._encaps_checked(ops, K, ek, rng)
        m = draw(None, 32)
        p = self.params
        made: list[Encapsulation] = []

        def make() -> PublicState:
            ok, t_hat, A_hat, h, key, c = fast.mlkem_encaps_ek(
                ek, m, p.k, p.eta1, p.eta2, p.du, p.dv
            )
            made.append(Encapsulation(key, c))
            return PublicState(ek, ok, t_hat, A_hat, h)

        state = _modulus_checked(self._cached(ek, make))
        return made[0] if made else self._encaps_internal(ops, K, ek, m, state)

    def _decaps_checked(self, ops: SuiteOps, K: MLKEMKernels, dk: bytes, c: bytes) -> bytes:
        """FIPS 203, Algorithm 21 (ML-KEM.Decaps) on a checked-length dk and c. On a
        backend with whole-operation kernels, a dk whose ek is not in the cache is
        decoded and decapsulated in one compiled call (the ek's state then cached);
        the hash check runs before the key is returned."""
        fast = operations("mlkem", K.backend)
        if fast is None:
            return super()._decaps_checked(ops, K, dk, c)
        p = self.params
        k = p.k
        ek = dk[384 * k : 768 * k + 32]  # Algorithm 18 line 2 (ek_PKE)
        made: list[bytes] = []

        def make() -> PublicState:
            ok, t_hat, A_hat, h, key = fast.mlkem_decaps_dk(dk, c, k, p.eta1, p.eta2, p.du, p.dv)
            made.append(key)
            return PublicState(ek, ok, t_hat, A_hat, h)

        state = self._cached(ek, make)
        _hash_checked(state, dk, k)
        return made[0] if made else self._decaps_internal(ops, K, dk, c, state)

    def check_encapsulation_key(self, ek: bytes) -> None:
        """Run the FIPS 203 §7.2 input checks on ``ek`` without encapsulating: the
        type check (bytes, length) and the modulus check. ``ValueError`` naming the
        failed check; key objects call this when they load a public key."""
        ek = as_bytes_len(ek, "encapsulation key", self.length_public_key)
        self._check_encapsulation_key(ek, *self._tools())

    def check_decapsulation_key(self, dk: bytes) -> None:
        """Run the FIPS 203 §7.3 input checks on ``dk`` without decapsulating: the
        type check (bytes, length) and the hash check. ``ValueError`` naming the
        failed check."""
        dk = as_bytes_len(dk, "decapsulation key", self.length_secret_key)
        self._check_decapsulation_key(dk, *self._tools())

    def _check_encapsulation_key(self, ek: bytes, ops: SuiteOps, K: MLKEMKernels) -> PublicState:
        """FIPS 203 §7.2, check 2 (modulus check): ByteEncode_12(ByteDecode_12(ek))
        must give back the first 384 k bytes of ek (the type check, the length, is
        done by the caller). Returns the decoded key for encapsulation."""
        return _modulus_checked(self._public_state(ek, ops, K))

    def _check_decapsulation_key(self, dk: bytes, ops: SuiteOps, K: MLKEMKernels) -> PublicState:
        """FIPS 203 §7.3, check 3 (hash check): H(dk[384k : 768k + 32]) must equal
        dk[768k + 32 : 768k + 64] (the type checks, lengths, are done by the caller).
        H(ek) comes with the decoded ek (:class:`PublicState`, cached by ek)."""
        k = self.params.k
        return _hash_checked(self._public_state(dk[384 * k : 768 * k + 32], ops, K), dk, k)


def _modulus_checked(state: PublicState) -> PublicState:
    """``state`` if its ek passed the FIPS 203 §7.2 modulus check, else ValueError."""
    if not state.ok:
        raise ValueError(
            "FIPS 203 §7.2 modulus check failed: the encapsulation key holds a "
            f"coefficient that is not reduced modulo q = {Q}"
        )
    return state


def _hash_checked(state: PublicState, dk: bytes, k: int) -> PublicState:
    """``state`` (of the ek inside dk) if H(ek) equals the copy in dk (FIPS 203 §7.3,
    check 3), else ValueError."""
    if not bytes_equal(state.h, dk[768 * k + 32 : 768 * k + 64]):
        raise ValueError(
            "FIPS 203 §7.3 hash check failed: H(ek) stored in the decapsulation key "
            "does not match the encapsulation key inside it"
        )
    return state


SCHEMES: dict[str, MLKEM] = {a.name: MLKEM(a) for a in CATALOG if a.family == "ML-KEM"}
