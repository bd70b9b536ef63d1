"""What a new user meets first (issue 25 items 6, 10 and 11): the hybrid key classes
at the top level, descriptions of today's pqkit, plain errors for an empty key file
and for a scheme of the other kind, and SECURITY.md."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import Cli

import pqkit
from pqkit import registry
from pqkit.keys import hybrid

ROOT = Path(__file__).resolve().parent.parent


def _pyproject(key: str) -> str:
    """A one-line ``key = "value"`` of pyproject.toml (tomllib is 3.11+)."""
    text = (ROOT / "pyproject.toml").read_text()
    match = re.search(rf'^{key} = "(.*)"$', text, re.MULTILINE)
    assert match, key
    return match[1]


HYBRID_CLASSES = [
    f"{stem}{kind}Key"
    for stem in ("XWing", "MLKEM768P256", "MLKEM1024P384")
    for kind in ("Private", "Public")
]

# --- item 6: the hybrid key classes at the top level ----------------------------------


@pytest.mark.parametrize("name", HYBRID_CLASSES)
def test_hybrid_key_classes_are_exported(name: str) -> None:
    assert name in pqkit.__all__ and name in dir(pqkit)
    assert getattr(pqkit, name) is getattr(hybrid, name)


def test_every_key_class_is_exported_at_the_top_level() -> None:
    from pqkit import keys

    # the concrete classes: the abstract ones (PrivateKey, MLKEMPublicKey ...) are
    # not exported, for any family
    abstract = (
        "PrivateKey",
        "PublicKey",
        "MLKEMP",
        "FrodoKEMP",
        "MLDSAP",
        "SLHDSAP",
        "HybridP",
        "HQCP",
        "McElieceP",
        "HashMLDSAP",
        "HashSLHDSAP",
    )
    named = [n for n in [*keys.__all__, *hybrid.__all__] if n.endswith("Key")]
    # the 60 composite classes stay in pqkit.keys (the loaders return them)
    composite = (keys.CompositePrivateKey, keys.CompositePublicKey)
    named = [n for n in named if not issubclass(getattr(keys, n, object), composite)]
    concrete = [n for n in named if not n.startswith(abstract)]
    assert sorted(concrete) == sorted(n for n in pqkit.__all__ if n.endswith("Key"))


def test_hybrid_key_classes_load_lazily() -> None:
    code = (
        "import sys, pqkit\n"
        "before = 'pqkit.keys.hybrid' in sys.modules or 'numpy' in sys.modules\n"
        "cls = pqkit.XWingPrivateKey\n"
        "print(before, cls.__module__, 'pqkit.keys.hybrid' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "pqkit.keys.hybrid", "True"]


def test_hybrid_key_class_round_trip() -> None:
    pytest.importorskip("cryptography", reason="the curve half needs pyca/cryptography")
    key = pqkit.XWingPrivateKey.generate()
    shared, ciphertext = key.public_key().encapsulate()
    assert key.decapsulate(ciphertext) == shared


# --- item 10: descriptions ------------------------------------------------------------


def test_package_summary_describes_every_family() -> None:
    summary = _pyproject("description")
    for word in ("ML-KEM", "ML-DSA", "SLH-DSA", "X-Wing", "HPKE", "command line"):
        assert word in summary, word


def test_api_docs_index_describes_every_family() -> None:
    index = (ROOT / "docs" / "api" / "index.rst").read_text()
    text = " ".join(index.split())
    for word in ("FIPS 205", "SLH-DSA", "X-Wing", "HPKE", "batch", "RFC 9909", "MissingExtra"):
        assert word in text, word
    pages = re.findall(r"^   (\w+)$", index, re.MULTILINE)
    assert "batch" in pages and all((ROOT / "docs" / "api" / f"{p}.rst").is_file() for p in pages)


def test_help_describes_every_family(cli: Cli) -> None:
    top = cli.ok("--help").decode()
    assert "SLH-DSA" in top and "X-Wing" in top and "HPKE" in top
    commands = {}
    for line in top.splitlines():
        match = re.match(r"^    (\w+)\s+(.*)$", line)
        if match:
            commands[match[1]] = match[2]
    assert "SLH-DSA" in commands["sign"] and "SLH-DSA" in commands["verify"]
    assert "hybrid" in commands["encaps"] and "hybrid" in commands["decaps"]
    assert "extra" in commands["list"]
    assert "extra" in cli.ok("keygen", "--help").decode()  # the exit status table


# --- item 10: plain errors ------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["pub", "empty.pem"],
        ["show", "empty.pem"],
        ["encaps", "empty.pem", "--ct", "ct", "--secret", "ss"],
        ["decaps", "empty.pem", "m", "--secret", "ss"],
        ["sign", "empty.pem", "m", "-o", "sig"],
        ["verify", "empty.pem", "m", "m"],
        ["hpke", "seal", "empty.pem", "--kem", "ML-KEM-768", "-i", "m", "-o", "s"],
        ["hpke", "open", "empty.pem", "--kem", "ML-KEM-768", "-i", "m", "-o", "s"],
    ],
    ids=lambda args: " ".join(args[:2]),
)
def test_an_empty_key_file_is_reported_as_empty(cli: Cli, args: list[str]) -> None:
    Path("empty.pem").write_bytes(b"")
    Path("m").write_bytes(b"message")
    err = cli.fails(*args, status=2, match="empty.pem: empty file")
    assert "DER" not in err and "SEQUENCE" not in err


@pytest.mark.parametrize(
    "load",
    [
        pqkit.load_pem_private_key,
        pqkit.load_der_private_key,
        pqkit.load_pem_public_key,
        pqkit.load_der_public_key,
    ],
)
def test_loaders_say_empty(load: object) -> None:
    with pytest.raises(ValueError, match=r"^empty key data"):
        load(b"")  # type: ignore[operator]
    with pytest.raises(TypeError):
        load("")  # type: ignore[operator]


def test_a_kem_asked_for_as_a_signature_says_it_is_a_kem() -> None:
    with pytest.raises(pqkit.UnknownAlgorithm) as info:
        pqkit.sig("ML-KEM-768")
    assert isinstance(info.value, KeyError) and info.value.kind == "kem"
    assert str(info.value).startswith(
        "'ML-KEM-768' is a KEM, not a signature scheme: use pqkit.kem('ML-KEM-768'); "
        "signature schemes: ML-DSA-44,"
    )
    with pytest.raises(pqkit.UnknownAlgorithm, match="'mldsa65' is a signature scheme, not a KEM"):
        pqkit.kem("mldsa65")
    with pytest.raises(pqkit.UnknownAlgorithm, match=r"^unknown algorithm 'nope'") as info:
        pqkit.kem("nope")
    assert info.value.kind is None and info.value.known == pqkit.kems()


@pytest.mark.parametrize("kind", ["kem", "sig"])
def test_every_name_of_the_other_kind_says_so(kind: str) -> None:
    lookup = pqkit.kem if kind == "kem" else pqkit.sig
    other = "sig" if kind == "kem" else "kem"
    for alg in registry.algorithms(other):  # type: ignore[arg-type]
        with pytest.raises(pqkit.UnknownAlgorithm) as info:
            lookup(alg.name)
        assert info.value.kind == other


def test_cli_names_the_kind_too(cli: Cli) -> None:
    cli.fails("hpke", "keygen", "--kem", "ML-DSA-65", "--private-out", "a", "--public-out", "b",
              match="'ML-DSA-65' is a signature scheme, not a KEM")  # fmt: skip


# --- item 11: SECURITY.md -------------------------------------------------------------


def test_security_policy() -> None:
    policy = (ROOT / "SECURITY.md").read_text()
    assert f"{_pyproject('Source')}/security/advisories" in policy
    version = pqkit.__version__.rsplit(".", 1)[0]
    assert re.search(rf"^\| {re.escape(version)}\.x \| yes \|$", policy, re.MULTILINE)
    assert "](SECURITY.md)" in (ROOT / "README.md").read_text()
    manifest = (ROOT / "MANIFEST.in").read_text().split()
    assert "SECURITY.md" in manifest
