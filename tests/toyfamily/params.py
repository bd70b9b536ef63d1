"""Step 1: the toy family's parameter set and its catalogue entry (light: no NumPy)."""

from __future__ import annotations

from dataclasses import dataclass

from pqkit.registry import Algorithm

NAME = "TOY-KEM-32"


@dataclass(frozen=True)
class ToyParams:
    n: int
    """Bytes of every key, ciphertext and shared secret."""
    nist_level: int = 1  # NOT a security claim: a toy has none

    @property
    def length_public_key(self) -> int:
        return self.n

    @property
    def length_secret_key(self) -> int:
        return self.n

    @property
    def length_seed(self) -> int:
        return self.n

    @property
    def length_ciphertext(self) -> int:
        return self.n

    @property
    def length_shared_secret(self) -> int:
        return 32


TOY_32 = ToyParams(32)

CATALOG: tuple[Algorithm, ...] = (Algorithm(NAME, "kem", "Toy", "toyfamily.scheme", TOY_32),)
