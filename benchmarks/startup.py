"""Start-up of a new process, in two parts (Markdown on stdout).

Fresh processes against NumPy (``--rounds``, default 20): the wall time and peak
memory (``ru_maxrss``) of whole processes, each kind run once per round in turn,
the order rotating from round to round, after one unmeasured round that writes
the bytecode caches as ``pip install`` does (``PYTHONDONTWRITEBYTECODE`` is
dropped from the environment): ``python -c "import numpy"`` (the
yardstick), import plus the first ML-KEM-768 round trip (the default
configuration: automatic backend, Numba's cache wherever it is), ``pqkit
--version``, and pyca/cryptography's first ML-KEM-768 round trip where it has one.
Medians of the rounds, and each median as a ratio to NumPy's, against the
targets (issue 25 item 9, on wall time): round trip <= 1.5x, ``--version`` <=
1.0x. CPU time (user + system, every thread) is shown beside: on a busy machine
it moves less than wall time.

The jit switch-over (``--jit``, on by default; ``--no-jit`` skips it, it compiles
for a minute): import time, time to the first ML-KEM-768 round trip (import
included), the slowest call while the jit code compiles or loads in the
background, and when the switch to jit happens; with a cold Numba cache (an empty
``NUMBA_CACHE_DIR``) and a warm one (after ``pqkit compile`` into it). Also the
time ``pqkit compile`` takes on an empty cache. One process each.

    python benchmarks/startup.py --no-jit       # the fresh-process table only

Not run by CI; on a shared machine every figure moves with the load, which is why
the targets are ratios measured in the same run. The fresh-process part needs a
POSIX system (``os.posix_spawn``, ``os.wait4``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

_PROBE = r"""
import json, resource, sys, time
t0 = time.perf_counter()
import pqkit
t_import = time.perf_counter() - t0
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
                  "peak_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
                  * (1 if sys.platform == "darwin" else 1024),
                  "status": auto.status()}))
"""


_ROUND_TRIP = """
import pqkit
kem = pqkit.kem("ML-KEM-768")
pk, sk = kem.keygen()
ss, ct = kem.encaps(pk)
assert kem.decaps(sk, ct) == ss
"""

_PYCA_ROUND_TRIP = """
from cryptography.hazmat.primitives.asymmetric.mlkem import MLKEM768PrivateKey
sk = MLKEM768PrivateKey.generate()
ss, ct = sk.public_key().encapsulate()
assert sk.decapsulate(ct) == ss
"""

TARGETS = {"import + first round trip": 1.5, "pqkit --version": 1.0}
"""The most each process may take, as a multiple of ``python -c "import numpy"``."""


def _has_pyca_mlkem() -> bool:
    try:
        from cryptography.hazmat.primitives.asymmetric import mlkem  # noqa: F401
    except ImportError:
        return False
    return True


def _pqkit_command() -> list[str]:
    """The installed ``pqkit`` script beside this interpreter, else ``python -m pqkit``."""
    script = shutil.which("pqkit", path=os.path.dirname(sys.executable))
    return [script] if script else [sys.executable, "-m", "pqkit"]


# Each measured process is started by a bare interpreter (``-S``, about 9 MB), not
# by this one: Linux counts the RSS of the process that forks (or vforks) into a
# child's ru_maxrss, so this process's own size would put a floor under every figure.
_LAUNCHER = r"""
import os, sys, time
devnull = [(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)]
start = time.perf_counter()
pid = os.posix_spawn(sys.argv[1], sys.argv[1:], os.environ, file_actions=devnull)
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - start
cpu = usage.ru_utime + usage.ru_stime
print(wall, cpu, usage.ru_maxrss, os.waitstatus_to_exitcode(status))
"""


def _timed(command: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user + system, all threads) and peak resident
    memory (bytes) of one process running ``command`` (an absolute path first)."""
    done = subprocess.run(
        [sys.executable, "-S", "-c", _LAUNCHER, *command],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    wall, cpu, peak, status = done.stdout.split()
    if status != "0":
        raise SystemExit(f"{command} exited with {status}")
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux
    return float(wall), float(cpu), int(peak) * scale


Row = tuple[str, float, float, int]


def fresh_processes(rounds: int, env: dict[str, str]) -> list[Row]:
    """(label, median wall seconds, median CPU seconds, median peak bytes) per kind
    of process; the kinds alternate within each round, starting one further along
    each round."""
    kinds: list[tuple[str, list[str]]] = [
        ("python -c 'import numpy'", [sys.executable, "-c", "import numpy"]),
        ("import + first round trip", [sys.executable, "-c", _ROUND_TRIP]),
        ("pqkit --version", [*_pqkit_command(), "--version"]),
    ]
    if _has_pyca_mlkem():
        kinds.append(("pyca: first round trip", [sys.executable, "-c", _PYCA_ROUND_TRIP]))
    for _, command in kinds:  # unmeasured: writes the bytecode caches, as pip install does
        _timed(command, env)
    runs: dict[str, list[tuple[float, float, int]]] = {label: [] for label, _ in kinds}
    for r in range(rounds):
        for i in range(len(kinds)):
            label, command = kinds[(r + i) % len(kinds)]
            runs[label].append(_timed(command, env))
    return [
        (
            label,
            statistics.median(w for w, _, _ in runs[label]),
            statistics.median(c for _, c, _ in runs[label]),
            int(statistics.median(p for _, _, p in runs[label])),
        )
        for label, _ in kinds
    ]


def _print_fresh(rows: list[Row], rounds: int) -> bool:
    """The fresh-process table; True when every target is met (on wall time)."""
    _, base, base_cpu, _ = rows[0]
    met = True
    print(f"Fresh processes, median of {rounds} each (alternating):")
    print()
    print("| process | wall | x numpy | target | CPU | x numpy | peak memory |")
    print("|---|---|---|---|---|---|---|")
    for label, wall, cpu, peak in rows:
        ratio = wall / base
        target = TARGETS.get(label)
        ok = target is None or ratio <= target
        verdict = "-" if target is None else f"<= {target}x: {'met' if ok else 'NOT met'}"
        met = met and ok
        times = f"{wall * 1000:.0f} ms | {ratio:.2f}x | {verdict} | {cpu * 1000:.0f} ms"
        print(f"| {label} | {times} | {cpu / base_cpu:.2f}x | {peak / 2**20:.0f} MB |")
    print()
    return met


def _run(code: list[str], env: dict[str, str]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(code, capture_output=True, text=True, env=env, check=True)
    return time.perf_counter() - start, done.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20, help="fresh processes of each kind")
    parser.add_argument(
        "--jit",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also time the jit switch-over with a cold and a warm cache (compiles)",
    )
    args = parser.parse_args(argv)
    unset = ("PQKIT_ARITH", "PQKIT_JIT_BACKGROUND", "PYTHONDONTWRITEBYTECODE")
    base = {k: v for k, v in os.environ.items() if k not in unset}
    met = _print_fresh(fresh_processes(args.rounds, base), args.rounds)
    if not args.jit:
        return 0 if met else 1
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
    print(" | all jit from | peak memory |")
    print("|---|---|---|---|---|---|---|")
    for label, r in rows:
        switch = r["switch_to_jit_s"]
        print(
            f"| {label} | {r['import_s']:.3f} s | {r['first_round_trip_s']:.3f} s | "
            f"{r['worst_round_trip_s']:.3f} s | "
            f"{'-' if switch is None else f'{switch:.1f} s'} | {r['all_ready_s']:.1f} s | "
            f"{r['peak_bytes'] / 2**20:.0f} MB |"
        )
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
