"""The CCTV accumulated ML-KEM test (vectors/cctv/README.md), ``fips203_final`` digests.

100 tests per parameter set by default (numpy backend); 10 000 under ``-m slow``.
"""

from __future__ import annotations

import pytest
from helpers import load_json

import pqkit
from pqkit import arith, common

DIGESTS = load_json("cctv/accumulated.json")["ml_kem"]["digests"]["fips203_final"]
NAMES = ("ML-KEM-512", "ML-KEM-768", "ML-KEM-1024")


def accumulate(name: str, count: int) -> str:
    kem = pqkit.kem(name)
    stream = common.shake128(b"")
    acc = common.shake128(b"")
    for _ in range(count):
        d = stream.read(32)
        z = stream.read(32)
        ek, dk = kem.keygen_derand(d + z)
        m = stream.read(32)
        K, ct = kem.encaps_derand(ek, m)
        assert kem.decaps(dk, ct) == K
        ct_rand = stream.read(kem.length_ciphertext)
        K_rand = kem.decaps(dk, ct_rand)
        for part in (ek, dk, ct, K, K_rand):
            acc.update(part)
    return acc.read(32).hex()


def test_stream_start() -> None:
    assert common.shake128(b"").read(16).hex() == "7f9c2ba4e88f827d616045507605853e"


@pytest.mark.parametrize("name", NAMES)
def test_accumulated_100(name: str, fast_backend: str) -> None:
    with arith.use(fast_backend):
        assert accumulate(name, 100) == DIGESTS[name]["100"]


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_accumulated_10000(name: str) -> None:
    assert accumulate(name, 10_000) == DIGESTS[name]["10000"]
