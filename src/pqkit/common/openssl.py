"""The ``openssl`` backend: hashlib for SHA-2/SHA-3/SHAKE one-shots, and
pyca/cryptography (when installed) for AES and incremental SHAKE squeezing.

Every OpenSSL object is created once per key or per XOF and reused for all the
blocks it processes. pyca/cryptography is imported on first use of AES or of an
incremental SHAKE (``AES``, ``HAS_CRYPTOGRAPHY`` and ``HAS_XOF_HASH`` are computed
when first read): ML-KEM and ML-DSA hash through hashlib only, and a process
that runs them never loads it (some milliseconds and megabytes of start-up).
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Sequence
from functools import cache
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import numpy.typing as npt

from pqkit.common.providers import AesEcb, Keystream, Xof

__all__ = ["AES", "HAS_CRYPTOGRAPHY", "SHA2", "SHA3"]

if TYPE_CHECKING:
    AES: _Aes | None
    HAS_CRYPTOGRAPHY: bool
    HAS_XOF_HASH: bool


@cache
def _pyca() -> SimpleNamespace | None:
    """pyca/cryptography's hashes and ciphers, or None where it is not installed."""
    try:  # pragma: no cover - depends on the environment
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    except ImportError:  # pragma: no cover
        return None
    return SimpleNamespace(hashes=hashes, Cipher=Cipher, algorithms=algorithms, modes=modes)


@cache
def _has_xof_hash() -> bool:
    pyca = _pyca()
    if pyca is None or not hasattr(pyca.hashes, "XOFHash"):
        return False
    try:
        pyca.hashes.XOFHash(pyca.hashes.SHAKE128(digest_size=sys.maxsize)).squeeze(1)
    except Exception:
        return False
    return True


def __getattr__(name: str) -> Any:
    """``AES``, ``HAS_CRYPTOGRAPHY`` and ``HAS_XOF_HASH``, computed (and pyca
    imported) on first read, then stored as ordinary module attributes."""
    if name == "HAS_CRYPTOGRAPHY":
        value: Any = _pyca() is not None
    elif name == "HAS_XOF_HASH":
        value = _has_xof_hash()
    elif name == "AES":
        value = _Aes() if _pyca() is not None else None
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


_SHA3 = {224: hashlib.sha3_224, 256: hashlib.sha3_256, 384: hashlib.sha3_384, 512: hashlib.sha3_512}
_SHAKE = {128: hashlib.shake_128, 256: hashlib.shake_256}


class _AbsorbingXof:
    """What both SHAKE wrappers share: ``update`` is allowed until the first read."""

    _state: Any
    _reading: bool

    def update(self, data: bytes) -> None:
        if self._reading:
            raise ValueError("cannot absorb into a SHAKE object after reading from it")
        self._state.update(data)


class _SqueezingXof(_AbsorbingXof):
    """SHAKE through pyca/cryptography's ``XOFHash``: a true incremental squeeze."""

    def __init__(self, bits: int, state: Any = None) -> None:
        self._bits = bits
        if state is None:
            hashes = cast(SimpleNamespace, _pyca()).hashes  # there: _has_xof_hash() said so
            shake = hashes.SHAKE128 if bits == 128 else hashes.SHAKE256
            state = hashes.XOFHash(shake(digest_size=sys.maxsize))
        self._state: Any = state
        self._reading = False

    def read(self, n: int) -> bytes:
        self._reading = True
        return bytes(self._state.squeeze(n)) if n else b""

    def copy(self) -> Xof:
        twin = _SqueezingXof(self._bits, self._state.copy())
        twin._reading = self._reading
        return twin


class _BufferedXof(_AbsorbingXof):
    """SHAKE through hashlib, which can only produce a prefix of the output.

    The prefix is recomputed only when a read runs past it, and then at twice the
    length, so n bytes read in any pieces cost O(n) squeezing in total.
    """

    def __init__(self, bits: int, state: Any = None) -> None:
        self._state: Any = state if state is not None else _SHAKE[bits]()
        self._buffer = b""
        self._offset = 0
        self._reading = False

    def read(self, n: int) -> bytes:
        self._reading = True
        end = self._offset + n
        if end > len(self._buffer):
            self._buffer = self._state.digest(max(end, 2 * len(self._buffer), 168))
        out = self._buffer[self._offset : end]
        self._offset = end
        return out

    def copy(self) -> Xof:
        twin = _BufferedXof(0, self._state.copy())
        twin._buffer, twin._offset, twin._reading = self._buffer, self._offset, self._reading
        return twin


class _Prefixed:
    """A hash with a prefix absorbed once (for SHA-2, the midstate after a full prefix
    block is computed once); each input continues from a copy. SHAKE squeezes n
    bytes, a SHA-2 function's digest is cut to n."""

    __slots__ = ("_copy", "_xof")

    def __init__(self, state: Any, xof: bool) -> None:
        self._copy = state.copy
        self._xof = xof

    def many(self, inputs: Sequence[bytes], n: int) -> list[bytes]:
        copy, xof = self._copy, self._xof
        out = []
        for x in inputs:
            state = copy()
            state.update(x)
            out.append(state.digest(n) if xof else state.digest()[:n])
        return out


class _Sha3:
    name = "openssl"

    def sha3(self, bits: int, data: bytes) -> bytes:
        return _SHA3[bits](data).digest()

    def shake(self, bits: int, data: bytes) -> Xof:
        xof: Xof = _SqueezingXof(bits) if _has_xof_hash() else _BufferedXof(bits)
        if data:
            xof.update(data)
        return xof

    def shake_digest(self, bits: int, data: bytes, n: int) -> bytes:
        return _SHAKE[bits](data).digest(n)

    def shake_many(self, bits: int, inputs: Sequence[bytes], n: int) -> npt.NDArray[np.uint8]:
        shake = _SHAKE[bits]
        joined = b"".join([shake(x).digest(n) for x in inputs])
        return np.frombuffer(joined, dtype=np.uint8).reshape(len(inputs), n)

    def turboshake(self, bits: int, data: bytes, domain: int) -> Xof:
        # Neither OpenSSL (3.x) nor pyca/cryptography nor hashlib has TurboSHAKE
        # (RFC 9861), so this provider serves it with the pure-Python
        # KECCAK-p[1600, 12] sponge of the python backend.
        from pqkit.common.python.keccak import turboshake

        return turboshake(bits, data, domain)

    def shake_prefixed(self, bits: int, prefix: bytes) -> _Prefixed:
        return _Prefixed(_SHAKE[bits](prefix), True)


class _Sha2:
    name = "openssl"

    def sha2(self, name: str, data: bytes) -> bytes:
        return hashlib.new(name, data).digest()

    def sha2_prefixed(self, name: str, prefix: bytes) -> _Prefixed:
        return _Prefixed(hashlib.new(name, prefix), False)


class _Ecb:
    def __init__(self, key: bytes) -> None:
        pyca: Any = _pyca()
        self._encryptor = pyca.Cipher(pyca.algorithms.AES(key), pyca.modes.ECB()).encryptor()

    def encrypt_block(self, block: bytes) -> bytes:
        if len(block) != 16:
            raise ValueError(f"AES block must be 16 bytes, got {len(block)}")
        return bytes(self._encryptor.update(block))

    def encrypt_blocks(self, data: bytes) -> bytes:
        if len(data) % 16:
            raise ValueError(f"AES input must be a multiple of 16 bytes, got {len(data)}")
        return bytes(self._encryptor.update(data))


class _Ctr:
    def __init__(self, key: bytes, counter_block: bytes) -> None:
        pyca: Any = _pyca()
        cipher = pyca.Cipher(pyca.algorithms.AES(key), pyca.modes.CTR(counter_block))
        self._encryptor = cipher.encryptor()

    def read(self, n: int) -> bytes:
        return bytes(self._encryptor.update(bytes(n)))


class _Aes:
    name = "openssl"

    def ecb(self, key: bytes) -> AesEcb:
        return _Ecb(key)

    def ctr(self, key: bytes, counter_block: bytes) -> Keystream:
        return _Ctr(key, counter_block)


SHA3 = _Sha3()
SHA2 = _Sha2()
