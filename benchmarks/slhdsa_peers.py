"""SLH-DSA (FIPS 205): pqkit against pqcrypto (Rust) and the pure-Python slh-dsa,
all twelve parameter sets in one run.

    python benchmarks/slhdsa_peers.py                    # all 12 sets
    python benchmarks/slhdsa_peers.py --sets SHAKE-128f SHA2-128f --repeat 9
    python benchmarks/slhdsa_peers.py --arith jit        # pqkit on one backend only
    python benchmarks/slhdsa_peers.py --profile SLH-DSA-SHAKE-128f   # where sign's time goes

Prints Markdown: per set and operation the median milliseconds of each library
over a fixed number of calls (``--repeat`` for the f sets; ``--repeat-s`` for
keygen/verify and ``--sign-s`` for signing with the s sets, whose signatures take
seconds in Python), and the ratios pqkit / peer (below 1: pqkit is faster): pqkit
on each backend of ``--arith`` (default: ``jit`` where Numba is installed, its
numba cache warmed by one call of each operation first, and ``numpy``), the ``jit``
column against pqcrypto and the ``numpy`` one against slh-dsa. Each
library signs a 50-byte message with an empty context (pure SLH-DSA, hedged where
the library offers it: pqkit and pqcrypto hedge, slh-dsa's ``sign_pure`` is asked
to randomize). Libraries that are not installed are skipped. Not run by CI.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import importlib.metadata
import pstats
import statistics
import time
from collections.abc import Callable
from typing import Any

import pqkit
from pqkit import arith, common
from pqkit.bench.report import markdown_table

MESSAGE = bytes(range(50))
SETS = [f"{fam}-{size}" for fam in ("SHA2", "SHAKE") for size in
        ("128s", "128f", "192s", "192f", "256s", "256f")]  # fmt: skip
OPS = ("keygen", "sign", "verify")
Ops = dict[str, Callable[[], object]]


def _pqkit(name: str, arith: str) -> Ops:
    scheme: Any = pqkit.sig(f"SLH-DSA-{name}")
    scheme = scheme.using(arith=arith)
    pk, sk = scheme.keygen()
    sig = scheme.sign(sk, MESSAGE)
    scheme.verify(pk, MESSAGE, sig)  # every operation once (jit: compiled or loaded)
    return {
        "keygen": scheme.keygen,
        "sign": lambda: scheme.sign(sk, MESSAGE),
        "verify": lambda: scheme.verify(pk, MESSAGE, sig),
    }


def _pqcrypto(name: str) -> Ops:
    m = importlib.import_module(f"pqcrypto.sign.slh_dsa_{name.replace('-', '_').lower()}")
    pk, sk = m.keygen()
    sig = m.sign(sk, MESSAGE)
    return {
        "keygen": m.keygen,
        "sign": lambda: m.sign(sk, MESSAGE),
        "verify": lambda: m.verify(pk, MESSAGE, sig),
    }


def _slh_dsa(name: str) -> Ops:
    slhdsa: Any = importlib.import_module("slhdsa")
    par = getattr(slhdsa, name.replace("-", "_").lower())
    kp = slhdsa.KeyPair.gen(par)
    sig = kp.sign_pure(MESSAGE, randomize=True)
    return {
        "keygen": lambda: slhdsa.KeyPair.gen(par),
        "sign": lambda: kp.sign_pure(MESSAGE, randomize=True),
        "verify": lambda: kp.verify_pure(MESSAGE, sig),
    }


def _libraries(ariths: list[str]) -> list[tuple[str, Callable[[str], Ops]]]:
    sha = common.provider("sha3").name
    libs: list[tuple[str, Callable[[str], Ops]]] = [
        (f"pqkit {arith}", lambda name, arith=arith: _pqkit(name, arith)) for arith in ariths
    ]
    print(f"<!-- pqkit {pqkit.__version__}, SHA provider {sha} -->")
    for dist, module, build in (
        ("pqcrypto", "pqcrypto", _pqcrypto),
        ("slh-dsa", "slhdsa", _slh_dsa),
    ):
        try:
            importlib.import_module(module)
        except ImportError:
            print(f"<!-- {dist} not installed: skipped -->")
            continue
        libs.append((f"{dist} {importlib.metadata.version(dist)}", build))
    return libs


def _median_ms(op: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        op()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


_PEER_OF = {"jit": "pqcrypto", "numpy": "slh-dsa"}
"""Which peer each pqkit backend's ratio column compares with (issue 15's targets)."""


def run(sets: list[str], repeat: int, repeat_s: int, sign_s: int, ariths: list[str]) -> None:
    libs = _libraries(ariths)
    labels = [label for label, _ in libs]
    pairs = [
        (labels.index(f"pqkit {arith}"), i)
        for arith in ariths
        for i, label in enumerate(labels)
        if label.split()[0] == _PEER_OF.get(arith)
    ]
    header = ["set", "op", *labels]
    header += [f"{labels[a]} / {labels[b].split()[0]}" for a, b in pairs]
    rows = []
    for name in sets:
        small = name.endswith("s")
        ops = [build(name) for _, build in libs]
        for op in OPS:
            count = (sign_s if op == "sign" else repeat_s) if small else repeat
            ms = [_median_ms(lib_ops[op], count) for lib_ops in ops]
            cells = [f"{t:.2f}" for t in ms] + [f"{ms[a] / ms[b]:.2f}" for a, b in pairs]
            rows.append([name, f"{op} (x{count})", *cells])
    print("Median milliseconds per operation (one run, one process).\n")
    print("\n".join(markdown_table(header, rows, left=2)))


def profile(name: str, backend: str) -> None:
    scheme: Any = pqkit.sig(name)
    scheme = scheme.using(arith=backend)
    _, sk = scheme.keygen()
    scheme.sign(sk, MESSAGE)
    profiler = cProfile.Profile()
    profiler.enable()
    scheme.sign(sk, MESSAGE)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(12)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="+", default=SETS, help="e.g. SHAKE-128f SHA2-192s")
    parser.add_argument("--repeat", type=int, default=5, help="calls per f-set operation")
    parser.add_argument("--repeat-s", type=int, default=3, help="s-set keygen/verify calls")
    parser.add_argument("--sign-s", type=int, default=1, help="s-set sign calls")
    parser.add_argument(
        "--arith",
        nargs="+",
        default=[b for b in ("jit", "numpy") if b in arith.available("hash")],
        help="pqkit backends to run (default: jit where installed, and numpy)",
    )
    parser.add_argument("--profile", metavar="SET", help="profile one pqkit signature instead")
    args = parser.parse_args()
    if args.profile:
        profile(args.profile, args.arith[0])
        return
    sets = [s.removeprefix("SLH-DSA-") for s in args.sets]
    run(sets, args.repeat, args.repeat_s, args.sign_s, args.arith)


if __name__ == "__main__":
    main()
