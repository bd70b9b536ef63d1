"""How a :class:`~pqkit.bench.runner.Report` is printed: liboqs's Markdown table,
mlkem-native's percentiles, BoringSSL's one-liners, or JSON with every figure."""

from __future__ import annotations

import math
from typing import Any

from pqkit.bench.config import format_configuration
from pqkit.bench.runner import Report
from pqkit.bench.timing import PERCENTILES

__all__ = [
    "JSON_FORMAT",
    "format_bssl",
    "format_info",
    "format_table",
    "markdown_table",
    "to_json",
]

JSON_FORMAT = "pqkit-speed/1"
"""The ``format`` field of the JSON output, for ``pqkit speed compare`` to check."""

_TIME_FORMAT = "%Y-%m-%d %H:%M:%S"


def markdown_table(header: list[str], rows: list[list[str]], *, left: int = 1) -> list[str]:
    """A Markdown table with aligned columns; the first ``left`` columns are
    left-aligned, the others right-aligned (``---:`` as liboqs prints them)."""
    widths = [len(h) for h in header]
    for row in rows:
        widths = [max(w, len(cell)) for w, cell in zip(widths, row, strict=True)]

    def line(cells: list[str]) -> str:
        padded = [
            cell.ljust(w) if i < left else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return " | ".join(padded).rstrip()

    rule = " | ".join("-" * w if i < left else "-" * (w - 1) + ":" for i, w in enumerate(widths))
    return [line(header), rule, *(line(row) for row in rows)]


def _grouped(report: Report) -> list[tuple[str, list[int]]]:
    """Group names in first-seen order, with the indices of their rows."""
    groups: dict[str, list[int]] = {}
    for i, row in enumerate(report.rows):
        groups.setdefault(row.group, []).append(i)
    return list(groups.items())


def _fixed(value: float, digits: int) -> str:
    return "nan" if math.isnan(value) else f"{value:.{digits}f}"


def format_table(report: Report, *, percentiles: bool = False) -> list[str]:
    """The liboqs-style output: configuration, "Speed test", the table, timestamps."""
    lines = format_configuration(report.configuration)
    if report.algorithms:
        lines += ["", *format_info(report)]
    lines += ["", "Speed test", "==========", f"Started at {report.started.strftime(_TIME_FORMAT)}"]
    header = [
        "Operation".ljust(30),
        "Iterations",
        "Total time (s)",
        "Time (us): mean",
        "pop. stdev",
        "High-prec time (ns): mean",
        "pop. stdev",
    ]
    body: list[list[str]] = []
    for group, indices in _grouped(report):
        body.append([group, *[""] * (len(header) - 1)])
        for i in indices:
            row = report.rows[i]
            s = row.stats
            body.append(
                [
                    row.operation,
                    str(s.iterations),
                    f"{s.total_s:.3f}",
                    f"{s.wall.mean / 1e3:.3f}",
                    f"{s.wall.stdev / 1e3:.3f}",
                    f"{s.precise.mean:.0f}",
                    f"{s.precise.stdev:.0f}",
                ]
            )
    batch = int(report.parameters.get("batch", 0) or 0)
    if batch:
        # ``--batch N``: each timed call handled N items; add per-item figures.
        header += ["Per item (us)", "Items/s"]
        for cells in body:
            cells += ["", ""]
        for cells, i in zip(_row_cells(body), range(len(report.rows)), strict=True):
            per_item_us = report.rows[i].stats.wall.mean / 1e3 / batch
            cells[-2:] = [
                f"{per_item_us:.3f}",
                f"{1e6 / per_item_us:.0f}" if per_item_us else "inf",
            ]
    lines += markdown_table(header, body)
    if percentiles:
        lines += ["", *_percentile_table(report)]
    lines.append(f"Ended at {report.ended.strftime(_TIME_FORMAT)}")
    return lines


def _row_cells(body: list[list[str]]) -> list[list[str]]:
    """The operation rows of a table body (not the group title rows), in order."""
    return [cells for cells in body if any(cells[1:])]


def _percentile_table(report: Report) -> list[str]:
    header = ["Operation".ljust(30), "median (ns)", *(f"{p}%" for p in PERCENTILES)]
    body: list[list[str]] = []
    for group, indices in _grouped(report):
        body.append([group, *[""] * (len(header) - 1)])
        for i in indices:
            row = report.rows[i]
            values = row.stats.percentiles()
            body.append(
                [row.operation, _fixed(values[50], 0), *(_fixed(values[p], 0) for p in PERCENTILES)]
            )
    return ["Percentiles of the high-precision time (ns)", *markdown_table(header, body)]


_INFO_COLUMNS: dict[str, str] = {
    "claimed_nist_level": "NIST level",
    "length_public_key": "Public key (bytes)",
    "length_secret_key": "Secret key (bytes)",
    "length_ciphertext": "Ciphertext (bytes)",
    "length_shared_secret": "Shared secret (bytes)",
    "length_signature": "Signature (bytes)",
}


def format_info(report: Report) -> list[str]:
    """The ``--info`` block: sizes and claimed NIST level of each algorithm."""
    keys = [k for k in _INFO_COLUMNS if any(k in a for a in report.algorithms.values())]
    header = ["Algorithm", *(_INFO_COLUMNS[k] for k in keys)]
    body = [
        [name, *(str(info.get(k, "")) for k in keys)] for name, info in report.algorithms.items()
    ]
    return ["Algorithm info", "==============", *markdown_table(header, body)]


def format_bssl(report: Report) -> list[str]:
    """BoringSSL's ``bssl speed`` lines: ``Did N NAME OP operations in Tus (X ops/sec)``."""
    lines = []
    for row in report.rows:
        s = row.stats
        total_us = s.total_wall_ns // 1000
        rate = s.iterations / s.total_s if s.total_wall_ns else math.inf
        lines.append(
            f"Did {s.iterations} {row.group} {row.operation} operations in {total_us}us "
            f"({rate:.1f} ops/sec)"
        )
    return lines


def to_json(report: Report) -> dict[str, Any]:
    """Every figure and the configuration, as a JSON-ready dict."""
    return {
        "format": JSON_FORMAT,
        "command": report.command,
        "duration_s": report.duration,
        "started": report.started.isoformat(timespec="seconds"),
        "ended": report.ended.isoformat(timespec="seconds"),
        "configuration": report.configuration,
        "parameters": report.parameters,
        "algorithms": report.algorithms,
        "results": [
            {"group": row.group, "operation": row.operation, **row.stats.as_dict()}
            for row in report.rows
        ],
        **_batch_json(report),
    }


def _batch_json(report: Report) -> dict[str, Any]:
    """With ``--batch N``: per-item mean time (us) and items per second of each row."""
    batch = int(report.parameters.get("batch", 0) or 0)
    if not batch:
        return {}
    return {
        "per_item": [
            {
                "group": row.group,
                "operation": row.operation,
                "mean_us": row.stats.wall.mean / 1e3 / batch,
                "items_per_s": batch * 1e9 / row.stats.wall.mean if row.stats.wall.mean else None,
            }
            for row in report.rows
        ]
    }
