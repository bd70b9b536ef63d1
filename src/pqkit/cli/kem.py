"""``pqkit encaps`` and ``pqkit decaps``: ML-KEM with key files."""

from __future__ import annotations

import argparse

from pqkit.cli.files import check_outputs, read_input, write_output
from pqkit.cli.loading import load_private, load_public, need

__all__ = ["cmd_decaps", "cmd_encaps"]


def cmd_encaps(args: argparse.Namespace) -> int:
    """``pqkit encaps KEY --ct CT --secret SS`` (KEY: a public or private key file)."""
    from pqkit.keys import MLKEMPublicKey

    check_outputs([args.ct, args.secret], args.force, inputs=[args.pub])
    key = load_public(args.pub, args)
    need(key, MLKEMPublicKey, "encaps", "an ML-KEM key")
    shared_secret, ciphertext = key.encapsulate()
    write_output(args.ct, ciphertext, secret=False, force=args.force, binary=True)
    write_output(args.secret, shared_secret, secret=True, force=args.force, binary=True)
    return 0


def cmd_decaps(args: argparse.Namespace) -> int:
    """``pqkit decaps KEY CT --secret SS``."""
    from pqkit.keys import MLKEMPrivateKey

    check_outputs([args.secret], args.force, inputs=[args.key, args.ciphertext])
    key = load_private(args.key, args, stdin_in_use=args.ciphertext == "-").key
    need(key, MLKEMPrivateKey, "decaps", "an ML-KEM private key")
    ciphertext = read_input(args.ciphertext, "ciphertext file", key.algorithm.output_length)
    shared_secret = key.decapsulate(ciphertext)
    write_output(args.secret, shared_secret, secret=True, force=args.force, binary=True)
    return 0
