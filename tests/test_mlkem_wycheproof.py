"""Wycheproof ML-KEM-768 vectors and the CCTV invalid-modulus keys, both arith backends.

Rule of use (Wycheproof): a ``valid`` case must reproduce every given output; an
``invalid`` one must fail with an error (here: ValueError naming the check).
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import ARITH_BACKENDS, h, load_json, load_lines
from mlkem_cases import REF_EVERY, cases, scheme


def _tests(name: str) -> list[tuple[str, Any]]:
    data = load_json(f"wycheproof/{name}.json")
    return [
        (f"tc{test['tcId']}", (group, test))
        for group in data["testGroups"]
        for test in group["tests"]
    ]


@pytest.mark.parametrize(("backend", "case"), cases(_tests("mlkem_768_keygen_seed_test")))
def test_keygen_seed(backend: str, case: Any) -> None:
    group, test = case
    assert test["result"] == "valid"
    pk, sk = scheme(group["parameterSet"], backend).keygen_derand(h(test["seed"]))
    assert pk == h(test["ek"])
    assert sk == h(test["dk"])


@pytest.mark.parametrize(("backend", "case"), cases(_tests("mlkem_768_encaps_test")))
def test_encaps(backend: str, case: Any) -> None:
    group, test = case
    kem = scheme(group["parameterSet"], backend)
    ek = h(test["ek"])
    if test["result"] == "valid":
        ss, ct = kem.encaps_derand(ek, h(test["m"]))
        assert ct == h(test["c"])
        assert ss == h(test["K"])
        return
    assert test["result"] == "invalid"
    expected = (
        r"FIPS 203 §7\.2 modulus check failed"
        if len(ek) == kem.length_public_key
        else r"public key must be 1184 bytes"
    )
    with pytest.raises(ValueError, match=expected):
        kem.encaps_derand(ek, h(test["m"]))
    with pytest.raises(ValueError, match=expected):
        kem.encaps(ek)


@pytest.mark.parametrize(("backend", "case"), cases(_tests("mlkem_768_test")))
def test_decaps_from_seed(backend: str, case: Any) -> None:
    group, test = case
    kem = scheme(group["parameterSet"], backend)
    seed, c = h(test["seed"]), h(test["c"])
    if test["result"] == "valid":
        pk, sk = kem.keygen_derand(seed)
        assert pk == h(test["ek"])
        assert kem.decaps(sk, c) == h(test["K"])
        return
    if len(seed) != 64:
        with pytest.raises(ValueError, match=r"seed \(d \|\| z\) must be 64 bytes"):
            kem.keygen_derand(seed)
        return
    _, sk = kem.keygen_derand(seed)
    with pytest.raises(ValueError, match=r"ciphertext must be 1088 bytes"):
        kem.decaps(sk, c)


_SEMI = {
    "IncorrectCiphertextLength": r"ciphertext must be 1088 bytes",
    "IncorrectDecapsulationKeyLength": r"secret key must be 2400 bytes",
    "InvalidDecapsulationKey": r"FIPS 203 §7\.3 hash check failed",
}


@pytest.mark.parametrize(("backend", "case"), cases(_tests("mlkem_768_semi_expanded_decaps_test")))
def test_semi_expanded_decaps(backend: str, case: Any) -> None:
    group, test = case
    kem = scheme(group["parameterSet"], backend)
    dk, c = h(test["dk"]), h(test["c"])
    if test["result"] == "valid":
        # MalleableCiphertext cases expect the implicit-rejection key J(z || c).
        assert kem.decaps(dk, c) == h(test["K"])
        return
    (flag,) = test["flags"]
    with pytest.raises(ValueError, match=_SEMI[flag]):
        kem.decaps(dk, c)


def _modulus_lines() -> list[tuple[str, Any]]:
    out = []
    for name in ("ML-KEM-512", "ML-KEM-768", "ML-KEM-1024"):
        for n, line in enumerate(load_lines(f"cctv/ML-KEM/modulus/{name}.part1.txt.gz")):
            out.append((f"{name}-line{n + 1}", (name, line)))
    return out


MODULUS = _modulus_lines()


@pytest.mark.parametrize("backend", ARITH_BACKENDS)
def test_cctv_modulus_every_line_rejected(backend: str) -> None:
    """Every CCTV invalid-modulus key is refused by encaps (FIPS 203 §7.2). The ref
    backend takes every REF_EVERY-th line by default and all of them under -m slow
    (see test_cctv_modulus_ref_all)."""
    lines = MODULUS if backend != "ref" else MODULUS[::REF_EVERY]
    for ident, (name, line) in lines:
        kem = scheme(name, backend)
        ek = h(line)
        assert len(ek) == kem.length_public_key, ident
        with pytest.raises(ValueError, match=r"FIPS 203 §7\.2 modulus check failed"):
            kem.encaps_derand(ek, bytes(32))


@pytest.mark.slow
def test_cctv_modulus_ref_all() -> None:
    for ident, (name, line) in MODULUS:
        kem = scheme(name, "ref")
        with pytest.raises(ValueError, match=r"FIPS 203 §7\.2 modulus check failed"):
            kem.encaps(h(line))
        assert ident
