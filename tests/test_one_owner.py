"""Code written once and used from several places (issue 27 item 5): the shared
owners do what each copy did, and the places that still state a list agree."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import pqkit
from pqkit.mceliece.kernels.contract import reduce_rows
from pqkit.mceliece.params import CATALOG as MCELIECE

_INIT = Path(pqkit.__file__)


def test_type_checking_reexports_are_the_lazy_names() -> None:
    """The ``TYPE_CHECKING`` block (what type checkers see) and ``_LAZY`` (what runs)
    name the same things, each as an explicit re-export (``X as X``)."""
    tree = ast.parse(_INIT.read_text())
    block = next(n for n in tree.body if isinstance(n, ast.If))
    names = [a for imp in block.body if isinstance(imp, ast.ImportFrom) for a in imp.names]
    assert all(a.asname == a.name for a in names)
    assert sorted(a.name for a in names) == sorted(pqkit._LAZY)
    assert set(pqkit._LAZY) <= set(pqkit.__all__)
    assert len(pqkit.__all__) == len(set(pqkit.__all__))


def _params(semi: bool) -> Any:
    return next(a.params for a in MCELIECE if a.params.semi == semi)


def test_reduce_rows_plain_set() -> None:
    p = _params(False)
    seen: list[int] = []
    assert reduce_rows(p, lambda r0: pytest.fail("plain sets move no columns"), seen.append) is None
    assert seen == [0]  # stops at the first row without a pivot
    seen.clear()
    ok = reduce_rows(p, lambda r0: 0, lambda r: seen.append(r) is None)
    assert ok == 0xFFFFFFFF and seen == list(range(p.mt))


def test_reduce_rows_semi_systematic_set() -> None:
    p = _params(True)
    moved: list[int] = []

    def move(r0: int) -> int:
        moved.append(r0)
        return 0x1234

    assert reduce_rows(p, move, lambda r: True) == 0x1234
    assert moved == [p.mt - 32]
    assert reduce_rows(p, lambda r0: None, lambda r: True) is None


def test_composite_halves_take_their_sizes_from_the_mlx_scheme() -> None:
    from pqkit.composite.params import CATALOG

    for algorithm in CATALOG:
        scheme = pqkit.sig(algorithm.name) if algorithm.kind == "sig" else pqkit.kem(algorithm.name)
        p = algorithm.params
        mlx_name, mlx_pk = (
            (p.mldsa, p.length_mldsa_public_key)
            if algorithm.kind == "sig"
            else (p.mlkem, p.length_mlkem_public_key)
        )
        assert scheme.mlx.name == mlx_name
        assert scheme.mlx.length_public_key == mlx_pk
        assert scheme.mlx.length_seed == (32 if algorithm.kind == "sig" else 64)


def test_falcon_jit_compiles_the_scalar_loops() -> None:
    pytest.importorskip("numba", reason="the jit backend needs Numba")
    from pqkit.falcon.kernels import jit, scalar

    pairs = {
        "_fft": scalar.fft_into,
        "_ifft": scalar.ifft_into,
        "_split": scalar.split_into,
        "_merge": scalar.merge_into,
        "_ldl": scalar.ldl_into,
        "_ntt_fwd": scalar.ntt_into,
        "_ntt_inv": scalar.intt_into,
    }
    for name, loop in pairs.items():
        assert getattr(jit, name).py_func is loop, name


def test_falcon_scalar_loops_work_in_place_on_lists_and_arrays() -> None:
    from pqkit.falcon.kernels import scalar

    a = [float(i % 7) - 3.0 for i in range(16)]
    f = np.array(a)
    scalar.fft_into(f, np.array(scalar.GM_RE), np.array(scalar.GM_IM))
    assert f.tolist() == scalar.fft(a)
    scalar.ifft_into(f, scalar.GM_RE, scalar.GM_IM)
    assert np.allclose(f, a)
