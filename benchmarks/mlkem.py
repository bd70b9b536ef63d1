"""ML-KEM speed next to pycryptodome and kyber-py, measured in the same run.

Prints the median microseconds of keygen, encaps and decaps for each parameter set
and library. Run from the repository root::

    PYTHONPATH=src python benchmarks/mlkem.py [--rounds 15] [--number 40] [--arith numpy]

Each figure is the median over ``--rounds`` rounds of the mean of ``--number``
calls (kyber-py: ``--number`` / 20); the libraries take turns round by round.
pycryptodome has no public encapsulate/decapsulate on its key objects (its HPKE
module calls ``MLKEMKey._encaps`` / ``_decaps``), so those are used; its keygen is
``MLKEM.generate``. Missing libraries are reported and skipped.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import pqkit

NAMES = ("ML-KEM-512", "ML-KEM-768", "ML-KEM-1024")


def interleaved_medians(
    contenders: list[tuple[Callable[[], Any], int]], rounds: int
) -> list[float]:
    """Median microseconds per call of each (function, calls per round), measured in
    interleaved rounds (A, B, C, A, B, C, ...) so that every contender sees the same
    machine load; this machine is shared, so only ratios from one run are meaningful."""
    for fn, _ in contenders:
        fn()  # warm up
    samples: list[list[float]] = [[] for _ in contenders]
    for _ in range(rounds):
        for i, (fn, number) in enumerate(contenders):
            start = time.perf_counter()
            for _ in range(number):
                fn()
            samples[i].append((time.perf_counter() - start) / number * 1e6)
    return [statistics.median(s) for s in samples]


def pqkit_ops(name: str, backend: str) -> tuple[Callable[[], Any], ...]:
    kem = pqkit.kem(name).using(arith=backend)  # type: ignore[attr-defined]
    pk, sk = kem.keygen()
    _, ct = kem.encaps(pk)
    return (kem.keygen, lambda: kem.encaps(pk), lambda: kem.decaps(sk, ct))


def pycryptodome_ops(name: str) -> tuple[Callable[[], Any], ...] | None:
    try:
        from Crypto.PublicKey import MLKEM
    except ImportError:
        return None
    param = {
        "ML-KEM-512": MLKEM.ML_KEM_512,
        "ML-KEM-768": MLKEM.ML_KEM_768,
        "ML-KEM-1024": MLKEM.ML_KEM_1024,
    }[name]
    key = MLKEM.generate(param_set=param)
    pub = key.public_key()
    _, ct = pub._encaps()
    return (
        lambda: MLKEM.generate(param_set=param),
        lambda: pub._encaps(),
        lambda: key._decaps(ct),
    )


def kyber_py_ops(name: str) -> tuple[Callable[[], Any], ...] | None:
    try:
        from kyber_py.ml_kem import ML_KEM_512, ML_KEM_768, ML_KEM_1024
    except ImportError:
        return None
    kem = {"ML-KEM-512": ML_KEM_512, "ML-KEM-768": ML_KEM_768, "ML-KEM-1024": ML_KEM_1024}[name]
    ek, dk = kem.keygen()
    _, ct = kem.encaps(ek)
    return (kem.keygen, lambda: kem.encaps(ek), lambda: kem.decaps(dk, ct))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--number", type=int, default=40)
    parser.add_argument("--arith", default="numpy", help="pqkit arith backend (numpy, ref)")
    parser.add_argument("--names", nargs="*", default=list(NAMES))
    args = parser.parse_args()

    print(f"median microseconds per operation ({args.rounds} rounds x {args.number} calls)")
    print(f"{'scheme':<12} {'library':<22} {'keygen':>9} {'encaps':>9} {'decaps':>9}")
    for name in args.names:
        contenders: list[tuple[str, tuple[Callable[[], Any], ...] | None, int]] = [
            (f"pqkit ({args.arith})", pqkit_ops(name, args.arith), args.number),
            ("pycryptodome", pycryptodome_ops(name), args.number),
            ("kyber-py", kyber_py_ops(name), max(1, args.number // 20)),
        ]
        present = [(label, ops, n) for label, ops, n in contenders if ops is not None]
        for label, ops, _ in contenders:
            if ops is None:
                print(f"{name:<12} {label:<22} {'not installed':>29}")
        rows: dict[str, list[float]] = {label: [] for label, _, _ in present}
        for op in range(3):  # keygen, encaps, decaps
            medians = interleaved_medians([(ops[op], n) for _, ops, n in present], args.rounds)
            for (label, _, _), value in zip(present, medians, strict=True):
                rows[label].append(value)
        for label, values in rows.items():
            print(f"{name:<12} {label:<22} " + " ".join(f"{v:9.1f}" for v in values))
        ours = rows[f"pqkit ({args.arith})"]
        for label, theirs in rows.items():
            if label.startswith("pqkit"):
                continue
            ratio = " ".join(f"{a / b:9.2f}" for a, b in zip(ours, theirs, strict=True))
            print(f"{name:<12} {'pqkit / ' + label:<22} {ratio}")


if __name__ == "__main__":
    main()
