"""``pqkit sign`` and ``pqkit verify``: ML-DSA and HashML-DSA with key files.

The message is streamed: pure ML-DSA through the key's mu hasher, HashML-DSA
through the pre-hash's incremental hasher (:meth:`pqkit.mldsa.prehash.PreHash.new`),
so files of any size work in constant memory.
"""

from __future__ import annotations

import argparse
import sys
from typing import IO, Any

from pqkit.cli.files import check_free, open_message, read_file, stream_into, write_file
from pqkit.cli.loading import load_private, load_public, need, password

__all__ = ["cmd_sign", "cmd_verify"]


def _context(args: argparse.Namespace) -> bytes:
    from pqkit.mldsa.message import context

    text = args.context or ""
    try:
        ctx = bytes.fromhex(text)
    except ValueError:
        raise ValueError(f"--context must be hexadecimal, got {text!r}") from None
    return context(ctx, "--context")


def _prehash(name: str | None) -> Any:
    """The pre-hash called ``name`` (any case), or None."""
    from pqkit.mldsa.prehash import lookup

    return None if name is None else lookup(name, ignore_case=True)


def _digest(source: IO[bytes], prehash: Any) -> bytes:
    hasher = prehash.new()
    stream_into(source, hasher)
    digest: bytes = hasher.digest()
    return digest


def cmd_sign(args: argparse.Namespace) -> int:
    """``pqkit sign KEY FILE -o SIG``: pure ML-DSA through the mu hasher, or HashML-DSA."""
    from pqkit.keys import MLDSAPrivateKey

    check_free([args.out], args.force)
    ctx = _context(args)
    prehash = _prehash(args.prehash)
    key = load_private(args.key, password(args))
    need(key, MLDSAPrivateKey, "sign", "an ML-DSA private key")
    with open_message(args.file) as source:
        if prehash is None:
            hasher = key.public_key().mu_hasher(ctx)
            stream_into(source, hasher)
            signature = key.sign_mu(hasher.finalize(), deterministic=args.deterministic)
        else:
            signature = key.sign_prehashed(
                _digest(source, prehash), prehash.name, ctx, deterministic=args.deterministic
            )
    write_file(args.out, signature, secret=False, force=args.force)
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """``pqkit verify PUB FILE SIG``: 0 valid, 1 invalid, 2 for any error."""
    from pqkit.errors import InvalidSignature
    from pqkit.keys import MLDSAPublicKey

    try:
        ctx = _context(args)
        prehash = _prehash(args.prehash)
        key = load_public(args.pub)
        need(key, MLDSAPublicKey, "verify", "an ML-DSA public key")
        signature = read_file(args.signature, "signature file")
        with open_message(args.file) as source:
            if prehash is None:
                hasher = key.mu_hasher(ctx)
                stream_into(source, hasher)
                key.verify_mu(signature, hasher.finalize())
            else:
                key.verify_prehashed(signature, _digest(source, prehash), prehash.name, ctx)
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
