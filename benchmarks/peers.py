"""pqkit against the other Python libraries a user could pick instead, in one process.

    python benchmarks/peers.py                      # ML-KEM-768 and ML-DSA-65, 1 s per operation
    python benchmarks/peers.py --kem ML-KEM-512 Kyber768 --sig ML-DSA-87 --duration 3

pqkit runs twice: as a user gets it (the automatic backend selection, after its
background jit warm-up: ``jit`` where numba is installed) and bound to ``numpy``
(what a user without numba gets). Peers: cryptography (OpenSSL), pycryptodome,
mlkem (Rust), kyber-py, dilithium-py, and where
installed pqcrypto and liboqs-python (``oqs``, only when the liboqs shared library
is already present: importing ``oqs`` without it would try to build liboqs). Peers
that are not installed, or lack an algorithm, are skipped with a note.

Prints Markdown: per algorithm, the median microseconds per operation of each
library, then the ratio pqkit time / peer time (below 1: pqkit is faster). Every
figure comes from :func:`pqkit.bench.timing.measure`, the loop ``pqkit speed``
uses, so the numbers are comparable with its tables. Not run by CI.

Peer operations work on what each library hands out (key objects for
cryptography and pycryptodome, bytes for the others); parsing keys from bytes is
not timed for any library. pycryptodome 4.4 has no public encapsulation call, so
its ``_encaps`` / ``_decaps`` methods are used.
"""

from __future__ import annotations

import argparse
import ctypes.util
import importlib
import importlib.metadata
import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pqkit
from pqkit.bench.config import configuration, format_configuration
from pqkit.bench.report import markdown_table
from pqkit.bench.timing import measure

MESSAGE = bytes(range(50))  # as pqkit speed sig (liboqs's speed_sig length)
KEM_OPS = ("keygen", "encaps", "decaps")
SIG_OPS = ("keypair", "sign", "verify")

Ops = dict[str, Callable[[], object]]


@dataclass
class Peer:
    """A library: its label, and builders of the timed operations per algorithm
    (each returns None when the library lacks the algorithm)."""

    label: str
    kem: Callable[[str], Ops | None]
    sig: Callable[[str], Ops | None]


def _none(_name: str) -> Ops | None:
    return None


def _version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "?"


# --- pqkit ------------------------------------------------------------------------


def _pqkit(arith: str | None = None) -> Peer:
    """pqkit as a user gets it (``arith`` None: the automatic selection, after its
    background warm-up has finished, so one backend runs every timed call), or bound
    to one backend (``"numpy"``: what a user without numba gets)."""

    def bound(scheme: Any) -> Any:
        return scheme if arith is None else scheme.using(arith=arith)

    def kem(name: str) -> Ops | None:
        try:
            scheme = bound(pqkit.kem(name))
        except pqkit.UnknownAlgorithm:
            return None
        pk, sk = scheme.keygen()
        _, ct = scheme.encaps(pk)
        return {
            "keygen": scheme.keygen,
            "encaps": lambda: scheme.encaps(pk),
            "decaps": lambda: scheme.decaps(sk, ct),
        }

    def sig(name: str) -> Ops | None:
        try:
            scheme = bound(pqkit.sig(name))
        except pqkit.UnknownAlgorithm:
            return None
        pk, sk = scheme.keygen()
        s = scheme.sign(sk, MESSAGE)
        return {
            "keypair": scheme.keygen,
            "sign": lambda: scheme.sign(sk, MESSAGE),
            "verify": lambda: scheme.verify(pk, MESSAGE, s),
        }

    from pqkit.arith import auto

    if arith is None and not auto.explicit():
        pqkit.arith.kernels("mlkem")  # starts the background warm-up if needed
        auto.wait()
    config = configuration()
    sha3 = config["sha3"].split()[0]
    which = "default: " + pqkit.arith.active() if arith is None else f"{arith} only"
    return Peer(f"pqkit {pqkit.__version__} ({which}, SHA-3: {sha3})", kem, sig)


# --- pyca/cryptography --------------------------------------------------------------


def _cryptography() -> Peer:
    from cryptography.hazmat.primitives.asymmetric import mldsa, mlkem

    kems = {"ML-KEM-768": "MLKEM768PrivateKey", "ML-KEM-1024": "MLKEM1024PrivateKey"}
    sigs = {"ML-DSA-44": "MLDSA44PrivateKey", "ML-DSA-65": "MLDSA65PrivateKey"}
    sigs["ML-DSA-87"] = "MLDSA87PrivateKey"

    def kem(name: str) -> Ops | None:
        cls: Any = getattr(mlkem, kems.get(name, ""), None)
        if cls is None:
            return None
        sk = cls.generate()
        pk = sk.public_key()
        _, ct = pk.encapsulate()
        return {
            "keygen": cls.generate,
            "encaps": pk.encapsulate,
            "decaps": lambda: sk.decapsulate(ct),
        }

    def sig(name: str) -> Ops | None:
        cls: Any = getattr(mldsa, sigs.get(name, ""), None)
        if cls is None:
            return None
        sk = cls.generate()
        pk = sk.public_key()
        s = sk.sign(MESSAGE)
        return {
            "keypair": cls.generate,
            "sign": lambda: sk.sign(MESSAGE),
            "verify": lambda: pk.verify(s, MESSAGE),
        }

    from cryptography.hazmat.backends.openssl.backend import backend

    openssl = backend.openssl_version_text().split()[1]
    return Peer(f"cryptography {_version('cryptography')} (OpenSSL {openssl})", kem, sig)


# --- pycryptodome ---------------------------------------------------------------------


def _pycryptodome() -> Peer:
    from Crypto.PublicKey import MLDSA, MLKEM
    from Crypto.Signature import mldsa

    def kem(name: str) -> Ops | None:
        param_set = getattr(MLKEM.ParamSet, name.replace("-", "_"), None)
        if param_set is None:
            return None
        key: Any = MLKEM.generate(param_set=param_set)
        _, ct = key._encaps()
        return {
            "keygen": lambda: MLKEM.generate(param_set=param_set),
            "encaps": key._encaps,
            "decaps": lambda: key._decaps(ct),
        }

    def sig(name: str) -> Ops | None:
        param_set = getattr(MLDSA.ParamSet, name.replace("-", "_"), None)
        if param_set is None:
            return None
        key: Any = MLDSA.generate(param_set=param_set)
        signer, verifier = mldsa.new(key), mldsa.new(key.public_key())
        s = signer.sign(MESSAGE)
        return {
            "keypair": lambda: MLDSA.generate(param_set=param_set),
            "sign": lambda: signer.sign(MESSAGE),
            "verify": lambda: verifier.verify(MESSAGE, s),
        }

    return Peer(f"pycryptodome {_version('pycryptodome')}", kem, sig)


# --- kyber-py / dilithium-py (pure Python) ----------------------------------------------


def _bytes_kem(scheme: Any) -> Ops:
    pk, sk = scheme.keygen()
    _, ct = scheme.encaps(pk)
    return {
        "keygen": scheme.keygen,
        "encaps": lambda: scheme.encaps(pk),
        "decaps": lambda: scheme.decaps(sk, ct),
    }


def _bytes_sig(scheme: Any) -> Ops:
    pk, sk = scheme.keygen()
    s = scheme.sign(sk, MESSAGE)
    return {
        "keypair": scheme.keygen,
        "sign": lambda: scheme.sign(sk, MESSAGE),
        "verify": lambda: scheme.verify(pk, MESSAGE, s),
    }


def _mlkem_rust() -> Peer:
    # benchmarks/mlkem.py shadows the package when this script runs from its folder:
    # import the installed one with this folder off the path.
    here = Path(__file__).resolve().parent
    saved = sys.path[:]
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]
    sys.modules.pop("mlkem", None)
    try:
        module: Any = importlib.import_module("mlkem")
    finally:
        sys.path[:] = saved
    ML_KEM, ParameterSet = module.ML_KEM, module.ParameterSet

    def kem(name: str) -> Ops | None:
        if name not in ("ML-KEM-512", "ML-KEM-768", "ML-KEM-1024"):
            return None
        scheme = ML_KEM(getattr(ParameterSet, name.replace("-", "_")))
        ek, dk = scheme.key_gen()
        _, ct = scheme.encaps(ek)
        return {
            "keygen": scheme.key_gen,
            "encaps": lambda: scheme.encaps(ek),
            "decaps": lambda: scheme.decaps(dk, ct),
        }

    return Peer(f"mlkem {_version('mlkem')} (Rust)", kem, _none)


def _kyber_py() -> Peer:
    from kyber_py import kyber, ml_kem

    def kem(name: str) -> Ops | None:
        scheme = getattr(ml_kem, name.replace("-", "_"), None) or getattr(kyber, name, None)
        return None if scheme is None else _bytes_kem(scheme)

    return Peer(f"kyber-py {_version('kyber-py')} (pure Python)", kem, _none)


def _dilithium_py() -> Peer:
    from dilithium_py import dilithium, ml_dsa

    def sig(name: str) -> Ops | None:
        scheme = getattr(ml_dsa, name.replace("-", "_"), None) or getattr(dilithium, name, None)
        return None if scheme is None else _bytes_sig(scheme)

    return Peer(f"dilithium-py {_version('dilithium-py')} (pure Python)", _none, sig)


# --- optional: pqcrypto, liboqs-python ----------------------------------------------------


def _pqcrypto() -> Peer:
    importlib.import_module("pqcrypto")

    def module(kind: str, name: str) -> Any:
        try:
            return importlib.import_module(f"pqcrypto.{kind}.{name.lower().replace('-', '_')}")
        except ImportError:
            return None

    def kem(name: str) -> Ops | None:
        m = module("kem", name)
        if m is None:
            return None
        # pqcrypto >= 1.0: keygen / encaps -> (ct, ss) / decaps; 0.x: generate_keypair /
        # encrypt / decrypt.
        keygen = getattr(m, "keygen", None) or m.generate_keypair
        encaps = getattr(m, "encaps", None) or m.encrypt
        decaps = getattr(m, "decaps", None) or m.decrypt
        pk, sk = keygen()
        ct, _ = encaps(pk)
        return {
            "keygen": keygen,
            "encaps": lambda: encaps(pk),
            "decaps": lambda: decaps(sk, ct),
        }

    def sig(name: str) -> Ops | None:
        m = module("sign", name)
        if m is None:
            return None
        keygen = getattr(m, "keygen", None) or m.generate_keypair
        pk, sk = keygen()
        s = m.sign(sk, MESSAGE)
        return {
            "keypair": keygen,
            "sign": lambda: m.sign(sk, MESSAGE),
            "verify": lambda: m.verify(pk, MESSAGE, s),
        }

    return Peer(f"pqcrypto {_version('pqcrypto')}", kem, sig)


def _oqs() -> Peer:
    if importlib.util.find_spec("oqs") is None:
        raise ImportError("No module named 'oqs'")
    if ctypes.util.find_library("oqs") is None:
        raise ImportError("the liboqs shared library is not installed")
    oqs: Any = importlib.import_module("oqs")

    def kem(name: str) -> Ops | None:
        if name not in oqs.get_enabled_kem_mechanisms():
            return None
        client, server = oqs.KeyEncapsulation(name), oqs.KeyEncapsulation(name)
        pk = server.generate_keypair()
        ct, _ = client.encap_secret(pk)
        return {
            "keygen": server.generate_keypair,
            "encaps": lambda: client.encap_secret(pk),
            "decaps": lambda: server.decap_secret(ct),
        }

    def sig(name: str) -> Ops | None:
        if name not in oqs.get_enabled_sig_mechanisms():
            return None
        signer, verifier = oqs.Signature(name), oqs.Signature(name)
        pk = signer.generate_keypair()
        s = signer.sign(MESSAGE)
        return {
            "keypair": signer.generate_keypair,
            "sign": lambda: signer.sign(MESSAGE),
            "verify": lambda: verifier.verify(MESSAGE, s, pk),
        }

    return Peer(f"liboqs-python {_version('liboqs-python')}", kem, sig)


PEERS: dict[str, Callable[[], Peer]] = {
    "cryptography": _cryptography,
    "pycryptodome": _pycryptodome,
    "mlkem": _mlkem_rust,
    "kyber-py": _kyber_py,
    "dilithium-py": _dilithium_py,
    "pqcrypto": _pqcrypto,
    "liboqs-python": _oqs,
}


def _table(
    algorithm: str,
    ops: tuple[str, ...],
    medians: dict[str, dict[str, float]],
    reference: str | None,
) -> list[str]:
    lines = [f"### {algorithm}", "", "Median time per operation (us):", ""]
    lines += markdown_table(
        ["Library", *ops],
        [[label, *(f"{m[op] / 1e3:.1f}" for op in ops)] for label, m in medians.items()],
    )
    if reference is not None and len(medians) > 1:
        ours = medians[reference]
        lines += ["", "pqkit time / peer time (below 1: pqkit is faster):", ""]
        lines += markdown_table(
            ["Peer", *ops],
            [
                [label, *(f"{ours[op] / m[op]:.2f}" for op in ops)]
                for label, m in medians.items()
                if label != reference
            ],
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kem", nargs="*", default=["ML-KEM-768"], metavar="ALG")
    parser.add_argument("--sig", nargs="*", default=["ML-DSA-65"], metavar="ALG")
    parser.add_argument(
        "--duration", type=float, default=1.0, help="seconds per operation (default: 1)"
    )
    parser.add_argument(
        "--peers", nargs="*", choices=list(PEERS), default=list(PEERS), metavar="PEER"
    )
    parser.add_argument("--no-config", action="store_true", help="omit the configuration block")
    parser.add_argument("--no-numpy", action="store_true", help="omit the pqkit numpy-only row")
    args = parser.parse_args(argv)

    peers: list[Peer] = [_pqkit()]
    if not args.no_numpy:
        peers.append(_pqkit("numpy"))
    notes: list[str] = []
    for name in args.peers:
        try:
            peers.append(PEERS[name]())
        except ImportError as exc:
            notes.append(f"- {name}: skipped ({exc})")

    out: list[str] = [] if args.no_config else [*format_configuration(configuration()), ""]
    for kind, algorithms, ops in (("kem", args.kem, KEM_OPS), ("sig", args.sig, SIG_OPS)):
        for algorithm in algorithms:
            medians: dict[str, dict[str, float]] = {}
            for peer in peers:
                build = peer.kem if kind == "kem" else peer.sig
                if build is _none:  # a KEM-only or signature-only library
                    continue
                operations = build(algorithm)
                if operations is None:
                    notes.append(f"- {peer.label}: no {algorithm}")
                    continue
                medians[peer.label] = {}
                for op in ops:
                    print(f"timing {peer.label} {algorithm} {op} ...", file=sys.stderr)
                    stats = measure(operations[op], args.duration)
                    medians[peer.label][op] = stats.median_ns
            reference = peers[0].label if peers[0].label in medians else None
            out += [*_table(algorithm, ops, medians, reference), ""]
    if notes:
        out += ["Notes:", "", *notes, ""]
    print("\n".join(out).rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
