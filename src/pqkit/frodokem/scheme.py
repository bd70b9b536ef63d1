"""FrodoKEM and eFrodoKEM (ISO/IEC 18033-2 Amd 2; draft-longa-cfrg-frodokem §8):
the scheme object every parameter set shares.

The arithmetic runs on the family's kernel table (:mod:`.kernels.contract`); the
hashing (SHAKE128 for n = 640, SHAKE256 above) and the AES-128 generation of A
run on the active :mod:`pqkit.common` providers. Randomness is drawn as the
reference implementation draws it, which the NIST / liboqs known answers need:
keygen asks once for s || seedSE || z, encaps once for mu || salt (eFrodoKEM: mu).
"""

from __future__ import annotations

from functools import lru_cache
from typing import cast

import numpy as np
import numpy.typing as npt

from pqkit import common
from pqkit._checks import as_bytes_len
from pqkit._ct import bytes_equal, masked_select
from pqkit._extras import require
from pqkit.frodokem.encoding import decode, encode, le16, pack, unpack
from pqkit.frodokem.kernels.contract import FrodoKernels
from pqkit.frodokem.params import CATALOG, Params
from pqkit.registry import Algorithm
from pqkit.schemes import RNG, Encapsulation, KemBase, KeyPair, draw

__all__ = ["SCHEMES", "FrodoKem"]

U16 = npt.NDArray[np.uint16]


@lru_cache(maxsize=3)
def _aes_inputs(n: int) -> bytes:
    """§6.3.1 (Frodo.Gen with AES128): the plaintext blocks <i>_16 || <j>_16 || 0^96
    for every row i and every eighth column j, in row order (public)."""
    blocks = np.zeros((n, n // 8, 8), dtype="<u2")
    blocks[:, :, 0] = np.arange(n, dtype="<u2")[:, None]
    blocks[:, :, 1] = np.arange(0, n, 8, dtype="<u2")[None, :]
    return blocks.tobytes()


def gen_a_aes(seed_a: bytes, n: int) -> U16:
    """A (n x n, uint16) from AES-128 under seedA: every block of eight entries is
    the encryption of its row and column index (§6.3.1), all in one ECB call."""
    out = common.aes128_ecb(seed_a).encrypt_blocks(_aes_inputs(n))
    return le16(out).reshape(n, n)


class FrodoKem(KemBase):
    """FrodoKEM / eFrodoKEM for one parameter set; see :class:`pqkit.schemes.Kem`
    for the public methods. ``encaps_derand``'s ``m`` is mu || salt (eFrodoKEM:
    mu), the bytes encapsulation draws."""

    KERNELS = "frodokem"

    params: Params

    def __init__(self, algorithm: Algorithm, *, arith: str | None = None) -> None:
        super().__init__(algorithm, arith=arith)
        self.params = cast(Params, algorithm.params)
        self._cdf = np.array(self.params.cdf, dtype=np.uint16)
        self.length_encaps_m = self.params.len_mu + self.params.len_salt
        """Bytes of ``encaps_derand``'s ``m``: mu || salt (eFrodoKEM: mu)."""

    # --- the symmetric pieces ---------------------------------------------------------

    def shake(self, data: bytes, n: int) -> bytes:
        """The first ``n`` bytes of SHAKE128 (n = 640) or SHAKE256 of ``data``: the
        set's hash (draft-longa-cfrg-frodokem §5.1)."""
        if self.params.shake_bits == 128:
            return common.shake128_digest(data, n)
        return common.shake256_digest(data, n)

    def _check_aes(self) -> None:
        """The AES sets need the 'openssl' extra (pyca/cryptography): without it A
        would come from the pure-Python AES, seconds per operation, so they raise
        :class:`pqkit.MissingExtra`, as the catalogue's ``extra`` says. Where it is
        installed the provider choice applies as for Kyber-90s (``use(aes="python")``
        runs the pure-Python AES)."""
        if self.params.aes:
            require("openssl", f"{self.name} (A by AES-128 at OpenSSL's speed)")

    def _matrix_a(self, K: FrodoKernels, seed_a: bytes) -> U16:
        p = self.params
        return gen_a_aes(seed_a, p.n) if p.aes else K.shake_a(seed_a, p.n)

    def _noise(self, K: FrodoKernels, prefix: int, seed_se: bytes, count: int) -> U16:
        """``count`` samples of chi from SHAKE(prefix || seedSE) (§8.1 step 5, §8.2
        step 4): 16-bit little-endian words through Frodo.Sample."""
        r = le16(self.shake(bytes([prefix]) + seed_se, 2 * count))
        return K.sample(r, self._cdf)

    # --- the three algorithms ---------------------------------------------------------

    def _keygen(self, K: FrodoKernels, randomness: bytes) -> KeyPair:
        """§8.1 (FrodoKEM.KeyGen) from s || seedSE || z."""
        p = self.params
        n, nbar, ls = p.n, p.nbar, p.len_sec
        s, seed_se, z = randomness[:ls], randomness[ls:-16], randomness[-16:]
        seed_a = self.shake(z, p.len_seed_a)
        a = self._matrix_a(K, seed_a)
        noise = self._noise(K, 0x5F, seed_se, 2 * n * nbar)
        s_t = noise[: n * nbar].reshape(nbar, n)
        e = noise[n * nbar :].reshape(n, nbar)
        b = K.as_plus_e(a, s_t, e, p.logq)
        pk = seed_a + pack(b, p.logq)
        pkh = self.shake(pk, ls)
        sk = s + pk + s_t.astype("<u2").tobytes() + pkh
        return KeyPair(pk, sk)

    def _encrypt(
        self, K: FrodoKernels, pk: bytes, a: U16 | None, mu: bytes, seed_se: bytes
    ) -> tuple[bytes, bytes]:
        """§8.2 steps 4-9 (FrodoPKE.Enc): c1 = Pack(S'A + E'), c2 = Pack(S'B + E'' +
        Encode(mu)); A is generated here unless given."""
        p = self.params
        n, nbar, logq = p.n, p.nbar, p.logq
        noise = self._noise(K, 0x96, seed_se, (2 * n + nbar) * nbar)
        s1 = noise[: nbar * n].reshape(nbar, n)
        e1 = noise[nbar * n : 2 * nbar * n].reshape(nbar, n)
        e2 = noise[2 * nbar * n :].reshape(nbar, nbar)
        if a is None:
            a = self._matrix_a(K, pk[: p.len_seed_a])
        b1 = K.sa_plus_e(a, s1, e1, logq)
        b = unpack(pk[p.len_seed_a :], n, nbar, logq)
        v = K.sb_plus_e(b, s1, e2, logq)
        c = (v + encode(mu, p.b, logq, nbar)) & np.uint16((1 << logq) - 1)
        return pack(b1, logq), pack(c, logq)

    def _encaps(self, K: FrodoKernels, pk: bytes, mu_salt: bytes) -> Encapsulation:
        """§8.2 (FrodoKEM.Encaps) from mu || salt."""
        p = self.params
        mu, salt = mu_salt[: p.len_mu], mu_salt[p.len_mu :]
        pkh = self.shake(pk, p.len_sec)
        seeds = self.shake(pkh + mu + salt, p.len_seed_se + p.len_sec)
        seed_se, k = seeds[: p.len_seed_se], seeds[p.len_seed_se :]
        c1, c2 = self._encrypt(K, pk, None, mu, seed_se)
        ct = c1 + c2 + salt
        return Encapsulation(self.shake(ct + k, p.len_sec), ct)

    def _decaps(self, K: FrodoKernels, sk: bytes, ct: bytes) -> bytes:
        """§8.3 (FrodoKEM.Decaps): decrypt, re-encrypt, and select k' or s by a mask
        after a constant-time comparison of the whole ciphertext."""
        p = self.params
        n, nbar, logq, ls = p.n, p.nbar, p.logq, p.len_sec
        s = sk[:ls]
        pk = sk[ls : ls + p.length_public_key]
        at = ls + p.length_public_key
        s_t = le16(sk[at : at + 2 * n * nbar]).reshape(nbar, n)
        pkh = sk[at + 2 * n * nbar :]
        c1, c2 = ct[: p.len_b], ct[p.len_b : p.len_b + p.len_c2]
        salt = ct[p.len_b + p.len_c2 :]
        b1 = unpack(c1, nbar, n, logq)
        c = unpack(c2, nbar, nbar, logq)
        m = (c - K.bs(b1, s_t, logq)) & np.uint16((1 << logq) - 1)
        mu = decode(m, p.b, logq)
        seeds = self.shake(pkh + mu + salt, p.len_seed_se + ls)
        seed_se, k = seeds[: p.len_seed_se], seeds[p.len_seed_se :]
        c1_again, c2_again = self._encrypt(K, pk, None, mu, seed_se)
        same = bytes_equal(c1 + c2, c1_again + c2_again)
        return self.shake(ct + masked_select(same, k, s), ls)

    # --- public API -------------------------------------------------------------------

    def keygen(self, *, rng: RNG | None = None) -> KeyPair:
        """A new key pair; asks ``rng`` once for s || seedSE || z
        (:attr:`length_seed` bytes), as the reference implementation does."""
        self._check_aes()
        return self._keygen(self._kernels(), draw(rng, self.length_seed))

    def keygen_derand(self, seed: bytes) -> KeyPair:
        """The key pair of ``seed`` = s || seedSE || z (:attr:`length_seed` bytes)."""
        seed = as_bytes_len(seed, "seed (s || seedSE || z)", self.length_seed)
        self._check_aes()
        return self._keygen(self._kernels(), seed)

    def encaps(self, public_key: bytes, *, rng: RNG | None = None) -> Encapsulation:
        """(shared_secret, ciphertext) for ``public_key``; asks ``rng`` once for
        mu || salt (eFrodoKEM: mu) after checking the key's length."""
        pk = as_bytes_len(public_key, "public key", self.length_public_key)
        self._check_aes()
        return self._encaps(self._kernels(), pk, draw(rng, self.length_encaps_m))

    def encaps_derand(self, public_key: bytes, m: bytes) -> Encapsulation:
        """Encapsulation with the given ``m`` = mu || salt (eFrodoKEM: mu)."""
        pk = as_bytes_len(public_key, "public key", self.length_public_key)
        p = self.params
        name = "m (mu)" if p.ephemeral else "m (mu || salt)"
        self._check_aes()
        return self._encaps(self._kernels(), pk, as_bytes_len(m, name, self.length_encaps_m))

    def decaps(self, secret_key: bytes, ciphertext: bytes) -> bytes:
        """The shared secret of ``ciphertext``; one that does not re-encrypt gives
        the implicit-rejection key F(ct || s), not an error."""
        ct = as_bytes_len(ciphertext, "ciphertext", self.length_ciphertext)
        sk = as_bytes_len(secret_key, "secret key", self.length_secret_key)
        self._check_aes()
        return self._decaps(self._kernels(), sk, ct)


SCHEMES = {alg.name: FrodoKem(alg) for alg in CATALOG}
