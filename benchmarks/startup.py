"""Start-up of a new process: import time, time to the first ML-KEM-768 round trip
(import included), the slowest call while the jit code compiles or loads in the
background, and when the switch to jit happens; with a cold Numba cache (an empty
``NUMBA_CACHE_DIR``) and a warm one (after ``pqkit compile`` into it). Also the time
``pqkit compile`` takes on an empty cache.

    python benchmarks/startup.py            # prints Markdown

Each figure is one new process (start-up is a one-off); not run by CI.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

_PROBE = r"""
import json, time
t0 = time.perf_counter()
import pqkit
t_import = time.perf_counter() - t0
import sys
from pqkit import arith
from pqkit.arith import auto
kem = pqkit.kem("ML-KEM-768")
first = worst = None
calls = 0
switch = None
deadline = time.monotonic() + 600
while time.monotonic() < deadline:
    a = time.perf_counter()
    ek, dk = kem.keygen_derand(bytes(range(64)))
    ss, ct = kem.encaps_derand(ek, bytes(32))
    assert kem.decaps(dk, ct) == ss
    b = time.perf_counter()
    calls += 1
    if first is None:
        first = b - t0
        numba_at_first = "numba" in sys.modules
    worst = max(worst or 0.0, b - a)
    if arith.active() == "jit" and switch is None:
        switch = time.perf_counter() - t0
    if not auto.status()["running"]:
        break
    time.sleep(0.02)
print(json.dumps({"import_s": t_import, "first_round_trip_s": first, "worst_round_trip_s": worst,
                  "switch_to_jit_s": switch, "all_ready_s": time.perf_counter() - t0,
                  "status": auto.status()}))
"""


def _run(code: list[str], env: dict[str, str]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(code, capture_output=True, text=True, env=env, check=True)
    return time.perf_counter() - start, done.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.parse_args(argv)
    base = {k: v for k, v in os.environ.items() if k not in ("PQKIT_ARITH", "PQKIT_JIT_BACKGROUND")}
    rows = []
    with tempfile.TemporaryDirectory() as cold, tempfile.TemporaryDirectory() as built:
        _, out = _run([sys.executable, "-c", _PROBE], {**base, "NUMBA_CACHE_DIR": cold})
        rows.append(("cold cache", json.loads(out.splitlines()[-1])))
        compile_s, out = _run(
            [sys.executable, "-m", "pqkit", "compile"], {**base, "NUMBA_CACHE_DIR": built}
        )
        print(f"pqkit compile on an empty cache: {compile_s:.1f} s ({out.strip()})")
        for _ in range(2):
            _, out = _run([sys.executable, "-c", _PROBE], {**base, "NUMBA_CACHE_DIR": built})
        rows.append(("warm cache", json.loads(out.splitlines()[-1])))
    print()
    print("| | import | first ML-KEM-768 round trip | slowest round trip | jit from", end="")
    print(" | all jit from |")
    print("|---|---|---|---|---|---|")
    for label, r in rows:
        switch = r["switch_to_jit_s"]
        print(
            f"| {label} | {r['import_s']:.3f} s | {r['first_round_trip_s']:.3f} s | "
            f"{r['worst_round_trip_s']:.3f} s | "
            f"{'-' if switch is None else f'{switch:.1f} s'} | {r['all_ready_s']:.1f} s |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
