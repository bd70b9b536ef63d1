"""One rule for how many threads or processes pqkit starts (``pqkit._workers``):
``workers=``, else ``PQKIT_WORKERS``, else the CPUs this process may run on; and
every place that starts them follows it (the batch views, the jit hash kernels,
``pqkit compile``)."""

from __future__ import annotations

import argparse
import importlib.util
import os
import threading
from typing import Any

import pytest

import pqkit
import pqkit.batch
from pqkit import _workers

needs_numba = pytest.mark.skipif(
    importlib.util.find_spec("numba") is None, reason="the jit backend needs numba"
)


@pytest.fixture
def five_cpus(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process that may run on 5 CPUs, with no PQKIT_WORKERS."""
    monkeypatch.delenv("PQKIT_WORKERS", raising=False)
    monkeypatch.setattr(_workers, "available_cpus", lambda: 5)


def test_available_cpus_prefers_process_cpu_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "process_cpu_count", lambda: 3, raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    assert _workers.available_cpus() == 3
    monkeypatch.setattr(os, "process_cpu_count", lambda: None, raising=False)
    assert _workers.available_cpus() == 1  # unknown: one, never zero


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="no CPU affinity here")
def test_available_cpus_falls_back_to_the_affinity_mask(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(os, "process_cpu_count", raising=False)  # Python before 3.13
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 2})
    monkeypatch.setattr(os, "cpu_count", lambda: 64)  # the machine, not this process
    assert _workers.available_cpus() == 2


def test_available_cpus_is_what_this_process_may_use() -> None:
    if hasattr(os, "process_cpu_count"):
        assert _workers.available_cpus() == os.process_cpu_count()
    elif hasattr(os, "sched_getaffinity"):
        assert _workers.available_cpus() == len(os.sched_getaffinity(0))
    else:  # pragma: no cover
        assert _workers.available_cpus() == os.cpu_count()


def test_the_rule(five_cpus: None, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _workers.resolve_workers() == 5
    assert _workers.resolve_workers(2) == 2
    monkeypatch.setenv("PQKIT_WORKERS", " 3 ")
    assert _workers.resolve_workers() == 3
    assert _workers.resolve_workers(1) == 1  # the argument wins over the environment
    for bad in ("many", "0", "-2", "1.5"):
        monkeypatch.setenv("PQKIT_WORKERS", bad)
        with pytest.raises(ValueError, match="PQKIT_WORKERS must be a positive integer"):
            _workers.resolve_workers()
    monkeypatch.setenv("PQKIT_WORKERS", "")
    assert _workers.resolve_workers() == 5
    with pytest.raises(ValueError, match="workers must be >= 1, got 0"):
        _workers.resolve_workers(0)
    for wrong in (2.0, "2", True):
        with pytest.raises(TypeError, match="workers must be an int"):
            _workers.resolve_workers(wrong)


def test_batch_uses_the_rule(five_cpus: None) -> None:
    assert pqkit.batch.resolve_workers is _workers.resolve_workers
    assert pqkit.batch.resolve_workers() == 5


def test_a_default_batch_runs_on_several_threads(
    five_cpus: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no workers= and no PQKIT_WORKERS, the chunks of a batch spread over
    threads (it used to run them all on the calling thread)."""
    seen: set[str] = set()
    real = pqkit.batch.run_chunks

    def spy(n: int, chunk: int, prepare: Any, compute: Any, workers: int) -> Any:
        assert workers == 5

        def compute_and_note(prepared: Any) -> Any:
            seen.add(threading.current_thread().name)
            return compute(prepared)

        return real(n, chunk, prepare, compute_and_note, workers)

    kem = pqkit.kem("Kyber512")  # the loop view: one module-level run_chunks
    monkeypatch.setattr(pqkit.batch, "run_chunks", spy)
    view = kem.batch
    view.chunk = 1
    pks, _ = view.keygen(6)
    assert pks.shape[0] == 6
    assert any(name.startswith("pqkit-batch") for name in seen), seen


@needs_numba
def test_jit_hash_threads_follow_the_rule(five_cpus: None) -> None:
    from pqkit.common.kernels import jit as jit_hash

    assert jit_hash.workers() == 5


@needs_numba
def test_compile_jobs_follow_the_rule(five_cpus: None, monkeypatch: pytest.MonkeyPatch) -> None:
    from pqkit.arith import warmup
    from pqkit.cli import compile as compile_command

    runs: list[tuple[str, int]] = []
    monkeypatch.setattr(
        compile_command, "_in_processes", lambda parts, jobs, verbose: runs.append(("p", jobs))
    )
    monkeypatch.setattr(compile_command, "_here", lambda parts, verbose: runs.append(("h", 1)))
    args = argparse.Namespace(worker=False, only=None, jobs=None, verbose=False, all=True)
    assert compile_command.run(args) == 0
    assert runs == [("p", min(5, len(warmup.PARTS)))]
    monkeypatch.setenv("PQKIT_WORKERS", "1")
    assert compile_command.run(args) == 0
    assert runs[-1] == ("h", 1)


@needs_numba
def test_compile_builds_the_ahead_groups_unless_told_all(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pqkit.arith import warmup
    from pqkit.cli import compile as compile_command

    built: list[list[str]] = []
    monkeypatch.setattr(compile_command, "_here", lambda parts, verbose: built.append(parts))
    monkeypatch.setenv("PQKIT_WORKERS", "1")
    ahead = set(warmup.ahead_groups())
    assert ahead == {"mlkem", "mldsa"}
    args = argparse.Namespace(worker=False, only=None, jobs=None, verbose=False, all=False)
    assert compile_command.run(args) == 0
    assert built[-1] == [part for part, group in warmup.PARTS if group in ahead]
    args.all = True
    assert compile_command.run(args) == 0
    assert built[-1] == [part for part, _ in warmup.PARTS]
