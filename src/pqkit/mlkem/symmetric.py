"""Symmetric suites: the hash functions, PRF and XOF a K-PKE scheme plugs in.

A suite is bound once per operation (:meth:`Suite.bind`), which resolves
the :mod:`pqkit.common` providers once instead of per hash call (the bound,
stateless object is made once per provider and reused).

- ``FIPS203``: FIPS 203 §4.1: H = SHA3-256, G = SHA3-512, J = SHAKE256(., 32),
  PRF_eta(s, b) = SHAKE256(s || b, 64 eta), XOF = SHAKE128. Round-3 Kyber uses
  the same functions (its KDF is SHAKE256(., 32), the J slot here).
- ``KYBER90S``: Kyber v3.02 §1.5 ("90s" variant): H = SHA-256, G = SHA-512,
  KDF = SHA-256, PRF(s, b) and XOF(rho, j, i) = AES-256-CTR keystreams under
  the key s or rho with the 16-byte counter block b || 0^15 or j || i || 0^14
  (a 96-bit nonce, then a 32-bit big-endian block counter from 0), on the
  fastest AES provider of :mod:`pqkit.common`. All the streams under one key (the
  k^2 matrix entries, or the PRF outputs of one seed) come from one batched ECB
  call (:mod:`pqkit.common.ctr`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from pqkit import common
from pqkit.common.ctr import NONCE_BYTES, ctr_keystreams
from pqkit.common.providers import AesProvider, Sha2Provider, Sha3Provider

__all__ = ["FIPS203", "KYBER90S", "SHAKE128_XOF_BYTES", "Suite", "SuiteOps"]


class SuiteOps(Protocol):
    """The functions of a suite, bound to providers for one operation."""

    xof_bytes: int
    """XOF bytes drawn per matrix entry at first (a multiple of 3); an entry that
    accepts fewer than 256 values is re-read from a longer prefix of its stream."""

    def H(self, data: bytes) -> bytes:
        """H: 32-byte hash."""
        ...

    def G(self, data: bytes) -> tuple[bytes, bytes]:
        """G: 64-byte hash, split into two 32-byte halves."""
        ...

    def J(self, data: bytes) -> bytes:
        """The 32-byte key-derivation hash (J of FIPS 203, KDF of round 3)."""
        ...

    def prf_many(self, eta: int, s: bytes, nonces: Sequence[int]) -> npt.NDArray[np.uint8]:
        """PRF_eta(s, b) for each nonce b: a (len(nonces), 64 eta) uint8 array."""
        ...

    def xof_matrix(self, rho: bytes, k: int, n: int) -> npt.NDArray[np.uint8]:
        """The first n XOF bytes for every matrix entry: (k * k, n) uint8, row
        i * k + j seeded with (rho, j, i) as in FIPS 203, Algorithm 13 line 5."""
        ...

    def xof_entry(self, rho: bytes, i: int, j: int, n: int) -> npt.NDArray[np.uint8]:
        """The first n XOF bytes of entry (i, j) alone (the rejection fallback)."""
        ...


@dataclass(frozen=True)
class Suite:
    """A named suite; ``bind()`` gives the :class:`SuiteOps` for one operation."""

    name: str
    bind: Callable[[], SuiteOps]


SHAKE128_XOF_BYTES = 504
"""First SHAKE128 read per matrix entry of the SHA-3 suite: 3 blocks (the first read
of FIPS 203's reference code and mlkem-native), 336 candidates for 256 values
(expected 273 accepted; fewer than 256, then a longer read of that entry, has
probability 0.0083 per entry). A fourth block for every entry would cost more
hashing and sampling on every key than the rare second read does."""


_BYTES = tuple(bytes([b]) for b in range(256))
"""Every one-byte string (the PRF nonces N)."""
_MATRIX_SUFFIXES = {
    k: tuple(bytes([j, i]) for i in range(k) for j in range(k)) for k in range(1, 5)
}
"""Per k: the XOF input suffixes j || i of the matrix entries, in row order i * k + j."""


_Ops = TypeVar("_Ops")
_BOUND: dict[tuple[object, ...], Any] = {}


def _bound(ops_class: Callable[..., _Ops], *providers: object) -> _Ops:
    """The bound suite ``ops_class(*providers)``, made once per class and provider
    objects and reused (the objects are stateless)."""
    key = (ops_class, *providers)
    ops: _Ops | None = _BOUND.get(key)
    if ops is None:
        ops = _BOUND[key] = ops_class(*providers)
    return ops


class _Sha3Ops:
    """FIPS 203 §4.1 on the active SHA-3 provider."""

    __slots__ = ("_p",)

    xof_bytes = SHAKE128_XOF_BYTES

    def __init__(self, p: Sha3Provider) -> None:
        self._p = p

    def H(self, data: bytes) -> bytes:
        return self._p.sha3(256, data)

    def G(self, data: bytes) -> tuple[bytes, bytes]:
        out = self._p.sha3(512, data)
        return out[:32], out[32:]

    def J(self, data: bytes) -> bytes:
        return self._p.shake_digest(256, data, 32)

    def prf_many(self, eta: int, s: bytes, nonces: Sequence[int]) -> npt.NDArray[np.uint8]:
        return self._p.shake_many(256, [s + _BYTES[b] for b in nonces], 64 * eta)

    def xof_matrix(self, rho: bytes, k: int, n: int) -> npt.NDArray[np.uint8]:
        return self._p.shake_many(128, [rho + ji for ji in _MATRIX_SUFFIXES[k]], n)

    def xof_entry(self, rho: bytes, i: int, j: int, n: int) -> npt.NDArray[np.uint8]:
        return np.frombuffer(self._p.shake_digest(128, rho + bytes([j, i]), n), dtype=np.uint8)


FIPS203 = Suite("FIPS 203 (SHA-3/SHAKE)", lambda: _bound(_Sha3Ops, common.provider("sha3")))


class _Kyber90sOps:
    """Kyber-90s: SHA-2 and AES-256-CTR on the active providers."""

    __slots__ = ("_aes", "_sha2")

    # 504 bytes = 31.5 AES blocks, as the reference code's 512-byte first read: every
    # AES block costs (a lot with the pure-Python provider), and the rare short
    # entry (about 0.8 %) is extended.
    xof_bytes = 504

    def __init__(self, sha2: Sha2Provider, aes: AesProvider) -> None:
        self._sha2 = sha2
        self._aes = aes

    def H(self, data: bytes) -> bytes:
        return self._sha2.sha2("sha256", data)

    def G(self, data: bytes) -> tuple[bytes, bytes]:
        out = self._sha2.sha2("sha512", data)
        return out[:32], out[32:]

    def J(self, data: bytes) -> bytes:
        return self._sha2.sha2("sha256", data)

    def _keystreams(self, key: bytes, nonces: tuple[bytes, ...], n: int) -> npt.NDArray[np.uint8]:
        """The first n bytes of AES-256-CTR under ``key`` for each nonce (zero-padded
        to 12 bytes), all in one ECB call (:func:`pqkit.common.ctr.ctr_keystreams`)."""
        padded = tuple(x.ljust(NONCE_BYTES, b"\0") for x in nonces)
        return ctr_keystreams(self._aes.ecb(key), padded, n)

    def prf_many(self, eta: int, s: bytes, nonces: Sequence[int]) -> npt.NDArray[np.uint8]:
        return self._keystreams(s, tuple(_BYTES[b] for b in nonces), 64 * eta)

    def xof_matrix(self, rho: bytes, k: int, n: int) -> npt.NDArray[np.uint8]:
        return self._keystreams(rho, _MATRIX_SUFFIXES[k], n)

    def xof_entry(self, rho: bytes, i: int, j: int, n: int) -> npt.NDArray[np.uint8]:
        row: npt.NDArray[np.uint8] = self._keystreams(rho, (bytes([j, i]),), n)[0]
        return row


KYBER90S = Suite(
    "Kyber-90s (SHA-2/AES-256-CTR)",
    lambda: _bound(_Kyber90sOps, common.provider("sha2"), common.provider("aes")),
)
