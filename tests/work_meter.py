"""Counting work instead of timing it: the Python lines a call executes.

Speed is never checked by timed unit tests (a loaded machine makes any time bound
flaky, and a generous one proves little). The bounds on attacker-chosen sizes are
checked by counting instead: :func:`lines_run` counts the ``line`` events of the
call (every frame, pqkit's and the standard library's Python code), which does not
depend on the machine or its load. A parser that walks an input octet by octet in
Python runs lines in proportion to its size; one that refuses the input on its
length first runs the same few lines whatever the size. Comparing the count for a
huge input with the count for a small one of the same shape therefore shows
whether the cost grows with the size, without a clock.

Work done inside C functions (a regular expression, ``bytes.split``, base64) is
not counted; the tests that rely on the meter name the check they expect to stop
the input (by its error message), so the count and the message together show
where the input was refused.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

import pytest

BUDGET = 100_000
"""Line events after which :func:`lines_run` stops the call: far above what any
bounded parser runs on one input, and reached long before a per-octet walk of a
200 kB input ends (so a regression fails in a second, not in minutes)."""


class OverBudget(BaseException):
    """Raised inside the measured call once it has run :data:`BUDGET` lines (a
    BaseException, so that no ``except Exception`` in the code under test turns it
    into the ValueError the test expects)."""


def lines_run(
    call: Callable[[], object], error: type[Exception] = ValueError, match: str | None = None
) -> int:
    """The Python lines ``call()`` runs before it raises ``error`` (matching
    ``match``); fails the test if it runs more than :data:`BUDGET`."""
    count = 0

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
            if count > BUDGET:
                raise OverBudget
        return local

    def global_(frame: FrameType, event: str, arg: Any) -> Any:
        return local

    previous = sys.gettrace()
    collecting = gc.isenabled()
    gc.disable()  # a collection would run finalizers' lines inside the call
    sys.settrace(global_)
    try:
        with pytest.raises(error, match=match):
            call()
    except OverBudget:
        pytest.fail(f"the call ran more than {BUDGET} Python lines: its cost grows with the input")
    finally:
        sys.settrace(previous)
        if collecting:
            gc.enable()
    return count
