"""The shared symmetric layer ("common code", docs/architecture.md §5).

SHA-3/SHAKE (FIPS 202), TurboSHAKE (RFC 9861), SHA-2 (FIPS 180-4), AES-128 (ECB)
and AES-256 (FIPS 197, ECB and CTR) and the SP 800-90A CTR_DRBG of the NIST KATs
(:class:`CtrDrbg`), each primitive served by a swappable backend (``openssl`` and ``python``); see
:mod:`pqkit.common.select` for how one is chosen. Every function takes an optional
``backend=`` naming the provider for that call.

The objects returned here (XOFs, AES ciphers, keystreams) check their arguments;
scheme code on a hot path may call :func:`provider` and use the unchecked
provider objects directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pqkit._checks import as_bytes, as_bytes_len
from pqkit.common.drbg import CtrDrbg
from pqkit.common.providers import AesEcb, Keystream, Xof
from pqkit.common.select import backends, provider, use

if TYPE_CHECKING:  # NumPy loads with the batched calls, so the package stays light
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "AesEcb",
    "CtrDrbg",
    "Keystream",
    "Xof",
    "aes128_ecb",
    "aes256_ctr",
    "aes256_ctr_many",
    "aes256_ecb",
    "backends",
    "provider",
    "sha3_224",
    "sha3_256",
    "sha3_384",
    "sha3_512",
    "sha224",
    "sha256",
    "sha384",
    "sha512",
    "sha512_224",
    "sha512_256",
    "shake128",
    "shake128_digest",
    "shake128_many",
    "shake256",
    "shake256_digest",
    "shake256_many",
    "turboshake128",
    "turboshake128_digest",
    "turboshake256",
    "turboshake256_digest",
    "use",
]


def _length(n: object, name: str = "n") -> int:
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"{name} must be an int, not {type(n).__name__}")
    if n < 0:
        raise ValueError(f"{name} must be >= 0, got {n}")
    return n


class _CheckedXof:
    """An :class:`Xof` that checks its arguments before passing them on."""

    __slots__ = ("_xof",)

    def __init__(self, xof: Xof) -> None:
        self._xof = xof

    def update(self, data: bytes) -> None:
        """Absorb more ``data``; ``ValueError`` after the first ``read``."""
        self._xof.update(as_bytes(data, "data"))

    def read(self, n: int) -> bytes:
        """The next ``n`` bytes of output (incremental squeeze)."""
        return self._xof.read(_length(n))

    def copy(self) -> Xof:
        """An independent XOF in the same state."""
        return _CheckedXof(self._xof.copy())


class _CheckedEcb:
    """An :class:`AesEcb` that checks block lengths."""

    __slots__ = ("_ecb",)

    def __init__(self, ecb: AesEcb) -> None:
        self._ecb = ecb

    def encrypt_block(self, block: bytes) -> bytes:
        """Encrypt one 16-byte block."""
        return self._ecb.encrypt_block(as_bytes_len(block, "AES block", 16))

    def encrypt_blocks(self, data: bytes) -> bytes:
        """Encrypt each 16-byte block of ``data`` (ECB); its length is a multiple of 16."""
        data = as_bytes(data, "data")
        if len(data) % 16:
            raise ValueError(f"AES input must be a multiple of 16 bytes, got {len(data)}")
        return self._ecb.encrypt_blocks(data)


class _CheckedKeystream:
    """A :class:`Keystream` that checks ``n``."""

    __slots__ = ("_stream",)

    def __init__(self, stream: Keystream) -> None:
        self._stream = stream

    def read(self, n: int) -> bytes:
        """The next ``n`` keystream bytes."""
        return self._stream.read(_length(n))


# --- SHA-3 (FIPS 202) -------------------------------------------------------------


def sha3_224(data: bytes, *, backend: str | None = None) -> bytes:
    """SHA3-224 of ``data`` (FIPS 202 §6.1)."""
    return provider("sha3", backend).sha3(224, as_bytes(data, "data"))


def sha3_256(data: bytes, *, backend: str | None = None) -> bytes:
    """SHA3-256 of ``data`` (FIPS 202 §6.1)."""
    return provider("sha3", backend).sha3(256, as_bytes(data, "data"))


def sha3_384(data: bytes, *, backend: str | None = None) -> bytes:
    """SHA3-384 of ``data`` (FIPS 202 §6.1)."""
    return provider("sha3", backend).sha3(384, as_bytes(data, "data"))


def sha3_512(data: bytes, *, backend: str | None = None) -> bytes:
    """SHA3-512 of ``data`` (FIPS 202 §6.1)."""
    return provider("sha3", backend).sha3(512, as_bytes(data, "data"))


def shake128(data: bytes = b"", *, backend: str | None = None) -> Xof:
    """A SHAKE128 XOF (FIPS 202 §6.2) with ``data`` absorbed; more may be added with
    ``update`` before the first ``read``."""
    return _CheckedXof(provider("sha3", backend).shake(128, as_bytes(data, "data")))


def shake256(data: bytes = b"", *, backend: str | None = None) -> Xof:
    """A SHAKE256 XOF (FIPS 202 §6.2) with ``data`` absorbed."""
    return _CheckedXof(provider("sha3", backend).shake(256, as_bytes(data, "data")))


def shake128_digest(data: bytes, n: int, *, backend: str | None = None) -> bytes:
    """The first ``n`` bytes of SHAKE128(``data``)."""
    return provider("sha3", backend).shake_digest(128, as_bytes(data, "data"), _length(n))


def shake256_digest(data: bytes, n: int, *, backend: str | None = None) -> bytes:
    """The first ``n`` bytes of SHAKE256(``data``)."""
    return provider("sha3", backend).shake_digest(256, as_bytes(data, "data"), _length(n))


def _inputs(inputs: Sequence[bytes]) -> list[bytes]:
    if isinstance(inputs, (bytes, bytearray, memoryview, str)):
        raise TypeError("inputs must be a sequence of bytes-like objects, not a single one")
    return [as_bytes(x, f"inputs[{i}]") for i, x in enumerate(inputs)]


def shake128_many(
    inputs: Sequence[bytes], n: int, *, backend: str | None = None
) -> npt.NDArray[np.uint8]:
    """A ``(len(inputs), n)`` uint8 array: row i is SHAKE128(inputs[i])[:n]."""
    return provider("sha3", backend).shake_many(128, _inputs(inputs), _length(n))


def shake256_many(
    inputs: Sequence[bytes], n: int, *, backend: str | None = None
) -> npt.NDArray[np.uint8]:
    """A ``(len(inputs), n)`` uint8 array: row i is SHAKE256(inputs[i])[:n]."""
    return provider("sha3", backend).shake_many(256, _inputs(inputs), _length(n))


# --- TurboSHAKE (RFC 9861) --------------------------------------------------------


def _domain(domain: object) -> int:
    if not isinstance(domain, int) or isinstance(domain, bool):
        raise TypeError(f"domain must be an int, not {type(domain).__name__}")
    if not 0x01 <= domain <= 0x7F:
        raise ValueError(f"TurboSHAKE domain byte must be in 0x01-0x7F, got {domain:#x}")
    return domain


def turboshake128(data: bytes = b"", *, domain: int = 0x1F, backend: str | None = None) -> Xof:
    """A TurboSHAKE128 XOF (RFC 9861 §2.2) with domain separation byte ``domain``
    (0x01-0x7F, default 0x1F) and ``data`` absorbed. No OpenSSL provides
    TurboSHAKE: both backends run pqkit's pure-Python KECCAK-p[1600, 12]."""
    xof = provider("sha3", backend).turboshake(128, as_bytes(data, "data"), _domain(domain))
    return _CheckedXof(xof)


def turboshake256(data: bytes = b"", *, domain: int = 0x1F, backend: str | None = None) -> Xof:
    """A TurboSHAKE256 XOF (RFC 9861 §2.2); see :func:`turboshake128`."""
    xof = provider("sha3", backend).turboshake(256, as_bytes(data, "data"), _domain(domain))
    return _CheckedXof(xof)


def turboshake128_digest(
    data: bytes, n: int, *, domain: int = 0x1F, backend: str | None = None
) -> bytes:
    """The first ``n`` bytes of TurboSHAKE128(``data``, ``domain``)."""
    return turboshake128(data, domain=domain, backend=backend).read(_length(n))


def turboshake256_digest(
    data: bytes, n: int, *, domain: int = 0x1F, backend: str | None = None
) -> bytes:
    """The first ``n`` bytes of TurboSHAKE256(``data``, ``domain``)."""
    return turboshake256(data, domain=domain, backend=backend).read(_length(n))


# --- SHA-2 (FIPS 180-4) -----------------------------------------------------------


def sha224(data: bytes, *, backend: str | None = None) -> bytes:
    """SHA-224 of ``data``."""
    return provider("sha2", backend).sha2("sha224", as_bytes(data, "data"))


def sha256(data: bytes, *, backend: str | None = None) -> bytes:
    """SHA-256 of ``data``."""
    return provider("sha2", backend).sha2("sha256", as_bytes(data, "data"))


def sha384(data: bytes, *, backend: str | None = None) -> bytes:
    """SHA-384 of ``data``."""
    return provider("sha2", backend).sha2("sha384", as_bytes(data, "data"))


def sha512(data: bytes, *, backend: str | None = None) -> bytes:
    """SHA-512 of ``data``."""
    return provider("sha2", backend).sha2("sha512", as_bytes(data, "data"))


def sha512_224(data: bytes, *, backend: str | None = None) -> bytes:
    """SHA-512/224 of ``data``."""
    return provider("sha2", backend).sha2("sha512_224", as_bytes(data, "data"))


def sha512_256(data: bytes, *, backend: str | None = None) -> bytes:
    """SHA-512/256 of ``data``."""
    return provider("sha2", backend).sha2("sha512_256", as_bytes(data, "data"))


# --- AES-128 and AES-256 (FIPS 197; SP 800-38A CTR) ------------------------------


def aes128_ecb(key: bytes, *, backend: str | None = None) -> AesEcb:
    """AES-128 with ``key`` (16 bytes), encrypting 16-byte blocks (FrodoKEM's
    generation of A, ISO/IEC 18033-2 Amd 2; draft-longa-cfrg-frodokem §6.3.1)."""
    return _CheckedEcb(provider("aes", backend).ecb(as_bytes_len(key, "AES-128 key", 16)))


def aes256_ecb(key: bytes, *, backend: str | None = None) -> AesEcb:
    """AES-256 with ``key`` (32 bytes), encrypting single 16-byte blocks."""
    return _CheckedEcb(provider("aes", backend).ecb(as_bytes_len(key, "AES-256 key", 32)))


def aes256_ctr(key: bytes, counter_block: bytes, *, backend: str | None = None) -> Keystream:
    """The AES-256-CTR keystream for ``key`` starting at ``counter_block`` (16 bytes).

    The whole block is a 128-bit big-endian counter, incremented once per block
    (SP 800-38A, Appendix B.1 with m = 128), as Kyber-90s and Dilithium-AES use it.
    """
    return _CheckedKeystream(
        provider("aes", backend).ctr(
            as_bytes_len(key, "AES-256 key", 32),
            as_bytes_len(counter_block, "AES-256-CTR counter block", 16),
        )
    )


def aes256_ctr_many(
    key: bytes, nonces: Sequence[bytes], n: int, *, backend: str | None = None
) -> npt.NDArray[np.uint8]:
    """The first ``n`` bytes of AES-256-CTR under ``key`` for each 12-byte nonce
    (counter block = nonce || 32-bit big-endian block counter from 0): a
    (len(nonces), n) uint8 array, all streams encrypted in one ECB call."""
    from pqkit.common.ctr import NONCE_BYTES, ctr_keystreams

    ecb = provider("aes", backend).ecb(as_bytes_len(key, "AES-256 key", 32))
    checked = tuple(as_bytes_len(x, "AES-256-CTR nonce", NONCE_BYTES) for x in nonces)
    return ctr_keystreams(ecb, checked, _length(n))
