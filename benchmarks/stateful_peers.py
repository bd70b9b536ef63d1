"""LMS / HSS and XMSS key generation and signing: pqkit next to pyhsslms (pure
Python, RFC 8554) and, given its build directory, the XMSS reference C
(``xmss_core_fast``), one run, medians.

    python benchmarks/stateful_peers.py [--runs 5] [--xmss-reference DIR]

pqkit runs on the ``jit`` backend when Numba is installed (compiled first, outside
the timing), else ``numpy``. Key generation: a fresh seed for every call. Signing:
one key per tool, a fresh message every call, ``--runs`` calls after one untimed
call (which builds the trees a signer caches; pqkit's key is held in memory, so no
fsync is timed). pyhsslms is skipped, with the reason printed, when it is not
installed (``pip install pyhsslms``: a benchmark peer only, never a dependency).

``--xmss-reference DIR``: a checkout of github.com/XMSS/xmss-reference built
outside this repository (nothing of it is copied here); the script compiles a
small timing driver written here against its ``xmss_core_fast.c`` with
``-O3 -march=native`` and times ``xmss_keypair`` / ``xmss_sign`` for
XMSS-SHA2_10_256. It is built twice: as published, and with its ``SHA256()`` calls
sent to OpenSSL's ``SHA256_Init`` / ``Update`` / ``Final`` by a header forced in
with ``-include`` (no source changed): OpenSSL 3's one-shot ``SHA256()`` fetches
the algorithm on every call (about 4x the cost of a 96-byte hash here), which
dominates the published build's time. The machine these numbers come from may be
shared: compare the ratios of one run, not absolute times across runs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

DRIVER = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "params.h"
#include "xmss.h"
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9; }
static int cmp(const void *a, const void *b) { double x = *(double *)a, y = *(double *)b;
  return (x > y) - (x < y); }
int main(int argc, char **argv) {
  int runs = atoi(argv[1]); uint32_t oid = 1; xmss_params p; xmss_parse_oid(&p, oid);
  unsigned char pk[XMSS_OID_LEN + p.pk_bytes], sk[XMSS_OID_LEN + p.sk_bytes];
  unsigned char m[32], *sm = malloc(p.sig_bytes + 32); unsigned long long smlen;
  double t[1000];
  for (int i = 0; i < runs; i++) { double a = now(); xmss_keypair(pk, sk, oid); t[i] = now() - a; }
  qsort(t, runs, sizeof(double), cmp); printf("keygen %.9f\n", t[runs / 2]);
  xmss_sign(sk, sm, &smlen, m, 32);
  for (int i = 0; i < runs; i++) { m[0] = i; double a = now(); xmss_sign(sk, sm, &smlen, m, 32);
    t[i] = now() - a; }
  qsort(t, runs, sizeof(double), cmp); printf("sign %.9f\n", t[runs / 2]);
  return 0; }
"""


SHIM = r"""
#include <openssl/sha.h>
static inline unsigned char *shim_sha256(const unsigned char *d, size_t n, unsigned char *md) {
  SHA256_CTX c; SHA256_Init(&c); SHA256_Update(&c, d, n); SHA256_Final(md, &c); return md; }
#define SHA256 shim_sha256
"""


def median(fn: Callable[[int], object], runs: int) -> float:
    times = []
    for i in range(runs):
        start = time.perf_counter()
        fn(i)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def pqkit_rows(name: str, runs: int) -> tuple[float, float]:
    import pqkit
    from pqkit import arith

    backend = "jit" if "jit" in arith.available("hash") else "numpy"
    scheme = pqkit.sig(name).using(arith=backend)
    n = scheme.length_seed
    scheme.keygen()  # compile / warm up
    keygen = median(lambda i: scheme.keygen_derand(os.urandom(n)), runs)
    _, sk = scheme.keygen()
    sk.reserve(runs + 1)
    sk.sign(b"warm")
    sign = median(lambda i: sk.sign(i.to_bytes(4, "big")), runs)
    return keygen, sign


def pyhsslms_rows(name: str, runs: int) -> tuple[float, float] | str:
    try:
        import pyhsslms
    except ImportError:
        return "pyhsslms not installed (pip install pyhsslms)"
    from pqkit.lms.params import HSS_PARAMS

    params = HSS_PARAMS[name]
    lms, ots = params.levels[0]
    lms_type, ots_type = lms.code.to_bytes(4, "big"), ots.code.to_bytes(4, "big")

    def new(i: int) -> object:
        key = pyhsslms.LmsPrivateKey(lms_type=lms_type, lmots_type=ots_type)
        key.publicKey()  # the root: the whole tree
        return key

    keygen = median(new, runs)
    key = new(0)
    key.sign(b"warm")
    sign = median(lambda i: key.sign(i.to_bytes(4, "big")), runs)
    return keygen, sign


def xmss_reference_rows(source: Path, runs: int, shim: bool) -> tuple[float, float] | str:
    work = Path(tempfile.mkdtemp(prefix="xmss-ref-"))
    (work / "driver.c").write_text(DRIVER)
    (work / "shim.h").write_text(SHIM)
    files = ["params.c", "hash.c", "fips202.c", "hash_address.c", "randombytes.c",
             "wots.c", "xmss.c", "xmss_core_fast.c", "xmss_commons.c", "utils.c"]  # fmt: skip
    extra = ["-Wno-deprecated-declarations", "-include", str(work / "shim.h")] if shim else []
    cmd = ["cc", "-O3", "-march=native", *extra, "-I", str(source), "-o", str(work / "bench"),
           str(work / "driver.c"), *(str(source / f) for f in files), "-lcrypto"]  # fmt: skip
    try:
        subprocess.run(cmd, check=True, capture_output=True)
        out = subprocess.run([str(work / "bench"), str(runs)], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        return f"xmss-reference build or run failed: {exc}"
    values = dict(line.split() for line in out.stdout.decode().splitlines())
    return float(values["keygen"]), float(values["sign"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--lms", nargs="*", default=["LMS_SHA256_H5_W8", "LMS_SHA256_H10_W4"])
    parser.add_argument("--xmss-reference", type=Path)
    args = parser.parse_args(argv)
    print(f"{'scheme':<22} {'op':<7} {'pqkit ms':>10} {'peer ms':>10} {'peer/pqkit':>11}  peer")
    for name in args.lms:
        ours = pqkit_rows(name, args.runs)
        peer = pyhsslms_rows(name, args.runs)
        for k, op in enumerate(("keygen", "sign")):
            if isinstance(peer, str):
                print(f"{name:<22} {op:<7} {ours[k] * 1e3:>10.3f} {'-':>10} {'-':>11}  {peer}")
            else:
                ratio = peer[k] / ours[k]
                print(f"{name:<22} {op:<7} {ours[k] * 1e3:>10.3f} {peer[k] * 1e3:>10.3f} "
                      f"{ratio:>10.1f}x  pyhsslms")  # fmt: skip
    if args.xmss_reference is not None:
        ours = pqkit_rows("XMSS-SHA2_10_256", args.runs)
        for shim, label in ((False, "xmss-reference"), (True, "xmss-reference, SHA256_Init")):
            peer = xmss_reference_rows(args.xmss_reference, args.runs, shim)
            for k, op in enumerate(("keygen", "sign")):
                if isinstance(peer, str):
                    print(f"{'XMSS-SHA2_10_256':<22} {op:<7} {ours[k] * 1e3:>10.3f}  {peer}")
                else:
                    ratio = peer[k] / ours[k]
                    print(f"{'XMSS-SHA2_10_256':<22} {op:<7} {ours[k] * 1e3:>10.3f} "
                          f"{peer[k] * 1e3:>10.3f} {ratio:>10.2f}x  {label}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
