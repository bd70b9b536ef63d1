"""HQC-1/3/5: pqkit (jit, and numpy only) against pqcrypto 1.0.0's HQC (compiled C).

    python benchmarks/hqc.py                     # 1 s per operation
    python benchmarks/hqc.py --duration 3 --keys both

The targets of issue 32: with the compiled backend every operation at most 1.0x
pqcrypto's time, NumPy only within 5x. pqcrypto's HQC is compiled C of another HQC
version (the same sizes, but its ciphertexts do not decapsulate under the
2025-08-22 specification, nor ours under it: checked both ways), so only the times
are compared. Skips, saying why, when pqcrypto is not installed
(``pip install pqcrypto==1.0.0``: a benchmark peer, not a dependency).

One run, medians of :func:`pqkit.bench.timing.measure` (the loop of ``pqkit speed``),
each library timed in turn with a fresh key per call (``--keys``, as in
benchmarks/peers.py, whose machinery this reuses); on a shared machine the ratios
move by tens of percent from run to run. Not run by CI.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from typing import Any

import peers

from pqkit.bench.config import configuration, format_configuration
from pqkit.bench.keyring import KEY_RING
from pqkit.bench.report import markdown_table
from pqkit.bench.timing import measure

NAMES = ("HQC-1", "HQC-3", "HQC-5")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kem", nargs="*", default=list(NAMES), metavar="ALG")
    parser.add_argument("--duration", type=float, default=1.0, help="seconds per operation")
    parser.add_argument("--keys", choices=peers.KEYS, default="fresh")
    args = parser.parse_args(argv)
    if importlib.util.find_spec("pqcrypto") is None:
        print("skipped: pqcrypto is not installed (pip install pqcrypto==1.0.0)")
        return 0
    import pqkit

    if "jit" not in pqkit.arith.available("hqc"):
        print("skipped: the jit backend needs numba (pip install 'pqkit[jit]')")
        return 0
    contenders = [peers._pqkit("jit"), peers._pqkit("numpy"), peers._pqcrypto()]
    columns = peers._columns(peers.KEM_OPS, args.keys)
    out = [*format_configuration(configuration()), ""]
    for name in args.kem:
        medians: dict[str, dict[str, float]] = {}
        for peer in contenders:
            api: Any = peer.kem(name)
            if api is None:
                continue
            print(f"keys for {peer.label} {name} ...", file=sys.stderr)
            ops = peers.kem_ops(api, KEY_RING if args.keys != "one" else 1)
            medians[peer.label] = {op: measure(ops[op], args.duration).median_ns for op in columns}
        out += [*peers._table(name, columns, medians, None), ""]
        peer = contenders[-1].label
        if peer in medians:  # each pqkit row against pqcrypto (the targets: 1.0x, 5x)
            out += ["pqkit time / pqcrypto time (below 1: pqkit is faster):", ""]
            rows = [
                [label, *(f"{m[op] / medians[peer][op]:.2f}" for op in columns)]
                for label, m in medians.items()
                if label != peer
            ]
            out += [*markdown_table(["pqkit", *columns], rows), ""]
    print("\n".join(out).rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
