"""The NIST SP 800-90A CTR_DRBG with AES-256 and no derivation function.

This is the generator behind ``randombytes`` in the NIST post-quantum KAT
programs (``rng.c``): SP 800-90A Rev. 1 §10.2.1 with seedlen = 384 bits, no
derivation function, no prediction resistance. Its output for a given entropy
input is fixed, so ``CtrDrbg(seed)`` reproduces KAT randomness exactly, provided
the bytes are requested in the same pieces (every request ends with an Update,
so one request of 64 bytes differs from two of 32).
"""

from __future__ import annotations

from pqkit._checks import as_bytes, as_bytes_len
from pqkit._secret import Uncopyable
from pqkit.common.counter import counter_blocks, guarded_counter
from pqkit.common.select import provider

__all__ = ["MAX_BYTES_PER_REQUEST", "RESEED_INTERVAL", "CtrDrbg"]

SEEDLEN = 48  # bytes: keylen (32) + blocklen (16), SP 800-90A Table 3 for AES-256
MAX_BYTES_PER_REQUEST = 1 << 16  # max_number_of_bits_per_request = 2^19 bits (Table 3)
RESEED_INTERVAL = 1 << 48  # reseed_interval: at most 2^48 requests between reseeds (Table 3)


def _pad_input(value: object, name: str) -> bytes:
    """An optional input of at most seedlen bytes, padded with zeros to seedlen
    (SP 800-90A §10.2.1.3.1 step 2, §10.2.1.4.1 step 2, §10.2.1.5.1 step 2.2)."""
    data = as_bytes(value, name)
    if len(data) > SEEDLEN:
        raise ValueError(f"{name} must be at most {SEEDLEN} bytes, got {len(data)}")
    return data + bytes(SEEDLEN - len(data))


class CtrDrbg(Uncopyable):
    """CTR_DRBG (AES-256, no derivation function), callable as ``drbg(n) -> bytes``.

    ``entropy_input`` is exactly 48 bytes; ``personalization`` (at most 48 bytes)
    is zero-padded and XORed into it (SP 800-90A §10.2.1.3.1). The object can be
    passed as ``rng=`` to any pqkit call. ``backend`` names the AES provider (see
    :func:`pqkit.common.provider`); it is resolved once, here.

    Limits (SP 800-90A Table 3): one request gives at most 65536 bytes
    (2^19 bits), a larger one raises ``ValueError``; after 2^48 requests without
    a reseed, ``generate`` raises ``RuntimeError`` until :meth:`reseed` is called.

    ``copy.copy``, ``copy.deepcopy`` and pickling raise ``TypeError``: a copy would
    repeat the original's output stream, and a pickle would hold its key.
    """

    __slots__ = ("_aes", "_ecb", "_key", "_reseed_counter", "_v")
    _uncopyable_hint = "create a new CtrDrbg from fresh entropy instead"

    def __init__(
        self,
        entropy_input: bytes,
        personalization: bytes = b"",
        *,
        backend: str | None = None,
    ) -> None:
        entropy = as_bytes_len(entropy_input, "CTR_DRBG entropy_input", SEEDLEN)
        pers = _pad_input(personalization, "CTR_DRBG personalization")
        self._aes = provider("aes", backend)
        # SP 800-90A §10.2.1.3.1 (Instantiate, no df): Key = 0^keylen, V = 0^blocklen.
        self._key = bytes(32)
        self._v = guarded_counter(bytes(16))  # V as 2^130 + V (pqkit.common.counter)
        self._ecb = self._aes.ecb(self._key)
        self._update(bytes(a ^ b for a, b in zip(entropy, pers, strict=True)))
        self._reseed_counter = 1

    def _blocks(self, count: int) -> bytes:
        """Encrypt V+1, ..., V+count under Key in one call, and advance V."""
        counters, self._v = counter_blocks(self._v, count, start=1)
        return self._ecb.encrypt_blocks(counters)

    def _set_state(self, temp: bytes) -> None:
        self._key, self._v = temp[:32], guarded_counter(temp[32:])
        self._ecb = self._aes.ecb(self._key)  # one cipher object per key

    def _update(self, provided_data: bytes) -> None:
        """CTR_DRBG_Update (SP 800-90A §10.2.1.2); ``provided_data`` is 48 bytes."""
        temp = self._blocks(3)
        self._set_state(bytes(a ^ b for a, b in zip(temp, provided_data, strict=True)))

    def reseed(self, entropy_input: bytes, additional_input: bytes = b"") -> None:
        """CTR_DRBG_Reseed (SP 800-90A §10.2.1.4.1, no df): 48 bytes of fresh
        entropy, optional additional input of at most 48 bytes."""
        entropy = as_bytes_len(entropy_input, "CTR_DRBG entropy_input", SEEDLEN)
        additional = _pad_input(additional_input, "CTR_DRBG additional_input")
        self._update(bytes(a ^ b for a, b in zip(entropy, additional, strict=True)))
        self._reseed_counter = 1

    def generate(self, n: int, additional_input: bytes = b"") -> bytes:
        """CTR_DRBG_Generate (SP 800-90A §10.2.1.5.1, no df): ``n`` bytes.

        With empty ``additional_input`` this is one NIST ``randombytes(buf, n)``.
        """
        if not isinstance(n, int) or isinstance(n, bool):
            raise TypeError(f"n must be an int, not {type(n).__name__}")
        if not 0 <= n <= MAX_BYTES_PER_REQUEST:
            raise ValueError(
                f"a CTR_DRBG request must be 0..{MAX_BYTES_PER_REQUEST} bytes "
                f"(SP 800-90A max_number_of_bits_per_request = 2^19), got {n}"
            )
        if self._reseed_counter > RESEED_INTERVAL:
            raise RuntimeError(
                "CTR_DRBG reseed required: 2^48 requests since the last (re)seed "
                "(SP 800-90A reseed_interval); call reseed()"
            )
        additional = b""
        if additional_input:
            additional = _pad_input(additional_input, "CTR_DRBG additional_input")
            self._update(additional)
        blocks = (n + 15) // 16
        # The n bytes of output, then the three blocks of the closing Update, all
        # under the same Key and consecutive V values: one call to the cipher.
        stream = self._blocks(blocks + 3)
        temp = stream[16 * blocks :]
        if additional:
            temp = bytes(a ^ b for a, b in zip(temp, additional, strict=True))
        self._set_state(temp)
        self._reseed_counter += 1
        return stream[:n]

    def __call__(self, n: int) -> bytes:
        """``generate(n)``: the ``rng(n) -> bytes`` interface."""
        return self.generate(n)

    def __repr__(self) -> str:
        return "CtrDrbg(<AES-256, no df>)"
