"""128-bit big-endian counters (SP 800-38A §B.1; SP 800-90A's V) whose integer
length never depends on their value.

CPython's integer operations take time that grows with the numbers' length, and
``(v + i) & (2^128 - 1)`` is shorter when v's top bytes are zero. A counter is
therefore held as 2^130 + its value (:func:`guarded_counter`): every sum with a
block count has bit 130 set (a carry never reaches it), and the blocks are cut
out of a 17-byte ``to_bytes`` (:func:`counter_blocks`), which drops the guard and
the carry out of bit 127 without an AND.
"""

from __future__ import annotations

__all__ = ["counter_blocks", "guarded_counter"]

_GUARD = b"\x04"  # 2^130 in the 17th byte
_from_bytes = int.from_bytes  # the fixed-width test hooks it


def guarded_counter(block: bytes) -> int:
    """2^130 + the 16-byte big-endian ``block``."""
    return _from_bytes(_GUARD + block, "big")


def counter_blocks(counter: int, count: int, start: int = 0) -> tuple[bytes, int]:
    """(the 16-byte blocks of value + start, ..., value + start + count - 1; the
    guarded counter of value + count), all mod 2^128, for a guarded ``counter``
    (:func:`guarded_counter`). CTR mode takes ``start`` = 0, CTR_DRBG 1."""
    blocks = b"".join((counter + i).to_bytes(17, "big")[1:] for i in range(start, start + count))
    return blocks, guarded_counter((counter + count).to_bytes(17, "big")[1:])
