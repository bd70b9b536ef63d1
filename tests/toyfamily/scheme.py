"""Step 3: the toy family's scheme object. NOT a cipher (see the package docstring).

Key generation: sk = seed, pk = SHA3-256(seed). Encapsulation of m: ct = m XOR
SHAKE128(pk), shared secret SHA3-256(m || ct). Decapsulation recomputes pk from sk.
"""

from __future__ import annotations

import numpy as np

from pqkit import common
from pqkit._checks import as_bytes_len
from pqkit.registry import Algorithm, algorithm
from pqkit.schemes import RNG, Encapsulation, KemBase, KeyPair, draw
from toyfamily.params import NAME


class ToyKem(KemBase):
    KERNELS = "toykem"

    def __init__(self, alg: Algorithm, *, arith: str | None = None) -> None:
        super().__init__(alg, arith=arith)
        self.n = self.length_seed

    def _pad(self, pk: bytes) -> np.ndarray:
        return np.frombuffer(common.shake128_digest(pk, self.n), dtype=np.uint8)

    def keygen_derand(self, seed: bytes) -> KeyPair:
        sk = as_bytes_len(seed, "seed", self.n)
        return KeyPair(common.sha3_256(sk)[: self.n], sk)

    def keygen(self, *, rng: RNG | None = None) -> KeyPair:
        return self.keygen_derand(draw(rng, self.n))

    def encaps_derand(self, public_key: bytes, m: bytes) -> Encapsulation:
        pk = as_bytes_len(public_key, "public key", self.n)
        msg = np.frombuffer(as_bytes_len(m, "m", self.n), dtype=np.uint8)
        ct = self._kernels().mask(msg, self._pad(pk)).tobytes()
        return Encapsulation(common.sha3_256(bytes(msg) + ct), ct)

    def encaps(self, public_key: bytes, *, rng: RNG | None = None) -> Encapsulation:
        return self.encaps_derand(public_key, draw(rng, self.n))

    def decaps(self, secret_key: bytes, ciphertext: bytes) -> bytes:
        pk = self.keygen_derand(secret_key).public_key
        ct = as_bytes_len(ciphertext, "ciphertext", self.n)
        m = self._kernels().mask(np.frombuffer(ct, dtype=np.uint8), self._pad(pk)).tobytes()
        return common.sha3_256(m + ct)


SCHEMES = {NAME: ToyKem(algorithm(NAME))}
