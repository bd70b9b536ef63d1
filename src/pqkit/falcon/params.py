"""Parameter sets of Falcon (round-3 specification v1.2, Table 3.3) and the
family's catalogue entries, as liboqs 0.16 ships them: Falcon-512 and
Falcon-1024 with compressed signatures of variable length (at most
``length_signature`` bytes), and Falcon-padded-512 / Falcon-padded-1024 whose
signatures are zero-padded to a fixed length.

No object identifiers: the round-3 submission assigns none, and FN-DSA's (FIPS
206) are not published; keys are raw bytes (``pqkit.keys.falcon``: PEM with labels
of their own). FN-DSA moves in later as its own names and parameters next to these.
"""

from __future__ import annotations

from dataclasses import dataclass

from pqkit.registry import Algorithm

__all__ = [
    "CATALOG",
    "FALCON_512",
    "FALCON_1024",
    "FALCON_PADDED_512",
    "FALCON_PADDED_1024",
    "Params",
]

NONCE_BYTES = 40
"""The salt r of Sign (§3.10, Algorithm 10 line 1): 320 bits."""
KEYGEN_SEED_BYTES = 48
"""The reference's key-generation seed (SHAKE256 input)."""
SAMPLER_SEED_BYTES = 48
"""The reference's signing seed (SHAKE256 input; each attempt takes 56 bytes of it)."""


@dataclass(frozen=True)
class Params:
    """One Falcon parameter set; the byte lengths follow from logn."""

    name: str
    logn: int
    padded: bool
    nist_level: int
    length_signature: int
    """The padded length, or the compressed signature's maximum (liboqs's figure)."""
    fg_bits: int
    """Bits per coefficient of f and g in the secret key (§3.11.5)."""

    @property
    def n(self) -> int:
        return 1 << self.logn

    @property
    def length_seed(self) -> int:
        return KEYGEN_SEED_BYTES

    @property
    def length_public_key(self) -> int:
        # §3.11.4: header byte, then n values of 14 bits
        return 1 + (14 * self.n) // 8

    @property
    def length_secret_key(self) -> int:
        # §3.11.5: header byte, f and g on fg_bits bits, F on 8 bits
        return 1 + (2 * self.fg_bits * self.n) // 8 + self.n


FALCON_512 = Params("Falcon-512", 9, False, 1, 752, 6)
FALCON_1024 = Params("Falcon-1024", 10, False, 5, 1462, 5)
FALCON_PADDED_512 = Params("Falcon-padded-512", 9, True, 1, 666, 6)
FALCON_PADDED_1024 = Params("Falcon-padded-1024", 10, True, 5, 1280, 5)

_MODULE = "pqkit.falcon.round3"

CATALOG: tuple[Algorithm, ...] = tuple(
    Algorithm(p.name, "sig", "Falcon", _MODULE, p)
    for p in (FALCON_512, FALCON_1024, FALCON_PADDED_512, FALCON_PADDED_1024)
)
