"""Composite kernels: a backend's own fused K-PKE kernels vs the ones composed over
its primitives (:mod:`pqkit.mlkem.kernels.compose`), on ML-KEM.

    PYTHONPATH=src python benchmarks/arith_compose.py                 # numpy (and jit)
    PYTHONPATH=src python benchmarks/arith_compose.py --arith numpy --duration 1

For each backend B it registers ``B-primitives``, a backend whose table holds only
B's primitive kernels (so every composite is composed over B's own primitives),
and times keygen, encaps (K-PKE.Encrypt) and decaps (K-PKE.Decrypt and Encrypt)
with both, interleaved over ``--rounds`` rounds so that a load change on a shared
machine hits them alike. Prints one Markdown table of median microseconds and the
ratio primitives-only / full (the goal for a backend without fused kernels: at most
1.2). Not run by CI.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
from collections.abc import Callable
from typing import Any

import pqkit
from pqkit import arith
from pqkit.bench.report import markdown_table
from pqkit.bench.timing import measure
from pqkit.mlkem.kernels.compose import COMPOSITES


def register_primitives_only(backend: str) -> str:
    """Register ``<backend>-primitives``: ``backend``'s ML-KEM primitives only."""
    module = importlib.import_module(f"pqkit.mlkem.kernels.{backend}")
    table = {k: v for k, v in module.KERNELS.items() if k not in COMPOSITES}
    name = f"{backend}-primitives"
    arith.register(name, {"mlkem": lambda: table}, rank=90)
    return name


def _ops(kem: Any, pk: bytes, sk: bytes, ct: bytes) -> dict[str, Callable[[], Any]]:
    return {
        "keygen": lambda: kem.keygen_derand(bytes(64)),
        "encaps": lambda: kem.encaps_derand(pk, bytes(32)),
        "decaps": lambda: kem.decaps(sk, ct),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=0.5, help="seconds per timing")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds")
    parser.add_argument("--arith", nargs="*", default=None, help="backends (default: numpy, jit)")
    parser.add_argument("--name", default="ML-KEM-768")
    args = parser.parse_args(argv)
    backends = args.arith or [b for b in ("numpy", "jit") if b in arith.available("mlkem")]
    rows: list[list[str]] = []
    for backend in backends:
        contenders = {backend: backend, "primitives only": register_primitives_only(backend)}
        kems = {label: pqkit.kem(args.name).using(arith=b) for label, b in contenders.items()}  # type: ignore[attr-defined]
        pk, sk = kems[backend].keygen_derand(bytes(64))
        ct = kems[backend].encaps_derand(pk, bytes(32))[1]
        ops = {label: _ops(kem, pk, sk, ct) for label, kem in kems.items()}
        for op in ("keygen", "encaps", "decaps"):
            samples: dict[str, list[float]] = {label: [] for label in ops}
            for _ in range(args.rounds):
                for label in ops:
                    print(f"timing {backend} {op} {label} ...", file=sys.stderr)
                    stats = measure(ops[label][op], args.duration, warmup=3)
                    samples[label].append(stats.median_ns / 1e3)
            full, prim = (statistics.median(samples[label]) for label in ops)
            rows.append([backend, op, f"{full:.0f}", f"{prim:.0f}", f"{prim / full:.2f}"])
    header = ["backend", f"{args.name} op", "full (us)", "primitives only (us)", "ratio"]
    print("\n".join(markdown_table(header, rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
