"""The file-based ``pqkit`` commands on the parser: keygen, pub, show, encaps,
decaps, sign, verify, list.

Keys are PKCS#8 / SubjectPublicKeyInfo files (RFC 9935, RFC 9881), PEM by default,
DER with ``--der``; either is read. ``-`` names standard input (inputs) or output
(outputs). Outputs are never overwritten without ``--force`` and never equal to an
input; private keys and shared secrets are written with mode 0600. The commands
live in :mod:`pqkit.cli.keyfile`, :mod:`pqkit.cli.kem` and :mod:`pqkit.cli.sig`;
files and key loading in :mod:`pqkit.cli.files` and :mod:`pqkit.cli.loading`; the
exit statuses in :mod:`pqkit.cli.status`.
"""

from __future__ import annotations

import argparse
from typing import Any

from pqkit.cli.args import positive_int
from pqkit.cli.kem import cmd_decaps, cmd_encaps
from pqkit.cli.keyfile import cmd_keygen, cmd_list, cmd_pub, cmd_show
from pqkit.cli.sig import cmd_sign, cmd_verify
from pqkit.cli.status import EPILOG

__all__ = ["register"]

_FORMS = ("seed", "expanded", "both")
_FORM_HELP = (
    "private key CHOICE of RFC 9935 / RFC 9881: seed (default, recommended by the "
    "RFCs), expanded or both; pyca/cryptography reads only seed files"
)
_PASSIN_HELP = (
    "password of an encrypted private key: pass:TEXT, env:VAR or file:PATH (first "
    "line); without it pqkit prompts when standard input is a terminal"
)
_PASSOUT_HELP = "encrypt the private key with this password: pass:TEXT, env:VAR or file:PATH"


def _parser(subparsers: Any, name: str, help_text: str, extra: str = "") -> Any:
    epilog = f"{extra}\n\n{EPILOG}" if extra else EPILOG
    return subparsers.add_parser(
        name,
        help=help_text,
        description=help_text[0].upper() + help_text[1:] + ".",
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def _add_force(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--force", action="store_true", help="overwrite existing output files")


def _add_passin(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--passin", metavar="SOURCE", help=_PASSIN_HELP)
    parser.add_argument("--password-file", metavar="FILE", help="same as --passin file:FILE")


def _reads_key_writes_files(parser: argparse.ArgumentParser, func: Any) -> None:
    """A command that reads a (maybe encrypted) key and writes files: --passin,
    --password-file and --force, run by ``func``."""
    _add_passin(parser)
    _add_force(parser)
    parser.set_defaults(func=func)


def _add_message_options(parser: argparse.ArgumentParser) -> None:
    from pqkit.prehash import PREHASHES

    parser.add_argument(
        "--context", metavar="HEX", help="ML-DSA / SLH-DSA context string, hexadecimal"
    )
    parser.add_argument(
        "--prehash",
        metavar="NAME",
        help=f"HashML-DSA / HashSLH-DSA with this hash ({', '.join(PREHASHES)}; any case, "
        "and SHA-512 or sha512 for SHA2-512)",
    )


def _register_key_files(subparsers: Any) -> None:
    p = _parser(
        subparsers,
        "keygen",
        "generate a key file (PKCS#8; a raw-seed PEM block for the hybrid KEMs and HQC)",
        "Files written with --form expanded or --form both are refused by "
        "pyca/cryptography; keep the default (seed) for keys other tools read.",
    )
    p.add_argument("algorithm", metavar="ALG", help="an algorithm name (see pqkit list)")
    p.add_argument(
        "-o", "--out", required=True, metavar="KEY", help="private key file ('-': stdout)"
    )
    p.add_argument("--pub", metavar="PUB", help="also write the public key file")
    p.add_argument("--form", choices=_FORMS, default="seed", help=_FORM_HELP)
    p.add_argument("--der", action="store_true", help="write DER instead of PEM")
    p.add_argument("--passout", metavar="SOURCE", help=_PASSOUT_HELP)
    p.add_argument("--password-file", metavar="FILE", help="same as --passout file:FILE")
    for flag, metavar, text in (
        (
            "--count",
            "N",
            "write N key pairs through the batch path: -o names a directory that gets "
            "public_keys.npy and secret_keys.npy (one row per key, raw bytes)",
        ),
        (
            "--workers",
            "W",
            "with --count: threads (default: PQKIT_WORKERS, else one per CPU this process may use)",
        ),
    ):
        p.add_argument(flag, type=positive_int(flag), metavar=metavar, help=text)
    p.add_argument(
        "--seeds", action="store_true", help="with --count: also write seeds.npy (keygen seeds)"
    )
    p.add_argument("--arith", metavar="BACKEND", help="with --count: arithmetic backend")
    p.add_argument("-q", "--quiet", action="store_true", help="with --count: no progress bar")
    _add_force(p)
    p.set_defaults(func=cmd_keygen)

    p = _parser(subparsers, "pub", "the public key of a key file")
    p.add_argument("key", metavar="KEY", help="private (or public) key file ('-': stdin)")
    p.add_argument("-o", "--out", default="-", metavar="PUB", help="output file (default: stdout)")
    p.add_argument("--der", action="store_true", help="write DER instead of PEM")
    _reads_key_writes_files(p, cmd_pub)

    p = _parser(
        subparsers,
        "show",
        "describe a key file, or convert it with -o",
        "Without -o: algorithm, form (seed/expanded/both), fingerprint (SHA-256 of the "
        "DER SubjectPublicKeyInfo) and sizes. With -o: the key rewritten as asked "
        "(PEM/DER, form, password), as openssl pkey does. Files in the expanded or "
        "both form are refused by pyca/cryptography.",
    )
    p.add_argument("key", metavar="KEY", help="private or public key file ('-': stdin)")
    p.add_argument("-o", "--out", metavar="OUT", help="write the converted key here ('-': stdout)")
    p.add_argument("--der", action="store_true", help="write DER instead of PEM")
    p.add_argument("--form", choices=_FORMS, help="private key form (default: the input's)")
    p.add_argument("--pubout", action="store_true", help="write the public key")
    p.add_argument("--passout", metavar="SOURCE", help=_PASSOUT_HELP)
    p.add_argument(
        "--no-password", action="store_true", help="write an encrypted input key in clear"
    )
    _reads_key_writes_files(p, cmd_show)

    p = _parser(subparsers, "list", "algorithms, their OIDs, sizes and the extras they need")
    p.set_defaults(func=cmd_list)


def register(subparsers: Any) -> None:
    """Add keygen, pub, show, encaps, decaps, sign, verify and list to ``pqkit``."""
    _register_key_files(subparsers)

    p = _parser(
        subparsers, "encaps", "ML-KEM, HQC, hybrid KEMs: a ciphertext and shared secret for a key"
    )
    p.add_argument("pub", metavar="KEY", help="public (or private) key file")
    p.add_argument("--ct", required=True, metavar="CT", help="ciphertext output ('-': stdout)")
    p.add_argument("--secret", required=True, metavar="SS", help="shared secret output file")
    _reads_key_writes_files(p, cmd_encaps)

    p = _parser(subparsers, "decaps", "ML-KEM, HQC, hybrid KEMs: the shared secret in a ciphertext")
    p.add_argument("key", metavar="KEY", help="private key file")
    p.add_argument("ciphertext", metavar="CT", help="ciphertext file ('-': stdin)")
    p.add_argument("--secret", required=True, metavar="SS", help="shared secret output file")
    _reads_key_writes_files(p, cmd_decaps)

    p = _parser(subparsers, "sign", "ML-DSA, SLH-DSA (pure or pre-hash): sign a file")
    p.add_argument("key", metavar="KEY", help="private key file")
    p.add_argument("file", metavar="FILE", help="message file ('-': stdin)")
    p.add_argument("-o", "--out", required=True, metavar="SIG", help="signature ('-': stdout)")
    _add_message_options(p)
    p.add_argument(
        "--deterministic", action="store_true", help="deterministic signing (no fresh randomness)"
    )
    _reads_key_writes_files(p, cmd_sign)

    p = _parser(subparsers, "verify", "ML-DSA, SLH-DSA (pure or pre-hash): check a signature")
    p.add_argument("pub", metavar="KEY", help="public (or private) key file")
    p.add_argument("file", metavar="FILE", help="message file ('-': stdin)")
    p.add_argument("signature", metavar="SIG", help="signature file ('-': stdin)")
    _add_message_options(p)
    p.add_argument("-q", "--quiet", action="store_true", help="print nothing when valid")
    _add_passin(p)
    p.set_defaults(func=cmd_verify)
