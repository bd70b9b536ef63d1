"""Key files and passwords for the ``pqkit`` commands.

Key files are PEM or DER (told apart by content): PKCS#8 private keys, optionally
password-encrypted, and SubjectPublicKeyInfo public keys; every error names the
file. Commands that need a public key also take a private key file (its public
key is derived). Passwords come as openssl's ``-passin`` does: ``pass:TEXT``,
``env:VAR``, ``file:PATH`` (its first line), or a prompt when standard input is a
terminal.
"""

from __future__ import annotations

import getpass
import os
import sys
from dataclasses import dataclass
from typing import Any

from pqkit.cli.files import STDIO, read_input
from pqkit.cli.status import Failure

__all__ = [
    "KEY_FILE_LIMIT",
    "LoadedKey",
    "is_pem",
    "load_key",
    "load_private",
    "load_public",
    "need",
    "password_from",
    "read_key_file",
]

KEY_FILE_LIMIT = 1 << 16
"""The most bytes read from a key file: the largest key file pqkit writes (a
FrodoKEM-1344 private key, encrypted, PEM) is about 58 KiB; a test checks it stays
below this. Classic McEliece public keys are the exception
(:data:`LARGE_PUBLIC_KEY_FILE_LIMIT`)."""
LARGE_PUBLIC_KEY_FILE_LIMIT = 1 << 21
"""The most bytes read from a Classic McEliece public key PEM file (8192128: a
1 357 824-byte key, about 1.84 MB of PEM)."""

_PASSWORD_LIMIT = 1024
_PRIVATE_LABELS = ("PRIVATE KEY", "ENCRYPTED PRIVATE KEY")


@dataclass(frozen=True)
class LoadedKey:
    """A key read from a file: the key object, and for a private key its form
    (``seed``, ``expanded`` or ``both``) and whether the file was encrypted."""

    key: Any
    private: bool
    form: str | None = None
    encrypted: bool = False


def password_from(spec: str | None, option: str = "--passin") -> bytes | None:
    """The password named by ``spec``: ``pass:TEXT``, ``env:VAR`` or ``file:PATH``."""
    if spec is None:
        return None
    kind, sep, value = spec.partition(":")
    if not sep or kind not in ("pass", "env", "file"):
        raise ValueError(f"{option} must be pass:TEXT, env:VAR or file:PATH, got {spec!r}")
    if kind == "pass":
        secret = value.encode()
    elif kind == "env":
        if value not in os.environ:
            raise ValueError(f"{option} env:{value}: the environment variable is not set")
        secret = os.environ[value].encode()
    else:
        data = read_input(value, "password file", _PASSWORD_LIMIT)
        secret = data.split(b"\n", 1)[0].rstrip(b"\r")
    if not secret:
        raise ValueError(f"{option}: the password is empty")
    return secret


def _passin(args: Any) -> bytes | None:
    legacy = getattr(args, "password_file", None)
    spec = getattr(args, "passin", None)
    if legacy is not None and spec is not None:
        raise ValueError("give --passin or --password-file, not both")
    return password_from(f"file:{legacy}" if legacy is not None else spec)


def _prompt(path: str, stdin_in_use: bool) -> bytes:
    if stdin_in_use or not sys.stdin.isatty():
        raise ValueError(f"{path}: the private key is encrypted; give --passin")
    secret = getpass.getpass(f"Password for {path}: ").encode()
    if not secret:
        raise ValueError(f"{path}: the password is empty")
    return secret


def is_pem(data: bytes) -> bool:
    """Whether ``data`` looks like PEM (else it is read as DER)."""
    return b"-----BEGIN " in data[:4096]


def _form(plain_der: bytes) -> str:
    from pqkit.serialization.structures import decode_private_key_info

    info = decode_private_key_info(plain_der)
    if info.seed is not None and info.expanded is not None:
        return "both"
    return "seed" if info.seed is not None else "expanded"


def _private(path: str, body: bytes, args: Any, stdin_in_use: bool) -> LoadedKey:
    """The private key in DER ``body`` (plain or encrypted PKCS#8)."""
    from pqkit.keys.loaders import load_der_private_key
    from pqkit.serialization import pbes2

    given = _passin(args)
    try:
        key = load_der_private_key(body)
    except TypeError:  # encrypted
        pbes2.require()  # the missing extra said before any password prompt
        secret = given if given is not None else _prompt(path, stdin_in_use)
        try:
            plain = pbes2.decrypt(body, secret)
            key = load_der_private_key(plain)
        except ValueError as exc:
            if "wrong password" in str(exc):
                raise Failure(f"{path}: {exc}") from None
            raise ValueError(f"{path}: {exc}") from None
        return LoadedKey(key, True, _form(plain), True)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None
    if given is not None:
        raise ValueError(f"{path}: a password was given but the private key is not encrypted")
    return LoadedKey(key, True, _form(body), False)


def _is_hybrid(data: bytes) -> bool:
    from pqkit.keys.hybrid import is_hybrid_pem

    return is_hybrid_pem(data)


def _falcon(data: bytes, args: Any) -> LoadedKey | None:
    """A Falcon key file (a raw PEM block, never encrypted), or None for another."""
    from pqkit.keys.falcon import FalconPrivateKey, is_falcon_pem, load_pem_falcon_key

    if not is_falcon_pem(data):
        return None
    if _passin(args) is not None:
        raise ValueError("a password was given but Falcon key files are not encrypted")
    key = load_pem_falcon_key(data)
    return LoadedKey(key, isinstance(key, FalconPrivateKey), None, False)


def _hybrid(data: bytes, args: Any) -> LoadedKey:
    """A hybrid KEM key file (a raw PEM block, never encrypted)."""
    from pqkit.keys.hybrid import HybridPrivateKey, load_pem_hybrid_key

    if _passin(args) is not None:
        raise ValueError("a password was given but hybrid key files are not encrypted")
    key = load_pem_hybrid_key(data)
    private = isinstance(key, HybridPrivateKey)
    return LoadedKey(key, private, "seed" if private else None, False)


def read_key_file(path: str) -> bytes:
    """The bytes of key file ``path`` (``-``: standard input), at most
    :data:`KEY_FILE_LIMIT`, or :data:`LARGE_PUBLIC_KEY_FILE_LIMIT` for a raw-PEM
    public key file of a KEM whose public keys are that large (Classic McEliece,
    told by its first line); an empty file is refused as such (``ValueError``)."""
    data = read_input(path, "key file", KEY_FILE_LIMIT, oversize_ok=True)
    if len(data) > KEY_FILE_LIMIT:
        first = data[:100].split(b"\n", 1)[0].strip()
        if not (
            first.startswith(b"-----BEGIN CLASSIC-MCELIECE-")
            and first.endswith(b" PUBLIC KEY-----")
        ):
            read_input(path, "key file", KEY_FILE_LIMIT)  # raises: too large
        data = read_input(path, "key file", LARGE_PUBLIC_KEY_FILE_LIMIT)
    if not data:
        raise ValueError(f"{path}: empty file (no key in it)")
    return data


def load_key(path: str, args: Any, *, stdin_in_use: bool = False) -> LoadedKey:
    """The key in file ``path``: a private key (decrypted as ``args`` says) or a
    public key, whichever the file holds."""
    from pqkit.keys.loaders import load_der_public_key
    from pqkit.serialization.pem import pem_decode

    data = read_key_file(path)
    try:
        if is_pem(data) and _is_hybrid(data):
            return _hybrid(data, args)
        falcon = _falcon(data, args) if is_pem(data) else None
        if falcon is not None:
            return falcon
        if is_pem(data):
            label, body = pem_decode(data, ("PUBLIC KEY", *_PRIVATE_LABELS))
            if label == "PUBLIC KEY":
                return LoadedKey(load_der_public_key(body), False)
            loaded = _private(path, body, args, stdin_in_use or path == STDIO)
            if loaded.encrypted != (label == "ENCRYPTED PRIVATE KEY"):
                raise ValueError(f"PEM label {label!r} does not match its contents")
            return loaded
        try:
            return LoadedKey(load_der_public_key(data), False)
        except ValueError as public_error:
            try:
                return _private(path, data, args, stdin_in_use or path == STDIO)
            except ValueError as private_error:
                raise ValueError(
                    f"neither a public key ({public_error}) nor a private key ({private_error})"
                ) from None
    except ValueError as exc:
        message = str(exc)
        raise ValueError(
            message if message.startswith(f"{path}: ") else f"{path}: {message}"
        ) from None


def load_private(path: str, args: Any, *, stdin_in_use: bool = False) -> LoadedKey:
    """The private key in file ``path``; a public key file is refused."""
    loaded = load_key(path, args, stdin_in_use=stdin_in_use)
    if not loaded.private:
        raise ValueError(f"{path}: this is a public key; a private key is needed")
    return loaded


def load_public(path: str, args: Any, *, stdin_in_use: bool = False) -> Any:
    """The public key in file ``path``, or that of the private key in it."""
    loaded = load_key(path, args, stdin_in_use=stdin_in_use)
    return loaded.key.public_key() if loaded.private else loaded.key


def algorithm_name(key: Any) -> str:
    """The algorithm name of a key object (pqkit's key classes name a KeyAlgorithm,
    the hybrid key classes the name itself)."""
    alg = key.algorithm
    return alg if isinstance(alg, str) else str(alg.name)


def need(key: Any, family: type[Any] | tuple[type[Any], ...], command: str, what: str) -> None:
    """Refuse a key of the wrong family for ``command``."""
    if not isinstance(key, family):
        raise ValueError(f"{command} needs {what}, got an {algorithm_name(key)} key")
