"""pqkit's FrodoKEM next to the FrodoKEM reference C in its fastest x86-64 build, one run.

    python benchmarks/frodokem_c.py --c-build /path/to/lib      # all six FrodoKEM sets
    python benchmarks/frodokem_c.py --c-build DIR --kem FrodoKEM-640-AES --duration 2

The C side is the published reference (github.com/microsoft/PQCrypto-LWEKE,
``FrodoKEM/``), built OUTSIDE this repository (none of its code is copied here) as
one shared library per parameter set, ``lib<name>-<AES128|SHAKE128>.so`` in the
``--c-build`` folder, from ``src/frodo<n>.c``, ``src/util.c``,
``../common/random/random.c``, ``../common/sha3/fips202.c`` and, for AES,
``../common/aes/aes_ni.c`` (AES-NI), for SHAKE, ``fips202x4.c`` and the AVX2
four-way Keccak; flags ``-O3 -march=native -mavx2 -maes -D_AMD64_ -D_FAST_
-D_AES128_FOR_A_`` (or ``_SHAKE128_FOR_A_``) ``-DNO_OPENSSL``: the optimized x64
target of its Makefile, with AES-NI rather than OpenSSL's AES. The functions are
called through ctypes (about a microsecond per call, against milliseconds of work).

Both sides are timed in this process with :func:`pqkit.bench.timing.measure` (the
loop ``pqkit speed`` uses), every encapsulation and decapsulation meeting the next
key of a ring of fresh key pairs. The contenders take turns: ``--rounds`` rounds,
each timing every contender for ``duration / rounds`` seconds, so that a change in
the machine's load falls on all of them; the table gives the median over the
rounds of each one's median, and the median of the per-round ratios. pqkit runs
on ``jit`` (after a warm-up call) and on ``numpy`` (what a user without Numba
gets). Before timing, the script checks that the two interoperate (C keys, pqkit
encapsulation, C decapsulation and the reverse) and stops if they do not.

Without ``--c-build`` (or with a folder lacking a library) a set is skipped with a
note. Not run by CI; timings on a shared machine are noisy: compare ratios within
one run.
"""

from __future__ import annotations

import argparse
import ctypes
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

import pqkit
from pqkit.bench.config import configuration, format_configuration
from pqkit.bench.keyring import cycling
from pqkit.bench.report import markdown_table
from pqkit.bench.timing import measure

SETS = tuple(f"FrodoKEM-{n}-{gen}" for n in (640, 976, 1344) for gen in ("AES", "SHAKE"))
OPS = ("keygen", "encaps", "decaps")


class CFrodo:
    """One parameter set of the reference C, through ctypes."""

    def __init__(self, lib: Path, name: str) -> None:
        n = name.split("-")[1]
        self.dll = ctypes.CDLL(str(lib))
        self.keypair = getattr(self.dll, f"crypto_kem_keypair_Frodo{n}")
        self.enc = getattr(self.dll, f"crypto_kem_enc_Frodo{n}")
        self.dec = getattr(self.dll, f"crypto_kem_dec_Frodo{n}")
        kem = pqkit.kem(name)
        self.sizes = (
            kem.length_public_key,
            kem.length_secret_key,
            kem.length_ciphertext,
            kem.length_shared_secret,
        )

    def keygen(self) -> tuple[bytes, bytes]:
        pk_len, sk_len, _, _ = self.sizes
        pk, sk = ctypes.create_string_buffer(pk_len), ctypes.create_string_buffer(sk_len)
        if self.keypair(pk, sk) != 0:
            raise RuntimeError("C keypair failed")
        return pk.raw, sk.raw

    def encaps(self, pk: bytes) -> tuple[bytes, bytes]:
        _, _, ct_len, ss_len = self.sizes
        ct, ss = ctypes.create_string_buffer(ct_len), ctypes.create_string_buffer(ss_len)
        if self.enc(ct, ss, pk) != 0:
            raise RuntimeError("C encaps failed")
        return ss.raw, ct.raw

    def decaps(self, sk: bytes, ct: bytes) -> bytes:
        ss = ctypes.create_string_buffer(self.sizes[3])
        if self.dec(ss, ct, sk) != 0:
            raise RuntimeError("C decaps failed")
        return ss.raw


def _library(folder: Path | None, name: str) -> Path | None:
    if folder is None:
        return None
    gen = "AES128" if name.endswith("AES") else "SHAKE128"
    path = folder / f"lib{name.rsplit('-', 1)[0]}-{gen}.so"
    return path if path.is_file() else None


def _interoperate(c: CFrodo, name: str) -> None:
    """C keys with pqkit's encapsulation and the reverse; SystemExit if they differ."""
    kem = pqkit.kem(name)
    pk, sk = c.keygen()
    ss, ct = kem.encaps(pk)
    if c.decaps(sk, ct) != ss or kem.decaps(sk, ct) != ss:
        raise SystemExit(f"{name}: pqkit's ciphertext does not decapsulate in the C code")
    pk, sk = kem.keygen()
    ss, ct = c.encaps(pk)
    if kem.decaps(sk, ct) != ss:
        raise SystemExit(f"{name}: the C ciphertext does not decapsulate in pqkit")


def _ops(kem: object, ring: int) -> dict[str, Callable[[], object]]:
    """keygen / encaps / decaps of a scheme-shaped object, fresh keys from a ring."""
    k: object = kem
    pairs = [k.keygen() for _ in range(ring)]  # type: ignore[attr-defined]
    encs = [k.encaps(pk) for pk, _ in pairs]  # type: ignore[attr-defined]
    next_pk = cycling([pk for pk, _ in pairs])
    next_dec = cycling([(sk, ct) for (_, sk), (_, ct) in zip(pairs, encs, strict=True)])
    return {
        "keygen": k.keygen,  # type: ignore[attr-defined]
        "encaps": lambda: k.encaps(next_pk()),  # type: ignore[attr-defined]
        "decaps": lambda: k.decaps(*next_dec()),  # type: ignore[attr-defined]
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--c-build", type=Path, default=None, metavar="DIR")
    parser.add_argument("--kem", nargs="+", default=list(SETS), choices=SETS, metavar="NAME")
    parser.add_argument("--duration", type=float, default=1.0, help="seconds per operation")
    parser.add_argument("--ring", type=int, default=8, help="fresh key pairs per set")
    parser.add_argument("--rounds", type=int, default=5, help="turns each contender takes")
    args = parser.parse_args(argv)

    print("\n".join(format_configuration(configuration())))
    header = [
        "scheme",
        "op",
        "C (us)",
        "pqkit jit (us)",
        "pqkit numpy (us)",
        "jit / C",
        "numpy / C",
    ]
    rows: list[list[str]] = []
    for name in args.kem:
        path = _library(args.c_build, name)
        if path is None:
            print(f"skipped {name}: no C library (build the reference and pass --c-build)")
            continue
        c = CFrodo(path, name)
        _interoperate(c, name)
        timed = {
            "C": _ops(c, args.ring),
            "jit": _ops(pqkit.kem(name).using(arith="jit"), args.ring),
            "numpy": _ops(pqkit.kem(name).using(arith="numpy"), args.ring),
        }
        for op in OPS:
            rounds: dict[str, list[float]] = {who: [] for who in timed}
            for _ in range(max(args.rounds, 1)):
                for who, ops in timed.items():
                    stats = measure(ops[op], args.duration / max(args.rounds, 1))
                    rounds[who].append(stats.median_ns / 1e3)
            us = {who: statistics.median(values) for who, values in rounds.items()}
            ratio = {
                who: statistics.median(x / c for x, c in zip(rounds[who], rounds["C"], strict=True))
                for who in ("jit", "numpy")
            }
            rows.append(
                [
                    name,
                    op,
                    f"{us['C']:.0f}",
                    f"{us['jit']:.0f}",
                    f"{us['numpy']:.0f}",
                    f"{ratio['jit']:.2f}",
                    f"{ratio['numpy']:.2f}",
                ]
            )
    if rows:
        print("\n".join(markdown_table(header, rows, left=2)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
