"""pqkit's arithmetic backends side by side (numpy, jit, ...) and pycryptodome, in one process.

    PYTHONPATH=src python benchmarks/arith_backends.py                  # every ML-KEM / ML-DSA set
    PYTHONPATH=src python benchmarks/arith_backends.py --duration 1 --arith numpy jit

Prints one Markdown table: median microseconds per operation for each algorithm,
operation and contender, timed with :func:`pqkit.bench.timing.measure` (the loop of
``pqkit speed``), contenders interleaved per operation so that a load change on a
shared machine hits them alike. Each backend gets warm-up calls first (the ``jit``
backend compiles, or loads its on-disk cache, on first use). pycryptodome is timed
where it is installed (its private ``_encaps`` / ``_decaps``, as in ``peers.py``).
Not run by CI.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

import pqkit
from pqkit import arith
from pqkit.bench.report import markdown_table
from pqkit.bench.timing import measure

KEMS = ("ML-KEM-512", "ML-KEM-768", "ML-KEM-1024")
SIGS = ("ML-DSA-44", "ML-DSA-65", "ML-DSA-87")
MESSAGE = b"pqkit benchmark message"

Ops = dict[str, Callable[[], Any]]


def pqkit_kem(name: str, backend: str) -> Ops:
    kem = pqkit.kem(name).using(arith=backend)  # type: ignore[attr-defined]
    pk, sk = kem.keygen()
    _, ct = kem.encaps(pk)
    return {
        "keygen": kem.keygen,
        "encaps": lambda: kem.encaps(pk),
        "decaps": lambda: kem.decaps(sk, ct),
    }


def pqkit_sig(name: str, backend: str) -> Ops:
    dsa = pqkit.sig(name).using(arith=backend)  # type: ignore[attr-defined]
    pk, sk = dsa.keygen()
    s = dsa.sign(sk, MESSAGE)
    return {
        "keygen": dsa.keygen,
        "sign": lambda: dsa.sign(sk, MESSAGE),
        "verify": lambda: dsa.verify(pk, MESSAGE, s),
    }


def cryptodome_kem(name: str) -> Ops | None:
    try:
        from Crypto.PublicKey import MLKEM
    except ImportError:
        return None
    param_set = MLKEM.ParamSet[name.replace("-", "_")]
    key: Any = MLKEM.generate(param_set=param_set)
    _, ct = key._encaps()
    return {
        "keygen": lambda: MLKEM.generate(param_set=param_set),
        "encaps": key._encaps,
        "decaps": lambda: key._decaps(ct),
    }


def cryptodome_sig(name: str) -> Ops | None:
    try:
        from Crypto.PublicKey import MLDSA
        from Crypto.Signature import mldsa
    except ImportError:
        return None
    param_set = MLDSA.ParamSet[name.replace("-", "_")]
    key: Any = MLDSA.generate(param_set=param_set)
    signer, verifier = mldsa.new(key), mldsa.new(key.public_key())
    s = signer.sign(MESSAGE)
    return {
        "keygen": lambda: MLDSA.generate(param_set=param_set),
        "sign": lambda: signer.sign(MESSAGE),
        "verify": lambda: verifier.verify(MESSAGE, s),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=0.5, help="seconds per operation")
    parser.add_argument("--arith", nargs="*", default=None, help="backends (default: available)")
    parser.add_argument("--names", nargs="*", default=[*KEMS, *SIGS])
    args = parser.parse_args(argv)
    backends = args.arith or [b for b in ("numpy", "jit") if b in arith.available("mlkem")]

    rows: list[list[str]] = []
    for name in args.names:
        is_kem = name.startswith("ML-KEM")
        contenders: dict[str, Ops] = {
            f"pqkit {b}": (pqkit_kem if is_kem else pqkit_sig)(name, b) for b in backends
        }
        peer = (cryptodome_kem if is_kem else cryptodome_sig)(name)
        if peer is not None:
            contenders["pycryptodome"] = peer
        for op in ("keygen", "encaps", "decaps") if is_kem else ("keygen", "sign", "verify"):
            medians = {}
            for label, ops in contenders.items():
                print(f"timing {name} {op} {label} ...", file=sys.stderr)
                medians[label] = measure(ops[op], args.duration, warmup=3).median_ns / 1e3
            rows.append([name, op, *(f"{medians[label]:.0f}" for label in contenders)])
        header = ["Algorithm", "operation", *contenders]
    print("\n".join(markdown_table(header, rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
