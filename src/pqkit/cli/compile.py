"""``pqkit compile``: build the ``jit`` backend's compiled code ahead of time.

Runs the warm-up workload of :mod:`pqkit.arith.warmup` (real operations of every
kernel family on the ``jit`` backend) in this process, so that Numba compiles every
specialization the library uses and writes it to its on-disk cache; later
processes then load it (about a second, in the background) instead of compiling.
For container images and installers, after ``pip install "pqkit[jit]"``.

Where the cache goes is Numba's choice: ``NUMBA_CACHE_DIR`` when set, else the
``__pycache__`` folder next to pqkit's sources when writable, else the per-user
cache directory (``~/.cache/numba`` on Linux), so a read-only site-packages works.
Numba stores its version in every cache index and ignores entries written by
another version (recompiling them), so a cache is never used across versions.
"""

from __future__ import annotations

import argparse
import importlib.util
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
    from pqkit.cli.progress import Bar

    if importlib.util.find_spec("numba") is None:
        raise ValueError(
            'numba is not installed (pip install "pqkit[jit]"): nothing to compile; '
            "the numpy backend needs no compilation"
        )
    families = args.only or list(warmup.ORDER)
    plan = [(family, label, step) for family in families for label, step in warmup.steps(family)]
    start = time.perf_counter()
    with Bar(len(plan), "compiling", unit="step") as bar:
        for family, label, step in plan:
            bar.describe(f"compiling {label}")
            t0 = time.perf_counter()
            step()
            if args.verbose:
                print(f"{family:<6} {label:<24} {time.perf_counter() - t0:7.2f} s")
            bar.update()
    elapsed = time.perf_counter() - start
    where = cache_dir()
    print(
        f"compiled the jit kernels of {', '.join(families)} in {elapsed:.1f} s"
        + (f"; cache: {where}" if where else "")
    )
    return 0


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
    parser.add_argument("-v", "--verbose", action="store_true", help="time every step")
    parser.set_defaults(func=run)
