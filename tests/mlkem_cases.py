"""Shared helpers for the ML-KEM tests: backends and test-case parametrisation."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from helpers import REF_EVERY, backend_params

import pqkit
from pqkit.mlkem.scheme import KpkeKem

__all__ = ["REF_EVERY", "cases", "scheme"]


def scheme(name: str, backend: str) -> KpkeKem:
    kem = pqkit.kem(name)
    assert isinstance(kem, KpkeKem)
    return kem.using(arith=backend)


def cases(items: Iterable[tuple[str, Any]]) -> list[Any]:
    """pytest params (backend, item) for every item and installed backend
    (helpers.ARITH_BACKENDS), with readable ids; ref runs a subset unless -m slow."""
    return [
        param
        for n, (ident, item) in enumerate(items)
        for param in backend_params(ident, (item,), ref_runs=n % REF_EVERY == 0, backend_first=True)
    ]
