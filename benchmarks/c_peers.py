"""pqkit next to the AVX2 C of mlkem-native and mldsa-native, fresh keys, one run.

    python benchmarks/c_peers.py --mlkem-native ~/src/mlkem-native --mldsa-native ~/src/mldsa-native
    python benchmarks/c_peers.py --mlkem-native DIR --kem ML-KEM-512 ML-KEM-768 --iterations 5000
    python benchmarks/c_peers.py --mlkem-native DIR --dilithium-avx2 ~/src/dilithium

Builds each C library from its published source tree, given on the command line
(a checkout outside this repository: none of its code is copied here), as one
compilation unit with its native backends (``mlkem/mlkem_native.c`` and
``mlkem_native_asm.S``, ``mldsa/mldsa_native.c`` and ``mldsa_native_asm.S``;
``-O3 -march=native`` unless ``--cflags`` says otherwise), linked with a small
timing driver written here (``DRIVER``). The driver makes ``--ring`` (64) key pairs
first, then times each operation ``--iterations`` times, one call at a time
(``clock_gettime(CLOCK_MONOTONIC)``), encapsulating to / decapsulating with /
signing with / verifying under the next key of the ring on every call, and once
more with one key reused; it prints the median nanoseconds. pqkit is timed in the
same run the same way (its default backend after the background warm-up, and its
key objects; ``benchmarks/peers.py``'s operations), and the table gives pqkit / C
ratios. Randomness for the C code comes from ``/dev/urandom``. Not run by CI.

For ML-DSA, ``--dilithium-avx2`` takes instead a checkout of pq-crystals'
dilithium (its master branch is FIPS 204 ML-DSA; the AVX2 code liboqs used before
mldsa-native) and builds its ``avx2/`` sources with the same driver, through a
three-line header that maps the driver's size names onto the tree's (an mldsa-native
snapshot without native backends has no AVX2 code to compare with).
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

DRIVER = r"""
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include API_HEADER

#ifndef RING
#define RING 64
#endif

#define CAT_(a, b) a##_##b
#define CAT(a, b) CAT_(a, b)
#define NS(s) CAT(PREFIX, s) /* the API names: <namespace prefix>_keypair ... */

static FILE *urandom;

#ifdef RANDOMBYTES_VOID /* pq-crystals' trees declare it void and ignore failures */
void randombytes(uint8_t *out, size_t outlen);
void randombytes(uint8_t *out, size_t outlen) {
  if (urandom == NULL) urandom = fopen("/dev/urandom", "rb");
  if (urandom == NULL || fread(out, 1, outlen, urandom) != outlen) abort();
}
#else
int randombytes(uint8_t *out, size_t outlen);
int randombytes(uint8_t *out, size_t outlen) {
  if (urandom == NULL) urandom = fopen("/dev/urandom", "rb");
  return (urandom != NULL && fread(out, 1, outlen, urandom) == outlen) ? 0 : -1;
}
#endif

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int by_value(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

static uint64_t *times;
static int iterations;

static void report(const char *name) {
  qsort(times, (size_t)iterations, sizeof times[0], by_value);
  printf("%s %llu\n", name, (unsigned long long)times[iterations / 2]);
}

#define TIME(name, key_of, call)                         \
  for (int i = 0; i < iterations; i++) {                 \
    int k = (key_of);                                    \
    uint64_t t0 = now_ns();                              \
    if ((call) != 0) {                                   \
      fprintf(stderr, "%s failed\n", name);              \
      return 1;                                          \
    }                                                    \
    times[i] = now_ns() - t0;                            \
  }                                                      \
  report(name);

#ifdef KEM
static uint8_t pk[RING][MLKEM_PUBLICKEYBYTES(PARAMS)];
static uint8_t sk[RING][MLKEM_SECRETKEYBYTES(PARAMS)];
static uint8_t ct[RING][MLKEM_CIPHERTEXTBYTES(PARAMS)];
static uint8_t out_ct[MLKEM_CIPHERTEXTBYTES(PARAMS)], ss[MLKEM_BYTES], ss2[MLKEM_BYTES];

int main(int argc, char **argv) {
  iterations = argc > 1 ? atoi(argv[1]) : 1000;
  times = malloc(sizeof times[0] * (size_t)iterations);
  for (int k = 0; k < RING; k++) {
    if (NS(keypair)(pk[k], sk[k]) != 0 || NS(enc)(ct[k], ss, pk[k]) != 0 ||
        NS(dec)(ss2, ct[k], sk[k]) != 0 || memcmp(ss, ss2, sizeof ss) != 0) {
      fprintf(stderr, "set-up failed\n");
      return 1;
    }
  }
  TIME("keygen", 0, NS(keypair)(pk[0], sk[0]))
  if (NS(enc)(ct[0], ss, pk[0]) != 0) return 1;
  TIME("encaps", i % RING, NS(enc)(out_ct, ss, pk[k]))
  TIME("decaps", i % RING, NS(dec)(ss, ct[k], sk[k]))
  TIME("encaps (one key)", 0, NS(enc)(out_ct, ss, pk[k]))
  TIME("decaps (one key)", 0, NS(dec)(ss, ct[k], sk[k]))
  return 0;
}
#else
static uint8_t pk[RING][MLDSA_PUBLICKEYBYTES(PARAMS)];
static uint8_t sk[RING][MLDSA_SECRETKEYBYTES(PARAMS)];
static uint8_t sig[RING][MLDSA_BYTES(PARAMS)];
static size_t siglen[RING];
static uint8_t out_sig[MLDSA_BYTES(PARAMS)];
static size_t out_len;
static const uint8_t msg[50] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
  17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38,
  39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49};

int main(int argc, char **argv) {
  iterations = argc > 1 ? atoi(argv[1]) : 1000;
  times = malloc(sizeof times[0] * (size_t)iterations);
  for (int k = 0; k < RING; k++) {
    if (NS(keypair)(pk[k], sk[k]) != 0 ||
        NS(signature)(sig[k], &siglen[k], msg, sizeof msg, NULL, 0, sk[k]) != 0 ||
        NS(verify)(sig[k], siglen[k], msg, sizeof msg, NULL, 0, pk[k]) != 0) {
      fprintf(stderr, "set-up failed\n");
      return 1;
    }
  }
  TIME("keypair", 0, NS(keypair)(pk[0], sk[0]))
  if (NS(signature)(sig[0], &siglen[0], msg, sizeof msg, NULL, 0, sk[0]) != 0) return 1;
  TIME("sign", i % RING, NS(signature)(out_sig, &out_len, msg, sizeof msg, NULL, 0, sk[k]))
  TIME("verify", i % RING, NS(verify)(sig[k], siglen[k], msg, sizeof msg, NULL, 0, pk[k]))
  TIME("sign (one key)", 0, NS(signature)(out_sig, &out_len, msg, sizeof msg, NULL, 0, sk[k]))
  TIME("verify (one key)", 0, NS(verify)(sig[k], siglen[k], msg, sizeof msg, NULL, 0, pk[k]))
  return 0;
}
#endif
"""

KEM_SETS = {"ML-KEM-512": 512, "ML-KEM-768": 768, "ML-KEM-1024": 1024}
SIG_SETS = {"ML-DSA-44": 44, "ML-DSA-65": 65, "ML-DSA-87": 87}


DILITHIUM_MODES = {44: 2, 65: 3, 87: 5}
"""ML-DSA set -> DILITHIUM_MODE of pq-crystals' tree (its FIPS 204 master branch)."""

DILITHIUM_SHIM = """/* Maps the driver's mldsa-native names onto pq-crystals' avx2/ tree. */
#include "params.h"
#include "sign.h"
#define MLDSA_PUBLICKEYBYTES(p) CRYPTO_PUBLICKEYBYTES
#define MLDSA_SECRETKEYBYTES(p) CRYPTO_SECRETKEYBYTES
#define MLDSA_BYTES(p) CRYPTO_BYTES
"""

DILITHIUM_SOURCES = [
    "sign.c", "packing.c", "polyvec.c", "poly.c", "ntt.S", "invntt.S", "pointwise.S",
    "shuffle.S", "consts.c", "rejsample.c", "rounding.c", "fips202.c", "fips202x4.c",
    "f1600x4.S", "symmetric-shake.c",
]  # fmt: skip
"""The AVX2 build's sources (its Makefile's KECCAK_SOURCES)."""


def build_dilithium(source: Path, params: int, out: Path, cc: str, cflags: list[str]) -> Path:
    """Compile the driver with pq-crystals' ``avx2/`` ML-DSA (``source`` is the root of
    a checkout of github.com/pq-crystals/dilithium), one parameter set."""
    tree = source / "avx2"
    if not (tree / "sign.c").is_file():
        raise SystemExit(f"{tree / 'sign.c'}: not found (give the root of a dilithium checkout)")
    mode = DILITHIUM_MODES[params]
    (out / "driver.c").write_text(DRIVER, encoding="ascii")
    (out / "shim.h").write_text(DILITHIUM_SHIM, encoding="ascii")
    binary = out / f"dilithium{params}"
    command = [
        cc, *cflags, "-mavx2", "-mpopcnt", f"-I{tree}", f"-DDILITHIUM_MODE={mode}",
        f"-DPARAMS={params}", f"-DPREFIX=pqcrystals_dilithium{mode}_avx2", "-DSIG",
        "-DRANDOMBYTES_VOID", '-DAPI_HEADER="shim.h"', f"-I{out}",
        *(str(tree / name) for name in DILITHIUM_SOURCES), str(out / "driver.c"),
        "-o", str(binary),
    ]  # fmt: skip
    print("building:", shlex.join(command), file=sys.stderr)
    subprocess.run(command, check=True)
    return binary


def build(kind: str, source: Path, params: int, out: Path, cc: str, cflags: list[str]) -> Path:
    """Compile the driver with one parameter set of the library at ``source``."""
    family, prefix = ("mlkem", "MLK") if kind == "kem" else ("mldsa", "MLD")
    unit = source / family / f"{family}_native.c"
    asm = source / family / f"{family}_native_asm.S"
    if not unit.is_file():
        raise SystemExit(f"{unit}: not found (give the root of a {family}-native checkout)")
    driver = out / "driver.c"
    driver.write_text(DRIVER, encoding="ascii")
    binary = out / f"{family}{params}"
    defines = [
        f"-D{prefix}_CONFIG_PARAMETER_SET={params}",
        f"-D{prefix}_CONFIG_NAMESPACE_PREFIX=pqbench{params}",
        f"-D{prefix}_CONFIG_USE_NATIVE_BACKEND_ARITH",
        f"-D{prefix}_CONFIG_USE_NATIVE_BACKEND_FIPS202",
    ]
    header = f'-DAPI_HEADER="{family}_native.h"'
    kind_define = "-DKEM" if kind == "kem" else "-DSIG"
    command = [
        cc, *cflags, "-std=c99", f"-I{source / family}", *defines,
        f"-DPARAMS={params}", f"-DPREFIX=pqbench{params}", kind_define, header,
        str(unit), *([str(asm)] if asm.is_file() else []), str(driver), "-o", str(binary),
    ]  # fmt: skip
    print("building:", shlex.join(command), file=sys.stderr)
    subprocess.run(command, check=True)
    return binary


def run_c(binary: Path, iterations: int) -> dict[str, float]:
    """Median microseconds per operation, from the driver's output."""
    text = subprocess.run(
        [str(binary), str(iterations)], check=True, capture_output=True, text=True
    ).stdout
    out: dict[str, float] = {}
    for line in text.splitlines():
        m = re.fullmatch(r"(.+) (\d+)", line.strip())
        if m:
            out[m[1]] = int(m[2]) / 1e3
    return out


def run_pqkit(kind: str, name: str, iterations: int) -> dict[str, dict[str, float]]:
    """pqkit's default byte API and key objects, timed as the driver times the C:
    median us of ``iterations`` single calls, fresh keys from a ring of 64, then one
    key."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import peers  # benchmarks/peers.py: the same operations as the peer comparison

    rows: dict[str, dict[str, float]] = {}
    for peer in (peers._pqkit(), peers._pqkit_keys()):
        api = (peer.kem if kind == "kem" else peer.sig)(name)
        if api is None:
            continue
        ops = peers.kem_ops(api) if kind == "kem" else peers.sig_ops(api)
        rows[peer.label] = {op: _median_us(fn, iterations) for op, fn in ops.items()}
    return rows


def _median_us(fn: Callable[[], object], iterations: int) -> float:
    fn()
    times = []
    clock = time.perf_counter_ns
    for _ in range(iterations):
        start = clock()
        fn()
        times.append(clock() - start)
    return statistics.median(times) / 1e3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mlkem-native", type=Path, metavar="DIR", help="mlkem-native checkout")
    parser.add_argument("--mldsa-native", type=Path, metavar="DIR", help="mldsa-native checkout")
    parser.add_argument(
        "--dilithium-avx2",
        type=Path,
        metavar="DIR",
        help="pq-crystals dilithium checkout (FIPS 204 master; its avx2/ tree) for ML-DSA",
    )
    parser.add_argument("--kem", nargs="*", default=["ML-KEM-768"], choices=list(KEM_SETS))
    parser.add_argument("--sig", nargs="*", default=["ML-DSA-65"], choices=list(SIG_SETS))
    parser.add_argument("--iterations", type=int, default=2000, help="timed calls per operation")
    parser.add_argument("--cc", default=os.environ.get("CC", "cc"))
    parser.add_argument("--cflags", default="-O3 -march=native -fomit-frame-pointer")
    parser.add_argument("--no-pqkit", action="store_true", help="time the C code only")
    args = parser.parse_args(argv)
    if args.mlkem_native is None and args.mldsa_native is None and args.dilithium_avx2 is None:
        parser.error("give --mlkem-native DIR, --mldsa-native DIR and/or --dilithium-avx2 DIR")
    cflags = shlex.split(args.cflags)
    jobs = [("kem", args.mlkem_native, n, KEM_SETS[n]) for n in args.kem if args.mlkem_native]
    jobs += [("sig", args.mldsa_native, n, SIG_SETS[n]) for n in args.sig if args.mldsa_native]
    jobs += [("avx2", args.dilithium_avx2, n, SIG_SETS[n]) for n in args.sig if args.dilithium_avx2]
    lines: list[str] = []
    with tempfile.TemporaryDirectory(prefix="pqkit-c-peers-") as scratch:
        for kind, source, name, params in jobs:
            if kind == "avx2":
                binary = build_dilithium(
                    source.expanduser(), params, Path(scratch), args.cc, cflags
                )
                kind = "sig"
            else:
                binary = build(kind, source.expanduser(), params, Path(scratch), args.cc, cflags)
            c = run_c(binary, args.iterations)
            rows = {f"{source.name} (C, {args.cflags})": c}
            if not args.no_pqkit:
                rows |= run_pqkit(kind, name, args.iterations)
            columns = list(c)
            lines += [
                f"### {name}",
                "",
                f"Median us of {args.iterations} calls; a fresh key on every call (a ring of "
                "64 key pairs) except in the '(one key)' columns:",
                "",
                "| library | " + " | ".join(columns) + " |",
                "|---|" + "---:|" * len(columns),
            ]
            for label, figures in rows.items():
                lines.append(
                    f"| {label} | " + " | ".join(f"{figures[op]:.1f}" for op in columns) + " |"
                )
            for label, figures in list(rows.items())[1:]:
                ratios = " | ".join(f"{figures[op] / c[op]:.2f}x" for op in columns)
                lines.append(f"| {label} / C | {ratios} |")
            lines.append("")
    print("\n".join(lines).rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
