"""The unrolled Keccak-f[1600] against its looped twin, and the python sponge details."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from keccak_looped import OFFSETS, RCS, keccak_f1600_looped

from pqkit.common.python import keccak

lanes = st.lists(st.integers(0, 2**64 - 1), min_size=25, max_size=25)


def test_constants_match_definitions() -> None:
    assert list(keccak.ROUND_CONSTANTS) == RCS
    assert tuple(OFFSETS[(i % 5, i // 5)] % 64 for i in range(25)) == keccak.RHO_OFFSETS
    # RC[0] and RC[23] as the Keccak reference tabulates them: a spot check of the twin.
    assert RCS[0] == 0x0000000000000001 and RCS[23] == 0x8000000080008008


@pytest.mark.parametrize(
    "state",
    [
        [0] * 25,
        [2**64 - 1] * 25,
        list(range(25)),
        [1 << (i * 2 % 64) for i in range(25)],
    ],
    ids=["zero", "ones", "counting", "single-bits"],
)
def test_unrolled_equals_looped_edges(state: list[int]) -> None:
    a, b = list(state), list(state)
    keccak.keccak_f1600(a)
    keccak_f1600_looped(b)
    assert a == b
    assert all(0 <= v < 2**64 for v in a)


@settings(max_examples=60, deadline=None)
@given(lanes)
def test_unrolled_equals_looped(state: list[int]) -> None:
    a, b = list(state), list(state)
    keccak.keccak_f1600(a)
    keccak_f1600_looped(b)
    assert a == b


def test_permutes_in_place() -> None:
    state = [0] * 25
    alias = state
    keccak.keccak_f1600(state)
    assert alias is state and state != [0] * 25
    # The known first lane of Keccak-f[1600] applied to the all-zero state.
    assert state[0] == 0xF1258F7940E1DDE7


@pytest.mark.parametrize("bits", [224, 256, 384, 512])
@pytest.mark.parametrize("length", [0, 1, 71, 72, 73, 103, 104, 135, 136, 143, 144, 145, 300])
def test_sha3_rate_boundaries(bits: int, length: int) -> None:
    data = bytes((7 * i + length) & 0xFF for i in range(length))
    assert keccak.sha3(bits, data) == hashlib.new(f"sha3_{bits}", data).digest()


@pytest.mark.parametrize("bits", [128, 256])
def test_update_pieces_and_read_after_update(bits: int) -> None:
    data = bytes(range(256)) * 3
    whole = keccak.shake(bits, data)
    pieces = keccak.shake(bits)
    for start in range(0, len(data), 50):
        pieces.update(data[start : start + 50])
    assert whole.read(500) == pieces.read(500)
    with pytest.raises(ValueError, match="after reading"):
        pieces.update(b"x")
