"""``pqkit keygen``, ``pqkit pub``, ``pqkit show`` and ``pqkit list``: key files and
algorithms."""

from __future__ import annotations

import argparse
import hashlib
from typing import Any

from pqkit.cli.files import check_outputs, write_output
from pqkit.cli.loading import load_key, password_from

__all__ = ["cmd_keygen", "cmd_list", "cmd_pub", "cmd_show"]


def _passout(args: argparse.Namespace) -> bytes | None:
    legacy = getattr(args, "password_file", None)
    spec = getattr(args, "passout", None)
    if legacy is not None and spec is not None:
        raise ValueError("give --passout or --password-file, not both")
    return password_from(f"file:{legacy}" if legacy is not None else spec, "--passout")


def _private_bytes(key: Any, der: bool, form: str, secret: bytes | None) -> bytes:
    from pqkit.serialization import (
        BestAvailableEncryption,
        Encoding,
        NoEncryption,
        PrivateFormat,
    )

    encryption: Any = BestAvailableEncryption(secret) if secret else NoEncryption()
    encoding = Encoding.DER if der else Encoding.PEM
    data: bytes = key.private_bytes(encoding, PrivateFormat.PKCS8, encryption, form=form)
    return data


def _public_bytes(public: Any, der: bool) -> bytes:
    from pqkit.serialization import Encoding, PublicFormat

    encoding = Encoding.DER if der else Encoding.PEM
    data: bytes = public.public_bytes(encoding, PublicFormat.SubjectPublicKeyInfo)
    return data


def _raw_pem_keygen(args: argparse.Namespace, family: str) -> int:
    """``pqkit keygen`` for a scheme with no OID (a hybrid KEM, HQC, sntrup761, Classic
    McEliece, Falcon):
    raw private / public key PEM files (so no PKCS#8 form, no DER, no password)."""
    from pqkit.keys.falcon import falcon_private_key_class
    from pqkit.keys.hybrid import hybrid_private_key_class

    cls: Any = (
        falcon_private_key_class(args.algorithm)
        if family == "Falcon"
        else hybrid_private_key_class(args.algorithm)
    )
    if args.der or args.form != "seed" or args.passout or args.password_file:
        what = "raw-seed PEM" if cls.private_label.startswith("SEED") else "raw PEM"
        raise ValueError(
            f"{args.algorithm} key files are {what} blocks: "
            "--der, --form expanded/both and passwords are not available for them"
        )
    outputs = [args.out] + ([args.pub] if args.pub else [])
    check_outputs(outputs, args.force)
    key = cls.generate()
    write_output(args.out, key.private_bytes_pem(), secret=True, force=args.force, binary=False)
    if args.pub:
        pub = key.public_key().public_bytes_pem()
        write_output(args.pub, pub, secret=False, force=args.force, binary=False)
    return 0


def _batch_keygen(args: argparse.Namespace) -> int:
    """``pqkit keygen ALG --count N -o DIR``: N key pairs through the batch path,
    written as ``DIR/public_keys.npy`` and ``DIR/secret_keys.npy`` (mode 0600)."""
    import contextlib
    import os
    import time

    from pqkit import arith, batch, registry
    from pqkit.arith import auto
    from pqkit.cli.progress import Bar

    conflicting = [
        option
        for option, used in (
            ("--pub", args.pub),
            ("--der", args.der),
            ("--form", args.form != "seed"),
            ("--passout", args.passout),
            ("--password-file", args.password_file),
        )
        if used
    ]
    if conflicting:
        raise ValueError(
            f"--count writes raw .npy key files: {', '.join(conflicting)} do not apply"
        )
    if args.out == "-":
        raise ValueError("--count needs -o DIR (a directory), not standard output")
    scheme = registry.algorithm(args.algorithm).scheme()
    names = ["public_keys.npy", "secret_keys.npy"] + (["seeds.npy"] if args.seeds else [])
    check_outputs([os.path.join(args.out, name) for name in names], args.force)
    scope = arith.use(args.arith) if args.arith else contextlib.nullcontext()
    start = time.perf_counter()
    with scope, Bar(args.count, f"keygen {scheme.name}", unit="key", show=not args.quiet) as bar:
        batch.write_keypairs(
            scheme,
            args.count,
            args.out,
            workers=args.workers,
            seeds=args.seeds,
            progress=bar.update,
        )
    seconds = time.perf_counter() - start
    # Say so when the batch ran vectorised because its compiled kernels were still
    # being built in the background (pqkit.arith.ops.batch_operations_now).
    remark = auto.note(f"{scheme.KERNELS}-batch") if scheme.KERNELS else ""
    print(
        f"wrote {args.count} {scheme.name} key pairs to {args.out} ({', '.join(names)}) "
        f"in {seconds:.1f} s{remark}"
    )
    return 0


def cmd_keygen(args: argparse.Namespace) -> int:
    """``pqkit keygen ALG -o KEY [--pub PUB]``, or ``--count N -o DIR``."""
    from pqkit import registry
    from pqkit.cli import stateful
    from pqkit.keys import private_key_class
    from pqkit.serialization.algorithms import by_name

    try:
        if registry.algorithm(args.algorithm).stateful:
            return stateful.keygen(args)
    except KeyError:
        pass  # a key-file name or an unknown one: answered below
    if args.count is not None:
        try:
            return _batch_keygen(args)
        except KeyError as exc:  # UnknownAlgorithm: keep its full message
            raise ValueError(str(exc)) from None
    if args.seeds or args.arith or args.workers or args.quiet:
        raise ValueError("--seeds, --arith, --workers and --quiet go with --count")
    try:
        # a key-file name (the pre-hash OIDs' "HashML-DSA-65" ...) or a registry one
        if by_name(args.algorithm) is None:
            family = registry.algorithm(args.algorithm).family
            if family in ("hybrid", "Falcon", "HQC", "sntrup", "Classic McEliece"):
                return _raw_pem_keygen(args, family)
        cls = private_key_class(args.algorithm)
    except KeyError as exc:  # UnknownAlgorithm: keep its full message
        raise ValueError(str(exc)) from None
    if cls.algorithm.single_form and args.form != "seed":
        raise ValueError(
            f"{cls.algorithm.name} private keys have a single form (the whole secret "
            "key); --form does not apply"
        )
    outputs = [args.out] + ([args.pub] if args.pub else [])
    check_outputs(outputs, args.force)
    secret = _passout(args)
    key = cls.generate()
    data = _private_bytes(key, args.der, args.form, secret)
    write_output(args.out, data, secret=True, force=args.force, binary=args.der)
    if args.pub:
        pub = _public_bytes(key.public_key(), args.der)
        write_output(args.pub, pub, secret=False, force=args.force, binary=args.der)
    return 0


def cmd_pub(args: argparse.Namespace) -> int:
    """``pqkit pub KEY [-o PUB]``: the public key of a private key file."""
    check_outputs([args.out], args.force, inputs=[args.key])
    loaded = load_key(args.key, args)
    public = loaded.key.public_key() if loaded.private else loaded.key
    data = _public_bytes(public, args.der) if not _is_hybrid(public) else _hybrid_pub(public, args)
    write_output(args.out, data, secret=False, force=args.force, binary=args.der)
    return 0


def _is_hybrid(key: Any) -> bool:
    return isinstance(key.algorithm, str) and not _is_falcon(key)


def _is_falcon(key: Any) -> bool:
    from pqkit.keys.falcon import FalconPrivateKey, FalconPublicKey

    return isinstance(key, (FalconPrivateKey, FalconPublicKey))


def _show_falcon(loaded: Any) -> int:
    """``pqkit show`` for a Falcon key file."""
    import pqkit

    key = loaded.key
    public = key.public_key() if loaded.private else key
    scheme = pqkit.sig(key.algorithm)
    kind = "private key (raw PEM)" if loaded.private else "public key (raw PEM)"
    lines = [
        ("algorithm", f"{key.algorithm} (Falcon round 3, no OID)"),
        ("type", kind),
        ("fingerprint", f"SHA256:{hashlib.sha256(public.public_bytes_raw()).hexdigest()}"),
        ("public key", f"{scheme.length_public_key} bytes"),
    ]
    if loaded.private:
        lines.append(("private key", f"{scheme.length_secret_key} bytes"))
    size = "" if scheme.params.padded else "at most "
    lines.append(("signature", f"{size}{scheme.length_signature} bytes"))
    for label, value in lines:
        print(f"{label + ':':<14}{value}")
    return 0


def _hybrid_pub(public: Any, args: argparse.Namespace) -> bytes:
    if args.der:
        raise ValueError("hybrid public keys are written as PEM blocks only (no --der)")
    data: bytes = public.public_bytes_pem()
    return data


def _show_hybrid(loaded: Any) -> int:
    """``pqkit show`` for a raw-PEM KEM key file (a hybrid KEM's, HQC's, sntrup761's,
    Classic McEliece's)."""
    import pqkit
    from pqkit import registry

    key = loaded.key
    public = key.public_key() if loaded.private else key
    scheme = pqkit.kem(key.algorithm)
    hybrid = registry.algorithm(key.algorithm).family == "hybrid"
    seed = loaded.private and key.private_label.startswith("SEED")  # sntrup761: the sk
    raw = "seed" if seed else "raw"
    kind = f"private key ({raw} PEM)" if loaded.private else "public key (raw PEM)"
    lines = [
        ("algorithm", f"{key.algorithm} ({'hybrid ' if hybrid else ''}KEM, no OID)"),
        ("type", kind),
        ("fingerprint", f"SHA256:{hashlib.sha256(public.public_bytes_raw()).hexdigest()}"),
        ("public key", f"{scheme.length_public_key} bytes"),
    ]
    if loaded.private:
        lines.append(("seed" if seed else "secret key", f"{len(key.private_bytes_raw())} bytes"))
    lines.append(("ciphertext", f"{scheme.length_ciphertext} bytes"))
    for label, value in lines:
        print(f"{label + ':':<14}{value}")
    return 0


_PREHASH_SPEC = {
    "ML-DSA": "FIPS 204 §5.4",
    "SLH-DSA": "FIPS 205 §10.2",
    "Composite-ML-DSA": "draft-ietf-lamps-pq-composite-sigs §2.1",
}
"""Where each family's pre-hash is specified (``pqkit show``)."""


def _fingerprint(public: Any) -> str:
    """SHA-256 of the DER SubjectPublicKeyInfo, hexadecimal (as ``openssl pkey -pubin
    -outform DER | sha256sum`` gives)."""
    return hashlib.sha256(_public_bytes(public, der=True)).hexdigest()


def cmd_show(args: argparse.Namespace) -> int:
    """``pqkit show KEY [-o OUT ...]``: describe a key file, or convert it."""
    from pqkit.cli import stateful

    if stateful.is_key_file(args.key):
        return stateful.show(args)
    from pqkit.cli import x509

    if x509.is_x509_file(args.key):
        if args.out is not None:
            raise ValueError("pqkit show -o converts key files; certificates are shown only")
        return x509.show(args.key)
    converting = args.out is not None
    if converting:
        check_outputs([args.out], args.force, inputs=[args.key])
    elif args.form or args.der or args.passout or args.no_password or args.pubout:
        raise ValueError("--der, --form, --pubout, --passout and --no-password need -o OUT")
    if args.passout and args.no_password:
        raise ValueError("give --passout or --no-password, not both")
    loaded = load_key(args.key, args)
    key = loaded.key
    if _is_hybrid(key):
        if converting:
            raise ValueError("hybrid key files have one form; there is nothing to convert")
        return _show_hybrid(loaded)
    if _is_falcon(key):
        if converting:
            raise ValueError("Falcon key files have one form; there is nothing to convert")
        return _show_falcon(loaded)
    public = key.public_key() if loaded.private else key
    alg = key.algorithm
    if not converting:
        kind = "private key (PKCS#8)" if loaded.private else "public key (SubjectPublicKeyInfo)"
        lines = [
            ("algorithm", f"{alg.name} (OID {alg.oid})"),
            ("type", kind + (", password-encrypted" if loaded.encrypted else "")),
        ]
        if alg.prehash is not None:
            spec = _PREHASH_SPEC[alg.family]
            lines.append(("pre-hash", f"{alg.prehash}, bound by the OID ({spec})"))
        single_form = alg.single_form
        if loaded.private:
            if alg.composite:
                raw = "composite: ML-x seed || traditional key"
            else:
                raw = "RFC 9909 raw sk" if alg.family == "SLH-DSA" else "sk"
            form = f"single ({raw})" if single_form else str(loaded.form)
            lines.append(("form", form))
        lines += [
            ("fingerprint", f"SHA256:{_fingerprint(public)}"),
            ("public key", f"{len(public.public_bytes_raw())} bytes"),
        ]
        if loaded.private and single_form:
            lines.append(("private key", f"{len(key.private_bytes_raw())} bytes"))
        elif loaded.private:
            lines.append(("seed", f"{alg.seed_length} bytes"))
            lines.append(("expanded key", f"{alg.expanded_key_length} bytes"))
        what = "ciphertext" if alg.kind == "kem" else "signature"
        at_most = "at most " if alg.composite and alg.kind == "sig" else ""
        lines.append((what, f"{at_most}{alg.output_length} bytes"))
        for label, value in lines:
            print(f"{label + ':':<14}{value}")
        return 0
    if args.pubout or not loaded.private:
        if args.form or args.passout or args.no_password:
            raise ValueError("--form, --passout and --no-password apply to private keys")
        data = _public_bytes(public, args.der)
        write_output(args.out, data, secret=False, force=args.force, binary=args.der)
        return 0
    if loaded.encrypted and not (args.passout or args.no_password):
        raise ValueError(
            "the key is password-encrypted: give --passout to encrypt the output "
            "or --no-password to write it in clear"
        )
    secret = password_from(args.passout, "--passout")
    form = args.form or loaded.form or "seed"
    data = _private_bytes(key, args.der, form, secret)
    write_output(args.out, data, secret=True, force=args.force, binary=args.der)
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    """``pqkit list``: every algorithm, with its OID and sizes where key files exist, and
    the optional extra it needs (a note names those not installed here); last, the
    pre-hash OIDs (HashML-DSA, HashSLH-DSA) of the key files."""
    import pqkit
    from pqkit import registry
    from pqkit._extras import installed
    from pqkit.serialization.algorithms import ALGORITHMS, PREHASH_ALGORITHMS, by_name

    kems, sigs = pqkit.kems(), pqkit.sigs()
    names = [alg.name for alg in ALGORITHMS]
    names += [name for name in kems + sigs if name not in names]
    names += [alg.name for alg in PREHASH_ALGORITHMS]
    width = max(18, *(len(name) for name in names))
    print(
        f"{'Algorithm':<{width}} {'Type':<4} {'OID (key files)':<26} "
        f"{'pk':>5} {'sk':>5} {'ct/sig':>6}  Needs"
    )
    missing: dict[str, list[str]] = {}
    for name in names:
        alg = by_name(name)
        scheme_name = alg.parameter_set if alg is not None else name
        scheme: Any = None
        kind = "KEM" if scheme_name in kems else "SIG" if scheme_name in sigs else "-"
        if scheme_name in kems:
            scheme = pqkit.kem(scheme_name)
        elif scheme_name in sigs:
            scheme = pqkit.sig(scheme_name)
        if alg is not None:
            kind = alg.kind.upper()
            sizes = (alg.public_key_length, alg.expanded_key_length, alg.output_length)
        elif scheme is not None:
            out = getattr(scheme, "length_ciphertext", None) or scheme.length_signature
            sizes = (scheme.length_public_key, scheme.length_secret_key, out)
        oid = alg.oid if alg is not None else "-"
        extra = registry.algorithm(scheme_name).extra if scheme is not None else None
        if extra is not None and not installed(extra):
            missing.setdefault(extra, []).append(name)
        note = "" if scheme is not None else "  (not available in this build)"
        needs = extra or "-"
        print(
            f"{name:<{width}} {kind:<4} {oid:<26} {sizes[0]:>5} {sizes[1]:>5} {sizes[2]:>6}  "
            f"{needs}{note}"
        )
    for extra, listed in missing.items():
        print(
            f"\nnot installed here: the '{extra}' extra ({', '.join(listed)} need it): "
            f'pip install "pqkit[{extra}]"'
        )
    return 0
