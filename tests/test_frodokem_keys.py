"""FrodoKEM key objects and files: the IETF Hackathon's FrodoKEM artifacts
(cryptonext, OIDs 1.0.18033.2.2.7.1-8, draft-smyslov-lamps-frodokem-certificates;
tests/vectors/pqc-hackathon/README.md): every private key loads, decapsulates its
ciphertext to its shared secret and matches its certificate's public key; and the
command line's keygen / show / encaps / decaps on FrodoKEM key files."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import Cli, certificate_parts, load_tarball

import pqkit
from pqkit import der
from pqkit.keys import (
    FrodoKEM976SHAKEPrivateKey,
    FrodoKEMPrivateKey,
    FrodoKEMPublicKey,
    eFrodoKEM1344AESPrivateKey,
    load_der_private_key,
    load_der_public_key,
    load_pem_private_key,
)
from pqkit.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat


def _bundle() -> dict[str, bytes]:
    return load_tarball("pqc-hackathon/frodokem-keys.tar.gz")


PREFIXES = sorted(name[: -len("_priv.der")] for name in _bundle() if name.endswith("_priv.der"))


def test_all_eight_sets_are_there() -> None:
    assert len(PREFIXES) == 8
    assert {p.rsplit(".", 1)[1] for p in PREFIXES} == {str(i) for i in range(1, 9)}


@pytest.mark.parametrize("prefix", PREFIXES, ids=[p.rsplit("/", 1)[1] for p in PREFIXES])
def test_hackathon_key_decapsulates_and_matches_its_certificate(prefix: str) -> None:
    files = _bundle()
    der_key = files[prefix + "_priv.der"]
    key = load_der_private_key(der_key, None)
    assert isinstance(key, FrodoKEMPrivateKey)
    assert key.algorithm.oid == prefix.rsplit("-", 1)[1]
    assert key.decapsulate(files[prefix + "_ciphertext.bin"]) == files[prefix + "_ss.bin"]
    _, spki, _, _ = certificate_parts(files[prefix + "_ee.der"])
    public = load_der_public_key(spki)
    assert public == key.public_key()
    # the same bytes back: PKCS#8 v1, privateKey = OCTET STRING(sk)
    written = key.private_bytes(Encoding.DER, PrivateFormat.PKCS8, NoEncryption())
    assert written == der_key
    assert public.public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo) == spki
    # an encapsulation to the certificate's key decapsulates
    ss, ct = public.encapsulate()
    assert key.decapsulate(ct) == ss


def _pkcs8(oid: str, private_key: bytes) -> bytes:
    alg = der.encode_sequence(der.encode_tlv(der.OBJECT_IDENTIFIER, der.oid_to_der(oid)))
    return der.encode_sequence(der.encode_integer(0), alg, der.encode_octet_string(private_key))


def test_bad_private_keys_are_refused() -> None:
    key = FrodoKEM976SHAKEPrivateKey.generate()
    sk = key.private_bytes_raw()
    oid = key.algorithm.oid
    assert load_der_private_key(_pkcs8(oid, der.encode_octet_string(sk)), None) is not None
    # the seed CHOICE of ML-KEM is not a FrodoKEM form
    with pytest.raises(ValueError, match="OCTET STRING"):
        load_der_private_key(_pkcs8(oid, der.encode_tlv(der.CONTEXT_0, sk[:88])), None)
    with pytest.raises(ValueError, match="must be 31296 bytes"):
        load_der_private_key(_pkcs8(oid, der.encode_octet_string(sk[:-1])), None)
    bad_pkh = sk[:-1] + bytes([sk[-1] ^ 1])
    with pytest.raises(ValueError, match="pkh"):
        FrodoKEM976SHAKEPrivateKey.from_private_bytes(bad_pkh)
    # a changed S^T: pkh still matches, the pairwise test catches it
    at = 24 + key.algorithm.public_key_length
    bad_s = sk[:at] + bytes([sk[at] ^ 0x10]) + sk[at + 1 :]
    with pytest.raises(ValueError, match="pairwise consistency"):
        FrodoKEM976SHAKEPrivateKey.from_private_bytes(bad_s)
    with pytest.raises(ValueError, match="both"):
        key.private_bytes(Encoding.DER, PrivateFormat.PKCS8, NoEncryption(), form="both")


def test_key_objects_round_trip() -> None:
    key = eFrodoKEM1344AESPrivateKey.generate()
    pem = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
    again = load_pem_private_key(pem, None)
    assert again.private_bytes_raw() == key.private_bytes_raw()
    public = key.public_key()
    assert isinstance(public, FrodoKEMPublicKey)
    ss, ct = public.encapsulate()
    assert again.decapsulate(ct) == ss
    assert pqkit.kem("eFrodoKEM-1344-AES").decaps(key.private_bytes_raw(), ct) == ss
    assert key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption()) == (
        key.private_bytes_raw()
    )
    with pytest.raises(ValueError, match="ciphertext must be"):
        key.decapsulate(ct[:-1])


def test_cli_keygen_show_encaps_decaps(cli: Cli, tmp_path: Path) -> None:
    cli.ok("keygen", "FrodoKEM-976-AES", "-o", "k.pem", "--pub", "kp.pem")
    shown = cli.ok("show", "k.pem").decode()
    assert "FrodoKEM-976-AES (OID 1.0.18033.2.2.7.5)" in shown
    assert "single" in shown and "15792 bytes" in shown
    cli.ok("encaps", "kp.pem", "--ct", "ct", "--secret", "ss")
    cli.ok("decaps", "k.pem", "ct", "--secret", "ss2")
    assert (tmp_path / "ss").read_bytes() == (tmp_path / "ss2").read_bytes()
    assert len((tmp_path / "ss").read_bytes()) == 24
    cli.fails("keygen", "FrodoKEM-976-AES", "-o", "k2.pem", "--form", "expanded", match="single")


def test_cli_decaps_of_a_hackathon_key(cli: Cli, tmp_path: Path) -> None:
    files = _bundle()
    prefix = PREFIXES[0]
    (tmp_path / "k.der").write_bytes(files[prefix + "_priv.der"])
    (tmp_path / "ct").write_bytes(files[prefix + "_ciphertext.bin"])
    cli.ok("decaps", "k.der", "ct", "--secret", "ss")
    assert (tmp_path / "ss").read_bytes() == files[prefix + "_ss.bin"]
