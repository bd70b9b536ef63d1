"""Classic McEliece: pqkit against pqcrypto 1.0.0 (PQClean's C, through Rust), in one
run, and the peak memory of pqkit's key generation.

    python benchmarks/mceliece_peers.py                         # 348864 and 348864f
    python benchmarks/mceliece_peers.py --sets 460896 6688128f --repeat 5
    python benchmarks/mceliece_peers.py --arith jit             # one backend only

Prints Markdown: per set and operation the median milliseconds over ``--repeat``
calls of pqkit on each backend of ``--arith`` (default ``jit`` where Numba is
installed, its compiled code loaded by one untimed round trip first, and
``numpy``) and of pqcrypto, then the ratios pqkit / pqcrypto (below 1: pqkit is
faster). Every encapsulation and decapsulation meets a fresh key (a ring of
``--keys`` key pairs per library, made beforehand). The last column is the peak
memory of one pqkit key generation (``tracemalloc``: Python and NumPy
allocations; Numba's own buffers are NumPy arrays too). pqcrypto is skipped with a
note when it is not installed. Not run by CI.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import statistics
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import pqkit
from pqkit import arith
from pqkit.bench.report import markdown_table

SETS = [
    f"{size}{v}"
    for size in ("348864", "460896", "6688128", "6960119", "8192128")
    for v in ("", "f")
]
OPS = ("keygen", "encaps", "decaps")


def _median_ms(fn: Callable[[int], object], repeat: int) -> float:
    times = []
    for i in range(repeat):
        start = time.perf_counter()
        fn(i)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def _time_library(
    keygen: Callable[[], Any],
    encaps: Callable[[Any], Any],
    decaps: Callable[[Any, Any], Any],
    ciphertext: Callable[[Any], bytes],
    nkeys: int,
    repeat: int,
) -> dict[str, float]:
    """Median ms of each operation; a fresh key per call from a ring of nkeys pairs
    (made first, which also loads any compiled code)."""
    pairs = [keygen() for _ in range(nkeys)]
    cts = [ciphertext(encaps(pk)) for pk, _ in pairs]
    return {
        "keygen": _median_ms(lambda i: keygen(), repeat),
        "encaps": _median_ms(lambda i: encaps(pairs[i % nkeys][0]), repeat),
        "decaps": _median_ms(lambda i: decaps(pairs[i % nkeys][1], cts[i % nkeys]), repeat),
    }


def _pqcrypto(size: str) -> Any:
    try:
        return importlib.import_module(f"pqcrypto.kem.mceliece_{size}")
    except ImportError:
        return None


def _peak_keygen_mib(kem: Any) -> float:
    tracemalloc.start()
    kem.keygen()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def run(sets: list[str], backends: list[str], repeat: int, nkeys: int) -> list[str]:
    lines: list[str] = []
    header = ["set", "operation", *[f"pqkit {b} (ms)" for b in backends], "pqcrypto (ms)"]
    header += [f"{b} / pqcrypto" for b in backends]
    rows: list[list[str]] = []
    memory: list[list[str]] = []
    for size in sets:
        name = f"Classic-McEliece-{size}"
        peer = _pqcrypto(size)
        results: dict[str, dict[str, float]] = {}
        for backend in backends:
            kem = pqkit.kem(name).using(arith=backend)
            results[backend] = _time_library(
                kem.keygen, kem.encaps, kem.decaps, lambda enc: enc.ciphertext, nkeys, repeat
            )
            memory.append([name, backend, f"{_peak_keygen_mib(kem):.1f}"])
        if peer is not None:
            results["pqcrypto"] = _time_library(
                peer.keygen, peer.encaps, peer.decaps, lambda enc: enc[0], nkeys, repeat
            )
        for op in OPS:
            row = [name, op, *[f"{results[b][op]:.2f}" for b in backends]]
            ref = results.get("pqcrypto", {}).get(op)
            row.append(f"{ref:.2f}" if ref is not None else "-")
            row += [f"{results[b][op] / ref:.2f}x" if ref else "-" for b in backends]
            rows.append(row)
    lines += markdown_table(header, rows)
    lines += ["", "Peak memory of one key generation (tracemalloc):", ""]
    lines += markdown_table(["set", "backend", "peak (MiB)"], memory)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="+", default=["348864", "348864f"], choices=SETS)
    parser.add_argument("--arith", nargs="+", default=None, help="pqkit backends")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--keys", type=int, default=4)
    args = parser.parse_args()
    backends = args.arith or [b for b in ("jit", "numpy") if b in arith.available("mceliece")]
    try:
        version = importlib.metadata.version("pqcrypto")
        note = f"pqcrypto {version}"
    except importlib.metadata.PackageNotFoundError:
        note = "pqcrypto is not installed: its columns are skipped (pip install pqcrypto==1.0.0)"
    print(f"# Classic McEliece: pqkit ({', '.join(backends)}) against {note}\n")
    print("\n".join(run(args.sets, backends, args.repeat, args.keys)))


if __name__ == "__main__":
    main()
