"""Hybrid key objects and files (pqkit.keys.hybrid) and ``pqkit hpke`` on files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import pqkit
from pqkit.cli import main
from pqkit.keys import hybrid

pytest.importorskip("cryptography", reason="the curve halves and AEADs need pyca/cryptography")

CLASSES = [hybrid.XWingPrivateKey, hybrid.MLKEM768P256PrivateKey, hybrid.MLKEM1024P384PrivateKey]


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.algorithm)
def test_key_objects_and_pem_round_trip(cls: type[hybrid.HybridPrivateKey]) -> None:
    key = cls.generate()
    public = key.public_key()
    ss, ct = public.encapsulate()
    assert key.decapsulate(ct) == ss
    kem = pqkit.kem(cls.algorithm)
    assert kem.keygen_derand(key.private_bytes_raw()).public_key == public.public_bytes_raw()
    pem = key.private_bytes_pem()
    assert pem.startswith(f"-----BEGIN {cls.algorithm.upper()} SEED PRIVATE KEY-----".encode())
    again = hybrid.load_pem_hybrid_private_key(pem)
    assert type(again) is cls and again.private_bytes_raw() == key.private_bytes_raw()
    loaded = hybrid.load_pem_hybrid_public_key(public.public_bytes_pem())
    assert loaded == public and type(loaded) is cls.public_class
    with pytest.raises(AttributeError, match="immutable"):
        key._seed = b""  # type: ignore[misc]


def test_key_checks() -> None:
    key = hybrid.MLKEM768P256PrivateKey.generate()
    raw = key.public_key().public_bytes_raw()
    with pytest.raises(ValueError, match="public key must be 1249 bytes"):
        hybrid.MLKEM768P256PublicKey.from_public_bytes(raw[:-1])
    with pytest.raises(ValueError, match="not a point on P-256"):
        hybrid.MLKEM768P256PublicKey.from_public_bytes(raw[:-64] + bytes(64))
    with pytest.raises(ValueError, match="modulus"):
        hybrid.MLKEM768P256PublicKey.from_public_bytes(b"\xff\xff" + raw[2:])
    with pytest.raises(ValueError, match="seed must be 32 bytes"):
        hybrid.XWingPrivateKey.from_seed_bytes(bytes(31))
    with pytest.raises(ValueError, match="wrong PEM label"):
        hybrid.load_pem_hybrid_private_key(key.public_key().public_bytes_pem())


@pytest.mark.parametrize(
    ("kem", "kdf", "aead"),
    [
        ("X-Wing", "SHAKE256", "ChaCha20-Poly1305"),
        ("MLKEM768-P256", "TurboSHAKE128", "AES-256-GCM"),
        ("ML-KEM-768", "HKDF-SHA256", "AES-128-GCM"),
    ],
)
def test_cli_hpke_seal_open(tmp_path: Path, kem: str, kdf: str, aead: str) -> None:
    sk, pk = tmp_path / "sk.pem", tmp_path / "pk.pem"
    assert (
        main(["hpke", "keygen", "--kem", kem, "--private-out", str(sk), "--public-out", str(pk)])
        == 0
    )
    message = tmp_path / "m.txt"
    message.write_bytes(b"file contents " * 50)
    sealed, opened = tmp_path / "m.hpke", tmp_path / "m.out"
    suite = ["--kem", kem, "--kdf", kdf, "--aead", aead, "--info", "ctx"]
    assert main(["hpke", "seal", str(pk), *suite, "-i", str(message), "-o", str(sealed)]) == 0
    assert main(["hpke", "open", str(sk), *suite, "-i", str(sealed), "-o", str(opened)]) == 0
    assert opened.read_bytes() == message.read_bytes()
    blob = bytearray(sealed.read_bytes())
    blob[-1] ^= 1
    sealed.write_bytes(bytes(blob))
    opened.unlink()
    assert main(["hpke", "open", str(sk), *suite, "-i", str(sealed), "-o", str(opened)]) == 1
    assert not opened.exists()


def test_cli_hpke_wrong_info_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sk, pk = tmp_path / "sk.pem", tmp_path / "pk.pem"
    main(["hpke", "keygen", "--private-out", str(sk), "--public-out", str(pk)])
    (tmp_path / "m").write_bytes(b"x")
    main(
        [
            "hpke",
            "seal",
            str(pk),
            "--info",
            "a",
            "-i",
            str(tmp_path / "m"),
            "-o",
            str(tmp_path / "c"),
        ]
    )
    status = main(["hpke", "open", str(sk), "--info", "b", "-i", str(tmp_path / "c"), "-o", "-"])
    assert status == 1 and "authentication tag does not verify" in capsys.readouterr().err


def test_speed_kem_xwing_through_the_registry(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["speed", "kem", "MLKEM768-X25519", "--duration", "0.02", "-q"]) == 0
    out = capsys.readouterr().out
    assert "X-Wing" in out and "decaps" in out


@pytest.mark.parametrize("name", ["X-Wing", "MLKEM768-P256", "MLKEM1024-P384"])
def test_cli_keygen_encaps_decaps(cli: Any, name: str) -> None:
    assert cli.run("keygen", name, "-o", "k.pem", "--pub", "k.pub.pem")[0] == 0
    assert cli.run("pub", "k.pem", "-o", "p.pem")[0] == 0
    assert Path("p.pem").read_bytes() == Path("k.pub.pem").read_bytes()
    for key in ("k.pub.pem", "k.pem"):  # encaps takes a public or a private key file
        status, _, err = cli.run("encaps", key, "--ct", "ct.bin", "--secret", "ss.bin", "--force")
        assert status == 0, err
        assert cli.run("decaps", "k.pem", "ct.bin", "--secret", "ss2.bin", "--force")[0] == 0
        assert Path("ss.bin").read_bytes() == Path("ss2.bin").read_bytes()
    status, out, _ = cli.run("show", "k.pem")
    assert status == 0 and f"algorithm:    {name}".encode() in out and b"seed" in out
    status, out, _ = cli.run("show", "k.pub.pem")
    assert status == 0 and b"public key (raw PEM)" in out


def test_cli_hybrid_refusals(cli: Any) -> None:
    status, _, err = cli.run("keygen", "X-Wing", "-o", "k.der", "--der")
    assert status == 2 and "raw-seed PEM" in err
    assert cli.run("keygen", "X-Wing", "-o", "k.pem")[0] == 0
    status, _, err = cli.run("sign", "k.pem", "k.pem", "-o", "s.bin")
    assert status == 2 and "X-Wing" in err
    Path("ct.bin").write_bytes(bytes(1121))
    status, _, err = cli.run("decaps", "k.pem", "ct.bin", "--secret", "ss.bin")
    assert status == 2 and "too large" in err
    status, _, err = cli.run(
        "decaps", "k.pem", "ct.bin", "--secret", "ss.bin", "--passin", "pass:x"
    )
    assert status == 2 and "not encrypted" in err


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.algorithm)
def test_private_keys_cannot_be_copied_or_pickled(cls: type[hybrid.HybridPrivateKey]) -> None:
    import copy
    import pickle

    key = cls.generate()
    for action in (copy.copy, copy.deepcopy, pickle.dumps):
        with pytest.raises(TypeError, match="holds secret state"):
            action(key)
    public = key.public_key()
    assert pickle.loads(pickle.dumps(public)) == public
