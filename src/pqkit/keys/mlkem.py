"""ML-KEM key objects (FIPS 203) in the shape of pyca/cryptography's ``mlkem`` module."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, NoReturn, cast

from pqkit._checks import as_bytes_len
from pqkit.keys._base import PrivateKey, PublicKey, algorithm_named, pairwise_check
from pqkit.schemes import RNG, Encapsulation

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric import mlkem as pyca_mlkem

    from pqkit.mlkem.fips203 import MLKEM

__all__ = [
    "MLKEM512PrivateKey",
    "MLKEM512PublicKey",
    "MLKEM768PrivateKey",
    "MLKEM768PublicKey",
    "MLKEM1024PrivateKey",
    "MLKEM1024PublicKey",
    "MLKEMPrivateKey",
    "MLKEMPublicKey",
]


@cache
def _scheme(name: str) -> MLKEM:
    from pqkit.mlkem.fips203 import SCHEMES

    return SCHEMES[name]


class MLKEMPublicKey(PublicKey):
    """An ML-KEM encapsulation key (FIPS 203 ek); base of the parameter-set classes."""

    __slots__ = ()

    @classmethod
    def _check_public(cls, raw: bytes) -> None:
        _scheme(cls.algorithm.name).check_encapsulation_key(raw)

    def encapsulate(self, *, rng: RNG | None = None) -> Encapsulation:
        """``(shared_secret, ciphertext)``: FIPS 203, Algorithm 20 (ML-KEM.Encaps)."""
        return _scheme(self.algorithm.name).encaps(self._public, rng=rng)


class MLKEMPrivateKey(PrivateKey):
    """An ML-KEM decapsulation key; base of the parameter-set classes."""

    __slots__ = ()

    @classmethod
    def _keygen(cls, seed: bytes) -> tuple[bytes, bytes]:
        """(ek, dk) of d || z: FIPS 203, Algorithm 16, through the cached scheme (the
        registry lookup of the base class cost about a fifth of a key generation)."""
        return _scheme(cls.algorithm.name).keygen_derand(seed)

    @classmethod
    def _check_expanded(cls, expanded: bytes) -> bytes:
        """FIPS 203 §7.3 hash check, §7.2 modulus check on the embedded ek, and a
        pairwise consistency test; returns ek.

        dk = dk_PKE (384k) || ek (384k + 32) || H(ek) (32) || z (32).
        """
        from pqkit.common import sha3_256

        alg = cls.algorithm
        k384 = alg.public_key_length - 32
        ek = expanded[k384 : k384 + alg.public_key_length]
        scheme = _scheme(alg.name)
        scheme.check_decapsulation_key(expanded)
        scheme.check_encapsulation_key(ek)
        # NOTE: the pairwise consistency test catches a corrupted dk_PKE, which the
        # hash check cannot see. m is derived from dk: the result is reproducible.
        m = sha3_256(b"pqkit ML-KEM pairwise consistency test" + expanded)
        pairwise_check(alg.name, scheme, ek, expanded, m)
        return ek

    def decapsulate(self, ciphertext: Any) -> bytes:
        """The shared secret: FIPS 203, Algorithm 21 (ML-KEM.Decaps), with implicit rejection."""
        alg = self.algorithm
        ct = as_bytes_len(ciphertext, f"{alg.name} ciphertext", alg.output_length)
        with self._holding():  # the decoded dk is kept in this key (pqkit._keystate)
            return _scheme(alg.name).decaps(self._expanded, ct)

    def public_key(self) -> MLKEMPublicKey:
        """The matching encapsulation key."""
        return cast(MLKEMPublicKey, super().public_key())


class MLKEM512PublicKey(MLKEMPublicKey):
    """An ML-KEM-512 encapsulation key."""

    __slots__ = ()
    algorithm = algorithm_named("ML-KEM-512")

    if TYPE_CHECKING:  # pyca/cryptography has no MLKEM512 (pqkit.keys.pyca)

        def to_cryptography_key(self) -> NoReturn: ...


class MLKEM512PrivateKey(MLKEMPrivateKey):
    """An ML-KEM-512 decapsulation key."""

    __slots__ = ()
    algorithm = algorithm_named("ML-KEM-512")
    _public_class = MLKEM512PublicKey

    if TYPE_CHECKING:  # pyca/cryptography has no MLKEM512 (pqkit.keys.pyca)

        def to_cryptography_key(self) -> NoReturn: ...

        def public_key(self) -> MLKEM512PublicKey: ...


class MLKEM768PublicKey(MLKEMPublicKey):
    """An ML-KEM-768 encapsulation key."""

    __slots__ = ()
    algorithm = algorithm_named("ML-KEM-768")

    if TYPE_CHECKING:

        def to_cryptography_key(self) -> pyca_mlkem.MLKEM768PublicKey: ...


class MLKEM768PrivateKey(MLKEMPrivateKey):
    """An ML-KEM-768 decapsulation key."""

    __slots__ = ()
    algorithm = algorithm_named("ML-KEM-768")
    _public_class = MLKEM768PublicKey

    if TYPE_CHECKING:

        def to_cryptography_key(self) -> pyca_mlkem.MLKEM768PrivateKey: ...

        def public_key(self) -> MLKEM768PublicKey: ...


class MLKEM1024PublicKey(MLKEMPublicKey):
    """An ML-KEM-1024 encapsulation key."""

    __slots__ = ()
    algorithm = algorithm_named("ML-KEM-1024")

    if TYPE_CHECKING:

        def to_cryptography_key(self) -> pyca_mlkem.MLKEM1024PublicKey: ...


class MLKEM1024PrivateKey(MLKEMPrivateKey):
    """An ML-KEM-1024 decapsulation key."""

    __slots__ = ()
    algorithm = algorithm_named("ML-KEM-1024")
    _public_class = MLKEM1024PublicKey

    if TYPE_CHECKING:

        def to_cryptography_key(self) -> pyca_mlkem.MLKEM1024PrivateKey: ...

        def public_key(self) -> MLKEM1024PublicKey: ...
