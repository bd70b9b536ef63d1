"""Interoperability with pyca/cryptography (OpenSSL) for ML-KEM-768 and ML-KEM-1024."""

from __future__ import annotations

import os
from typing import Any

import pytest
from helpers import ARITH_BACKENDS
from pyca_features import pyca_module

import pqkit

mlkem = pyca_module("mlkem")


def _classes(name: str) -> tuple[Any, Any]:
    suffix = name.rsplit("-", 1)[1]
    return getattr(mlkem, f"MLKEM{suffix}PrivateKey"), getattr(mlkem, f"MLKEM{suffix}PublicKey")


def _private(cls: Any, seed: bytes) -> Any:
    try:
        return cls.from_seed_bytes(seed)
    except Exception as exc:  # UnsupportedAlgorithm when OpenSSL lacks ML-KEM
        pytest.skip(f"cryptography cannot build ML-KEM keys here: {exc}")


@pytest.mark.parametrize("backend", ARITH_BACKENDS)
@pytest.mark.parametrize("name", ["ML-KEM-768", "ML-KEM-1024"])
def test_keys_and_ciphertexts_cross_both_ways(name: str, backend: str) -> None:
    kem = pqkit.kem(name).using(arith=backend)  # type: ignore[attr-defined]
    private_cls, public_cls = _classes(name)
    for _ in range(3):
        seed = os.urandom(64)
        theirs = _private(private_cls, seed)
        pk, sk = kem.keygen_derand(seed)
        # Their key from our seed gives our public key.
        assert theirs.public_key().public_bytes_raw() == pk
        # Their ciphertext decapsulates with our key...
        their_ss, their_ct = theirs.public_key().encapsulate()
        assert kem.decaps(sk, their_ct) == their_ss
        # ... and ours with theirs, for a public key they imported.
        ss, ct = kem.encaps(public_cls.from_public_bytes(pk).public_bytes_raw())
        assert theirs.decapsulate(ct) == ss
        # Implicit rejection agrees too.
        bad = bytes([ct[0] ^ 1]) + ct[1:]
        assert kem.decaps(sk, bad) == theirs.decapsulate(bad)
