"""The scheme object shared by every K-PKE based KEM.

:class:`KpkeKem` holds a parameter set, a symmetric suite and an arithmetic
backend choice, checks arguments, draws randomness, and leaves the FO transform
(the ``*_internal`` methods) to its subclasses: ML-KEM (:mod:`pqkit.mlkem.fips203`)
and round-3 Kyber.
"""

from __future__ import annotations

from typing import Any, cast

from pqkit._checks import as_bytes_len
from pqkit._ct import bytes_equal, masked_select
from pqkit.arith.ops import operations
from pqkit.mlkem.kernels.contract import MLKEMKernels
from pqkit.mlkem.params import Params
from pqkit.mlkem.symmetric import Suite, SuiteOps
from pqkit.registry import Algorithm
from pqkit.schemes import RNG, Encapsulation, KemBase, KeyPair, draw

__all__ = ["KpkeKem", "bytes_equal", "masked_select"]


class _LazyOps:
    """A suite bound on first use, within the operation that made it: the
    whole-operation kernels (:mod:`pqkit.arith.ops`) hash inside compiled code and
    never touch it, so they skip resolving the providers (about 1.4 us a call)."""

    def __init__(self, suite: Suite) -> None:
        self._suite = suite
        self._ops: SuiteOps | None = None

    def __getattr__(self, name: str) -> Any:
        if self._ops is None:
            self._ops = self._suite.bind()
        value = getattr(self._ops, name)
        setattr(self, name, value)  # later reads of it skip __getattr__
        return value


class KpkeKem(KemBase):
    """A KEM built on K-PKE. Stateless apart from its configuration; see
    :class:`pqkit.schemes.Kem` for the public methods."""

    KERNELS = "mlkem"

    KEYGEN_DRAWS: tuple[int, ...] = (64,)
    """The ``rng`` requests keygen makes for d || z, in order. With a DRBG such as
    NIST's CTR_DRBG the split changes the bytes, so it follows each standard's
    reference code: one 64-byte ``randombytes`` call for ML-KEM (the FIPS 203 KAT
    files, mlkem-native, liboqs)."""

    params: Params

    def __init__(self, algorithm: Algorithm, suite: Suite, *, arith: str | None = None) -> None:
        super().__init__(algorithm, arith=arith)
        self.params = cast(Params, algorithm.params)
        self.suite = suite

    # --- what every operation needs -------------------------------------------------

    def _tools(self) -> tuple[SuiteOps, MLKEMKernels]:
        K = cast(MLKEMKernels, self._kernels())
        if operations("mlkem", K.backend) is None:
            # The step path hashes in every operation: bind the suite now (the lazy
            # proxy's first-use lookups cost a few us a call).
            return self.suite.bind(), K
        return cast(SuiteOps, _LazyOps(self.suite)), K

    # --- the FO transform, per variant ---------------------------------------------
    # Each gets the suite bound for this operation (ops) and the kernel table (K),
    # resolved once per public call.

    def _keygen_internal(self, ops: SuiteOps, K: MLKEMKernels, d: bytes, z: bytes) -> KeyPair:
        raise NotImplementedError

    def _encaps_internal(
        self, ops: SuiteOps, K: MLKEMKernels, ek: bytes, m: bytes, state: Any
    ) -> Encapsulation:
        raise NotImplementedError

    def _decaps_internal(
        self, ops: SuiteOps, K: MLKEMKernels, dk: bytes, c: bytes, state: Any = None
    ) -> bytes:
        raise NotImplementedError

    def _check_encapsulation_key(self, ek: bytes, ops: SuiteOps, K: MLKEMKernels) -> Any:
        """Input checks on ek beyond its length (none by default). May return the
        decoded key (a variant's own state), which encapsulation then reuses."""
        return None

    def _check_decapsulation_key(self, dk: bytes, ops: SuiteOps, K: MLKEMKernels) -> Any:
        """Input checks on dk beyond its length (none by default). May return the
        decoded key (a variant's own state), which decapsulation then reuses."""
        return None

    # --- public API ----------------------------------------------------------------

    def keygen(self, *, rng: RNG | None = None) -> KeyPair:
        """A new key pair; asks ``rng`` for d || z in the requests of
        :attr:`KEYGEN_DRAWS` (ML-KEM: one 64-byte request, as FIPS 203's reference
        code, mlkem-native and liboqs draw it; round-3 Kyber: d, then z).
        For ML-KEM: FIPS 203, Algorithm 19 (ML-KEM.KeyGen)."""
        seed = b"".join(draw(rng, size) for size in self.KEYGEN_DRAWS)
        return self._keygen_internal(*self._tools(), seed[:32], seed[32:])

    def keygen_derand(self, seed: bytes) -> KeyPair:
        """The key pair of the 64-byte seed d || z."""
        seed = as_bytes_len(seed, "seed (d || z)", 64)
        return self._keygen_internal(*self._tools(), seed[:32], seed[32:])

    def encaps(self, public_key: bytes, *, rng: RNG | None = None) -> Encapsulation:
        """(shared_secret, ciphertext) for ``public_key``; asks ``rng`` for m (32 bytes)
        after checking the key. For ML-KEM: FIPS 203, Algorithm 20 (ML-KEM.Encaps)."""
        ops, K = self._tools()
        ek = as_bytes_len(public_key, "public key", self.length_public_key)
        return self._encaps_checked(ops, K, ek, rng)

    def encaps_derand(self, public_key: bytes, m: bytes) -> Encapsulation:
        """Encapsulation with the given 32 bytes of randomness ``m``."""
        ops, K = self._tools()
        ek, state = self._checked_public_key(public_key, ops, K)
        m = as_bytes_len(m, "m", 32)
        return self._encaps_internal(ops, K, ek, m, state)

    def decaps(self, secret_key: bytes, ciphertext: bytes) -> bytes:
        """The shared secret of ``ciphertext``; a ciphertext that does not
        re-encrypt gives the implicit-rejection key, not an error. For ML-KEM:
        FIPS 203, Algorithm 21 (ML-KEM.Decaps)."""
        c = as_bytes_len(ciphertext, "ciphertext", self.length_ciphertext)
        dk = as_bytes_len(secret_key, "secret key", self.length_secret_key)
        return self._decaps_checked(*self._tools(), dk, c)

    def _encaps_checked(
        self, ops: SuiteOps, K: MLKEMKernels, ek: bytes, rng: RNG | None
    ) -> Encapsulation:
        """The input checks on ek (of the right length), then m from ``rng``, then
        the variant's Encaps_internal; a variant may run them as one call."""
        state = self._check_encapsulation_key(ek, ops, K)
        return self._encaps_internal(ops, K, ek, draw(rng, 32), state)

    def _decaps_checked(self, ops: SuiteOps, K: MLKEMKernels, dk: bytes, c: bytes) -> bytes:
        """The input checks on dk (of the right length), then the variant's
        Decaps_internal; a variant may run them as one call."""
        state = self._check_decapsulation_key(dk, ops, K)
        return self._decaps_internal(ops, K, dk, c, state)

    def _checked_public_key(
        self, public_key: bytes, ops: SuiteOps, K: MLKEMKernels
    ) -> tuple[bytes, Any]:
        ek = as_bytes_len(public_key, "public key", self.length_public_key)
        return ek, self._check_encapsulation_key(ek, ops, K)
