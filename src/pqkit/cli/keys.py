"""The file-based ``pqkit`` commands on the parser: keygen, pub, encaps, decaps,
sign, verify, list.

Keys are PKCS#8 / SubjectPublicKeyInfo files (RFC 9935, RFC 9881), PEM by default,
DER with ``--der``; either is read. Outputs are never overwritten without
``--force``; private keys and shared secrets are written with mode 0600. The
commands live in :mod:`pqkit.cli.keyfile`, :mod:`pqkit.cli.kem` and
:mod:`pqkit.cli.sig`; files and key loading in :mod:`pqkit.cli.files` and
:mod:`pqkit.cli.loading`. Errors are one line on stderr: ``pqkit.cli`` turns
ValueError, TypeError, KeyError and OSError into that and status 1; ``verify``
answers 0 (valid), 1 (invalid) or 2 (error).
"""

from __future__ import annotations

import argparse
from typing import Any

from pqkit.cli.kem import cmd_decaps, cmd_encaps
from pqkit.cli.keyfile import cmd_keygen, cmd_list, cmd_pub
from pqkit.cli.sig import cmd_sign, cmd_verify

__all__ = ["register"]


def _add_force(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--force", action="store_true", help="overwrite existing output files")


def _add_password(parser: argparse.ArgumentParser, verb: str) -> None:
    parser.add_argument(
        "--password-file",
        metavar="FILE",
        help=f"{verb} the private key with the password on the first line of FILE",
    )


def _add_message_options(parser: argparse.ArgumentParser) -> None:
    from pqkit.mldsa.prehash import PREHASHES

    parser.add_argument("--context", metavar="HEX", help="ML-DSA context string, hexadecimal")
    parser.add_argument(
        "--prehash",
        metavar="NAME",
        help=f"HashML-DSA with this hash ({', '.join(PREHASHES)})",
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
