"""Shared helpers for the batch tests: backends, row counts, random rows."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from pqkit import arith


def _backend_params() -> list[Any]:
    jit_ok = "jit" in arith.available("mlkem")
    return [
        pytest.param("numpy", id="numpy"),
        pytest.param(
            "jit",
            id="jit",
            marks=[]
            if jit_ok
            else [pytest.mark.skip(reason="numba (the jit extra) not installed")],
        ),
        pytest.param("ref", id="ref"),
    ]


BACKENDS = _backend_params()


def rows_for(backend: str) -> int:
    """Rows per random batch: ref (plain Python ints) only on tiny batches."""
    return 2 if backend == "ref" else 5


def random_rows(n: int, width: int) -> npt.NDArray[np.uint8]:
    return np.frombuffer(bytearray(os.urandom(n * width)), dtype=np.uint8).reshape(n, width)


class CountingRng:
    """A deterministic rng(n) that records the sizes it was asked for."""

    def __init__(self, seed: int = 1) -> None:
        self.state = seed
        self.calls: list[int] = []

    def __call__(self, n: int) -> bytes:
        self.calls.append(n)
        out = bytearray()
        for _ in range(n):
            self.state = (self.state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
            out.append(self.state >> 56)
        return bytes(out)
