"""The batched hash kernels' contract (FIPS 202, FIPS 180-4): Keccak-f[1600] /
SHAKE and SHA-256 / SHA-512 over many independent inputs (:class:`HashKernels`).
The shared rules of every contract are in :mod:`pqkit.arith.api`.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from pqkit.common.kernels._hash import (
    as_prefix,
    check_bits,
    check_out_len,
    check_rounds,
    rows_u8,
    states_u64,
)

__all__ = ["HashKernels", "keccak_args", "sha2_args", "shake_args"]


class HashKernels(Protocol):
    """Batched hash kernels: Keccak-f[1600] / SHAKE (FIPS 202) and the SHA-256 /
    SHA-512 compression functions (FIPS 180-4) over many independent inputs at once
    (the WOTS+ chains, tree nodes and FORS leaves of FIPS 205, matrix and noise
    sampling of FIPS 203 / 204).

    Shared rules: arguments are NumPy arrays of exactly the dtype each contract
    names (TypeError otherwise; ValueError for a wrong last-axis length); every
    leading axis is a batch axis and may be empty (zero rows give an empty result);
    results are new arrays and inputs are never modified. Byte strings are uint8
    (..., L) arrays, one string per row, all of the same length L. ``prefix``
    arguments are bytes-like (TypeError otherwise) and are hashed in front of every
    row; a backend absorbs their whole blocks once per call. Every kernel is a pure
    function of its arguments and runs the same code for every value of the data
    (no branch or table lookup on the bytes hashed: they may be secret).
    """

    backend: str

    def keccak_f1600(
        self, states: npt.NDArray[np.uint64], rounds: int = 24
    ) -> npt.NDArray[np.uint64]:
        """FIPS 202, Algorithm 7 (KECCAK-p[1600, nr]) on every state.

        ``states`` is uint64 (..., 25), lane (x, y) at index x + 5y (FIPS 202 §3.1.2
        with w = 64, lanes little-endian as §B.1 reads bytes). ``rounds`` = nr in
        1..24 runs rounds 24 - nr .. 23 (the last nr round constants): 24 is
        KECCAK-f[1600], 12 is TurboSHAKE's KECCAK-p[1600, 12] (RFC 9861). Returns the
        permuted states as a new uint64 (..., 25) array."""
        ...

    def shake_many(
        self, bits: int, inputs: npt.NDArray[np.uint8], out_len: int, prefix: bytes = b""
    ) -> npt.NDArray[np.uint8]:
        """SHAKE128 (``bits`` = 128) or SHAKE256 (``bits`` = 256) of every row
        (FIPS 202 §6.2): ``inputs`` uint8 (..., L) -> uint8 (..., out_len), row i
        equal to ``hashlib.shake_<bits>(prefix + inputs[i]).digest(out_len)``.
        ``out_len`` >= 0 may span many squeeze blocks. ValueError for ``bits`` other
        than 128 / 256 or a negative ``out_len``."""
        ...

    def sha256_compress(
        self, states: npt.NDArray[np.uint32], blocks: npt.NDArray[np.uint8]
    ) -> npt.NDArray[np.uint32]:
        """FIPS 180-4 §6.2.2 steps 1-4: the SHA-256 compression of one 64-byte block
        into each chaining value. ``states`` uint32 (..., 8) (H_0 .. H_7) and
        ``blocks`` uint8 (..., 64) (the block as bytes, big-endian words as §3.1)
        broadcast against each other; returns the new uint32 (..., 8) states."""
        ...

    def sha512_compress(
        self, states: npt.NDArray[np.uint64], blocks: npt.NDArray[np.uint8]
    ) -> npt.NDArray[np.uint64]:
        """FIPS 180-4 §6.4.2 steps 1-4: the SHA-512 compression of one 128-byte block
        into each chaining value: uint64 (..., 8) and uint8 (..., 128), broadcast,
        -> uint64 (..., 8)."""
        ...

    def sha256_many(
        self, inputs: npt.NDArray[np.uint8], prefix: bytes = b""
    ) -> npt.NDArray[np.uint8]:
        """SHA-256 (FIPS 180-4 §6.2, padding §5.1.1) of ``prefix`` followed by each
        row: uint8 (..., L) -> uint8 (..., 32), row i equal to
        ``hashlib.sha256(prefix + inputs[i]).digest()``. The whole 64-byte blocks of
        ``prefix`` are compressed once per call: FIPS 205's SHA-2 F, H and T_l
        (§11.2) pass PK.seed || toByte(0, 64 - n) as ``prefix`` and ADRSc || M as
        the rows, so each row costs only its own blocks."""
        ...

    def sha512_many(
        self, inputs: npt.NDArray[np.uint8], prefix: bytes = b""
    ) -> npt.NDArray[np.uint8]:
        """SHA-512 (FIPS 180-4 §6.4, padding §5.1.2) of ``prefix`` followed by each
        row: uint8 (..., L) -> uint8 (..., 64), equal to
        ``hashlib.sha512(prefix + inputs[i]).digest()``; the whole 128-byte blocks
        of ``prefix`` are compressed once per call (FIPS 205 §11.2.2: PK.seed ||
        toByte(0, 128 - n))."""
        ...


# --- the argument checks of the contract, one place for every backend ---------------


def keccak_args(states: Any, rounds: Any) -> tuple[int, npt.NDArray[Any], tuple[int, ...]]:
    """``keccak_f1600``'s arguments checked: nr, the states as (rows, 25) and their
    leading shape."""
    nr = check_rounds(rounds)
    rows, lead = states_u64(states)
    return nr, rows, lead


def shake_args(
    bits: Any, inputs: Any, out_len: Any, prefix: Any
) -> tuple[int, int, npt.NDArray[np.uint8], tuple[int, ...], bytes]:
    """``shake_many``'s arguments checked: bits, out_len, the inputs as (rows, L), their
    leading shape and the prefix."""
    checked = check_bits(bits)
    n = check_out_len(out_len)
    rows, lead = rows_u8(inputs, "inputs")
    return checked, n, rows, lead, as_prefix(prefix)


def sha2_args(inputs: Any, prefix: Any) -> tuple[npt.NDArray[np.uint8], tuple[int, ...], bytes]:
    """``sha256_many`` / ``sha512_many``'s arguments checked: the inputs as (rows, L),
    their leading shape and the prefix."""
    rows, lead = rows_u8(inputs, "inputs")
    return rows, lead, as_prefix(prefix)
