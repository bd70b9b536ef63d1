"""benchmarks/peers.py runs (not its figures: it is a benchmark, not run by CI)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

PEERS = Path(__file__).resolve().parent.parent / "benchmarks" / "peers.py"


def _load(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    spec = importlib.util.spec_from_file_location("pqkit_benchmark_peers", PEERS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # dataclasses look the module up
    spec.loader.exec_module(module)
    return module


def test_peers_table(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("cryptography.hazmat.primitives.asymmetric.mlkem")
    peers = _load(monkeypatch)
    status = peers.main(
        ["--duration", "0.001", "--peers", "cryptography", "pqcrypto", "--no-config", "--sig"]
    )
    assert status == 0
    out = capsys.readouterr().out
    assert out.startswith("### ML-KEM-768\n")
    rows = {line.split("|")[0].strip(): line for line in out.splitlines() if "|" in line}
    crypto = next(label for label in rows if label.startswith("cryptography"))
    assert len(rows[crypto].split("|")) == 4  # label, keygen, encaps, decaps
    assert "pqcrypto: skipped" in out or any(label.startswith("pqcrypto") for label in rows)
    if any(label.startswith("pqkit") for label in rows):
        assert "pqkit time / peer time" in out
