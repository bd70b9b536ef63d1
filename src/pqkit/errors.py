"""Exceptions raised by pqkit.

Wrong types raise the built-in ``TypeError`` and wrong lengths or failed FIPS input
checks raise the built-in ``ValueError``; the classes here cover what those two
cannot say.
"""

from __future__ import annotations

__all__ = ["InvalidSignature", "MissingExtra", "UnknownAlgorithm", "UnknownBackend"]


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
    """Raised by the key objects' ``verify`` methods when a signature does not verify."""


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
