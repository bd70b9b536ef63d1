"""The command line's habits and hardening (issue 13 item 5, issue 14 items 7-12):
regular files only, bounded reads, ``-`` for stdin/stdout, no output over an input,
private keys where public ones do, passwords as openssl takes them, ``pqkit show``,
the exit statuses, progress only on a terminal, and what ``pqkit demo`` says."""

from __future__ import annotations

import builtins
import hashlib
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from helpers import Cli

import pqkit
from pqkit.cli import main, progress
from pqkit.cli.loading import KEY_FILE_LIMIT
from pqkit.keys import (
    FrodoKEM1344SHAKEPrivateKey,
    MLDSA87PrivateKey,
    MLDSAPrivateKey,
    MLKEMPrivateKey,
)

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs os.mkfifo (POSIX)")


@pytest.fixture
def keys(cli: Cli, tmp_path: Path) -> Path:
    """k.pem / kp.pem (ML-KEM-768), d.pem / dp.pem (ML-DSA-44), a message m."""
    cli.ok("keygen", "ML-KEM-768", "-o", "k.pem", "--pub", "kp.pem")
    cli.ok("keygen", "ML-DSA-44", "-o", "d.pem", "--pub", "dp.pem")
    (tmp_path / "m").write_bytes(b"a message")
    return tmp_path


def _in_thread(func: Any, seconds: float) -> Any:
    """Run ``func`` in a thread; fail (instead of hanging) if it takes too long."""
    result: list[Any] = []
    thread = threading.Thread(target=lambda: result.append(func()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds} s"
    return result[0]


# --- regular files, bounded reads -------------------------------------------------------


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
@pytest.mark.usefixtures("keys")
def test_dev_zero_is_refused_at_once(cli: Cli) -> None:
    start = time.perf_counter()
    err = cli.fails("decaps", "k.pem", "/dev/zero", "--secret", "s", match="not a regular file")
    assert time.perf_counter() - start < 1.0
    assert "/dev/zero" in err
    cli.fails("sign", "d.pem", "/dev/zero", "-o", "sig", match="not a regular file")
    cli.fails("pub", "/dev/zero", match="not a regular file")


@needs_fifo
@pytest.mark.usefixtures("keys")
def test_fifo_key_file_does_not_block(cli: Cli, tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    for argv in (
        ("decaps", "fifo", "m", "--secret", "s"),
        ("pub", "fifo"),
        ("verify", "dp.pem", "fifo", "m"),
        ("encaps", "fifo", "--ct", "c", "--secret", "s"),
    ):
        status, _, err = _in_thread(lambda argv=argv: cli.run(*argv), 5.0)
        assert status == 2 and "not a regular file" in err, err
    assert not (tmp_path / "s").exists()


@pytest.mark.usefixtures("keys")
def test_reads_are_bounded(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "long-ct").write_bytes(bytes(1089))
    cli.fails("decaps", "k.pem", "long-ct", "--secret", "s", match="more than 1088 bytes")
    (tmp_path / "big.pem").write_bytes(b"-----BEGIN PUBLIC KEY-----\n" + b"A" * 10**6)
    cli.fails("pub", "big.pem", match=f"more than {KEY_FILE_LIMIT} bytes")
    # no file gives more than the limit plus one byte
    asked: list[int] = []
    real_read = os.fdopen

    def spy_fdopen(fd: int, *args: Any, **kwargs: Any) -> Any:
        f = real_read(fd, *args, **kwargs)
        read = f.read

        class Spy:
            def read(self, n: int = -1) -> bytes:
                data = read(n)
                asked.append(len(data))
                return data

            def __getattr__(self, name: str) -> Any:
                return getattr(f, name)

            def __enter__(self) -> Spy:
                return self

            def __exit__(self, *exc: object) -> None:
                f.close()

        return Spy()

    monkeypatch.setattr("pqkit.cli.files.os.fdopen", spy_fdopen)
    (tmp_path / "huge").write_bytes(bytes(3 * 2**20))
    cli.fails("decaps", "k.pem", "huge", "--secret", "s", match="too large")
    assert asked and max(asked) <= KEY_FILE_LIMIT + 1, asked
    # a signature one byte too long is an invalid signature, not an unreadable input
    asked.clear()
    cli.ok("sign", "d.pem", "m", "-o", "sig")
    sig = (tmp_path / "sig").read_bytes()
    (tmp_path / "long-sig").write_bytes(sig + bytes(10**6))
    asked.clear()
    cli.fails("verify", "dp.pem", "m", "long-sig", status=1, match="NOT valid")
    assert sum(asked) <= len(sig) + 1 + (tmp_path / "dp.pem").stat().st_size + len(b"a message")


def test_largest_key_file_fits_the_limit() -> None:
    pytest.importorskip("cryptography", reason="encrypted keys need cryptography")
    key = MLDSA87PrivateKey.generate()
    pem = key.private_bytes(
        pqkit.Encoding.PEM,
        pqkit.PrivateFormat.PKCS8,
        pqkit.BestAvailableEncryption(b"pw"),
        form="both",
    )
    assert len(pem) < KEY_FILE_LIMIT // 2
    frodo = FrodoKEM1344SHAKEPrivateKey.generate().private_bytes(
        pqkit.Encoding.PEM, pqkit.PrivateFormat.PKCS8, pqkit.BestAvailableEncryption(b"pw")
    )
    assert 50_000 < len(frodo) < KEY_FILE_LIMIT  # FrodoKEM-1344's 43 kB sk


# --- outputs ------------------------------------------------------------------------------


@pytest.mark.usefixtures("keys")
def test_output_equal_to_an_input_is_refused(cli: Cli, tmp_path: Path) -> None:
    before = (tmp_path / "k.pem").read_bytes()
    cli.fails("pub", "k.pem", "-o", "k.pem", "--force", match="also an input")
    os.symlink("k.pem", tmp_path / "link.pem")
    cli.fails("pub", "k.pem", "-o", "link.pem", "--force", match="also an input")
    cli.fails("sign", "d.pem", "m", "-o", "m", "--force", match="also an input")
    cli.fails("show", "k.pem", "-o", "./k.pem", "--force", match="also an input")
    assert (tmp_path / "k.pem").read_bytes() == before


@pytest.mark.usefixtures("keys")
def test_dash_is_stdin_and_stdout(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    signature = cli.ok("sign", "d.pem", "m", "-o", "-")
    key = pqkit.load_pem_private_key((tmp_path / "d.pem").read_bytes())
    assert isinstance(key, MLDSAPrivateKey)
    key.public_key().verify(signature, b"a message")
    # pqkit sign d.pem m -o - | pqkit verify dp.pem m -
    assert cli.ok("verify", "dp.pem", "m", "-", stdin=signature) == b"signature valid\n"
    assert cli.run("verify", "dp.pem", "-", "-", stdin=signature)[0] == 2  # stdin twice
    # DER to a redirected stdout is fine; to a terminal it is refused
    der = cli.ok("pub", "k.pem", "--der")
    assert pqkit.load_der_public_key(der) == pqkit.load_pem_public_key(
        (tmp_path / "kp.pem").read_bytes()
    )
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    cli.fails("pub", "k.pem", "--der", match="binary data to the terminal")
    assert cli.ok("pub", "k.pem").startswith(b"-----BEGIN PUBLIC KEY-----")  # PEM is text
    cli.ok("pub", "-", stdin=(tmp_path / "k.pem").read_bytes())
    assert not (tmp_path / "-").exists()


# --- private keys where public keys do, passwords ----------------------------------------


@pytest.mark.usefixtures("keys")
def test_encaps_and_verify_take_private_keys(cli: Cli, tmp_path: Path) -> None:
    cli.ok("encaps", "k.pem", "--ct", "ct", "--secret", "ss")
    cli.ok("decaps", "k.pem", "ct", "--secret", "ss2")
    assert (tmp_path / "ss").read_bytes() == (tmp_path / "ss2").read_bytes()
    cli.ok("sign", "d.pem", "m", "-o", "sig")
    assert cli.ok("verify", "d.pem", "m", "sig") == b"signature valid\n"
    cli.fails("decaps", "kp.pem", "ct", "--secret", "ss3", match="a private key is needed")


def test_password_sources(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("cryptography", reason="encrypted keys need cryptography")
    cli.ok("keygen", "ML-KEM-512", "-o", "e.pem", "--passout", "pass:hunter2")
    assert (tmp_path / "e.pem").read_bytes().startswith(b"-----BEGIN ENCRYPTED PRIVATE KEY")
    expected = cli.ok("pub", "e.pem", "--passin", "pass:hunter2")
    monkeypatch.setenv("PQKIT_TEST_PW", "hunter2")
    assert cli.ok("pub", "e.pem", "--passin", "env:PQKIT_TEST_PW") == expected
    (tmp_path / "pw").write_bytes(b"hunter2\r\nsecond line\n")
    assert cli.ok("pub", "e.pem", "--passin", "file:pw") == expected
    cli.fails("pub", "e.pem", "--passin", "pass:wrong", status=1, match="wrong password")
    cli.fails("pub", "e.pem", "--passin", "hunter2", match="pass:TEXT, env:VAR or file:PATH")
    cli.fails("pub", "e.pem", "--passin", "env:PQKIT_NOT_SET", match="not set")
    cli.fails("pub", "e.pem", "--passin", "pass:", match="empty")
    # no password and no terminal: say how to give one
    cli.fails("pub", "e.pem", match="encrypted; give --passin")
    # a terminal: prompt
    prompts: list[str] = []

    def fake_getpass(prompt: str) -> str:
        prompts.append(prompt)
        return "hunter2"

    monkeypatch.setattr("getpass.getpass", fake_getpass)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    assert cli.ok("pub", "e.pem") == expected
    assert prompts == ["Password for e.pem: "]


# --- pqkit show ---------------------------------------------------------------------------


@pytest.mark.parametrize("form", ["seed", "expanded", "both"])
def test_show_describes_a_key(cli: Cli, tmp_path: Path, form: str) -> None:
    cli.ok("keygen", "ML-DSA-65", "-o", "k.pem", "--pub", "p.der", "--form", form)
    text = cli.ok("show", "k.pem").decode()
    spki = pqkit.load_pem_private_key((tmp_path / "k.pem").read_bytes()).public_key()
    der = spki.public_bytes(pqkit.Encoding.DER, pqkit.PublicFormat.SubjectPublicKeyInfo)
    assert "algorithm:    ML-DSA-65 (OID 2.16.840.1.101.3.4.3.18)" in text
    assert f"form:         {form}\n" in text
    assert f"fingerprint:  SHA256:{hashlib.sha256(der).hexdigest()}\n" in text
    assert "public key:   1952 bytes" in text and "signature:    3309 bytes" in text
    public = cli.ok("show", "p.der").decode()
    assert "public key (SubjectPublicKeyInfo)" in public and "form:" not in public
    assert f"SHA256:{hashlib.sha256(der).hexdigest()}" in public


def test_show_converts(cli: Cli, tmp_path: Path) -> None:
    pytest.importorskip("cryptography", reason="encrypted keys need cryptography")
    cli.ok("keygen", "ML-KEM-768", "-o", "k.pem")
    key = pqkit.load_pem_private_key((tmp_path / "k.pem").read_bytes())
    assert isinstance(key, MLKEMPrivateKey)
    cli.ok("show", "k.pem", "-o", "k.der", "--der", "--form", "both")
    again = pqkit.load_der_private_key((tmp_path / "k.der").read_bytes())
    assert again.private_bytes_expanded() == key.private_bytes_expanded()
    assert "form:         both" in cli.ok("show", "k.der").decode()
    cli.ok("show", "k.der", "-o", "e.pem", "--passout", "pass:pw", "--form", "seed")
    assert pqkit.load_pem_private_key(
        (tmp_path / "e.pem").read_bytes(), b"pw"
    ).private_bytes_raw() == (key.private_bytes_raw())
    cli.fails("show", "e.pem", "--passin", "pass:pw", "-o", "x.pem", match="--no-password")
    cli.ok("show", "e.pem", "--passin", "pass:pw", "-o", "clear.pem", "--no-password")
    assert (tmp_path / "clear.pem").read_bytes() == (tmp_path / "k.pem").read_bytes()
    cli.ok("show", "k.pem", "--pubout", "-o", "p.pem")
    assert pqkit.load_pem_public_key((tmp_path / "p.pem").read_bytes()) == key.public_key()
    cli.fails("show", "k.pem", "--der", match="need -o OUT")
    cli.fails("show", "p.pem", "-o", "q.pem", "--form", "seed", match="apply to private keys")


# --- exit statuses and help ----------------------------------------------------------------


@pytest.mark.usefixtures("keys")
def test_exit_statuses_are_consistent(cli: Cli, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    for argv in (
        ("decaps", "missing.pem", "m", "--secret", "s"),
        ("encaps", "missing.pem", "--ct", "c", "--secret", "s"),
        ("sign", "missing.pem", "m", "-o", "s"),
        ("verify", "missing.pem", "m", "m"),
        ("pub", "missing.pem"),
        ("show", "missing.pem"),
    ):
        cli.fails(*argv, status=2, match="does not exist")
    assert main(["sign"]) == 2  # argparse usage error
    assert main(["no-such-command"]) == 2
    assert main(["--version"]) == 0
    capsysbinary.readouterr()


@pytest.mark.parametrize("command", ["keygen", "show", "sign", "verify", "decaps", "kat", "demo"])
def test_help_documents_exit_statuses(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command, "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "exit status: 0 success 1 failed verification or decryption" in out
    assert "2 usage error or unusable input" in out
    if command in ("keygen", "show"):
        assert "refused by pyca/cryptography" in out


# --- progress ------------------------------------------------------------------------------


def test_progress_without_tqdm_is_silent(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_tqdm(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "tqdm" or name.startswith("tqdm."):
            raise ImportError("no tqdm here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setattr(builtins, "__import__", no_tqdm)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert not progress.enabled()
    assert list(progress.track(range(3), 3, "x")) == [0, 1, 2]
    with progress.Bar(None, "y") as bar:
        bar.update()
        bar.describe("z")
        assert not bar.active


def test_progress_with_tqdm_on_a_terminal_only(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("tqdm", reason="the bar needs the optional tqdm")

    class Tty:
        def __init__(self) -> None:
            self.text = ""

        def isatty(self) -> bool:
            return True

        def write(self, text: str) -> int:
            self.text += text
            return len(text)

        def flush(self) -> None:
            pass

    tty = Tty()
    assert list(progress.track(range(4), 4, "work", stream=tty)) == [0, 1, 2, 3]  # type: ignore[arg-type]
    assert "work" in tty.text
    assert list(progress.track(range(4), 4, "work")) == [0, 1, 2, 3]
    assert capsys.readouterr().err == ""  # stderr is not a terminal under pytest


# --- demo ------------------------------------------------------------------------------------


def test_demo_names_its_providers(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    if "ML-KEM-512" not in pqkit.kems():
        pytest.skip("needs ML-KEM-512")
    assert main(["demo", "ML-KEM-512"]) == 0
    out = capsys.readouterr().out
    assert f"arithmetic backend: {pqkit.arith.active()}" in out
    assert "symmetric providers: sha3=" in out and "aes=" in out
    assert "median of up to 5 calls" in out
    monkeypatch.setenv("PQKIT_SYMMETRIC", "aes=python")
    assert main(["demo", "ML-KEM-512"]) == 0
    out = capsys.readouterr().out
    assert "aes=python" in out and "AES is the pure-Python implementation" in out
