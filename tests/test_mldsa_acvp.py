"""NIST ACVP ML-DSA vectors (FIPS 204): keyGen, sigGen (FIPS204 and -tr1), sigVer.

Every test runs on the ``numpy`` backend. On ``ref`` (plain Python, slow) the
default run takes the first test of every group; every test runs on ``ref``
under ``-m slow``.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import backend_params, h, load_json

import pqkit
from pqkit.mldsa.fips204 import MLDSA

_FILES = {
    "keyGen": "acvp/ML-DSA-keyGen-FIPS204.json",
    "sigGen": "acvp/ML-DSA-sigGen-FIPS204.json",
    "sigGen-tr1": "acvp/ML-DSA-sigGen-FIPS204-tr1.json",
    "sigVer": "acvp/ML-DSA-sigVer-FIPS204.json",
}


def _cases(kind: str) -> list[Any]:
    """pytest params (group, test) for both backends; ref: first of each group
    by default, the rest under the slow marker."""
    data = load_json(_FILES[kind])
    out = []
    for group in data["testGroups"]:
        for i, test in enumerate(group["tests"]):
            base = f"{group['parameterSet']}-tg{group['tgId']}-tc{test['tcId']}"
            out += backend_params(base, (group, test), ref_runs=i == 0)
    return out


def _scheme(group: dict[str, Any], backend: str) -> MLDSA:
    scheme = pqkit.sig(group["parameterSet"])
    assert isinstance(scheme, MLDSA)
    return scheme.using(arith=backend)


@pytest.mark.parametrize(("group", "test", "backend"), _cases("keyGen"))
def test_keygen(group: dict[str, Any], test: dict[str, Any], backend: str) -> None:
    pk, sk = _scheme(group, backend).keygen_derand(h(test["seed"]))
    assert pk == h(test["pk"])
    assert sk == h(test["sk"])


def _sign_case(group: dict[str, Any], test: dict[str, Any], backend: str) -> None:
    scheme = _scheme(group, backend)
    if group.get("keyFormat", "expanded") == "seed" and "sk" not in test:
        pk, sk = scheme.keygen_derand(h(test["seed"]))
    else:
        sk = h(test["sk"])
        pk = scheme.public_key_from_secret(sk)
    rnd = bytes(32) if group["deterministic"] else h(test["rnd"])
    expected = h(test["signature"])
    if group["signatureInterface"] == "internal":
        if group["externalMu"]:
            mu = h(test["mu"])
            if group["deterministic"]:
                sig = scheme.sign_mu(sk, mu, deterministic=True)
            else:
                sig = scheme.sign_mu(sk, mu, rnd=rnd)
            assert sig == expected
            assert scheme.verify_mu(pk, mu, sig)
        else:
            m = h(test["message"])
            sig = scheme.sign_internal(sk, m, rnd)
            assert sig == expected
            assert scheme.verify_internal(pk, m, sig)
    else:
        msg, ctx = h(test["message"]), h(test["context"])
        prehash = test["hashAlg"] if group["preHash"] == "preHash" else None
        if group["deterministic"]:
            sig = scheme.sign(sk, msg, ctx, prehash=prehash, deterministic=True)
        else:
            sig = scheme.sign(sk, msg, ctx, prehash=prehash, rnd=rnd)
        assert sig == expected
        assert scheme.verify(pk, msg, sig, ctx, prehash=prehash)
        assert not scheme.verify(pk, msg + b"\x00", sig, ctx, prehash=prehash)


@pytest.mark.parametrize(("group", "test", "backend"), _cases("sigGen"))
def test_siggen(group: dict[str, Any], test: dict[str, Any], backend: str) -> None:
    _sign_case(group, test, backend)


@pytest.mark.parametrize(("group", "test", "backend"), _cases("sigGen-tr1"))
def test_siggen_tr1(group: dict[str, Any], test: dict[str, Any], backend: str) -> None:
    _sign_case(group, test, backend)


@pytest.mark.parametrize(("group", "test", "backend"), _cases("sigVer"))
def test_sigver(group: dict[str, Any], test: dict[str, Any], backend: str) -> None:
    scheme = _scheme(group, backend)
    pk, sig = h(test["pk"]), h(test["signature"])
    if group["signatureInterface"] == "internal":
        if group["externalMu"]:
            ok = scheme.verify_mu(pk, h(test["mu"]), sig)
        else:
            ok = scheme.verify_internal(pk, h(test["message"]), sig)
    else:
        prehash = test["hashAlg"] if group["preHash"] == "preHash" else None
        ok = scheme.verify(pk, h(test["message"]), sig, h(test["context"]), prehash=prehash)
    assert ok is test["testPassed"], test["reason"]
