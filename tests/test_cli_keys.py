"""The file-based ``pqkit`` commands, run in-process through ``main()``.

Round trips (keygen, pub, encaps, decaps, sign, verify) and the error paths: a
non-zero status, one line on stderr, never a traceback; no overwriting without
--force; private keys and shared secrets written with mode 0600. (One subprocess
smoke test of the console script lives in test_cli.py.)
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from helpers import Cli

import pqkit
from pqkit.cli import files, main
from pqkit.keys import MLDSAPrivateKey, MLKEMPrivateKey


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_kem_round_trip(cli: Cli, tmp_path: Path) -> None:
    cli.ok("keygen", "ML-KEM-768", "-o", "k.pem", "--pub", "p.pem")
    assert mode(tmp_path / "k.pem") == 0o600
    key = pqkit.load_pem_private_key((tmp_path / "k.pem").read_bytes())
    assert isinstance(key, MLKEMPrivateKey) and key.algorithm.name == "ML-KEM-768"
    assert pqkit.load_pem_public_key((tmp_path / "p.pem").read_bytes()) == key.public_key()
    assert cli.ok("pub", "k.pem") == (tmp_path / "p.pem").read_bytes()
    cli.ok("encaps", "p.pem", "--ct", "ct.bin", "--secret", "ss1.bin")
    cli.ok("decaps", "k.pem", "ct.bin", "--secret", "ss2.bin")
    shared = (tmp_path / "ss1.bin").read_bytes()
    assert len(shared) == 32 and shared == (tmp_path / "ss2.bin").read_bytes()
    assert key.decapsulate((tmp_path / "ct.bin").read_bytes()) == shared
    assert mode(tmp_path / "ss1.bin") == 0o600 and mode(tmp_path / "ss2.bin") == 0o600


def test_sign_verify_round_trip(cli: Cli, tmp_path: Path) -> None:
    cli.ok("keygen", "ML-DSA-44", "-o", "k.der", "--der", "--pub", "p.der")
    key = pqkit.load_der_private_key((tmp_path / "k.der").read_bytes())
    assert isinstance(key, MLDSAPrivateKey)
    message = tmp_path / "big.bin"
    data = bytes(range(256)) * (5 * files.CHUNK_SIZE // 512 + 7)  # 2.5 chunks and a bit
    message.write_bytes(data)
    cli.ok("sign", "k.der", "big.bin", "-o", "sig.bin", "--context", "c0ffee", "--deterministic")
    signature = (tmp_path / "sig.bin").read_bytes()
    assert signature == key.sign(data, bytes.fromhex("c0ffee"), deterministic=True)
    assert cli.ok("verify", "p.der", "big.bin", "sig.bin", "--context", "C0FFEE") == (
        b"signature valid\n"
    )
    assert cli.ok("verify", "-q", "p.der", "big.bin", "sig.bin", "--context", "c0ffee") == b""
    cli.fails("verify", "p.der", "big.bin", "sig.bin", status=1, match="NOT valid")
    message.write_bytes(data + b"!")
    cli.fails(
        "verify", "p.der", "big.bin", "sig.bin", "--context", "c0ffee", status=1, match="NOT valid"
    )
    (tmp_path / "short.bin").write_bytes(signature[:-1])
    cli.fails("verify", "p.der", "big.bin", "short.bin", status=1, match="NOT valid")
    # standard input as the message
    status, _, err = cli.run("verify", "p.der", "-", "sig.bin", "--context", "c0ffee", stdin=data)
    assert status == 0, err


def test_prehash_sign_verify(cli: Cli, tmp_path: Path) -> None:
    cli.ok("keygen", "ML-DSA-65", "-o", "k.pem", "--pub", "p.pem")
    (tmp_path / "m.txt").write_bytes(b"pre-hashed message")
    cli.ok("sign", "k.pem", "m.txt", "-o", "sig", "--prehash", "sha2-512")
    cli.ok("verify", "p.pem", "m.txt", "sig", "--prehash", "SHA2-512")
    cli.fails("verify", "p.pem", "m.txt", "sig", status=1, match="NOT valid")
    cli.fails("verify", "p.pem", "m.txt", "sig", "--prehash", "SHA3-512", status=1)
    cli.fails(
        "sign", "k.pem", "m.txt", "-o", "sig2", "--prehash", "md5", match="unknown prehash 'md5'"
    )


def test_signature_verifies_in_cryptography(cli: Cli, tmp_path: Path) -> None:
    serialization = pytest.importorskip("cryptography.hazmat.primitives.serialization")
    cli.ok("keygen", "ML-DSA-87", "-o", "k.pem", "--pub", "p.pem")
    (tmp_path / "m").write_bytes(b"m" * 1000)
    cli.ok("sign", "k.pem", "m", "-o", "sig", "--context", "01")
    public = serialization.load_pem_public_key((tmp_path / "p.pem").read_bytes())
    public.verify((tmp_path / "sig").read_bytes(), b"m" * 1000, b"\x01")


def test_forms_and_password(cli: Cli, tmp_path: Path) -> None:
    pytest.importorskip("cryptography")
    (tmp_path / "pw").write_bytes(b"hunter2\n")
    (tmp_path / "wrong").write_bytes(b"hunter3\n")
    cli.ok("keygen", "ML-KEM-512", "-o", "k.pem", "--form", "both", "--password-file", "pw")
    pem = (tmp_path / "k.pem").read_bytes()
    assert pem.startswith(b"-----BEGIN ENCRYPTED PRIVATE KEY-----")
    key = pqkit.load_pem_private_key(pem, b"hunter2")
    cli.fails("pub", "k.pem", match="encrypted; give --passin")
    cli.fails("pub", "k.pem", "--password-file", "wrong", status=1, match="wrong password")
    out = cli.ok("pub", "k.pem", "--password-file", "pw")
    assert pqkit.load_pem_public_key(out) == key.public_key()
    cli.ok("keygen", "ML-DSA-44", "-o", "e.pem", "--form", "expanded")
    expanded = pqkit.load_pem_private_key((tmp_path / "e.pem").read_bytes())
    with pytest.raises(ValueError, match="no seed"):
        expanded.private_bytes_raw()
    cli.fails("pub", "e.pem", "--password-file", "pw", match="not encrypted")


def test_no_overwrite_without_force(cli: Cli, tmp_path: Path) -> None:
    cli.ok("keygen", "ML-DSA-44", "-o", "k.pem")
    before = (tmp_path / "k.pem").read_bytes()
    cli.fails("keygen", "ML-DSA-44", "-o", "k.pem", match="exists; use --force")
    assert (tmp_path / "k.pem").read_bytes() == before
    (tmp_path / "p.pem").write_bytes(b"keep me")
    cli.fails("keygen", "ML-DSA-44", "-o", "new.pem", "--pub", "p.pem", match="exists")
    assert not (tmp_path / "new.pem").exists()  # nothing written before the refusal
    cli.fails("pub", "k.pem", "-o", "p.pem", match="exists")
    assert (tmp_path / "p.pem").read_bytes() == b"keep me"
    os.chmod(tmp_path / "k.pem", 0o644)
    cli.ok("keygen", "ML-DSA-44", "-o", "k.pem", "--force")
    assert (tmp_path / "k.pem").read_bytes() != before
    assert mode(tmp_path / "k.pem") == 0o600
    cli.fails("keygen", "ML-DSA-44", "-o", "same", "--pub", "same", match="two outputs")


def test_user_errors(cli: Cli, tmp_path: Path) -> None:
    cli.ok("keygen", "ML-DSA-44", "-o", "d.pem", "--pub", "dp.pem")
    cli.ok("keygen", "ML-KEM-768", "-o", "k.pem", "--pub", "kp.pem")
    (tmp_path / "m").write_bytes(b"m")
    (tmp_path / "junk.pem").write_bytes(
        b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"
    )
    cli.fails("keygen", "Kyber768", "-o", "x.pem", match="unknown algorithm 'Kyber768'")
    cli.fails(
        "decaps",
        "d.pem",
        "m",
        "--secret",
        "s",
        match="needs a KEM private key (ML-KEM, FrodoKEM, raw-PEM or composite)",
    )
    cli.fails(
        "encaps",
        "dp.pem",
        "--ct",
        "c",
        "--secret",
        "s",
        match="needs a KEM public key (ML-KEM, FrodoKEM, raw-PEM or composite)",
    )
    cli.fails(
        "sign",
        "k.pem",
        "m",
        "-o",
        "s",
        match="needs an ML-DSA, SLH-DSA, Falcon or composite ML-DSA private key",
    )
    cli.fails(
        "verify",
        "kp.pem",
        "m",
        "m",
        status=2,
        match="needs an ML-DSA, SLH-DSA, Falcon or composite ML-DSA key",
    )
    cli.fails("pub", "missing.pem", match="'missing.pem' does not exist")
    cli.fails("pub", "junk.pem", match="junk.pem: ")
    cli.fails("decaps", "k.pem", "m", "--secret", "s", match="ciphertext must be 1088")
    cli.fails("sign", "d.pem", "m", "-o", "s", "--context", "xyz", match="hexadecimal")
    cli.fails("sign", "d.pem", "nope", "-o", "s", match="'nope' does not exist")
    cli.fails("verify", "dp.pem", "m", "nope", status=2, match="does not exist")
    assert not any(p.name in ("s", "c", "x.pem") for p in tmp_path.iterdir())


def test_list(cli: Cli, tmp_path: Path) -> None:
    out = cli.ok("list").decode()
    for oid in ("2.16.840.1.101.3.4.4.1", "2.16.840.1.101.3.4.4.3", "2.16.840.1.101.3.4.3.19"):
        assert oid in out
    assert "ML-KEM-768" in out and "ML-DSA-65" in out


def test_sign_streams_through_the_mu_hasher(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    from pqkit.keys import mldsa

    key = mldsa.MLDSA44PrivateKey.from_seed_bytes(bytes(32))
    (tmp_path / "k.pem").write_bytes(
        key.private_bytes(pqkit.Encoding.PEM, pqkit.PrivateFormat.PKCS8, pqkit.NoEncryption())
    )
    data = os.urandom(3 * files.CHUNK_SIZE + 5)
    (tmp_path / "big").write_bytes(data)
    pieces: list[int] = []
    update = mldsa.MuHasher.update

    def spy(self: mldsa.MuHasher, piece: bytes) -> None:
        pieces.append(len(piece))
        update(self, piece)

    def refuse(*args: object, **kwargs: object) -> bytes:
        raise AssertionError("sign() would hold the whole message in memory")

    monkeypatch.setattr(mldsa.MuHasher, "update", spy)
    monkeypatch.setattr(mldsa.MLDSAPrivateKey, "sign", refuse)
    out = str(tmp_path / "sig")
    assert main(["sign", str(tmp_path / "k.pem"), str(tmp_path / "big"), "-o", out]) == 0
    assert pieces == [files.CHUNK_SIZE] * 3 + [5]
    key.public_key().verify(Path(out).read_bytes(), data)
    assert capsysbinary.readouterr().err == b""
