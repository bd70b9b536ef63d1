"""NIST ACVP ML-KEM vectors (keyGen, encapDecap and its -tr1 revision), both arith backends."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import h, load_json
from mlkem_cases import cases, scheme


def _tests(name: str, function: str | None = None) -> list[tuple[str, Any]]:
    out = []
    for group in load_json(f"acvp/{name}.json")["testGroups"]:
        if function is not None and group["function"] != function:
            continue
        for test in group["tests"]:
            ident = f"{group['parameterSet']}-{group.get('keyFormat', 'x')}-tc{test['tcId']}"
            out.append((ident, (group, test)))
    return out


ENCAP_FILES = ("ML-KEM-encapDecap-FIPS203", "ML-KEM-encapDecap-FIPS203-tr1")


def _all(function: str) -> list[tuple[str, Any]]:
    return [(f"{f[-3:]}-{i}", t) for f in ENCAP_FILES for i, t in _tests(f, function)]


@pytest.mark.parametrize(("backend", "case"), cases(_tests("ML-KEM-keyGen-FIPS203")))
def test_keygen(backend: str, case: Any) -> None:
    group, test = case
    kem = scheme(group["parameterSet"], backend)
    pk, sk = kem.keygen_derand(h(test["d"]) + h(test["z"]))
    assert pk == h(test["ek"])
    assert sk == h(test["dk"])


@pytest.mark.parametrize(("backend", "case"), cases(_all("encapsulation")))
def test_encapsulation(backend: str, case: Any) -> None:
    group, test = case
    kem = scheme(group["parameterSet"], backend)
    ss, ct = kem.encaps_derand(h(test["ek"]), h(test["m"]))
    assert ct == h(test["c"])
    assert ss == h(test["k"])
    # And back: the given dk decapsulates it.
    assert kem.decaps(h(test["dk"]), ct) == ss


@pytest.mark.parametrize(("backend", "case"), cases(_all("decapsulation")))
def test_decapsulation(backend: str, case: Any) -> None:
    group, test = case
    kem = scheme(group["parameterSet"], backend)
    if group.get("keyFormat") == "seed":
        pk, dk = kem.keygen_derand(h(test["d"]) + h(test["z"]))
        assert pk == h(test["ek"])
        assert dk == h(test["dk"])
    else:
        dk = h(test["dk"])
    # "valid decapsulation" gives the honest key, "modified ciphertext" J(z || c).
    assert kem.decaps(dk, h(test["c"])) == h(test["k"]), test.get("reason")


@pytest.mark.parametrize(("backend", "case"), cases(_all("decapsulationKeyCheck")))
def test_decapsulation_key_check(backend: str, case: Any) -> None:
    group, test = case
    kem = scheme(group["parameterSet"], backend)
    ct = bytes(kem.length_ciphertext)
    if test["testPassed"]:
        assert len(kem.decaps(h(test["dk"]), ct)) == 32
    else:
        assert test["reason"] == "modified H"
        with pytest.raises(ValueError, match=r"FIPS 203 §7\.3 hash check failed"):
            kem.decaps(h(test["dk"]), ct)


@pytest.mark.parametrize(("backend", "case"), cases(_all("encapsulationKeyCheck")))
def test_encapsulation_key_check(backend: str, case: Any) -> None:
    group, test = case
    kem = scheme(group["parameterSet"], backend)
    if test["testPassed"]:
        ss, ct = kem.encaps(h(test["ek"]))
        assert kem.decaps(h(test["dk"]), ct) == ss
    else:
        with pytest.raises(ValueError, match=r"FIPS 203 §7\.2 modulus check failed"):
            kem.encaps(h(test["ek"]))
