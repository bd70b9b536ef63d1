"""Exceptions raised by pqkit.

Wrong types raise the built-in ``TypeError`` and wrong lengths or failed FIPS input
checks raise the built-in ``ValueError``; the classes here cover what those two
cannot say.
"""

from __future__ import annotations

from functools import cache
from typing import Any

__all__ = ["InvalidSignature", "MissingExtra", "UnknownAlgorithm", "UnknownBackend"]


# kind -> (with an article, plural, the function that gives it)
_KINDS = {
    "kem": ("a KEM", "KEMs", "pqkit.kem"),
    "sig": ("a signature scheme", "signature schemes", "pqkit.sig"),
}


class UnknownAlgorithm(KeyError):
    """A scheme name that is not in the registry, or not of the kind asked for.

    A ``KeyError`` subclass, so ``except KeyError`` keeps working; ``str()`` gives the
    whole message (``KeyError`` would quote it). ``known`` lists the names of the kind
    asked for; when the name is an algorithm of the other kind (``pqkit.sig("ML-KEM-768")``),
    ``kind`` is what it is (``"kem"`` or ``"sig"``) and the message says so.
    """

    def __init__(self, name: str, known: list[str], *, kind: str | None = None) -> None:
        self.name = name
        self.known = list(known)
        self.kind = kind
        super().__init__(name)

    def __str__(self) -> str:
        if self.kind in _KINDS:
            other = "sig" if self.kind == "kem" else "kem"
            article, _, function = _KINDS[self.kind]
            return (
                f"{self.name!r} is {article}, not {_KINDS[other][0]}: use "
                f"{function}({self.name!r}); {_KINDS[other][1]}: {', '.join(self.known)}"
            )
        return f"unknown algorithm {self.name!r}; known algorithms: {', '.join(self.known)}"


class UnknownBackend(ValueError):
    """A backend (provider) name that is not available for a family of primitives;
    ``hint`` adds what would make it available (the extra that installs it)."""

    def __init__(self, family: str, name: str, available: list[str], *, hint: str = "") -> None:
        self.family = family
        self.name = name
        self.available = list(available)
        super().__init__(
            f"unknown or unavailable {family} backend {name!r}; available: {', '.join(available)}"
            + (f" ({hint})" if hint else "")
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


class MissingExtra(ImportError):
    """A feature needs an optional dependency that is not installed: one of pqkit's
    extras (``pip install "pqkit[openssl]"``).

    An ``ImportError`` subclass, so ``except ImportError`` keeps working. ``extra``
    names the extra (``"openssl"``), ``package`` the package it installs
    (``"cryptography"``) and ``feature`` what needed it; ``str()`` is one line saying
    all three and the command that installs the extra. Raised only by
    :func:`pqkit._extras.require`; the ``pqkit`` command turns it into that line on
    standard error and exit status 2.
    """

    def __init__(self, feature: str, extra: str, package: str, reason: str = "") -> None:
        self.feature = feature
        self.extra = extra
        self.package = package
        why = f"{package} is not installed"
        if reason:
            why = f"{package} does not import here: {reason}"
        super().__init__(
            f"{feature} needs the '{extra}' extra ({why}): pip install \"pqkit[{extra}]\"",
            name=package,
        )
