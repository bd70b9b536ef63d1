"""The stateful private key: key material bound to a :class:`~.storage.Storage`.

Rules that keep a one-time index from signing twice:

- an index is used only from a range the storage has durably reserved
  (:meth:`Storage.reserve`) before the signature is computed, let alone returned;
- the reserved-but-unused indices live in this object only; they are lost when it
  goes (never handed back: a later reservation starts after them);
- the object refuses copy and pickle (:class:`pqkit._secret.Uncopyable`); a second
  object loaded from the same file reserves its own range under the file lock;
- a forked child drops the range it inherited (the parent may use it) and reserves
  anew; threads share the object under a lock.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any, Protocol

from pqkit._checks import as_bytes
from pqkit._secret import Uncopyable
from pqkit.stateful.files import KeyRecord
from pqkit.stateful.storage import FileStorage, MemoryStorage, Storage

__all__ = ["Engine", "StatefulPrivateKey"]

MAX_RESERVE = 1 << 20  # the most indices one reservation takes


class Engine(Protocol):
    """A family's signer for one key: signature with a given one-time index."""

    def public_key(self) -> bytes: ...

    def sign(self, index: int, message: bytes, rng: Callable[[int], bytes] | None) -> bytes: ...


class StatefulPrivateKey(Uncopyable):
    """A stateful private key (LMS / HSS, XMSS / XMSS^MT) bound to ``storage``.

    ``sign(message)`` reserves an index (one at a time unless :meth:`reserve` took
    more), signs with it and returns the signature; ``remaining()`` tells how many
    signatures are left; an exhausted key raises :class:`ExhaustedKey`.
    """

    _uncopyable_hint = "load the key file again instead (each load reserves its own indices)"

    def __init__(self, scheme: Any, storage: Storage, record: KeyRecord) -> None:
        self.scheme = scheme
        self.storage = storage
        self._material = record.material
        self._limit = record.limit
        self._lock = threading.Lock()
        self._next = 0
        self._end = 0  # reserved range [_next, _end) of this object
        self._pid = os.getpid()
        self._engine: Engine | None = None

    def __repr__(self) -> str:
        return f"<StatefulPrivateKey {self.scheme.name} on {self.storage!r}>"

    @property
    def name(self) -> str:
        return str(self.scheme.name)

    def _signer(self) -> Engine:
        if self._engine is None:
            self._engine = self.scheme._engine(self._material)
        return self._engine

    def public_key(self) -> bytes:
        """The raw public key (HSS: u32str(L) || LMS public key; XMSS: OID || root || SEED)."""
        with self._lock:
            return self._signer().public_key()

    def _fork_check(self) -> None:
        if os.getpid() != self._pid:  # a forked child: the parent owns the range
            self._next = self._end = 0
            self._pid = os.getpid()

    def reserve(self, count: int) -> None:
        """Durably reserve ``count`` more indices for this object (1..2^20): later
        signatures use them without a write each. Unused ones are lost when the
        object goes. Any range still held is dropped first (lost, never reused)."""
        if not isinstance(count, int) or isinstance(count, bool):
            raise TypeError(f"count must be int, not {type(count).__name__}")
        if not 1 <= count <= MAX_RESERVE:
            raise ValueError(f"count must be in 1..{MAX_RESERVE}, got {count}")
        with self._lock:
            self._fork_check()
            start = self.storage.reserve(count)
            self._next, self._end = start, start + count

    def reserved(self) -> int:
        """Indices this object holds, reserved and not yet used."""
        with self._lock:
            self._fork_check()
            return self._end - self._next

    def remaining(self) -> int:
        """Signatures this key can still make: the ones never reserved plus those
        this object holds."""
        record = self.storage.load()
        return record.limit - record.next_index + self.reserved()

    def next_index(self) -> int:
        """The index the next signature of this object will use (reserving if need be
        happens at signing time)."""
        with self._lock:
            self._fork_check()
            return self._next if self._next < self._end else self.storage.load().next_index

    def sign(self, message: bytes, *, rng: Callable[[int], bytes] | None = None) -> bytes:
        """Sign ``message`` with the next reserved index (reserving one, durably,
        first if none is held)."""
        message = as_bytes(message, "message")
        with self._lock:
            self._fork_check()
            if self._next >= self._end:
                start = self.storage.reserve(1)
                self._next, self._end = start, start + 1
            index = self._next
            self._next += 1
            return self._signer().sign(index, message, rng)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Move a key held in memory into a new key file at ``path``: the memory
        storage is left exhausted, and this object signs from the file from now on
        (FileExistsError if ``path`` exists). A file-bound key refuses (load the
        file elsewhere instead)."""
        if not isinstance(self.storage, MemoryStorage):
            raise TypeError("only a key held in memory can be saved to a file")
        with self._lock:
            record = self.storage.retire()
            self._next = self._end = 0  # indices held here are lost, never reissued
            storage = FileStorage(path)
            storage.create(record)
            self.storage = storage
