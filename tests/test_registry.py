"""The algorithm catalogue (:mod:`pqkit.registry`): one owner for names, OIDs and sizes."""

from __future__ import annotations

import pytest

import pqkit
from pqkit import registry
from pqkit.serialization import algorithms

# FIPS 203 Table 3 and FIPS 204 Table 2, written out here as the independent check
# of the sizes the catalogue derives from the parameters.
TABLE = {
    "ML-KEM-512": (800, 1632, 768),
    "ML-KEM-768": (1184, 2400, 1088),
    "ML-KEM-1024": (1568, 3168, 1568),
    "ML-DSA-44": (1312, 2560, 2420),
    "ML-DSA-65": (1952, 4032, 3309),
    "ML-DSA-87": (2592, 4896, 4627),
}


@pytest.mark.parametrize("name", list(TABLE))
def test_sizes_match_the_standards(name: str) -> None:
    alg = registry.algorithm(name)
    assert (alg.length_public_key, alg.length_secret_key, alg.length_output) == TABLE[name]


@pytest.mark.parametrize("alg", registry.algorithms(), ids=lambda a: a.name)
def test_scheme_objects_carry_the_catalogue(alg: registry.Algorithm) -> None:
    scheme = alg.scheme()
    assert scheme.name == alg.name and scheme.oid == alg.oid
    assert scheme.claimed_nist_level == alg.nist_level
    assert scheme.length_public_key == alg.length_public_key
    assert scheme.length_secret_key == alg.length_secret_key
    assert scheme.length_seed == alg.length_seed
    output = scheme.length_ciphertext if alg.kind == "kem" else scheme.length_signature
    assert output == alg.length_output
    lookup = pqkit.kem if alg.kind == "kem" else pqkit.sig
    assert lookup(alg.name.lower().replace("-", "_")) is scheme


def test_key_formats_read_the_catalogue() -> None:
    with_oid = [a for a in registry.algorithms() if a.oid is not None]
    assert [k.name for k in algorithms.ALGORITHMS] == [a.name for a in with_oid]
    for key_alg, alg in zip(algorithms.ALGORITHMS, with_oid, strict=True):
        assert key_alg.oid == alg.oid
        assert key_alg.public_key_length == alg.length_public_key
        assert key_alg.expanded_key_length == alg.length_secret_key
        assert key_alg.output_length == alg.length_output
        assert key_alg.seed_length == alg.length_seed
        assert algorithms.by_name(alg.name.lower()) is key_alg is algorithms.by_oid(alg.oid)


def test_kind_is_respected() -> None:
    with pytest.raises(pqkit.UnknownAlgorithm):
        pqkit.kem("ML-DSA-65")
    with pytest.raises(pqkit.UnknownAlgorithm):
        pqkit.sig("ML-KEM-768")
    with pytest.raises(TypeError, match="must be str"):
        registry.algorithm(768)  # type: ignore[arg-type]


def test_using_validates_and_binds() -> None:
    kem = pqkit.kem("ML-KEM-768")
    bound = kem.using(arith="ref")  # type: ignore[attr-defined]
    assert bound.arith == "ref" and kem.arith is None  # type: ignore[attr-defined]
    assert repr(bound) == "<MLKEM ML-KEM-768, arith='ref'>"
    with pytest.raises(pqkit.UnknownBackend):
        kem.using(arith="no-such-backend")  # type: ignore[attr-defined]
    dsa = pqkit.sig("ML-DSA-65")
    assert repr(dsa.using(arith="ref")) == "<MLDSA ML-DSA-65, arith='ref'>"  # type: ignore[attr-defined]


def test_aliases_resolve_to_the_canonical_entry() -> None:
    # X-Wing is also reachable as MLKEM768-X25519 (draft-irtf-cfrg-concrete-hybrid-kems).
    xwing = registry.algorithm("X-Wing")
    assert xwing.aliases == ("MLKEM768-X25519",)
    assert registry.algorithm("MLKEM768-X25519") is xwing
    assert registry.algorithm("mlkem768_x25519", "kem") is xwing
    assert pqkit.kem("MLKEM768-X25519") is pqkit.kem("X-Wing")
    assert "MLKEM768-X25519" not in pqkit.kems()  # listings: canonical names only
    with pytest.raises(pqkit.UnknownAlgorithm):
        pqkit.sig("MLKEM768-X25519")
    assert registry.algorithm("ML-KEM-768").aliases == ()
