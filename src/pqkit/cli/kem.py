"""``pqkit encaps`` and ``pqkit decaps``: ML-KEM with key files."""

from __future__ import annotations

import argparse

from pqkit.cli.files import check_free, read_file, write_file
from pqkit.cli.loading import load_private, load_public, need, password

__all__ = ["cmd_decaps", "cmd_encaps"]


def cmd_encaps(args: argparse.Namespace) -> int:
    """``pqkit encaps PUB --ct CT --secret SS``."""
    from pqkit.keys import MLKEMPublicKey

    check_free([args.ct, args.secret], args.force)
    key = load_public(args.pub)
    need(key, MLKEMPublicKey, "encaps", "an ML-KEM public key")
    shared_secret, ciphertext = key.encapsulate()
    write_file(args.ct, ciphertext, secret=False, force=args.force)
    write_file(args.secret, shared_secret, secret=True, force=args.force)
    return 0


def cmd_decaps(args: argparse.Namespace) -> int:
    """``pqkit decaps KEY CT --secret SS``."""
    from pqkit.keys import MLKEMPrivateKey

    check_free([args.secret], args.force)
    key = load_private(args.key, password(args))
    need(key, MLKEMPrivateKey, "decaps", "an ML-KEM private key")
    ciphertext = read_file(args.ciphertext, "ciphertext file")
    shared_secret = key.decapsulate(ciphertext)
    write_file(args.secret, shared_secret, secret=True, force=args.force)
    return 0
