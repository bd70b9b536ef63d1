"""The batched prefixed hashes of the providers (``PrefixedHash.many``): every
backend against hashlib one-shots of prefix || input, edge lengths included."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pqkit import common

BACKENDS = ["openssl", "python"]
INPUTS = [b"", b"\x00", bytes(range(55)), bytes(range(56)), bytes(range(64)), bytes(200)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["sha256", "sha512"])
@pytest.mark.parametrize("n", [16, 24, 32])
def test_sha2_prefixed(backend: str, name: str, n: int) -> None:
    block = 64 if name == "sha256" else 128
    for prefix in (b"", b"seed", bytes(range(n)) + bytes(block - n)):
        hasher = common.provider("sha2", backend).sha2_prefixed(name, prefix)
        want = [hashlib.new(name, prefix + x).digest()[:n] for x in INPUTS]
        assert hasher.many(INPUTS, n) == want
        assert hasher.many([], n) == []
        assert hasher.many(INPUTS[2:3], n) == want[2:3]  # the state is reusable


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("bits", [128, 256])
def test_shake_prefixed(backend: str, bits: int) -> None:
    shake = hashlib.shake_128 if bits == 128 else hashlib.shake_256
    for prefix in (b"", bytes(range(32)), bytes(200)):
        hasher = common.provider("sha3", backend).shake_prefixed(bits, prefix)
        for n in (16, 32, 200):
            assert hasher.many(INPUTS, n) == [shake(prefix + x).digest(n) for x in INPUTS]


@settings(max_examples=25, deadline=None)
@given(prefix=st.binary(max_size=150), inputs=st.lists(st.binary(max_size=150), max_size=4))
def test_backends_agree(prefix: bytes, inputs: list[bytes]) -> None:
    for name in ("sha256", "sha512"):
        results = {
            b: common.provider("sha2", b).sha2_prefixed(name, prefix).many(inputs, 24)
            for b in BACKENDS
        }
        assert results["openssl"] == results["python"]
    shakes = {
        b: common.provider("sha3", b).shake_prefixed(256, prefix).many(inputs, 40) for b in BACKENDS
    }
    assert shakes["openssl"] == shakes["python"]
