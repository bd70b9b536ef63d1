"""benchmarks/batch_throughput.py runs (not its figures: it is a benchmark): the
default backend is the automatic selection, waited for on the kernel groups it
times and no others, on every CPU, with pycryptodome's column when installed."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "batch_throughput.py"


def _load(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    spec = importlib.util.spec_from_file_location("pqkit_benchmark_batch", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    return module


def test_the_default_waits_only_for_the_groups_timed(monkeypatch: pytest.MonkeyPatch) -> None:
    bench = _load(monkeypatch)
    from pqkit.arith import auto

    assert bench.timed_groups("ML-KEM-768") == ("mlkem", "mlkem-batch")
    assert bench.timed_groups("ML-DSA-65") == ("mldsa", "mldsa-batch")
    waited: list[Any] = []

    def wait(timeout: float | None = None, families: tuple[str, ...] | None = None) -> bool:
        waited.append(families)
        return True

    monkeypatch.delenv("PQKIT_ARITH", raising=False)
    monkeypatch.setattr(auto, "wait", wait)
    monkeypatch.setattr(auto, "status", lambda: {"enabled": True})
    bench.settle_default(["ML-KEM-768"])
    assert waited == [("mlkem", "mlkem-batch")]  # never None: that queues every family


def test_a_small_run_prints_the_threads_and_the_backend(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    bench = _load(monkeypatch)
    from pqkit.batch import resolve_workers

    monkeypatch.delenv("PQKIT_WORKERS", raising=False)
    args = "--schemes ML-KEM-768 --only-max --max-n 4 --rounds 1 --min-time 0.001 --keys fresh"
    bench.main(args.split())
    out = capsys.readouterr().out
    assert f"threads (thr): {resolve_workers()} (the default" in out
    assert "arith default: the automatic selection, running " in out
    rows = [line for line in out.splitlines() if line.startswith("ML-KEM-768")]
    assert [line.split()[1] for line in rows] == ["keygen", "encaps", "decaps"]
    try:
        import Crypto.PublicKey.MLKEM  # noqa: F401
    except ImportError:
        assert "pycryptodome not installed" in out
    else:
        assert all(len(line.split("|")[1].split()) == 4 for line in rows)  # with the ratio
