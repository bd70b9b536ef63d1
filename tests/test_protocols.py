"""pqkit.protocols and the typed kem() / sig() (issue 25 item 4): the name Literals
the overloads use list exactly the registry's canonical names (and aliases) of
each family, and every scheme object has what the generic protocols promise.
(mypy --strict src checks each class against its family protocol.)"""

from __future__ import annotations

from typing import get_args

import pytest

import pqkit
from pqkit import protocols, registry
from pqkit.schemes import Kem, Signature

FAMILIES = [
    (protocols.MLKEMName, {"ML-KEM"}),
    (protocols.HybridName, {"hybrid"}),
    (protocols.MLDSAName, {"ML-DSA"}),
    (protocols.SLHDSAName, {"SLH-DSA"}),
    (protocols.DilithiumName, {"Dilithium", "Dilithium-AES"}),
]


@pytest.mark.parametrize("literal, families", FAMILIES, ids=lambda x: str(sorted(x)))
def test_name_literals_match_the_registry(literal: object, families: set[str]) -> None:
    names = {n for a in registry.algorithms() if a.family in families for n in (a.name, *a.aliases)}
    assert set(get_args(literal)) == names


@pytest.mark.parametrize("name", registry.kems())
def test_every_kem_has_the_generic_members(name: str) -> None:
    kem = pqkit.kem(name)
    assert isinstance(kem, Kem)
    assert kem.using(arith=None).name == kem.name and kem.batch is not None


@pytest.mark.parametrize("name", registry.sigs())
def test_every_signature_scheme_has_the_generic_members(name: str) -> None:
    s = pqkit.sig(name)
    assert isinstance(s, Signature)
    assert callable(s.public_key_from_secret) and s.batch is not None
