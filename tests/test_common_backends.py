"""python vs openssl agreement, backend selection, and bad input for pqkit.common."""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pqkit
from pqkit import common
from pqkit.common import openssl as openssl_backend
from pqkit.common import python as python_backend

SHA3_FUNCTIONS: dict[str, Callable[..., bytes]] = {
    "sha3_224": common.sha3_224,
    "sha3_256": common.sha3_256,
    "sha3_384": common.sha3_384,
    "sha3_512": common.sha3_512,
    "sha224": common.sha224,
    "sha256": common.sha256,
    "sha384": common.sha384,
    "sha512": common.sha512,
    "sha512_224": common.sha512_224,
    "sha512_256": common.sha512_256,
}


# --- python and openssl agree --------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(data=st.binary(max_size=400))
@pytest.mark.parametrize("name", sorted(SHA3_FUNCTIONS))
def test_hashes_agree(name: str, data: bytes) -> None:
    fn = SHA3_FUNCTIONS[name]
    assert fn(data, backend="python") == fn(data, backend="openssl")


@pytest.mark.parametrize("name", sorted(SHA3_FUNCTIONS))
@pytest.mark.parametrize("length", [0, 55, 56, 64, 111, 112, 128, 1000])
def test_hashes_agree_at_block_boundaries(name: str, length: int) -> None:
    data = bytes(range(256)) * 4
    fn = SHA3_FUNCTIONS[name]
    assert fn(data[:length], backend="python") == fn(data[:length], backend="openssl")


@settings(max_examples=40, deadline=None)
@given(
    bits=st.sampled_from([128, 256]),
    chunks=st.lists(st.binary(max_size=200), max_size=4),
    reads=st.lists(st.integers(0, 400), min_size=1, max_size=6),
    fork=st.integers(0, 6),
)
def test_xof_split_reads_and_copy_agree(
    bits: int, chunks: list[bytes], reads: list[int], fork: int
) -> None:
    make = common.shake128 if bits == 128 else common.shake256
    whole = b"".join(chunks)
    total = sum(reads)
    reference = make(whole, backend="openssl").read(total)
    for backend in ("python", "openssl"):
        xof = make(backend=backend)
        for chunk in chunks:
            xof.update(chunk)
        pieces, twin, done = [], None, 0
        for i, n in enumerate(reads):
            if i == fork:
                twin, done = xof.copy(), sum(map(len, pieces))
            pieces.append(xof.read(n))
        assert b"".join(pieces) == reference, backend
        if twin is not None:
            # The copy continues from where it was forked, independently.
            assert twin.read(total - done) == reference[done:], backend


@settings(max_examples=20, deadline=None)
@given(inputs=st.lists(st.binary(max_size=100), max_size=5), n=st.integers(0, 300))
def test_shake_many_agree(inputs: list[bytes], n: int) -> None:
    for many, digest in (
        (common.shake128_many, common.shake128_digest),
        (common.shake256_many, common.shake256_digest),
    ):
        a = many(inputs, n, backend="python")
        b = many(inputs, n, backend="openssl")
        assert a.shape == (len(inputs), n) and a.dtype == np.uint8
        assert np.array_equal(a, b)
        for row, x in zip(a, inputs, strict=True):
            assert row.tobytes() == digest(x, n)


@pytest.mark.parametrize("backend", ["python", "openssl"])
def test_copy_before_read_is_independent(backend: str) -> None:
    xof = common.shake128(b"abc", backend=backend)
    fork = xof.copy()
    fork.update(b"def")
    assert xof.read(32) == common.shake128_digest(b"abc", 32)
    assert fork.read(32) == common.shake128_digest(b"abcdef", 32)


# --- bad input -------------------------------------------------------------------------


@pytest.mark.parametrize("backend", ["python", "openssl"])
def test_update_after_read(backend: str) -> None:
    xof = common.shake256(b"x", backend=backend)
    xof.read(1)
    with pytest.raises(ValueError, match="after reading"):
        xof.update(b"y")
    fork = xof.copy()
    with pytest.raises(ValueError, match="after reading"):
        fork.update(b"y")


@pytest.mark.parametrize("name", sorted(SHA3_FUNCTIONS))
@pytest.mark.parametrize("bad", ["text", 5, None, [1, 2]])
def test_hash_non_bytes(name: str, bad: object) -> None:
    with pytest.raises(TypeError, match="data must be bytes-like"):
        SHA3_FUNCTIONS[name](bad)


def test_bytes_like_accepted() -> None:
    assert common.sha3_256(bytearray(b"abc")) == common.sha3_256(memoryview(b"abc"))


def test_xof_bad_arguments() -> None:
    with pytest.raises(TypeError):
        common.shake128("abc")  # type: ignore[arg-type]
    xof = common.shake128(b"")
    with pytest.raises(TypeError):
        xof.update("abc")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="n must be an int"):
        xof.read(1.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=">= 0"):
        xof.read(-1)
    with pytest.raises(TypeError, match="sequence of bytes-like"):
        common.shake128_many(b"abc", 4)
    with pytest.raises(TypeError, match=r"inputs\[1\]"):
        common.shake256_many([b"a", "b"], 4)  # type: ignore[list-item]
    with pytest.raises(ValueError, match=">= 0"):
        common.shake128_digest(b"", -5)


@pytest.mark.parametrize("backend", ["python", "openssl"])
def test_aes_bad_lengths(backend: str) -> None:
    with pytest.raises(ValueError, match="AES-256 key must be 32 bytes, got 16"):
        common.aes256_ecb(bytes(16), backend=backend)
    with pytest.raises(TypeError, match="AES-256 key must be bytes-like"):
        common.aes256_ecb("k" * 32, backend=backend)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="counter block must be 16 bytes, got 12"):
        common.aes256_ctr(bytes(32), bytes(12), backend=backend)
    ecb = common.aes256_ecb(bytes(32), backend=backend)
    with pytest.raises(ValueError, match="AES block must be 16 bytes, got 15"):
        ecb.encrypt_block(bytes(15))
    with pytest.raises(TypeError):
        ecb.encrypt_block("x" * 16)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="multiple of 16"):
        ecb.encrypt_blocks(bytes(17))
    # The raw provider objects check lengths too.
    raw = common.provider("aes", backend).ecb(bytes(32))
    with pytest.raises(ValueError, match="16 bytes"):
        raw.encrypt_block(bytes(17))
    with pytest.raises(ValueError, match="multiple of 16"):
        raw.encrypt_blocks(bytes(20))
    stream = common.aes256_ctr(bytes(32), bytes(16), backend=backend)
    with pytest.raises(ValueError, match=">= 0"):
        stream.read(-1)


def test_unknown_backend_lists_available() -> None:
    for call in (
        lambda: common.sha256(b"", backend="nope"),
        lambda: common.shake128(b"", backend="nope"),
        lambda: common.aes256_ecb(bytes(32), backend="nope"),
        lambda: common.provider("sha3", "nope"),
    ):
        with pytest.raises(pqkit.UnknownBackend, match=r"'nope'; available: openssl, python"):
            call()
    with pytest.raises(ValueError, match="available"), common.use(sha2="nope"):
        pass


# --- selection precedence ----------------------------------------------------------------


@pytest.fixture
def no_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.delenv("PQKIT_SYMMETRIC", raising=False)
    return monkeypatch


def _names() -> tuple[str, str, str]:
    return (common.provider("sha3").name, common.provider("sha2").name, common.provider("aes").name)


def test_default_is_fastest(no_env: pytest.MonkeyPatch) -> None:
    assert _names() == ("openssl", "openssl", "openssl")
    assert common.provider("sha3") is openssl_backend.SHA3
    report = common.backends()
    assert report == {
        family: {"available": ["openssl", "python"], "active": "openssl"}
        for family in ("sha3", "sha2", "aes")
    }


def test_python_aes_is_default_without_cryptography(no_env: pytest.MonkeyPatch) -> None:
    no_env.setattr(openssl_backend, "AES", None)
    assert common.provider("aes") is python_backend.AES
    assert common.backends()["aes"] == {"available": ["python"], "active": "python"}
    assert common.provider("sha3").name == "openssl"


def test_environment(no_env: pytest.MonkeyPatch) -> None:
    no_env.setenv("PQKIT_SYMMETRIC", "python")
    assert _names() == ("python", "python", "python")
    no_env.setenv("PQKIT_SYMMETRIC", "sha3=python, aes=python")
    assert _names() == ("python", "openssl", "python")
    no_env.setenv("PQKIT_SYMMETRIC", "keccak=python")
    with pytest.raises(ValueError, match="unknown family 'keccak'"):
        common.provider("sha3")
    no_env.setenv("PQKIT_SYMMETRIC", "nope")
    with pytest.raises(pqkit.UnknownBackend, match="available: openssl, python"):
        common.sha3_256(b"")


def test_precedence(no_env: pytest.MonkeyPatch) -> None:
    no_env.setenv("PQKIT_SYMMETRIC", "python")
    with common.use("openssl"):  # scope beats the environment
        assert _names() == ("openssl", "openssl", "openssl")
        # the argument beats the scope
        assert common.provider("sha3", "python") is python_backend.SHA3
        with common.use(sha3="python", aes="python"):  # per family, nested
            assert _names() == ("python", "openssl", "python")
            assert common.backends()["sha2"]["active"] == "openssl"
            assert common.backends()["sha3"]["active"] == "python"
            assert common.provider("aes", "openssl") is openssl_backend.AES
        assert _names() == ("openssl", "openssl", "openssl")
    assert _names() == ("python", "python", "python")


def test_scope_routes_the_public_functions(no_env: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    original = python_backend.SHA3.sha3

    def spy(bits: int, data: bytes) -> bytes:
        calls.append(bits)
        return original(bits, data)

    no_env.setattr(python_backend.SHA3, "sha3", spy)
    common.sha3_256(b"a")
    assert calls == []
    with common.use(sha3="python"):
        common.sha3_256(b"a")
        common.sha3_512(b"a")
    assert calls == [256, 512]


def test_scope_is_per_thread(no_env: pytest.MonkeyPatch) -> None:
    seen: list[str] = []
    with common.use("python"):
        thread = threading.Thread(target=lambda: seen.append(common.provider("sha3").name))
        thread.start()
        thread.join()
        assert common.provider("sha3").name == "python"
    assert seen == ["openssl"]


@settings(max_examples=30, deadline=None)
@given(
    bits=st.sampled_from([128, 256]),
    data=st.binary(max_size=300),
    reads=st.lists(st.integers(0, 500), min_size=1, max_size=6),
)
def test_openssl_buffered_xof_fallback(bits: int, data: bytes, reads: list[int]) -> None:
    """The hashlib-only XOF (used where cryptography lacks XOFHash) squeezes incrementally."""
    xof = openssl_backend._BufferedXof(bits)
    xof.update(data)
    pieces = [xof.read(reads[0])]
    twin = xof.copy()
    pieces += [xof.read(n) for n in reads[1:]]
    expected = (
        common.shake128_digest(data, sum(reads), backend="python")
        if bits == 128
        else (common.shake256_digest(data, sum(reads), backend="python"))
    )
    assert b"".join(pieces) == expected
    assert twin.read(sum(reads[1:])) == expected[reads[0] :]
    with pytest.raises(ValueError, match="after reading"):
        xof.update(b"")
