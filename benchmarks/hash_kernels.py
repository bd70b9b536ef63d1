"""Throughput of the batched hash kernels (pqkit.common.kernels), not a test.

Prints, from one run, the median time per row (us) of:

* SHAKE256 of n rows shaped like FIPS 205's F for SLH-DSA-SHAKE-128 (a 16-byte
  PK.seed prefix, then a 32-byte ADRS and a 16-byte message per row, 16 bytes
  out), for n = 1, 16, 256, 4096;
* SHA-256 of n rows shaped like the SHA-2 F for n = 16 (a 64-byte prefix
  PK.seed || toByte(0, 48), then a 22-byte ADRSc and a 16-byte message per row);
* SHA-512 of n rows shaped like the SHA-2 H for n = 32 (a 128-byte prefix, then a
  22-byte ADRSc and two 32-byte halves per row);
* the bare permutation, Keccak-f[1600] on n states;

for a Python loop over hashlib (continuing a copy of an object that has absorbed
the prefix: the fastest a loop can do), the ``numpy`` backend, and the ``jit``
backend on one thread and on every core Numba sees. Each figure is the median
over single calls (per row), and the variants are timed alternately,
``--repeats`` times, reporting the median of those medians; the last columns are
the hashlib loop's time over jit's.

Run: ``PYTHONPATH=src python benchmarks/hash_kernels.py [--repeats N]``.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import time
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from pqkit.common.kernels import jit as jit_hash
from pqkit.common.kernels import numpy as numpy_hash

SIZES = (1, 16, 256, 4096)


def _per_row(fn: Callable[[], object], n: int) -> float:
    """Seconds per row: the median over single calls (about 20 ms of them in all).

    Medians of single calls, not a mean over a loop: on a shared machine a call
    whose thread was descheduled (tens of ms with several threads) would
    otherwise dominate."""
    number = max(5, 4096 // max(n, 1))
    times = []
    for _ in range(number):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) / n


def _loop(name: str, prefix: bytes, rows: list[bytes], out_len: int | None) -> Callable[[], object]:
    base = hashlib.new(name, prefix) if out_len is None else getattr(hashlib, name)(prefix)

    def run() -> list[bytes]:
        out = []
        for row in rows:
            h = base.copy()
            h.update(row)
            out.append(h.digest() if out_len is None else h.digest(out_len))
        return out

    return run


def _workers(n: int | None, fn: Callable[[], object]) -> Callable[[], object]:
    def run() -> object:
        jit_hash.set_workers(n)
        try:
            return fn()
        finally:
            jit_hash.set_workers(None)

    return run


def _table(
    title: str,
    variants: Callable[[int], dict[str, Callable[[], object]]],
    repeats: int,
) -> None:
    print(f"\n{title} (median of {repeats} repeats, us per row)")
    names: list[str] = []
    rows_out: list[str] = []
    for n in SIZES:
        fns = variants(n)
        names = list(fns)
        for fn in fns.values():  # warm up: compile or load the cached machine code
            fn()
        times: dict[str, list[float]] = {k: [] for k in fns}
        for _ in range(repeats):
            for k, fn in fns.items():
                times[k].append(_per_row(fn, n))
        med = {k: statistics.median(v) * 1e6 for k, v in times.items()}
        cells = " | ".join(f"{med[k]:.3f}" for k in names)
        ratios = ""
        if "hashlib loop" in med:
            ratios = " | " + " | ".join(
                f"{med['hashlib loop'] / med[k]:.1f}x" for k in names if k.startswith("jit")
            )
        rows_out.append(f"| {n} | {cells}{ratios} |")
    jit_names = [k for k in names if k.startswith("jit")]
    ratio_head = "".join(f" | hashlib / {k}" for k in jit_names) if "hashlib loop" in names else ""
    print("| n | " + " | ".join(names) + ratio_head + " |")
    print("|---" * (1 + len(names) + (len(jit_names) if ratio_head else 0)) + "|")
    print("\n".join(rows_out))


def _bytes(n: int, length: int, seed: int) -> npt.NDArray[np.uint8]:
    return np.random.default_rng(seed).integers(0, 256, (n, length), dtype=np.uint8)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args()
    print(f"jit workers (every core): {jit_hash.workers()}")

    seed16 = bytes(range(16))

    def shake(n: int) -> dict[str, Callable[[], object]]:
        rows = _bytes(n, 48, n)
        listed = [bytes(r) for r in rows]
        return {
            "hashlib loop": _loop("shake_256", seed16, listed, 16),
            "numpy": lambda: numpy_hash.shake_many(256, rows, 16, seed16),
            "jit 1 thread": _workers(1, lambda: jit_hash.shake_many(256, rows, 16, seed16)),
            "jit all": lambda: jit_hash.shake_many(256, rows, 16, seed16),
        }

    def sha256(n: int) -> dict[str, Callable[[], object]]:
        rows = _bytes(n, 38, n)
        listed = [bytes(r) for r in rows]
        prefix = seed16 + bytes(48)
        return {
            "hashlib loop": _loop("sha256", prefix, listed, None),
            "numpy": lambda: numpy_hash.sha256_many(rows, prefix),
            "jit 1 thread": _workers(1, lambda: jit_hash.sha256_many(rows, prefix)),
            "jit all": lambda: jit_hash.sha256_many(rows, prefix),
        }

    def sha512(n: int) -> dict[str, Callable[[], object]]:
        rows = _bytes(n, 86, n)
        listed = [bytes(r) for r in rows]
        prefix = seed16 * 2 + bytes(96)
        return {
            "hashlib loop": _loop("sha512", prefix, listed, None),
            "numpy": lambda: numpy_hash.sha512_many(rows, prefix),
            "jit 1 thread": _workers(1, lambda: jit_hash.sha512_many(rows, prefix)),
            "jit all": lambda: jit_hash.sha512_many(rows, prefix),
        }

    def keccak(n: int) -> dict[str, Callable[[], object]]:
        states = np.random.default_rng(n).integers(0, 2**64, (n, 25), dtype=np.uint64)
        return {
            "numpy": lambda: numpy_hash.keccak_f1600(states),
            "jit 1 thread": _workers(1, lambda: jit_hash.keccak_f1600(states)),
            "jit all": lambda: jit_hash.keccak_f1600(states),
        }

    _table("SHAKE256, SLH-DSA-SHAKE-128 F shape (16 + 48 bytes in, 16 out)", shake, args.repeats)
    _table("SHA-256, SLH-DSA-SHA2-128 F shape (64-byte prefix + 38 bytes)", sha256, args.repeats)
    _table("SHA-512, SLH-DSA-SHA2-256 H shape (128-byte prefix + 86 bytes)", sha512, args.repeats)
    _table("Keccak-f[1600] permutation alone", keccak, args.repeats)


if __name__ == "__main__":
    main()
