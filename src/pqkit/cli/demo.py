"""``pqkit demo``: one round trip of every scheme, with sizes and timings.

The README's first command runs this, so it shows a new user in a few seconds
that everything works on their machine, and on which providers: the symmetric
providers (SHA-3, SHA-2, AES) are named first, and each row says which arithmetic
backend ran it. Each timing is the median of a few calls after a warm-up call.

What a warm pqkit gives: when nothing pins a backend (``--arith``,
``PQKIT_ARITH``) and Numba's on-disk cache already holds the compiled code of the
kernel families the rows use (``pqkit compile``, or an earlier process), the demo
waits for the background switch to ``jit`` (a load, about half a second a
family), at most :data:`WAIT` seconds, before timing anything. With a cold cache
it does not wait (compiling takes a minute); rows then run on ``numpy`` until the
background compilation finishes.

Without an optional extra (the ``openssl`` extra's pyca/cryptography, which the
hybrid KEMs' elliptic-curve half needs), the rows that need it are skipped and
named once, with the extra, and the demo still exits 0.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import pqkit
from pqkit.errors import MissingExtra
from pqkit.registry import kernel_group

__all__ = ["RUNS", "WAIT", "providers_lines", "register", "run"]

RUNS = 5
"""Timed calls per operation at most; the median is shown."""

BUDGET = 0.5
"""Seconds of timed calls per operation: a slow operation (SLH-DSA signing) is
timed fewer than :data:`RUNS` times, at least once."""

WAIT = 5.0
"""Seconds the demo waits at most for a warm jit cache to load before timing."""


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
    leaves out: the SLH-DSA "s" (small) sets, which sign in seconds in Python, and the
    stateful sets (LMS / HSS, XMSS), whose key generation builds whole trees."""
    from pqkit.registry import algorithm

    names = pqkit.sigs()
    slow = [n for n in names if n.startswith("SLH-DSA-") and n.endswith("s")]
    slow += [n for n in names if algorithm(n).stateful]
    return [n for n in names if n not in slow], slow


LARGE_KEY = 300_000
"""Bytes of public key above which the demo leaves a KEM out unless it is named: the
larger Classic McEliece sets, whose keys of half a megabyte and more take seconds to
generate (the smallest set stays in, as every family's first set does)."""


def _default_kems() -> tuple[list[str], list[str]]:
    """The KEMs the demo runs unless told otherwise, and those it leaves out."""
    from pqkit.registry import algorithm

    names = pqkit.kems()
    slow = [n for n in names if algorithm(n).length_public_key > LARGE_KEY]
    return [n for n in names if n not in slow], slow


def providers_lines() -> list[str]:
    """The symmetric providers the demo runs on, and a note when AES is the slow
    pure-Python one."""
    from pqkit import common

    active = {family: info["active"] for family, info in common.backends().items()}
    lines = [
        "symmetric providers: " + ", ".join(f"{family}={name}" for family, name in active.items())
    ]
    if active.get("aes") == "python":
        lines.append(
            "note: AES is the pure-Python implementation (install 'cryptography', the "
            "openssl extra, for OpenSSL's), so the AES variants (Kyber-90s, "
            "Dilithium-AES) are slow here"
        )
    return lines


def _arith_line(families: list[str], pinned: str | None) -> str:
    """How the arithmetic backend is chosen here; waits for a warm jit cache first
    (see the module docstring)."""
    from pqkit.arith import auto

    if pinned is not None:
        return f"arithmetic backend: {pinned} (--arith)"
    if auto.explicit():
        from pqkit import arith

        return f"arithmetic backend: {arith.active()} (PQKIT_ARITH)"
    if not auto.status()["enabled"]:
        from pqkit._extras import installed

        why = "PQKIT_JIT_BACKGROUND=0" if installed("jit") else "numba is not installed"
        return f"arithmetic backend: numpy ({why}: no automatic switch to jit)"
    from pqkit.cli.compile import cached

    warm = [family for family in families if cached(family)]
    cold = [family for family in families if family not in warm]
    later = (
        f"numpy for {', '.join(cold)} until its jit code is compiled in the background "
        "(`pqkit compile --all` builds it ahead of time)"
    )
    if not warm:
        return f"arithmetic backend: {later}"
    start = time.perf_counter()
    ready = auto.wait(WAIT, tuple(warm))
    seconds = time.perf_counter() - start
    if ready:
        line = (
            f"arithmetic backend: jit for {', '.join(warm)} (loaded from the cache in "
            f"{seconds:.1f} s)"
        )
    else:
        line = (
            f"arithmetic backend: numpy (the cached jit code of {', '.join(warm)} did not "
            f"load within {WAIT:g} s; rows switch to jit when it has)"
        )
    return line + (f"; {later}" if cold else "")


def _backend(family: str, pinned: str | None) -> str:
    from pqkit import arith

    return pinned if pinned is not None else arith.active(scheme=family)


class _Rows:
    """The rows of one table: run each scheme, print its line, remember what was
    skipped for a missing extra."""

    def __init__(self, pinned: str | None) -> None:
        self.pinned = pinned
        self.failures = 0
        self.skipped: dict[str, tuple[list[str], MissingExtra]] = {}

    def row(self, name: str, measure: Callable[[], tuple[list[str], bool]]) -> None:
        family = kernel_group(name)
        before = _backend(family, self.pinned)
        try:
            cells, ok = measure()
        except MissingExtra as exc:
            names, _ = self.skipped.setdefault(exc.extra, ([], exc))
            names.append(name)
            return
        after = _backend(family, self.pinned)
        ran = before if before == after else f"{before}>{after}"
        self.failures += not ok
        print(f"{name:<18} {' '.join(cells)}  {ran:<6} {'yes' if ok else 'NO'}")

    def report_skipped(self) -> None:
        for names, exc in self.skipped.values():
            print(f"\nskipped {', '.join(names)}: {exc}")


def _kem_row(name: str) -> Callable[[], tuple[list[str], bool]]:
    def measure() -> tuple[list[str], bool]:
        kem = pqkit.kem(name)
        (pk, sk), t_gen = _timed(kem.keygen)
        (ss, ct), t_enc = _timed(kem.encaps, pk)
        ss2, t_dec = _timed(kem.decaps, sk, ct)
        cells = [f"{len(pk):>6}", f"{len(ct):>6}", _ms(t_gen), _ms(t_enc), _ms(t_dec)]
        return cells, ss == ss2

    return measure


_MESSAGE = b"pqkit demo message"


def _sig_row(name: str) -> Callable[[], tuple[list[str], bool]]:
    def measure() -> tuple[list[str], bool]:
        dsa = pqkit.sig(name)
        (pk, sk), t_gen = _timed(dsa.keygen)
        sig, t_sign = _timed(dsa.sign, sk, _MESSAGE)
        ok, t_ver = _timed(dsa.verify, pk, _MESSAGE, sig)
        ok = ok and not dsa.verify(pk, _MESSAGE + b"!", sig)
        cells = [f"{len(pk):>6}", f"{len(sig):>6}", _ms(t_gen), _ms(t_sign), _ms(t_ver)]
        return cells, ok

    return measure


@contextlib.contextmanager
def _arith_scope(name: str | None) -> Iterator[None]:
    if name is None:
        yield
        return
    from pqkit import arith

    with arith.use(name):
        yield


def run(args: argparse.Namespace) -> int:
    """Round-trip every KEM and signature scheme (or those named); 0 if all agree."""
    if args.algorithms:
        names_kem = [n for n in pqkit.kems() if n in args.algorithms]
        names_sig = [n for n in pqkit.sigs() if n in args.algorithms]
        left_out: list[str] = []
    else:
        names_kem, slow_kems = _default_kems()
        names_sig, slow_sigs = _default_sigs()
        left_out = slow_kems + slow_sigs
    if not names_kem and not names_sig:
        print("no schemes matched" if args.algorithms else "no schemes are available")
        return 2
    pinned: str | None = args.arith
    with _arith_scope(pinned):
        families = list(dict.fromkeys(kernel_group(n) for n in names_kem + names_sig))
        lines = [_arith_line(families, pinned), *providers_lines()]
        for line in lines:
            print(line)
        print(f"timings: median of up to {RUNS} calls ({BUDGET:g} s per operation)")
        if left_out:
            print(
                "not run by default (seconds per key or per signature; name one to run it): "
                f"{', '.join(left_out)}"
            )
        sys.stdout.flush()
        rows = _Rows(pinned)
        if names_kem:
            print(f"\n{'KEM':<18} {'pk':>6} {'ct':>6} {'keygen':>11} {'encaps':>11} "
                  f"{'decaps':>11}  {'arith':<6} ok")  # fmt: skip
        for name in names_kem:
            rows.row(name, _kem_row(name))
        if names_sig:
            print(f"\n{'Signature':<18} {'pk':>6} {'sig':>6} {'keygen':>11} {'sign':>11} "
                  f"{'verify':>11}  {'arith':<6} ok")  # fmt: skip
        for name in names_sig:
            rows.row(name, _sig_row(name))
        rows.report_skipped()
    return 1 if rows.failures else 0


def register(subparsers: Any) -> None:
    """Add ``pqkit demo`` to the command line."""
    from pqkit.cli.status import EPILOG

    parser = subparsers.add_parser(
        "demo",
        help="round-trip every scheme and show sizes, backends and timings",
        description=(
            "Round-trip every scheme (or those named); timings are medians. Each row says\n"
            "which arithmetic backend ran it (numpy>jit: the switch to jit came during the\n"
            "row). The backend is --arith's, else PQKIT_ARITH's, else the automatic choice:\n"
            f"jit once its compiled code has loaded (the demo waits up to {WAIT:g} s for a warm\n"
            "cache: `pqkit compile`), numpy until then. Rows that need an optional extra\n"
            "that is not installed are skipped and named."
        ),
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("algorithms", nargs="*", metavar="ALG", help="only these schemes")
    parser.add_argument(
        "--arith",
        metavar="BACKEND",
        help="run every row on this arithmetic backend (jit, numpy or ref; as PQKIT_ARITH "
        "does for a whole process)",
    )
    parser.set_defaults(func=run)
