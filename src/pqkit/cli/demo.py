"""``pqkit demo``: one round trip of every scheme, with sizes and timings.

The README's first command runs this, so it shows a new user in a few seconds
that everything works on their machine, and on which providers: the arithmetic
backend and the symmetric providers (SHA-3, SHA-2, AES) are named first. Each
timing is the median of a few calls after a warm-up call.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import pqkit

__all__ = ["RUNS", "providers_lines", "register", "run"]

RUNS = 5
"""Timed calls per operation at most; the median is shown."""

BUDGET = 0.5
"""Seconds of timed calls per operation: a slow operation (SLH-DSA signing) is
timed fewer than :data:`RUNS` times, at least once."""


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:8.2f} ms"


def _timed(func: Any, *args: Any, **kwargs: Any) -> tuple[Any, float]:
    """Call ``func`` once to warm it up (imports, tables), then return the last result
    and the median time of up to ``RUNS`` more calls (fewer once ``BUDGET`` is spent)."""
    result = func(*args, **kwargs)
    times: list[float] = []
    while len(times) < RUNS and sum(times) < BUDGET:
        start = time.perf_counter()
        result = func(*args, **kwargs)
        times.append(time.perf_counter() - start)
    return result, statistics.median(times)


def _default_sigs() -> tuple[list[str], list[str]]:
    """The signature schemes the demo runs unless told otherwise, and those it
    leaves out: the SLH-DSA "s" (small) sets, which sign in seconds in Python."""
    names = pqkit.sigs()
    slow = [n for n in names if n.startswith("SLH-DSA-") and n.endswith("s")]
    return [n for n in names if n not in slow], slow


def providers_lines() -> list[str]:
    """Which providers the demo runs on, and a note when AES is the slow pure-Python one."""
    from pqkit import arith, common
    from pqkit.arith import auto

    active = {family: info["active"] for family, info in common.backends().items()}
    lines = [
        f"arithmetic backend: {arith.active()}{auto.note()}; symmetric providers: "
        + ", ".join(f"{family}={name}" for family, name in active.items())
    ]
    if active.get("aes") == "python":
        lines.append(
            "note: AES is the pure-Python implementation (install 'cryptography', the "
            "openssl extra, for OpenSSL's), so the AES variants (Kyber-90s, "
            "Dilithium-AES) are slow here"
        )
    return lines


def run(args: argparse.Namespace) -> int:
    """Round-trip every KEM and signature scheme (or those named); 0 if all agree."""
    names_kem = [n for n in pqkit.kems() if not args.algorithms or n in args.algorithms]
    if args.algorithms:
        names_sig = [n for n in pqkit.sigs() if n in args.algorithms]
        left_out: list[str] = []
    else:
        names_sig, left_out = _default_sigs()
    if not names_kem and not names_sig:
        print("no schemes matched" if args.algorithms else "no schemes are available")
        return 2
    from pqkit import arith

    first = arith.active()
    for line in providers_lines():
        print(line)
    print(f"timings: median of up to {RUNS} calls ({BUDGET:g} s per operation)")
    if left_out:
        print(
            f"not run by default (seconds per signature in Python; name one to run it): "
            f"{', '.join(left_out)}"
        )
    print()
    failures = 0
    if names_kem:
        print(f"{'KEM':<18} {'pk':>6} {'ct':>6} {'keygen':>11} {'encaps':>11} {'decaps':>11}  ok")
    for name in names_kem:
        kem = pqkit.kem(name)
        try:
            (pk, sk), t_gen = _timed(kem.keygen)
        except ImportError:  # a hybrid KEM without pyca/cryptography (the openssl extra)
            print(f"{name:<18} skipped: needs pyca/cryptography (the openssl extra)")
            continue
        (ss, ct), t_enc = _timed(kem.encaps, pk)
        ss2, t_dec = _timed(kem.decaps, sk, ct)
        ok = ss == ss2
        failures += not ok
        print(
            f"{name:<18} {len(pk):>6} {len(ct):>6} {_ms(t_gen)} {_ms(t_enc)} {_ms(t_dec)}  "
            f"{'yes' if ok else 'NO'}"
        )
    if names_sig:
        if names_kem:
            print()
        print(
            f"{'Signature':<18} {'pk':>6} {'sig':>6} {'keygen':>11} {'sign':>11} {'verify':>11}  ok"
        )
    message = b"pqkit demo message"
    for name in names_sig:
        dsa = pqkit.sig(name)
        (pk, sk), t_gen = _timed(dsa.keygen)
        sig, t_sign = _timed(dsa.sign, sk, message)
        ok, t_ver = _timed(dsa.verify, pk, message, sig)
        ok = ok and not dsa.verify(pk, message + b"!", sig)
        failures += not ok
        print(
            f"{name:<18} {len(pk):>6} {len(sig):>6} {_ms(t_gen)} {_ms(t_sign)} {_ms(t_ver)}  "
            f"{'yes' if ok else 'NO'}"
        )
    _backend_after(first)
    return 1 if failures else 0


def _backend_after(first: str) -> None:
    """Say so when the automatic selection switched to jit during the run."""
    from pqkit import arith

    now = arith.active()
    if now != first:
        print(f"\narithmetic backend: {first} at first, {now} from the switch on (same results)")


def register(subparsers: Any) -> None:
    """Add ``pqkit demo`` to the command line."""
    from pqkit.cli.status import EPILOG

    parser = subparsers.add_parser(
        "demo",
        help="round-trip every scheme and show sizes, providers and timings",
        description="Round-trip every scheme (or those named); timings are medians.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("algorithms", nargs="*", metavar="ALG", help="only these schemes")
    parser.set_defaults(func=run)
