"""What a speed run is made of, and the loop that runs it.

A run is a list of :class:`Group` s (an algorithm, a primitive, a kernel table),
each a list of :class:`Operation` s. Building a group's operations may do set-up
work (a key pair for the encapsulation to use), so it is deferred until the group
is run, inside the group's context (the providers it is measured with).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TextIO

from pqkit.bench.timing import Stats, measure
from pqkit.cli.progress import Bar

__all__ = ["Group", "Operation", "Progress", "Report", "Row", "run_groups"]

ContextFactory = Callable[[], AbstractContextManager[Any]]


@dataclass(frozen=True)
class Operation:
    """One timed operation: ``run()`` is called again and again."""

    name: str
    run: Callable[[], object]


@dataclass(frozen=True)
class Group:
    """A titled set of operations; ``build()`` returns them (after any set-up).

    ``build()`` and the timing of every operation run inside ``context()``.
    """

    name: str
    build: Callable[[], list[Operation]]
    context: ContextFactory = contextlib.nullcontext


@dataclass(frozen=True)
class Row:
    """The timings of one operation of one group."""

    group: str
    operation: str
    stats: Stats


@dataclass
class Report:
    """A finished run: every row plus what the tables and the JSON need to say."""

    command: str
    duration: float
    configuration: dict[str, str]
    started: datetime
    ended: datetime
    rows: list[Row]
    algorithms: dict[str, dict[str, Any]] = field(default_factory=dict)
    parameters: dict[str, Any] = field(default_factory=dict)


class Progress:
    """Shows on ``stream`` (stderr) what is being timed: a progress bar (count, rate,
    time left; :mod:`pqkit.cli.progress`) when it is a terminal and tqdm is
    installed, nothing otherwise, so a table redirected to a file or piped stays
    clean either way."""

    def __init__(self, stream: TextIO | None = None, *, enabled: bool = True) -> None:
        self._stream = stream if stream is not None else sys.stderr
        self._enabled = enabled
        self._bar: Bar | None = None

    def start(self, total: int) -> None:
        """Begin a run of ``total`` groups."""
        self.done()
        self._bar = Bar(total, "timing", unit="group", stream=self._stream, show=self._enabled)

    def step(self, text: str) -> None:
        """Announce ``text`` (e.g. ``ML-KEM-768 encaps``)."""
        if self._bar is not None:
            self._bar.describe(f"timing {text}")

    def advance(self) -> None:
        """One group done."""
        if self._bar is not None:
            self._bar.update()

    def done(self) -> None:
        """Remove the bar."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def run_groups(groups: list[Group], duration: float, progress: Progress) -> list[Row]:
    """Time every operation of every group for ``duration`` seconds each."""
    rows: list[Row] = []
    progress.start(len(groups))
    try:
        for group in groups:
            with group.context():
                operations = group.build()
                for operation in operations:
                    progress.step(f"{group.name} {operation.name}")
                    stats = measure(operation.run, duration)
                    rows.append(Row(group.name, operation.name, stats))
            progress.advance()
    finally:
        progress.done()
    return rows
