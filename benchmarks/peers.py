"""pqkit against the other Python libraries a user could pick instead, in one process.

    python benchmarks/peers.py                      # ML-KEM-768 and ML-DSA-65, 1 s per operation
    python benchmarks/peers.py --kem ML-KEM-512 Kyber768 --sig ML-DSA-87 --duration 3

pqkit runs three times: its byte API as a user gets it (the automatic backend
selection, after its background jit warm-up: ``jit`` where numba is installed),
its key objects (same backend), and its byte API bound to ``numpy`` (what a user
without numba gets). Peers: cryptography (OpenSSL: its key objects, and
``cryptography-bytes``, keys parsed from bytes in every timed call), pycryptodome,
mlkem (Rust), kyber-py, dilithium-py, and where
installed pqcrypto and liboqs-python (``oqs``, only when the liboqs shared library
is already present: importing ``oqs`` without it would try to build liboqs). Peers
that are not installed, or lack an algorithm, are skipped with a note.

Prints Markdown: per algorithm, the median microseconds per operation of each
library, then the ratio pqkit time / peer time (below 1: pqkit is faster). Every
figure comes from :func:`pqkit.bench.timing.measure`, the loop ``pqkit speed``
uses, so the numbers are comparable with its tables. Not run by CI.

Keys: by default every encapsulation, decapsulation, signature and verification
meets a fresh key, cycling through ``pqkit.bench.keyring.KEY_RING`` (64) key pairs
made beforehand for every library (twice the largest cache of decoded keys in
pqkit; what a TLS handshake or a C benchmark sees), and the same operations with
one key reused follow in columns labelled ``(one key)`` (``--keys fresh|one|both``).
Each library's keys are what it hands out: key objects for cryptography and
pycryptodome, and for the "pqkit key objects" row (pqkit's pyca-shaped classes,
the like-for-like comparison with those two), bytes for pqkit's scheme API and the
others; parsing keys from bytes is not timed for any library. pycryptodome 4.4 has
no public encapsulation call, so its ``_encaps`` / ``_decaps`` methods are used.
"""

from __future__ import annotations

import argparse
import ctypes.util
import importlib
import importlib.metadata
import importlib.util
import operator
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pqkit
from pqkit.bench.config import configuration, format_configuration
from pqkit.bench.keyring import KEY_RING, ONE_KEY, cycling
from pqkit.bench.report import markdown_table
from pqkit.bench.timing import measure

MESSAGE = bytes(range(50))  # as pqkit speed sig (liboqs's speed_sig length)
KEM_OPS = ("keygen", "encaps", "decaps")
SIG_OPS = ("keypair", "sign", "verify")
KEYS = ("both", "fresh", "one")

Ops = dict[str, Callable[[], object]]


@dataclass
class KemApi:
    """One library's KEM, as it is used: ``keygen`` is timed; ``pair`` makes a key
    pair in the library's own form (key objects or bytes) for the timed calls;
    ``encaps(public)`` and ``decaps(secret, ct)`` are timed; ``ciphertext`` takes
    the ciphertext out of what ``encaps`` returned (set-up only)."""

    keygen: Callable[[], object]
    pair: Callable[[], tuple[Any, Any]]
    encaps: Callable[[Any], Any]
    decaps: Callable[[Any, Any], object]
    ciphertext: Callable[[Any], Any] = operator.itemgetter(1)


@dataclass
class SigApi:
    """One library's signature scheme: ``keygen`` timed; ``pair`` makes (public,
    secret) in the library's form; ``sign(secret)`` and ``verify(public, sig)`` of
    :data:`MESSAGE` timed."""

    keygen: Callable[[], object]
    pair: Callable[[], tuple[Any, Any]]
    sign: Callable[[Any], Any]
    verify: Callable[[Any, Any], object]


@dataclass
class Peer:
    """A library: its label, and its KEM / signature scheme per algorithm name
    (None when the library lacks the algorithm)."""

    label: str
    kem: Callable[[str], KemApi | None]
    sig: Callable[[str], SigApi | None]


def _none(_name: str) -> Any:
    return None


def _version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def _columns(ops: tuple[str, ...], keys: str) -> list[str]:
    """The timed columns: key generation, then the fresh-key operations and the
    one-key ones as ``keys`` asks."""
    fresh = list(ops[1:]) if keys != "one" else []
    one = [f"{op} ({ONE_KEY})" for op in ops[1:]] if keys != "fresh" else []
    return [ops[0], *fresh, *one]


def kem_ops(api: KemApi, ring: int = KEY_RING) -> Ops:
    """The timed calls of one library's KEM: encaps and decaps with a fresh key every
    call (cycling through ``ring`` key pairs, each with its own ciphertext), and the
    same with one key reused (``(one key)``)."""
    keyring = []
    for _ in range(ring):
        public, secret = api.pair()
        keyring.append((public, secret, api.ciphertext(api.encaps(public))))
    fresh, one = cycling(keyring), cycling(keyring[:1])
    return {
        "keygen": api.keygen,
        "encaps": lambda: api.encaps(fresh()[0]),
        "decaps": lambda: api.decaps(*fresh()[1:]),
        f"encaps ({ONE_KEY})": lambda: api.encaps(one()[0]),
        f"decaps ({ONE_KEY})": lambda: api.decaps(*one()[1:]),
    }


def sig_ops(api: SigApi, ring: int = KEY_RING) -> Ops:
    """The timed calls of one library's signature scheme: sign and verify with a
    fresh key every call (cycling through ``ring`` key pairs, each with its own
    signature), and the same with one key reused (``(one key)``)."""
    keyring = []
    for _ in range(ring):
        public, secret = api.pair()
        keyring.append((public, secret, api.sign(secret)))
    fresh, one = cycling(keyring), cycling(keyring[:1])
    return {
        "keypair": api.keygen,
        "sign": lambda: api.sign(fresh()[1]),
        "verify": lambda: _verify(api, fresh()),
        f"sign ({ONE_KEY})": lambda: api.sign(one()[1]),
        f"verify ({ONE_KEY})": lambda: _verify(api, one()),
    }


def _verify(api: SigApi, entry: tuple[Any, Any, Any]) -> object:
    return api.verify(entry[0], entry[2])


# --- pqkit ------------------------------------------------------------------------


def _pqkit_wait(arith: str | None) -> None:
    from pqkit.arith import auto

    if arith is None and not auto.explicit():
        pqkit.arith.kernels("mlkem")  # starts the background warm-up if needed
        auto.wait(families=("mlkem", "mldsa"))  # the groups timed here, no others


def _pqkit(arith: str | None = None) -> Peer:
    """pqkit's byte API as a user gets it (``arith`` None: the automatic selection,
    after its background warm-up has finished, so one backend runs every timed call),
    or bound to one backend (``"numpy"``: what a user without numba gets)."""

    def bound(scheme: Any) -> Any:
        return scheme if arith is None else scheme.using(arith=arith)

    def kem(name: str) -> KemApi | None:
        try:
            scheme = bound(pqkit.kem(name))
        except pqkit.UnknownAlgorithm:
            return None
        return KemApi(scheme.keygen, scheme.keygen, scheme.encaps, scheme.decaps)

    def sig(name: str) -> SigApi | None:
        try:
            scheme = bound(pqkit.sig(name))
        except pqkit.UnknownAlgorithm:
            return None
        return SigApi(
            scheme.keygen,
            scheme.keygen,
            lambda sk: scheme.sign(sk, MESSAGE),
            lambda pk, s: scheme.verify(pk, MESSAGE, s),
        )

    _pqkit_wait(arith)
    config = configuration()
    sha3 = config["sha3"].split()[0]
    which = "default: " + pqkit.arith.active() if arith is None else f"{arith} only"
    return Peer(f"pqkit {pqkit.__version__} ({which}, SHA-3: {sha3})", kem, sig)


def _key_class(module: Any, name: str, family: str) -> Any:
    """``module.<family><set>PrivateKey`` for ``name`` = ``<family with a dash>-<set>``
    (``MLKEM768PrivateKey`` for ML-KEM-768), or None."""
    prefix = family.replace("ML", "ML-", 1) + "-"
    if not name.startswith(prefix):
        return None
    return getattr(module, f"{family}{name.removeprefix(prefix)}PrivateKey", None)


def _pyca_kem(module: Any) -> Callable[[str], KemApi | None]:
    """A KEM of key objects in pyca's shape (pyca/cryptography's and pqkit's):
    ``generate()``, ``public_key()``, ``encapsulate()``, ``decapsulate(ct)``."""

    def kem(name: str) -> KemApi | None:
        cls = _key_class(module, name, "MLKEM")
        if cls is None:
            return None

        def pair() -> tuple[Any, Any]:
            sk = cls.generate()
            return sk.public_key(), sk

        return KemApi(
            cls.generate, pair, lambda pk: pk.encapsulate(), lambda sk, ct: sk.decapsulate(ct)
        )

    return kem


def _pyca_sig(module: Any) -> Callable[[str], SigApi | None]:
    """A signature scheme of key objects in pyca's shape: ``generate()``,
    ``public_key()``, ``sign(msg)``, ``verify(sig, msg)`` (raises if bad)."""

    def sig(name: str) -> SigApi | None:
        cls = _key_class(module, name, "MLDSA")
        if cls is None:
            return None

        def pair() -> tuple[Any, Any]:
            sk = cls.generate()
            return sk.public_key(), sk

        return SigApi(
            cls.generate, pair, lambda sk: sk.sign(MESSAGE), lambda pk, s: pk.verify(s, MESSAGE)
        )

    return sig


def _pqkit_keys() -> Peer:
    """pqkit's key objects (the pyca shape), on the automatic backend."""
    _pqkit_wait(None)
    label = f"pqkit {pqkit.__version__} key objects (default: {pqkit.arith.active()})"
    return Peer(label, _pyca_kem(pqkit), _pyca_sig(pqkit))


# --- pyca/cryptography --------------------------------------------------------------


def _cryptography() -> Peer:
    from cryptography.hazmat.backends.openssl.backend import backend
    from cryptography.hazmat.primitives.asymmetric import mldsa, mlkem

    openssl = backend.openssl_version_text().split()[1]
    return Peer(
        f"cryptography {_version('cryptography')} (OpenSSL {openssl}) key objects",
        _pyca_kem(mlkem),
        _pyca_sig(mldsa),
    )


def _cryptography_bytes() -> Peer:
    """pyca/cryptography with keys as bytes: every timed call parses its key first
    (``from_public_bytes`` / ``from_seed_bytes``), as a server holding encoded keys
    does and as the C benchmarks and pqkit's byte API do."""
    from cryptography.hazmat.backends.openssl.backend import backend
    from cryptography.hazmat.primitives.asymmetric import mldsa, mlkem

    def kem(name: str) -> KemApi | None:
        cls = _key_class(mlkem, name, "MLKEM")
        if cls is None:
            return None
        public = getattr(mlkem, cls.__name__.replace("Private", "Public"))

        def pair() -> tuple[Any, Any]:
            sk = cls.generate()
            return sk.public_key().public_bytes_raw(), sk.private_bytes_raw()

        return KemApi(
            cls.generate,
            pair,
            lambda pk: public.from_public_bytes(pk).encapsulate(),
            lambda seed, ct: cls.from_seed_bytes(seed).decapsulate(ct),
        )

    def sig(name: str) -> SigApi | None:
        cls = _key_class(mldsa, name, "MLDSA")
        if cls is None:
            return None
        public = getattr(mldsa, cls.__name__.replace("Private", "Public"))

        def pair() -> tuple[Any, Any]:
            sk = cls.generate()
            return sk.public_key().public_bytes_raw(), sk.private_bytes_raw()

        return SigApi(
            cls.generate,
            pair,
            lambda seed: cls.from_seed_bytes(seed).sign(MESSAGE),
            lambda pk, s: public.from_public_bytes(pk).verify(s, MESSAGE),
        )

    openssl = backend.openssl_version_text().split()[1]
    return Peer(f"cryptography {_version('cryptography')} (OpenSSL {openssl}) from bytes", kem, sig)


# --- pycryptodome ---------------------------------------------------------------------


def _pycryptodome() -> Peer:
    from Crypto.PublicKey import MLDSA, MLKEM
    from Crypto.Signature import mldsa

    def kem(name: str) -> KemApi | None:
        param_set = getattr(MLKEM.ParamSet, name.replace("-", "_"), None)
        if param_set is None:
            return None

        def pair() -> tuple[Any, Any]:
            key: Any = MLKEM.generate(param_set=param_set)
            return key, key  # one object; pycryptodome 4.4+ has no public encapsulate

        return KemApi(
            lambda: MLKEM.generate(param_set=param_set),
            pair,
            lambda key: key._encaps(),
            lambda key, ct: key._decaps(ct),
        )

    def sig(name: str) -> SigApi | None:
        param_set = getattr(MLDSA.ParamSet, name.replace("-", "_"), None)
        if param_set is None:
            return None

        def pair() -> tuple[Any, Any]:
            key: Any = MLDSA.generate(param_set=param_set)
            return mldsa.new(key.public_key()), mldsa.new(key)  # (verifier, signer)

        return SigApi(
            lambda: MLDSA.generate(param_set=param_set),
            pair,
            lambda signer: signer.sign(MESSAGE),
            lambda verifier, s: verifier.verify(MESSAGE, s),
        )

    return Peer(f"pycryptodome {_version('pycryptodome')} key objects", kem, sig)


# --- kyber-py / dilithium-py (pure Python) ----------------------------------------------


def _bytes_kem(scheme: Any) -> KemApi:
    return KemApi(scheme.keygen, scheme.keygen, scheme.encaps, scheme.decaps)


def _bytes_sig(scheme: Any) -> SigApi:
    return SigApi(
        scheme.keygen,
        scheme.keygen,
        lambda sk: scheme.sign(sk, MESSAGE),
        lambda pk, s: scheme.verify(pk, MESSAGE, s),
    )


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

    def kem(name: str) -> KemApi | None:
        if name not in ("ML-KEM-512", "ML-KEM-768", "ML-KEM-1024"):
            return None
        scheme = ML_KEM(getattr(ParameterSet, name.replace("-", "_")))
        return KemApi(scheme.key_gen, scheme.key_gen, scheme.encaps, scheme.decaps)

    return Peer(f"mlkem {_version('mlkem')} (Rust)", kem, _none)


def _kyber_py() -> Peer:
    from kyber_py import kyber, ml_kem

    def kem(name: str) -> KemApi | None:
        scheme = getattr(ml_kem, name.replace("-", "_"), None) or getattr(kyber, name, None)
        return None if scheme is None else _bytes_kem(scheme)

    return Peer(f"kyber-py {_version('kyber-py')} (pure Python)", kem, _none)


def _dilithium_py() -> Peer:
    from dilithium_py import dilithium, ml_dsa

    def sig(name: str) -> SigApi | None:
        scheme = getattr(ml_dsa, name.replace("-", "_"), None) or getattr(dilithium, name, None)
        return None if scheme is None else _bytes_sig(scheme)

    return Peer(f"dilithium-py {_version('dilithium-py')} (pure Python)", _none, sig)


# --- optional: pqcrypto, liboqs-python ----------------------------------------------------


PQCRYPTO_NAMES = {
    "HQC-1": "hqc_128",
    "HQC-3": "hqc_192",
    "HQC-5": "hqc_256",
    "sntrup761": "sntrup_761",
}
"""pqcrypto's module names where they are not ours lower-cased with '_' for '-'."""


def _pqcrypto() -> Peer:
    importlib.import_module("pqcrypto")

    def module(kind: str, name: str) -> Any:
        stem = PQCRYPTO_NAMES.get(name, name.lower().replace("-", "_"))
        try:
            return importlib.import_module(f"pqcrypto.{kind}.{stem}")
        except ImportError:
            return None

    def kem(name: str) -> KemApi | None:
        m = module("kem", name)
        if m is None:
            return None
        # pqcrypto >= 1.0: keygen / encaps -> (ct, ss) / decaps; 0.x: generate_keypair /
        # encrypt / decrypt.
        keygen = getattr(m, "keygen", None) or m.generate_keypair
        encaps = getattr(m, "encaps", None) or m.encrypt
        decaps = getattr(m, "decaps", None) or m.decrypt
        return KemApi(keygen, keygen, encaps, decaps, ciphertext=operator.itemgetter(0))

    def sig(name: str) -> SigApi | None:
        m = module("sign", name)
        if m is None:
            return None
        keygen = getattr(m, "keygen", None) or m.generate_keypair
        return SigApi(
            keygen, keygen, lambda sk: m.sign(sk, MESSAGE), lambda pk, s: m.verify(pk, MESSAGE, s)
        )

    return Peer(f"pqcrypto {_version('pqcrypto')}", kem, sig)


def _oqs() -> Peer:
    if importlib.util.find_spec("oqs") is None:
        raise ImportError("No module named 'oqs'")
    if ctypes.util.find_library("oqs") is None:
        raise ImportError("the liboqs shared library is not installed")
    oqs: Any = importlib.import_module("oqs")

    def kem(name: str) -> KemApi | None:
        if name not in oqs.get_enabled_kem_mechanisms():
            return None
        client, keygen = oqs.KeyEncapsulation(name), oqs.KeyEncapsulation(name)

        def pair() -> tuple[Any, Any]:
            server = oqs.KeyEncapsulation(name)  # holds its secret key
            return server.generate_keypair(), server

        return KemApi(
            keygen.generate_keypair,
            pair,
            client.encap_secret,
            lambda server, ct: server.decap_secret(ct),
            ciphertext=operator.itemgetter(0),
        )

    def sig(name: str) -> SigApi | None:
        if name not in oqs.get_enabled_sig_mechanisms():
            return None
        verifier, keygen = oqs.Signature(name), oqs.Signature(name)

        def pair() -> tuple[Any, Any]:
            signer = oqs.Signature(name)  # holds its secret key
            return signer.generate_keypair(), signer

        return SigApi(
            keygen.generate_keypair,
            pair,
            lambda signer: signer.sign(MESSAGE),
            lambda pk, s: verifier.verify(MESSAGE, s, pk),
        )

    return Peer(f"liboqs-python {_version('liboqs-python')}", kem, sig)


PEERS: dict[str, Callable[[], Peer]] = {
    "cryptography": _cryptography,
    "cryptography-bytes": _cryptography_bytes,
    "pycryptodome": _pycryptodome,
    "mlkem": _mlkem_rust,
    "kyber-py": _kyber_py,
    "dilithium-py": _dilithium_py,
    "pqcrypto": _pqcrypto,
    "liboqs-python": _oqs,
}


def _table(
    algorithm: str,
    columns: list[str],
    medians: dict[str, dict[str, float]],
    reference: str | None,
) -> list[str]:
    lines = [
        f"### {algorithm}",
        "",
        f"Median time per operation (us); a fresh key on every call (cycling through "
        f"{KEY_RING} key pairs) except in the '({ONE_KEY})' columns, where one key is reused:",
        "",
    ]
    lines += markdown_table(
        ["Library", *columns],
        [[label, *(f"{m[op] / 1e3:.1f}" for op in columns)] for label, m in medians.items()],
    )
    if reference is not None and len(medians) > 1:
        ours = medians[reference]
        lines += ["", "pqkit time / peer time (below 1: pqkit is faster):", ""]
        lines += markdown_table(
            ["Peer", *columns],
            [
                [label, *(f"{ours[op] / m[op]:.2f}" for op in columns)]
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
    parser.add_argument(
        "--keys",
        choices=KEYS,
        default="both",
        help=f"fresh: a new key every call (cycling through {KEY_RING} key pairs); one: one "
        "key reused; both (default): the fresh-key columns, then the one-key columns",
    )
    parser.add_argument("--no-config", action="store_true", help="omit the configuration block")
    parser.add_argument("--no-numpy", action="store_true", help="omit the pqkit numpy-only row")
    parser.add_argument(
        "--no-key-objects", action="store_true", help="omit the pqkit key-objects row"
    )
    args = parser.parse_args(argv)

    peers: list[Peer] = [_pqkit()]
    if not args.no_key_objects:
        peers.append(_pqkit_keys())
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
        columns = _columns(ops, args.keys)
        for algorithm in algorithms:
            medians: dict[str, dict[str, float]] = {}
            for peer in peers:
                api: Any = (peer.kem if kind == "kem" else peer.sig)(algorithm)
                if api is None:
                    if (peer.kem if kind == "kem" else peer.sig) is not _none:
                        notes.append(f"- {peer.label}: no {algorithm}")
                    continue
                print(f"keys for {peer.label} {algorithm} ...", file=sys.stderr)
                ring = KEY_RING if args.keys != "one" else 1
                operations = kem_ops(api, ring) if kind == "kem" else sig_ops(api, ring)
                medians[peer.label] = {}
                for op in columns:
                    print(f"timing {peer.label} {algorithm} {op} ...", file=sys.stderr)
                    stats = measure(operations[op], args.duration)
                    medians[peer.label][op] = stats.median_ns
            reference = peers[0].label if peers[0].label in medians else None
            out += [*_table(algorithm, columns, medians, reference), ""]
    if notes:
        out += ["Notes:", "", *notes, ""]
    print("\n".join(out).rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
