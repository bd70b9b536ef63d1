"""Issue 28 item 5: the pure-Python AES, its CTR mode and the CTR_DRBG work on
integers whose lengths do not depend on the key or the data.

CPython's integer operations take time that grows with the numbers' length, and
a result with zero top bytes is shorter. The cipher's integers all start at one
``int.from_bytes`` per module (``_from_bytes``); the test swaps it for one that
returns an int subclass recording the bit length of every result of every
operation on it (and of everything computed from it). The same sequence of
lengths for different keys and inputs, edge values included, shows that no
integer's length, and so no operation's cost through length, depends on them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from pqkit.common import CtrDrbg
from pqkit.common import counter as counter_module
from pqkit.common.python import aes as pyaes

_LOG: list[int] = []


class _Logged(int):
    """An int whose operations return _Logged ints and log their bit lengths."""


def _logging(name: str) -> Callable[[Any, Any], Any]:
    base = getattr(int, name)

    def op(self: Any, other: Any) -> Any:
        value = base(self, other)
        if value is NotImplemented:
            return value
        _LOG.append(value.bit_length())
        return _Logged(value)

    return op


for _name in (
    "__and__",
    "__rand__",
    "__or__",
    "__ror__",
    "__xor__",
    "__rxor__",
    "__rshift__",
    "__lshift__",
    "__add__",
    "__radd__",
    "__mul__",
    "__rmul__",
):
    setattr(_Logged, _name, _logging(_name))


def _logged_from_bytes(data: bytes, order: Any) -> _Logged:
    value = int.from_bytes(data, order)
    _LOG.append(value.bit_length())
    return _Logged(value)


@pytest.fixture
def logged(
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[Callable[[Callable[[], object]], list[int]]]:
    monkeypatch.setattr(pyaes, "_from_bytes", _logged_from_bytes)
    monkeypatch.setattr(counter_module, "_from_bytes", _logged_from_bytes)

    def run(fn: Callable[[], object]) -> list[int]:
        _LOG.clear()
        fn()
        out = list(_LOG)
        assert len(out) > 1000  # the hook saw the cipher's integers
        return out

    yield run
    _LOG.clear()


_EDGES = [bytes(32), b"\xff" * 32, bytes(31) + b"\x01", b"\x80" + bytes(31), os.urandom(32)]


@pytest.mark.parametrize("blocks", [1, 3])
@pytest.mark.parametrize("cipher", [pyaes.Aes256, pyaes.Aes128], ids=["AES-256", "AES-128"])
def test_block_cipher_lengths_fixed(logged: Any, blocks: int, cipher: Any) -> None:
    runs = []
    for key in _EDGES:
        key = key[: cipher.KEY_BYTES]
        for data in (bytes(16 * blocks), b"\xff" * (16 * blocks), os.urandom(16 * blocks)):
            runs.append(logged(lambda k=key, d=data: cipher(k).encrypt_blocks(d)))
    assert all(r == runs[0] for r in runs)


def test_ctr_lengths_fixed(logged: Any) -> None:
    counters = [bytes(16), b"\xff" * 16, bytes(15) + b"\x01", os.urandom(16)]
    runs = [
        logged(lambda k=k, c=c: pyaes.AES.ctr(k, c).read(100)) for k in _EDGES[:3] for c in counters
    ]
    assert all(r == runs[0] for r in runs)


def test_drbg_lengths_fixed(logged: Any) -> None:
    seeds = [bytes(48), b"\xff" * 48, os.urandom(48)]
    runs = [logged(lambda s=s: CtrDrbg(s, backend="python").generate(100)) for s in seeds]
    assert all(r == runs[0] for r in runs)


def test_still_fips_197() -> None:
    """FIPS 197, Appendix C.3, through the padded layout."""
    key = bytes(range(32))
    pt = bytes.fromhex("00112233445566778899aabbccddeeff")
    want = bytes.fromhex("8ea2b7ca516745bfeafc49904b496089")
    assert pyaes.Aes256(key).encrypt_block(pt) == want
    # FIPS 197, Appendix C.1 (AES-128)
    want_128 = bytes.fromhex("69c4e0d86a7b0430d8cdb78070b4c55a")
    assert pyaes.Aes128(key[:16]).encrypt_block(pt) == want_128
