"""The CCTV accumulated ML-KEM test (``fips203_final``) through the batch API.

Every iteration's inputs (d, z, m, a random ciphertext) come from one SHAKE128
stream and no input depends on an output, so all iterations can be read first and
run as batches; the outputs are then absorbed in the test's order. 100 iterations
per parameter set by default (numpy and jit); 10 000 under ``-m slow``.
"""

from __future__ import annotations

import numpy as np
import pytest
from batch_cases import BACKENDS
from helpers import load_json

import pqkit
from pqkit import common

DIGESTS = load_json("cctv/accumulated.json")["ml_kem"]["digests"]["fips203_final"]
NAMES = ("ML-KEM-512", "ML-KEM-768", "ML-KEM-1024")


def accumulate_batched(name: str, count: int, backend: str) -> str:
    kem = pqkit.kem(name).using(arith=backend)
    stream = common.shake128(b"")
    seeds, ms, cts_rand = [], [], []
    for _ in range(count):  # the stream order of the one-at-a-time test
        seeds.append(stream.read(64))  # d || z
        ms.append(stream.read(32))
        cts_rand.append(stream.read(kem.length_ciphertext))
    eks, dks = kem.batch.keygen_derand(seeds)
    ks, cts = kem.batch.encaps_derand(eks, ms)
    assert (kem.batch.decaps(dks, cts) == ks).all()
    ks_rand = kem.batch.decaps(dks, np.frombuffer(b"".join(cts_rand), np.uint8).reshape(count, -1))
    acc = common.shake128(b"")
    for i in range(count):
        for part in (eks[i], dks[i], cts[i], ks[i], ks_rand[i]):
            acc.update(part.tobytes())
    return acc.read(32).hex()


@pytest.mark.parametrize("backend", [b for b in BACKENDS if b.values[0] != "ref"])
@pytest.mark.parametrize("name", NAMES)
def test_accumulated_100_as_batches(name: str, backend: str) -> None:
    assert accumulate_batched(name, 100, backend) == DIGESTS[name]["100"]


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_accumulated_10000_as_batches(name: str) -> None:
    assert accumulate_batched(name, 10_000, "numpy") == DIGESTS[name]["10000"]
