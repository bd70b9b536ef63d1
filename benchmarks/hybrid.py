"""Hybrid KEMs and post-quantum HPKE: pqkit next to ML-KEM alone and pyca/cryptography.

Prints median microseconds per call. KEM rows: keygen (``keygen`` from a random
seed), encaps and decaps of X-Wing, MLKEM768-P256 and MLKEM1024-P384 against
pqkit's ML-KEM-768 / ML-KEM-1024 alone, and pyca/cryptography's ML-KEM where it has
one. HPKE rows: single-shot seal and open of 1 KiB (base mode, info "bench") with
pqkit's ``hpke.Suite`` and pyca's ``hpke.Suite`` for the suites both have. Run from
the repository root::

    PYTHONPATH=src python benchmarks/hybrid.py [--rounds 15] [--number 20]

The contenders of each row take turns round by round (``interleaved_medians`` of
benchmarks/mlkem.py), so the ratios within a row are comparable on a shared machine.
"""

from __future__ import annotations

import argparse
from typing import Any

from mlkem import interleaved_medians

import pqkit
from pqkit import hpke

KEMS = (
    ("X-Wing", "ML-KEM-768"),
    ("MLKEM768-P256", "ML-KEM-768"),
    ("MLKEM1024-P384", "ML-KEM-1024"),
)
SUITES = (
    ("MLKEM768", "HKDF_SHA256", "AES_128_GCM"),
    ("MLKEM768_X25519", "SHAKE256", "CHACHA20_POLY1305"),
    ("MLKEM1024_P384", "HKDF_SHA384", "AES_256_GCM"),
    ("MLKEM768_P256", "SHAKE128", "AES_256_GCM"),
    ("MLKEM768_X25519", "TURBOSHAKE256", "CHACHA20_POLY1305"),
)


def _pyca_mlkem(name: str) -> Any:
    try:
        from cryptography.hazmat.primitives.asymmetric import mlkem
    except ImportError:
        return None
    return mlkem.MLKEM768PrivateKey if name == "ML-KEM-768" else mlkem.MLKEM1024PrivateKey


def kem_rows(rounds: int, number: int) -> None:
    print(f"{'KEM (us, median)':<34} {'keygen':>9} {'encaps':>9} {'decaps':>9}")
    for hybrid, alone in KEMS:
        for name in (hybrid, alone):
            kem = pqkit.kem(name)
            pk, sk = kem.keygen()
            _, ct = kem.encaps(pk)
            times = interleaved_medians(
                [
                    (kem.keygen, number),
                    (lambda kem=kem, pk=pk: kem.encaps(pk), number),
                    (lambda kem=kem, sk=sk, ct=ct: kem.decaps(sk, ct), number),
                ],
                rounds,
            )
            print(f"{'pqkit ' + name:<34} " + " ".join(f"{t:9.1f}" for t in times))
        cls = _pyca_mlkem(alone)
        if cls is not None:
            key = cls.generate()
            public = key.public_key()
            _, ct = public.encapsulate()
            times = interleaved_medians(
                [
                    (cls.generate, number),
                    (public.encapsulate, number),
                    (lambda key=key, ct=ct: key.decapsulate(ct), number),
                ],
                rounds,
            )
            print(f"{'pyca ' + alone:<34} " + " ".join(f"{t:9.1f}" for t in times))


def hpke_rows(rounds: int, number: int) -> None:
    try:
        from cryptography.hazmat.primitives import hpke as pyca_hpke
    except ImportError:
        pyca_hpke = None
    message = bytes(1024)
    print(f"\n{'HPKE 1 KiB (us, median)':<58} {'seal':>9} {'open':>9}")
    for kem_name, kdf_name, aead_name in SUITES:
        suite = hpke.Suite(hpke.KEM[kem_name], hpke.KDF[kdf_name], hpke.AEAD[aead_name])
        pk, sk = suite.generate_key_pair()
        blob = suite.encrypt(message, pk, b"bench")
        times = interleaved_medians(
            [
                (lambda s=suite, pk=pk: s.encrypt(message, pk, b"bench"), number),
                (lambda s=suite, sk=sk, b=blob: s.decrypt(b, sk, b"bench"), number),
            ],
            rounds,
        )
        label = f"{kem_name}/{kdf_name}/{aead_name}"
        print(f"{'pqkit ' + label:<58} " + " ".join(f"{t:9.1f}" for t in times))
        theirs = _pyca_suite(pyca_hpke, kem_name, kdf_name, aead_name)
        if theirs is None:
            continue
        key = _pyca_key(kem_name)
        public = key.public_key()
        blob = theirs.encrypt(message, public, info=b"bench")
        times = interleaved_medians(
            [
                (lambda t=theirs, p=public: t.encrypt(message, p, info=b"bench"), number),
                (lambda t=theirs, k=key, b=blob: t.decrypt(b, k, info=b"bench"), number),
            ],
            rounds,
        )
        print(f"{'pyca  ' + label:<58} " + " ".join(f"{t:9.1f}" for t in times))


def _pyca_suite(pyca_hpke: Any, kem: str, kdf: str, aead: str) -> Any:
    if pyca_hpke is None:
        return None
    try:
        return pyca_hpke.Suite(
            getattr(pyca_hpke.KEM, kem), getattr(pyca_hpke.KDF, kdf), getattr(pyca_hpke.AEAD, aead)
        )
    except AttributeError:
        return None  # a KEM or KDF pyca does not have


def _pyca_key(kem: str) -> Any:
    from cryptography.hazmat.primitives import hpke as pyca_hpke
    from cryptography.hazmat.primitives.asymmetric import ec, mlkem, x25519

    if kem == "MLKEM768":
        return mlkem.MLKEM768PrivateKey.generate()
    if kem == "MLKEM768_X25519":
        return pyca_hpke.MLKEM768X25519PrivateKey(
            mlkem.MLKEM768PrivateKey.generate(), x25519.X25519PrivateKey.generate()
        )
    return pyca_hpke.MLKEM1024P384PrivateKey(
        mlkem.MLKEM1024PrivateKey.generate(), ec.generate_private_key(ec.SECP384R1())
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--number", type=int, default=20)
    args = parser.parse_args()
    kem_rows(args.rounds, args.number)
    hpke_rows(args.rounds, args.number)


if __name__ == "__main__":
    main()
