"""AES-128 and AES-256 encryption in pure Python (FIPS 197), bitsliced, without table
lookups.

The S-box is computed, not looked up: SubBytes is the multiplicative inverse in
GF(2^8) (FIPS 197 §5.1.1), evaluated as x^254 with four multiplications and seven
squarings, followed by the affine map, all on bit-planes. Nothing indexes memory
by a secret byte and nothing branches on one, so the cache-timing attacks on
table-driven AES do not apply.

Fixed-width words: CPython's integer operations take time that grows with the
numbers' length, and a result whose top bytes happen to be zero is shorter. So
every integer here has a length that does not depend on the key or the data:
``_PAD_BLOCKS`` public padding blocks sit above the real ones, encrypted under
public round keys of their own (AES works on each block alone, so they never mix
with the real blocks), and they are chosen so that every intermediate value has a
set bit in them: the length of each number is then fixed by public data
(``tests/test_common_aes_fixed_width.py`` runs the cipher on integers that record
every length and finds the same sequence for every key and input). Byte strings
go in and out through ``int.from_bytes`` of data ending in a public 0xFF byte and
``to_bytes`` of a fixed length; the key schedule handles words as ``bytes`` (XOR
of cached small ints) and SubWord as planes with a public padding of its own.

Layout ("sparse bitslicing"): ``n`` blocks are read as one little-endian integer
X of 16n bytes; plane k is ``(X >> k) & ONES`` where ONES has the bit 0 of every
byte set, so plane k holds bit k of every state byte in that byte's slot. State
byte s[r, c] of block b sits in byte slot 16b + r + 4c (FIPS 197 §3.4). All the
planes' bitwise operations act on every byte of every block at once, so CTR mode
encrypts a whole batch of blocks for roughly the cost of one.
"""

from __future__ import annotations

from functools import lru_cache

from pqkit.common.counter import counter_blocks, guarded_counter
from pqkit.common.providers import AesEcb, Keystream

__all__ = ["AES", "Aes128", "Aes256", "sub_bytes_planes"]

_from_bytes = int.from_bytes  # every integer of the cipher starts here (the test hooks it)

Planes = tuple[int, int, int, int, int, int, int, int]

_NR = {16: 10, 32: 14}  # key bytes -> Nr: AES-128 (Nk = 4), AES-256 (Nk = 8) (FIPS 197 Table 3)
_BATCH = 256  # blocks per bitsliced batch
_CTR_AHEAD = 32  # CTR refills at least this many blocks: a batch of 32 costs about one
_PAD_BLOCKS = 4  # public blocks above the real ones (64 lanes): see the module docstring


def _gf_mul(a: Planes, b: Planes) -> Planes:
    """Bitsliced product in GF(2^8) = GF(2)[x]/(x^8 + x^4 + x^3 + x + 1) (FIPS 197 §4.2).

    Plane k holds bit k (the coefficient of x^k) of every byte; schoolbook
    product (p0..p14), then x^k = x^(k-4) + x^(k-5) + x^(k-7) + x^(k-8) for k >= 8.
    """
    a0, a1, a2, a3, a4, a5, a6, a7 = a
    b0, b1, b2, b3, b4, b5, b6, b7 = b
    p0 = a0 & b0
    p1 = (a0 & b1) ^ (a1 & b0)
    p2 = (a0 & b2) ^ (a1 & b1) ^ (a2 & b0)
    p3 = (a0 & b3) ^ (a1 & b2) ^ (a2 & b1) ^ (a3 & b0)
    p4 = (a0 & b4) ^ (a1 & b3) ^ (a2 & b2) ^ (a3 & b1) ^ (a4 & b0)
    p5 = (a0 & b5) ^ (a1 & b4) ^ (a2 & b3) ^ (a3 & b2) ^ (a4 & b1) ^ (a5 & b0)
    p6 = (a0 & b6) ^ (a1 & b5) ^ (a2 & b4) ^ (a3 & b3) ^ (a4 & b2) ^ (a5 & b1) ^ (a6 & b0)
    p7 = (
        (a0 & b7)
        ^ (a1 & b6)
        ^ (a2 & b5)
        ^ (a3 & b4)
        ^ (a4 & b3)
        ^ (a5 & b2)
        ^ (a6 & b1)
        ^ (a7 & b0)
    )
    p8 = (a1 & b7) ^ (a2 & b6) ^ (a3 & b5) ^ (a4 & b4) ^ (a5 & b3) ^ (a6 & b2) ^ (a7 & b1)
    p9 = (a2 & b7) ^ (a3 & b6) ^ (a4 & b5) ^ (a5 & b4) ^ (a6 & b3) ^ (a7 & b2)
    p10 = (a3 & b7) ^ (a4 & b6) ^ (a5 & b5) ^ (a6 & b4) ^ (a7 & b3)
    p11 = (a4 & b7) ^ (a5 & b6) ^ (a6 & b5) ^ (a7 & b4)
    p12 = (a5 & b7) ^ (a6 & b6) ^ (a7 & b5)
    p13 = (a6 & b7) ^ (a7 & b6)
    p14 = a7 & b7
    p10 ^= p14
    p9 ^= p14
    p7 ^= p14
    p6 ^= p14
    p9 ^= p13
    p8 ^= p13
    p6 ^= p13
    p5 ^= p13
    p8 ^= p12
    p7 ^= p12
    p5 ^= p12
    p4 ^= p12
    p7 ^= p11
    p6 ^= p11
    p4 ^= p11
    p3 ^= p11
    p6 ^= p10
    p5 ^= p10
    p3 ^= p10
    p2 ^= p10
    p5 ^= p9
    p4 ^= p9
    p2 ^= p9
    p1 ^= p9
    p4 ^= p8
    p3 ^= p8
    p1 ^= p8
    p0 ^= p8
    return (p0, p1, p2, p3, p4, p5, p6, p7)


def _gf_square(a: Planes) -> Planes:
    """a^2 in GF(2^8): linear; bit k of the result is the XOR of the bits of a whose
    reduced x^(2i) has an x^k term (x^8 = x^4+x^3+x+1, x^10 = x^6+x^5+x^3+x^2,
    x^12 = x^7+x^5+x^3+x+1, x^14 = x^7+x^4+x^3+x)."""
    a0, a1, a2, a3, a4, a5, a6, a7 = a
    return (
        a0 ^ a4 ^ a6,
        a4 ^ a6 ^ a7,
        a1 ^ a5,
        a4 ^ a5 ^ a6 ^ a7,
        a2 ^ a4 ^ a7,
        a5 ^ a6,
        a3 ^ a5,
        a6 ^ a7,
    )


def sub_bytes_planes(x: Planes, ones: int) -> Planes:
    """SubBytes (FIPS 197 §5.1.1) on bit-planes; ``ones`` has bit 0 of every byte slot.

    The inverse is x^254 (0 maps to 0, as the standard requires), by the chain
    x^2, x^3, x^12, x^15, x^240, x^252, x^254; then the affine map
    b'_i = b_i + b_(i+4) + b_(i+5) + b_(i+6) + b_(i+7) + c_i with c = 0x63.
    """
    x2 = _gf_square(x)
    x3 = _gf_mul(x2, x)
    x12 = _gf_square(_gf_square(x3))
    x15 = _gf_mul(x12, x3)
    x240 = _gf_square(_gf_square(_gf_square(_gf_square(x15))))
    x252 = _gf_mul(x240, x12)
    b0, b1, b2, b3, b4, b5, b6, b7 = _gf_mul(x252, x2)
    return (
        b0 ^ b4 ^ b5 ^ b6 ^ b7 ^ ones,
        b1 ^ b5 ^ b6 ^ b7 ^ b0 ^ ones,
        b2 ^ b6 ^ b7 ^ b0 ^ b1,
        b3 ^ b7 ^ b0 ^ b1 ^ b2,
        b4 ^ b0 ^ b1 ^ b2 ^ b3,
        b5 ^ b1 ^ b2 ^ b3 ^ b4 ^ ones,
        b6 ^ b2 ^ b3 ^ b4 ^ b5 ^ ones,
        b7 ^ b3 ^ b4 ^ b5 ^ b6,
    )


def _slots(positions: tuple[int, ...], blocks: int) -> int:
    """The mask with bit 0 of the given byte positions of each of ``blocks`` blocks."""
    one = sum(1 << (8 * j) for j in positions)
    return one * (((1 << (128 * blocks)) - 1) // ((1 << 128) - 1))


class _Layout:
    """The masks of the sparse layout for a batch of ``blocks`` blocks.

    The masks that pick some rows or columns only are kept with a ``guard`` bit
    above every block: a term ``((x >> 32) | guard) & mask`` then has the guard's
    length whatever x holds (a mask of one slot would otherwise keep too few
    padding lanes to be sure of a set bit), and the OR of the terms drops it with
    one XOR at the end."""

    def __init__(self, blocks: int) -> None:
        self.blocks = blocks
        self.ones = _slots(tuple(range(16)), blocks)
        g = self.guard = 1 << (128 * blocks + 1)  # a free bit above the last slot

        def guarded(positions: tuple[int, ...]) -> int:
            return _slots(positions, blocks) | g

        # ShiftRows: s'[r, c] = s[r, (c + r) mod 4]; destination slots by source offset.
        self.row0 = guarded((0, 4, 8, 12))
        self.from_plus4 = guarded((1, 5, 9))  # row 1, c < 3: from c + 1
        self.from_minus12 = guarded((13,))  # row 1, c = 3: from c = 0
        self.from_plus8 = guarded((2, 6))  # row 2, c < 2: from c + 2
        self.from_minus8 = guarded((10, 14))  # row 2, c >= 2: from c - 2
        self.from_minus4 = guarded((7, 11, 15))  # row 3, c > 0: from c - 1
        self.from_plus12 = guarded((3,))  # row 3, c = 0: from c = 3
        # MixColumns: rotations of the rows within each column.
        self.rows012 = guarded((0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14))
        self.row3 = guarded((3, 7, 11, 15))
        self.rows01 = guarded((0, 1, 4, 5, 8, 9, 12, 13))
        self.rows23 = guarded((2, 3, 6, 7, 10, 11, 14, 15))


@lru_cache(maxsize=64)
def _layout(blocks: int) -> _Layout:
    return _Layout(blocks)


def _shift_rows(s: Planes, m: _Layout) -> Planes:
    """ShiftRows (FIPS 197 §5.1.2) on each plane: bytes move by whole columns."""
    r0, p4, m12, p8, m8, m4, p12, g = (
        m.row0,
        m.from_plus4,
        m.from_minus12,
        m.from_plus8,
        m.from_minus8,
        m.from_minus4,
        m.from_plus12,
        m.guard,
    )
    return tuple(  # type: ignore[return-value]
        (
            ((x | g) & r0)
            | (((x >> 32) | g) & p4)
            | (((x << 96) | g) & m12)
            | (((x >> 64) | g) & p8)
            | (((x << 64) | g) & m8)
            | (((x << 32) | g) & m4)
            | (((x >> 96) | g) & p12)
        )
        ^ g
        for x in s
    )


def _mix_columns(s: Planes, m: _Layout) -> Planes:
    """MixColumns (FIPS 197 §5.1.3): s'_r = 2 s_r + 3 s_(r+1) + s_(r+2) + s_(r+3)
    = xtime(s_r + s_(r+1)) + (s_0 + s_1 + s_2 + s_3) + s_r, per column."""
    rows012, row3, rows01, rows23, g = m.rows012, m.row3, m.rows01, m.rows23, m.guard
    # s_r + s_(r+1), then the column sums (the guard bit: see _Layout)
    t = [x ^ ((((x >> 8) | g) & rows012) | (((x << 24) | g) & row3)) ^ g for x in s]
    u = [y ^ ((((y >> 16) | g) & rows01) | (((y << 16) | g) & rows23)) ^ g for y in t]
    t0, t1, t2, t3, t4, t5, t6, t7 = t
    xt = (t7, t0 ^ t7, t1, t2 ^ t7, t3 ^ t7, t4, t5, t6)  # xtime (FIPS 197 §4.2.1)
    return tuple(a ^ b ^ c for a, b, c in zip(xt, u, s, strict=True))  # type: ignore[return-value]


def _to_planes(value: int, ones: int) -> Planes:
    return tuple((value >> k) & ones for k in range(8))  # type: ignore[return-value]


def _from_planes(s: Planes) -> int:
    s0, s1, s2, s3, s4, s5, s6, s7 = s
    return s0 | s1 << 1 | s2 << 2 | s3 << 3 | s4 << 4 | s5 << 5 | s6 << 6 | s7 << 7


def _public_bytes(label: bytes, n: int) -> bytes:
    """``n`` public pseudo-random bytes ending in 0xFF (SHAKE-128 of ``label``):
    the padding lanes. Any values work as long as the fixed-width test passes."""
    import hashlib

    return hashlib.shake_128(b"pqkit AES padding " + label).digest(n - 1) + b"\xff"


_PAD_TEXT = _public_bytes(b"state", 16 * _PAD_BLOCKS)
_PAD_KEYS = [_public_bytes(b"round key %d" % r, 16 * _PAD_BLOCKS) for r in range(15)]
_WORD_PAD = _public_bytes(b"SubWord", 60)  # SubWord works on 4 real + 60 public bytes
_ONES_WORD = _slots(tuple(range(16)), 4)  # bit 0 of each of the 64 byte slots


def _sub_word(word: bytes) -> bytes:
    """SubWord (FIPS 197 §5.2) of a 4-byte word, on planes padded to 64 bytes."""
    planes = _to_planes(_from_bytes(word + _WORD_PAD, "little"), _ONES_WORD)
    return _from_planes(sub_bytes_planes(planes, _ONES_WORD)).to_bytes(64, "little")[:4]


def _xor(a: bytes, b: bytes) -> bytes:
    """Bytewise XOR: each byte is one of CPython's cached small ints, so every
    operation takes the same path whatever the value."""
    return bytes(x ^ y for x, y in zip(a, b, strict=True))


def _rcon() -> list[int]:
    """Rcon[j] = x^(j-1) in GF(2^8) (FIPS 197 §5.2), j = 1..10."""
    values, v = [0], 1
    for _ in range(10):
        values.append(v)
        v = ((v << 1) ^ (0x11B if v & 0x80 else 0)) & 0xFF  # public constants only
    return values


_RCON = _rcon()


def _key_expansion(key: bytes) -> list[bytes]:
    """KeyExpansion (FIPS 197 Algorithm 2, Nk = 4 or 8): the Nr + 1 round keys of 16
    bytes, words as ``bytes`` (byte 0 first)."""
    nk, nr = len(key) // 4, _NR[len(key)]
    w = [key[4 * i : 4 * i + 4] for i in range(nk)]
    for i in range(nk, 4 * (nr + 1)):
        temp = w[i - 1]
        if i % nk == 0:
            temp = _sub_word(temp[1:] + temp[:1])  # SubWord(RotWord(temp))
            temp = bytes([temp[0] ^ _RCON[i // nk]]) + temp[1:]
        elif nk > 6 and i % nk == 4:
            temp = _sub_word(temp)
        w.append(_xor(w[i - nk], temp))
    return [b"".join(w[4 * r : 4 * r + 4]) for r in range(nr + 1)]


class _Cipher:
    """AES encryption (FIPS 197 Algorithm 1, Cipher) under one key of
    ``KEY_BYTES`` bytes.

    The key schedule is computed once; its bit-planes are kept per batch size
    (real blocks, then the ``_PAD_BLOCKS`` public ones).
    """

    __slots__ = ("_planes", "_round_keys")
    KEY_BYTES = 32

    def __init__(self, key: bytes) -> None:
        if len(key) != self.KEY_BYTES:
            bits = 8 * self.KEY_BYTES
            raise ValueError(f"AES-{bits} key must be {self.KEY_BYTES} bytes, got {len(key)}")
        self._round_keys = _key_expansion(key)
        self._planes: dict[int, list[Planes]] = {}

    def _key_planes(self, m: _Layout) -> list[Planes]:
        planes = self._planes.get(m.blocks)
        if planes is None:
            real = m.blocks - _PAD_BLOCKS
            planes = [
                _to_planes(_from_bytes(rk * real + pad, "little"), m.ones)
                for rk, pad in zip(self._round_keys, _PAD_KEYS, strict=False)
            ]
            self._planes[m.blocks] = planes
        return planes

    def encrypt_blocks(self, data: bytes) -> bytes:
        """Encrypt ``data`` (a multiple of 16 bytes) block by block (ECB)."""
        if len(data) % 16:
            raise ValueError(f"AES input must be a multiple of 16 bytes, got {len(data)}")
        out = []
        for start in range(0, len(data), 16 * _BATCH):
            chunk = data[start : start + 16 * _BATCH]
            out.append(self._encrypt_batch(chunk))
        return b"".join(out)

    def _encrypt_batch(self, chunk: bytes) -> bytes:
        m = _layout(len(chunk) // 16 + _PAD_BLOCKS)
        keys = self._key_planes(m)
        nr = len(keys) - 1
        ones = m.ones
        state = _to_planes(_from_bytes(chunk + _PAD_TEXT, "little"), ones)
        s: Planes = tuple(  # type: ignore[assignment]
            p ^ k for p, k in zip(state, keys[0], strict=True)
        )
        for r in range(1, nr + 1):
            s = _shift_rows(sub_bytes_planes(s, ones), m)
            if r != nr:
                s = _mix_columns(s, m)
            s = tuple(p ^ k for p, k in zip(s, keys[r], strict=True))  # type: ignore[assignment]
        return _from_planes(s).to_bytes(16 * m.blocks, "little")[: len(chunk)]

    def encrypt_block(self, block: bytes) -> bytes:
        """Encrypt one 16-byte block."""
        if len(block) != 16:
            raise ValueError(f"AES block must be 16 bytes, got {len(block)}")
        return self._encrypt_batch(block)


class Aes256(_Cipher):
    """AES-256 (Nk = 8, Nr = 14)."""

    __slots__ = ()
    KEY_BYTES = 32


class Aes128(_Cipher):
    """AES-128 (Nk = 4, Nr = 10): FrodoKEM's generation of A."""

    __slots__ = ()
    KEY_BYTES = 16


class _Ctr:
    """AES-256-CTR keystream with a 128-bit big-endian counter (SP 800-38A §6.5, B.1)."""

    __slots__ = ("_buffer", "_cipher", "_counter")

    def __init__(self, cipher: _Cipher, counter_block: bytes) -> None:
        self._cipher = cipher
        self._counter = guarded_counter(counter_block)
        self._buffer = b""

    def read(self, n: int) -> bytes:
        if n <= len(self._buffer):
            out, self._buffer = self._buffer[:n], self._buffer[n:]
            return out
        need = n - len(self._buffer)
        count = max((need + 15) // 16, _CTR_AHEAD)
        counters, self._counter = counter_blocks(self._counter, count)
        stream = self._buffer + self._cipher.encrypt_blocks(counters)
        out, self._buffer = stream[:n], stream[n:]
        return out


class _Aes:
    """The python backend's AES provider (:class:`pqkit.common.providers.AesProvider`)."""

    name = "python"

    def ecb(self, key: bytes) -> AesEcb:
        return Aes128(key) if len(key) == 16 else Aes256(key)

    def ctr(self, key: bytes, counter_block: bytes) -> Keystream:
        return _Ctr(Aes256(key), counter_block)


AES = _Aes()
