"""``pqkit speed kem|sig --batch N``: the batch view timed, per-item columns."""

from __future__ import annotations

import json
import re

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
