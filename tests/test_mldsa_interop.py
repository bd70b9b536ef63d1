"""Interoperability with pyca/cryptography's ML-DSA (OpenSSL): signatures both
ways, contexts, external mu, and the public key of a key built from our seed."""

from __future__ import annotations

import os
from typing import Any

import pytest
from helpers import ARITH_BACKENDS
from pyca_features import pyca_module

import pqkit

mldsa = pyca_module("mldsa")

_PYCA: dict[str, Any] = {
    "ML-DSA-44": getattr(mldsa, "MLDSA44PrivateKey", None),
    "ML-DSA-65": getattr(mldsa, "MLDSA65PrivateKey", None),
    "ML-DSA-87": getattr(mldsa, "MLDSA87PrivateKey", None),
}


def _pyca_key(name: str, seed: bytes) -> Any:
    cls = _PYCA[name]
    if cls is None:
        pytest.skip(f"this cryptography build has no {name}")
    try:
        return cls.from_seed_bytes(seed)
    except Exception as exc:  # pragma: no cover - depends on the OpenSSL build
        pytest.skip(f"cryptography cannot build {name} keys here: {exc}")


@pytest.mark.parametrize("name", list(_PYCA))
@pytest.mark.parametrize("backend", ARITH_BACKENDS)
def test_interop(name: str, backend: str) -> None:
    scheme = pqkit.sig(name).using(arith=backend)  # type: ignore[attr-defined]
    seed = os.urandom(32)
    pk, sk = scheme.keygen_derand(seed)
    theirs = _pyca_key(name, seed)
    their_pk = theirs.public_key()
    # the same seed gives the same public key
    assert their_pk.public_bytes_raw() == pk
    msg = os.urandom(50)
    # ours -> theirs (raises InvalidSignature on failure), with and without context
    their_pk.verify(scheme.sign(sk, msg), msg)
    their_pk.verify(scheme.sign(sk, msg, b"ctx"), msg, b"ctx")
    # theirs -> ours
    assert scheme.verify(pk, msg, theirs.sign(msg))
    assert scheme.verify(pk, msg, theirs.sign(msg, b"ctx"), b"ctx")
    assert not scheme.verify(pk, msg, theirs.sign(msg, b"ctx"), b"other")
    # external mu: theirs signs mu, ours verifies it (and the message it came from)
    if hasattr(theirs, "sign_mu"):
        mu = scheme.mu(pk, msg, b"")  # type: ignore[attr-defined]
        sig = theirs.sign_mu(mu)
        assert scheme.verify_mu(pk, mu, sig)
        assert scheme.verify(pk, msg, sig)
