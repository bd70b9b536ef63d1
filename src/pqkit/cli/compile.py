"""``pqkit compile``: build the ``jit`` backend's compiled code ahead of time.

Runs the warm-up workload of :mod:`pqkit.arith.warmup` (real operations of every
kernel family on the ``jit`` backend) in this process, so that Numba compiles every
specialization the library uses and writes it to its on-disk cache; later
processes then load it (about a second, in the background) instead of compiling.
For container images and installers, after ``pip install "pqkit[jit]"``. The
parts of the work (:data:`pqkit.arith.warmup.PARTS`: the kernel families, the
SLH-DSA engine apart) compile in parallel, one process each (``--jobs``, default
one per core; the times on a 2-core machine are in docs/decisions.md).

Where the cache goes is Numba's choice: ``NUMBA_CACHE_DIR`` when set, else the
``__pycache__`` folder next to pqkit's sources when writable, else the per-user
cache directory (``~/.cache/numba`` on Linux), so a read-only site-packages works.
Numba stores its version in every cache index and ignores entries written by
another version (recompiling them), so a cache is never used across versions.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import time
from typing import Any

__all__ = ["register", "run"]


def cache_dir() -> str | None:
    """Where Numba writes pqkit's compiled code (the ML-KEM operations' entry), or
    None when it cannot say."""
    from pqkit.arith import jit_mlkem_ops

    cache = getattr(jit_mlkem_ops._keygen, "_cache", None)
    path = getattr(cache, "cache_path", None) or getattr(cache, "_cache_path", None)
    return str(path) if path else None


def run(args: argparse.Namespace) -> int:
    """Compile (or load) every family's kernels; 0 on success."""
    from pqkit.arith import warmup

    if importlib.util.find_spec("numba") is None:
        raise ValueError(
            'numba is not installed (pip install "pqkit[jit]"): nothing to compile; '
            "the numpy backend needs no compilation"
        )
    if args.part is not None:  # one part, in a process started by _in_processes
        families = [dict(warmup.PARTS)[args.part]]
        parts = [args.part]
    else:
        families = list(dict.fromkeys(args.only or warmup.ORDER))
        parts = [part for part, family in warmup.PARTS if family in families]
    jobs = args.jobs if args.jobs is not None else min(len(parts), os.cpu_count() or 1)
    if jobs < 1:
        raise ValueError(f"--jobs must be at least 1, got {jobs}")
    start = time.perf_counter()
    if jobs > 1 and len(parts) > 1:
        _in_processes(parts, jobs, args.verbose)
    else:
        _here(parts, args.verbose)
    elapsed = time.perf_counter() - start
    where = cache_dir()
    print(
        f"compiled the jit kernels of {', '.join(families)} in {elapsed:.1f} s"
        + (f"; cache: {where}" if where else "")
    )
    return 0


def _in_processes(parts: list[str], jobs: int, verbose: bool) -> None:
    """One ``pqkit compile --part PART`` process per part, ``jobs`` at a time, in
    :data:`pqkit.arith.warmup.PARTS` order.

    NOTE: Numba's compiler holds the GIL for its Python half, so threads would not
    overlap; processes do, and they share the on-disk cache (Numba writes each
    index and data file whole, by renaming). A kernel two parts both use may be
    compiled twice when they run at once; the cache keeps one copy."""
    from pqkit.cli.progress import Bar

    env = {**os.environ, "PQKIT_JIT_BACKGROUND": "0"}
    waiting = list(parts)
    running: dict[str, subprocess.Popen[str]] = {}
    failed: list[str] = []
    with Bar(len(parts), "compiling", unit="part") as bar:
        while waiting or running:
            while waiting and len(running) < jobs:
                part = waiting.pop(0)
                command = [sys.executable, "-m", "pqkit", "compile", "--part", part]
                command += ["--jobs", "1", *(["-v"] if verbose else [])]
                running[part] = subprocess.Popen(
                    command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
                )
            bar.describe(f"compiling {', '.join(running)}")
            part, process_status = _first_done(running)
            out, _ = running.pop(part).communicate()
            lines = out.strip().splitlines()
            if verbose:
                print("\n".join(lines[:-1]))
            if process_status != 0:
                failed.append(f"{part}: {lines[-1] if lines else process_status}")
            bar.update()
    if failed:
        raise ValueError("compiling failed for " + "; ".join(failed))


def _first_done(running: dict[str, subprocess.Popen[str]]) -> tuple[str, int]:
    """The part whose process ends first and its exit status, so that a free core
    takes the next part at once. The children write a few lines only, so their
    pipes never fill while they wait here."""
    while True:
        for part, process in running.items():
            status = process.poll()
            if status is not None:
                return part, status
        time.sleep(0.05)


def _here(parts: list[str], verbose: bool) -> None:
    """Every step of ``parts`` in this process, with a progress bar."""
    from pqkit.arith import warmup
    from pqkit.cli.progress import Bar

    plan = [(part, label, step) for part in parts for label, step in warmup.part_steps(part)]
    with Bar(len(plan), "compiling", unit="step") as bar:
        for part, label, step in plan:
            bar.describe(f"compiling {label}")
            t0 = time.perf_counter()
            step()
            if verbose:
                print(f"{part:<12} {label:<24} {time.perf_counter() - t0:7.2f} s")
            bar.update()


def register(subparsers: Any) -> None:
    """Add ``pqkit compile`` to the command line."""
    from pqkit.arith import warmup
    from pqkit.cli.status import EPILOG

    parser = subparsers.add_parser(
        "compile",
        help="build the jit backend's compiled code ahead of time (numba's on-disk cache)",
        description=(
            "Compile every jit kernel pqkit uses and store it in numba's on-disk cache, so "
            "that later processes switch to compiled code within a second."
        ),
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--only",
        nargs="+",
        choices=warmup.ORDER,
        metavar="FAMILY",
        help=f"only these kernel families ({', '.join(warmup.ORDER)})",
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=int,
        metavar="N",
        help="parts compiled at once, one process each (default: one per core)",
    )
    parser.add_argument(  # the processes _in_processes starts
        "--part", choices=[part for part, _ in warmup.PARTS], help=argparse.SUPPRESS
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="time every step")
    parser.set_defaults(func=run)
