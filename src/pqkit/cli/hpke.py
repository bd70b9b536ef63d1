"""``pqkit hpke keygen|seal|open``: HPKE (RFC 9180, draft-ietf-hpke-pq) on files.

``seal`` writes ``enc || ciphertext`` (the layout of pyca/cryptography's
``Suite.encrypt``); ``open`` reads it back. Keys are PEM files: the hybrid KEMs'
``<NAME> SEED PRIVATE KEY`` / ``<NAME> PUBLIC KEY`` blocks (:mod:`pqkit.keys.hybrid`)
or ML-KEM PKCS#8 / SubjectPublicKeyInfo files (``pqkit keygen``) with a seed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

__all__ = ["register"]

_KEMS = {
    "ML-KEM-512": "MLKEM512",
    "ML-KEM-768": "MLKEM768",
    "ML-KEM-1024": "MLKEM1024",
    "MLKEM768-P256": "MLKEM768_P256",
    "MLKEM1024-P384": "MLKEM1024_P384",
    "X-Wing": "MLKEM768_X25519",
    "MLKEM768-X25519": "MLKEM768_X25519",
}
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
        hpke.KEM[_KEMS[args.kem]],
        hpke.KDF[args.kdf.upper().replace("-", "_")],
        hpke.AEAD[args.aead.upper().replace("-", "_")],
    )


def _read(path: str) -> bytes:
    return sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()


def _write(path: str, data: bytes) -> None:
    if path == "-":
        sys.stdout.buffer.write(data)
    else:
        Path(path).write_bytes(data)


def _load_public(data: bytes) -> bytes:
    from pqkit.keys import load_pem_public_key
    from pqkit.keys.hybrid import load_pem_hybrid_public_key

    if b"-----BEGIN PUBLIC KEY-----" in data:
        return load_pem_public_key(data).public_bytes_raw()
    return load_pem_hybrid_public_key(data).public_bytes_raw()


def _load_private(data: bytes) -> bytes:
    from pqkit.keys import load_pem_private_key
    from pqkit.keys.hybrid import load_pem_hybrid_private_key

    if b"-----BEGIN PRIVATE KEY-----" in data:
        return load_pem_private_key(data).private_bytes_raw()
    return load_pem_hybrid_private_key(data).private_bytes_raw()


def _keygen(args: argparse.Namespace) -> int:
    from pqkit import keys
    from pqkit.keys import hybrid

    name = args.kem
    if name.startswith("ML-KEM"):
        private: Any = keys.private_key_class(name).generate()
        from pqkit.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat

        priv = private.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
        pub = private.public_key().public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo)
    else:
        cls = {
            "X-Wing": hybrid.XWingPrivateKey,
            "MLKEM768-X25519": hybrid.XWingPrivateKey,
            "MLKEM768-P256": hybrid.MLKEM768P256PrivateKey,
            "MLKEM1024-P384": hybrid.MLKEM1024P384PrivateKey,
        }[name]
        private = cls.generate()
        priv, pub = private.private_bytes_pem(), private.public_key().public_bytes_pem()
    _write(args.private_out, priv)
    _write(args.public_out, pub)
    return 0


def _seal(args: argparse.Namespace) -> int:
    suite = _suite(args)
    public = _load_public(Path(args.public_key).read_bytes())
    blob = suite.encrypt(_read(args.input), public, args.info.encode(), aad=args.aad.encode())
    _write(args.output, blob)
    return 0


def _open(args: argparse.Namespace) -> int:
    suite = _suite(args)
    private = _load_private(Path(args.private_key).read_bytes())
    plaintext = suite.decrypt(_read(args.input), private, args.info.encode(), aad=args.aad.encode())
    _write(args.output, plaintext)
    return 0


def _suite_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--kem", choices=list(_KEMS), default="X-Wing", help="HPKE KEM (X-Wing)")
    p.add_argument("--kdf", choices=_KDFS, default="HKDF-SHA256", help="HPKE KDF (HKDF-SHA256)")
    p.add_argument("--aead", choices=_AEADS, default="AES-128-GCM", help="AEAD (AES-128-GCM)")
    p.add_argument("--info", default="", help="the application info string")
    p.add_argument("--aad", default="", help="additional authenticated data")
    p.add_argument("-i", "--in", dest="input", default="-", help="input file ('-': stdin)")
    p.add_argument("-o", "--out", dest="output", default="-", help="output file ('-': stdout)")


def register(subparsers: Any) -> None:
    """Add ``pqkit hpke`` to the command."""
    parser = subparsers.add_parser("hpke", help="HPKE (RFC 9180) seal/open with PQ KEMs")
    commands = parser.add_subparsers(dest="hpke_command", metavar="ACTION", required=True)
    keygen = commands.add_parser("keygen", help="a key pair for an HPKE KEM, as PEM files")
    keygen.add_argument("--kem", choices=list(_KEMS), default="X-Wing")
    keygen.add_argument("--private-out", required=True, help="private key file (PEM)")
    keygen.add_argument("--public-out", required=True, help="public key file (PEM)")
    keygen.set_defaults(func=_keygen)
    seal = commands.add_parser("seal", help="encrypt a file to a public key: enc || ct")
    seal.add_argument("public_key", help="the recipient's public key (PEM)")
    _suite_options(seal)
    seal.set_defaults(func=_seal)
    open_ = commands.add_parser("open", help="decrypt enc || ct with a private key")
    open_.add_argument("private_key", help="the recipient's private key (PEM)")
    _suite_options(open_)
    open_.set_defaults(func=_open)
