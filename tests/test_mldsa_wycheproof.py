"""Wycheproof ML-DSA-65 vectors: signing from a seed, from an expanded key, and
verification (valid, malformed hints, norm violations, wrong lengths, contexts).

All tests run on ``numpy``; on ``ref`` the first test of each group runs by
default and the rest under ``-m slow``.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import backend_params, h, load_json

import pqkit
from pqkit.mldsa.fips204 import MLDSA


def _cases(name: str) -> list[Any]:
    data = load_json(f"wycheproof/{name}.json")
    out = []
    for gi, group in enumerate(data["testGroups"]):
        for i, test in enumerate(group["tests"]):
            base = f"g{gi}-tc{test['tcId']}"
            out += backend_params(base, (group, test), ref_runs=i == 0)
    return out


def _scheme(backend: str) -> MLDSA:
    scheme = pqkit.sig("ML-DSA-65")
    assert isinstance(scheme, MLDSA)
    return scheme.using(arith=backend)


def _sign_and_check(scheme: MLDSA, pk: bytes, sk: bytes, test: dict[str, Any]) -> None:
    ctx = h(test.get("ctx", ""))
    rnd = h(test["rnd"]) if "rnd" in test else None
    if test["result"] == "invalid":
        assert "InvalidContext" in test["flags"] or "InvalidPrivateKey" in test["flags"]
        with pytest.raises(ValueError):
            scheme.sign(sk, h(test.get("msg", "")), ctx, rnd=rnd, deterministic=rnd is None)
        return
    expected = h(test["sig"])
    mu = h(test["mu"])
    if "msg" in test:
        msg = h(test["msg"])
        assert scheme.mu(pk, msg, ctx) == mu
        sig = scheme.sign(sk, msg, ctx, rnd=rnd, deterministic=rnd is None)
        assert sig == expected
        assert scheme.verify(pk, msg, sig, ctx)
    sig = scheme.sign_mu(sk, mu, rnd=rnd, deterministic=rnd is None)
    assert sig == expected
    assert scheme.verify_mu(pk, mu, sig)


@pytest.mark.parametrize(("group", "test", "backend"), _cases("mldsa_65_sign_seed_test"))
def test_sign_seed(group: dict[str, Any], test: dict[str, Any], backend: str) -> None:
    scheme = _scheme(backend)
    seed = h(group["privateSeed"])
    if "IncorrectPrivateKeyLength" in test["flags"]:
        assert test["result"] == "invalid"
        with pytest.raises(ValueError, match="32 bytes"):
            scheme.keygen_derand(seed)
        return
    pk, sk = scheme.keygen_derand(seed)
    assert pk == h(group["publicKey"])
    _sign_and_check(scheme, pk, sk, test)


@pytest.mark.parametrize(("group", "test", "backend"), _cases("mldsa_65_sign_noseed_test"))
def test_sign_expanded(group: dict[str, Any], test: dict[str, Any], backend: str) -> None:
    scheme = _scheme(backend)
    sk = h(group["privateKey"])
    if "IncorrectPrivateKeyLength" in test["flags"]:
        assert test["result"] == "invalid"
        with pytest.raises(ValueError, match="secret key must be"):
            scheme.sign(sk, h(test.get("msg", "")), deterministic=True)
        return
    if "InvalidPrivateKey" in test["flags"]:
        assert test["result"] == "invalid"
        with pytest.raises(ValueError, match=r"outside \[-4, 4\]"):
            scheme.sign(sk, h(test.get("msg", "")), deterministic=True)
        with pytest.raises(ValueError, match="Algorithm 25"):
            scheme.public_key_from_secret(sk)
        return
    pk = h(group["publicKey"])
    assert scheme.public_key_from_secret(sk) == pk
    _sign_and_check(scheme, pk, sk, test)


@pytest.mark.parametrize(("group", "test", "backend"), _cases("mldsa_65_verify_test"))
def test_verify(group: dict[str, Any], test: dict[str, Any], backend: str) -> None:
    scheme = _scheme(backend)
    pk, msg, sig, ctx = (
        h(group["publicKey"]),
        h(test["msg"]),
        h(test["sig"]),
        h(test.get("ctx", "")),
    )
    if "IncorrectPublicKeyLength" in test["flags"] or "InvalidContext" in test["flags"]:
        assert test["result"] == "invalid"
        with pytest.raises(ValueError):
            scheme.verify(pk, msg, sig, ctx)
        return
    assert scheme.verify(pk, msg, sig, ctx) is (test["result"] == "valid")
