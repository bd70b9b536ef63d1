"""``Uncopyable``: the base of every object that holds secret state.

A private key, a DRBG or an encryption choice holding a password must not be
duplicated behind its owner's back: a copied CTR_DRBG repeats its output stream
(two "independent" generators giving the same nonces), and a pickle writes the
secrets, in the clear, to wherever the pickle goes. ``copy.copy``,
``copy.deepcopy``, ``pickle`` (every protocol) and ``__getstate__`` therefore raise
``TypeError`` naming the object and the way to serialise it, if there is one.
"""

from __future__ import annotations

from typing import Any, NoReturn

__all__ = ["Uncopyable"]


class Uncopyable:
    """Mixin: copying or pickling an instance raises ``TypeError``.

    ``_uncopyable_hint`` (a class attribute) is appended to the message.
    """

    __slots__ = ()

    _uncopyable_hint = ""

    def _refuse(self, action: str) -> NoReturn:
        hint = f"; {self._uncopyable_hint}" if self._uncopyable_hint else ""
        raise TypeError(f"{type(self).__name__} holds secret state and cannot be {action}{hint}")

    def __copy__(self) -> NoReturn:
        self._refuse("copied")

    def __deepcopy__(self, memo: dict[int, Any]) -> NoReturn:
        self._refuse("copied")

    def __getstate__(self) -> NoReturn:
        self._refuse("pickled")

    def __reduce__(self) -> NoReturn:
        self._refuse("pickled")

    def __reduce_ex__(self, protocol: Any) -> NoReturn:
        self._refuse("pickled")
