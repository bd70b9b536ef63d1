"""The stateful hash-based signatures (LMS / HSS, XMSS / XMSS^MT) on the command
line: ``keygen`` writes the key-and-counter file (:mod:`pqkit.stateful.files`)
and the RFC 9802 public key, ``sign`` signs with the key file (each signature
durably consumes one index before it is written), ``verify`` checks with the
public key file, ``show`` tells the parameter set and how many signatures are
left. The key file is never overwritten by ``--force``: it is the counter."""

from __future__ import annotations

import argparse
import os
from typing import Any

from pqkit.cli.files import check_outputs, read_input, write_output
from pqkit.cli.status import FAILURE, OK
from pqkit.stateful import files

__all__ = ["is_key_file", "is_public_key_file", "keygen", "show", "sign", "verify"]

MESSAGE_LIMIT = 1 << 30
"""The largest message signed or verified from a file (read whole)."""
SIGNATURE_LIMIT = 1 << 20
"""More bytes than any LMS / HSS / XMSS signature of the catalogue."""
PUBLIC_KEY_LIMIT = 1 << 12


def _head(path: str, n: int) -> bytes:
    if path == "-":
        return b""
    try:
        with open(path, "rb") as f:
            return f.read(n)
    except OSError:
        return b""


def is_key_file(path: str) -> bool:
    """True if ``path`` is a stateful key file (by its magic)."""
    return _head(path, len(files.MAGIC)) == files.MAGIC


def _spki(data: bytes) -> bytes:
    from pqkit.serialization.pem import pem_decode

    if data.lstrip().startswith(b"-----BEGIN"):
        return pem_decode(data, ("PUBLIC KEY",))[1]
    return data


def is_public_key_file(path: str) -> bool:
    """True if ``path`` holds an RFC 9802 HSS / XMSS / XMSS^MT public key."""
    try:
        files.decode_spki(_spki(_head(path, PUBLIC_KEY_LIMIT)))
    except ValueError:
        return False
    return True


def _scheme(name: str) -> Any:
    import pqkit

    return pqkit.sig(name)


def keygen(args: argparse.Namespace) -> int:
    """``pqkit keygen ALG -o KEY [--pub PUB]``: a new key file (mode 0600, refused if
    it exists: ``--force`` never replaces a key file) and its public key."""
    if args.out == "-":
        raise ValueError("a stateful key is a file with a counter: -o must name a file")
    if os.path.lexists(args.out):
        raise ValueError(f"{args.out} exists; a stateful key file is never overwritten")
    if args.count is not None or args.passout or args.password_file or args.form != "seed":
        raise ValueError("--count, --passout and --form do not apply to stateful keys")
    scheme = _scheme(args.algorithm)
    if args.pub:
        check_outputs([args.pub], args.force, inputs=[])
    pk, _ = scheme.keygen(path=args.out)
    if args.pub:
        _write_public(args.pub, scheme, pk, args.der, args.force)
    return OK


def _write_public(path: str, scheme: Any, pk: bytes, der: bool, force: bool) -> None:
    from pqkit.serialization.pem import pem_encode

    spki = scheme.public_key_spki(pk)
    data = spki if der else pem_encode(spki, "PUBLIC KEY")
    write_output(path, data, secret=False, force=force, binary=der)


def _load(path: str) -> Any:
    from pqkit.stateful.storage import FileStorage

    record = FileStorage(path).load()
    return _scheme(record.name).load_key(path)


def sign(args: argparse.Namespace) -> int:
    """``pqkit sign KEY FILE -o SIG`` with a stateful key file."""
    if args.context or args.prehash or args.deterministic:
        raise ValueError("--context, --prehash and --deterministic do not apply to LMS / XMSS")
    check_outputs([args.out], args.force, inputs=[args.key, args.file])
    key = _load(args.key)
    data = read_input(args.file, "message file", MESSAGE_LIMIT)
    signature = key.sign(data)  # the index is on disk before the signature exists
    write_output(args.out, signature, secret=False, force=args.force, binary=True)
    return OK


def _public(path: str) -> tuple[str, bytes]:
    if is_key_file(path):
        key = _load(path)
        return str(key.scheme.SPKI_OID), key.public_key()
    return files.decode_spki(_spki(read_input(path, "public key file", PUBLIC_KEY_LIMIT)))


def verify(args: argparse.Namespace) -> int:
    """``pqkit verify PUB FILE SIG``: 0 valid, 1 invalid."""
    import sys

    from pqkit import arith
    from pqkit.lms.hss import verify_hss
    from pqkit.xmss import core
    from pqkit.xmss.params import XMSS_BY_OID, XMSSMT_BY_OID

    if args.context or args.prehash:
        raise ValueError("--context and --prehash do not apply to LMS / XMSS")
    check_outputs([], False, inputs=[args.pub, args.file, args.signature])
    oid, pk = _public(args.pub)
    signature = read_input(args.signature, "signature file", SIGNATURE_LIMIT, oversize_ok=True)
    message = read_input(args.file, "message file", MESSAGE_LIMIT)
    kernels = arith.kernels("hash")
    if oid == files.OID_HSS:
        ok = verify_hss(pk, message, signature, kernels)
    else:
        table = XMSS_BY_OID if oid == files.OID_XMSS else XMSSMT_BY_OID
        params = table.get(int.from_bytes(pk[:4], "big")) if len(pk) >= 4 else None
        if params is None:
            raise ValueError("the public key names an XMSS parameter set pqkit does not know")
        ok = core.verify(params, pk, message, signature, kernels)
    if not ok:
        print("pqkit: signature is NOT valid", file=sys.stderr)
        return FAILURE
    if not args.quiet:
        print("signature valid")
    return OK


def show(args: argparse.Namespace) -> int:
    """``pqkit show KEY``: the set, the OID of its public key, signatures left."""
    if args.out is not None:
        if not args.pubout:
            raise ValueError("a stateful key file is not converted; -o goes with --pubout")
        key = _load(args.key)
        _write_public(args.out, key.scheme, key.public_key(), args.der, args.force)
        return OK
    key = _load(args.key)
    scheme = key.scheme
    lines = [
        ("algorithm", f"{scheme.name} (stateful; public key OID {scheme.SPKI_OID}, RFC 9802)"),
        ("type", "stateful private key file (key and counter)"),
        ("next index", str(key.next_index())),
        ("remaining", f"{key.remaining()} of {scheme.max_signatures} signatures"),
        ("public key", f"{scheme.length_public_key} bytes"),
        ("signature", f"{scheme.length_signature} bytes"),
    ]
    for label, value in lines:
        print(f"{label + ':':<14}{value}")
    return OK
