"""Shared helpers for the ML-KEM tests: backends and test-case parametrisation."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

import pqkit
from pqkit.mlkem.scheme import KpkeKem

BACKENDS = ("numpy", "ref")

REF_EVERY = 6
"""The ``ref`` backend (plain Python ints) needs about 0.1 s per operation, so by
default it runs every REF_EVERY-th vector of a file (always including the first);
the others are marked slow and run with ``-m slow``."""


def scheme(name: str, backend: str) -> KpkeKem:
    kem = pqkit.kem(name)
    assert isinstance(kem, KpkeKem)
    return kem.using(arith=backend)


def cases(items: Iterable[tuple[str, Any]]) -> list[Any]:
    """pytest params (backend, item) for every item and backend, with readable ids;
    ref runs a subset unless -m slow."""
    listed = list(items)
    return [
        pytest.param(
            backend,
            item,
            id=f"{ident}-{backend}",
            marks=[pytest.mark.slow] if backend == "ref" and n % REF_EVERY else [],
        )
        for backend in BACKENDS
        for n, (ident, item) in enumerate(listed)
    ]
