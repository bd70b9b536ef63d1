"""Arithmetic backend registration and selection: discovery from the registrations,
the optional ``jit`` backend (listed only where Numba is installed, never the
default, refused at once with an install hint where it is missing), the
``PQKIT_ARITH`` warning for ``ref``, and kernel tables that are refused at build
time or completed with composed kernels (never from ``ref``)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import pqkit
from pqkit import arith
from pqkit.errors import UnknownBackend
from pqkit.mldsa.kernels import numpy as numpy_mldsa
from pqkit.mldsa.kernels import ref as ref_mldsa
from pqkit.mldsa.kernels.compose import COMPOSITES as MLDSA_COMPOSITES
from pqkit.mlkem.kernels import numpy as numpy_mlkem
from pqkit.mlkem.kernels import ref as ref_mlkem
from pqkit.mlkem.kernels.compose import COMPOSITES

HAS_NUMBA = importlib.util.find_spec("numba") is not None
needs_numba = pytest.mark.skipif(not HAS_NUMBA, reason="numba is not installed (pqkit[jit])")
PRIMITIVES = {k: v for k, v in numpy_mlkem.KERNELS.items() if k not in COMPOSITES}


@pytest.fixture
def registered() -> Iterator[list[str]]:
    """Names registered by the test, unregistered afterwards."""
    names: list[str] = []
    yield names
    for name in names:
        arith.unregister(name)


def _register(names: list[str], name: str, table: Any, **kw: Any) -> None:
    arith.register(name, {"mlkem": lambda: table}, **kw)
    names.append(name)


def test_listed_from_the_registrations() -> None:
    expected = ["jit", "numpy", "ref"] if HAS_NUMBA else ["numpy", "ref"]
    assert arith.BACKEND_ORDER == ("jit", "numpy", "ref")
    assert arith.backends()["available"] == {
        "mlkem": expected,
        "mldsa": expected,
        "hash": expected,
        "falcon": expected,
        "frodokem": expected,
        "hqc": expected,
        "sntrup": expected,
        "mceliece": expected,
    }


def test_registration_is_discovered(registered: list[str]) -> None:
    _register(registered, "prims", PRIMITIVES, rank=25)
    assert "prims" in arith.BACKEND_ORDER
    assert arith.available("mlkem")[-2:] == ["prims", "ref"]
    assert "prims" not in arith.available("mldsa")  # serves ML-KEM only
    with pytest.raises(UnknownBackend):
        arith.kernels("mldsa", "prims")
    arith.unregister(registered.pop())
    assert "prims" not in arith.available("mlkem")
    with pytest.raises(UnknownBackend):
        arith.kernels("mlkem", "prims")


def test_missing_numba_means_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    # Simulate an environment without Numba: find_spec finds nothing.
    monkeypatch.setitem(sys.modules, "numba", None)
    monkeypatch.setattr(arith, "_TABLES", {})  # as in a fresh process: nothing built yet
    assert arith.available("mlkem") == ["numpy", "ref"]
    assert arith.available("mldsa") == ["numpy", "ref"]
    assert arith.backends()["active"] == "numpy"
    for call in (
        lambda: arith.kernels("mlkem", backend="jit"),
        lambda: arith.use("jit"),  # fails at once, not at the first operation
        lambda: pqkit.kem("ML-KEM-512").using(arith="jit"),  # type: ignore[attr-defined]
    ):
        with pytest.raises(UnknownBackend) as info:
            call()
        if isinstance(info.value, arith.BackendUnavailable):
            assert "'jit' extra (numba)" in str(info.value)
            assert 'pip install ".[jit]"' in str(info.value)
    with pytest.raises(arith.BackendUnavailable, match=r"pip install \"\.\[jit\]\""):
        arith.use("jit")


def test_importing_arith_does_not_import_numba() -> None:
    code = (
        "import sys, pqkit.arith as a; a.available(); a.backends(); a.kernels('mlkem'); "
        "print('numba' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_default_stays_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PQKIT_ARITH", raising=False)
    assert arith.DEFAULT_BACKEND == "numpy"
    assert arith.backends()["active"] == "numpy"
    assert arith.kernels("mlkem").backend == "numpy"
    assert arith.kernels("mldsa").backend == "numpy"


def test_unknown_names() -> None:
    for bad in ("nope", "", 3, None):
        with pytest.raises(UnknownBackend, match="available: "):
            arith.use(bad)  # type: ignore[arg-type]
    with pytest.raises(UnknownBackend):
        arith.kernels("mlkem", "nope")


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


def test_ref_from_the_environment_warns_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(arith, "_WARNED", set())
    monkeypatch.setenv("PQKIT_ARITH", "ref")
    with pytest.warns(arith.NotConstantTimeWarning, match="PQKIT_ARITH=ref .* not constant time"):
        assert arith.kernels("mlkem").backend == "ref"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        arith.kernels("mldsa")  # once per process
        monkeypatch.delenv("PQKIT_ARITH")
        monkeypatch.setattr(arith, "_WARNED", set())
        # Chosen in code: deliberate (tests, oracle runs), so no warning.
        arith.kernels("mlkem", "ref")
        with arith.use("ref"):
            arith.kernels("mlkem")
        monkeypatch.setenv("PQKIT_ARITH", "numpy")
        arith.kernels("mlkem")  # constant time: no warning


# --- kernel tables: composed, never filled in from ref ----------------------------------


def test_primitive_only_table_composes_over_its_own_primitives(registered: list[str]) -> None:
    """A backend with only numpy's primitives runs ML-KEM-768 on composed K-PKE
    kernels over those primitives (never ref's) and gives the same bytes as the
    full numpy backend. (Speed: benchmarks/arith_compose.py.)"""
    calls: list[str] = []

    def spy(name: str) -> Any:
        def wrapped(*args: Any, **kw: Any) -> Any:
            calls.append(name)
            return PRIMITIVES[name](*args, **kw)

        return wrapped

    _register(registered, "prims", {name: spy(name) for name in PRIMITIVES})
    table = arith.kernels("mlkem", "prims")
    assert table.composed == frozenset(COMPOSITES)
    kem = pqkit.kem("ML-KEM-768")
    prims = kem.using(arith="prims")  # type: ignore[attr-defined]
    pk, sk = kem.keygen_derand(bytes(range(64)))
    assert prims.keygen_derand(bytes(range(64))) == (pk, sk)
    ct_key = kem.encaps_derand(pk, bytes(32))
    calls.clear()
    assert prims.encaps_derand(pk, bytes(32)) == ct_key
    assert {"ntt", "intt", "basemul_acc", "compress", "byte_encode"} <= set(calls)
    calls.clear()
    bad = bytes([ct_key[1][0] ^ 1]) + ct_key[1][1:]
    assert prims.decaps(sk, ct_key[1]) == kem.decaps(sk, ct_key[1]) == ct_key[0]
    assert prims.decaps(sk, bad) == kem.decaps(sk, bad)  # implicit rejection
    assert {"ntt", "intt", "basemul_acc", "byte_decode", "decompress"} <= set(calls)


def test_composites_are_the_fallback_for_every_backend() -> None:
    assert arith.kernels("mlkem", "ref").composed == frozenset(COMPOSITES)
    # numpy has its own fused K-PKE kernels (float64 throughout, fewer calls).
    assert arith.kernels("mlkem", "numpy").composed == frozenset()
    # ... and its own challenge products (an exact complex FFT, docs/decisions.md).
    assert arith.kernels("mldsa", "numpy").composed == frozenset()
    assert "kpke_decrypt" not in ref_mlkem.KERNELS  # one copy: compose.py
    assert arith.kernels("mldsa", "ref").composed == frozenset(MLDSA_COMPOSITES)
    assert "challenge_mul" not in ref_mldsa.KERNELS


@pytest.mark.parametrize(
    ("table", "message"),
    [
        (
            {k: v for k, v in PRIMITIVES.items() if k != "ntt"},
            r"'broken' \(mlkem\) lacks .*\bntt\b",
        ),
        ({**PRIMITIVES, "ntt2": PRIMITIVES["ntt"]}, "not in the contract: ntt2"),
        ({**PRIMITIVES, "intt": 3}, "not callable: intt"),
        ({**PRIMITIVES, **numpy_mldsa.KERNELS}, "not in the contract: .*bit_pack"),
        (list(PRIMITIVES), "the table is a list"),
    ],
)
def test_inconsistent_tables_are_refused(registered: list[str], table: Any, message: str) -> None:
    _register(registered, "broken", table)
    with pytest.raises(arith.InvalidKernelTable, match=message):
        arith.kernels("mlkem", "broken")
    with pytest.raises(arith.InvalidKernelTable):
        arith.kernels("mlkem", "broken")  # not cached half-built


def test_bad_registrations() -> None:
    with pytest.raises(ValueError, match="tables must map"):
        arith.register("x", {"kyber": "pqkit.mlkem.kernels.numpy"})
    with pytest.raises(ValueError, match="tables must map"):
        arith.register("x", {})
    with pytest.raises(TypeError, match="module name or a function"):
        arith.register("x", {"mlkem": 3})  # type: ignore[dict-item]
    with pytest.raises(ValueError, match="identifier"):
        arith.register("bad name", {"mlkem": "pqkit.mlkem.kernels.numpy"})
    with pytest.raises(KeyError):
        arith.unregister("never-registered")
    assert "x" not in arith.BACKEND_ORDER


def test_registered_module_with_missing_requirement(registered: list[str]) -> None:
    arith.register(
        "needs", {"mlkem": "pqkit.mlkem.kernels.numpy"}, requires=("no_such_pkg_pqkit",), extra="x"
    )
    registered.append("needs")
    assert "needs" not in arith.available("mlkem")
    with pytest.raises(arith.BackendUnavailable, match="'x' extra \\(no_such_pkg_pqkit\\)"):
        arith.kernels("mlkem", "needs")


def test_tables_are_built_once() -> None:
    assert arith.kernels("mlkem", "numpy") is arith.kernels("mlkem", "numpy")
    z = np.zeros(256, dtype=np.int64)
    assert np.array_equal(arith.kernels("mlkem", "numpy").add(z, z), z)


def test_environment_value_follows_every_change(monkeypatch: pytest.MonkeyPatch) -> None:
    """``pqkit._env.value`` (how every call reads PQKIT_ARITH) answers as
    ``os.environ.get(name, "").strip()`` after each set and unset, and through
    ``os.environ.get`` when ``os.environ`` is not CPython's mapping."""
    import os

    from pqkit import _env

    name = "PQKIT_TEST_ENV_VALUE"
    monkeypatch.delenv(name, raising=False)
    assert _env.value(name) == ""
    monkeypatch.setenv(name, " numpy ")
    assert _env.value(name) == "numpy"
    monkeypatch.setenv(name, "ref")
    assert _env.value(name) == "ref"
    monkeypatch.delenv(name)
    assert _env.value(name) == ""
    monkeypatch.setattr(os, "environ", {name: " jit"})
    assert _env.value(name) == "jit"
