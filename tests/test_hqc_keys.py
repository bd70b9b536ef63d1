"""HQC key objects and key files (raw PEM blocks: no OID is assigned to HQC), and
the command line: keygen, pub, show, encaps, decaps, speed, through the paths the
hybrid KEMs' raw-PEM keys use."""

from __future__ import annotations

import copy
import pickle
from pathlib import Path
from typing import Any

import pytest

import pqkit
from pqkit.keys import hqc, hybrid


@pytest.mark.parametrize("cls", [hqc.HQC1PrivateKey, hqc.HQC3PrivateKey], ids=["HQC-1", "HQC-3"])
def test_key_objects_and_pem(cls: type[hqc.HQCPrivateKey]) -> None:
    seed = bytes(range(32))
    key = cls.from_seed_bytes(seed)
    scheme = pqkit.kem(cls.algorithm)
    pk, sk = scheme.keygen_derand(seed)
    assert key.private_bytes_raw() == seed and key.private_bytes_expanded() == sk
    assert key.public_key().public_bytes_raw() == pk
    pem = key.private_bytes_pem()
    assert pem.startswith(f"-----BEGIN {cls.algorithm} SEED PRIVATE KEY-----".encode())
    loaded = hybrid.load_pem_hybrid_key(pem)
    assert isinstance(loaded, cls) and loaded.private_bytes_raw() == seed
    public = hybrid.load_pem_hybrid_key(key.public_key().public_bytes_pem())
    assert isinstance(public, cls.public_class) and public == key.public_key()
    ss, ct = public.encapsulate()
    assert key.decapsulate(ct) == ss
    assert hybrid.hybrid_private_key_class(cls.algorithm.lower()) is cls


def test_key_checks_and_secrets() -> None:
    with pytest.raises(ValueError, match="HQC-1 public key"):
        hqc.HQC1PublicKey.from_public_bytes(bytes(2240))
    with pytest.raises(ValueError, match="HQC-1 seed"):
        hqc.HQC1PrivateKey.from_seed_bytes(bytes(31))
    with pytest.raises(TypeError):
        hqc.HQC1PublicKey.from_public_bytes("00")  # type: ignore[arg-type]
    key = hqc.HQC1PrivateKey.generate()
    for action in (copy.copy, copy.deepcopy, pickle.dumps):
        with pytest.raises(TypeError, match="holds secret state"):
            action(key)
    public = key.public_key()
    assert pickle.loads(pickle.dumps(public)) == public


def test_cli_keygen_show_encaps_decaps(cli: Any) -> None:
    assert cli.run("keygen", "HQC-1", "-o", "k.pem", "--pub", "k.pub.pem")[0] == 0
    assert cli.run("pub", "k.pem", "-o", "p.pem")[0] == 0
    assert Path("p.pem").read_bytes() == Path("k.pub.pem").read_bytes()
    for key in ("k.pub.pem", "k.pem"):
        status, _, err = cli.run("encaps", key, "--ct", "ct.bin", "--secret", "ss.bin", "--force")
        assert status == 0, err
        assert cli.run("decaps", "k.pem", "ct.bin", "--secret", "ss2.bin", "--force")[0] == 0
        assert Path("ss.bin").read_bytes() == Path("ss2.bin").read_bytes()
    status, out, _ = cli.run("show", "k.pem")
    assert status == 0 and b"HQC-1 (KEM, no OID)" in out and b"seed:         32 bytes" in out
    status, out, _ = cli.run("show", "k.pub.pem")
    assert status == 0 and b"public key (raw PEM)" in out and b"2241 bytes" in out
    Path("short.bin").write_bytes(bytes(100))
    cli.fails("decaps", "k.pem", "short.bin", "--secret", "s3.bin", match="ciphertext")
    cli.fails("keygen", "HQC-1", "-o", "k.der", "--der", match="raw-seed PEM")


def test_cli_speed_rows(cli: Any) -> None:
    # stderr may note fewer fresh key pairs than asked for (key generation is slow)
    status, out, _ = cli.run(
        "speed", "kem", "HQC-1", "--duration", "0.02", "-q", "--format", "json"
    )
    assert status == 0 and b"HQC-1" in out and b"decaps" in out
