"""Symmetric suites of the Dilithium family: where ExpandA / ExpandS / ExpandMask
get their bytes.

FIPS 204 and Dilithium 3.1 draw them from SHAKE128 (matrix) and SHAKE256 (secret
and masking vectors) over ``seed || nonce`` with a 2-byte little-endian nonce;
Dilithium-AES draws them from AES-256-CTR keyed with the (first 32 bytes of the)
seed, the nonce in the first two bytes of the 12-byte IV (Dilithium v3.1, §5.3).
H (SHAKE256) itself is the same in every suite.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from pqkit.common import provider
from pqkit.common.ctr import NONCE_BYTES, ctr_keystreams

__all__ = ["AES_SUITE", "SHAKE_SUITE", "Suite"]


class Suite(Protocol):
    """Byte streams indexed by a 16-bit nonce; each call returns a (len(nonces), n)
    uint8 array whose row i is the first n bytes of the stream for nonces[i]."""

    name: str

    def stream128(self, seed: bytes, nonces: Sequence[int], n: int) -> npt.NDArray[np.uint8]: ...

    def stream256(self, seed: bytes, nonces: Sequence[int], n: int) -> npt.NDArray[np.uint8]: ...


class _ShakeSuite:
    """FIPS 204 §3.7 / Dilithium 3.1: G = SHAKE128 for ExpandA, H = SHAKE256 for
    ExpandS and ExpandMask, input ``seed || IntegerToBytes(nonce, 2)``."""

    name = "shake"

    def stream128(self, seed: bytes, nonces: Sequence[int], n: int) -> npt.NDArray[np.uint8]:
        # The nonce as FIPS 204, Algorithm 11 (IntegerToBytes) with 2 bytes.
        inputs = [seed + (x & 0xFFFF).to_bytes(2, "little") for x in nonces]
        return provider("sha3").shake_many(128, inputs, n)

    def stream256(self, seed: bytes, nonces: Sequence[int], n: int) -> npt.NDArray[np.uint8]:
        inputs = [seed + (x & 0xFFFF).to_bytes(2, "little") for x in nonces]
        return provider("sha3").shake_many(256, inputs, n)


SHAKE_SUITE: Suite = _ShakeSuite()


class _AesSuite:
    """Dilithium v3.1, Dilithium-AES variant: the stream for (seed, nonce) is
    AES-256-CTR with key = the first 32 bytes of seed and the counter block
    IntegerToBytes(nonce, 2) || 0^10 || a 32-bit big-endian block counter from 0.

    All the streams of one call come from one batched ECB request
    (:mod:`pqkit.common.ctr`).
    """

    name = "aes"

    def _streams(self, seed: bytes, nonces: Sequence[int], n: int) -> npt.NDArray[np.uint8]:
        ivs = tuple((x & 0xFFFF).to_bytes(2, "little").ljust(NONCE_BYTES, b"\0") for x in nonces)
        return ctr_keystreams(provider("aes").ecb(seed[:32]), ivs, n)

    def stream128(self, seed: bytes, nonces: Sequence[int], n: int) -> npt.NDArray[np.uint8]:
        return self._streams(seed, nonces, n)

    def stream256(self, seed: bytes, nonces: Sequence[int], n: int) -> npt.NDArray[np.uint8]:
        return self._streams(seed, nonces, n)


AES_SUITE: Suite = _AesSuite()
