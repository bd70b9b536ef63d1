"""The batched hash kernels' warm-up part (:class:`pqkit.families.Part`)."""

from __future__ import annotations

from pqkit.arith.warmup import Step


def steps() -> list[Step]:
    """Every hash kernel once, with and without a prefix, on the array types real
    calls pass."""
    import numpy as np

    from pqkit import arith

    def run() -> None:
        K = arith.kernels("hash", "jit")
        rows = np.zeros((300, 48), dtype=np.uint8)
        K.keccak_f1600(np.zeros((300, 25), dtype=np.uint64))
        for bits in (128, 256):
            K.shake_many(bits, rows, 64)
            K.shake_many(bits, rows, 64, prefix=bytes(200))
        K.sha256_many(rows)
        K.sha256_many(rows, prefix=bytes(64))
        K.sha512_many(rows)
        K.sha512_many(rows, prefix=bytes(128))
        K.sha256_compress(np.zeros((300, 8), np.uint32), np.zeros((300, 64), np.uint8))
        K.sha512_compress(np.zeros((300, 8), np.uint64), np.zeros((300, 128), np.uint8))

    return [("hash kernels", run)]
