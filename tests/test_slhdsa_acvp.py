"""NIST ACVP SLH-DSA vectors (FIPS 205): keyGen (v1.1.0.43), and the legacy
internal-interface sigGen (v1.1.0.35) and sigVer (v1.1.0.35, v1.1.0.37) sets.

In the sigGen/sigVer sets ``message`` is M' itself, given to slh_sign_internal /
slh_verify_internal (Algorithms 19/20); deterministic groups have no
``additionalRandomness`` and sign with opt_rand = PK.seed.

Signing with an ``s`` set takes seconds in Python: the default run signs every
``f``-set test and the first test of each ``s``-set group, and generates the
first two keys of each ``s`` set; ``-m slow`` runs the rest.

Each test runs on the default backend (the batched Python path) and, where Numba is
installed, on ``jit`` (the compiled engine of :mod:`pqkit.slhdsa.kernels.jit_ops`).
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import FAST_BACKENDS, h, load_json

import pqkit
from pqkit.slhdsa.fips205 import SLHDSA

_FILES = {
    "keyGen": "acvp/SLH-DSA-keyGen-FIPS205.json",
    "sigGen": "acvp/SLH-DSA-sigGen-FIPS205-v1.1.0.35.json",
    "sigVer-35": "acvp/SLH-DSA-sigVer-FIPS205-v1.1.0.35.json",
    "sigVer-37": "acvp/SLH-DSA-sigVer-FIPS205-v1.1.0.37.json",
}


def _cases(kind: str, fast_s: int) -> list[Any]:
    """pytest params (group, test): every test of the f sets, the first
    ``fast_s`` of each s-set group by default, the rest marked slow."""
    data = load_json(_FILES[kind])
    out = []
    for group in data["testGroups"]:
        small = group["parameterSet"].endswith("s")
        for i, test in enumerate(group["tests"]):
            marks = [pytest.mark.slow] if small and i >= fast_s else []
            name = f"{group['parameterSet']}-tg{group['tgId']}-tc{test['tcId']}"
            out.append(pytest.param(group, test, id=name, marks=marks))
    return out


BACKENDS = ["default", *(["jit"] if "jit" in FAST_BACKENDS else [])]


def _scheme(group: dict[str, Any], backend: str = "default") -> SLHDSA:
    scheme = pqkit.sig(group["parameterSet"])
    assert isinstance(scheme, SLHDSA)
    if backend == "default":
        return scheme
    scheme = scheme.using(arith=backend)
    assert scheme._engine() is not None  # the compiled engine, not the Python path
    return scheme


def test_files_cover_every_parameter_set() -> None:
    names = set(pqkit.sigs())
    keygen = {g["parameterSet"] for g in load_json(_FILES["keyGen"])["testGroups"]}
    sigver = {g["parameterSet"] for g in load_json(_FILES["sigVer-37"])["testGroups"]}
    assert keygen == sigver == {name for name in names if name.startswith("SLH-DSA")}
    assert len(keygen) == 12


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("group", "test"), _cases("keyGen", 2))
def test_keygen(group: dict[str, Any], test: dict[str, Any], backend: str) -> None:
    seed = h(test["skSeed"]) + h(test["skPrf"]) + h(test["pkSeed"])
    pk, sk = _scheme(group, backend).keygen_derand(seed)
    assert pk == h(test["pk"])
    assert sk == h(test["sk"])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("group", "test"), _cases("sigGen", 1))
def test_sign_internal(group: dict[str, Any], test: dict[str, Any], backend: str) -> None:
    scheme = _scheme(group, backend)
    sk = h(test["sk"])
    assert len(h(test["message"])) * 8 == test["messageLength"]
    addrnd = None if group["deterministic"] else h(test["additionalRandomness"])
    signature = scheme.sign_internal(sk, h(test["message"]), addrnd)
    assert signature == h(test["signature"])
    n = len(sk) // 4
    assert scheme.verify_internal(sk[2 * n :], h(test["message"]), signature)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("group", "test"), [*_cases("sigVer-35", 99), *_cases("sigVer-37", 99)])
def test_verify_internal(group: dict[str, Any], test: dict[str, Any], backend: str) -> None:
    scheme = _scheme(group, backend)
    result = scheme.verify_internal(h(test["pk"]), h(test["message"]), h(test["signature"]))
    assert result is test["testPassed"]
