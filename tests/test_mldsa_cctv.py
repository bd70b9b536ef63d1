"""The CCTV ML-DSA accumulated test (C2SP/CCTV ML-DSA/accumulated; procedure in
shared/vectors/cctv/README.md): key generation from a SHAKE-128 seed stream and
deterministic signing of the empty message, all absorbed into one SHAKE-128.

Default run: 100 iterations per parameter set (numpy backend). ``-m slow``: 10 000.
"""

from __future__ import annotations

import hashlib

import pytest
from helpers import load_json

import pqkit

_PARAMS = ("ML-DSA-44", "ML-DSA-65", "ML-DSA-87")


def _accumulate(name: str, iterations: int) -> str:
    scheme = pqkit.sig(name).using(arith="numpy")  # type: ignore[attr-defined]
    # the seed stream: SHAKE-128 of the empty string, read 32 bytes per iteration
    seeds = hashlib.shake_128(b"").digest(32 * iterations)
    acc = hashlib.shake_128()
    for i in range(iterations):
        pk, sk = scheme.keygen_derand(seeds[32 * i : 32 * i + 32])
        acc.update(pk)
        sig = scheme.sign(sk, b"", b"", deterministic=True)
        acc.update(sig)
        assert scheme.verify(pk, b"", sig, b"")
    return acc.hexdigest(32)


def test_seed_stream_start() -> None:
    data = load_json("cctv/accumulated.json")
    first = data["ml_kem"]["rng"]["first_16_bytes_hex"]
    assert hashlib.shake_128(b"").digest(16).hex() == first


@pytest.mark.parametrize("name", _PARAMS)
def test_accumulated_100(name: str) -> None:
    expected = load_json("cctv/accumulated.json")["ml_dsa"]["digests"][name]["100"]
    assert _accumulate(name, 100) == expected


@pytest.mark.slow
@pytest.mark.parametrize("name", _PARAMS)
def test_accumulated_10000(name: str) -> None:
    expected = load_json("cctv/accumulated.json")["ml_dsa"]["digests"][name]["10000"]
    assert _accumulate(name, 10_000) == expected
