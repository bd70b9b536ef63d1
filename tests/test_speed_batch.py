"""``pqkit speed kem|sig --batch N``: the batch view timed, per-item columns."""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np
import pytest

from pqkit.cli import main

FAST = ["--duration", "0.01", "--quiet"]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["speed", *argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    ("kind", "name", "ops"),
    [
        ("kem", "ML-KEM-512", ["keygen", "encaps", "decaps"]),
        ("sig", "ML-DSA-44", ["keypair", "sign", "verify"]),
    ],
)
def test_batch_table_has_per_item_columns(
    capsys: pytest.CaptureFixture[str], kind: str, name: str, ops: list[str]
) -> None:
    status, out, _ = _run(capsys, kind, name, "--batch", "3", *FAST)
    assert status == 0
    table = out.split("Speed test")[1]
    header = next(line for line in table.splitlines() if line.startswith("Operation"))
    assert header.rstrip().endswith("| Per item (us) | Items/s")
    for op in ops:
        line = next(li for li in table.splitlines() if li.startswith(op))
        cells = [c.strip() for c in line.split("|")]
        mean_us, per_item, rate = float(cells[3]), float(cells[7]), float(cells[8])
        assert per_item == pytest.approx(mean_us / 3, rel=1e-3, abs=1e-3)
        assert rate == pytest.approx(1e6 / per_item, rel=1e-2)


def test_batch_json_has_per_item_figures(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "kem", "ML-KEM-512", "--batch", "2", "--format", "json", *FAST)
    assert status == 0
    data = json.loads(out)
    assert data["parameters"]["batch"] == 2
    by_op = {r["operation"]: r for r in data["results"]}
    assert list(by_op) == ["keygen", "encaps", "decaps", "encaps (one key)", "decaps (one key)"]
    for item in data["per_item"]:
        mean_us = by_op[item["operation"]]["mean_us"]
        assert item["mean_us"] == pytest.approx(mean_us / 2)
        assert item["items_per_s"] == pytest.approx(2e6 / mean_us)


def test_without_batch_the_table_is_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "kem", "ML-KEM-512", *FAST)
    assert status == 0
    assert "Per item" not in out
    assert "per_item" not in json.dumps(out)


@pytest.mark.parametrize("value", ["-1", "x"])
def test_bad_batch_sizes(capsys: pytest.CaptureFixture[str], value: str) -> None:
    status, out, err = _run(capsys, "kem", "ML-KEM-512", "--batch", value)
    assert status == 2
    assert out == ""
    assert re.search(r"--batch", err)


def test_batch_and_fullcycle_conflict(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = _run(capsys, "kem", "ML-KEM-512", "--batch", "2", "--fullcycle", *FAST)
    assert status == 2
    assert "cannot be combined" in err


class _RecordingView:
    """A batch view that makes numbered keys and records the rows it is given."""

    def __init__(self) -> None:
        self.made = 0
        self.seen: list[bytes] = []

    def keygen(self, n: int) -> tuple[Any, Any]:
        start = self.made
        self.made += n
        pks = np.arange(start, start + n, dtype=np.uint8).reshape(n, 1)
        return pks, pks + 100

    def encaps(self, pks: Any) -> tuple[Any, Any]:
        self.seen += [bytes(row) for row in pks]
        return pks, pks

    def decaps(self, sks: Any, cts: Any) -> Any:
        self.seen += [bytes(sks)] if sks.ndim == 1 else [bytes(row) for row in sks]
        return cts


def test_batch_rows_cycle_through_fresh_keys() -> None:
    from pqkit.bench import suites
    from pqkit.bench.keyring import KEY_RING

    view = _RecordingView()
    scheme = type("S", (), {"name": "REC", "batch": view})()
    (group,) = suites.batch_groups([scheme], "kem", 8)
    ops = {op.name: op.run for op in group.build()}
    for name in ("encaps", "decaps"):
        view.seen.clear()
        for _ in range(KEY_RING // 8):
            ops[name]()
        assert len(set(view.seen)) == KEY_RING  # 8 calls of 8 rows: 64 different keys
        view.seen.clear()
        ops[f"{name} (one key)"]()
        ops[f"{name} (one key)"]()
        assert len(set(view.seen)) == 1  # one key on every row of every call
