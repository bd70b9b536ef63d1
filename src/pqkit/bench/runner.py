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
    """Tells the user on ``stream`` (stderr) what is being timed, one step at a time.

    On a terminal each step overwrites the previous one and the line is cleared at
    the end, so a table redirected to a file or piped stays clean either way.
    """

    def __init__(self, stream: TextIO | None = None, *, enabled: bool = True) -> None:
        self._stream = stream if stream is not None else sys.stderr
        self._enabled = enabled
        self._tty = enabled and bool(getattr(self._stream, "isatty", lambda: False)())
        self._width = 0

    def step(self, text: str) -> None:
        """Announce ``text`` (e.g. ``ML-KEM-768 encaps``)."""
        if not self._enabled:
            return
        if self._tty:
            line = f"timing {text} ..."
            self._stream.write("\r" + line.ljust(self._width))
            self._width = len(line)
        else:
            self._stream.write(f"timing {text} ...\n")
        self._stream.flush()

    def done(self) -> None:
        """Clear the progress line (on a terminal)."""
        if self._tty and self._width:
            self._stream.write("\r" + " " * self._width + "\r")
            self._stream.flush()
            self._width = 0


def run_groups(groups: list[Group], duration: float, progress: Progress) -> list[Row]:
    """Time every operation of every group for ``duration`` seconds each."""
    rows: list[Row] = []
    try:
        for group in groups:
            with group.context():
                operations = group.build()
                for operation in operations:
                    progress.step(f"{group.name} {operation.name}")
                    stats = measure(operation.run, duration)
                    rows.append(Row(group.name, operation.name, stats))
    finally:
        progress.done()
    return rows
