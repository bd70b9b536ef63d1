"""The one timing loop every speed tool uses (``pqkit speed``, ``benchmarks/``).

Modelled on liboqs's ``ds_benchmark.h``: an operation is called again and again
until the time spent inside it adds up to ``duration`` seconds; each call is timed
by two clocks, as liboqs times each call by ``gettimeofday`` and a cycle counter:

- the wall clock (``time.time_ns``, liboqs's "Time (us)" columns and "Total time");
- the high-precision clock (``time.perf_counter_ns``, liboqs's "High-prec time (ns)"
  columns: Python has no portable cycle counter).

Mean and population standard deviation of both are computed online (Welford's
algorithm, as ``ds_benchmark.h`` does). The high-precision samples are also kept,
so medians and percentiles can be reported (as mlkem-native's benchmarks do).
"""

from __future__ import annotations

import math
import time
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["PERCENTILES", "Stats", "Welford", "measure"]

PERCENTILES: tuple[int, ...] = (1, 10, 25, 50, 75, 90, 99)
"""The percentiles ``--percentiles`` prints, as mlkem-native's benchmarks do."""


@dataclass
class Welford:
    """Online mean and population variance (Welford's algorithm)."""

    count: int = 0
    mean: float = 0.0
    m2: float = 0.0

    def add(self, x: float) -> None:
        """Account for one more sample ``x``."""
        self.count += 1
        delta = x - self.mean
        self.mean += delta / self.count
        self.m2 += delta * (x - self.mean)

    @property
    def stdev(self) -> float:
        """The population standard deviation (0 for fewer than two samples)."""
        return math.sqrt(self.m2 / self.count) if self.count > 1 else 0.0


@dataclass
class Stats:
    """The timings of one operation: both clocks, in nanoseconds.

    ``samples`` holds every high-precision time until :meth:`compact` keeps only
    the percentiles, minimum and maximum (a fast operation timed for seconds
    leaves millions of samples).
    """

    wall: Welford = field(default_factory=Welford)
    precise: Welford = field(default_factory=Welford)
    total_wall_ns: int = 0
    samples: array[int] = field(default_factory=lambda: array("q"))
    kept: dict[str, float] = field(default_factory=dict)

    def add(self, wall_ns: int, precise_ns: int) -> None:
        """Account for one call that took ``wall_ns`` / ``precise_ns``."""
        self.wall.add(wall_ns)
        self.precise.add(precise_ns)
        self.total_wall_ns += wall_ns
        self.samples.append(precise_ns)

    @property
    def iterations(self) -> int:
        """How many timed calls were made."""
        return self.precise.count

    @property
    def total_s(self) -> float:
        """The wall-clock time spent inside the operation, in seconds."""
        return self.total_wall_ns / 1e9

    def percentiles(self, which: Sequence[int] = PERCENTILES) -> dict[int, float]:
        """The high-precision percentiles in ns (linear interpolation between samples;
        after :meth:`compact`, those of :data:`PERCENTILES` only, others are NaN)."""
        if not self.samples:
            return {p: self.kept.get(f"p{p}", math.nan) for p in which}
        data = np.frombuffer(self.samples, dtype=np.int64)
        values = np.percentile(data, list(which))
        return {p: float(v) for p, v in zip(which, values, strict=True)}

    def _extreme(self, which: str) -> float:
        if not self.samples:
            return self.kept.get(which, math.nan)
        return float(min(self.samples) if which == "min" else max(self.samples))

    def compact(self) -> None:
        """Keep the percentiles, minimum and maximum; drop the samples."""
        if self.samples:
            self.kept = {f"p{p}": v for p, v in self.percentiles().items()}
            self.kept.update(min=self._extreme("min"), max=self._extreme("max"))
            self.samples = array("q")

    @property
    def median_ns(self) -> float:
        """The median high-precision time per call, in ns."""
        return self.percentiles((50,))[50]

    def as_dict(self) -> dict[str, Any]:
        """Every figure, for JSON: times per call in us (wall) and ns (high-precision)."""
        percentiles = self.percentiles()
        return {
            "iterations": self.iterations,
            "total_s": self.total_s,
            "mean_us": self.wall.mean / 1e3,
            "stdev_us": self.wall.stdev / 1e3,
            "mean_ns": self.precise.mean,
            "stdev_ns": self.precise.stdev,
            "median_ns": percentiles[50],
            "min_ns": self._extreme("min"),
            "max_ns": self._extreme("max"),
            "percentiles_ns": {str(p): v for p, v in percentiles.items()},
        }


def measure(operation: Callable[[], object], duration: float, *, warmup: int = 1) -> Stats:
    """Call ``operation()`` until ``duration`` seconds (wall clock) were spent in it.

    At least one call is timed, whatever ``duration``. ``warmup`` untimed calls come
    first, so lazy imports and table construction stay out of the figures. The
    result is compacted (see :meth:`Stats.compact`).
    """
    if not duration >= 0 or math.isinf(duration):
        raise ValueError(f"duration must be a finite number of seconds >= 0, got {duration}")
    for _ in range(warmup):
        operation()
    stats = Stats()
    goal_ns = int(duration * 1e9)
    wall, precise = time.time_ns, time.perf_counter_ns
    while True:
        wall_start = wall()
        precise_start = precise()
        operation()
        precise_end = precise()
        wall_end = wall()
        # NOTE: the wall clock may be stepped (NTP); a backward step counts as 0.
        stats.add(max(wall_end - wall_start, 0), precise_end - precise_start)
        if stats.total_wall_ns >= goal_ns:
            stats.compact()
            return stats
