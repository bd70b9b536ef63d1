"""Many AES-256-CTR keystreams under one key, in one ECB call.

Kyber-90s (v3.02 §1.5) and Dilithium-AES (v3.1 §5.3) draw their PRF and XOF
bytes from AES-256-CTR streams whose 16-byte counter block is a 12-byte nonce
followed by a 32-bit big-endian block counter starting at 0 (SP 800-38A CTR with
a 96-bit nonce). All the streams of one expansion share the key, so their counter
blocks are encrypted together: CTR mode written out over one batched ECB request,
which a batching AES provider (the bitsliced python AES, OpenSSL's ECB) serves in
one call.
"""

from __future__ import annotations

import functools

import numpy as np
import numpy.typing as npt

from pqkit.common.providers import AesEcb

__all__ = ["NONCE_BYTES", "ctr_keystreams"]

NONCE_BYTES = 12
"""Bytes of nonce in front of the 32-bit block counter."""


@functools.lru_cache(maxsize=64)
def _counter_blocks(nonces: tuple[bytes, ...], blocks: int) -> bytes:
    """Every counter block of every stream: nonce || IntegerToBytes_BE(t, 4) for
    t = 0 .. blocks - 1, stream after stream. Public constants (they depend on the
    nonces and lengths only), so they are cached."""
    counters = np.zeros((len(nonces), blocks, 16), dtype=np.uint8)
    for row, nonce in enumerate(nonces):
        counters[row, :, :NONCE_BYTES] = np.frombuffer(nonce, dtype=np.uint8)
    counters[:, :, NONCE_BYTES:] = np.arange(blocks, dtype=">u4").view(np.uint8).reshape(blocks, 4)
    return counters.tobytes()


def ctr_keystreams(ecb: AesEcb, nonces: tuple[bytes, ...], n: int) -> npt.NDArray[np.uint8]:
    """The first ``n`` bytes of the AES-256-CTR stream of each 12-byte nonce under
    the key of ``ecb``: a (len(nonces), n) uint8 array. Unchecked (hot path):
    callers pass 12-byte nonces; :func:`pqkit.common.aes256_ctr_many` checks."""
    blocks = -(-n // 16)
    stream = ecb.encrypt_blocks(_counter_blocks(nonces, blocks))
    return np.frombuffer(stream, dtype=np.uint8).reshape(len(nonces), 16 * blocks)[:, :n]
