"""The timing loop shared by every speed tool: Welford statistics, the duration
rule and the percentiles."""

from __future__ import annotations

import statistics

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pqkit.bench.timing import PERCENTILES, Stats, Welford, measure


@given(st.lists(st.integers(min_value=0, max_value=10**9), min_size=1, max_size=200))
def test_welford_matches_population_statistics(samples: list[int]) -> None:
    w = Welford()
    for x in samples:
        w.add(x)
    assert w.count == len(samples)
    assert w.mean == pytest.approx(statistics.fmean(samples), rel=1e-9, abs=1e-6)
    assert w.stdev == pytest.approx(statistics.pstdev(samples), rel=1e-6, abs=1e-3)


def test_single_sample_has_zero_stdev() -> None:
    w = Welford()
    w.add(5)
    assert (w.mean, w.stdev) == (5, 0.0)


def test_measure_runs_until_duration() -> None:
    calls = []
    stats = measure(lambda: calls.append(1), 0.02, warmup=2)
    assert stats.total_wall_ns >= 20_000_000
    assert stats.iterations == len(calls) - 2
    assert len(stats.samples) == 0  # compacted
    assert stats.kept["min"] <= stats.median_ns <= stats.kept["max"]
    assert stats.total_s == stats.total_wall_ns / 1e9


def test_measure_times_at_least_once() -> None:
    calls = []
    stats = measure(lambda: calls.append(1), 0.0, warmup=0)
    assert stats.iterations == len(calls) == 1


@pytest.mark.parametrize("bad", [-1.0, float("nan"), float("inf")])
def test_measure_rejects_bad_duration(bad: float) -> None:
    with pytest.raises(ValueError, match="duration"):
        measure(lambda: None, bad)


def test_percentiles_and_summary() -> None:
    stats = Stats()
    for i in range(1, 101):
        stats.add(i * 1000, i)
    p = stats.percentiles()
    assert list(p) == list(PERCENTILES)
    expected = np.percentile(np.arange(1, 101), list(PERCENTILES))
    assert [p[q] for q in PERCENTILES] == pytest.approx(list(expected))
    assert stats.median_ns == pytest.approx(50.5)
    d = stats.as_dict()
    assert d["iterations"] == 100
    assert d["total_s"] == pytest.approx(sum(range(1, 101)) * 1000 / 1e9)
    assert d["mean_us"] == pytest.approx(50.5)
    assert d["mean_ns"] == pytest.approx(50.5)
    assert d["stdev_ns"] == pytest.approx(statistics.pstdev(range(1, 101)))
    assert (d["min_ns"], d["max_ns"]) == (1.0, 100.0)
    stats.compact()
    assert len(stats.samples) == 0
    assert stats.as_dict() == d
    assert stats.percentiles((50, 5))[5] != stats.percentiles((50, 5))[5]  # NaN: not kept
