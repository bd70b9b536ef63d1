"""Which provider serves each family of symmetric primitives (docs/architecture.md §5).

Order of precedence, per family (``sha3``, ``sha2``, ``aes``):

1. an explicit ``backend=`` argument of the call;
2. the innermost ``with pqkit.common.use(...)`` scope (a ``contextvars`` value, so
   it is thread- and asyncio-safe);
3. the environment variable ``PQKIT_SYMMETRIC``: either one backend name for all
   families (``openssl``) or per-family settings (``sha3=python,aes=openssl``);
4. the fastest available backend (the order of ``BACKEND_ORDER``).
"""

from __future__ import annotations

import contextlib
import contextvars
import importlib
from collections.abc import Iterator
from functools import cache
from types import ModuleType
from typing import Any, Literal, cast, overload

from pqkit import _env
from pqkit.common.providers import AesProvider, Sha2Provider, Sha3Provider
from pqkit.errors import UnknownBackend

__all__ = ["BACKEND_ORDER", "FAMILIES", "backends", "parse_settings", "provider", "use"]

Family = Literal["sha3", "sha2", "aes"]
FAMILIES: tuple[Family, ...] = ("sha3", "sha2", "aes")

BACKEND_ORDER: tuple[str, ...] = ("openssl", "python")
"""Backend names, fastest first. Each is a module ``pqkit.common.<name>`` whose
attributes ``SHA3``, ``SHA2`` and ``AES`` are providers, or None where it has none."""

_ATTRIBUTE: dict[Family, str] = {"sha3": "SHA3", "sha2": "SHA2", "aes": "AES"}
_ENV = "PQKIT_SYMMETRIC"

_scope: contextvars.ContextVar[dict[str, str] | None] = contextvars.ContextVar(
    "pqkit_symmetric_scope", default=None
)


@cache
def _module(name: str) -> ModuleType:
    return importlib.import_module(f"pqkit.common.{name}")


def _available(family: Family) -> list[str]:
    return [b for b in BACKEND_ORDER if getattr(_module(b), _ATTRIBUTE[family]) is not None]


def parse_settings(value: str, *, source: str = _ENV) -> dict[str, str]:
    """Per-family backend names from the ``PQKIT_SYMMETRIC`` syntax.

    ``"openssl"`` sets every family; ``"sha3=python,aes=openssl"`` sets the families
    named. ``source`` names the setting in the ValueError raised for an unknown
    family (the command line passes ``--backend``). Backend names are not checked
    here: :func:`provider` and :func:`use` do that.
    """
    return dict(_parse_env(value, source))


@cache
def _parse_env(value: str, source: str) -> dict[str, str]:
    value = value.strip()
    if not value:
        return {}
    if "=" not in value:
        return dict.fromkeys(FAMILIES, value)
    settings: dict[str, str] = {}
    for item in value.split(","):
        family, _, name = item.partition("=")
        family = family.strip()
        if family not in FAMILIES:
            raise ValueError(
                f"{source}: unknown family {family!r} in {value!r}; families: {', '.join(FAMILIES)}"
            )
        settings[family] = name.strip()
    return settings


def _chosen(family: Family, backend: str | None) -> str | None:
    if backend is not None:
        return backend
    scope = _scope.get()
    if scope is not None and family in scope:
        return scope[family]
    return _parse_env(_env.value(_ENV), _ENV).get(family)


@overload
def provider(family: Literal["sha3"], backend: str | None = None) -> Sha3Provider: ...
@overload
def provider(family: Literal["sha2"], backend: str | None = None) -> Sha2Provider: ...
@overload
def provider(family: Literal["aes"], backend: str | None = None) -> AesProvider: ...


def provider(family: Family, backend: str | None = None) -> Any:
    """The provider object that serves ``family`` for this call.

    Raises :class:`pqkit.UnknownBackend` (a ``ValueError``) listing the available
    backends when the chosen one does not exist or cannot serve the family.
    """
    name = _chosen(family, backend)
    attribute = _ATTRIBUTE[family]
    # The first backend that serves the family, or the one chosen if it does.
    for candidate in BACKEND_ORDER if name is None else (name,) if name in BACKEND_ORDER else ():
        served = getattr(_module(candidate), attribute)
        if served is not None:
            return served
    hint = ""
    if name == "openssl" and family == "aes":  # hashlib serves SHA-2/SHA-3; AES is pyca's
        from pqkit._extras import installed

        if not installed("openssl"):
            hint = "its AES needs the 'openssl' extra: pip install \"pqkit[openssl]\""
    raise UnknownBackend(
        family, "<default>" if name is None else str(name), _available(family), hint=hint
    )


@contextlib.contextmanager
def use(
    backend: str | None = None,
    *,
    sha3: str | None = None,
    sha2: str | None = None,
    aes: str | None = None,
) -> Iterator[None]:
    """Choose providers for the calls made inside the ``with`` block.

    ``backend`` sets every family; ``sha3``/``sha2``/``aes`` override one family.
    Names are checked on entry, so a typo fails at once.
    """
    settings = dict(_scope.get() or {})
    if backend is not None:
        settings.update(dict.fromkeys(FAMILIES, backend))
    for family, name in (("sha3", sha3), ("sha2", sha2), ("aes", aes)):
        if name is not None:
            settings[family] = name
    for family, name in settings.items():
        provider(cast(Family, family), name)
    token = _scope.set(settings)
    try:
        yield
    finally:
        _scope.reset(token)


def backends() -> dict[str, dict[str, Any]]:
    """For each family, the available backends (fastest first) and the active one."""
    report: dict[str, dict[str, Any]] = {}
    for family in FAMILIES:
        report[family] = {
            "available": _available(family),
            "active": provider(family).name,
        }
    return report
