"""The import paths that moved when each family took its own kernels (issue 27)
still work, give the same objects, and warn with the new place."""

from __future__ import annotations

import importlib
import sys

import pytest

from pqkit import _moved


@pytest.mark.parametrize(("old", "new"), sorted(_moved.MODULES.items()))
def test_old_module_path_is_the_new_module(
    monkeypatch: pytest.MonkeyPatch, old: str, new: str
) -> None:
    if new.endswith(("jit", "jit_ops", "jit_batch", "jit_sponge")):
        pytest.importorskip("numba", reason="the jit modules need Numba")
    monkeypatch.delitem(sys.modules, old, raising=False)
    with pytest.warns(DeprecationWarning, match=new.replace(".", r"\.")):
        module = importlib.import_module(old)
    assert module is importlib.import_module(new)


def test_from_import_of_an_old_module(monkeypatch: pytest.MonkeyPatch) -> None:
    import pqkit.arith

    monkeypatch.delitem(sys.modules, "pqkit.arith.numpy_mlkem", raising=False)
    monkeypatch.delattr(pqkit.arith, "numpy_mlkem", raising=False)
    with pytest.warns(DeprecationWarning, match="pqkit.mlkem.kernels.numpy"):
        from pqkit.arith import numpy_mlkem
    from pqkit.mlkem.kernels import numpy as new

    assert numpy_mlkem.KERNELS is new.KERNELS


@pytest.mark.parametrize(
    ("module", "name", "new"),
    [
        ("pqkit.arith.api", "MLKEMKernels", "pqkit.mlkem.kernels.contract"),
        ("pqkit.arith.api", "MLDSAOperations", "pqkit.mldsa.kernels.contract"),
        ("pqkit.arith.api", "HashKernels", "pqkit.common.kernels.contract"),
        ("pqkit.arith.tables", "MLKEM_Q", "pqkit.mlkem.kernels.tables"),
        ("pqkit.arith.tables", "MLDSA_ZETAS", "pqkit.mldsa.kernels.tables"),
    ],
)
def test_moved_names_warn(module: str, name: str, new: str) -> None:
    with pytest.warns(DeprecationWarning, match=f"{new}.{name}"):
        value = getattr(importlib.import_module(module), name)
    assert value is getattr(importlib.import_module(new), name)


def test_unknown_names_still_fail() -> None:
    from pqkit.arith import api

    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        api.nope  # noqa: B018
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("pqkit.arith.nope")
