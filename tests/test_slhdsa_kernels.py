"""SLH-DSA on the batched hash kernels: the same bytes as the provider path."""

from __future__ import annotations

import os

import pytest
from helpers import FAST_BACKENDS

import pqkit
from pqkit import arith, common
from pqkit.slhdsa.hashes import Hashes, KernelPrefixed

needs_jit = pytest.mark.skipif("jit" not in FAST_BACKENDS, reason="numba is not installed")


@pytest.mark.parametrize("function", ["shake256", "sha256", "sha512"])
@pytest.mark.parametrize("backend", arith.available("hash"))
def test_kernel_prefixed_matches_the_providers(function: str, backend: str) -> None:
    prefix = os.urandom(64 if function != "sha512" else 128)
    inputs = [os.urandom(54) for _ in range(37)]
    ours = KernelPrefixed(arith.kernels("hash", backend), function, prefix).many(inputs, 24)
    if function == "shake256":
        theirs = common.provider("sha3").shake_prefixed(256, prefix).many(inputs, 24)
    else:
        theirs = common.provider("sha2").sha2_prefixed(function, prefix).many(inputs, 24)
    assert ours == theirs
    assert KernelPrefixed(arith.kernels("hash", backend), function, prefix).many([], 24) == []
    with pytest.raises(ValueError, match="one length"):
        KernelPrefixed(arith.kernels("hash", backend), function, prefix).many([b"a", b"bc"], 24)
    with pytest.raises(ValueError, match="no batched kernel"):
        KernelPrefixed(arith.kernels("hash", backend), "md5", prefix)


@needs_jit
@pytest.mark.parametrize("name", ["SLH-DSA-SHAKE-128f", "SLH-DSA-SHA2-128f"])
def test_jit_signs_the_same_bytes(name: str) -> None:
    plain = pqkit.sig(name)
    compiled = plain.using(arith="jit")  # type: ignore[attr-defined]
    pk, sk = plain.keygen_derand(bytes(range(plain.length_seed)))  # type: ignore[attr-defined]
    assert compiled.keygen_derand(bytes(range(plain.length_seed))) == (pk, sk)
    sig = plain.sign(sk, b"message", b"ctx", deterministic=True)
    assert compiled.sign(sk, b"message", b"ctx", deterministic=True) == sig
    assert compiled.verify(pk, b"message", sig, b"ctx")
    assert not compiled.verify(pk, b"message!", sig, b"ctx")


@needs_jit
def test_kernel_path_only_where_it_is_faster() -> None:
    shake = pqkit.sig("SLH-DSA-SHAKE-128f").using(arith="jit")  # type: ignore[attr-defined]
    sha2 = pqkit.sig("SLH-DSA-SHA2-128f").using(arith="jit")  # type: ignore[attr-defined]
    numpy = pqkit.sig("SLH-DSA-SHAKE-128f").using(arith="numpy")  # type: ignore[attr-defined]
    assert isinstance(shake._hashes(bytes(16))._small, KernelPrefixed)
    assert not isinstance(sha2._hashes(bytes(16))._small, KernelPrefixed)
    assert not isinstance(numpy._hashes(bytes(16))._small, KernelPrefixed)
    assert isinstance(numpy._hashes(bytes(16)), Hashes)
