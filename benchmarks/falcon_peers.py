"""Falcon: pqkit (round 3 v1.2) against py-fn-dsa (C bindings of an FN-DSA draft,
a speed peer only: its keys and signatures are not Falcon round 3's).

    python benchmarks/falcon_peers.py                  # Falcon-512 and -1024
    python benchmarks/falcon_peers.py --repeat 21 --keys 8

Prints Markdown: per degree and operation the median milliseconds of each library
over ``--repeat`` calls, every call with another key of a pool of ``--keys`` fresh
key pairs (signing) and another signature (verification), and the ratios
pqkit / py-fn-dsa (below 1: pqkit is faster) for pqkit's ``jit`` and ``numpy``
backends (``jit`` warmed by one call of each operation first). py-fn-dsa is
skipped, with a line saying so, when it is not installed. Not run by CI; timings on
a shared machine are noisy, the ratios of one run are what to read.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import time
from collections.abc import Callable
from typing import Any

import pqkit
from pqkit import arith
from pqkit.bench.report import markdown_table

MESSAGE = bytes(range(50))
OPS = ("keygen", "sign", "verify")


def _median_ms(calls: list[Callable[[], object]]) -> float:
    times = []
    for call in calls:
        t = time.perf_counter()
        call()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e3


def _pqkit(logn: int, backend: str, repeat: int, nkeys: int) -> dict[str, float]:
    scheme: Any = pqkit.sig(f"Falcon-{1 << logn}").using(arith=backend)
    keys = [scheme.keygen() for _ in range(nkeys)]
    sigs = [scheme.sign(sk, MESSAGE) for _, sk in keys]
    pick = [i % nkeys for i in range(repeat)]
    return {
        "keygen": _median_ms([scheme.keygen for _ in range(max(3, repeat // 4))]),
        "sign": _median_ms([lambda i=i: scheme.sign(keys[i][1], MESSAGE) for i in pick]),
        "verify": _median_ms(
            [lambda i=i: scheme.verify(keys[i][0], MESSAGE, sigs[i]) for i in pick]
        ),
    }


def _fn_dsa(logn: int, repeat: int, nkeys: int) -> dict[str, float] | None:
    try:
        m: Any = importlib.import_module("py_fn_dsa")
    except ImportError:
        print("py-fn-dsa is not installed: its column is skipped (pip install py-fn-dsa)\n")
        return None
    keys = [m.keygen(logn) for _ in range(nkeys)]
    sigs = [m.sign(sk, MESSAGE) for _, sk in keys]
    pick = [i % nkeys for i in range(repeat)]
    return {
        "keygen": _median_ms([lambda: m.keygen(logn) for _ in range(repeat)]),
        "sign": _median_ms([lambda i=i: m.sign(keys[i][1], MESSAGE) for i in pick]),
        "verify": _median_ms([lambda i=i: m.verify(keys[i][0], sigs[i], MESSAGE) for i in pick]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--keys", type=int, default=5)
    args = parser.parse_args()
    backends = [b for b in ("jit", "numpy") if b in arith.available("falcon")]
    rows = []
    for logn in (9, 10):
        ours = {b: _pqkit(logn, b, args.repeat, args.keys) for b in backends}
        peer = _fn_dsa(logn, args.repeat, args.keys)
        for op in OPS:
            row = [f"Falcon-{1 << logn}", op]
            row += [f"{ours[b][op]:.3f}" for b in backends]
            row.append(f"{peer[op]:.3f}" if peer else "-")
            row += [f"{ours[b][op] / peer[op]:.1f}x" if peer else "-" for b in backends]
            rows.append(row)
    head = ["set", "op", *(f"pqkit {b} (ms)" for b in backends), "py-fn-dsa (ms)"]
    head += [f"{b} / py-fn-dsa" for b in backends]
    print("\n".join(markdown_table(head, rows)))


if __name__ == "__main__":
    main()
