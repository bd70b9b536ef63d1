"""Batch throughput: per-item time of ``scheme.batch`` against the batch size n.

For ML-KEM-768 (keygen, encaps, decaps) and ML-DSA-65 (keygen, sign, verify), on
each arithmetic backend asked for, prints the per-item median microseconds and
items per second for n = 1, 4, 16, ... up to ``--max-n``, next to pycryptodome's
single-operation time measured in the same run (the ratio column). Run from the
repository root::

    PYTHONPATH=src python benchmarks/batch_throughput.py [--max-n 4096] [--arith default numpy jit]
        [--workers 1 2] [--keys both] [--rounds 3] [--plot curve.png] [--json out.json]
        [--only-max]   # just n = --max-n (ML-KEM) and --max-n-sig (ML-DSA): the targets

Each figure is the median over ``--rounds`` rounds; in a round pycryptodome's
single operation runs for ``--min-time`` / 2 seconds, then the batch call is
repeated until it has run for ``--min-time`` seconds (at least once), and the
ratio is the median of the per-round ratios: both sides see the same load.
Keys (``--keys``, default both): "fresh", n different keys a call, and successive
calls cycle through enough sets that at least 64 (``KEY_RING``) different keys go
by before one comes back, and pycryptodome's single operation cycles through 64
key objects; "one key", one key on every row of every call (broadcast by the view
for decapsulation, signing and verification; n copies for encapsulation) and one
pycryptodome key object. Signing and verification use 32-byte messages, hedged.
Threads: ``--workers`` (default: the batch default, every CPU this process may
use, or ``PQKIT_WORKERS``; the table's header says how many).
Backends (``--arith``, default ``default``): ``default`` is the scheme object as a
user gets it (the automatic selection), timed after the background warm-up of the
kernel groups it runs on (:func:`pqkit.registry.kernel_group` and its batch group)
has finished, and only those (``pqkit.arith.auto.wait()`` with no argument would
queue every family); the arith column then names the backend it ran on. ``numpy``
and ``jit`` bind the scheme to that backend (``jit`` compiles on first use).
ML-DSA's n stops at ``--max-n-sig`` (signing is slower). pycryptodome is a
benchmark-only dependency (``pip install pycryptodome``); without it the ratio
column is empty. ``--plot`` needs matplotlib.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import pqkit
from pqkit import arith
from pqkit.batch import resolve_workers
from pqkit.bench.keyring import KEY_RING, ONE_KEY, cycling

KEM = "ML-KEM-768"
SIG = "ML-DSA-65"
DEFAULT = "default"
"""The --arith name of the automatic backend selection (no ``using``)."""


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


def pycryptodome_ops(one_key: bool) -> dict[str, Callable[[], Any]]:
    """pycryptodome's single operations, keyed ``scheme/op`` (empty if missing): each
    call meets a fresh key (cycling through KEY_RING key objects made beforehand),
    or with ``one_key`` the same key every call."""
    try:
        from Crypto.PublicKey import MLDSA, MLKEM
        from Crypto.Signature import mldsa
    except ImportError:
        return {}
    ring = 1 if one_key else KEY_RING
    kp = MLKEM.ParamSet.ML_KEM_768
    kem_keys = []
    for _ in range(ring):
        key: Any = MLKEM.generate(param_set=kp)
        # pycryptodome 4.4+ has no public encapsulate (its HPKE uses these)
        kem_keys.append((key, key._encaps()[1]))
    sp = MLDSA.ParamSet.ML_DSA_65
    msg = os.urandom(32)
    sig_keys = []
    for _ in range(ring):
        skey: Any = MLDSA.generate(param_set=sp)
        signer, verifier = mldsa.new(skey), mldsa.new(skey.public_key())
        sig_keys.append((signer, verifier, signer.sign(msg)))
    kem_next, sig_next = cycling(kem_keys), cycling(sig_keys)

    def verify() -> None:
        _, verifier, sig = sig_next()
        verifier.verify(msg, sig)

    def decaps() -> bytes:
        key, ct = kem_next()
        return key._decaps(ct)  # type: ignore[no-any-return]

    return {
        f"{KEM}/keygen": lambda: MLKEM.generate(param_set=kp),
        f"{KEM}/encaps": lambda: kem_next()[0]._encaps(),
        f"{KEM}/decaps": decaps,
        f"{SIG}/keygen": lambda: MLDSA.generate(param_set=sp),
        f"{SIG}/sign": lambda: sig_next()[0].sign(msg),
        f"{SIG}/verify": verify,
    }


def batch_ops(
    name: str, backend: str, n: int, workers: int | None, one_key: bool
) -> dict[str, Callable[[], Any]]:
    """The three batch operations of ``name`` on n rows. Fresh keys: n different
    keys a call, and successive calls cycle through enough sets that KEY_RING
    different keys go by before one comes back. ``one_key``: one key for every row
    of every call (broadcast where the view broadcasts a single key: decaps, sign,
    verify; n copies of it for encaps)."""
    scheme: Any = pqkit.kem(name) if name == KEM else pqkit.sig(name)
    if backend != DEFAULT:
        scheme = scheme.using(arith=backend)
    view = scheme.batch
    sets = 1 if one_key else -(-KEY_RING // n)
    keys = [view.keygen(1 if one_key else n, workers=workers) for _ in range(sets)]
    if name == KEM:
        inputs = []
        for pks, sks in keys:
            pks_n = np.repeat(pks, n, axis=0) if one_key else pks
            inputs.append((pks_n, sks[0] if one_key else sks, view.encaps(pks_n)[1]))
        step = cycling(inputs)

        def decaps() -> Any:
            _, sks, cts = step()
            return view.decaps(sks, cts, workers=workers)

        return {
            "keygen": lambda: view.keygen(n, workers=workers),
            "encaps": lambda: view.encaps(step()[0], workers=workers),
            "decaps": decaps,
        }
    msgs = [os.urandom(32) for _ in range(n)]
    signed = []
    for pks, sks in keys:
        pk, sk = (pks[0], sks[0]) if one_key else (pks, sks)
        signed.append((pk, sk, view.sign(sk, msgs, workers=workers)))
    step = cycling(signed)

    def verify() -> Any:
        pk, _, sigs = step()
        return view.verify(pk, msgs, sigs, workers=workers)

    return {
        "keygen": lambda: view.keygen(n, workers=workers),
        "sign": lambda: view.sign(step()[1], msgs, workers=workers),
        "verify": verify,
    }


def timed_groups(name: str) -> tuple[str, ...]:
    """The kernel groups the batch view of ``name`` runs on with the automatic
    backend: its single operations' group and that group's batch part."""
    return pqkit.registry.batch_kernel_groups(name)


def settle_default(schemes: list[str]) -> str:
    """Wait for the background jit warm-up of the kernel groups the ``schemes``'
    batch views run on (no other group: ``auto.wait()`` with no argument queues
    every family), unless the backend is chosen explicitly (``PQKIT_ARITH``); the
    backend the default then runs, for the table."""
    from pqkit.arith import auto

    if auto.explicit():
        return arith.active()
    groups = tuple(dict.fromkeys(g for name in schemes for g in timed_groups(name)))
    if auto.status()["enabled"] and not auto.wait(0, groups):  # queues them
        print(f"waiting for the jit warm-up of {', '.join(groups)} ...", file=sys.stderr)
        auto.wait(None, groups)
    return "+".join(sorted({auto.choice(g, start=False) for g in groups}))


def sizes(max_n: int) -> list[int]:
    out, n = [], 1
    while n <= max_n:
        out.append(n)
        n *= 4
    if out[-1] != max_n:
        out.append(max_n)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-n", type=int, default=4096, help="largest ML-KEM batch")
    parser.add_argument("--max-n-sig", type=int, default=1024, help="largest ML-DSA batch")
    parser.add_argument(
        "--arith",
        nargs="*",
        default=[DEFAULT],
        help=f"backends: {DEFAULT} (the automatic selection, after its warm-up), numpy, jit",
    )
    parser.add_argument(
        "--workers",
        nargs="*",
        type=int,
        default=None,
        help="thread counts to run (default: the batch default, every CPU this process "
        "may use, or PQKIT_WORKERS)",
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--min-time", type=float, default=0.3)
    parser.add_argument("--schemes", nargs="*", default=[KEM, SIG])
    parser.add_argument(
        "--keys",
        choices=("both", "fresh", "one"),
        default="both",
        help="fresh keys every call, one key reused, or both (default)",
    )
    parser.add_argument("--plot", help="write the curve to this image (needs matplotlib)")
    parser.add_argument("--json", help="write every figure to this JSON file")
    parser.add_argument(
        "--only-max", action="store_true", help="only the largest n of each scheme (no curve)"
    )
    args = parser.parse_args(argv)
    backends = [b for b in args.arith if b == DEFAULT or b in arith.available("mlkem")]
    default_is = settle_default(args.schemes) if DEFAULT in backends else ""
    workers_list = args.workers or [resolve_workers()]
    kinds = [k for k in ("fresh", "one") if args.keys in (k, "both")]
    peers = {kind: pycryptodome_ops(one_key=kind == "one") for kind in kinds}
    rows: list[dict[str, Any]] = []
    print(f"per-item median us ({args.rounds} rounds, >= {args.min_time} s each); ratio:")
    print("median of per-round (per-item time / pycryptodome single-op time), interleaved")
    print(
        f"threads (thr): {', '.join(map(str, workers_list))}"
        + ("" if args.workers else " (the default: every CPU this process may use)")
    )
    print(
        f"fresh: a new key every call, cycling through at least {KEY_RING} keys, for "
        "pqkit and pycryptodome; one key: the same key on every row and call"
    )
    if default_is:
        print(f"arith {DEFAULT}: the automatic selection, running {default_is}")
    if not peers["fresh" if "fresh" in peers else "one"]:
        print("pycryptodome not installed (pip install pycryptodome): no ratio column")
    head = f"{'scheme':<11} {'op':<7} {'arith':<7} {'thr':>3} {'n':>6}"
    for kind in kinds:
        label = "" if kind == "fresh" else f" ({ONE_KEY})"
        head += f" | {'us/item' + label:>18} {'items/s':>9} {'pycryptodome us':>15} {'ratio':>6}"
    print(head)
    for name in args.schemes:
        top = args.max_n if name == KEM else args.max_n_sig
        for backend in backends:
            for workers in workers_list:
                for n in [top] if args.only_max else sizes(top):
                    line = {}
                    for kind in kinds:
                        ops = batch_ops(name, backend, n, workers, one_key=kind == "one")
                        for op, fn in ops.items():
                            if kind == "one" and op == "keygen":
                                continue  # a new key pair is a new key pair
                            peer = peers[kind].get(f"{name}/{op}")
                            us, ref, ratio = interleaved(fn, n, peer, args.rounds, args.min_time)
                            row = {
                                "scheme": name,
                                "op": op,
                                "keys": kind,
                                "arith": default_is if backend == DEFAULT else backend,
                                "arith_requested": backend,
                                "workers": workers,
                                "n": n,
                                "us_per_item": us,
                                "items_per_s": 1e6 / us,
                                "pycryptodome_us": ref,
                                "ratio": ratio,
                            }
                            rows.append(row)
                            peer_us = f"{ref:15.1f}" if ref is not None else " " * 15
                            ratio_s = f"{ratio:6.2f}" if ratio is not None else " " * 6
                            line[op] = line.get(op, "") + (
                                f" | {us:>18.1f} {1e6 / us:>9.0f} {peer_us} {ratio_s}"
                            )
                    for op, text in line.items():
                        print(f"{name:<11} {op:<7} {backend:<7} {workers:>3} {n:>6}{text}")
                    sys.stdout.flush()
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"rows": rows}, f, indent=2)
    if args.plot:
        _plot([r for r in rows if r["keys"] == kinds[0]], args.plot)


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
