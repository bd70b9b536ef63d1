"""Issue 28 item 6: a key of another algorithm than the HPKE suite's KEM is refused.

An ML-KEM-768 seed is also a 64-byte ML-KEM-512 seed, and an ML-DSA seed a 32-byte
X-Wing seed: only the key file's algorithm tells them apart. ``pqkit hpke seal`` /
``open`` refuse such a key with exit 2 (a key of the wrong type) before any work,
and :class:`pqkit.hpke.Suite` refuses key objects of another algorithm.
"""

from __future__ import annotations

import pytest
from helpers import Cli

from pqkit import hpke
from pqkit.keys import private_key_class
from pqkit.keys.hybrid import hybrid_private_key_class

pytest.importorskip("cryptography", reason="HPKE's AEADs and curves need pyca/cryptography")

# (suite KEM, algorithm of the key given to it)
_MISMATCHES = [
    ("X-Wing", "ML-DSA-44"),
    ("ML-KEM-512", "ML-KEM-768"),
    ("X-Wing", "MLKEM768-P256"),
    ("ML-KEM-768", "X-Wing"),
]


def _keygen(cli: Cli, alg: str) -> None:
    if alg.startswith("ML-DSA"):
        cli.ok("keygen", alg, "-o", "sk.pem", "--pub", "pk.pem")
    else:
        cli.ok("hpke", "keygen", "--kem", alg, "--private-out", "sk.pem", "--public-out", "pk.pem")


@pytest.mark.parametrize(("kem", "alg"), _MISMATCHES, ids=lambda v: str(v))
def test_cli_refuses_a_key_of_another_algorithm(cli: Cli, kem: str, alg: str) -> None:
    _keygen(cli, alg)
    with open("m", "wb") as f:
        f.write(b"message")
    canonical = "X-Wing" if kem == "X-Wing" else kem
    for action, key in (("open", "sk.pem"), ("seal", "pk.pem")):
        status, out, err = cli.run("hpke", action, key, "--kem", kem, "-i", "m", "-o", "x")
        assert status == 2, (action, err)
        assert f"is an {alg} key, but this HPKE suite's KEM is {canonical}" in err
        assert "--kem" in err and "Traceback" not in err and out == b""


def test_cli_accepts_the_right_key(cli: Cli) -> None:
    _keygen(cli, "ML-KEM-768")
    with open("m", "wb") as f:
        f.write(b"message")
    cli.ok("hpke", "seal", "pk.pem", "--kem", "ML-KEM-768", "-i", "m", "-o", "c")
    assert cli.ok("hpke", "open", "sk.pem", "--kem", "ML-KEM-768", "-i", "c", "-o", "-") == (
        b"message"
    )


def test_suite_refuses_key_objects_of_another_algorithm() -> None:
    suite = hpke.Suite(hpke.KEM.MLKEM512, hpke.KDF.HKDF_SHA256, hpke.AEAD.AES_128_GCM)
    wrong = private_key_class("ML-KEM-768").generate()
    with pytest.raises(ValueError, match="private_key is an ML-KEM-768 key"):
        suite.setup_recipient(bytes(suite.length_enc), wrong)
    with pytest.raises(ValueError, match="public_key is an ML-KEM-768 key"):
        suite.setup_sender(wrong.public_key())
    xwing = hpke.Suite(hpke.KEM.XWING, hpke.KDF.HKDF_SHA256, hpke.AEAD.AES_128_GCM)
    with pytest.raises(ValueError, match="private_key is an ML-DSA-65 key"):
        xwing.setup_recipient(bytes(xwing.length_enc), private_key_class("ML-DSA-65").generate())
    right = hybrid_private_key_class("X-Wing").generate()
    enc, ct = xwing.seal(right.public_key(), b"m")
    assert xwing.open(enc, right, ct) == b"m"
