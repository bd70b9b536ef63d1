"""File-based ``pqkit`` commands: keygen, pub, encaps, decaps, sign, verify, list.

Keys are PKCS#8 / SubjectPublicKeyInfo files (RFC 9935, RFC 9881), PEM by default,
DER with ``--der``; either is read. Outputs are never overwritten without
``--force``; private keys and shared secrets are written with mode 0600.
``sign`` and ``verify`` stream the message through the ML-DSA mu hasher (or the
prehash function), so files of any size work in constant memory. Errors are one
line on stderr: ``pqkit.cli`` turns ValueError, TypeError, KeyError and OSError
into that and status 1; ``verify`` answers 0 (valid), 1 (invalid) or 2 (error).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

__all__ = ["CHUNK_SIZE", "register"]

CHUNK_SIZE = 1 << 20
"""Bytes read at a time from a message file."""

_HASHLIB_NAMES = {  # ACVP prehash name -> (hashlib name, digest length for SHAKE)
    "SHA2-224": ("sha224", None),
    "SHA2-256": ("sha256", None),
    "SHA2-384": ("sha384", None),
    "SHA2-512": ("sha512", None),
    "SHA2-512/224": ("sha512_224", None),
    "SHA2-512/256": ("sha512_256", None),
    "SHA3-224": ("sha3_224", None),
    "SHA3-256": ("sha3_256", None),
    "SHA3-384": ("sha3_384", None),
    "SHA3-512": ("sha3_512", None),
    "SHAKE-128": ("shake_128", 32),
    "SHAKE-256": ("shake_256", 64),
}


# --- files ------------------------------------------------------------------------------


def _read(path: str, what: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise OSError(f"{what} {path!r} does not exist") from None
    except IsADirectoryError:
        raise OSError(f"{what} {path!r} is a directory") from None


def _check_free(paths: list[str], force: bool) -> None:
    """Refuse (before doing any work) to overwrite existing outputs without --force."""
    seen: set[str] = set()
    for path in paths:
        resolved = os.path.realpath(path)
        if resolved in seen:
            raise ValueError(f"{path!r} is named for two outputs")
        seen.add(resolved)
        if not force and os.path.lexists(path):
            raise ValueError(f"{path!r} exists; use --force to overwrite it")


def _write(path: str, data: bytes, *, secret: bool, force: bool) -> None:
    """Write ``data`` to ``path``: mode 0600 if ``secret``, else 0644 less the umask."""
    mode = 0o600 if secret else 0o644
    if not force:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(path)
            raise
        return
    # --force: write a fresh file beside the target and rename it over, so the
    # target never holds a mix and a secret never inherits loose permissions.
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".pqkit-")
    try:
        if not secret:
            umask = os.umask(0)
            os.umask(umask)
            os.fchmod(fd, mode & ~umask)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def _open_message(path: str) -> Iterator[IO[bytes]]:
    if path == "-":
        yield sys.stdin.buffer
        return
    try:
        f = open(path, "rb")  # noqa: SIM115 - closed below
    except FileNotFoundError:
        raise OSError(f"message file {path!r} does not exist") from None
    with f:
        yield f


def stream_into(source: IO[bytes], sink: Any, chunk_size: int = CHUNK_SIZE) -> None:
    """Feed ``source`` to ``sink.update`` ``chunk_size`` bytes at a time."""
    while True:
        chunk = source.read(chunk_size)
        if not chunk:
            return
        sink.update(chunk)


def _password(args: argparse.Namespace) -> bytes | None:
    path = getattr(args, "password_file", None)
    if path is None:
        return None
    data = _read(path, "password file")
    line = data.split(b"\n", 1)[0].rstrip(b"\r")
    if not line:
        raise ValueError(f"password file {path!r} is empty")
    return line


def _is_pem(data: bytes) -> bool:
    return b"-----BEGIN " in data[:4096]


def _load_private(path: str, password: bytes | None) -> Any:
    from pqkit.keys.loaders import load_der_private_key, load_pem_private_key

    data = _read(path, "key file")
    loader = load_pem_private_key if _is_pem(data) else load_der_private_key
    try:
        return loader(data, password)
    except TypeError as exc:  # password given / missing: say how to fix it
        if password is None:
            raise ValueError(
                f"{path}: the private key is encrypted; give --password-file"
            ) from None
        raise ValueError(f"{path}: {exc}") from None
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None


def _load_public(path: str) -> Any:
    from pqkit.keys.loaders import load_der_public_key, load_pem_public_key

    data = _read(path, "public key file")
    try:
        return load_pem_public_key(data) if _is_pem(data) else load_der_public_key(data)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None


def _context(args: argparse.Namespace) -> bytes:
    text = args.context or ""
    try:
        ctx = bytes.fromhex(text)
    except ValueError:
        raise ValueError(f"--context must be hexadecimal, got {text!r}") from None
    if len(ctx) > 255:
        raise ValueError(f"--context must be at most 255 bytes, got {len(ctx)}")
    return ctx


def _prehash_name(name: str | None) -> str | None:
    if name is None:
        return None
    for known in _HASHLIB_NAMES:
        if known.upper() == name.upper():
            return known
    raise ValueError(f"unknown --prehash {name!r}; known: {', '.join(_HASHLIB_NAMES)}")


def _prehash_digest(source: IO[bytes], name: str) -> bytes:
    hashlib_name, xof_length = _HASHLIB_NAMES[name]
    hasher = hashlib.new(hashlib_name)
    stream_into(source, hasher)
    if xof_length is not None:
        digest: bytes = hasher.digest(xof_length)  # type: ignore[call-arg]
        return digest
    return hasher.digest()


def _need(key: Any, family: type[Any], command: str, what: str) -> None:
    if not isinstance(key, family):
        raise ValueError(f"{command} needs {what}, got an {key.algorithm.name} key")


# --- commands -------------------------------------------------------------------------


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
    _check_free(outputs, args.force)
    password = _password(args)
    encryption: Any = BestAvailableEncryption(password) if password else NoEncryption()
    encoding = Encoding.DER if args.der else Encoding.PEM
    key = cls.generate()
    data = key.private_bytes(encoding, PrivateFormat.PKCS8, encryption, form=args.form)
    _write(args.out, data, secret=True, force=args.force)
    if args.pub:
        pub = key.public_key().public_bytes(encoding, PublicFormat.SubjectPublicKeyInfo)
        _write(args.pub, pub, secret=False, force=args.force)
    return 0


def cmd_pub(args: argparse.Namespace) -> int:
    """``pqkit pub KEY [-o PUB]``: the public key of a private key file."""
    from pqkit.serialization import Encoding, PublicFormat

    if args.out:
        _check_free([args.out], args.force)
    key = _load_private(args.key, _password(args))
    encoding = Encoding.DER if args.der else Encoding.PEM
    data = key.public_key().public_bytes(encoding, PublicFormat.SubjectPublicKeyInfo)
    if args.out:
        _write(args.out, data, secret=False, force=args.force)
    elif args.der:
        raise ValueError("refusing to write DER to the terminal; use -o FILE")
    else:
        sys.stdout.write(data.decode("ascii"))
    return 0


def cmd_encaps(args: argparse.Namespace) -> int:
    """``pqkit encaps PUB --ct CT --secret SS``."""
    from pqkit.keys import MLKEMPublicKey

    _check_free([args.ct, args.secret], args.force)
    key = _load_public(args.pub)
    _need(key, MLKEMPublicKey, "encaps", "an ML-KEM public key")
    shared_secret, ciphertext = key.encapsulate()
    _write(args.ct, ciphertext, secret=False, force=args.force)
    _write(args.secret, shared_secret, secret=True, force=args.force)
    return 0


def cmd_decaps(args: argparse.Namespace) -> int:
    """``pqkit decaps KEY CT --secret SS``."""
    from pqkit.keys import MLKEMPrivateKey

    _check_free([args.secret], args.force)
    key = _load_private(args.key, _password(args))
    _need(key, MLKEMPrivateKey, "decaps", "an ML-KEM private key")
    ciphertext = _read(args.ciphertext, "ciphertext file")
    shared_secret = key.decapsulate(ciphertext)
    _write(args.secret, shared_secret, secret=True, force=args.force)
    return 0


def cmd_sign(args: argparse.Namespace) -> int:
    """``pqkit sign KEY FILE -o SIG``: pure ML-DSA through the mu hasher, or HashML-DSA."""
    from pqkit.keys import MLDSAPrivateKey

    _check_free([args.out], args.force)
    ctx = _context(args)
    prehash = _prehash_name(args.prehash)
    key = _load_private(args.key, _password(args))
    _need(key, MLDSAPrivateKey, "sign", "an ML-DSA private key")
    with _open_message(args.file) as source:
        if prehash is None:
            hasher = key.public_key().mu_hasher(ctx)
            stream_into(source, hasher)
            signature = key.sign_mu(hasher.finalize(), deterministic=args.deterministic)
        else:
            digest = _prehash_digest(source, prehash)
            signature = key.sign_prehashed(digest, prehash, ctx, deterministic=args.deterministic)
    _write(args.out, signature, secret=False, force=args.force)
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """``pqkit verify PUB FILE SIG``: 0 valid, 1 invalid, 2 for any error."""
    from pqkit.errors import InvalidSignature
    from pqkit.keys import MLDSAPublicKey

    try:
        ctx = _context(args)
        prehash = _prehash_name(args.prehash)
        key = _load_public(args.pub)
        _need(key, MLDSAPublicKey, "verify", "an ML-DSA public key")
        signature = _read(args.signature, "signature file")
        with _open_message(args.file) as source:
            if prehash is None:
                hasher = key.mu_hasher(ctx)
                stream_into(source, hasher)
                key.verify_mu(signature, hasher.finalize())
            else:
                key.verify_prehashed(signature, _prehash_digest(source, prehash), prehash, ctx)
    except InvalidSignature:
        print("pqkit: signature is NOT valid", file=sys.stderr)
        return 1
    except (ValueError, TypeError, KeyError, OSError) as exc:
        message = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
        print(f"pqkit: error: {message}", file=sys.stderr)
        return 2
    if not args.quiet:
        print("signature valid")
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


# --- parser -------------------------------------------------------------------------------


def _add_force(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--force", action="store_true", help="overwrite existing output files")


def _add_password(parser: argparse.ArgumentParser, verb: str) -> None:
    parser.add_argument(
        "--password-file",
        metavar="FILE",
        help=f"{verb} the private key with the password on the first line of FILE",
    )


def _add_message_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--context", metavar="HEX", help="ML-DSA context string, hexadecimal")
    parser.add_argument(
        "--prehash",
        metavar="NAME",
        help=f"HashML-DSA with this hash ({', '.join(_HASHLIB_NAMES)})",
    )


def register(subparsers: Any) -> None:
    """Add keygen, pub, encaps, decaps, sign, verify and list to ``pqkit``."""
    p = subparsers.add_parser("keygen", help="generate a private key file (PKCS#8)")
    p.add_argument("algorithm", metavar="ALG", help="ML-KEM-512/768/1024 or ML-DSA-44/65/87")
    p.add_argument("-o", "--out", required=True, metavar="KEY", help="private key file")
    p.add_argument("--pub", metavar="PUB", help="also write the public key file")
    p.add_argument(
        "--form",
        choices=("seed", "expanded", "both"),
        default="seed",
        help="private key CHOICE of RFC 9935 / RFC 9881 (default: seed)",
    )
    p.add_argument("--der", action="store_true", help="write DER instead of PEM")
    _add_password(p, "encrypt")
    _add_force(p)
    p.set_defaults(func=cmd_keygen)

    p = subparsers.add_parser("pub", help="the public key of a private key file")
    p.add_argument("key", metavar="KEY")
    p.add_argument("-o", "--out", metavar="PUB", help="write here instead of standard output")
    p.add_argument("--der", action="store_true", help="write DER instead of PEM (needs -o)")
    _add_password(p, "decrypt")
    _add_force(p)
    p.set_defaults(func=cmd_pub)

    p = subparsers.add_parser("encaps", help="ML-KEM: a ciphertext and shared secret for PUB")
    p.add_argument("pub", metavar="PUB")
    p.add_argument("--ct", required=True, metavar="CT", help="ciphertext output file")
    p.add_argument("--secret", required=True, metavar="SS", help="shared secret output file")
    _add_force(p)
    p.set_defaults(func=cmd_encaps)

    p = subparsers.add_parser("decaps", help="ML-KEM: the shared secret in a ciphertext")
    p.add_argument("key", metavar="KEY")
    p.add_argument("ciphertext", metavar="CT")
    p.add_argument("--secret", required=True, metavar="SS", help="shared secret output file")
    _add_password(p, "decrypt")
    _add_force(p)
    p.set_defaults(func=cmd_decaps)

    p = subparsers.add_parser("sign", help="ML-DSA: sign FILE ('-' for standard input)")
    p.add_argument("key", metavar="KEY")
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--out", required=True, metavar="SIG", help="signature output file")
    _add_message_options(p)
    p.add_argument(
        "--deterministic", action="store_true", help="deterministic signing (no fresh randomness)"
    )
    _add_password(p, "decrypt")
    _add_force(p)
    p.set_defaults(func=cmd_sign)

    p = subparsers.add_parser(
        "verify", help="ML-DSA: check a signature (exit 0 valid, 1 invalid, 2 error)"
    )
    p.add_argument("pub", metavar="PUB")
    p.add_argument("file", metavar="FILE")
    p.add_argument("signature", metavar="SIG")
    _add_message_options(p)
    p.add_argument("-q", "--quiet", action="store_true", help="print nothing when valid")
    p.set_defaults(func=cmd_verify)

    p = subparsers.add_parser("list", help="algorithms, their OIDs and sizes")
    p.set_defaults(func=cmd_list)
