"""RFC 9180 HPKE over the KEMs of draft-ietf-hpke-pq (see :mod:`pqkit.hpke`).

Labels, the key schedule and the contexts follow RFC 9180 §4-§5 for two-stage
KDFs (HKDF) and draft-ietf-hpke-hpke (§4 "LabeledDerive", §5.1
"CombineSecrets_OneStage", §5.3 "Export_OneStage") for one-stage KDFs.
"""

from __future__ import annotations

import hashlib
import hmac
import threading
from collections.abc import Callable
from enum import IntEnum
from typing import Any

from pqkit import common
from pqkit._checks import as_bytes, as_bytes_len
from pqkit._secret import Uncopyable
from pqkit.schemes import RNG, Encapsulation, Kem, KeyPair, draw

__all__ = [
    "AEAD",
    "KDF",
    "KEM",
    "MessageLimitReachedError",
    "Mode",
    "OpenError",
    "RecipientContext",
    "SenderContext",
    "Suite",
    "UnsupportedModeError",
]


class OpenError(ValueError):
    """``open`` / ``decrypt`` failed: the AEAD tag did not verify (wrong key, info,
    aad or psk, or a modified ciphertext or enc)."""


class MessageLimitReachedError(ValueError):
    """The context's sequence number is exhausted (RFC 9180 §5.2)."""


class UnsupportedModeError(ValueError):
    """mode_auth / mode_auth_psk: these need a KEM with AuthEncap (a DH-based KEM)."""


class Mode(IntEnum):
    """RFC 9180 §5, Table 1."""

    BASE = 0x00
    PSK = 0x01
    AUTH = 0x02
    AUTH_PSK = 0x03


class KEM(IntEnum):
    """HPKE KEM identifiers (draft-ietf-hpke-pq §7)."""

    MLKEM512 = 0x0040
    MLKEM768 = 0x0041
    MLKEM1024 = 0x0042
    MLKEM768_P256 = 0x0050
    MLKEM1024_P384 = 0x0051
    MLKEM768_X25519 = 0x647A
    XWING = 0x647A


class KDF(IntEnum):
    """HPKE KDF identifiers (RFC 9180 §7.2; draft-ietf-hpke-pq §4)."""

    HKDF_SHA256 = 0x0001
    HKDF_SHA384 = 0x0002
    HKDF_SHA512 = 0x0003
    SHAKE128 = 0x0010
    SHAKE256 = 0x0011
    TURBOSHAKE128 = 0x0012
    TURBOSHAKE256 = 0x0013


class AEAD(IntEnum):
    """HPKE AEAD identifiers (RFC 9180 §7.3)."""

    AES_128_GCM = 0x0001
    AES_256_GCM = 0x0002
    CHACHA20_POLY1305 = 0x0003
    EXPORT_ONLY = 0xFFFF


_KEM_NAMES = {
    KEM.MLKEM512: "ML-KEM-512",
    KEM.MLKEM768: "ML-KEM-768",
    KEM.MLKEM1024: "ML-KEM-1024",
    KEM.MLKEM768_P256: "MLKEM768-P256",
    KEM.MLKEM1024_P384: "MLKEM1024-P384",
    KEM.MLKEM768_X25519: "X-Wing",
}
_MLKEM = (KEM.MLKEM512, KEM.MLKEM768, KEM.MLKEM1024)

KEM_NAMES: tuple[str, ...] = tuple(_KEM_NAMES.values())
"""The pqkit KEMs that have an HPKE KEM identifier, by their canonical names."""


def kem_named(name: str) -> KEM:
    """The HPKE KEM identifier of the pqkit KEM called ``name`` (any spelling or
    alias :func:`pqkit.kem` accepts); ValueError listing :data:`KEM_NAMES` for a
    KEM without one."""
    from pqkit import registry

    canonical = registry.algorithm(name, "kem").name
    for kem, kem_name in _KEM_NAMES.items():
        if kem_name == canonical:
            return kem
    raise ValueError(f"{name} has no HPKE KEM identifier; HPKE KEMs: {', '.join(KEM_NAMES)}")


# (Nk, Nn) of each AEAD; Nt = 16 for all three (RFC 9180 §7.3).
_AEAD_SIZES = {
    AEAD.AES_128_GCM: (16, 12),
    AEAD.AES_256_GCM: (32, 12),
    AEAD.CHACHA20_POLY1305: (32, 12),
    AEAD.EXPORT_ONLY: (0, 0),
}

_HASHES: dict[KDF, Callable[..., Any]] = {
    KDF.HKDF_SHA256: hashlib.sha256,
    KDF.HKDF_SHA384: hashlib.sha384,
    KDF.HKDF_SHA512: hashlib.sha512,
}
# One-stage KDFs: Derive(ikm, L) and Nh (draft-ietf-hpke-pq §4).
_DERIVES: dict[KDF, tuple[Callable[[bytes, int], bytes], int]] = {
    KDF.SHAKE128: (common.shake128_digest, 32),
    KDF.SHAKE256: (common.shake256_digest, 64),
    KDF.TURBOSHAKE128: (lambda ikm, n: common.turboshake128_digest(ikm, n, domain=0x1F), 32),
    KDF.TURBOSHAKE256: (lambda ikm, n: common.turboshake256_digest(ikm, n, domain=0x1F), 64),
}

_VERSION = b"HPKE-v1"


def _i2osp(value: int, n: int) -> bytes:
    return value.to_bytes(n, "big")


def _prefixed(data: bytes) -> bytes:
    """lengthPrefixed(x) = I2OSP(len(x), 2) || x (draft-ietf-hpke-hpke §4)."""
    if len(data) > 0xFFFF:
        raise ValueError(f"an input of a one-stage KDF is limited to 65535 bytes, got {len(data)}")
    return _i2osp(len(data), 2) + data


class _Kdf:
    """One KDF bound to a ``suite_id`` (RFC 9180 §4, "labeled" functions)."""

    def __init__(self, kdf: KDF, suite_id: bytes) -> None:
        self.id = kdf
        self.suite_id = suite_id
        self.one_stage = kdf in _DERIVES
        if self.one_stage:
            self._derive, self.nh = _DERIVES[kdf]
        else:
            self._hash = _HASHES[kdf]
            self.nh = self._hash().digest_size

    # one-stage
    def labeled_derive(self, ikm: bytes, label: bytes, context: bytes, length: int) -> bytes:
        labeled = ikm + _VERSION + self.suite_id + _prefixed(label) + _i2osp(length, 2) + context
        return self._derive(labeled, length)

    # two-stage: HKDF (RFC 5869)
    def extract(self, salt: bytes, ikm: bytes) -> bytes:
        return hmac.new(salt or bytes(self.nh), ikm, self._hash).digest()

    def expand(self, prk: bytes, info: bytes, length: int) -> bytes:
        if length > 255 * self.nh:
            raise ValueError(f"HKDF-Expand length must be at most {255 * self.nh}, got {length}")
        out, block, counter = b"", b"", 1
        while len(out) < length:
            block = hmac.new(prk, block + info + bytes([counter]), self._hash).digest()
            out += block
            counter += 1
        return out[:length]

    def labeled_extract(self, salt: bytes, label: bytes, ikm: bytes) -> bytes:
        return self.extract(salt, _VERSION + self.suite_id + label + ikm)

    def labeled_expand(self, prk: bytes, label: bytes, info: bytes, length: int) -> bytes:
        labeled = _i2osp(length, 2) + _VERSION + self.suite_id + label + info
        return self.expand(prk, labeled, length)


def _key_bytes(key: Any, what: str, raw: str) -> bytes:
    """Raw bytes of a key given as bytes-like or as a key object (``public_bytes_raw``
    / ``private_bytes_raw``)."""
    method = getattr(key, raw, None)
    if method is not None and not isinstance(key, (bytes, bytearray, memoryview)):
        return as_bytes(method(), what)
    return as_bytes(key, what)


class _Context(Uncopyable):
    """The encryption context of RFC 9180 §5.2 (key, base_nonce, seq, exporter_secret).

    Safe to share between threads: the sequence number advances under a lock
    together with the nonce it gives, so no two messages ever use one nonce. A
    context holds the AEAD key and cannot be copied or pickled (a copy would reuse
    every nonce); ``seq`` is read-only.
    """

    __slots__ = ("_base_nonce", "_exporter_secret", "_key", "_lock", "_seq", "suite")

    _uncopyable_hint = "set up a new context (Suite.setup_sender / setup_recipient)"

    def __init__(self, suite: Suite, key: bytes, base_nonce: bytes, exporter_secret: bytes) -> None:
        self.suite = suite
        self._key = key
        self._base_nonce = base_nonce
        self._exporter_secret = exporter_secret
        self._seq = 0
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"<hpke.{type(self).__name__} {self.suite!r}, seq={self._seq}>"

    @property
    def seq(self) -> int:
        """The sequence number of the next message (RFC 9180 §5.2); read-only."""
        return self._seq

    @property
    def key(self) -> bytes:
        """The AEAD key (RFC 9180 §5.1)."""
        return self._key

    @property
    def base_nonce(self) -> bytes:
        """The base nonce (RFC 9180 §5.1)."""
        return self._base_nonce

    @property
    def exporter_secret(self) -> bytes:
        """The exporter secret (RFC 9180 §5.1)."""
        return self._exporter_secret

    def _cipher(self) -> Any:
        """The AEAD object of this context's key; ValueError for an export-only suite."""
        if self.suite.aead == AEAD.EXPORT_ONLY:
            raise ValueError("this suite's AEAD is export-only: it cannot seal or open")
        return self.suite._aead_cipher(self._key)

    def _nonce(self) -> bytes:
        """ComputeNonce(seq) = base_nonce XOR I2OSP(seq, Nn) (RFC 9180 §5.2), with the
        limit check of IncrementSeq: the last sequence number, 2^(8 Nn) - 1, is never
        used. The caller holds ``_lock``."""
        nn = len(self._base_nonce)
        if self._seq >= (1 << (8 * nn)) - 1:
            raise MessageLimitReachedError(
                f"HPKE message limit reached: sequence number {self._seq} is the last one"
            )
        seq = _i2osp(self._seq, nn)
        return bytes(a ^ b for a, b in zip(self._base_nonce, seq, strict=True))

    def export(self, exporter_context: bytes, length: int) -> bytes:
        """A secret of ``length`` bytes bound to ``exporter_context`` (RFC 9180 §5.3)."""
        ctx = as_bytes(exporter_context, "exporter_context")
        if not isinstance(length, int) or isinstance(length, bool):
            raise TypeError(f"length must be an int, not {type(length).__name__}")
        kdf = self.suite._kdf
        if kdf.one_stage:
            if not 0 <= length <= 0xFFFF:
                raise ValueError(f"export length must be in 0..65535, got {length}")
            return kdf.labeled_derive(self._exporter_secret, b"sec", ctx, length)
        if not 0 <= length <= 255 * kdf.nh:
            raise ValueError(f"export length must be in 0..{255 * kdf.nh}, got {length}")
        return kdf.labeled_expand(self._exporter_secret, b"sec", ctx, length)


class SenderContext(_Context):
    """ContextS: ``seal`` with increasing sequence numbers, ``export``. Thread-safe:
    each seal takes its own sequence number (and so its own nonce) atomically."""

    __slots__ = ()

    def seal(self, plaintext: bytes, aad: bytes = b"") -> bytes:
        """AEAD-encrypt ``plaintext`` with the next nonce; ``MessageLimitReachedError``
        when the sequence numbers are exhausted."""
        return self.seal_numbered(plaintext, aad)[1]

    def seal_numbered(self, plaintext: bytes, aad: bytes = b"") -> tuple[int, bytes]:
        """(sequence number, ciphertext) of :meth:`seal`. With a context shared by
        threads the ciphertexts may leave in another order than their numbers; the
        recipient must open them in sequence-number order."""
        pt = as_bytes(plaintext, "plaintext")
        aad = as_bytes(aad, "aad")
        cipher = self._cipher()
        with self._lock:  # the nonce and the increment of RFC 9180 §5.2 as one step
            nonce = self._nonce()
            seq = self._seq
            self._seq = seq + 1
        # A failed encryption (e.g. an over-long plaintext) leaves its number unused:
        # never handing a number out twice matters, using every one does not.
        return seq, bytes(cipher.encrypt(nonce, pt, aad))


class RecipientContext(_Context):
    """ContextR: ``open`` with increasing sequence numbers, ``export``. Thread-safe:
    opens are serialised, and each advances the sequence number only on success."""

    __slots__ = ()

    def open(self, ciphertext: bytes, aad: bytes = b"") -> bytes:
        """AEAD-decrypt ``ciphertext``; :class:`OpenError` when the tag does not verify
        (the sequence number then stays where it was)."""
        ct = as_bytes(ciphertext, "ciphertext")
        aad = as_bytes(aad, "aad")
        cipher = self._cipher()
        from cryptography.exceptions import InvalidTag

        with self._lock:
            nonce = self._nonce()
            try:
                pt = cipher.decrypt(nonce, ct, aad)
            except InvalidTag:
                raise OpenError(
                    "HPKE open failed: the authentication tag does not verify (wrong key, "
                    "info, psk or aad, or a modified enc or ciphertext)"
                ) from None
            self._seq += 1
        return bytes(pt)


class Suite:
    """An HPKE cipher suite (KEM, KDF, AEAD), as in pyca/cryptography.

    Keys are bytes-like (public key: ek; private key: the seed form, 64 bytes d || z
    for ML-KEM, 32 bytes for the hybrids) or pqkit key objects.
    """

    def __init__(self, kem: KEM | int, kdf: KDF | int, aead: AEAD | int) -> None:
        self.kem = KEM(kem)
        self.kdf = KDF(kdf)
        self.aead = AEAD(aead)
        self.suite_id = b"HPKE" + _i2osp(self.kem, 2) + _i2osp(self.kdf, 2) + _i2osp(self.aead, 2)
        self._kdf = _Kdf(self.kdf, self.suite_id)
        self._kem_kdf = _Kdf(KDF.SHAKE256, b"KEM" + _i2osp(self.kem, 2))
        self.nk, self.nn = _AEAD_SIZES[self.aead]
        from pqkit.registry import kem as lookup

        self.scheme: Kem = lookup(_KEM_NAMES[self.kem])
        self._mlkem = self.kem in _MLKEM
        self.length_private_key = 64 if self._mlkem else 32
        self.length_enc = self.scheme.length_ciphertext

    def __repr__(self) -> str:
        return f"<hpke.Suite {self.kem.name}, {self.kdf.name}, {self.aead.name}>"

    # --- AEAD ------------------------------------------------------------------------

    def _aead_cipher(self, key: bytes) -> Any:
        """pyca/cryptography's AEAD object for ``key``; :class:`pqkit.MissingExtra`
        naming the ``openssl`` extra without it (the KDFs and the ML-KEM KEMs need
        no extra: only the AEADs and the hybrids' curves come from pyca)."""
        from pqkit._extras import require

        aead = require(
            "openssl",
            f"HPKE's AEAD ({self.aead.name.replace('_', '-')})",
            "cryptography.hazmat.primitives.ciphers.aead",
        )
        if self.aead == AEAD.CHACHA20_POLY1305:
            return aead.ChaCha20Poly1305(key)
        return aead.AESGCM(key)

    # --- KEM (draft-ietf-hpke-pq §2-§3) -----------------------------------------------

    def _expanded(self, private_key: bytes) -> tuple[bytes, bytes]:
        """(ek, decapsulation key as the KEM's decaps takes it)."""
        if self._mlkem:
            return self.scheme.keygen_derand(private_key)  # expandDecapsKey
        return self.scheme.keygen_derand(private_key).public_key, private_key

    def generate_key_pair(self, *, rng: RNG | None = None) -> KeyPair:
        """GenerateKeyPair: (public key, seed-form private key)."""
        seed = draw(rng, self.length_private_key)
        return KeyPair(self._expanded(seed)[0], seed)

    def derive_key_pair(self, ikm: bytes) -> KeyPair:
        """DeriveKeyPair(ikm): the seed is SHAKE256.LabeledDerive(ikm, "DeriveKeyPair",
        "", Nsk) with suite_id "KEM" || kem_id."""
        ikm = as_bytes(ikm, "ikm")
        seed = self._kem_kdf.labeled_derive(ikm, b"DeriveKeyPair", b"", self.length_private_key)
        return KeyPair(self._expanded(seed)[0], seed)

    def _check_key(self, key: Any, what: str) -> None:
        """Refuse (ValueError) a key object of another algorithm than this suite's
        KEM: an ML-KEM-768 seed is also a valid ML-KEM-512 seed, and any 32-byte
        seed a valid X-Wing one, so only the key's own algorithm tells them apart.
        Bytes carry no algorithm and are taken as this suite's KEM's."""
        if isinstance(key, (bytes, bytearray, memoryview)):
            return
        alg = getattr(key, "algorithm", None)
        if alg is None:
            return  # not a key object: _key_bytes raises the TypeError
        name = alg if isinstance(alg, str) else str(getattr(alg, "name", alg))
        from pqkit import registry

        try:
            canonical = registry.algorithm(name).name
        except KeyError:
            canonical = name
        if canonical != self.scheme.name:
            raise ValueError(
                f"{what} is an {canonical} key, but this HPKE suite's KEM is {self.scheme.name}"
            )

    def _public(self, public_key: Any) -> bytes:
        self._check_key(public_key, "public_key")
        return as_bytes_len(
            _key_bytes(public_key, "public_key", "public_bytes_raw"),
            "public_key",
            self.scheme.length_public_key,
        )

    def _private(self, private_key: Any) -> bytes:
        self._check_key(private_key, "private_key")
        return as_bytes_len(
            _key_bytes(private_key, "private_key", "private_bytes_raw"),
            "private_key",
            self.length_private_key,
        )

    def _encap(self, pk: bytes, rng: RNG | None, ikm_e: bytes | None) -> Encapsulation:
        if ikm_e is None:
            return self.scheme.encaps(pk, rng=rng)
        return self.scheme.encaps_derand(pk, as_bytes(ikm_e, "ikm_e"))

    def _decap(self, enc: bytes, sk: bytes) -> bytes:
        enc = as_bytes_len(enc, "enc", self.length_enc)
        return self.scheme.decaps(self._expanded(sk)[1], enc)

    # --- key schedule (RFC 9180 §5.1; draft-ietf-hpke-hpke §5.1) ------------------------

    def _key_schedule(
        self, shared_secret: bytes, info: Any, psk: Any, psk_id: Any
    ) -> tuple[bytes, bytes, bytes]:
        info = as_bytes(info, "info")
        psk = as_bytes(b"" if psk is None else psk, "psk")
        psk_id = as_bytes(b"" if psk_id is None else psk_id, "psk_id")
        if bool(psk) != bool(psk_id):
            raise ValueError("inconsistent PSK inputs: give both psk and psk_id, or neither")
        mode = Mode.PSK if psk else Mode.BASE
        if mode == Mode.PSK and len(psk) < 32:
            raise ValueError(f"psk must have at least 32 bytes of entropy, got {len(psk)} bytes")
        kdf, nk, nn = self._kdf, self.nk, self.nn
        if kdf.one_stage:
            secrets = _prefixed(psk) + _prefixed(shared_secret)
            context = bytes([mode]) + _prefixed(psk_id) + _prefixed(info)
            secret = kdf.labeled_derive(secrets, b"secret", context, nk + nn + kdf.nh)
            return secret[:nk], secret[nk : nk + nn], secret[nk + nn :]
        psk_id_hash = kdf.labeled_extract(b"", b"psk_id_hash", psk_id)
        info_hash = kdf.labeled_extract(b"", b"info_hash", info)
        context = bytes([mode]) + psk_id_hash + info_hash
        secret = kdf.labeled_extract(shared_secret, b"secret", psk)
        key = kdf.labeled_expand(secret, b"key", context, nk) if nk else b""
        base_nonce = kdf.labeled_expand(secret, b"base_nonce", context, nn) if nn else b""
        exporter_secret = kdf.labeled_expand(secret, b"exp", context, kdf.nh)
        return key, base_nonce, exporter_secret

    # --- RFC 9180 API ------------------------------------------------------------------

    def setup_sender(
        self,
        public_key: Any,
        info: bytes = b"",
        *,
        psk: bytes | None = None,
        psk_id: bytes | None = None,
        rng: RNG | None = None,
        ikm_e: bytes | None = None,
    ) -> tuple[bytes, SenderContext]:
        """SetupBaseS / SetupPSKS: (enc, sender context). ``ikm_e`` is the KEM's
        encapsulation randomness (EncapsDerand, for tests); otherwise ``rng``."""
        pk = self._public(public_key)
        ss, enc = self._encap(pk, rng, ikm_e)
        return enc, SenderContext(self, *self._key_schedule(ss, info, psk, psk_id))

    def setup_recipient(
        self,
        enc: bytes,
        private_key: Any,
        info: bytes = b"",
        *,
        psk: bytes | None = None,
        psk_id: bytes | None = None,
    ) -> RecipientContext:
        """SetupBaseR / SetupPSKR: the recipient context for ``enc``."""
        ss = self._decap(as_bytes(enc, "enc"), self._private(private_key))
        return RecipientContext(self, *self._key_schedule(ss, info, psk, psk_id))

    def setup_auth_sender(self, *args: Any, **kwargs: Any) -> tuple[bytes, SenderContext]:
        """mode_auth / mode_auth_psk: refused (:class:`UnsupportedModeError`)."""
        raise self._no_auth()

    def setup_auth_recipient(self, *args: Any, **kwargs: Any) -> RecipientContext:
        """mode_auth / mode_auth_psk: refused (:class:`UnsupportedModeError`)."""
        raise self._no_auth()

    def _no_auth(self) -> UnsupportedModeError:
        return UnsupportedModeError(
            f"HPKE mode_auth and mode_auth_psk need a KEM with AuthEncap/AuthDecap (a "
            f"Diffie-Hellman KEM); {_KEM_NAMES[self.kem]} has none (draft-ietf-hpke-pq, "
            "'Asymmetric-Key-Authenticated Modes'): use mode_psk or a signature"
        )

    def seal(
        self,
        public_key: Any,
        plaintext: bytes,
        info: bytes = b"",
        aad: bytes = b"",
        *,
        psk: bytes | None = None,
        psk_id: bytes | None = None,
        rng: RNG | None = None,
    ) -> tuple[bytes, bytes]:
        """Single-shot Seal<MODE> (RFC 9180 §6.1): (enc, ciphertext)."""
        enc, ctx = self.setup_sender(public_key, info, psk=psk, psk_id=psk_id, rng=rng)
        return enc, ctx.seal(plaintext, aad)

    def open(
        self,
        enc: bytes,
        private_key: Any,
        ciphertext: bytes,
        info: bytes = b"",
        aad: bytes = b"",
        *,
        psk: bytes | None = None,
        psk_id: bytes | None = None,
    ) -> bytes:
        """Single-shot Open<MODE> (RFC 9180 §6.1); :class:`OpenError` on a bad tag."""
        ctx = self.setup_recipient(enc, private_key, info, psk=psk, psk_id=psk_id)
        return ctx.open(ciphertext, aad)

    def send_export(
        self,
        public_key: Any,
        exporter_context: bytes,
        length: int,
        info: bytes = b"",
        *,
        psk: bytes | None = None,
        psk_id: bytes | None = None,
        rng: RNG | None = None,
    ) -> tuple[bytes, bytes]:
        """SendExport (RFC 9180 §6.2): (enc, exported secret)."""
        enc, ctx = self.setup_sender(public_key, info, psk=psk, psk_id=psk_id, rng=rng)
        return enc, ctx.export(exporter_context, length)

    def receive_export(
        self,
        enc: bytes,
        private_key: Any,
        exporter_context: bytes,
        length: int,
        info: bytes = b"",
        *,
        psk: bytes | None = None,
        psk_id: bytes | None = None,
    ) -> bytes:
        """ReceiveExport (RFC 9180 §6.2)."""
        ctx = self.setup_recipient(enc, private_key, info, psk=psk, psk_id=psk_id)
        return ctx.export(exporter_context, length)

    # --- pyca/cryptography-shaped single shot --------------------------------------------

    def encrypt(
        self,
        plaintext: bytes,
        public_key: Any,
        info: bytes | None = None,
        *,
        aad: bytes = b"",
        rng: RNG | None = None,
    ) -> bytes:
        """``enc || ct`` in base mode, as pyca/cryptography's ``Suite.encrypt``."""
        enc, ct = self.seal(public_key, plaintext, b"" if info is None else info, aad, rng=rng)
        return enc + ct

    def decrypt(
        self,
        ciphertext: bytes,
        private_key: Any,
        info: bytes | None = None,
        *,
        aad: bytes = b"",
    ) -> bytes:
        """The plaintext of ``enc || ct`` (:meth:`encrypt`); :class:`OpenError` on a
        bad tag, ``ValueError`` when shorter than enc."""
        data = as_bytes(ciphertext, "ciphertext")
        if len(data) < self.length_enc:
            raise ValueError(
                f"ciphertext must start with the {self.length_enc}-byte enc, got {len(data)} bytes"
            )
        enc, ct = data[: self.length_enc], data[self.length_enc :]
        return self.open(enc, private_key, ct, b"" if info is None else info, aad)
