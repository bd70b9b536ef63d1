"""Batch throughput: per-item time of ``scheme.batch`` against the batch size n.

For ML-KEM-768 (keygen, encaps, decaps) and ML-DSA-65 (keygen, sign, verify), on
each arithmetic backend asked for, prints the per-item median microseconds and
items per second for n = 1, 4, 16, ... up to ``--max-n``, next to pycryptodome's
single-operation time measured in the same run (the ratio column). Run from the
repository root::

    PYTHONPATH=src python benchmarks/batch_throughput.py [--max-n 4096] [--arith numpy jit]
        [--workers 1 2] [--rounds 3] [--plot curve.png] [--json out.json]
        [--only-max]   # just n = --max-n (ML-KEM) and --max-n-sig (ML-DSA): the targets

Each figure is the median over ``--rounds`` rounds; in a round pycryptodome's
single operation runs for ``--min-time`` / 2 seconds, then the batch call is
repeated until it has run for ``--min-time`` seconds (at least once), and the
ratio is the median of the per-round ratios: both sides see the same load.
Encapsulation and decapsulation use n different keys; signing and verification
n different keys and 32-byte messages, hedged.
ML-DSA's n stops at ``--max-n-sig`` (signing is slower). pycryptodome is a
benchmark-only dependency (``pip install pycryptodome``); without it the ratio
column is empty. ``--plot`` needs matplotlib.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

import pqkit
from pqkit import arith

KEM = "ML-KEM-768"
SIG = "ML-DSA-65"


def _per_item_us(fn: Callable[[], Any], items: int, min_time: float) -> float:
    """Per-item microseconds of ``fn`` (one call handles ``items`` items), calling it
    until ``min_time`` seconds have passed (at least once)."""
    calls = 0
    start = time.perf_counter()
    while True:
        fn()
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            return elapsed / calls / items * 1e6


def interleaved(
    batch: Callable[[], Any], n: int, peer: Callable[[], Any] | None, rounds: int, min_time: float
) -> tuple[float, float | None, float | None]:
    """(median per-item us of ``batch``, median us of the ``peer`` single operation,
    median of the per-round ratios batch / peer). Each round times the peer, then the
    batch, so both see the same machine load (this machine is shared: only ratios
    from one round are meaningful)."""
    batch()  # warm up (and compile, on the jit backend)
    if peer is not None:
        peer()
    ours: list[float] = []
    theirs: list[float] = []
    for _ in range(rounds):
        if peer is not None:
            theirs.append(_per_item_us(peer, 1, min_time / 2))
        ours.append(_per_item_us(batch, n, min_time))
    ratios = [a / b for a, b in zip(ours, theirs, strict=False)] if theirs else []
    return (
        statistics.median(ours),
        statistics.median(theirs) if theirs else None,
        statistics.median(ratios) if ratios else None,
    )


def pycryptodome_ops() -> dict[str, Callable[[], Any]]:
    """pycryptodome's single operations, keyed ``scheme/op`` (empty if missing)."""
    try:
        from Crypto.PublicKey import MLDSA, MLKEM
        from Crypto.Signature import mldsa
    except ImportError:
        return {}
    kp = MLKEM.ParamSet.ML_KEM_768
    key: Any = MLKEM.generate(param_set=kp)
    _, ct = key._encaps()  # pycryptodome 4.4 has no public encapsulate (its HPKE uses these)
    sp = MLDSA.ParamSet.ML_DSA_65
    skey: Any = MLDSA.generate(param_set=sp)
    signer, verifier = mldsa.new(skey), mldsa.new(skey.public_key())
    msg = os.urandom(32)
    sig = signer.sign(msg)
    return {
        f"{KEM}/keygen": lambda: MLKEM.generate(param_set=kp),
        f"{KEM}/encaps": key._encaps,
        f"{KEM}/decaps": lambda: key._decaps(ct),
        f"{SIG}/keygen": lambda: MLDSA.generate(param_set=sp),
        f"{SIG}/sign": lambda: signer.sign(msg),
        f"{SIG}/verify": lambda: verifier.verify(msg, sig),
    }


def batch_ops(name: str, backend: str, n: int, workers: int) -> dict[str, Callable[[], Any]]:
    """The three batch operations of ``name`` on n rows."""
    scheme: Any = (pqkit.kem(name) if name == KEM else pqkit.sig(name)).using(arith=backend)
    view = scheme.batch
    pks, sks = view.keygen(n, workers=workers)
    if name == KEM:
        _, cts = view.encaps(pks, workers=workers)
        return {
            "keygen": lambda: view.keygen(n, workers=workers),
            "encaps": lambda: view.encaps(pks, workers=workers),
            "decaps": lambda: view.decaps(sks, cts, workers=workers),
        }
    msgs = [os.urandom(32) for _ in range(n)]
    sigs = view.sign(sks, msgs, workers=workers)
    return {
        "keygen": lambda: view.keygen(n, workers=workers),
        "sign": lambda: view.sign(sks, msgs, workers=workers),
        "verify": lambda: view.verify(pks, msgs, sigs, workers=workers),
    }


def sizes(max_n: int) -> list[int]:
    out, n = [], 1
    while n <= max_n:
        out.append(n)
        n *= 4
    if out[-1] != max_n:
        out.append(max_n)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-n", type=int, default=4096, help="largest ML-KEM batch")
    parser.add_argument("--max-n-sig", type=int, default=1024, help="largest ML-DSA batch")
    parser.add_argument("--arith", nargs="*", default=["numpy", "jit"])
    parser.add_argument("--workers", nargs="*", type=int, default=[1])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--min-time", type=float, default=0.3)
    parser.add_argument("--schemes", nargs="*", default=[KEM, SIG])
    parser.add_argument("--plot", help="write the curve to this image (needs matplotlib)")
    parser.add_argument("--json", help="write every figure to this JSON file")
    parser.add_argument(
        "--only-max", action="store_true", help="only the largest n of each scheme (no curve)"
    )
    args = parser.parse_args()
    backends = [b for b in args.arith if b in arith.available("mlkem")]

    peers = pycryptodome_ops()
    rows: list[dict[str, Any]] = []
    print(f"per-item median us ({args.rounds} rounds, >= {args.min_time} s each); ratio:")
    print("median of per-round (per-item time / pycryptodome single-op time), interleaved")
    print(
        f"{'scheme':<11} {'op':<7} {'arith':<6} {'thr':>3} {'n':>6} {'us/item':>10} "
        f"{'items/s':>9} {'pycryptodome us':>15} {'ratio':>6}"
    )
    for name in args.schemes:
        top = args.max_n if name == KEM else args.max_n_sig
        for backend in backends:
            for workers in args.workers:
                for n in [top] if args.only_max else sizes(top):
                    for op, fn in batch_ops(name, backend, n, workers).items():
                        peer = peers.get(f"{name}/{op}")
                        us, ref, ratio = interleaved(fn, n, peer, args.rounds, args.min_time)
                        row = {
                            "scheme": name,
                            "op": op,
                            "arith": backend,
                            "workers": workers,
                            "n": n,
                            "us_per_item": us,
                            "items_per_s": 1e6 / us,
                            "pycryptodome_us": ref,
                            "ratio": ratio,
                        }
                        rows.append(row)
                        peer_us = f"{ref:15.1f}" if ref is not None else ""
                        ratio_s = f"{ratio:6.2f}" if ratio is not None else ""
                        print(
                            f"{name:<11} {op:<7} {backend:<6} {workers:>3} {n:>6} {us:>10.1f} "
                            f"{1e6 / us:>9.0f} {peer_us:>15} {ratio_s:>6}",
                            flush=True,
                        )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"rows": rows}, f, indent=2)
    if args.plot:
        _plot(rows, args.plot)


def _plot(rows: list[dict[str, Any]], path: str) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not installed: no plot")
        return
    schemes = sorted({r["scheme"] for r in rows})
    fig, axes = plt.subplots(1, len(schemes), figsize=(6 * len(schemes), 4.5), squeeze=False)
    for ax, name in zip(axes[0], schemes, strict=True):
        keys = sorted({(r["op"], r["arith"], r["workers"]) for r in rows if r["scheme"] == name})
        for op, backend, workers in keys:
            pts = [
                r
                for r in rows
                if (r["scheme"], r["op"], r["arith"], r["workers"]) == (name, op, backend, workers)
            ]
            ax.plot(
                [r["n"] for r in pts],
                [r["us_per_item"] for r in pts],
                marker="o",
                label=f"{op} {backend} x{workers}",
            )
        for op in sorted({r["op"] for r in rows if r["scheme"] == name}):
            refs = [r["pycryptodome_us"] for r in rows if (r["scheme"], r["op"]) == (name, op)]
            refs = [x for x in refs if x is not None]
            if refs:
                ax.axhline(statistics.median(refs), linestyle="--", linewidth=0.8)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("batch size n")
        ax.set_ylabel("us per item (dashed: pycryptodome single op)")
        ax.set_title(name)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path)
    print(f"plot written to {path}")


if __name__ == "__main__":
    main()
