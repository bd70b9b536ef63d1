"""``pqkit compile``: build the ``jit`` backend's compiled code ahead of time.

Runs the warm-up workload of :mod:`pqkit.arith.warmup` (real operations on the
``jit`` backend) of the kernel groups declared ``ahead`` (ML-KEM's and ML-DSA's
single operations: :func:`pqkit.arith.warmup.ahead_groups`), of every group with
``--all``, or of those named with ``--only``, so that Numba compiles the
specializations the library uses and writes them to its on-disk cache; later
processes then load them (about a second, in the background) instead of compiling.
The groups not built here compile on first use, in the background.
For container images and installers, wherever Numba is installed (a dependency of
pqkit where Numba has wheels; ``pip install "pqkit[jit]"`` elsewhere). The
parts of the work (:func:`pqkit.arith.warmup.parts_in_order`: the kernel families, the
SLH-DSA engine apart) compile in parallel, in worker processes (``--jobs``, default
``PQKIT_WORKERS``, else one per CPU this process may use: ``pqkit._workers``; the
times on a 2-core machine are in docs/decisions.md).

Where the cache goes is Numba's choice: ``NUMBA_CACHE_DIR`` when set, else the
``__pycache__`` folder next to pqkit's sources when writable, else the per-user
cache directory (``~/.cache/numba`` on Linux), so a read-only site-packages works.
Numba stores its version in every cache index and ignores entries written by
another version (recompiling them), so a cache is never used across versions.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import queue
import subprocess
import sys
import threading
import time
from typing import Any

from pqkit._workers import resolve_workers

__all__ = ["cache_dir", "cached", "register", "run"]


def cache_dir() -> str | None:
    """Where Numba writes pqkit's compiled code (the ML-KEM operations' entry), or
    None when it cannot say."""
    from pqkit.mlkem.kernels import jit_ops as jit_mlkem_ops

    cache = getattr(jit_mlkem_ops._keygen, "_cache", None)
    path = getattr(cache, "cache_path", None) or getattr(cache, "_cache_path", None)
    return str(path) if path else None


def _compiled_modules() -> dict[str, list[str]]:
    """Per kernel group (:func:`pqkit.arith.warmup.groups`), the modules of the
    compiled code its warm-up parts build, from the families' declarations: a
    ``-batch`` group's batch operations, else the family's whole operations, else its
    kernel table on the part's backend."""
    from pqkit.families import families

    modules: dict[str, list[str]] = {}
    for family in families():
        for part in family.warmup:
            table = family.batch_operations if part.group.endswith("-batch") else family.operations
            module = table.get(part.backend) or family.kernels.get(part.backend)
            if module is not None:
                modules.setdefault(part.group, []).append(module)
    return modules


def cached(family: str) -> bool:
    """Whether Numba's on-disk cache holds compiled code of kernel group ``family``
    for the sources installed now (for each module its parts build, a fresh index of
    one of its functions: Numba's index records the source file's time stamp and
    size, and its own version). False without Numba or when it cannot tell.
    Importing the modules imports Numba (not compiling anything)."""
    modules = _compiled_modules()
    if family not in modules:
        raise ValueError(f"unknown kernel family {family!r}; known: {', '.join(modules)}")
    if importlib.util.find_spec("numba") is None:
        return False
    return all(_module_cached(name) for name in modules[family])


def _module_cached(name: str) -> bool:
    try:
        module = importlib.import_module(name)
    except ImportError:
        return False
    for value in vars(module).values():
        # Only the module's own kernels (not those it imports from shared modules).
        # NOTE: Numba's FunctionCache has no public "is this cached" query; its index
        # file's loader returns {} for a missing, stale or other-version index.
        if getattr(getattr(value, "py_func", None), "__module__", None) != module.__name__:
            continue
        cache_file = getattr(getattr(value, "_cache", None), "_cache_file", None)
        load = getattr(cache_file, "_load_index", None)
        if load is None:
            continue
        try:
            if load():
                return True
        except Exception:  # an unreadable index: as if not cached
            continue
    return False


_DONE = "pqkit-compile: done"
_FAILED = "pqkit-compile: failed"


def run(args: argparse.Namespace) -> int:
    """Compile (or load) every family's kernels; 0 on success."""
    from pqkit.arith import warmup

    if importlib.util.find_spec("numba") is None:
        from pqkit._extras import require

        require("jit", "compiling the jit kernels (the numpy backend needs no compilation)")
    if args.worker:
        return _serve(args.verbose)
    default = warmup.groups() if getattr(args, "all", False) else warmup.ahead_groups()
    families = list(dict.fromkeys(args.only or default))
    parts = [part for part, family in warmup.parts_in_order() if family in families]
    jobs = args.jobs if args.jobs is not None else min(len(parts), resolve_workers())
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
    """The parts in ``jobs`` worker processes (:func:`_serve`), in
    :func:`pqkit.arith.warmup.parts_in_order` order: a worker that finishes a part gets the
    next one at once.

    NOTE: Numba's compiler holds the GIL for its Python half, so threads would not
    overlap; processes do, and they share the on-disk cache (Numba writes each
    index and data file whole, by renaming). A kernel two parts both use may be
    compiled twice when they run at once; the cache keeps one copy. One worker
    per core rather than one process per part: a process pays about 2.5 s of CPU
    before its first kernel (Numba's import and its own internals compiled once
    per process: array allocation, exceptions), about 5 s of a 2-core run."""
    from pqkit.cli.progress import Bar

    env = {**os.environ, "PQKIT_JIT_BACKGROUND": "0"}
    command = [sys.executable, "-m", "pqkit", "compile", "--worker", *(["-v"] if verbose else [])]
    workers = [
        subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
        for _ in range(min(jobs, len(parts)))
    ]
    lines: queue.Queue[tuple[int, str | None]] = queue.Queue()
    for i, worker in enumerate(workers):
        threading.Thread(target=_read, args=(i, worker, lines), daemon=True).start()
    waiting = list(parts)
    busy: dict[int, str] = {}
    failed: list[str] = []

    def give(i: int) -> None:  # the next part to worker i, or end its input
        stdin = workers[i].stdin
        assert stdin is not None
        if not waiting:
            stdin.close()
            return
        busy[i] = waiting.pop(0)
        try:
            stdin.write(busy[i] + "\n")
            stdin.flush()
        except OSError:  # the worker has ended; its end of output follows
            waiting.insert(0, busy.pop(i))

    with Bar(len(parts), "compiling", unit="part") as bar:
        for i in range(len(workers)):
            give(i)
        while busy:
            bar.describe(f"compiling {', '.join(busy.values())}")
            i, line = lines.get()
            if line is None:  # the worker ended: an error if while on a part
                if i in busy:
                    failed.append(f"{busy.pop(i)}: the process ended ({workers[i].wait()})")
            elif line.startswith((_DONE, _FAILED)):
                if line.startswith(_FAILED):
                    failed.append(line[len(_FAILED) :].strip())
                busy.pop(i)
                bar.update()
                give(i)
            elif verbose:
                print(line)
    for worker in workers:
        if worker.stdin is not None and not worker.stdin.closed:
            with contextlib.suppress(OSError):  # a worker that ended early
                worker.stdin.close()
        worker.wait()
    failed += [f"{part}: not compiled (no process left)" for part in waiting]
    if failed:
        raise ValueError("compiling failed for " + "; ".join(failed))


def _read(
    i: int, worker: subprocess.Popen[str], lines: queue.Queue[tuple[int, str | None]]
) -> None:
    """Worker i's output lines into ``lines``, then None at its end."""
    assert worker.stdout is not None
    for line in worker.stdout:
        lines.put((i, line.rstrip("\n")))
    lines.put((i, None))


def _serve(verbose: bool) -> int:
    """A worker of :func:`_in_processes`: compile the parts named on stdin, one a
    line, saying when each is done (or failed, and why) on stdout."""
    for line in sys.stdin:
        part = line.strip()
        try:
            _here([part], verbose, bar=False)
        except Exception as exc:  # the parent reports it and fails the command
            print(f"{_FAILED} {part}: {type(exc).__name__}: {exc}", flush=True)
        else:
            print(f"{_DONE} {part}", flush=True)
    return 0


def _here(parts: list[str], verbose: bool, *, bar: bool = True) -> None:
    """Every step of ``parts`` in this process, with a progress bar (unless
    ``bar`` is False)."""
    from pqkit.arith import warmup
    from pqkit.cli.progress import Bar

    plan = [(part, label, step) for part in parts for label, step in warmup.part_steps(part)]
    with Bar(len(plan), "compiling", unit="step", show=bar) as progress:
        for part, label, step in plan:
            progress.describe(f"compiling {label}")
            t0 = time.perf_counter()
            step()
            if verbose:
                print(f"{part:<12} {label:<24} {time.perf_counter() - t0:7.2f} s", flush=True)
            progress.update()


def register(subparsers: Any) -> None:
    """Add ``pqkit compile`` to the command line."""
    from pqkit.arith import warmup
    from pqkit.cli.status import EPILOG

    parser = subparsers.add_parser(
        "compile",
        help="build the jit backend's compiled code ahead of time (numba's on-disk cache)",
        description=(
            "Compile the jit kernels pqkit uses (every family with --all) and store them in "
            "numba's on-disk cache, so that later processes switch to compiled code within "
            "a second."
        ),
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--only",
        nargs="+",
        choices=warmup.groups(),
        metavar="FAMILY",
        help=f"only these kernel families ({', '.join(warmup.groups())})",
    )
    parser.add_argument(
        "--all",
        action="store_true",
        help="every kernel family; by default only "
        f"{', '.join(warmup.ahead_groups())} (the others compile on first use, in the "
        "background)",
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=int,
        metavar="N",
        help="worker processes, each compiling one part at a time "
        "(default: PQKIT_WORKERS, else one per CPU this process may use)",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)  # _serve
    parser.add_argument("-v", "--verbose", action="store_true", help="time every step")
    parser.set_defaults(func=run)
