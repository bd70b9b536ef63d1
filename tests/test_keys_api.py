"""Key-object surface that needs no scheme: exports, public keys, options.

Public keys are plain data; loading an ML-KEM public key runs the scheme's FIPS 203
§7.2 modulus check.
"""

from __future__ import annotations

import gzip
import pickle
import subprocess
import sys

import pytest
from helpers import VECTORS

import pqkit
from pqkit import keys
from pqkit.serialization import Encoding, PublicFormat

NAMES = ["ML-KEM-512", "ML-KEM-768", "ML-KEM-1024", "ML-DSA-44", "ML-DSA-65", "ML-DSA-87"]


def lamps_pub(name: str) -> bytes:
    return gzip.decompress((VECTORS / "lamps" / name[:6] / f"{name}.pub.der.gz").read_bytes())


def test_exports() -> None:
    for name in NAMES:
        stem = name.replace("-", "")
        private = getattr(pqkit, f"{stem}PrivateKey")
        public = getattr(pqkit, f"{stem}PublicKey")
        assert private is getattr(keys, f"{stem}PrivateKey") is keys.private_key_class(name)
        assert public is keys.public_key_class(name.lower())
        assert private._public_class is public
        assert private.algorithm is public.algorithm and private.algorithm.name == name
        assert f"{stem}PrivateKey" in pqkit.__all__ and f"{stem}PrivateKey" in dir(pqkit)
    for name in ("load_pem_private_key", "load_der_public_key"):
        assert getattr(pqkit, name) is getattr(keys, name)
    for name in ("Encoding", "NoEncryption"):
        assert getattr(pqkit, name) is getattr(pqkit.serialization, name)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        pqkit.nothing  # noqa: B018
    with pytest.raises(TypeError, match="must be str"):
        keys.private_key_class(768)  # type: ignore[arg-type]


def test_import_stays_light() -> None:
    code = (
        "import sys, pqkit; pqkit.MLKEM768PrivateKey; pqkit.load_pem_private_key; "
        "print('numpy' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"


@pytest.mark.parametrize("name", NAMES)
def test_lamps_public_key_object(name: str) -> None:
    spki = lamps_pub(name)
    key = pqkit.load_der_public_key(spki)
    cls = keys.public_key_class(name)
    assert type(key) is cls
    raw = key.public_bytes_raw()
    same = cls.from_public_bytes(bytearray(raw))
    assert same == key and hash(same) == hash(key) and same is not key
    assert key != pqkit.load_der_public_key(lamps_pub(NAMES[(NAMES.index(name) + 1) % 6]))
    assert key != raw
    assert key.public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo) == spki
    assert repr(key).startswith(f"<{cls.__name__} sha256:")
    assert pickle.loads(pickle.dumps(key)) == key
    with pytest.raises(AttributeError, match="immutable"):
        key.extra = 1  # type: ignore[attr-defined]


def test_cryptography_enums_are_accepted() -> None:
    serialization = pytest.importorskip("cryptography.hazmat.primitives.serialization")
    key = pqkit.load_der_public_key(lamps_pub("ML-DSA-44"))
    theirs = key.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    assert theirs == key.public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo)
    assert key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw) == (
        key.public_bytes_raw()
    )
    with pytest.raises(ValueError, match=r"Encoding\.OpenSSH is not supported"):
        key.public_bytes(serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH)
    with pytest.raises(TypeError, match="PublicFormat member"):
        key.public_bytes(Encoding.PEM, "SubjectPublicKeyInfo")  # type: ignore[arg-type]


def test_ml_kem_modulus_check_on_load() -> None:
    spki = bytearray(lamps_pub("ML-KEM-768"))
    offset = len(spki) - 1184  # the raw ek ends the SPKI
    spki[offset] = 0x01
    spki[offset + 1] = (spki[offset + 1] & 0xF0) | 0x0D  # coefficient 0 := 3329 = q
    with pytest.raises(ValueError, match=r"FIPS 203 §7\.2 modulus check"):
        pqkit.load_der_public_key(bytes(spki))
