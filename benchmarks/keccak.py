"""Keccak micro-benchmark (not a test).

Prints, from one run:

* the pure-Python Keccak-f[1600] permutation: the unrolled ``keccak_f1600`` of
  ``pqkit.common.python.keccak`` against the looped readable twin in
  ``tests/keccak_looped.py``, timed alternately, as medians and their ratio;
* SHAKE-128 throughput of each symmetric backend, absorbing (hash a long message
  to 32 bytes) and squeezing (read a long output in 168-byte pieces, as rejection
  samplers do), median MB/s (10^6 bytes per second);
* for comparison, AES-256-CTR keystream throughput of each backend.

Run: ``PYTHONPATH=src python benchmarks/keccak.py [--repeats N]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from keccak_looped import keccak_f1600_looped

from pqkit import common
from pqkit.common.python.keccak import keccak_f1600


def _seconds(fn: Callable[[], object], number: int) -> float:
    start = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - start) / number


def permutation(repeats: int) -> None:
    state = [(0x9E3779B97F4A7C15 * (i + 1)) & (2**64 - 1) for i in range(25)]
    unrolled, looped = [], []
    for _ in range(repeats):  # alternate, so both see the same machine load
        unrolled.append(_seconds(lambda: keccak_f1600(state), 200))
        looped.append(_seconds(lambda: keccak_f1600_looped(state), 20))
    u, lo = statistics.median(unrolled), statistics.median(looped)
    ratios = statistics.median(b / a for a, b in zip(unrolled, looped, strict=True))
    print(f"Keccak-f[1600], pure Python (median of {repeats} repeats)")
    print("| variant | us per permutation |\n|---|---|")
    print(f"| unrolled (pqkit.common.python.keccak) | {u * 1e6:.1f} |")
    print(f"| looped twin (tests/keccak_looped.py) | {lo * 1e6:.1f} |")
    print(f"looped / unrolled: {lo / u:.2f}x (median of per-repeat ratios: {ratios:.2f}x)\n")


def throughput(repeats: int) -> None:
    print(f"SHAKE-128 throughput, MB/s (median of {repeats} repeats)")
    print("| backend | absorb | squeeze (168-byte reads) |\n|---|---|---|")
    for backend in ("openssl", "python"):
        size = 1 << 20 if backend == "openssl" else 1 << 14
        message = bytes(size)

        def absorb(backend: str = backend, message: bytes = message) -> None:
            common.shake128_digest(message, 32, backend=backend)

        def squeeze(backend: str = backend, size: int = size) -> None:
            xof = common.provider("sha3", backend).shake(128, b"seed")
            for _ in range(size // 168):
                xof.read(168)

        a = statistics.median(_seconds(absorb, 1) for _ in range(repeats))
        s = statistics.median(_seconds(squeeze, 1) for _ in range(repeats))
        squeezed = size // 168 * 168
        print(f"| {backend} | {size / a / 1e6:.3f} | {squeezed / s / 1e6:.3f} |")


def aes_ctr(repeats: int) -> None:
    print(f"\nAES-256-CTR keystream, MB/s (median of {repeats} repeats; for comparison)")
    print("| backend | 16 KiB in one read | 64-byte reads |\n|---|---|---|")
    key = bytes(range(32))
    for backend in ("openssl", "python"):
        size = 1 << 14

        def one(backend: str = backend, size: int = size) -> None:
            common.aes256_ctr(key, bytes(16), backend=backend).read(size)

        def pieces(backend: str = backend, size: int = size) -> None:
            stream = common.aes256_ctr(key, bytes(16), backend=backend)
            for _ in range(size // 64):
                stream.read(64)

        a = statistics.median(_seconds(one, 1) for _ in range(repeats))
        b = statistics.median(_seconds(pieces, 1) for _ in range(repeats))
        print(f"| {backend} | {size / a / 1e6:.3f} | {size / b / 1e6:.3f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    permutation(args.repeats)
    throughput(args.repeats)
    aes_ctr(args.repeats)


if __name__ == "__main__":
    main()
