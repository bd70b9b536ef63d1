"""SampleInBall without data-dependent control flow (issue 13, "SampleInBall on
unaccepted attempts"): the numpy and jit kernels equal the reference on random and
edge seeds, and the Python code they run does the same steps for every stream of
a given length (traced line by line; the jit kernel through its ``py_func``)."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from types import FrameType
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pqkit.mldsa.kernels import numpy as numpy_mldsa
from pqkit.mldsa.kernels import ref as ref_mldsa

REF = ref_mldsa.KERNELS["sample_in_ball"]
TAUS = (39, 49, 60)  # ML-DSA-44/65/87


def _backends() -> list[Any]:
    out = [pytest.param(numpy_mldsa.KERNELS["sample_in_ball"], id="numpy")]
    try:
        from pqkit.mldsa.kernels import jit as jit_mldsa
    except ImportError:  # pragma: no cover - numba not installed
        return out
    out.append(pytest.param(jit_mldsa.KERNELS["sample_in_ball"], id="jit"))
    return out


def _edge_streams(n: int) -> list[bytes]:
    body = max(n - 8, 0)
    streams = [
        bytes(n),  # every index byte 0: j = 0 each time
        b"\xff" * n,  # every index byte rejected: runs short
        bytes(8) + bytes(k % 256 for k in range(body)),  # increasing
        b"\xff" * 8 + bytes(255 - k % 256 for k in range(body)),  # decreasing
        b"\x55" * 8 + b"\xff\x00" * (body // 2) + b"\x00" * (body % 2),  # alternate
    ]
    return [stream[:n] for stream in streams]


def _same(got: tuple[Any, Any], want: tuple[Any, Any]) -> None:
    assert got[0].dtype == want[0].dtype and got[0].shape == want[0].shape
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])


@pytest.mark.parametrize("kernel", _backends())
@pytest.mark.parametrize("tau", TAUS)
@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 40, 68, 136, 544])
def test_edge_seeds_match_ref(kernel: Callable[..., Any], tau: int, n: int) -> None:
    streams = _edge_streams(n)
    buf = np.frombuffer(b"".join(streams), dtype=np.uint8).reshape(len(streams), n)
    _same(kernel(buf, tau), REF(buf, tau))
    batched = np.stack([buf, buf[::-1]])  # (2, 5, n): leading shape kept
    _same(kernel(batched, tau), REF(batched, tau))


@pytest.mark.parametrize("kernel", _backends())
@settings(max_examples=60, deadline=None)
@given(
    tau=st.sampled_from(TAUS),
    rows=st.lists(st.binary(min_size=136, max_size=136), min_size=1, max_size=4),
    cut=st.integers(min_value=0, max_value=136),
)
def test_random_seeds_match_ref(
    kernel: Callable[..., Any], tau: int, rows: list[bytes], cut: int
) -> None:
    buf = np.frombuffer(b"".join(rows), dtype=np.uint8).reshape(len(rows), 136)[:, :cut]
    _same(kernel(buf, tau), REF(buf, tau))


def _line_trace(fn: Callable[..., Any], *args: Any) -> Counter[int]:
    """How often each line of ``fn``'s own code ran."""
    code = fn.__code__
    seen: Counter[int] = Counter()

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        if frame.f_code is code:
            if event == "line":
                seen[frame.f_lineno] += 1
            return tracer
        return None

    sys.settrace(tracer)
    try:
        fn(*args)
    finally:
        sys.settrace(None)
    return seen


def _python_bodies() -> list[Any]:
    out = [pytest.param(numpy_mldsa.sample_in_ball, id="numpy")]
    try:
        from pqkit.mldsa.kernels import jit as jit_mldsa
    except ImportError:  # pragma: no cover - numba not installed
        return out
    body = jit_mldsa._sample_in_ball.py_func  # type: ignore[attr-defined]
    out.append(pytest.param(body, id="jit-py_func"))
    return out


@pytest.mark.parametrize("fn", _python_bodies())
def test_same_steps_for_every_stream(fn: Callable[..., Any]) -> None:
    traces = []
    for stream in [*_edge_streams(136), bytes(range(136))]:
        buf = np.frombuffer(stream, dtype=np.uint8).reshape(1, 136)
        traces.append(_line_trace(fn, buf, 49))
    assert all(trace == traces[0] for trace in traces[1:])


def _public_as_kernel(stream: bytes, tau: int) -> tuple[Any, Any]:
    """pqkit.mldsa.core's sampler for published challenges, shaped as the kernels'
    answer for one row: c (zeros when it ran short; then ok is False)."""
    from pqkit.mldsa.core import _sample_in_ball_public

    c = _sample_in_ball_public(stream, tau) if len(stream) >= 8 else None
    poly = np.array(c if c is not None else [0] * 256, dtype=np.int64)
    return poly, np.array(c is not None)


@pytest.mark.parametrize("tau", TAUS)
@pytest.mark.parametrize("n", [8, 9, 40, 68, 136, 544])
def test_public_sampler_edge_seeds_match_ref(tau: int, n: int) -> None:
    """Verification's sampler (public challenges, issue 26) against the reference:
    the same c wherever the reference completes, and short where it runs short."""
    for stream in _edge_streams(n):
        c, ok = _public_as_kernel(stream, tau)
        want_c, want_ok = REF(np.frombuffer(stream, dtype=np.uint8)[None], tau)
        assert bool(ok) == bool(want_ok[0])
        if ok:
            assert np.array_equal(c, want_c[0])


@settings(max_examples=100, deadline=None)
@given(tau=st.sampled_from(TAUS), stream=st.binary(min_size=8, max_size=200))
def test_public_sampler_random_seeds_match_ref(tau: int, stream: bytes) -> None:
    c, ok = _public_as_kernel(stream, tau)
    want_c, want_ok = REF(np.frombuffer(stream, dtype=np.uint8)[None], tau)
    assert bool(ok) == bool(want_ok[0])
    if ok:
        assert np.array_equal(c, want_c[0])
