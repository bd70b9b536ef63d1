"""``pqkit keygen / sign / verify / show`` with stateful keys (LMS / HSS, XMSS): the
key file is the counter, the public key an RFC 9802 SubjectPublicKeyInfo."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import Cli

from pqkit import der
from pqkit.serialization.pem import pem_decode
from pqkit.stateful import files
from pqkit.stateful.storage import FileStorage


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, capfdbinary: pytest.CaptureFixture[bytes]) -> Cli:
    return Cli(monkeypatch, capfdbinary)


@pytest.mark.parametrize(
    ("name", "oid"),
    [("LMS_SHA256_H5_W8", files.OID_HSS), ("XMSS-SHAKE256_10_192", files.OID_XMSS)],
)
def test_keygen_sign_verify_show(cli: Cli, tmp_path: Path, name: str, oid: str) -> None:
    key, pub, msg = tmp_path / "k.key", tmp_path / "k.pub", tmp_path / "msg"
    msg.write_bytes(b"firmware image")
    cli.ok("keygen", name, "-o", key, "--pub", pub)
    spki = pem_decode(pub.read_bytes(), ("PUBLIC KEY",))[1]
    got_oid, raw = files.decode_spki(spki)
    assert got_oid == oid and len(raw) in (60, 52)
    reader = der.DerReader(der.read_single(spki, der.SEQUENCE, "SEQUENCE", "t"), "t")
    alg = der.DerReader(reader.expect(der.SEQUENCE, "alg"), "t")
    alg.expect(der.OBJECT_IDENTIFIER, "oid")
    assert alg.at_end()  # RFC 9802: parameters absent
    cli.ok("sign", key, msg, "-o", tmp_path / "s1")
    cli.ok("sign", key, msg, "-o", tmp_path / "s2")
    assert (tmp_path / "s1").read_bytes() != (tmp_path / "s2").read_bytes()
    assert FileStorage(key).load().next_index == 2
    assert b"signature valid" in cli.ok("verify", pub, msg, tmp_path / "s1")
    assert b"signature valid" in cli.ok("verify", key, msg, tmp_path / "s2")
    msg.write_bytes(b"firmware image!")
    cli.fails("verify", pub, msg, tmp_path / "s1", status=1, match="NOT valid")
    out = cli.ok("show", key).decode()
    total = 32 if name.startswith("LMS") else 1023
    assert f"remaining:    {total - 2} of {total} signatures" in out
    assert "next index:   2" in out


def test_key_file_is_never_overwritten(cli: Cli, tmp_path: Path) -> None:
    key = tmp_path / "k.key"
    cli.ok("keygen", "LMS_SHA256_H5_W8", "-o", key)
    before = key.read_bytes()
    cli.fails("keygen", "LMS_SHA256_H5_W8", "-o", key, "--force", match="never overwritten")
    assert key.read_bytes() == before
    cli.fails("keygen", "LMS_SHA256_H5_W8", "-o", "-", match="must name a file")


def test_exhausted_key_file_refuses_to_sign(cli: Cli, tmp_path: Path) -> None:
    key, msg = tmp_path / "k.key", tmp_path / "m"
    msg.write_bytes(b"m")
    cli.ok("keygen", "LMS_SHA256_H5_W8", "-o", key)
    storage = FileStorage(key)
    storage.reserve(32)
    cli.fails("sign", key, msg, "-o", tmp_path / "s", match="exhausted")
    assert not (tmp_path / "s").exists()
