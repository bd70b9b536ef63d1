"""``pqkit keygen``, ``pqkit pub`` and ``pqkit list``: key files and algorithms."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from pqkit.cli.files import check_free, write_file
from pqkit.cli.loading import load_private, password

__all__ = ["cmd_keygen", "cmd_list", "cmd_pub"]


def cmd_keygen(args: argparse.Namespace) -> int:
    """``pqkit keygen ALG -o KEY [--pub PUB]``."""
    from pqkit.keys import private_key_class
    from pqkit.serialization import (
        BestAvailableEncryption,
        Encoding,
        NoEncryption,
        PrivateFormat,
        PublicFormat,
    )

    try:
        cls = private_key_class(args.algorithm)
    except KeyError as exc:  # UnknownAlgorithm: keep its full message
        raise ValueError(str(exc)) from None
    outputs = [args.out] + ([args.pub] if args.pub else [])
    check_free(outputs, args.force)
    secret = password(args)
    encryption: Any = BestAvailableEncryption(secret) if secret else NoEncryption()
    encoding = Encoding.DER if args.der else Encoding.PEM
    key = cls.generate()
    data = key.private_bytes(encoding, PrivateFormat.PKCS8, encryption, form=args.form)
    write_file(args.out, data, secret=True, force=args.force)
    if args.pub:
        pub = key.public_key().public_bytes(encoding, PublicFormat.SubjectPublicKeyInfo)
        write_file(args.pub, pub, secret=False, force=args.force)
    return 0


def cmd_pub(args: argparse.Namespace) -> int:
    """``pqkit pub KEY [-o PUB]``: the public key of a private key file."""
    from pqkit.serialization import Encoding, PublicFormat

    if args.out:
        check_free([args.out], args.force)
    key = load_private(args.key, password(args))
    encoding = Encoding.DER if args.der else Encoding.PEM
    data = key.public_key().public_bytes(encoding, PublicFormat.SubjectPublicKeyInfo)
    if args.out:
        write_file(args.out, data, secret=False, force=args.force)
    elif args.der:
        raise ValueError("refusing to write DER to the terminal; use -o FILE")
    else:
        sys.stdout.write(data.decode("ascii"))
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    """``pqkit list``: every algorithm, with its OID and sizes where key files exist."""
    import pqkit
    from pqkit.serialization.algorithms import ALGORITHMS, by_name

    kems, sigs = pqkit.kems(), pqkit.sigs()
    names = [alg.name for alg in ALGORITHMS]
    names += [name for name in kems + sigs if name not in names]
    print(
        f"{'Algorithm':<16} {'Type':<4} {'OID (key files)':<26} {'pk':>5} {'sk':>5} {'ct/sig':>6}"
    )
    for name in names:
        alg = by_name(name)
        scheme: Any = None
        kind = "KEM" if name in kems else "SIG" if name in sigs else "-"
        if name in kems:
            scheme = pqkit.kem(name)
        elif name in sigs:
            scheme = pqkit.sig(name)
        if alg is not None:
            kind = "KEM" if alg.family == "ML-KEM" else "SIG"
            sizes = (alg.public_key_length, alg.expanded_key_length, alg.output_length)
        elif scheme is not None:
            out = getattr(scheme, "length_ciphertext", None) or scheme.length_signature
            sizes = (scheme.length_public_key, scheme.length_secret_key, out)
        oid = alg.oid if alg is not None else "-"
        note = "" if scheme is not None else "  (not available in this build)"
        print(f"{name:<16} {kind:<4} {oid:<26} {sizes[0]:>5} {sizes[1]:>5} {sizes[2]:>6}{note}")
    return 0
