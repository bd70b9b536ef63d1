"""FrodoKEM key objects in the pyca shape, with the key formats of
draft-smyslov-lamps-frodokem-certificates (OIDs 1.0.18033.2.2.7.*, ISO/IEC
18033-2 Amd 2): the public key raw in SubjectPublicKeyInfo, the private key
``FrodoKEM-PrivateKey ::= OCTET STRING`` (the whole sk = s || pk || S^T || pkh) in
the PKCS#8 privateKey. The draft assigns OIDs to the 976 and 1344 sets (FrodoKEM
and eFrodoKEM, AES and SHAKE): those have classes here; FrodoKEM-640 works through
the scheme API (``pqkit.kem``) only.

A FrodoKEM private key has no seed form: ``private_bytes_raw`` returns the sk;
``from_private_bytes`` (= ``from_expanded_bytes``) takes it and checks it (pkh is
SHAKE(pk), and a pairwise consistency test); ``generate`` and ``from_seed_bytes``
take the key-generation randomness s || seedSE || z.
"""

from __future__ import annotations

import hmac
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar, cast

from pqkit._checks import as_bytes_len
from pqkit.keys._base import PrivateKey, PublicKey, _concrete, algorithm_named, pairwise_check
from pqkit.schemes import RNG, Encapsulation

__all__ = [
    "FrodoKEM976AESPrivateKey",
    "FrodoKEM976AESPublicKey",
    "FrodoKEM976SHAKEPrivateKey",
    "FrodoKEM976SHAKEPublicKey",
    "FrodoKEM1344AESPrivateKey",
    "FrodoKEM1344AESPublicKey",
    "FrodoKEM1344SHAKEPrivateKey",
    "FrodoKEM1344SHAKEPublicKey",
    "FrodoKEMPrivateKey",
    "FrodoKEMPublicKey",
    "eFrodoKEM976AESPrivateKey",
    "eFrodoKEM976AESPublicKey",
    "eFrodoKEM976SHAKEPrivateKey",
    "eFrodoKEM976SHAKEPublicKey",
    "eFrodoKEM1344AESPrivateKey",
    "eFrodoKEM1344AESPublicKey",
    "eFrodoKEM1344SHAKEPrivateKey",
    "eFrodoKEM1344SHAKEPublicKey",
]

_PrivT = TypeVar("_PrivT", bound="FrodoKEMPrivateKey")


def _scheme(name: str) -> Any:
    from pqkit.registry import kem

    return kem(name)  # the registry's one scheme object of the set


class FrodoKEMPublicKey(PublicKey):
    """A FrodoKEM public key (seedA || b); base of the parameter-set classes."""

    __slots__ = ()

    if TYPE_CHECKING:  # pyca/cryptography has no FrodoKEM

        def to_cryptography_key(self) -> NoReturn: ...

    def encapsulate(self, *, rng: RNG | None = None) -> Encapsulation:
        """``(shared_secret, ciphertext)``: draft-longa-cfrg-frodokem §8.2."""
        return cast(Encapsulation, _scheme(self.algorithm.name).encaps(self._public, rng=rng))


class FrodoKEMPrivateKey(PrivateKey):
    """A FrodoKEM private key (the sk); base of the parameter-set classes."""

    __slots__ = ()

    if TYPE_CHECKING:  # pyca/cryptography has no FrodoKEM

        def to_cryptography_key(self) -> NoReturn: ...

    @classmethod
    def _check_expanded(cls, expanded: bytes) -> bytes:
        """sk = s || pk || S^T || pkh: pkh must be SHAKE(pk), and an encapsulation to
        pk must decapsulate with sk (a pairwise consistency test, which catches a
        corrupted S^T); returns pk."""
        alg = cls.algorithm
        scheme = _scheme(alg.name)
        ls = scheme.length_shared_secret
        pk = expanded[ls : ls + alg.public_key_length]
        pkh = expanded[-ls:]
        shake = scheme.shake
        if not hmac.compare_digest(shake(pk, ls), pkh):
            raise ValueError(f"inconsistent {alg.name} private key: its pkh is not SHAKE(pk)")
        # m derived from sk: the result is reproducible
        m = shake(b"pqkit FrodoKEM pairwise consistency test" + expanded, scheme.length_encaps_m)
        pairwise_check(alg.name, scheme, pk, expanded, m)
        return pk

    @classmethod
    def from_expanded_bytes(cls: type[_PrivT], data: bytes) -> _PrivT:
        """The key from its sk (checked)."""
        alg = _concrete(cls)
        sk = as_bytes_len(data, f"{alg.name} private key", alg.expanded_key_length)
        return cls._make(None, sk, cls._check_expanded(sk))

    @classmethod
    def from_private_bytes(cls: type[_PrivT], data: bytes) -> _PrivT:
        """The key from its raw sk (what ``private_bytes_raw`` returns)."""
        return cls.from_expanded_bytes(data)

    def private_bytes_raw(self) -> bytes:
        """The sk (s || pk || S^T || pkh): a FrodoKEM key's one form."""
        return self._expanded

    def decapsulate(self, ciphertext: Any) -> bytes:
        """The shared secret (draft-longa-cfrg-frodokem §8.3), with implicit rejection."""
        alg = self.algorithm
        ct = as_bytes_len(ciphertext, f"{alg.name} ciphertext", alg.output_length)
        return cast(bytes, _scheme(alg.name).decaps(self._expanded, ct))

    def public_key(self) -> FrodoKEMPublicKey:
        """The matching public key."""
        return cast(FrodoKEMPublicKey, super().public_key())


class FrodoKEM976AESPublicKey(FrodoKEMPublicKey):
    """A FrodoKEM-976-AES public key."""

    __slots__ = ()
    algorithm = algorithm_named("FrodoKEM-976-AES")


class FrodoKEM976AESPrivateKey(FrodoKEMPrivateKey):
    """A FrodoKEM-976-AES private key."""

    __slots__ = ()
    algorithm = algorithm_named("FrodoKEM-976-AES")
    _public_class = FrodoKEM976AESPublicKey

    if TYPE_CHECKING:

        def public_key(self) -> FrodoKEM976AESPublicKey: ...


class FrodoKEM976SHAKEPublicKey(FrodoKEMPublicKey):
    """A FrodoKEM-976-SHAKE public key."""

    __slots__ = ()
    algorithm = algorithm_named("FrodoKEM-976-SHAKE")


class FrodoKEM976SHAKEPrivateKey(FrodoKEMPrivateKey):
    """A FrodoKEM-976-SHAKE private key."""

    __slots__ = ()
    algorithm = algorithm_named("FrodoKEM-976-SHAKE")
    _public_class = FrodoKEM976SHAKEPublicKey

    if TYPE_CHECKING:

        def public_key(self) -> FrodoKEM976SHAKEPublicKey: ...


class FrodoKEM1344AESPublicKey(FrodoKEMPublicKey):
    """A FrodoKEM-1344-AES public key."""

    __slots__ = ()
    algorithm = algorithm_named("FrodoKEM-1344-AES")


class FrodoKEM1344AESPrivateKey(FrodoKEMPrivateKey):
    """A FrodoKEM-1344-AES private key."""

    __slots__ = ()
    algorithm = algorithm_named("FrodoKEM-1344-AES")
    _public_class = FrodoKEM1344AESPublicKey

    if TYPE_CHECKING:

        def public_key(self) -> FrodoKEM1344AESPublicKey: ...


class FrodoKEM1344SHAKEPublicKey(FrodoKEMPublicKey):
    """A FrodoKEM-1344-SHAKE public key."""

    __slots__ = ()
    algorithm = algorithm_named("FrodoKEM-1344-SHAKE")


class FrodoKEM1344SHAKEPrivateKey(FrodoKEMPrivateKey):
    """A FrodoKEM-1344-SHAKE private key."""

    __slots__ = ()
    algorithm = algorithm_named("FrodoKEM-1344-SHAKE")
    _public_class = FrodoKEM1344SHAKEPublicKey

    if TYPE_CHECKING:

        def public_key(self) -> FrodoKEM1344SHAKEPublicKey: ...


class eFrodoKEM976AESPublicKey(FrodoKEMPublicKey):
    """A eFrodoKEM-976-AES public key."""

    __slots__ = ()
    algorithm = algorithm_named("eFrodoKEM-976-AES")


class eFrodoKEM976AESPrivateKey(FrodoKEMPrivateKey):
    """A eFrodoKEM-976-AES private key."""

    __slots__ = ()
    algorithm = algorithm_named("eFrodoKEM-976-AES")
    _public_class = eFrodoKEM976AESPublicKey

    if TYPE_CHECKING:

        def public_key(self) -> eFrodoKEM976AESPublicKey: ...


class eFrodoKEM976SHAKEPublicKey(FrodoKEMPublicKey):
    """A eFrodoKEM-976-SHAKE public key."""

    __slots__ = ()
    algorithm = algorithm_named("eFrodoKEM-976-SHAKE")


class eFrodoKEM976SHAKEPrivateKey(FrodoKEMPrivateKey):
    """A eFrodoKEM-976-SHAKE private key."""

    __slots__ = ()
    algorithm = algorithm_named("eFrodoKEM-976-SHAKE")
    _public_class = eFrodoKEM976SHAKEPublicKey

    if TYPE_CHECKING:

        def public_key(self) -> eFrodoKEM976SHAKEPublicKey: ...


class eFrodoKEM1344AESPublicKey(FrodoKEMPublicKey):
    """A eFrodoKEM-1344-AES public key."""

    __slots__ = ()
    algorithm = algorithm_named("eFrodoKEM-1344-AES")


class eFrodoKEM1344AESPrivateKey(FrodoKEMPrivateKey):
    """A eFrodoKEM-1344-AES private key."""

    __slots__ = ()
    algorithm = algorithm_named("eFrodoKEM-1344-AES")
    _public_class = eFrodoKEM1344AESPublicKey

    if TYPE_CHECKING:

        def public_key(self) -> eFrodoKEM1344AESPublicKey: ...


class eFrodoKEM1344SHAKEPublicKey(FrodoKEMPublicKey):
    """A eFrodoKEM-1344-SHAKE public key."""

    __slots__ = ()
    algorithm = algorithm_named("eFrodoKEM-1344-SHAKE")


class eFrodoKEM1344SHAKEPrivateKey(FrodoKEMPrivateKey):
    """A eFrodoKEM-1344-SHAKE private key."""

    __slots__ = ()
    algorithm = algorithm_named("eFrodoKEM-1344-SHAKE")
    _public_class = eFrodoKEM1344SHAKEPublicKey

    if TYPE_CHECKING:

        def public_key(self) -> eFrodoKEM1344SHAKEPublicKey: ...
