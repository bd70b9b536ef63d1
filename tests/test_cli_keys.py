"""The file-based ``pqkit`` commands, run as a user runs them (a subprocess each).

Round trips (keygen, pub, encaps, decaps, sign, verify) and the error paths: a
non-zero status, one line on stderr, never a traceback; no overwriting without
--force; private keys and shared secrets written with mode 0600.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import pqkit
from pqkit.cli import keys as keycli
from pqkit.cli import main
from pqkit.keys import MLDSAPrivateKey, MLKEMPrivateKey

SRC = str(Path(pqkit.__file__).resolve().parents[1])


def run(
    *args: str | Path, cwd: Path, stdin: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([SRC, env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "pqkit", *map(str, args)],
        cwd=cwd, env=env, input=stdin, capture_output=True, check=False, timeout=120,
    )  # fmt: skip


def ok(*args: str | Path, cwd: Path) -> bytes:
    result = run(*args, cwd=cwd)
    assert result.returncode == 0, result.stderr.decode()
    assert result.stderr == b""
    return result.stdout


def fails(*args: str | Path, cwd: Path, status: int = 1, match: str = "") -> str:
    result = run(*args, cwd=cwd)
    assert result.returncode == status, (result.returncode, result.stderr)
    err = result.stderr.decode()
    assert "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("pqkit: "), err
    assert match in err, err
    return err


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_kem_round_trip(tmp_path: Path) -> None:
    ok("keygen", "ML-KEM-768", "-o", "k.pem", "--pub", "p.pem", cwd=tmp_path)
    assert mode(tmp_path / "k.pem") == 0o600
    key = pqkit.load_pem_private_key((tmp_path / "k.pem").read_bytes())
    assert isinstance(key, MLKEMPrivateKey) and key.algorithm.name == "ML-KEM-768"
    assert pqkit.load_pem_public_key((tmp_path / "p.pem").read_bytes()) == key.public_key()
    assert ok("pub", "k.pem", cwd=tmp_path) == (tmp_path / "p.pem").read_bytes()
    ok("encaps", "p.pem", "--ct", "ct.bin", "--secret", "ss1.bin", cwd=tmp_path)
    ok("decaps", "k.pem", "ct.bin", "--secret", "ss2.bin", cwd=tmp_path)
    shared = (tmp_path / "ss1.bin").read_bytes()
    assert len(shared) == 32 and shared == (tmp_path / "ss2.bin").read_bytes()
    assert key.decapsulate((tmp_path / "ct.bin").read_bytes()) == shared
    assert mode(tmp_path / "ss1.bin") == 0o600 and mode(tmp_path / "ss2.bin") == 0o600


def test_sign_verify_round_trip(tmp_path: Path) -> None:
    ok("keygen", "ML-DSA-44", "-o", "k.der", "--der", "--pub", "p.der", cwd=tmp_path)
    key = pqkit.load_der_private_key((tmp_path / "k.der").read_bytes())
    assert isinstance(key, MLDSAPrivateKey)
    message = tmp_path / "big.bin"
    data = bytes(range(256)) * (5 * keycli.CHUNK_SIZE // 512 + 7)  # 2.5 chunks and a bit
    message.write_bytes(data)
    ok("sign", "k.der", "big.bin", "-o", "sig.bin", "--context", "c0ffee",
       "--deterministic", cwd=tmp_path)  # fmt: skip
    signature = (tmp_path / "sig.bin").read_bytes()
    assert signature == key.sign(data, bytes.fromhex("c0ffee"), deterministic=True)
    assert ok("verify", "p.der", "big.bin", "sig.bin", "--context", "C0FFEE", cwd=tmp_path) == (
        b"signature valid\n"
    )
    assert ok("verify", "-q", "p.der", "big.bin", "sig.bin", "--context", "c0ffee",
              cwd=tmp_path) == b""  # fmt: skip
    fails("verify", "p.der", "big.bin", "sig.bin", cwd=tmp_path, match="NOT valid")
    message.write_bytes(data + b"!")
    fails("verify", "p.der", "big.bin", "sig.bin", "--context", "c0ffee", cwd=tmp_path,
          match="NOT valid")  # fmt: skip
    (tmp_path / "short.bin").write_bytes(signature[:-1])
    fails("verify", "p.der", "big.bin", "short.bin", cwd=tmp_path, match="NOT valid")
    # standard input as the message
    result = run("verify", "p.der", "-", "sig.bin", "--context", "c0ffee", cwd=tmp_path,
                 stdin=data)  # fmt: skip
    assert result.returncode == 0, result.stderr


def test_prehash_sign_verify(tmp_path: Path) -> None:
    ok("keygen", "ML-DSA-65", "-o", "k.pem", "--pub", "p.pem", cwd=tmp_path)
    (tmp_path / "m.txt").write_bytes(b"pre-hashed message")
    ok("sign", "k.pem", "m.txt", "-o", "sig", "--prehash", "sha2-512", cwd=tmp_path)
    ok("verify", "p.pem", "m.txt", "sig", "--prehash", "SHA2-512", cwd=tmp_path)
    fails("verify", "p.pem", "m.txt", "sig", cwd=tmp_path, match="NOT valid")
    fails("verify", "p.pem", "m.txt", "sig", "--prehash", "SHA3-512", cwd=tmp_path)
    fails("sign", "k.pem", "m.txt", "-o", "sig2", "--prehash", "md5", cwd=tmp_path,
          match="unknown --prehash 'md5'")  # fmt: skip


def test_signature_verifies_in_cryptography(tmp_path: Path) -> None:
    serialization = pytest.importorskip("cryptography.hazmat.primitives.serialization")
    ok("keygen", "ML-DSA-87", "-o", "k.pem", "--pub", "p.pem", cwd=tmp_path)
    (tmp_path / "m").write_bytes(b"m" * 1000)
    ok("sign", "k.pem", "m", "-o", "sig", "--context", "01", cwd=tmp_path)
    public = serialization.load_pem_public_key((tmp_path / "p.pem").read_bytes())
    public.verify((tmp_path / "sig").read_bytes(), b"m" * 1000, b"\x01")


def test_forms_and_password(tmp_path: Path) -> None:
    pytest.importorskip("cryptography")
    (tmp_path / "pw").write_bytes(b"hunter2\n")
    (tmp_path / "wrong").write_bytes(b"hunter3\n")
    ok("keygen", "ML-KEM-512", "-o", "k.pem", "--form", "both", "--password-file", "pw",
       cwd=tmp_path)  # fmt: skip
    pem = (tmp_path / "k.pem").read_bytes()
    assert pem.startswith(b"-----BEGIN ENCRYPTED PRIVATE KEY-----")
    key = pqkit.load_pem_private_key(pem, b"hunter2")
    fails("pub", "k.pem", cwd=tmp_path, match="encrypted; give --password-file")
    fails("pub", "k.pem", "--password-file", "wrong", cwd=tmp_path, match="wrong password")
    out = ok("pub", "k.pem", "--password-file", "pw", cwd=tmp_path)
    assert pqkit.load_pem_public_key(out) == key.public_key()
    ok("keygen", "ML-DSA-44", "-o", "e.pem", "--form", "expanded", cwd=tmp_path)
    expanded = pqkit.load_pem_private_key((tmp_path / "e.pem").read_bytes())
    with pytest.raises(ValueError, match="no seed"):
        expanded.private_bytes_raw()
    fails("pub", "e.pem", "--password-file", "pw", cwd=tmp_path, match="not encrypted")


def test_no_overwrite_without_force(tmp_path: Path) -> None:
    ok("keygen", "ML-DSA-44", "-o", "k.pem", cwd=tmp_path)
    before = (tmp_path / "k.pem").read_bytes()
    fails("keygen", "ML-DSA-44", "-o", "k.pem", cwd=tmp_path, match="exists; use --force")
    assert (tmp_path / "k.pem").read_bytes() == before
    (tmp_path / "p.pem").write_bytes(b"keep me")
    fails("keygen", "ML-DSA-44", "-o", "new.pem", "--pub", "p.pem", cwd=tmp_path, match="exists")
    assert not (tmp_path / "new.pem").exists()  # nothing written before the refusal
    fails("pub", "k.pem", "-o", "p.pem", cwd=tmp_path, match="exists")
    assert (tmp_path / "p.pem").read_bytes() == b"keep me"
    os.chmod(tmp_path / "k.pem", 0o644)
    ok("keygen", "ML-DSA-44", "-o", "k.pem", "--force", cwd=tmp_path)
    assert (tmp_path / "k.pem").read_bytes() != before
    assert mode(tmp_path / "k.pem") == 0o600
    fails("keygen", "ML-DSA-44", "-o", "same", "--pub", "same", cwd=tmp_path,
          match="two outputs")  # fmt: skip


def test_user_errors(tmp_path: Path) -> None:
    ok("keygen", "ML-DSA-44", "-o", "d.pem", "--pub", "dp.pem", cwd=tmp_path)
    ok("keygen", "ML-KEM-768", "-o", "k.pem", "--pub", "kp.pem", cwd=tmp_path)
    (tmp_path / "m").write_bytes(b"m")
    (tmp_path / "junk.pem").write_bytes(
        b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"
    )
    fails("keygen", "Kyber768", "-o", "x.pem", cwd=tmp_path, match="unknown algorithm 'Kyber768'")
    fails(
        "decaps", "d.pem", "m", "--secret", "s", cwd=tmp_path, match="needs an ML-KEM private key"
    )
    fails("encaps", "dp.pem", "--ct", "c", "--secret", "s", cwd=tmp_path,
          match="needs an ML-KEM public key")  # fmt: skip
    fails("sign", "k.pem", "m", "-o", "s", cwd=tmp_path, match="needs an ML-DSA private key")
    fails("verify", "kp.pem", "m", "m", cwd=tmp_path, status=2, match="needs an ML-DSA public key")
    fails("encaps", "k.pem", "--ct", "c", "--secret", "s", cwd=tmp_path,
          match="wrong PEM label 'PRIVATE KEY'")  # fmt: skip
    fails("pub", "missing.pem", cwd=tmp_path, match="'missing.pem' does not exist")
    fails("pub", "junk.pem", cwd=tmp_path, match="junk.pem: ")
    fails("decaps", "k.pem", "m", "--secret", "s", cwd=tmp_path, match="ciphertext must be 1088")
    fails("sign", "d.pem", "m", "-o", "s", "--context", "xyz", cwd=tmp_path, match="hexadecimal")
    fails("sign", "d.pem", "nope", "-o", "s", cwd=tmp_path, match="'nope' does not exist")
    fails("verify", "dp.pem", "m", "nope", cwd=tmp_path, status=2, match="does not exist")
    fails("pub", "d.pem", "--der", cwd=tmp_path, match="use -o FILE")
    assert not any(p.name in ("s", "c", "x.pem") for p in tmp_path.iterdir())


def test_list(tmp_path: Path) -> None:
    out = ok("list", cwd=tmp_path).decode()
    for oid in ("2.16.840.1.101.3.4.4.1", "2.16.840.1.101.3.4.4.3", "2.16.840.1.101.3.4.3.19"):
        assert oid in out
    assert "ML-KEM-768" in out and "ML-DSA-65" in out


def test_sign_streams_through_the_mu_hasher(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from pqkit.keys import mldsa

    key = mldsa.MLDSA44PrivateKey.from_seed_bytes(bytes(32))
    (tmp_path / "k.pem").write_bytes(
        key.private_bytes(pqkit.Encoding.PEM, pqkit.PrivateFormat.PKCS8, pqkit.NoEncryption())
    )
    data = os.urandom(3 * keycli.CHUNK_SIZE + 5)
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
    assert pieces == [keycli.CHUNK_SIZE] * 3 + [5]
    key.public_key().verify(Path(out).read_bytes(), data)
    assert capsys.readouterr().err == ""
