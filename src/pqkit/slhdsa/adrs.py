"""Addresses (FIPS 205 §4.2-4.3) and the integer / byte-string helpers of §4.1.

An address ADRS is 32 bytes: layer (4), tree (12), type (4) and three 4-byte
words whose meaning depends on the type (key pair; chain or tree height; hash
or tree index). The SHA-2 instantiation hashes the 22-byte compressed form
ADRSc = ADRS[3] || ADRS[8:16] || ADRS[19] || ADRS[20:32] (§11.2).

The tree code builds addresses for many hashes at once, so besides the
:class:`Adrs` object of the pseudo-code this module offers :class:`AdrsCodec`:
``head(layer, tree, type)`` encodes the fixed part once, and ``word(i)`` the
4-byte words appended per hash.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "FORS_PRF",
    "FORS_ROOTS",
    "FORS_TREE",
    "TREE",
    "WOTS_HASH",
    "WOTS_PK",
    "WOTS_PRF",
    "Adrs",
    "AdrsCodec",
    "base_2b",
    "to_int",
    "word",
]

# FIPS 205, Table 1: the address types.
WOTS_HASH = 0
WOTS_PK = 1
TREE = 2
FORS_TREE = 3
FORS_ROOTS = 4
WOTS_PRF = 5
FORS_PRF = 6

_WORDS = tuple(i.to_bytes(4, "big") for i in range(1 << 12))


def word(i: int) -> bytes:
    """toByte(i, 4) (FIPS 205, Algorithm 3), from a table for small i."""
    return _WORDS[i] if i < 4096 else i.to_bytes(4, "big")


def to_int(x: bytes) -> int:
    """FIPS 205, Algorithm 2 (toInt): the big-endian integer of ``x``."""
    return int.from_bytes(x, "big")


def base_2b(x: bytes, b: int, out_len: int) -> list[int]:
    """FIPS 205, Algorithm 4 (base_2^b): the first ``out_len`` b-bit digits of ``x``,
    most significant first. ``x`` holds at least ceil(out_len b / 8) bytes."""
    total_bits = out_len * b
    value = int.from_bytes(x[: -(-total_bits // 8)], "big")
    value >>= -total_bits % 8  # drop the unused low bits of the last byte
    mask = (1 << b) - 1
    return [(value >> (b * (out_len - 1 - i))) & mask for i in range(out_len)]


@dataclass(frozen=True)
class AdrsCodec:
    """Byte layout of addresses for one instantiation: full 32-byte ADRS (SHAKE,
    §11.1) or the 22-byte ADRSc (SHA-2, §11.2)."""

    compressed: bool

    @property
    def size(self) -> int:
        return 22 if self.compressed else 32

    def head(self, layer: int, tree: int, type_: int) -> bytes:
        """Layer, tree and type: the first 10 (ADRSc) or 20 (ADRS) bytes."""
        if self.compressed:
            return bytes([layer]) + tree.to_bytes(8, "big") + bytes([type_])
        return layer.to_bytes(4, "big") + tree.to_bytes(12, "big") + type_.to_bytes(4, "big")

    def encode(self, adrs: Adrs) -> bytes:
        """The bytes of ``adrs`` in this layout."""
        return (
            self.head(adrs.layer, adrs.tree, adrs.type)
            + word(adrs.keypair)
            + word(adrs.word2)
            + word(adrs.word3)
        )


class Adrs:
    """The ADRS of the pseudo-code (FIPS 205 §4.3), with its member functions."""

    __slots__ = ("keypair", "layer", "tree", "type", "word2", "word3")

    def __init__(self) -> None:
        # ADRS <- toByte(0, 32)
        self.layer = 0
        self.tree = 0
        self.type = 0
        self.keypair = 0
        self.word2 = 0  # chain address / tree height
        self.word3 = 0  # hash address / tree index

    def copy(self) -> Adrs:
        twin = Adrs()
        twin.layer, twin.tree, twin.type = self.layer, self.tree, self.type
        twin.keypair, twin.word2, twin.word3 = self.keypair, self.word2, self.word3
        return twin

    def set_layer_address(self, layer: int) -> None:
        self.layer = layer

    def set_tree_address(self, tree: int) -> None:
        self.tree = tree

    def set_type_and_clear(self, type_: int) -> None:
        """Set the type and clear the final 12 bytes."""
        self.type = type_
        self.keypair = self.word2 = self.word3 = 0

    def set_key_pair_address(self, i: int) -> None:
        self.keypair = i

    def set_chain_address(self, i: int) -> None:
        self.word2 = i

    def set_tree_height(self, z: int) -> None:
        self.word2 = z

    def set_hash_address(self, i: int) -> None:
        self.word3 = i

    def set_tree_index(self, i: int) -> None:
        self.word3 = i

    def get_key_pair_address(self) -> int:
        return self.keypair

    def get_tree_index(self) -> int:
        return self.word3
