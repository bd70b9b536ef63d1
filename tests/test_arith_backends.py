"""Arithmetic backend selection with the optional ``jit`` backend: it is listed only
where Numba imports, never the default, and selected only on request."""

from __future__ import annotations

import importlib.util
import sys

import pytest

import pqkit
from pqkit import arith
from pqkit.errors import UnknownBackend

HAS_NUMBA = importlib.util.find_spec("numba") is not None
needs_numba = pytest.mark.skipif(not HAS_NUMBA, reason="numba is not installed (pqkit[jit])")


def test_listed_when_numba_imports() -> None:
    expected = ["jit", "numpy", "ref"] if HAS_NUMBA else ["numpy", "ref"]
    assert arith.BACKEND_ORDER == ("jit", "numpy", "ref")
    assert arith.backends()["available"] == {"mlkem": expected, "mldsa": expected}


def test_missing_numba_means_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    # Simulate an environment without Numba: its import fails with ModuleNotFoundError.
    monkeypatch.setitem(sys.modules, "numba", None)
    for name in ("pqkit.arith._jit", "pqkit.arith.jit_mlkem", "pqkit.arith.jit_mldsa"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    assert arith.available("mlkem") == ["numpy", "ref"]
    assert arith.available("mldsa") == ["numpy", "ref"]
    assert arith.backends()["active"] == "numpy"


def test_default_stays_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PQKIT_ARITH", raising=False)
    assert arith.DEFAULT_BACKEND == "numpy"
    assert arith.backends()["active"] == "numpy"
    assert arith.kernels("mlkem").backend == "numpy"
    assert arith.kernels("mldsa").backend == "numpy"


@needs_numba
def test_selecting_jit(monkeypatch: pytest.MonkeyPatch) -> None:
    assert arith.kernels("mlkem", backend="jit").backend == "jit"
    with arith.use("jit"):
        assert arith.kernels("mldsa").backend == "jit"
        assert arith.backends()["active"] == "jit"
    monkeypatch.setenv("PQKIT_ARITH", "jit")
    assert arith.kernels("mlkem").backend == "jit"
    kem = pqkit.kem("ML-KEM-512").using(arith="jit")  # type: ignore[attr-defined]
    pk, sk = kem.keygen_derand(bytes(64))
    monkeypatch.setenv("PQKIT_ARITH", "numpy")
    assert (pk, sk) == pqkit.kem("ML-KEM-512").keygen_derand(bytes(64))
    dsa = pqkit.sig("ML-DSA-44").using(arith="jit")  # type: ignore[attr-defined]
    assert dsa.keygen_derand(bytes(32)) == pqkit.sig("ML-DSA-44").keygen_derand(bytes(32))


@pytest.mark.skipif(HAS_NUMBA, reason="numba is installed")
def test_jit_without_numba_is_unknown() -> None:
    with pytest.raises(UnknownBackend):
        arith.kernels("mlkem", backend="jit")
    with pytest.raises(UnknownBackend):
        pqkit.sig("ML-DSA-44").using(arith="jit")  # type: ignore[attr-defined]
