"""``pqkit cms sign|verify|encrypt|decrypt`` on files: the forms in and out, the
exit statuses (1 for a failed check, 2 for unusable input), streamed detached
content, and the one-line message without the extra."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pyasn1_alt_modules.rfc9629", reason="the cms extra is not installed")
pytest.importorskip("cryptography", reason="the cms extra is not installed")

from helpers import Cli
from test_cli_no_extras import needs_extra
from test_cms_vectors import bundle

from pqkit.serialization import Encoding

KEM = "ML-KEM-768-2.16.840.1.101.3.4.4.2"
COMPOSITE = "id-MLKEM768-ECDH-P256-SHA3-256-1.3.6.1.5.5.7.6.59"
SIG = "ML-DSA-44-2.16.840.1.101.3.4.3.17"


@pytest.fixture
def files(tmp_path: Path) -> Path:
    from pqkit import cms

    b = bundle()
    for name in (
        f"{KEM}_ee.der",
        f"{KEM}_expandedkey_priv.der",
        f"{KEM}_kemri_auth.der",
        f"{COMPOSITE}_ee.der",
        f"{COMPOSITE}_priv.der",
        f"{SIG}_expandedkey_priv.der",
        f"{SIG}_signed_attrs.der",
        "ta.der",
        "expected_plaintext.txt",
    ):
        (tmp_path / name).write_bytes(b[name])
    found = cms.verify(b[f"{SIG}_signed_attrs.der"], unverified_chain=True)
    (tmp_path / "signer.pem").write_bytes(found.signers[0].certificate.public_bytes(Encoding.PEM))
    return tmp_path


def test_decrypt_a_hackathon_message(cli: Cli, files: Path) -> None:
    cli.ok("cms", "decrypt", "--inkey", f"{KEM}_expandedkey_priv.der", "--recip",
           f"{KEM}_ee.der", "-i", f"{KEM}_kemri_auth.der", "-o", "out.txt")  # fmt: skip
    assert (files / "out.txt").read_bytes() == bundle()["expected_plaintext.txt"]


@pytest.mark.parametrize("form", ["DER", "PEM", "SMIME"])
def test_encrypt_to_two_recipients_and_decrypt(cli: Cli, files: Path, form: str) -> None:
    cli.ok("cms", "encrypt", "--recip", f"{KEM}_ee.der", "--recip", f"{COMPOSITE}_ee.der",
           "--cipher", "aes-128-cbc", "--outform", form, "-i", "expected_plaintext.txt",
           "-o", "msg")  # fmt: skip
    for key in (f"{KEM}_expandedkey_priv.der", f"{COMPOSITE}_priv.der"):
        cli.ok("cms", "decrypt", "--inkey", key, "-i", "msg", "-o", "plain", "--force")
        assert (files / "plain").read_bytes() == bundle()["expected_plaintext.txt"]


def test_decryption_failure_is_status_1(cli: Cli, files: Path) -> None:
    cli.ok("cms", "encrypt", "--recip", f"{KEM}_ee.der", "-i", "expected_plaintext.txt",
           "-o", "msg")  # fmt: skip
    changed = bytearray((files / "msg").read_bytes())
    changed[-5] ^= 1
    (files / "bad").write_bytes(bytes(changed))
    cli.fails("cms", "decrypt", "--inkey", f"{KEM}_expandedkey_priv.der", "-i", "bad",
              "-o", "x", status=1, match="CMS decryption failed")  # fmt: skip
    cli.fails("cms", "encrypt", "--recip", "ta.der", "-i", "expected_plaintext.txt",
              "-o", "y", match="KEM public key")  # fmt: skip


def test_verify_a_hackathon_message(cli: Cli, files: Path) -> None:
    status, _, err = cli.run("cms", "verify", "--CAfile", "ta.der", "-i",
                             f"{SIG}_signed_attrs.der", "-o", "content")  # fmt: skip
    assert status == 0 and "Verification successful" in err
    assert (files / "content").read_bytes().endswith(bundle()["expected_plaintext.txt"])
    cli.fails("cms", "verify", "-i", f"{SIG}_signed_attrs.der", match="--CAfile")


@pytest.mark.parametrize("form", ["DER", "PEM"])
def test_sign_detached_streamed_and_verify(cli: Cli, files: Path, form: str) -> None:
    (files / "big.bin").write_bytes(b"\x5a" * (3 << 20))  # three read chunks
    cli.ok("cms", "sign", "--signer", "signer.pem", "--inkey", f"{SIG}_expandedkey_priv.der",
           "--detached", "--outform", form, "-i", "big.bin", "-o", "sig")  # fmt: skip
    status, _, err = cli.run("cms", "verify", "--CAfile", "ta.der", "-i", "sig",
                             "--content", "big.bin")  # fmt: skip
    assert status == 0, err
    (files / "big.bin").write_bytes(b"\x5a" * (3 << 20) + b"!")
    cli.fails("cms", "verify", "--CAfile", "ta.der", "-i", "sig", "--content", "big.bin",
              status=1, match="message digest mismatch")  # fmt: skip


def test_detached_smime_is_multipart_signed(cli: Cli, files: Path) -> None:
    (files / "part.txt").write_bytes(b"Content-Type: text/plain\r\n\r\nhello\r\n")
    cli.ok("cms", "sign", "--signer", "signer.pem", "--inkey", f"{SIG}_expandedkey_priv.der",
           "--detached", "--outform", "SMIME", "-i", "part.txt", "-o", "signed.eml")  # fmt: skip
    mail = (files / "signed.eml").read_bytes()
    assert b"multipart/signed" in mail and b"micalg=sha-512" in mail
    status, _, err = cli.run("cms", "verify", "--CAfile", "ta.der", "-i", "signed.eml")
    assert status == 0, err
    (files / "changed.eml").write_bytes(mail.replace(b"hello", b"hellO"))
    cli.fails("cms", "verify", "--CAfile", "ta.der", "-i", "changed.eml", status=1,
              match="message digest mismatch")  # fmt: skip


def test_sign_attached_and_the_signer_count(cli: Cli, files: Path) -> None:
    cli.ok("cms", "sign", "--signer", "signer.pem", "--inkey", f"{SIG}_expandedkey_priv.der",
           "-i", "expected_plaintext.txt", "-o", "att.p7m", "--outform", "PEM")  # fmt: skip
    status, out, err = cli.run("cms", "verify", "--CAfile", "ta.der", "-i", "att.p7m", "-o", "-")
    assert status == 0 and out == bundle()["expected_plaintext.txt"], err
    cli.fails("cms", "sign", "--signer", "signer.pem", "--signer", "signer.pem", "--inkey",
              f"{SIG}_expandedkey_priv.der", "-i", "expected_plaintext.txt", "-o", "z",
              match="one --inkey for each")  # fmt: skip


def test_without_the_extra_one_line(files: Path) -> None:
    needs_extra(files, "cms", "decrypt", "--inkey", f"{KEM}_expandedkey_priv.der", "-i",
                f"{KEM}_kemri_auth.der", "-o", "out")  # fmt: skip
