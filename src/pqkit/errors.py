"""Exceptions raised by pqkit.

Wrong types raise the built-in ``TypeError`` and wrong lengths or failed FIPS input
checks raise the built-in ``ValueError``; the classes here cover what those two
cannot say.
"""

from __future__ import annotations

from functools import cache
from typing import Any

__all__ = ["InvalidSignature", "UnknownAlgorithm", "UnknownBackend"]


class UnknownAlgorithm(KeyError):
    """A scheme name that is not in the registry.

    A ``KeyError`` subclass, so ``except KeyError`` keeps working; ``str()`` gives the
    whole message (``KeyError`` would quote it).
    """

    def __init__(self, name: str, known: list[str]) -> None:
        self.name = name
        self.known = list(known)
        super().__init__(name)

    def __str__(self) -> str:
        return f"unknown algorithm {self.name!r}; known algorithms: {', '.join(self.known)}"


class UnknownBackend(ValueError):
    """A backend (provider) name that is not available for a family of primitives."""

    def __init__(self, family: str, name: str, available: list[str]) -> None:
        self.family = family
        self.name = name
        self.available = list(available)
        super().__init__(
            f"unknown or unavailable {family} backend {name!r}; available: {', '.join(available)}"
        )


class InvalidSignature(Exception):
    """Raised by the key objects' ``verify`` methods when a signature does not verify.

    When pyca/cryptography is installed, ``InvalidSignature(...)`` makes an instance
    of a subclass that also derives from ``cryptography.exceptions.InvalidSignature``
    (the key objects copy pyca's API), so both ``except pqkit.InvalidSignature`` and
    ``except cryptography.exceptions.InvalidSignature`` catch it. That subclass is
    built the first time one is raised, which is when cryptography's exceptions
    module is imported: ``import pqkit`` and code that never fails a verification
    never import cryptography for it.
    """

    def __new__(cls, *args: object) -> InvalidSignature:
        if cls is InvalidSignature:
            cls = _with_pyca_base()
        instance: InvalidSignature = super().__new__(cls, *args)
        return instance

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickle by the public class (the subclass has no importable name).
        return (InvalidSignature, self.args, self.__dict__ or None)


@cache
def _with_pyca_base() -> type[InvalidSignature]:
    """InvalidSignature, or its subclass that is also pyca's InvalidSignature."""
    try:
        from cryptography.exceptions import InvalidSignature as PycaInvalidSignature
    except ImportError:
        return InvalidSignature

    class _InvalidSignature(InvalidSignature, PycaInvalidSignature):
        __doc__ = InvalidSignature.__doc__

    # Tracebacks and repr name the class users know.
    _InvalidSignature.__name__ = _InvalidSignature.__qualname__ = "InvalidSignature"
    return _InvalidSignature
