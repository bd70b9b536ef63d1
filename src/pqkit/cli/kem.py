"""``pqkit encaps`` and ``pqkit decaps``: the KEMs with key files (ML-KEM, FrodoKEM,
HQC, sntrup761, Classic McEliece, the hybrid KEMs, composite ML-KEM)."""

from __future__ import annotations

import argparse

from pqkit.cli.files import check_outputs, read_input, write_output
from pqkit.cli.loading import algorithm_name, load_private, load_public, need

__all__ = ["cmd_decaps", "cmd_encaps"]


def cmd_encaps(args: argparse.Namespace) -> int:
    """``pqkit encaps KEY --ct CT --secret SS`` (KEY: a public or private key file)."""
    from pqkit.keys import CompositeKemPublicKey, FrodoKEMPublicKey, MLKEMPublicKey
    from pqkit.keys.hybrid import HybridPublicKey

    check_outputs([args.ct, args.secret], args.force, inputs=[args.pub])
    key = load_public(args.pub, args)
    kinds = (MLKEMPublicKey, FrodoKEMPublicKey, HybridPublicKey, CompositeKemPublicKey)
    need(key, kinds, "encaps", "a KEM public key (ML-KEM, FrodoKEM, raw-PEM or composite)")
    shared_secret, ciphertext = key.encapsulate()
    write_output(args.ct, ciphertext, secret=False, force=args.force, binary=True)
    write_output(args.secret, shared_secret, secret=True, force=args.force, binary=True)
    return 0


def cmd_decaps(args: argparse.Namespace) -> int:
    """``pqkit decaps KEY CT --secret SS``."""
    import pqkit
    from pqkit.keys import CompositeKemPrivateKey, FrodoKEMPrivateKey, MLKEMPrivateKey
    from pqkit.keys.hybrid import HybridPrivateKey

    check_outputs([args.secret], args.force, inputs=[args.key, args.ciphertext])
    key = load_private(args.key, args, stdin_in_use=args.ciphertext == "-").key
    kinds = (MLKEMPrivateKey, FrodoKEMPrivateKey, HybridPrivateKey, CompositeKemPrivateKey)
    need(key, kinds, "decaps", "a KEM private key (ML-KEM, FrodoKEM, raw-PEM or composite)")
    length = pqkit.kem(algorithm_name(key)).length_ciphertext
    ciphertext = read_input(args.ciphertext, "ciphertext file", length)
    shared_secret = key.decapsulate(ciphertext)
    write_output(args.secret, shared_secret, secret=True, force=args.force, binary=True)
    return 0
