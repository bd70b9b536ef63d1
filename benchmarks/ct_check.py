"""A dudect-style timing-leak check (Reparaz, Balasch, Verbauwhede, "Dude, is my code
constant time?", DATE 2017), for pqkit's secret operations.

    PYTHONPATH=src python benchmarks/ct_check.py                    # every case, 10 000 samples
    PYTHONPATH=src python benchmarks/ct_check.py --samples 20000 --cases mlkem
    PYTHONPATH=src python benchmarks/ct_check.py --list

For each case two input classes are timed, interleaved in an order drawn from
``os.urandom`` (so a load change on the machine hits both alike): a fixed input
against a varying one (or a valid against an invalid one). Each class gets about
``--samples`` measurements (``time.perf_counter_ns`` around one call). Welch's
t-statistic is computed on all measurements and again after cropping both classes
at the 50th, 75th, 90th, 95th and 99th percentile of the pooled times (cropping
drops the long tail that interrupts and other processes add); the table shows the
largest |t|. The A/A column is the same statistic for the first class split in
two at random: the noise floor of the run. dudect's rule: |t| above 4.5 is
evidence of a timing difference, and it grows with the sample count if the
difference is real, while an A/A |t| stays small.

Cases and what is expected:

* ``mlkem-decaps-<backend>``: ML-KEM-768 decapsulation of a valid ciphertext vs
  random (invalid) ciphertexts, which take FIPS 203's implicit rejection. numpy
  and jit are meant to show no difference; ``ref`` is the readable spec
  transcription (``%`` and ``//`` on secret data) and is not constant-time.
* ``mldsa-sign-<backend>``: ML-DSA-65 deterministic signing of a fixed message vs
  random messages. Expected to differ: the number of rejection-loop iterations
  depends on the message, which FIPS 204 allows (it leaks nothing about the key);
  reported, not failed.
* ``load-password``: loading an encrypted PKCS#8 key with the right password vs a
  wrong one. Expected to differ (a wrong password stops at the padding check and
  raises: the outcome is public anyway). ``load-wrong-password``: one fixed wrong
  password vs random wrong passwords: the password itself must not show.

The exit status is 1 when a case expected to be constant-time shows |t| > 4.5,
else 0. Timing on a shared machine is noisy: rerun a flagged case with more
samples before concluding anything.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

import pqkit

THRESHOLD = 4.5
PERCENTILES = (50.0, 75.0, 90.0, 95.0, 99.0)


@dataclass(frozen=True)
class Case:
    """Two input classes for one operation: ``prepare(samples)`` returns the call
    and two lists of inputs to cycle through (class 0 and class 1)."""

    name: str
    expect_constant: bool
    note: str
    prepare: Callable[[int], tuple[Callable[[Any], object], list[Any], list[Any]]]
    scale: float = 1.0  # fraction of --samples this case runs (slow operations)


def welch_t(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> float:
    """Welch's t-statistic of two samples (0.0 when either is too small)."""
    if len(a) < 2 or len(b) < 2:
        return 0.0
    va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
    if va + vb == 0:
        return 0.0
    return float((a.mean() - b.mean()) / np.sqrt(va + vb))


def cropped_t(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> tuple[float, str]:
    """The largest |t| over the raw data and the percentile crops, and which crop."""
    best, where = abs(welch_t(a, b)), "raw"
    pooled = np.concatenate([a, b])
    for p in PERCENTILES:
        cut = np.percentile(pooled, p)
        t = abs(welch_t(a[a < cut], b[b < cut]))
        if t > best:
            best, where = t, f"p{p:g}"
    return best, where


def measure(
    call: Callable[[Any], object], class0: list[Any], class1: list[Any], samples: int
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Interleaved timings: (class 0 times, class 1 times, class 0 labels for A/A)."""
    total = 2 * samples
    labels = np.frombuffer(os.urandom(total), dtype=np.uint8)
    order, split = labels & 1, (labels >> 1) & 1
    times = np.empty(total, dtype=np.float64)
    clock = time.perf_counter_ns
    for k in range(min(200, total // 10 + 1)):  # warm-up (caches, jit compilation)
        call(class1[k % len(class1)] if order[k] else class0[k % len(class0)])
    for k in range(total):
        arg = class1[k % len(class1)] if order[k] else class0[k % len(class0)]
        start = clock()
        call(arg)
        times[k] = clock() - start
    zero = order == 0
    return times[zero], times[~zero], split[zero]


def _swallow(call: Callable[[Any], object]) -> Callable[[Any], object]:
    def run(arg: Any) -> object:
        try:
            return call(arg)
        except ValueError:
            return None

    return run


def _decaps(backend: str) -> Case:
    def prepare(samples: int) -> tuple[Callable[[Any], object], list[Any], list[Any]]:
        kem = pqkit.kem("ML-KEM-768").using(arith=backend)
        pk, sk = kem.keygen()
        pool = min(samples, 1000)
        # both classes are pools of distinct objects: a single fixed ciphertext would
        # stay in the CPU caches and time faster for that reason alone
        valid = [kem.encaps(pk).ciphertext for _ in range(pool)]
        invalid = [os.urandom(len(valid[0])) for _ in range(pool)]
        return (lambda c: kem.decaps(sk, c)), valid, invalid

    expect = backend != "ref"
    note = "valid vs invalid ciphertext" + ("" if expect else " (ref: not constant-time)")
    return Case(f"mlkem-decaps-{backend}", expect, note, prepare, 1.0 if expect else 0.02)


def _sign(backend: str) -> Case:
    def prepare(samples: int) -> tuple[Callable[[Any], object], list[Any], list[Any]]:
        dsa = pqkit.sig("ML-DSA-65").using(arith=backend)
        _, sk = dsa.keygen()
        fixed = [b"\x00" * 32]
        varied = [os.urandom(32) for _ in range(min(samples, 1000))]
        return (lambda m: dsa.sign(sk, m, deterministic=True)), fixed, varied

    note = "fixed vs random message: differs by iteration count (FIPS 204 allows)"
    return Case(f"mldsa-sign-{backend}", False, note, prepare, 0.1)


def _load(wrong_vs_wrong: bool) -> Case:
    def prepare(samples: int) -> tuple[Callable[[Any], object], list[Any], list[Any]]:
        from pqkit.keys import MLKEM768PrivateKey
        from pqkit.serialization import BestAvailableEncryption, Encoding, PrivateFormat
        from pqkit.serialization.pbes2 import MIN_ITERATIONS

        key = MLKEM768PrivateKey.generate()
        enc = BestAvailableEncryption(b"right password", iterations=MIN_ITERATIONS)
        blob = key.private_bytes(Encoding.DER, PrivateFormat.PKCS8, enc)
        wrong = [os.urandom(14) for _ in range(min(samples, 1000))]
        first = [b"wrong password"] if wrong_vs_wrong else [b"right password"]
        return _swallow(lambda pw: pqkit.load_der_private_key(blob, pw)), first, wrong

    if wrong_vs_wrong:
        note = "fixed vs random wrong password (PBKDF2 + padding check)"
        return Case("load-wrong-password", True, note, prepare, 0.5)
    note = "right vs wrong password: differs (the outcome is public)"
    return Case("load-password", False, note, prepare, 0.5)


def _aes_python() -> Case:
    def prepare(samples: int) -> tuple[Callable[[Any], object], list[Any], list[Any]]:
        from pqkit.common.python.aes import Aes256

        key = os.urandom(32)
        cipher = Aes256(key)
        pool = min(samples, 1000)
        # class 0: the first state's top byte (byte 15 XOR key byte 15) is zero
        zero_top = [os.urandom(15) + key[15:16] for _ in range(pool)]
        varied = [os.urandom(16) for _ in range(pool)]
        return cipher.encrypt_block, zero_top, varied

    note = "pure-Python AES: zero vs random top state byte (fixed-width integers)"
    return Case("aes-python", True, note, prepare, 0.5)


def all_cases() -> list[Case]:
    """Every case, for the backends installed here."""
    from pqkit import arith

    backends = [b for b in ("numpy", "jit", "ref") if b in arith.available()]
    cases = [_decaps(b) for b in backends]
    cases += [_sign(b) for b in backends if b != "ref"]
    cases += [_load(False), _load(True), _aes_python()]
    return cases


def run(cases: list[Case], samples: int) -> list[dict[str, Any]]:
    """Measure each case; one result row each."""
    rows = []
    for case in cases:
        n = max(10, int(samples * case.scale))
        call, class0, class1 = case.prepare(n)
        a, b, split = measure(call, class0, class1, n)
        t, crop = cropped_t(a, b)
        t_aa, _ = cropped_t(a[split == 0], a[split == 1])
        if case.expect_constant:
            verdict = "ok" if t <= THRESHOLD else "LEAK?"
        else:
            verdict = "differs (expected)" if t > THRESHOLD else "no difference seen"
        rows.append(
            {
                "case": case.name,
                "samples": (len(a), len(b)),
                "median_us": (float(np.median(a)) / 1e3, float(np.median(b)) / 1e3),
                "t": t,
                "crop": crop,
                "t_aa": t_aa,
                "verdict": verdict,
                "note": case.note,
                "expect_constant": case.expect_constant,
            }
        )
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    """A Markdown table of the results."""
    lines = [
        "| case | samples (class 0 / 1) | median µs (0 / 1) | max abs t (crop) | A/A abs t "
        "| verdict | what |",
        "|---|---:|---:|---:|---:|---|---|",
    ]
    for r in rows:
        n0, n1 = r["samples"]
        m0, m1 = r["median_us"]
        lines.append(
            f"| {r['case']} | {n0} / {n1} | {m0:.1f} / {m1:.1f} | {r['t']:.2f} ({r['crop']}) "
            f"| {r['t_aa']:.2f} | {r['verdict']} | {r['note']} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=10_000, help="per class (default 10000)")
    parser.add_argument("--cases", nargs="*", default=[], help="substrings of case names")
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    args = parser.parse_args(argv)
    if args.samples < 10:
        parser.error("--samples must be at least 10")
    cases = all_cases()
    if args.list:
        for case in cases:
            print(f"{case.name}: {case.note}")
        return 0
    if args.cases:
        cases = [c for c in cases if any(s in c.name for s in args.cases)]
        if not cases:
            parser.error(f"no case matches {args.cases}")
    rows = run(cases, args.samples)
    print(table(rows))
    return 1 if any(r["verdict"] == "LEAK?" for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
