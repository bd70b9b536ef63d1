"""``pqkit hpke keygen|seal|open``: HPKE (RFC 9180, draft-ietf-hpke-pq) on files.

``seal`` writes ``enc || ciphertext`` (the layout of pyca/cryptography's
``Suite.encrypt``); ``open`` reads it back. Keys are PEM files: the hybrid KEMs'
``<NAME> SEED PRIVATE KEY`` / ``<NAME> PUBLIC KEY`` blocks (:mod:`pqkit.keys.hybrid`)
or ML-KEM PKCS#8 / SubjectPublicKeyInfo files (``pqkit keygen``) with a seed.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from pqkit.cli.files import check_outputs, read_input, write_output
from pqkit.cli.loading import read_key_file
from pqkit.cli.status import OK, Failure

__all__ = ["register"]

_KEM_HELP = "HPKE KEM: ML-KEM-512/768/1024, MLKEM768-P256, MLKEM1024-P384 or X-Wing (default)"
_KDFS = (
    "HKDF-SHA256",
    "HKDF-SHA384",
    "HKDF-SHA512",
    "SHAKE128",
    "SHAKE256",
    "TurboSHAKE128",
    "TurboSHAKE256",
)
_AEADS = ("AES-128-GCM", "AES-256-GCM", "ChaCha20-Poly1305")


def _suite(args: argparse.Namespace) -> Any:
    from pqkit import hpke

    return hpke.Suite(
        hpke.kem_named(args.kem),
        hpke.KDF[args.kdf.upper().replace("-", "_")],
        hpke.AEAD[args.aead.upper().replace("-", "_")],
    )


MESSAGE_LIMIT = 1 << 30
"""HPKE here is single-shot: the whole message is held in memory, so at most 1 GiB."""


def _read(path: str, what: str) -> bytes:
    return read_input(path, what, MESSAGE_LIMIT)


def _load_public(data: bytes) -> Any:
    from pqkit.keys import load_pem_public_key
    from pqkit.keys.hybrid import load_pem_hybrid_public_key

    if b"-----BEGIN PUBLIC KEY-----" in data:
        return load_pem_public_key(data)
    return load_pem_hybrid_public_key(data)


def _load_private(data: bytes) -> Any:
    from pqkit.keys import load_pem_private_key
    from pqkit.keys.hybrid import load_pem_hybrid_private_key

    if b"-----BEGIN PRIVATE KEY-----" in data:
        return load_pem_private_key(data)
    return load_pem_hybrid_private_key(data)


def _for_suite(suite: Any, key: Any, path: str) -> Any:
    """``key`` (a key object), refused (exit 2) unless its algorithm is the suite's
    KEM: an ML-KEM-768 or ML-DSA seed would otherwise be taken as another KEM's."""
    try:
        suite._check_key(key, path)
    except ValueError as exc:
        raise ValueError(f"{exc}; pick the suite's KEM with --kem") from None
    return key


def _keygen(args: argparse.Namespace) -> int:
    from pqkit import keys, registry
    from pqkit.keys import hybrid

    if registry.algorithm(args.kem, "kem").family == "ML-KEM":
        private: Any = keys.private_key_class(args.kem).generate()
        from pqkit.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat

        priv = private.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
        pub = private.public_key().public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo)
    else:
        private = hybrid.hybrid_private_key_class(args.kem).generate()
        priv, pub = private.private_bytes_pem(), private.public_key().public_bytes_pem()
    check_outputs([args.private_out, args.public_out], args.force)
    write_output(args.private_out, priv, secret=True, force=args.force, binary=False)
    write_output(args.public_out, pub, secret=False, force=args.force, binary=False)
    return OK


def _suite_key_input(
    args: argparse.Namespace, path: str, load: Callable[[bytes], Any], what: str
) -> tuple[Any, Any, bytes]:
    """For seal and open: the suite, the key file at ``path`` (refused unless it is
    the suite's KEM) and the input's bytes, once the output is known writable."""
    check_outputs([args.output], args.force, [path, args.input])
    suite = _suite(args)
    key = _for_suite(suite, load(read_key_file(path)), path)
    return suite, key, _read(args.input, what)


def _seal(args: argparse.Namespace) -> int:
    suite, public, message = _suite_key_input(args, args.public_key, _load_public, "message")
    blob = suite.encrypt(message, public, args.info.encode(), aad=args.aad.encode())
    write_output(args.output, blob, secret=False, force=args.force, binary=True)
    return OK


def _open(args: argparse.Namespace) -> int:
    from pqkit.hpke import OpenError

    suite, private, sealed = _suite_key_input(
        args, args.private_key, _load_private, "sealed message"
    )
    try:
        plaintext = suite.decrypt(sealed, private, args.info.encode(), aad=args.aad.encode())
    except OpenError as exc:
        raise Failure(str(exc)) from None
    write_output(args.output, plaintext, secret=True, force=args.force, binary=True)
    return OK


def _suite_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--kem", default="X-Wing", help=_KEM_HELP)
    p.add_argument("--kdf", choices=_KDFS, default="HKDF-SHA256", help="HPKE KDF (HKDF-SHA256)")
    p.add_argument("--aead", choices=_AEADS, default="AES-128-GCM", help="AEAD (AES-128-GCM)")
    p.add_argument("--info", default="", help="the application info string")
    p.add_argument("--aad", default="", help="additional authenticated data")
    p.add_argument("-i", "--in", dest="input", default="-", help="input file ('-': stdin)")
    p.add_argument("-o", "--out", dest="output", default="-", help="output file ('-': stdout)")
    p.add_argument("--force", action="store_true", help="overwrite an existing output file")


def register(subparsers: Any) -> None:
    """Add ``pqkit hpke`` to the command."""
    parser = subparsers.add_parser("hpke", help="HPKE (RFC 9180) seal/open with PQ KEMs")
    commands = parser.add_subparsers(dest="hpke_command", metavar="ACTION", required=True)
    keygen = commands.add_parser("keygen", help="a key pair for an HPKE KEM, as PEM files")
    keygen.add_argument("--kem", default="X-Wing", help=_KEM_HELP)
    keygen.add_argument("--private-out", required=True, help="private key file (PEM)")
    keygen.add_argument("--public-out", required=True, help="public key file (PEM)")
    keygen.add_argument("--force", action="store_true", help="overwrite existing files")
    keygen.set_defaults(func=_keygen)
    seal = commands.add_parser("seal", help="encrypt a file to a public key: enc || ct")
    seal.add_argument("public_key", help="the recipient's public key (PEM)")
    _suite_options(seal)
    seal.set_defaults(func=_seal)
    open_ = commands.add_parser("open", help="decrypt enc || ct with a private key")
    open_.add_argument("private_key", help="the recipient's private key (PEM)")
    _suite_options(open_)
    open_.set_defaults(func=_open)
