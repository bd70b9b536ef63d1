"""The key algorithms pqkit serialises: the view of the key formats on the
algorithms of :mod:`pqkit.registry` that have an object identifier.

The OIDs and sizes are the registry's (derived there from each family's
parameters): RFC 9935 §3 (ML-KEM, id-alg-ml-kem-*), RFC 9881 §2 (ML-DSA,
id-ml-dsa-*) and RFC 9909 §3 (SLH-DSA, id-slh-dsa-*). ``seed_length`` is the
private-key seed of the RFCs' ``seed`` CHOICE: d || z (64 bytes, FIPS 203,
Algorithm 16) or xi (32 bytes, FIPS 204, Algorithm 6); for SLH-DSA, which has no
such CHOICE, the 3n bytes SK.seed || SK.prf || PK.seed of FIPS 205, Algorithm 18;
for FrodoKEM (draft-smyslov-lamps-frodokem-certificates: OIDs 1.0.18033.2.2.7.*,
the 976 and 1344 sets), whose key has no seed form either, the key-generation
randomness s || seedSE || z.

The pre-hash OIDs (NIST CSOR: id-hash-ml-dsa-*-with-sha512, RFC 9881; and
id-hash-slh-dsa-*-with-*, RFC 9909) name a parameter set *and* its pre-hash
function: a key under one of them is the same bytes as the pure set's key, bound
to HashML-DSA (FIPS 204, Algorithm 4) or HashSLH-DSA (FIPS 205, Algorithm 23)
with that pre-hash. :data:`PREHASH_ALGORITHMS` lists them; :func:`by_oid` and
:func:`by_name` find both kinds.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal, cast

from pqkit import registry
from pqkit.der import oid_to_der

__all__ = ["ALGORITHMS", "PREHASH_ALGORITHMS", "KeyAlgorithm", "by_name", "by_oid"]

Family = Literal[
    "ML-KEM", "ML-DSA", "SLH-DSA", "FrodoKEM", "eFrodoKEM", "Composite-ML-DSA", "Composite-ML-KEM"
]

COMPOSITE_FAMILIES: tuple[Family, ...] = ("Composite-ML-DSA", "Composite-ML-KEM")
"""The composites (draft-ietf-lamps-pq-composite-sigs / -kem): a key is an ML-x key
next to a traditional one; the private key is one raw string (no CHOICE) and the
lengths of the traditional half vary, so ``public_key_length``,
``expanded_key_length`` and ``output_length`` are the drafts' maxima."""

RAW_PRIVATE_KEY: tuple[Family, ...] = ("SLH-DSA", *COMPOSITE_FAMILIES)
"""Families whose PKCS#8 privateKey holds the private key raw, with no CHOICE: RFC
9909 §6 (SLH-DSA) and the composite drafts §4."""

SINGLE_FORM: tuple[Family, ...] = (*RAW_PRIVATE_KEY, "FrodoKEM", "eFrodoKEM")
"""Families whose private key has one form, the whole secret key: those of
:data:`RAW_PRIVATE_KEY`, and FrodoKEM (draft-smyslov-lamps-frodokem-certificates:
the sk in an OCTET STRING)."""

KEM_FAMILIES: tuple[Family, ...] = ("ML-KEM", "FrodoKEM", "eFrodoKEM", "Composite-ML-KEM")


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
    parameter_set: str = ""
    """The FIPS parameter set whose scheme (``pqkit.sig``) does the work: ``name``
    itself for a pure OID, ``"ML-DSA-65"`` for ``"HashML-DSA-65-with-SHA512"``."""
    prehash: str | None = None
    """The pre-hash an OID binds the key to (its ACVP name, ``"SHA2-512"``,
    :data:`pqkit.prehash.PREHASHES`), or None for a pure OID. A composite ML-DSA
    OID binds its PH too (draft-ietf-lamps-pq-composite-sigs-19 §6)."""
    composite_public_floor: int = 0
    """A composite's fixed ML-x public key length (0 for the others)."""
    oid_der: bytes = field(init=False, repr=False)
    """Content octets of the OID (cached)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "oid_der", oid_to_der(self.oid))
        if not self.parameter_set:
            object.__setattr__(self, "parameter_set", self.name)

    @property
    def single_form(self) -> bool:
        """One private key form (:data:`SINGLE_FORM`): no seed CHOICE."""
        return self.family in SINGLE_FORM

    @property
    def raw_private_key(self) -> bool:
        """PKCS#8 holds the private key raw, not in an OCTET STRING
        (:data:`RAW_PRIVATE_KEY`)."""
        return self.family in RAW_PRIVATE_KEY

    @property
    def composite(self) -> bool:
        """Whether this is a composite (ML-x key || traditional key)."""
        return self.family in COMPOSITE_FAMILIES

    def composite_floor(self, name: str) -> int:
        """A composite's fixed ML-x part of its public key (``name`` "public key" or
        "publicKey") or private key (the ML-x seed)."""
        return self.composite_public_floor if "ublic" in name else self.seed_length

    @property
    def kind(self) -> Literal["kem", "sig"]:
        """``"kem"`` for a KEM's key (:data:`KEM_FAMILIES`: its output is a
        ciphertext), ``"sig"`` otherwise."""
        return "kem" if self.family in KEM_FAMILIES else "sig"

    @property
    def is_kem(self) -> bool:
        """``kind == "kem"``."""
        return self.kind == "kem"

    @property
    def class_stem(self) -> str:
        """``"MLKEM768"``, ``"SLHDSASHA2_128s"``, ``"HashMLDSA65"``: the key classes are
        ``<stem>PrivateKey`` and ``<stem>PublicKey``."""
        if self.composite:  # "MLDSA65-ECDSA-P256-SHA512" -> "MLDSA65_ECDSA_P256_SHA512"
            return self.name.replace("-", "_")
        if self.family == "SLH-DSA":
            stem = "SLHDSA" + self.parameter_set.split("-", 2)[2].replace("-", "_")
        else:
            stem = self.parameter_set.replace("-", "")
        return stem if self.prehash is None else "Hash" + stem


def _key_algorithms() -> tuple[KeyAlgorithm, ...]:
    out = []
    for alg in registry.algorithms():
        if alg.oid is None:
            continue
        prehash = getattr(alg.params, "prehash", None) if alg.family == "Composite-ML-DSA" else None
        out.append(
            KeyAlgorithm(
                name=alg.name,
                family=cast(Family, alg.family),
                prehash=prehash,
                composite_public_floor=getattr(alg.params, "length_mldsa_public_key", 0)
                or getattr(alg.params, "length_mlkem_public_key", 0),
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

_NIST_SIGALGS = "2.16.840.1.101.3.4.3"

# The pre-hash OIDs, NIST CSOR sigAlgs arcs 32-46: (arc, parameter set, pre-hash).
# RFC 9881 §2 (id-hash-ml-dsa-{44,65,87}-with-sha512) and RFC 9909 §3
# (id-hash-slh-dsa-*: SHA-256 for the 128-bit SHA2 sets, SHA-512 for the others,
# SHAKE128 for the 128-bit SHAKE sets, SHAKE256 for the others).
_PREHASH_OIDS: tuple[tuple[int, str, str], ...] = (
    (32, "ML-DSA-44", "SHA2-512"),
    (33, "ML-DSA-65", "SHA2-512"),
    (34, "ML-DSA-87", "SHA2-512"),
    (35, "SLH-DSA-SHA2-128s", "SHA2-256"),
    (36, "SLH-DSA-SHA2-128f", "SHA2-256"),
    (37, "SLH-DSA-SHA2-192s", "SHA2-512"),
    (38, "SLH-DSA-SHA2-192f", "SHA2-512"),
    (39, "SLH-DSA-SHA2-256s", "SHA2-512"),
    (40, "SLH-DSA-SHA2-256f", "SHA2-512"),
    (41, "SLH-DSA-SHAKE-128s", "SHAKE-128"),
    (42, "SLH-DSA-SHAKE-128f", "SHAKE-128"),
    (43, "SLH-DSA-SHAKE-192s", "SHAKE-256"),
    (44, "SLH-DSA-SHAKE-192f", "SHAKE-256"),
    (45, "SLH-DSA-SHAKE-256s", "SHAKE-256"),
    (46, "SLH-DSA-SHAKE-256f", "SHAKE-256"),
)


def _prehash_algorithms() -> tuple[KeyAlgorithm, ...]:
    pure = {alg.name: alg for alg in ALGORITHMS}
    out = []
    for arc, parameter_set, prehash in _PREHASH_OIDS:
        # the OID's own spelling: id-hash-ml-dsa-65-with-sha512 -> HashML-DSA-65-with-SHA512
        hash_name = prehash.replace("SHA2-", "SHA").replace("-", "")
        out.append(
            replace(
                pure[parameter_set],
                name=f"Hash{parameter_set}-with-{hash_name}",
                oid=f"{_NIST_SIGALGS}.{arc}",
                parameter_set=parameter_set,
                prehash=prehash,
            )
        )
    return tuple(out)


PREHASH_ALGORITHMS: tuple[KeyAlgorithm, ...] = _prehash_algorithms()
"""The HashML-DSA and HashSLH-DSA OIDs: each binds a parameter set to one pre-hash."""

_BY_OID = {alg.oid: alg for alg in ALGORITHMS + PREHASH_ALGORITHMS}
_BY_NAME = {registry.normalise(alg.name): alg for alg in ALGORITHMS + PREHASH_ALGORITHMS}
# the composites' "id-" spelling (the drafts' ASN.1 names)
_BY_NAME.update({registry.normalise(f"id-{alg.name}"): alg for alg in ALGORITHMS if alg.composite})
# "HashML-DSA-65" alone is unambiguous: each parameter set has one pre-hash OID.
_BY_NAME.update({registry.normalise(f"Hash{alg.parameter_set}"): alg for alg in PREHASH_ALGORITHMS})


def by_oid(oid: str) -> KeyAlgorithm | None:
    """The algorithm (pure or pre-hash) with dotted ``oid``, or None."""
    return _BY_OID.get(oid)


def by_name(name: str) -> KeyAlgorithm | None:
    """The algorithm called ``name`` (case, ``-`` and ``_`` ignored), or None. A
    pre-hash OID's entry answers to its full name (``"HashML-DSA-65-with-SHA512"``)
    and to ``"Hash"`` + its parameter set (``"HashML-DSA-65"``)."""
    return _BY_NAME.get(registry.normalise(name))
