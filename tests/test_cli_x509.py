"""pqkit req / x509 / crl / verify-cert / show (issue 30): the round trip of a
three-level chain (SLH-DSA root, ML-DSA intermediate, ML-KEM end entity whose
request follows RFC 9883), and each broken link refused with its own message."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyasn1_alt_modules", reason="pqkit.x509 needs the x509 extra")

import pqkit
from pqkit.cli import main
from pqkit.serialization import Encoding
from pqkit.x509 import load_der_x509_certificate, load_pem_x509_certificate

FAR_FUTURE = "4102444800"  # 2100-01-01


def _ok(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    status = main(list(args))
    out, err = capsys.readouterr()
    assert status == 0 and err == "", (args, status, err)
    return out


def _fails(capsys: pytest.CaptureFixture[str], status: int, *args: str) -> str:
    got = main(list(args))
    out, err = capsys.readouterr()
    assert got == status, (args, got, out, err)
    assert err.startswith("pqkit: ") and "Traceback" not in err, err
    return err


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("pki")
    cwd = os.getcwd()
    os.chdir(d)
    try:
        steps = [
            "req -newkey SLH-DSA-SHA2-128f -keyout root.key -subj /O=pqkit/CN=root -out root.csr",
            "x509 -new -key root.key -subj /O=pqkit/CN=root -ca -days 30 -out root.pem",
            "req -newkey ML-DSA-44 -keyout mid.key -subj /O=pqkit/CN=mid -out mid.csr",
            "x509 -in mid.csr -CA root.pem -CAkey root.key -ca -pathlen 0 -out mid.pem",
            "req -newkey ML-DSA-44 -keyout ees.key -subj /CN=ee -out ees.csr",
            "x509 -in ees.csr -CA mid.pem -CAkey mid.key -days 10 -out ees.pem",
            "req -newkey ML-KEM-768 -keyout ee.key -subj /CN=ee -signkey ees.key "
            "-signcert ees.pem -out ee.csr",
            "x509 -in ee.csr -CA mid.pem -CAkey mid.key -days 10 -out ee.pem",
        ]
        for step in steps:
            assert main(step.split()) == 0, step
    finally:
        os.chdir(cwd)
    return d


def test_round_trip_validates(pki: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _ok(capsys, "verify-cert", "-CAfile", str(pki / "root.pem"),
              "-untrusted", str(pki / "mid.pem"), str(pki / "ee.pem"))  # fmt: skip
    assert out == f"{pki / 'ee.pem'}: OK\n"
    ee = load_pem_x509_certificate((pki / "ee.pem").read_bytes())
    assert ee.public_key().algorithm.name == "ML-KEM-768"
    assert ee.key_usage is not None and ee.key_usage.names() == ["key_encipherment"]
    root = load_pem_x509_certificate((pki / "root.pem").read_bytes())
    assert root.signature_algorithm_name == "SLH-DSA-SHA2-128f"


def test_a_kem_request_needs_a_signer(pki: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = _fails(capsys, 2, "req", "-key", str(pki / "ee.key"), "-subj", "/CN=ee",
                 "-out", str(pki / "x.csr"))  # fmt: skip
    assert "cannot sign its request" in err and "RFC 9883" in err


def test_expired(pki: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = _fails(capsys, 1, "verify-cert", "-CAfile", str(pki / "root.pem"), "-untrusted",
                 str(pki / "mid.pem"), "-attime", FAR_FUTURE, str(pki / "ee.pem"))  # fmt: skip
    assert "certificate 'CN=ee': expired" in err


def test_wrong_key_usage(pki: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = str(pki / "mid-ku.pem")
    _ok(capsys, "x509", "-in", str(pki / "mid.csr"), "-CA", str(pki / "root.pem"),
        "-CAkey", str(pki / "root.key"), "-ca", "-keyusage", "digitalSignature",
        "-out", bad)  # fmt: skip
    err = _fails(capsys, 1, "verify-cert", "-CAfile", str(pki / "root.pem"),
                 "-untrusted", bad, str(pki / "ee.pem"))  # fmt: skip
    assert "certificate 'CN=mid,O=pqkit': keyUsage lacks keyCertSign" in err


def test_wrong_issuer(pki: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = str(pki / "other.pem")
    _ok(capsys, "x509", "-new", "-key", str(pki / "ees.key"), "-subj", "/CN=other", "-ca",
        "-out", other)  # fmt: skip
    stray = str(pki / "stray.pem")
    _ok(capsys, "x509", "-in", str(pki / "ees.csr"), "-CA", other, "-CAkey", str(pki / "ees.key"),
        "-out", stray)  # fmt: skip
    err = _fails(capsys, 1, "verify-cert", "-CAfile", str(pki / "root.pem"),
                 "-untrusted", str(pki / "mid.pem"), stray)  # fmt: skip
    assert "certificate 'CN=ee': no issuer found (issuer 'CN=other'" in err


def test_revoked(pki: Path, capsys: pytest.CaptureFixture[str]) -> None:
    crl = str(pki / "mid.crl")
    _ok(capsys, "crl", "-CA", str(pki / "mid.pem"), "-CAkey", str(pki / "mid.key"),
        "-revoke", str(pki / "ee.pem"), "-out", crl)  # fmt: skip
    err = _fails(capsys, 1, "verify-cert", "-CAfile", str(pki / "root.pem"), "-untrusted",
                 str(pki / "mid.pem"), "-CRLfile", crl, str(pki / "ee.pem"))  # fmt: skip
    assert "certificate 'CN=ee': revoked" in err
    assert "Revoked Certificates:" in _ok(capsys, "show", crl)


def test_flipped_signature_bit(pki: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ee = load_pem_x509_certificate((pki / "ee.pem").read_bytes())
    data = bytearray(ee.public_bytes(Encoding.DER))
    data[-100] ^= 0x04
    flipped = pki / "flipped.der"
    flipped.write_bytes(bytes(data))
    assert load_der_x509_certificate(bytes(data)).tbs_certificate_bytes == ee.tbs_certificate_bytes
    err = _fails(capsys, 1, "verify-cert", "-CAfile", str(pki / "root.pem"),
                 "-untrusted", str(pki / "mid.pem"), str(flipped))  # fmt: skip
    assert "certificate 'CN=ee': the signature does not verify" in err


def test_show_certificate_and_request(pki: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _ok(capsys, "show", str(pki / "ee.pem"))
    assert "Public Key Algorithm: ML-KEM-768" in out and "keyEncipherment" in out
    assert "Signature Algorithm: ML-DSA-44" in out and "Issuer: CN=mid,O=pqkit" in out
    out = _ok(capsys, "show", str(pki / "ee.csr"))
    assert out.startswith("Certificate Request:") and "statementOfPossession" in out
    out = _ok(capsys, "show", str(pki / "mid.key"))  # key files are still shown as keys
    assert "ML-DSA-44" in out and "Certificate" not in out


def test_bad_input_is_one_line(pki: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = pki / "junk.pem"
    junk.write_bytes(b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")
    err = _fails(capsys, 2, "verify-cert", "-CAfile", str(pki / "root.pem"), str(junk))
    assert err.count("\n") == 1 and "junk.pem" in err


def test_missing_extra_is_one_line(tmp_path: Path) -> None:
    prelude = (
        "import sys\nsys.modules['pyasn1'] = None\n"
        "from pqkit.cli import main\nsys.exit(main(sys.argv[1:]))\n"
    )
    src = str(Path(pqkit.__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=src, PQKIT_JIT_BACKGROUND="0")
    done = subprocess.run(
        [sys.executable, "-c", prelude, "verify-cert", "-CAfile", "x.pem", "y.pem"],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and 'pip install "pqkit[x509]"' in done.stderr
