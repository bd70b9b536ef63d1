"""Falcon key objects and files (pqkit.keys.falcon: raw keys in PEM blocks with
labels of their own) and ``pqkit keygen / sign / verify / show`` with them."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import Cli

import pqkit
from pqkit.errors import InvalidSignature
from pqkit.keys import falcon

CLASSES = [
    falcon.Falcon512PrivateKey,
    falcon.Falcon1024PrivateKey,
    falcon.FalconPadded512PrivateKey,
    falcon.FalconPadded1024PrivateKey,
]


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.algorithm)
def test_key_objects_and_pem_round_trip(cls: type[falcon.FalconPrivateKey]) -> None:
    key = cls.generate()
    public = key.public_key()
    signature = key.sign(b"data")
    public.verify(signature, b"data")
    with pytest.raises(InvalidSignature):
        public.verify(signature, b"other")
    scheme = pqkit.sig(cls.algorithm)
    assert scheme.public_key_from_secret(key.private_bytes_raw()) == public.public_bytes_raw()
    pem = key.private_bytes_pem()
    assert pem.startswith(f"-----BEGIN {cls.algorithm.upper()} PRIVATE KEY-----".encode())
    again = falcon.load_pem_falcon_key(pem)
    assert type(again) is cls and again.private_bytes_raw() == key.private_bytes_raw()
    loaded = falcon.load_pem_falcon_key(public.public_bytes_pem())
    assert loaded == public and type(loaded) is cls.public_class
    with pytest.raises(AttributeError, match="immutable"):
        key._raw = b""  # type: ignore[misc]


def test_key_checks() -> None:
    key = falcon.Falcon512PrivateKey.generate()
    raw = key.private_bytes_raw()
    with pytest.raises(ValueError, match="secret key must be 1281 bytes"):
        falcon.Falcon512PrivateKey.from_private_bytes(raw[:-1])
    with pytest.raises(ValueError, match="header byte"):
        falcon.Falcon512PrivateKey.from_private_bytes(b"\x5a" + raw[1:])
    with pytest.raises(ValueError, match="public key must be 897 bytes"):
        falcon.Falcon512PublicKey.from_public_bytes(bytes(898))
    with pytest.raises(ValueError, match="not a Falcon set"):
        falcon.falcon_private_key_class("ML-DSA-44")
    assert falcon.falcon_private_key_class("falcon512") is falcon.Falcon512PrivateKey


def test_cli_keygen_sign_verify_show(cli: Cli, tmp_path: Path) -> None:
    key, pub, msg, sig = (tmp_path / n for n in ("k.pem", "p.pem", "m", "s"))
    msg.write_bytes(b"a message")
    cli.ok("keygen", "Falcon-512", "-o", key, "--pub", pub)
    assert key.read_bytes().startswith(b"-----BEGIN FALCON-512 PRIVATE KEY-----")
    cli.ok("sign", key, msg, "-o", sig)
    assert cli.ok("verify", pub, msg, sig) == b"signature valid\n"
    msg.write_bytes(b"another message")
    status, _, err = cli.run("verify", pub, msg, sig)
    assert status == 1 and "NOT valid" in err
    shown = cli.ok("show", key).decode()
    assert "Falcon-512 (Falcon round 3, no OID)" in shown and "1281 bytes" in shown
    status, _, err = cli.run("sign", key, msg, "-o", tmp_path / "s2", "--deterministic")
    assert status == 2 and "no --deterministic" in err
    status, _, err = cli.run("keygen", "Falcon-512", "-o", tmp_path / "k2", "--der")
    assert status == 2 and "raw PEM" in err
