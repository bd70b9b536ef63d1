"""What needs an optional extra says so in one line (issue 25 item 1), in-process.

pyca/cryptography (the ``openssl`` extra) is blocked here by putting ``None`` in
``sys.modules`` for it and every submodule already imported, so that an import
of any of them raises ``ImportError`` as on an install without the extra. The
hybrid KEMs' cached module bundle (:func:`pqkit.hybrid.groups.pyca`) is cleared
before and after. tests/test_cli_no_extras.py runs the whole command line in
fresh processes that never had cryptography.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import Cli

import pqkit
from pqkit import _extras, registry
from pqkit.composite import traditional
from pqkit.errors import MissingExtra
from pqkit.hybrid import groups

INSTALL = 'pip install "pqkit[openssl]"'


@pytest.fixture
def no_cryptography(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """cryptography (and every cryptography.* module) cannot be imported."""
    # Modules that look for cryptography when first imported are imported first, so
    # that the block does not outlive the test in them; pqkit.common.openssl looks
    # when its AES and XOF flags are first read (start-up), so they are read here.
    openssl = importlib.import_module("pqkit.common.openssl")
    assert openssl.AES is not None or not openssl.HAS_CRYPTOGRAPHY
    assert isinstance(openssl.HAS_XOF_HASH, bool)
    for name in [n for n in sys.modules if n == "cryptography" or n.startswith("cryptography.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "cryptography", None)
    # The OpenSSL AES provider holds pyca objects made at import, which import more
    # of pyca when called: the pure-Python AES serves, as on the plain install.
    monkeypatch.setenv("PQKIT_SYMMETRIC", "aes=python")
    groups.pyca.cache_clear()
    traditional.pyca.cache_clear()
    yield
    groups.pyca.cache_clear()
    traditional.pyca.cache_clear()


def _one_line(exc: BaseException, extra: str = "openssl") -> str:
    text = str(exc)
    assert "\n" not in text
    assert f"'{extra}' extra" in text and f'pip install "pqkit[{extra}]"' in text
    return text


# --- the exception and the one place that raises it ----------------------------------


def test_missing_extra_is_an_import_error_naming_the_extra() -> None:
    exc = MissingExtra("doing a thing", "openssl", "cryptography")
    assert isinstance(exc, ImportError) and exc.name == "cryptography"
    assert (exc.feature, exc.extra, exc.package) == ("doing a thing", "openssl", "cryptography")
    assert _one_line(exc).startswith("doing a thing needs the 'openssl' extra")
    assert "cryptography is not installed" in str(exc)
    assert pqkit.MissingExtra is MissingExtra and "MissingExtra" in pqkit.__all__


def test_require_imports_or_raises(no_cryptography: None) -> None:
    assert not _extras.installed("openssl")
    with pytest.raises(MissingExtra) as info:
        _extras.require("openssl", "feature X", "cryptography.hazmat.primitives.ciphers")
    assert info.value.extra == "openssl" and info.value.feature == "feature X"
    _one_line(info.value)


def test_require_refuses_what_is_not_the_extras() -> None:
    with pytest.raises(ValueError, match="unknown extra 'nope'"):
        _extras.require("nope", "x")
    with pytest.raises(ValueError, match="numpy is not part of cryptography"):
        _extras.require("openssl", "x", "numpy")


def test_require_says_when_an_installed_package_does_not_import() -> None:
    pytest.importorskip("cryptography", reason="needs cryptography installed")
    with pytest.raises(MissingExtra, match="cryptography does not import here") as info:
        _extras.require("openssl", "feature X", "cryptography.no_such_module_here")
    _one_line(info.value)


# --- API calls ------------------------------------------------------------------------


def test_every_kem_needs_an_extra_exactly_when_the_registry_says(no_cryptography: None) -> None:
    needing = []
    for name in pqkit.kems():
        kem = pqkit.kem(name)  # the scheme object is built without the extra
        try:
            pk, sk = kem.keygen()
        except MissingExtra as exc:
            _one_line(exc)
            needing.append(name)
            continue
        ss, ct = kem.encaps(pk)
        assert kem.decaps(sk, ct) == ss
    assert needing == [a.name for a in registry.algorithms("kem") if a.extra == "openssl"]
    assert needing, "the hybrid KEMs need pyca/cryptography"
    # signatures: the composites' traditional half is pyca's, nothing else needs it
    for alg in registry.algorithms("sig"):
        assert (alg.extra == "openssl") == (alg.family == "Composite-ML-DSA")
        if alg.extra is not None:
            with pytest.raises(MissingExtra) as info:
                pqkit.sig(alg.name).keygen()
            _one_line(info.value)


def test_hybrid_key_classes_need_the_extra(no_cryptography: None) -> None:
    with pytest.raises(MissingExtra) as info:
        pqkit.XWingPrivateKey.generate()
    assert "X-Wing" in _one_line(info.value)


def test_hpke_with_ml_kem_needs_the_extra_only_for_its_aead(no_cryptography: None) -> None:
    from pqkit import hpke

    suite = hpke.Suite(hpke.KEM.MLKEM768, hpke.KDF.HKDF_SHA256, hpke.AEAD.AES_128_GCM)
    pk, sk = suite.generate_key_pair()  # the KEM and the KDF need no extra
    enc, sender = suite.setup_sender(pk, b"info")
    recipient = suite.setup_recipient(enc, sk, b"info")
    assert sender.export(b"label", 32) == recipient.export(b"label", 32)
    with pytest.raises(MissingExtra) as info:
        suite.encrypt(b"message", pk, b"info")
    assert "HPKE's AEAD (AES-128-GCM)" in _one_line(info.value)
    with pytest.raises(MissingExtra):  # open: the same error, not a bare ImportError
        suite.decrypt(bytes(suite.length_enc + 16), sk, b"info")


def test_password_encryption_needs_the_extra(no_cryptography: None) -> None:
    from pqkit.serialization import pbes2

    key = pqkit.MLKEM512PrivateKey.generate()
    with pytest.raises(MissingExtra) as info:
        key.private_bytes(
            pqkit.Encoding.PEM, pqkit.PrivateFormat.PKCS8, pqkit.BestAvailableEncryption(b"pw")
        )
    assert "PBES2" in _one_line(info.value)
    assert not pbes2.is_available()


def test_pyca_conversion_needs_the_extra(no_cryptography: None) -> None:
    key = pqkit.MLDSA44PrivateKey.generate()
    with pytest.raises(MissingExtra) as info:
        key.to_cryptography_key()
    assert "pyca/cryptography" in _one_line(info.value)


# --- the command line, in-process ----------------------------------------------------


def test_cli_keygen_of_a_hybrid_is_one_line_exit_2(cli: Cli, no_cryptography: None) -> None:
    err = cli.fails("keygen", "X-Wing", "-o", "x.pem", status=2, match=INSTALL)
    assert "X-Wing" in err


def test_cli_hpke_seal_ml_kem_is_one_line_exit_2(cli: Cli, no_cryptography: None) -> None:
    cli.ok("hpke", "keygen", "--kem", "ML-KEM-768", "--private-out", "k", "--public-out", "p")
    Path("m").write_bytes(b"message")
    cli.fails("hpke", "seal", "p", "--kem", "ML-KEM-768", "-i", "m", "-o", "s", match=INSTALL)


def test_cli_password_is_one_line_exit_2(cli: Cli, no_cryptography: None) -> None:
    cli.fails("keygen", "ML-KEM-512", "-o", "k.pem", "--passout", "pass:pw", match=INSTALL)


def test_cli_demo_skips_and_names_what_needs_the_extra(cli: Cli, no_cryptography: None) -> None:
    out = cli.ok("demo", "ML-KEM-512", "X-Wing", "MLKEM1024-P384", "ML-DSA-44").decode()
    assert "ML-KEM-512 " in out and "ML-DSA-44 " in out
    lines = [line for line in out.splitlines() if line.startswith("skipped")]
    assert lines == [lines[0]] and lines[0].startswith("skipped X-Wing, MLKEM1024-P384: ")
    assert INSTALL in lines[0]
    assert not any(line.startswith(("X-Wing ", "MLKEM1024-P384 ")) for line in out.splitlines())


def test_cli_list_marks_what_needs_an_extra(cli: Cli, no_cryptography: None) -> None:
    out = cli.ok("list").decode().splitlines()
    assert out[0].split()[-1] == "Needs"
    rows = {line.split()[0]: line.split()[-1] for line in out[1:] if line.strip()}
    for alg in registry.algorithms():
        assert rows[alg.name] == (alg.extra or "-")
    # the hybrids and FrodoKEM's AES sets, in the listing's order (key-file ones first)
    needing = {a.name for a in registry.algorithms() if a.extra == "openssl"}
    notes = [line for line in out if line.startswith("not installed here: the 'openssl' extra")]
    assert len(notes) == 1 and notes[0].endswith(f" need it): {INSTALL}")
    named = notes[0].split("(", 1)[1].split(" need it)")[0].split(", ")
    assert sorted(named) == sorted(needing)


def test_cli_list_has_no_note_when_the_extras_are_installed(cli: Cli) -> None:
    pytest.importorskip("cryptography", reason="needs cryptography installed")
    assert "not installed here" not in cli.ok("list").decode()


@pytest.mark.slow  # every KEM timed (minutes): tests/test_cli_no_extras.py checks the line
def test_cli_speed_leaves_out_and_names_what_needs_the_extra(
    cli: Cli, no_cryptography: None
) -> None:
    status, out, err = cli.run("speed", "kem", "--duration", "0.001", "-q", "--format", "json")
    assert status == 0, err
    needing = [a.name for a in registry.algorithms("kem") if a.extra == "openssl"]
    assert err.startswith(f"pqkit speed: skipped {', '.join(needing)}: ")
    assert {"X-Wing", "FrodoKEM-640-AES", "MLKEM768-RSA2048-SHA3-256"} <= set(needing)
    assert INSTALL in err and b"X-Wing" not in out and b"ML-KEM-512" in out
    cli.fails("speed", "kem", "X-Wing", "--duration", "0.001", "-q", match=INSTALL)


def test_openssl_aes_backend_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    from pqkit import common
    from pqkit.common import openssl

    monkeypatch.setattr(openssl, "AES", None)  # as on an install without cryptography
    monkeypatch.setattr(_extras, "installed", lambda extra: extra != "openssl")
    with pytest.raises(pqkit.UnknownBackend) as info, common.use(aes="openssl"):
        pass
    assert isinstance(info.value, ValueError) and info.value.available == ["python"]
    _one_line(info.value)
    assert str(info.value).startswith("unknown or unavailable aes backend 'openssl'")


def test_composite_keys_need_the_extra(no_cryptography: None) -> None:
    # a composite key file loads only with pyca/cryptography: one line naming the extra
    key = pqkit.keys.MLDSA65_ECDSA_P256_SHA512PrivateKey
    with pytest.raises(MissingExtra) as info:
        key.generate()
    assert "composite" in _one_line(info.value)
    with pytest.raises(MissingExtra) as info:
        pqkit.sig("MLDSA65-ECDSA-P256-SHA512").verify(bytes(2017), b"m", bytes(3381))
    _one_line(info.value)
