"""``pqkit sign`` and ``pqkit verify``: ML-DSA, SLH-DSA, their pre-hash variants and
composite ML-DSA with key files.

The message is streamed where the scheme allows: pure ML-DSA through the key's mu
hasher, HashML-DSA and HashSLH-DSA through the pre-hash's incremental hasher
(:meth:`pqkit.prehash.PreHash.new`), so files of any size work in constant memory.
A key file under a pre-hash OID (HashML-DSA, HashSLH-DSA) signs and verifies with
that OID's pre-hash; ``--prehash`` may only name the same one. Composite ML-DSA keys
stream M through their OID's PH the same way (M' holds PH(M)).
Pure SLH-DSA reads its message twice (PRF_msg, then H_msg: FIPS 205, Algorithm 19),
so it is read whole, up to :data:`PURE_SLHDSA_LIMIT` bytes; sign larger files with
``--prehash``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import IO, Any

from pqkit.cli.files import check_outputs, open_input, read_input, stream_into, write_output
from pqkit.cli.loading import load_private, load_public, need
from pqkit.cli.status import FAILURE, OK

__all__ = ["PURE_SLHDSA_LIMIT", "cmd_sign", "cmd_verify"]

PURE_SLHDSA_LIMIT = 1 << 30
"""The largest message pure SLH-DSA signs or verifies from a file (held in memory)."""


def _context(args: argparse.Namespace) -> bytes:
    from pqkit.messages import context

    text = args.context or ""
    try:
        ctx = bytes.fromhex(text)
    except ValueError:
        raise ValueError(f"--context must be hexadecimal, got {text!r}") from None
    return context(ctx, "--context")


def _prehash(name: str | None) -> Any:
    """The pre-hash called ``name`` (any case), or None."""
    from pqkit.prehash import lookup

    return None if name is None else lookup(name, loose=True)


def _bound(chosen: Any, key: Any) -> Any:
    """The pre-hash to use with ``key``: ``chosen`` (``--prehash``, or None), or for a
    key whose OID binds a pre-hash (HashML-DSA, HashSLH-DSA) that one, which
    ``--prehash`` may only repeat."""
    from pqkit.prehash import lookup

    bound = key.algorithm.prehash
    if bound is None:
        return chosen
    if chosen is not None and chosen.name != bound:
        raise ValueError(
            f"the {key.algorithm.name} key is bound to the pre-hash {bound} by its OID; "
            f"--prehash {chosen.name} does not apply"
        )
    return lookup(bound)


def _digest(source: IO[bytes], prehash: Any) -> bytes:
    hasher = prehash.new()
    stream_into(source, hasher)
    digest: bytes = hasher.digest()
    return digest


def _key_and_options(
    args: argparse.Namespace,
    load: Callable[[], Any],
    family: tuple[type[Any], ...],
    command: str,
    what: str,
) -> tuple[Any, bytes, Any]:
    """The --context bytes and --prehash choice, then the key ``load`` reads,
    refused unless of ``family`` (sign and verify, in this order)."""
    ctx = _context(args)
    prehash = _prehash(args.prehash)
    key = load()
    need(key, family, command, what)
    return key, ctx, prehash


def cmd_sign(args: argparse.Namespace) -> int:
    """``pqkit sign KEY FILE -o SIG``: pure ML-DSA through the mu hasher, or HashML-DSA /
    HashSLH-DSA (``--prehash``, or the pre-hash the key's OID binds)."""
    from pqkit.cli import stateful
    from pqkit.keys import CompositeSigPrivateKey, MLDSAPrivateKey, SLHDSAPrivateKey
    from pqkit.keys.falcon import FalconPrivateKey

    if stateful.is_key_file(args.key):
        return stateful.sign(args)
    check_outputs([args.out], args.force, inputs=[args.key, args.file])
    key, ctx, prehash = _key_and_options(
        args,
        lambda: load_private(args.key, args, stdin_in_use=args.file == "-").key,
        (MLDSAPrivateKey, SLHDSAPrivateKey, FalconPrivateKey, CompositeSigPrivateKey),
        "sign",
        "an ML-DSA, SLH-DSA, Falcon or composite ML-DSA private key",
    )
    if isinstance(key, FalconPrivateKey):
        _falcon_options(args, ctx, prehash)
        data = read_input(args.file, "message file", PURE_SLHDSA_LIMIT)
        write_output(args.out, key.sign(data), secret=False, force=args.force, binary=True)
        return OK
    prehash = _bound(prehash, key)
    if isinstance(key, SLHDSAPrivateKey) and prehash is None:
        data = read_input(args.file, "message file", PURE_SLHDSA_LIMIT)
        signature = key.sign(data, ctx, deterministic=args.deterministic)
        write_output(args.out, signature, secret=False, force=args.force, binary=True)
        return OK
    with open_input(args.file, "message file") as source:
        if prehash is None:
            hasher = key.public_key().mu_hasher(ctx)
            stream_into(source, hasher)
            signature = key.sign_mu(hasher.finalize(), deterministic=args.deterministic)
        else:
            signature = key.sign_prehashed(
                _digest(source, prehash), prehash.name, ctx, deterministic=args.deterministic
            )
    write_output(args.out, signature, secret=False, force=args.force, binary=True)
    return OK


def _falcon_options(args: argparse.Namespace, ctx: bytes, prehash: Any) -> None:
    """Falcon (round 3) signs the message as is, always randomised."""
    if ctx or prehash is not None or getattr(args, "deterministic", False):
        raise ValueError("Falcon (round 3) takes no --context, no --prehash and no --deterministic")


def cmd_verify(args: argparse.Namespace) -> int:
    """``pqkit verify KEY FILE SIG``: 0 valid, 1 invalid, 2 for any other error."""
    from pqkit.cli import stateful
    from pqkit.keys import CompositeSigPublicKey, MLDSAPublicKey, SLHDSAPublicKey
    from pqkit.keys.falcon import FalconPublicKey

    if stateful.is_key_file(args.pub) or stateful.is_public_key_file(args.pub):
        return stateful.verify(args)
    check_outputs([], False, inputs=[args.pub, args.file, args.signature])
    stdin_in_use = "-" in (args.file, args.signature)
    key, ctx, prehash = _key_and_options(
        args,
        lambda: load_public(args.pub, args, stdin_in_use=stdin_in_use),
        (MLDSAPublicKey, SLHDSAPublicKey, FalconPublicKey, CompositeSigPublicKey),
        "verify",
        "an ML-DSA, SLH-DSA, Falcon or composite ML-DSA key",
    )
    if isinstance(key, FalconPublicKey):
        import pqkit

        _falcon_options(args, ctx, prehash)
        limit = pqkit.sig(key.algorithm).length_signature
        signature = read_input(args.signature, "signature file", limit, oversize_ok=True)
        return _verdict(
            lambda: key.verify(signature, read_input(args.file, "message file", PURE_SLHDSA_LIMIT)),
            args.quiet,
        )
    prehash = _bound(prehash, key)
    length = key.algorithm.output_length
    # one byte more than a signature is enough to know it is not one (exit 1)
    signature = read_input(args.signature, "signature file", length, oversize_ok=True)

    def check() -> None:
        if isinstance(key, SLHDSAPublicKey) and prehash is None:
            key.verify(signature, read_input(args.file, "message file", PURE_SLHDSA_LIMIT), ctx)
            return
        with open_input(args.file, "message file") as source:
            if prehash is None:
                hasher = key.mu_hasher(ctx)
                stream_into(source, hasher)
                key.verify_mu(signature, hasher.finalize())
            else:
                key.verify_prehashed(signature, _digest(source, prehash), prehash.name, ctx)

    return _verdict(check, args.quiet)


def _verdict(check: Callable[[], None], quiet: bool) -> int:
    """Run ``check``: exit 1 (and say so) for InvalidSignature, else 0."""
    from pqkit.errors import InvalidSignature

    try:
        check()
    except InvalidSignature:
        print("pqkit: signature is NOT valid", file=sys.stderr)
        return FAILURE
    if not quiet:
        print("signature valid")
    return OK
