"""Name -> scheme lookup, aliases, listing, and what is known of each algorithm.

Every family declares (:mod:`pqkit.families`) a light ``params`` module (no NumPy)
whose ``CATALOG`` lists one :class:`Algorithm` per parameter set: its canonical name, kind, family,
object identifier, the module holding its scheme object, and its parameters, from
which every size is derived. This module owns those facts for the whole library:
the key formats (:mod:`pqkit.serialization.algorithms`), the key objects and the
command line read them here.

Names match case-insensitively and ignore ``-`` and ``_`` (:func:`normalise`),
so ``"mlkem768"`` and ``"ml_kem_768"`` both mean ``"ML-KEM-768"``. Scheme modules are
imported on first use, so ``import pqkit`` stays cheap.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Literal, Protocol, cast, overload

from pqkit import families
from pqkit.errors import UnknownAlgorithm
from pqkit.schemes import Kem, Signature

if TYPE_CHECKING:
    from pqkit.protocols import (
        DilithiumName,
        DilithiumR3Scheme,
        HybridKemScheme,
        HybridName,
        MLDSAName,
        MLDSAScheme,
        MLKEMName,
        MLKEMScheme,
        SLHDSAName,
        SLHDSAScheme,
    )

__all__ = [
    "Algorithm",
    "algorithm",
    "algorithms",
    "kem",
    "kems",
    "lazy_schemes",
    "normalise",
    "sig",
    "sigs",
]

Kind = Literal["kem", "sig"]


class Sizes(Protocol):
    """What an algorithm's parameters must tell: its level and byte lengths
    (``length_ciphertext`` and ``length_shared_secret`` for a KEM,
    ``length_signature`` for a signature scheme)."""

    @property
    def nist_level(self) -> int: ...

    @property
    def length_public_key(self) -> int: ...

    @property
    def length_secret_key(self) -> int: ...

    @property
    def length_seed(self) -> int: ...


@dataclass(frozen=True)
class Algorithm:
    """One parameter set of one scheme, as the rest of the library sees it."""

    name: str
    """Canonical spelling: ``"ML-KEM-768"``, ``"Dilithium3-AES"``."""
    kind: Kind
    family: str
    """``"ML-KEM"``, ``"Kyber"``, ``"Kyber-90s"``, ``"ML-DSA"``, ``"Dilithium"`` ..."""
    module: str
    """The module whose ``SCHEMES[name]`` is the scheme object."""
    params: Sizes
    oid: str | None = None
    """Dotted AlgorithmIdentifier OID of the key formats, None where none is assigned."""
    aliases: tuple[str, ...] = ()
    """Other names :func:`algorithm` accepts for this entry (``"MLKEM768-X25519"`` for
    ``"X-Wing"``); listings show the canonical name only."""
    extra: str | None = None
    """The pqkit extra this algorithm needs beyond the default install (``"openssl"``:
    pyca/cryptography for the hybrid KEMs' elliptic-curve half), None when it needs
    none. Without it the algorithm is still listed and its scheme object built; its
    operations raise :class:`pqkit.MissingExtra`."""

    @property
    def nist_level(self) -> int:
        return self.params.nist_level

    @property
    def length_public_key(self) -> int:
        return self.params.length_public_key

    @property
    def length_secret_key(self) -> int:
        return self.params.length_secret_key

    @property
    def length_seed(self) -> int:
        """Bytes of the seed ``keygen_derand`` takes (the seed form of a private key)."""
        return self.params.length_seed

    @property
    def stateful(self) -> bool:
        """True for the stateful hash-based signatures (LMS / HSS, XMSS): their
        private keys are objects bound to a counter, never bytes."""
        return bool(getattr(self.params, "stateful", False))

    @property
    def length_output(self) -> int:
        """Ciphertext (KEM) or signature bytes."""
        field = "length_ciphertext" if self.kind == "kem" else "length_signature"
        return int(getattr(self.params, field))

    def scheme(self) -> Any:
        """The scheme object (imports its module on first use)."""
        schemes = importlib.import_module(self.module).SCHEMES
        return schemes[self.name]


def lazy_schemes(package: str, modules: tuple[str, ...]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for a family package: ``SCHEMES``, the union of the
    ``SCHEMES`` of its ``modules``, built on first use (the package stays light)."""

    def __getattr__(name: str) -> Any:
        if name != "SCHEMES":
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        schemes: dict[str, Any] = {}
        for module in modules:
            schemes.update(importlib.import_module(f"{package}.{module}").SCHEMES)
        vars(sys.modules[package])["SCHEMES"] = schemes
        return schemes

    return __getattr__


def normalise(name: str) -> str:
    """The lookup key of an algorithm name: upper case without ``-`` and ``_``."""
    return name.upper().replace("-", "").replace("_", "")


_derived: dict[str, Any] = {}  # the catalogue and its index, until the families change


def _forget() -> None:
    _derived.clear()


families.on_change(_forget)


def _catalog() -> tuple[Algorithm, ...]:
    found: tuple[Algorithm, ...] | None = _derived.get("catalog")
    if found is not None:
        return found
    entries: list[Algorithm] = []
    for family in families.families():  # listing order: the families' ranks
        if family.catalog is not None:
            module = importlib.import_module(family.catalog)
            entries.extend(cast(tuple[Algorithm, ...], module.CATALOG))
    keys = [normalise(n) for a in entries for n in (a.name, *a.aliases)]
    if len(set(keys)) != len(keys):
        raise RuntimeError("two algorithms share a normalised name or alias")
    _derived["catalog"] = found = tuple(entries)
    return found


def _by_key() -> dict[str, Algorithm]:
    found: dict[str, Algorithm] | None = _derived.get("by_key")
    if found is None:
        found = {normalise(n): a for a in _catalog() for n in (a.name, *a.aliases)}
        _derived["by_key"] = found
    return found


@cache
def _family_by_key(module: str) -> dict[str, Algorithm]:
    """One family's algorithms by normalised name and alias."""
    entries = cast(tuple[Algorithm, ...], importlib.import_module(module).CATALOG)
    return {normalise(n): a for a in entries for n in (a.name, *a.aliases)}


def _find(key: str) -> Algorithm | None:
    """The algorithm of a normalised name, importing the families' params modules
    one at a time until one has it (start-up: ``pqkit.kem("ML-KEM-768")`` reads only
    ML-KEM's); else the whole catalogue's answer (which checks that no two share a
    name)."""
    for family in families.families():  # the families' ranks
        if family.catalog is not None:
            found = _family_by_key(family.catalog).get(key)
            if found is not None:
                return found
    return _by_key().get(key)


def algorithms(kind: Kind | None = None) -> tuple[Algorithm, ...]:
    """Every algorithm (of ``kind``, if given), in listing order."""
    return tuple(a for a in _catalog() if kind is None or a.kind == kind)


def algorithm(name: str, kind: Kind | None = None) -> Algorithm:
    """The algorithm called ``name``: ``TypeError`` for a non-str name,
    :class:`pqkit.UnknownAlgorithm` (listing the known names) for an unknown one, or
    for one of the other kind (saying which kind it is)."""
    if not isinstance(name, str):
        raise TypeError(f"algorithm name must be str, not {type(name).__name__}")
    found = _find(normalise(name))
    if found is None or (kind is not None and found.kind != kind):
        other = None if found is None else found.kind  # a KEM asked for as a signature ...
        raise UnknownAlgorithm(name, [a.name for a in algorithms(kind)], kind=other)
    return found


def kernel_group(name: str) -> str:
    """The kernel group (:func:`pqkit.arith.warmup.groups`) whose compiled code a
    scheme's single operations run on: its scheme's ``KERNELS``; a composite's is its
    ML-x half's, and a hybrid KEM (no ``KERNELS`` of its own) runs ML-KEM's."""
    scheme = algorithm(name).scheme()
    scheme = getattr(scheme, "mlx", scheme)
    kernels: str | None = getattr(scheme, "KERNELS", None)
    return kernels or "mlkem"


def batch_kernel_groups(name: str) -> tuple[str, ...]:
    """The kernel groups a scheme's batch view runs on: :func:`kernel_group`, and its
    batch group (``"mlkem-batch"``) where the family has one (the compiled batch
    operations; a view without one loops over the single operations)."""
    from pqkit.arith import warmup

    group = kernel_group(name)
    batch = f"{group}-batch"
    return (group, batch) if batch in warmup.groups() else (group,)


def kems() -> list[str]:
    """The canonical names of every KEM pqkit provides."""
    return [a.name for a in algorithms("kem")]


def sigs() -> list[str]:
    """The canonical names of every signature scheme pqkit provides."""
    return [a.name for a in algorithms("sig")]


@overload
def kem(name: MLKEMName) -> MLKEMScheme: ...
@overload
def kem(name: HybridName) -> HybridKemScheme: ...
@overload
def kem(name: str) -> Kem: ...
def kem(name: str) -> Kem:
    """The KEM called ``name``; raises :class:`pqkit.UnknownAlgorithm` otherwise.
    Typed per family for the canonical names (:mod:`pqkit.protocols`)."""
    return cast(Kem, algorithm(name, "kem").scheme())


@overload
def sig(name: MLDSAName) -> MLDSAScheme: ...
@overload
def sig(name: SLHDSAName) -> SLHDSAScheme: ...
@overload
def sig(name: DilithiumName) -> DilithiumR3Scheme: ...
@overload
def sig(name: str) -> Signature: ...
def sig(name: str) -> Signature:
    """The signature scheme called ``name``; raises :class:`pqkit.UnknownAlgorithm`
    otherwise. Typed per family for the canonical names (:mod:`pqkit.protocols`)."""
    return cast(Signature, algorithm(name, "sig").scheme())
