"""How many threads or processes pqkit starts: the one rule.

Every place that runs work on several threads or processes (the batch views,
the jit hash kernels, ``pqkit compile``) asks :func:`resolve_workers`: an explicit
``workers`` argument, else the ``PQKIT_WORKERS`` environment variable, else the
CPUs this process may run on (:func:`available_cpus`).
"""

from __future__ import annotations

import os
from typing import Any

__all__ = ["ENV_WORKERS", "available_cpus", "resolve_workers"]

ENV_WORKERS = "PQKIT_WORKERS"
"""The environment variable that sets the default number of workers."""


def available_cpus() -> int:
    """The CPUs this process may run on: ``os.process_cpu_count()`` (Python 3.13+:
    the affinity mask, and ``python -X cpu_count`` / ``PYTHON_CPU_COUNT``), else the
    size of ``os.sched_getaffinity(0)`` (Linux), else ``os.cpu_count()``; at least 1."""
    process_cpu_count = getattr(os, "process_cpu_count", None)
    if process_cpu_count is not None:
        count: int | None = process_cpu_count()
    elif hasattr(os, "sched_getaffinity"):
        count = len(os.sched_getaffinity(0))
    else:  # pragma: no cover - macOS and Windows before Python 3.13
        count = os.cpu_count()
    return max(1, count or 1)


def resolve_workers(workers: Any = None) -> int:
    """The number of workers: ``workers`` if given (an int >= 1), else
    ``PQKIT_WORKERS`` (a positive integer), else :func:`available_cpus`."""
    if workers is None:
        env = os.environ.get(ENV_WORKERS, "").strip()
        if not env:
            return available_cpus()
        try:
            value = int(env)
        except ValueError:
            raise ValueError(f"{ENV_WORKERS} must be a positive integer, got {env!r}") from None
        if value < 1:
            raise ValueError(f"{ENV_WORKERS} must be a positive integer, got {env!r}")
        return value
    if not isinstance(workers, int) or isinstance(workers, bool):
        raise TypeError(f"workers must be an int, not {type(workers).__name__}")
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    return workers
