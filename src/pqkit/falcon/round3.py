"""Falcon-512, Falcon-1024 and their padded forms (round-3 specification v1.2, as
liboqs 0.16 ships them): the scheme objects.

Randomness requests follow the reference implementation (and so liboqs's
known-answer tests, ``pqkit kat``): key generation asks ``rng`` for one 48-byte
seed (SHAKE256 input of NTRUGen); signing asks for the 40-byte nonce r, then for a
48-byte sampler seed (SHAKE256 input; each signing attempt keys the sampler's
ChaCha20 generator with 56 bytes of it).

Falcon has no deterministic signing and no hedge: the nonce and the sampler seed
are the whole of the signing randomness, and a pair used twice (or a nonce reused
with another message) hands out lattice information about the secret key. So
:meth:`Falcon.sign` takes no ``rnd=`` and refuses ``deterministic=True``; the
derandomised entry point for known-answer tests is
:meth:`Falcon.sign_derand` with ``single_use_nonce=`` / ``single_use_sampler_seed=``.
"""

from __future__ import annotations

from typing import Any

from pqkit._checks import as_bytes, as_bytes_len
from pqkit.common import shake256
from pqkit.falcon import codec, core, ntrugen
from pqkit.falcon.core import Ints
from pqkit.falcon.kernels.tables import SIGMA_MIN
from pqkit.falcon.params import CATALOG, NONCE_BYTES, SAMPLER_SEED_BYTES, Params
from pqkit.falcon.prng import ChaChaPrng
from pqkit.registry import Algorithm
from pqkit.schemes import RNG, KeyPair, SignatureBase, draw

__all__ = ["SCHEMES", "Falcon"]

_SIG_HEADER = 0x30
_SK_HEADER = 0x50
_SM_HEADER = 0x20


def _refuse(ctx: Any, prehash: Any, name: str) -> None:
    if as_bytes(ctx, "ctx"):
        raise ValueError(f"{name} (round 3) takes no context string; got {len(ctx)} bytes")
    if prehash is not None:
        raise ValueError(f"{name} (round 3) has no pre-hash variant; got prehash={prehash!r}")


class Falcon(SignatureBase):
    """One Falcon parameter set (round 3); keys and signatures are ``bytes``."""

    KERNELS = "falcon"
    BATCH = "pqkit.falcon.batch:FalconBatch"
    HAS_DETERMINISTIC = False
    """``pqkit kat`` signs randomised (the only way Falcon signs)."""

    def __init__(self, algorithm: Algorithm, *, arith: str | None = None) -> None:
        super().__init__(algorithm, arith=arith)
        params = algorithm.params
        assert isinstance(params, Params)
        self.params = params

    # --- keys ---------------------------------------------------------------------

    def _encode_keys(self, f: list[int], g: list[int], F: list[int], h: list[int]) -> KeyPair:
        p = self.params
        pk = bytes([p.logn]) + codec.modq_encode(h)
        sk = (
            bytes([_SK_HEADER + p.logn])
            + codec.trim_i8_encode(f, p.fg_bits)
            + codec.trim_i8_encode(g, p.fg_bits)
            + codec.trim_i8_encode(F, 8)
        )
        return KeyPair(pk, sk)

    def _public(self, public_key: bytes) -> Ints:
        """h from a public key (§3.11.4); ValueError naming what is wrong."""
        p = self.params
        pk = as_bytes_len(public_key, f"{self.name} public key", self.length_public_key)
        if pk[0] != p.logn:
            raise ValueError(
                f"{self.name} public key: header byte 0x{pk[0]:02x}, expected 0x{p.logn:02x}"
            )
        h = codec.modq_decode(pk[1:], p.n)
        if h is None:
            raise ValueError(
                f"{self.name} public key: a coefficient is not below q = 12289 "
                "(or the padding bits are not zero)"
            )
        return h

    def _secret(self, secret_key: bytes) -> tuple[Ints, Ints, Ints, Ints]:
        """(f, g, F, G) from a secret key (§3.11.5); ValueError naming what is wrong."""
        p = self.params
        sk = as_bytes_len(secret_key, f"{self.name} secret key", self.length_secret_key)
        if sk[0] != _SK_HEADER + p.logn:
            raise ValueError(
                f"{self.name} secret key: header byte 0x{sk[0]:02x}, "
                f"expected 0x{_SK_HEADER + p.logn:02x}"
            )
        w = (p.fg_bits * p.n) // 8
        parts = (
            codec.trim_i8_decode(sk[1 : 1 + w], p.n, p.fg_bits),
            codec.trim_i8_decode(sk[1 + w : 1 + 2 * w], p.n, p.fg_bits),
            codec.trim_i8_decode(sk[1 + 2 * w :], p.n, 8),
        )
        for label, part in zip("fgF", parts, strict=True):
            if part is None:
                raise ValueError(f"{self.name} secret key: {label} is not canonically encoded")
        f, g, F = (v for v in parts if v is not None)
        G = core.complete_private(self._kernels(), f, g, F)
        if G is None:
            raise ValueError(
                f"{self.name} secret key: (f, g, F) is not a Falcon key "
                "(f is not invertible mod q, or G = g F / f is out of range)"
            )
        return f, g, F, G

    def keygen(self, *, rng: RNG | None = None) -> KeyPair:
        """A key pair from a fresh 48-byte seed (one request to ``rng``, else os.urandom)."""
        return self.keygen_derand(draw(rng, self.length_seed))

    def keygen_derand(self, seed: bytes, /) -> KeyPair:
        """NTRUGen (§3.8.2, Algorithm 5) on SHAKE256(seed), seed 48 bytes: the
        reference's key pair for that seed."""
        seed = as_bytes_len(seed, f"{self.name} keygen seed", self.length_seed)
        f, g, F, _G, h = ntrugen.keygen_from_xof(shake256(seed), self.params.logn)
        return self._encode_keys(f, g, F, h)

    def public_key_from_secret(self, secret_key: bytes) -> bytes:
        """The public key h = g / f mod q of a secret key."""
        f, g, _F, _G = self._secret(secret_key)
        h = ntrugen.public_from_fg(f.tolist(), g.tolist())
        if h is None:  # pragma: no cover - _secret checked f's invertibility
            raise ValueError(f"{self.name} secret key: f is not invertible mod q")
        return bytes([self.params.logn]) + codec.modq_encode(h)

    # --- signing -------------------------------------------------------------------

    # SignatureBase.sign / verify (the public signature, written once) call these
    # three hooks.

    def _m_prime(self, message: Any, ctx: Any, prehash: str | None) -> bytes:
        """Falcon signs the message itself: no ``ctx``, no pre-hash (refused)."""
        _refuse(ctx, prehash, self.name)
        return as_bytes(message, "message")

    def _sign_m_prime(
        self, secret_key: Any, m_prime: bytes, deterministic: bool, rnd: Any, rng: RNG | None
    ) -> bytes:
        """Sign (§3.10, Algorithm 10): a fresh 40-byte nonce, then a 48-byte sampler
        seed from ``rng`` (else os.urandom). ``rnd=`` and ``deterministic=True`` are
        refused (the class note says why)."""
        if rnd is not None:
            raise TypeError(
                f"{self.name} does not take rnd=: Falcon's signing randomness (nonce and "
                "sampler seed) is not hedged, and reusing it leaks the secret key. Use rng=; "
                "sign_derand(single_use_nonce=, single_use_sampler_seed=) exists for "
                "known-answer tests"
            )
        if deterministic:
            raise ValueError(
                f"{self.name} (round 3) has no deterministic signing: a signature needs "
                "fresh randomness (nonce and sampler seed)"
            )
        keys = self._secret(secret_key)
        nonce = draw(rng, NONCE_BYTES)
        seed = draw(rng, SAMPLER_SEED_BYTES)
        return self._sign(keys, m_prime, nonce, seed)

    def sign_derand(
        self,
        secret_key: bytes,
        message: bytes,
        *,
        single_use_nonce: bytes,
        single_use_sampler_seed: bytes,
    ) -> bytes:
        """Sign with the given 40-byte nonce and 48-byte sampler seed, for
        known-answer tests. DANGER: each value must be used for one signature only;
        two signatures sharing them (or sharing the nonce over two messages) give
        away lattice information about the secret key."""
        msg = as_bytes(message, "message")
        nonce = as_bytes_len(single_use_nonce, "single_use_nonce", NONCE_BYTES)
        seed = as_bytes_len(single_use_sampler_seed, "single_use_sampler_seed", SAMPLER_SEED_BYTES)
        return self._sign(self._secret(secret_key), msg, nonce, seed)

    def _sign(
        self,
        keys: tuple[Ints, Ints, Ints, Ints],
        msg: bytes,
        nonce: bytes,
        seed: bytes,
    ) -> bytes:
        p = self.params
        k = self._kernels()
        f, g, F, G = keys
        hm = core.hash_to_point(nonce, msg, p.n)
        xof = shake256(seed)
        room = p.length_signature - 1 - NONCE_BYTES
        while True:
            # NOTE: the reference (compressed sets) fails when the compressed s2 does
            # not fit; the padded sets' loop is used for both (probability ~0).
            prng = ChaChaPrng(xof.read(56))
            s2 = core.sign_attempt(k, f, g, F, G, hm, prng, p.logn, SIGMA_MIN[p.logn])
            if s2 is None:
                continue
            body = codec.comp_encode(s2, room)
            if body is not None:
                break
        if p.padded:
            body += bytes(room - len(body))
        return bytes([_SIG_HEADER + p.logn]) + nonce + body

    # --- verification ----------------------------------------------------------------

    def _verify_m_prime(
        self, public_key: Any, m_prime: bytes, message: Any, signature: Any
    ) -> bool:
        """Verify (§3.10, Algorithm 16): False for any malformed signature (header,
        length, encoding); ValueError for a malformed public key."""
        sig = as_bytes(signature, "signature")
        if self.params.padded:
            self._refuse_swapped(m_prime, sig)
        return self._verify(self._public(public_key), m_prime, sig)

    def verify_internal(self, public_key: bytes, m_prime: bytes, signature: bytes) -> bool:
        """Falcon signs the message as is: the same as :meth:`verify`."""
        return self.verify(public_key, m_prime, signature)

    def _s2(self, sig: bytes) -> Any:
        """s2 from a signature, or None when it is malformed."""
        p = self.params
        if len(sig) < 1 + NONCE_BYTES + 1 or len(sig) > p.length_signature:
            return None
        if p.padded and len(sig) != p.length_signature:
            return None
        if sig[0] != _SIG_HEADER + p.logn:
            return None
        body = sig[1 + NONCE_BYTES :]
        decoded = codec.comp_decode(body, p.n)
        if decoded is None:
            return None
        s2, used = decoded
        if used != len(body):
            # Zero padding up to the padded length is the padded format; liboqs's
            # compressed verifier accepts it too (interoperability), nothing else.
            padded_room = _PADDED_LENGTH[p.logn] - 1 - NONCE_BYTES
            if len(body) != padded_room or any(body[used:]):  # public bytes
                return None
        return s2

    def _verify(self, h: Ints, msg: bytes, sig: bytes) -> bool:
        s2 = self._s2(sig)
        if s2 is None:
            return False
        hm = core.hash_to_point(sig[1 : 1 + NONCE_BYTES], msg, self.params.n)
        return core.verify_raw(self._kernels(), hm, s2, h, self.params.logn)

    # --- known-answer layout -----------------------------------------------------------

    def kat_signed_message(self, signature: bytes, message: bytes) -> bytes:
        """The ``sm`` of the reference's crypto_sign (liboqs's KAT text): the padded
        sets ``signature || message``; the compressed sets ``len16be(1 + len(body)) ||
        nonce || message || 0x20 + logn || body``."""
        if self.params.padded:
            return signature + message
        body = signature[1 + NONCE_BYTES :]
        return (
            (1 + len(body)).to_bytes(2, "big")
            + signature[1 : 1 + NONCE_BYTES]
            + message
            + bytes([_SM_HEADER + self.params.logn])
            + body
        )


_PADDED_LENGTH = {9: 666, 10: 1280}

SCHEMES: dict[str, Falcon] = {a.name: Falcon(a) for a in CATALOG}
