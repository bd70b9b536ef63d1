"""The README's table of keys that convert to pyca/cryptography, checked against
the installed cryptography (issue 25 item 5); CI reruns this file against the
oldest cryptography pyproject.toml accepts.

Every key class pqkit has is tried both ways: a listed parameter set converts
(private and public key) and its seed-form key files load in cryptography; every
other key raises ``cryptography.exceptions.UnsupportedAlgorithm``, the one
documented exception. ``pqkit.InvalidSignature`` is caught as pyca's.
"""

from __future__ import annotations

import itertools
import pickle
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import pqkit
from pqkit import keys
from pqkit.keys import hybrid
from pqkit.keys.pyca import convertible
from pqkit.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat

cryptography = pytest.importorskip("cryptography", reason="cryptography is not installed")
exceptions = pytest.importorskip("cryptography.exceptions")
serialization = pytest.importorskip("cryptography.hazmat.primitives.serialization")

README = Path(__file__).resolve().parent.parent / "README.md"
MAJOR = int(cryptography.__version__.split(".")[0])
ROW = re.compile(r"^\| (?P<lo>\d+) to (?P<hi>\d+) \| (?P<names>[^|(]*?)\s*(?:\(.*\))? \|$")


def readme_table() -> list[tuple[int, int, tuple[str, ...]]]:
    """The rows of the README's table: (first major, last major, key names)."""
    text = README.read_text(encoding="utf-8")
    section = text.split("### Keys to and from pyca/cryptography", 1)[1].split("```", 1)[0]
    rows = []
    for line in section.splitlines():
        match = ROW.match(line.strip())
        if match:
            names = match["names"]
            listed = () if names == "none" else tuple(n.strip() for n in names.split(","))
            rows.append((int(match["lo"]), int(match["hi"]), listed))
    return rows


def readme_convertible() -> tuple[str, ...]:
    for lo, hi, names in readme_table():
        if lo <= MAJOR <= hi:
            return names
    pytest.fail(
        f"README.md's pyca/cryptography table has no row for cryptography {MAJOR}: "
        "measure which keys convert with it and add one"
    )


def all_key_classes() -> list[Any]:
    """Every pqkit private-key class: ML-KEM, ML-DSA, SLH-DSA, HQC and the hybrids."""
    found = [getattr(keys, n) for n in keys.__all__ if n.endswith("PrivateKey")]
    found += [getattr(hybrid, n) for n in hybrid.__all__ if n.endswith("PrivateKey")]
    return [c for c in found if getattr(c, "_public_class", None) or hasattr(c, "public_class")]


CLASSES = all_key_classes()


def _name(cls: Any) -> str:
    algorithm = cls.algorithm
    return algorithm if isinstance(algorithm, str) else algorithm.name


def test_the_table_covers_every_accepted_release() -> None:
    rows = readme_table()
    assert rows, "README.md: the pyca/cryptography table is missing"
    assert rows[0][0] == 44  # pyproject.toml: cryptography>=44
    assert all(a[1] + 1 == b[0] for a, b in itertools.pairwise(rows)), rows


def test_the_readme_list_is_what_converts() -> None:
    assert convertible() == readme_convertible()


def test_every_key_class_is_tried() -> None:
    names = {_name(c) for c in CLASSES}
    assert {"ML-KEM-512", "ML-DSA-87", "SLH-DSA-SHAKE-256f", "X-Wing"} <= names
    # ML-KEM, ML-DSA, SLH-DSA, FrodoKEM (the 8 sets with OIDs), the hybrids, HQC,
    # sntrup761, the pre-hash OIDs (HashML-DSA, HashSLH-DSA), then the composites
    # (18 ML-DSA, 12 ML-KEM)
    assert len(names) == 3 + 3 + 12 + 8 + 3 + 3 + 1 + 3 + 12 + 18 + 12


@pytest.mark.parametrize("cls", CLASSES, ids=_name)
def test_each_key_converts_or_raises_unsupported_algorithm(cls: Any) -> None:
    key = cls.generate()
    name = _name(cls)
    if name in readme_convertible():
        theirs = key.to_cryptography_key()
        assert theirs.private_bytes_raw() == key.private_bytes_raw()
        assert key.public_key().to_cryptography_key().public_bytes_raw() == (
            key.public_key().public_bytes_raw()
        )
        pem = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
        loaded = serialization.load_pem_private_key(pem, None)
        assert loaded.private_bytes_raw() == key.private_bytes_raw()
        spki = key.public_key().public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
        assert serialization.load_der_public_key(spki).public_bytes_raw() == (
            key.public_key().public_bytes_raw()
        )
        return
    for convert in (key.to_cryptography_key, key.public_key().to_cryptography_key):
        with pytest.raises(exceptions.UnsupportedAlgorithm) as info:
            convert()
        message = str(info.value)
        assert name in message and cryptography.__version__ in message
        for other in convertible():
            assert other in message


def test_invalid_signature_is_caught_as_pycas() -> None:
    key = pqkit.SLHDSASHA2_128fPrivateKey.generate()
    signature = bytearray(key.sign(b"message"))
    signature[-1] ^= 1
    with pytest.raises(exceptions.InvalidSignature) as info:
        key.public_key().verify(bytes(signature), b"message")
    assert isinstance(info.value, pqkit.InvalidSignature)
    assert type(info.value).__name__ == "InvalidSignature"
    try:
        raise pqkit.InvalidSignature("by hand")
    except exceptions.InvalidSignature as exc:
        again = pickle.loads(pickle.dumps(exc))
    assert isinstance(again, exceptions.InvalidSignature) and str(again) == "by hand"


def _run(code: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_import_pqkit_does_not_import_cryptography() -> None:
    out = _run(
        "import sys, pqkit\n"
        "print('cryptography' in sys.modules, issubclass(pqkit.InvalidSignature, Exception))"
    )
    assert out == "False True\n"


def test_without_cryptography_invalid_signature_is_plain() -> None:
    out = _run(
        "import sys\n"
        "sys.modules['cryptography'] = None\n"
        "import pqkit\n"
        "e = pqkit.InvalidSignature('x')\n"
        "print(type(e) is pqkit.InvalidSignature, type(e).__mro__[1].__name__)"
    )
    assert out == "True Exception\n"
