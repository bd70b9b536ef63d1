"""Key files for the ``pqkit`` commands: PEM or DER (told apart by content),
PKCS#8 private keys (optionally encrypted) and SubjectPublicKeyInfo public keys.
Every error names the file."""

from __future__ import annotations

import argparse
from typing import Any

from pqkit.cli.files import read_file

__all__ = ["is_pem", "load_private", "load_public", "need", "password"]


def password(args: argparse.Namespace) -> bytes | None:
    """The password of ``--password-file`` (its first line), or None."""
    path = getattr(args, "password_file", None)
    if path is None:
        return None
    data = read_file(path, "password file")
    line = data.split(b"\n", 1)[0].rstrip(b"\r")
    if not line:
        raise ValueError(f"password file {path!r} is empty")
    return line


def is_pem(data: bytes) -> bool:
    """Whether ``data`` looks like PEM (else it is read as DER)."""
    return b"-----BEGIN " in data[:4096]


def load_private(path: str, secret: bytes | None) -> Any:
    """The private key in file ``path``, decrypted with ``secret`` if encrypted."""
    from pqkit.keys.loaders import load_der_private_key, load_pem_private_key

    data = read_file(path, "key file")
    loader = load_pem_private_key if is_pem(data) else load_der_private_key
    try:
        return loader(data, secret)
    except TypeError as exc:  # password given / missing: say how to fix it
        if secret is None:
            raise ValueError(
                f"{path}: the private key is encrypted; give --password-file"
            ) from None
        raise ValueError(f"{path}: {exc}") from None
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None


def load_public(path: str) -> Any:
    """The public key in file ``path``."""
    from pqkit.keys.loaders import load_der_public_key, load_pem_public_key

    data = read_file(path, "public key file")
    try:
        return load_pem_public_key(data) if is_pem(data) else load_der_public_key(data)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None


def need(key: Any, family: type[Any], command: str, what: str) -> None:
    """Refuse a key of the wrong family for ``command``."""
    if not isinstance(key, family):
        raise ValueError(f"{command} needs {what}, got an {key.algorithm.name} key")
