"""Key objects for Classic McEliece (no OID is assigned to it).

The private key is the 32-byte seed delta of SeededKeyGen (spec §2.4.3): the
expanded secret key (6492 to 14120 bytes) and the public key (261 kB to 1.36 MB)
follow from it; a key object expands it once, on first use. Key files are PEM
blocks around the raw bytes, the hybrid KEMs' shape (:mod:`pqkit.keys.hybrid`):
``-----BEGIN CLASSIC-MCELIECE-348864 SEED PRIVATE KEY-----`` (the seed) and
``-----BEGIN CLASSIC-MCELIECE-348864 PUBLIC KEY-----`` (the raw public key T).
"""

from __future__ import annotations

from typing import Any, ClassVar

from pqkit.keys.hybrid import HybridPrivateKey, HybridPublicKey, _scheme, register_raw_keys
from pqkit.mceliece.params import PARAMS
from pqkit.schemes import RNG, KeyPair, draw

__all__ = ["MCELIECE_PRIVATE", "McEliecePrivateKey", "McEliecePublicKey"]


class McEliecePublicKey(HybridPublicKey):
    """A Classic McEliece public key T (raw bytes; length and padding checked)."""

    __slots__ = ()

    @classmethod
    def _check(cls, raw: bytes) -> None:
        _scheme(cls.algorithm)._public_key(raw)  # 6960119: the rows' padding bits


class McEliecePrivateKey(HybridPrivateKey):
    """A Classic McEliece private key: the 32-byte seed delta; the expanded key
    pair is computed on first use and kept by this object only."""

    __slots__ = ("_pair",)
    public_class: ClassVar[type[HybridPublicKey]]
    _pair: KeyPair | None

    @classmethod
    def from_seed_bytes(cls, seed: bytes) -> McEliecePrivateKey:
        key = super().from_seed_bytes(seed)
        assert isinstance(key, McEliecePrivateKey)
        object.__setattr__(key, "_pair", None)
        return key

    @classmethod
    def generate(cls, *, rng: RNG | None = None) -> McEliecePrivateKey:
        return cls.from_seed_bytes(draw(rng, 32))

    def _expanded(self) -> KeyPair:
        if self._pair is None:
            object.__setattr__(self, "_pair", _scheme(self.algorithm).keygen_derand(self._seed))
        assert self._pair is not None
        return self._pair

    def public_key(self) -> HybridPublicKey:
        return self.public_class.from_public_bytes(self._expanded().public_key)

    def secret_bytes_expanded(self) -> bytes:
        """The expanded secret key (liboqs's byte layout)."""
        return self._expanded().secret_key

    def decapsulate(self, ciphertext: bytes) -> bytes:
        """The shared secret of ``ciphertext``."""
        return bytes(_scheme(self.algorithm).decaps(self._expanded().secret_key, ciphertext))


def _classes() -> dict[str, type[McEliecePrivateKey]]:
    out: dict[str, type[McEliecePrivateKey]] = {}
    for name in PARAMS:
        stem = name.replace("Classic-McEliece-", "McEliece")
        public: Any = type(
            f"{stem}PublicKey", (McEliecePublicKey,), {"__slots__": (), "algorithm": name}
        )
        private: Any = type(
            f"{stem}PrivateKey",
            (McEliecePrivateKey,),
            {"__slots__": (), "algorithm": name, "public_class": public},
        )
        public.__module__ = private.__module__ = __name__
        out[name.upper()] = private
    return out


MCELIECE_PRIVATE = _classes()
"""Upper-case name -> private key class (its ``public_class`` the public one)."""

register_raw_keys(dict(MCELIECE_PRIVATE))
