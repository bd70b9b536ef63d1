"""ML-DSA speed: pqkit (numpy and ref arith) next to pycryptodome, pyca/cryptography
and dilithium-py, measured in one run.

Keygen and verify: median over repeated calls. Sign: deterministic, empty
context, key from the all-zero seed, one call per CCTV benchmark message
(benchmarks/data/cctv-ML-DSA/<set>.json.gz, from C2SP CCTV); median and mean over the
messages (the mean is the unbiased figure CCTV designed the sets for).

    PYTHONPATH=src python benchmarks/mldsa.py [--sets ML-DSA-65] [--messages N]
        [--cctv DIR] [--ref] [--no-dilithium-py]

Figures are microseconds per operation.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pqkit

# The CCTV benchmark message sets (C2SP/CCTV ML-DSA/benchmark), copied gzipped.
_DEFAULT_CCTV = Path(__file__).resolve().parent / "data" / "cctv-ML-DSA"
_SETS = ("ML-DSA-44", "ML-DSA-65", "ML-DSA-87")


def _median_us(fn: Callable[[], Any], repeat: int) -> float:
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e6


def _sign_stats(sign: Callable[[bytes], Any], messages: list[bytes]) -> tuple[float, float]:
    sign(messages[0])
    times = []
    for m in messages:
        t0 = time.perf_counter()
        sign(m)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e6, statistics.fmean(times) * 1e6


class Impl:
    """keygen(), sign(msg), verify() closures for one library and one set."""

    def __init__(self, name: str) -> None:
        self.name = name

    def setup(self, param: str) -> bool:
        raise NotImplementedError

    keygen: Callable[[], Any]
    sign: Callable[[bytes], Any]
    verify: Callable[[], Any]


class Pqkit(Impl):
    def __init__(self, backend: str) -> None:
        super().__init__(f"pqkit ({backend})")
        self.backend = backend

    def setup(self, param: str) -> bool:
        s = pqkit.sig(param).using(arith=self.backend)  # type: ignore[attr-defined]
        pk, sk = s.keygen_derand(bytes(32))
        sig = s.sign(sk, b"x", deterministic=True)
        self.keygen = lambda: s.keygen_derand(bytes(32))
        self.sign = lambda m: s.sign(sk, m, deterministic=True)
        self.verify = lambda: s.verify(pk, b"x", sig)
        return True


class Pycryptodome(Impl):
    def __init__(self) -> None:
        super().__init__("pycryptodome")

    def setup(self, param: str) -> bool:
        try:
            from Crypto.PublicKey import MLDSA
            from Crypto.Signature import mldsa
        except ImportError:
            return False
        ps = MLDSA.ParamSet(param)
        key = MLDSA.construct(param_set=ps, seed=bytes(32))
        pub = key.public_key()
        signer = mldsa.new(key, deterministic=True)
        verifier = mldsa.new(pub)
        sig = signer.sign(b"x")
        self.keygen = lambda: MLDSA.construct(param_set=ps, seed=bytes(32)).public_key()
        self.sign = signer.sign
        self.verify = lambda: verifier.verify(b"x", sig)
        return True


class Pyca(Impl):
    def __init__(self) -> None:
        super().__init__("cryptography (OpenSSL)")

    def setup(self, param: str) -> bool:
        try:
            from cryptography.hazmat.primitives.asymmetric import mldsa
        except ImportError:
            return False
        cls = getattr(mldsa, f"MLDSA{param[-2:]}PrivateKey", None)
        if cls is None:
            return False
        key = cls.from_seed_bytes(bytes(32))
        pub = key.public_key()
        sig = key.sign(b"x")
        self.keygen = lambda: cls.from_seed_bytes(bytes(32)).public_key()
        self.sign = key.sign  # NOTE: OpenSSL signs hedged; no deterministic switch here
        self.verify = lambda: pub.verify(sig, b"x")
        return True


class DilithiumPy(Impl):
    def __init__(self) -> None:
        super().__init__("dilithium-py")

    def setup(self, param: str) -> bool:
        try:
            import dilithium_py.ml_dsa as mod
        except ImportError:
            return False
        d = getattr(mod, param.replace("-", "_"))
        pk, sk = d.key_derive(bytes(32))
        sig = d.sign(sk, b"x", deterministic=True)
        self.keygen = lambda: d.key_derive(bytes(32))
        self.sign = lambda m: d.sign(sk, m, deterministic=True)
        self.verify = lambda: d.verify(pk, b"x", sig)
        return True


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--sets", nargs="*", default=list(_SETS))
    ap.add_argument("--cctv", type=Path, default=_DEFAULT_CCTV)
    ap.add_argument("--messages", type=int, default=0, help="use only the first N messages")
    ap.add_argument("--repeat", type=int, default=50)
    ap.add_argument("--ref", action="store_true", help="also time the ref backend (slow)")
    ap.add_argument("--no-dilithium-py", action="store_true")
    args = ap.parse_args(argv)

    impls: list[Impl] = [Pqkit("numpy")]
    if args.ref:
        impls.append(Pqkit("ref"))
    impls += [Pycryptodome(), Pyca()]
    if not args.no_dilithium_py:
        impls.append(DilithiumPy())

    for param in args.sets:
        path = args.cctv / f"{param}.json.gz"
        messages = [m.encode("ascii") for m in json.loads(gzip.decompress(path.read_bytes()))]
        if args.messages:
            messages = messages[: args.messages]
        print(f"\n{param}: {len(messages)} CCTV messages; microseconds per operation")
        print("| implementation | keygen | sign median | sign mean | verify |")
        print("|---|---|---|---|---|")
        for impl in impls:
            if not impl.setup(param):
                print(f"| {impl.name} | n/a | n/a | n/a | n/a |")
                continue
            slow = "dilithium" in impl.name or "ref" in impl.name
            repeat = 5 if slow else args.repeat
            msgs = messages[:10] if slow else messages
            kg = _median_us(impl.keygen, repeat)
            med, mean = _sign_stats(impl.sign, msgs)
            vf = _median_us(impl.verify, repeat)
            note = " (first 10 messages)" if slow else ""
            print(f"| {impl.name}{note} | {kg:.0f} | {med:.0f} | {mean:.0f} | {vf:.0f} |")


if __name__ == "__main__":
    main()
