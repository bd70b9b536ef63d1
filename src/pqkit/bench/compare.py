"""``pqkit speed compare OLD.json NEW.json``: the before/after table of a
performance change, one Markdown block per algorithm (or primitive, or kernel table)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from pqkit.bench.report import JSON_FORMAT, markdown_table

__all__ = ["METRICS", "compare", "load_run"]

METRICS: dict[str, str] = {"median": "median_ns", "mean": "mean_ns"}
"""``--metric`` choices and the JSON field (high-precision clock, ns) each one reads."""


def load_run(path: str | Path) -> dict[str, Any]:
    """Read a ``pqkit speed ... --format json`` file; ``ValueError`` if it is not one."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not JSON ({exc})") from exc
    if not isinstance(data, dict) or data.get("format") != JSON_FORMAT:
        raise ValueError(f"{path}: not a pqkit speed JSON file (format {JSON_FORMAT!r})")
    results = data.get("results")
    if not isinstance(results, list):
        raise ValueError(f"{path}: no 'results' list")
    return data


def _figures(data: dict[str, Any], field: str) -> dict[tuple[str, str], float]:
    figures: dict[tuple[str, str], float] = {}
    for item in data["results"]:
        value = item.get(field)
        if isinstance(value, (int, float)):
            figures[(str(item["group"]), str(item["operation"]))] = float(value)
    return figures


def _us(ns: float | None) -> str:
    return "-" if ns is None else f"{ns / 1e3:.3f}"


def _ratio(before: float | None, after: float | None) -> str:
    if before is None or after is None or not after > 0 or math.isnan(before):
        return "-"
    return f"{before / after:.2f}x"


def compare(old: dict[str, Any], new: dict[str, Any], *, metric: str = "median") -> list[str]:
    """The Markdown blocks: ``Operation | Before (us) | After (us) | Improv`` where
    Improv = before / after (above 1: the new run is faster). Rows in only one run
    show ``-``."""
    field = METRICS[metric]
    before, after = _figures(old, field), _figures(new, field)
    keys = list(before) + [k for k in after if k not in before]
    groups: dict[str, list[str]] = {}
    for group, operation in keys:
        groups.setdefault(group, []).append(operation)
    lines: list[str] = []
    for group, operations in groups.items():
        body = []
        for operation in operations:
            b, a = before.get((group, operation)), after.get((group, operation))
            body.append([operation, _us(b), _us(a), _ratio(b, a)])
        if lines:
            lines.append("")
        lines += [
            f"### {group}",
            "",
            *markdown_table(
                ["Operation", f"Before (us, {metric})", f"After (us, {metric})", "Improv"], body
            ),
        ]
    return lines
