"""The key algorithms pqkit serialises: the view of the key formats on the
algorithms of :mod:`pqkit.registry` that have an object identifier.

The OIDs and sizes are the registry's (derived there from each family's
parameters): RFC 9935 §3 (ML-KEM, id-alg-ml-kem-*), RFC 9881 §2 (ML-DSA,
id-ml-dsa-*) and RFC 9909 §3 (SLH-DSA, id-slh-dsa-*). ``seed_length`` is the
private-key seed of the RFCs' ``seed`` CHOICE: d || z (64 bytes, FIPS 203,
Algorithm 16) or xi (32 bytes, FIPS 204, Algorithm 6); for SLH-DSA, which has no
such CHOICE, the 3n bytes SK.seed || SK.prf || PK.seed of FIPS 205, Algorithm 18.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, cast

from pqkit import registry
from pqkit.der import oid_to_der

__all__ = ["ALGORITHMS", "KeyAlgorithm", "by_name", "by_oid"]

Family = Literal["ML-KEM", "ML-DSA", "SLH-DSA"]


@dataclass(frozen=True)
class KeyAlgorithm:
    """One parameter set as the key formats see it."""

    name: str
    """The FIPS name, as ``pqkit.kem`` / ``pqkit.sig`` spell it: ``"ML-KEM-768"``."""
    family: Family
    oid: str
    """Dotted AlgorithmIdentifier OID."""
    seed_length: int
    public_key_length: int
    expanded_key_length: int
    """FIPS 203 dk / FIPS 204 sk / FIPS 205 sk length."""
    output_length: int
    """Ciphertext (ML-KEM) or signature (ML-DSA) length."""
    oid_der: bytes = field(init=False, repr=False)
    """Content octets of the OID (cached)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "oid_der", oid_to_der(self.oid))

    @property
    def class_stem(self) -> str:
        """``"MLKEM768"``, ``"SLHDSASHA2_128s"``: the key classes are ``<stem>PrivateKey``
        and ``<stem>PublicKey``."""
        if self.family == "SLH-DSA":
            return "SLHDSA" + self.name.split("-", 2)[2].replace("-", "_")
        return self.name.replace("-", "")


def _key_algorithms() -> tuple[KeyAlgorithm, ...]:
    out = []
    for alg in registry.algorithms():
        if alg.oid is None:
            continue
        out.append(
            KeyAlgorithm(
                name=alg.name,
                family=cast(Family, alg.family),
                oid=alg.oid,
                seed_length=alg.length_seed,
                public_key_length=alg.length_public_key,
                expanded_key_length=alg.length_secret_key,
                output_length=alg.length_output,
            )
        )
    return tuple(out)


ALGORITHMS: tuple[KeyAlgorithm, ...] = _key_algorithms()
"""Every algorithm of :mod:`pqkit.registry` that has an OID, in listing order."""

_BY_OID = {alg.oid: alg for alg in ALGORITHMS}
_BY_NAME = {registry.normalise(alg.name): alg for alg in ALGORITHMS}


def by_oid(oid: str) -> KeyAlgorithm | None:
    """The algorithm with dotted ``oid``, or None."""
    return _BY_OID.get(oid)


def by_name(name: str) -> KeyAlgorithm | None:
    """The algorithm called ``name`` (case, ``-`` and ``_`` ignored), or None."""
    return _BY_NAME.get(registry.normalise(name))
