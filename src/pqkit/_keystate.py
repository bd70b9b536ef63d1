"""Precomputed secret-key state, kept only in the key object that owns the key.

Decoding a secret key is worth keeping on the step path (ML-KEM's s_hat and its
multiplier planes, ML-DSA's NTT(s1) and signing's form of s1, s2, t0, the verdict
of ML-DSA's key consistency check). pqkit keeps such state nowhere but in a :class:`KeyState`
held by the private key object (:class:`pqkit.keys._base.PrivateKey`): it lives
exactly as long as the key object the user holds, and goes with it. While a key
object runs an operation it makes its state current (:func:`holding`, a context
variable, so per thread and per task); the scheme code asks :func:`cached` for the
state of a kind, which is served only when ``accept`` (a constant-time comparison
of the whole secret key with the one stored in the state) says it belongs to the
key in use, else made now and kept. Outside a key object's operation (the bytes
API: ``pqkit.kem(...).decaps(dk, ct)``), nothing is kept: every call decodes
afresh, as the first call with a fresh key does anyway.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any, TypeVar

from pqkit._secret import Uncopyable

__all__ = [
    "MLDSA_CONSISTENT",
    "MLDSA_SK",
    "MLKEM_DK",
    "KeyState",
    "cached",
    "holding",
    "known",
    "note",
]

_V = TypeVar("_V")

MLKEM_DK = "ML-KEM dk"
"""pqkit.mlkem.fips203.SecretState: s_hat and its multiplier planes."""
MLDSA_SK = "ML-DSA sk"
"""pqkit.mldsa.core.SecretKey with NTT(s1) and challenge_prepare(s1 || s2 || t0)."""
MLDSA_CONSISTENT = "ML-DSA consistent"
"""The expanded sk bytes that passed the key consistency check."""


class KeyState(Uncopyable):
    """The derived secret state of one private key object, by kind; thread-safe."""

    __slots__ = ("_lock", "_values")

    _uncopyable_hint = "it belongs to one key object"

    def __init__(self) -> None:
        self._values: dict[str, Any] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"<KeyState, {len(self._values)} kinds>"

    def get(self, kind: str) -> Any:
        """The state of ``kind``, or None."""
        with self._lock:
            return self._values.get(kind)

    def clear(self) -> None:
        """Drop every derived value (the key object stays usable)."""
        with self._lock:
            self._values.clear()

    def _put(self, kind: str, value: Any) -> None:
        with self._lock:
            self._values[kind] = value


_current: ContextVar[KeyState | None] = ContextVar("pqkit_key_state", default=None)


class holding:
    """Make ``state`` the current key state for the operations run in the block.

    A class rather than a ``contextlib.contextmanager`` generator: every
    decapsulation and signature of a key object enters one, and the generator's
    machinery cost about 1 us of it."""

    __slots__ = ("_state", "_token")

    def __init__(self, state: KeyState) -> None:
        self._state = state

    def __enter__(self) -> None:
        self._token = _current.set(self._state)

    def __exit__(self, *exc: object) -> None:
        _current.reset(self._token)


def cached(kind: str, accept: Callable[[_V], bool], make: Callable[[], _V]) -> _V:
    """The current key object's state of ``kind`` when ``accept(state)`` (it was
    made from this very secret key: a constant-time comparison), else ``make()``'s
    value, kept in the key object when there is one. Without a current key object,
    always ``make()``. Values are never None."""
    state = _current.get()
    if state is None:
        return make()
    value = state.get(kind)
    if value is not None and accept(value):
        return value  # type: ignore[no-any-return]
    value = make()
    state._put(kind, value)
    return value


def known(kind: str, accept: Callable[[Any], bool]) -> bool:
    """Whether the current key object holds a state of ``kind`` that ``accept``
    takes (:func:`cached` without making one: for a step run inside a compiled
    call, whose result :func:`note` then keeps)."""
    state = _current.get()
    if state is None:
        return False
    value = state.get(kind)
    return value is not None and accept(value)


def note(kind: str, value: Any) -> None:
    """Keep ``value`` (never None) as the current key object's state of ``kind``;
    nothing without a current key object (the bytes API keeps nothing)."""
    state = _current.get()
    if state is not None:
        state._put(kind, value)
