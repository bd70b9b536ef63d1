"""verify(pk, message, signature) called with message and signature swapped.

The scheme API takes ``verify(public_key, message, signature)``, the key objects
pyca's ``verify(signature, data)``. A swapped scheme-API call raises TypeError
instead of returning False; every other wrong-length signature stays False.
"""

from __future__ import annotations

import pytest

import pqkit
from pqkit.registry import algorithms

NAMES = [a.name for a in algorithms("sig") if a.module.startswith("pqkit.mldsa")]


@pytest.fixture(scope="module", params=NAMES)
def signed(request: pytest.FixtureRequest) -> tuple[str, bytes, bytes, bytes]:
    scheme = pqkit.sig(request.param)
    pk, sk = scheme.keygen_derand(bytes(range(32)))
    message = b"a message of an ordinary length"
    return request.param, pk, message, scheme.sign(sk, message, deterministic=True)


def test_swapped_arguments_raise_type_error(signed: tuple[str, bytes, bytes, bytes]) -> None:
    name, pk, message, signature = signed
    scheme = pqkit.sig(name)
    assert scheme.verify(pk, message, signature)
    with pytest.raises(TypeError, match="swapped"):
        scheme.verify(pk, signature, message)
    with pytest.raises(TypeError, match="swapped"):
        scheme.verify(pk, bytearray(signature), memoryview(message))


def test_wrong_length_signature_is_false(signed: tuple[str, bytes, bytes, bytes]) -> None:
    name, pk, message, signature = signed
    scheme = pqkit.sig(name)
    assert scheme.verify(pk, message, signature[:-1]) is False
    assert scheme.verify(pk, message, signature + b"\x00") is False
    assert scheme.verify(pk, message, b"") is False
    # a message of a signature's length with a signature of the right length: no swap
    assert scheme.verify(pk, signature, signature) is False


def test_message_of_signature_length_verifies(signed: tuple[str, bytes, bytes, bytes]) -> None:
    name, pk, _, _ = signed
    scheme = pqkit.sig(name)
    _, sk = scheme.keygen_derand(bytes(range(32)))
    message = bytes(scheme.length_signature)
    signature = scheme.sign(sk, message, deterministic=True)
    assert scheme.verify(pk, message, signature)
