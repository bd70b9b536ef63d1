"""What the key classes of schemes without an OID share (the hybrid KEMs, Falcon):
raw bytes in PEM blocks whose labels name the algorithm, immutable objects, and
the label lookup of their loaders."""

from __future__ import annotations

from typing import Any, ClassVar, NoReturn

from pqkit._checks import as_bytes
from pqkit._secret import Uncopyable
from pqkit.serialization.pem import pem_encode

__all__ = ["RawPrivateKey", "RawPublicKey", "has_label", "key_labels"]


class RawPublicKey:
    """A public key held as its raw encoding (checked by the subclass's
    ``from_public_bytes``); PEM label ``<NAME> PUBLIC KEY``."""

    __slots__ = ("_raw",)
    algorithm: ClassVar[str]
    _raw: bytes

    @classmethod
    def from_public_bytes(cls, data: bytes) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

    @classmethod
    def _wrap(cls, raw: bytes) -> Any:
        key = object.__new__(cls)
        object.__setattr__(key, "_raw", raw)
        return key

    def public_bytes_raw(self) -> bytes:
        return self._raw

    def public_bytes_pem(self) -> bytes:
        """``-----BEGIN <NAME> PUBLIC KEY-----`` around the raw key."""
        return pem_encode(self._raw, f"{self.algorithm.upper()} PUBLIC KEY")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, type(self)) and other._raw == self._raw

    def __hash__(self) -> int:
        return hash((self.algorithm, self._raw))

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"

    def __reduce__(self) -> tuple[Any, tuple[bytes]]:
        # Public data: a copy or pickle is rebuilt through the checked constructor.
        return (type(self).from_public_bytes, (self._raw,))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def to_cryptography_key(self) -> NoReturn:
        """pyca/cryptography has no such keys: always raises
        ``cryptography.exceptions.UnsupportedAlgorithm`` (:mod:`pqkit.keys.pyca`)."""
        from pqkit.keys._pyca import not_convertible

        not_convertible(self.algorithm)


class RawPrivateKey(Uncopyable):
    """A private key held as raw bytes: immutable, not copyable or picklable."""

    __slots__ = ()
    algorithm: ClassVar[str]
    private_label: ClassVar[str] = "PRIVATE KEY"
    """What follows the algorithm's name in the private key's PEM label."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def to_cryptography_key(self) -> NoReturn:
        """pyca/cryptography has no such keys: always raises
        ``cryptography.exceptions.UnsupportedAlgorithm`` (:mod:`pqkit.keys.pyca`)."""
        from pqkit.keys._pyca import not_convertible

        not_convertible(self.algorithm)


def key_labels(private: dict[str, Any]) -> dict[str, tuple[Any, bool]]:
    """Every PEM label of these private key classes (name -> class) -> (private
    key class, holds a private key): ``<NAME> <class's private_label>`` and
    ``<NAME> PUBLIC KEY``."""
    out: dict[str, tuple[Any, bool]] = {}
    for name, cls in private.items():
        out[f"{name} {cls.private_label}"] = (cls, True)
        out[f"{name} PUBLIC KEY"] = (cls, False)
    return out


def has_label(data: bytes, labels: dict[str, Any]) -> bool:
    """Whether the first PEM block of ``data`` has one of ``labels``."""
    head = as_bytes(data, "data")[:4096]
    return any(f"-----BEGIN {label}-----".encode() in head for label in labels)
