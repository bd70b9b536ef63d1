"""The randomness of HQC's known-answer tests: a SHAKE256 PRNG instead of NIST's
CTR_DRBG (the reference code's ``prng_init`` / ``prng_get_bytes``, which liboqs's
KAT generator uses for HQC): seeded with SHAKE256(entropy || 0x00), every request
the next bytes of the one output stream (so the split of requests does not matter).
"""

from __future__ import annotations

from pqkit import common
from pqkit._checks import as_bytes_len
from pqkit._secret import Uncopyable

__all__ = ["HqcPrng"]

_PRNG_DOMAIN = b"\x00"


class HqcPrng(Uncopyable):
    """SHAKE256 PRNG of the HQC KATs, callable as ``prng(n) -> bytes`` (an ``rng``).
    ``entropy_input`` is 48 bytes, as the NIST KAT generator hands out."""

    __slots__ = ("_xof",)
    _uncopyable_hint = "create a new HqcPrng from its seed instead"

    def __init__(self, entropy_input: bytes) -> None:
        seed = as_bytes_len(entropy_input, "HQC PRNG entropy_input", 48)
        self._xof = common.shake256(seed + _PRNG_DOMAIN)

    def __call__(self, n: int) -> bytes:
        return self._xof.read(n)
