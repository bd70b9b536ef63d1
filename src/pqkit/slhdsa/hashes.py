"""The hash functions of SLH-DSA: FIPS 205 §11.1 (SHAKE) and §11.2 (SHA-2).

:class:`Hashes` is bound to one key (its PK.seed) for one operation. The
tweakable hash functions F, H, T_l and PRF are offered in batched form: each
takes a list of ``ADRS || payload`` byte strings (the address already in the
instantiation's layout, see :class:`pqkit.slhdsa.adrs.AdrsCodec`) and returns
the n-byte outputs in order. Everything that depends only on PK.seed is absorbed
once per key: for SHA-2, PK.seed || toByte(0, 64 - n) (and toByte(0, 128 - n)
for SHA-512) is exactly one compression block, so each hash starts from a copy
of the midstate after it (as the SPHINCS+ reference does).

The per-input loop lives in the providers' ``PrefixedHash.many``
(:mod:`pqkit.common.providers`). Given the compiled hash kernels of
:mod:`pqkit.arith` (``kernels("hash", "jit")``: n-way Keccak-f[1600] and SHA-2
compressions), :class:`KernelPrefixed` takes that method's place: one call hashes
every input of a batch, 8 states per instruction stream.

SHA-2 instantiations (FIPS 205 §11.2.1 / §11.2.2):

==========  ==========================  ==================================
function    category 1 (n = 16)         categories 3 and 5 (n = 24, 32)
==========  ==========================  ==================================
H_msg       MGF1-SHA-256                MGF1-SHA-512
PRF         SHA-256                     SHA-256
PRF_msg     HMAC-SHA-256                HMAC-SHA-512
F           SHA-256                     SHA-256
H, T_l      SHA-256                     SHA-512
==========  ==========================  ==================================
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from pqkit import common
from pqkit.common.providers import PrefixedHash, Sha2Provider
from pqkit.slhdsa.adrs import AdrsCodec
from pqkit.slhdsa.params import Params

__all__ = ["Hashes", "KernelPrefixed", "h_msg", "hmac_sha2", "mgf1_sha2", "prf_msg"]

_BLOCK = {"sha256": 64, "sha512": 128}


def mgf1_sha2(sha2: Sha2Provider, name: str, seed: bytes, length: int) -> bytes:
    """MGF1 (RFC 8017, Appendix B.2.1) over SHA-2 function ``name``."""
    out = bytearray()
    counter = 0
    while len(out) < length:
        out += sha2.sha2(name, seed + counter.to_bytes(4, "big"))
        counter += 1
    return bytes(out[:length])


def hmac_sha2(sha2: Sha2Provider, name: str, key: bytes, message: bytes) -> bytes:
    """HMAC (FIPS 198-1) over SHA-2 function ``name``; ``key`` is at most one block."""
    block = _BLOCK[name]
    k0 = key.ljust(block, b"\x00")
    inner = sha2.sha2(name, bytes(b ^ 0x36 for b in k0) + message)
    return sha2.sha2(name, bytes(b ^ 0x5C for b in k0) + inner)


def message_provider(params: Params, backend: str | None = None) -> Any:
    """The one provider H_msg and PRF_msg of ``params`` run on: SHA-2 for the SHA-2
    sets, SHA-3 (SHAKE256) for the SHAKE sets."""
    return common.provider("sha2" if params.is_sha2 else "sha3", backend)


def h_msg(
    params: Params, sha: Any, pk_seed: bytes, r: bytes, pk_root: bytes, message: bytes
) -> bytes:
    """H_msg(R, PK.seed, PK.root, M): m bytes (§11.1; §11.2: MGF1 over SHA-256 for
    n = 16, SHA-512 otherwise). ``sha`` is :func:`message_provider`'s provider."""
    m = params.m
    if not params.is_sha2:
        digest: bytes = sha.shake_digest(256, r + pk_seed + pk_root + message, m)
        return digest
    name = "sha256" if params.n == 16 else "sha512"
    inner = sha.sha2(name, r + pk_seed + pk_root + message)
    return mgf1_sha2(sha, name, r + pk_seed + inner, m)


def prf_msg(params: Params, sha: Any, sk_prf: bytes, opt_rand: bytes, message: bytes) -> bytes:
    """PRF_msg(SK.prf, opt_rand, M): n bytes (§11.1; §11.2: HMAC over SHA-256 for
    n = 16, SHA-512 otherwise). ``sha`` is :func:`message_provider`'s provider."""
    n = params.n
    if not params.is_sha2:
        digest: bytes = sha.shake_digest(256, sk_prf + opt_rand + message, n)
        return digest
    name = "sha256" if n == 16 else "sha512"
    return hmac_sha2(sha, name, sk_prf, opt_rand + message)[:n]


class KernelPrefixed:
    """A :class:`~pqkit.common.providers.PrefixedHash` on the batched hash kernels:
    ``many`` stacks the inputs (of one length, as every batch of F, H, T_l or PRF
    is) into one (count, length) array and hashes them in one kernel call."""

    __slots__ = ("_function", "_kernels", "_prefix")

    def __init__(self, kernels: Any, function: str, prefix: bytes) -> None:
        if function not in ("shake256", "sha256", "sha512"):
            raise ValueError(f"no batched kernel for {function!r}")
        self._kernels = kernels
        self._function = function
        self._prefix = prefix

    def _hash(self, rows: npt.NDArray[np.uint8], n: int) -> npt.NDArray[np.uint8]:
        k, prefix = self._kernels, self._prefix
        if self._function == "shake256":
            out: npt.NDArray[np.uint8] = k.shake_many(256, rows, n, prefix=prefix)
            return out
        full: npt.NDArray[np.uint8] = getattr(k, f"{self._function}_many")(rows, prefix=prefix)
        return full[:, :n]

    def many(self, inputs: Sequence[bytes], n: int) -> list[bytes]:
        count = len(inputs)
        if count == 0:
            return []
        width = len(inputs[0])
        rows = np.frombuffer(b"".join(inputs), dtype=np.uint8)
        if rows.size != count * width:
            raise ValueError("the inputs of one batched hash call must have one length")
        out = self._hash(rows.reshape(count, width), n).tobytes()
        return [out[i : i + n] for i in range(0, count * n, n)]


class Hashes:
    """H_msg, PRF, PRF_msg, F, H and T_l of one parameter set, bound to PK.seed.

    ``backend`` picks the symmetric provider (None: the usual selection of
    :mod:`pqkit.common`). ``kernels``, a compiled hash kernel table
    (:mod:`pqkit.arith`), takes over the batched F, H, T_l and PRF.
    """

    __slots__ = (
        "_big",
        "_big_name",
        "_sha2",
        "_sha3",
        "_small",
        "codec",
        "n",
        "params",
        "pk_seed",
    )

    def __init__(
        self, params: Params, pk_seed: bytes, backend: str | None = None, kernels: Any = None
    ) -> None:
        self.params = params
        self.n = params.n
        self.pk_seed = pk_seed
        self.codec = AdrsCodec(compressed=params.is_sha2)
        self._sha2: Sha2Provider | None = None
        self._sha3 = common.provider("sha3", backend)
        if params.is_sha2:
            sha2 = common.provider("sha2", backend)
            self._sha2 = sha2
            # F and PRF: SHA-256 in every category; H and T_l: SHA-512 for n > 16.
            self._small: PrefixedHash = sha2.sha2_prefixed("sha256", pk_seed + bytes(64 - self.n))
            self._big_name = "sha256" if self.n == 16 else "sha512"
            self._big: PrefixedHash = (
                self._small
                if self.n == 16
                else sha2.sha2_prefixed("sha512", pk_seed + bytes(128 - self.n))
            )
        else:
            # §11.1: every tweakable function is SHAKE256(PK.seed || ADRS || ..., 8n).
            self._big_name = "shake256"
            self._small = self._big = self._sha3.shake_prefixed(256, pk_seed)
        if kernels is not None:
            if params.is_sha2:
                self._small = KernelPrefixed(kernels, "sha256", pk_seed + bytes(64 - self.n))
                self._big = (
                    self._small
                    if self.n == 16
                    else KernelPrefixed(kernels, "sha512", pk_seed + bytes(128 - self.n))
                )
            else:
                self._small = self._big = KernelPrefixed(kernels, "shake256", pk_seed)

    # --- the tweakable hash functions, batched ----------------------------------------

    def f_many(self, inputs: Sequence[bytes]) -> list[bytes]:
        """F(PK.seed, ADRS, M1) for each ``ADRS || M1`` of ``inputs`` (M1: n bytes)."""
        return self._small.many(inputs, self.n)

    def prf_many(self, inputs: Sequence[bytes]) -> list[bytes]:
        """PRF(PK.seed, SK.seed, ADRS) for each ``ADRS || SK.seed`` of ``inputs``."""
        return self._small.many(inputs, self.n)

    def h_many(self, inputs: Sequence[bytes]) -> list[bytes]:
        """H(PK.seed, ADRS, M2) for each ``ADRS || M2`` of ``inputs`` (M2: 2n bytes)."""
        return self._big.many(inputs, self.n)

    def t_many(self, inputs: Sequence[bytes]) -> list[bytes]:
        """T_l(PK.seed, ADRS, M_l) for each ``ADRS || M_l`` of ``inputs`` (M_l: l n bytes)."""
        return self._big.many(inputs, self.n)

    # --- the message functions ----------------------------------------------------------

    def h_msg(self, r: bytes, pk_root: bytes, message: bytes) -> bytes:
        """H_msg(R, PK.seed, PK.root, M): m bytes (:func:`h_msg`)."""
        sha = self._sha3 if self._sha2 is None else self._sha2
        return h_msg(self.params, sha, self.pk_seed, r, pk_root, message)

    def prf_msg(self, sk_prf: bytes, opt_rand: bytes, message: bytes) -> bytes:
        """PRF_msg(SK.prf, opt_rand, M): n bytes (:func:`prf_msg`)."""
        sha = self._sha3 if self._sha2 is None else self._sha2
        return prf_msg(self.params, sha, sk_prf, opt_rand, message)
