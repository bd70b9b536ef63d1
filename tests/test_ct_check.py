"""benchmarks/ct_check.py runs (tiny sample counts; no timing assertion) and its
statistics are right on synthetic data."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest


def _tool() -> ModuleType:
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "ct_check.py"
    spec = importlib.util.spec_from_file_location("ct_check", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["ct_check"] = module
    spec.loader.exec_module(module)
    return module


CT = _tool()


def test_welch_t_on_synthetic_data() -> None:
    rng = np.random.default_rng(5)
    same_a, same_b = rng.normal(100, 5, 4000), rng.normal(100, 5, 4000)
    assert abs(CT.welch_t(same_a, same_b)) < 4.5
    shifted = rng.normal(101, 5, 4000)
    t, _ = CT.cropped_t(same_a, shifted)
    assert t > 4.5
    a, b = np.array([1.0, 2.0, 3.0, 4.0]), np.array([2.0, 3.0, 4.0, 5.0])
    expected = (2.5 - 3.5) / np.sqrt(a.var(ddof=1) / 4 + b.var(ddof=1) / 4)
    assert CT.welch_t(a, b) == pytest.approx(expected)
    assert CT.welch_t(a[:1], b) == 0.0


def test_tool_runs_on_tiny_sample_counts(capsys: pytest.CaptureFixture[str]) -> None:
    rc = CT.main(["--samples", "12", "--cases", "mlkem-decaps-numpy", "load-wrong"])
    out = capsys.readouterr().out
    assert rc in (0, 1)
    lines = [line for line in out.splitlines() if line.startswith("| mlkem") or "load-" in line]
    assert [line.split("|")[1].strip() for line in lines] == [
        "mlkem-decaps-numpy",
        "load-wrong-password",
    ]
    assert CT.main(["--list"]) == 0
    assert "mldsa-sign-numpy" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        CT.main(["--samples", "5"])
