"""The scheme object the stateful families share (:class:`StatefulScheme`).

Its private keys are :class:`~pqkit.stateful.key.StatefulPrivateKey` objects, not
bytes: ``keygen(path=...)`` writes a new key file and returns the key bound to it
(no path: a key held in this process's memory, :class:`~.storage.MemoryStorage`);
``load_key(path)`` binds to an existing file; ``sign(key, message)`` is
``key.sign(message)``. A family supplies the key material from a seed, the engine
that signs with an index (:class:`~pqkit.stateful.key.Engine`) and verification.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from pqkit._checks import as_bytes, as_bytes_len
from pqkit._rng import draw
from pqkit.schemes import KeyPair, SignatureBase
from pqkit.stateful.files import KeyRecord, encode_spki
from pqkit.stateful.key import Engine, StatefulPrivateKey
from pqkit.stateful.storage import FileStorage, MemoryStorage, Storage

__all__ = ["StatefulScheme"]

RNG = Callable[[int], bytes]


class StatefulScheme(SignatureBase):
    """Keygen, sign and verify of one stateful parameter set (see the module)."""

    KERNELS = "hash"
    SPKI_OID = ""
    stateful = True

    # --- what a family supplies -------------------------------------------------------

    @property
    def max_signatures(self) -> int:
        return int(self.algorithm.params.max_signatures)  # type: ignore[attr-defined]

    def _material(self, seed: bytes) -> bytes:
        """The private key material of ``seed`` (length_seed bytes)."""
        raise NotImplementedError

    def _engine(self, material: bytes) -> Engine:
        raise NotImplementedError

    def _verify(self, public_key: bytes, message: bytes, signature: bytes) -> bool:
        raise NotImplementedError

    # --- the shared surface -------------------------------------------------------------

    def _bind(self, record: KeyRecord, path: Any, storage: Storage | None) -> StatefulPrivateKey:
        if path is not None and storage is not None:
            raise TypeError("give path or storage, not both")
        if path is not None:
            storage = FileStorage(path)
            storage.create(record)
        elif storage is None:
            storage = MemoryStorage(record)
        return StatefulPrivateKey(self, storage, record)

    def keygen_derand(
        self,
        seed: bytes,
        /,
        *,
        path: str | os.PathLike[str] | None = None,
        storage: Storage | None = None,
    ) -> KeyPair:
        """The key pair of ``seed`` (``length_seed`` bytes); the private key is bound
        to a new file at ``path`` (else held in memory)."""
        seed = as_bytes_len(seed, f"{self.name} seed", self.length_seed)
        record = KeyRecord(self.name, self._material(seed), 0, self.max_signatures)
        key = self._bind(record, path, storage)
        return KeyPair(key.public_key(), key)  # type: ignore[arg-type]

    def keygen(
        self,
        *,
        rng: RNG | None = None,
        path: str | os.PathLike[str] | None = None,
        storage: Storage | None = None,
    ) -> KeyPair:
        """A new key pair from ``rng`` (default os.urandom); see :meth:`keygen_derand`."""
        return self.keygen_derand(draw(rng, self.length_seed), path=path, storage=storage)

    def load_key(self, path: str | os.PathLike[str]) -> StatefulPrivateKey:
        """The key in the file at ``path`` (ValueError if it holds another set)."""
        storage = FileStorage(path)
        record = storage.load()
        if record.name != self.name:
            raise ValueError(f"{path}: the key file holds a {record.name} key, not {self.name}")
        return StatefulPrivateKey(self, storage, record)

    def _key(self, secret_key: Any) -> StatefulPrivateKey:
        if not isinstance(secret_key, StatefulPrivateKey):
            raise TypeError(
                f"{self.name} private keys are StatefulPrivateKey objects (keygen or "
                f"load_key), not {type(secret_key).__name__}: a stateful key is never bytes"
            )
        if secret_key.name != self.name:
            raise ValueError(f"the key is a {secret_key.name} key, not {self.name}")
        return secret_key

    def public_key_from_secret(self, secret_key: Any) -> bytes:
        return self._key(secret_key).public_key()

    # SignatureBase.sign / verify (the public signature, written once) call these
    # three hooks.

    def _m_prime(self, message: Any, ctx: Any, prehash: str | None) -> bytes:
        """The message itself: no context string or pre-hash (RFC 8554 / RFC 8391
        sign the message as is)."""
        if as_bytes(ctx, "ctx") or prehash is not None:
            raise ValueError(f"{self.name} takes no context or pre-hash")
        return as_bytes(message, "message")

    def _sign_m_prime(
        self, secret_key: Any, m_prime: bytes, deterministic: bool, rnd: Any, rng: RNG | None
    ) -> bytes:
        """``secret_key.sign(message)``: uses (and durably consumes) one index."""
        if rnd is not None:
            raise ValueError(f"{self.name} takes no context, pre-hash or rnd")
        del deterministic  # the randomizer comes from rng (LMS) or the key (XMSS)
        return self._key(secret_key).sign(m_prime, rng=rng)

    def _verify_m_prime(
        self, public_key: Any, m_prime: bytes, message: Any, signature: Any
    ) -> bool:
        """True if ``signature`` is valid; False for any malformed input."""
        public_key = as_bytes(public_key, f"{self.name} public key")
        signature = as_bytes(signature, "signature")
        if len(public_key) != self.length_public_key:
            raise ValueError(
                f"{self.name} public key must be {self.length_public_key} bytes, "
                f"got {len(public_key)}"
            )
        self._refuse_swapped(m_prime, signature)
        return self._verify(public_key, m_prime, signature)

    def verify_internal(self, public_key: bytes, m_prime: bytes, signature: bytes) -> bool:
        return self.verify(public_key, m_prime, signature)

    def public_key_spki(self, public_key: bytes) -> bytes:
        """The RFC 9802 SubjectPublicKeyInfo (DER) of ``public_key``."""
        public_key = as_bytes_len(public_key, f"{self.name} public key", self.length_public_key)
        return encode_spki(self.SPKI_OID, public_key)
