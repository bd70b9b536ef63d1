"""Environment variables read on every call (``PQKIT_ARITH`` picks the backend of
each operation, so a change made while the process runs takes effect at once).

``os.environ.get(name, "")`` costs about 1 us when the variable is unset: the
mapping raises a ``KeyError`` inside ``__getitem__`` and ``Mapping.get`` catches
it. That is a tenth of the Python around a compiled ML-KEM operation. CPython's
``os.environ`` keeps the encoded variables in a plain dict (``_data``), which
answers in a few hundredths of a microsecond; :func:`value` reads that dict while
``os.environ`` is CPython's mapping, and ``os.environ.get`` otherwise (another
implementation, or a test that replaced ``os.environ``).
"""

from __future__ import annotations

import os
from typing import Any

__all__ = ["value"]

_ENVIRON = os.environ
_DATA: dict[Any, Any] | None = getattr(_ENVIRON, "_data", None)
_KEYS: dict[str, Any] = {}


def value(name: str) -> str:
    """``os.environ.get(name, "")``, stripped of surrounding white space."""
    environ = os.environ
    if environ is not _ENVIRON or type(_DATA) is not dict:
        return environ.get(name, "").strip()
    key = _KEYS.get(name)
    if key is None:
        key = _KEYS[name] = _ENVIRON.encodekey(name)
    raw = _DATA.get(key)
    if raw is None:
        return ""
    decoded: str = _ENVIRON.decodevalue(raw)
    return decoded.strip()
