"""LMS / HSS scheme objects (RFC 8554 §6, NIST SP 800-208 §4, RFC 9858): keygen,
signing through a :class:`~pqkit.stateful.key.StatefulPrivateKey`, verification."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from pqkit._rng import draw
from pqkit.lms.hss import HssKey, verify_hss
from pqkit.lms.params import HSS_PARAMS, HssParams
from pqkit.registry import Algorithm, algorithm
from pqkit.stateful.files import OID_HSS
from pqkit.stateful.scheme import StatefulScheme

__all__ = ["SCHEMES", "LmsScheme"]


class _Engine:
    __slots__ = ("key",)

    def __init__(self, key: HssKey) -> None:
        self.key = key

    def public_key(self) -> bytes:
        return self.key.public_key()

    def sign(self, index: int, message: bytes, rng: Callable[[int], bytes] | None) -> bytes:
        c = draw(rng, self.key.params.n)  # RFC 8554 §4.5 step 1: C, n random bytes
        return self.key.sign(index, message, c)


class LmsScheme(StatefulScheme):
    """One HSS parameter set (one level: plain LMS inside HSS's public key and
    signature framing, as RFC 8554 §6 and liboqs use it)."""

    SPKI_OID = OID_HSS

    def __init__(self, algorithm: Algorithm, *, arith: str | None = None) -> None:
        super().__init__(algorithm, arith=arith)
        self.params = cast(HssParams, algorithm.params)

    def _material(self, seed: bytes) -> bytes:
        n = self.params.n
        return seed[n:] + seed[:n]  # I || SEED from SEED || I

    def _engine(self, material: bytes) -> _Engine:
        return _Engine(HssKey(self.params, material[:16], material[16:], self._kernels()))

    def _verify(self, public_key: bytes, message: bytes, signature: bytes) -> bool:
        if len(signature) != self.length_signature:
            return False
        return verify_hss(public_key, message, signature, self._kernels())


def _schemes() -> dict[str, Any]:
    return {name: LmsScheme(algorithm(name)) for name in HSS_PARAMS}


SCHEMES: dict[str, Any] = _schemes()
