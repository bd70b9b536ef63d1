"""pqkit.cms against the IETF Hackathon CMS artifacts (cryptonext, artifacts_cms_v3):
every EnvelopedData / AuthEnvelopedData decrypts to expected_plaintext.txt with its
recipient's key (ML-KEM, composite ML-KEM, FrodoKEM)."""

from __future__ import annotations

import pytest

pytest.importorskip("pyasn1_alt_modules.rfc9629", reason="the cms extra is not installed")
pytest.importorskip("cryptography", reason="the cms extra is not installed")

from helpers import load_tarball

from pqkit import cms
from pqkit.keys import load_der_private_key

_FOLDER = "cryptonext/artifacts_cms_v3/"


def bundle() -> dict[str, bytes]:
    return load_tarball("pqc-hackathon/cms-v3.tar.gz", _FOLDER)


ENVELOPED = sorted(name for name in bundle() if "_kemri_" in name)
PLAINTEXT = bundle()["expected_plaintext.txt"]


def recipient_key(name: str) -> object:
    prefix = name.split("_kemri_")[0]
    files = bundle()
    raw = files.get(f"{prefix}_priv.der") or files[f"{prefix}_expandedkey_priv.der"]
    return load_der_private_key(raw, None)


def _family(name: str) -> str:
    return "frodo" if "frodokem" in name else ("ML-KEM" if name.startswith("ML-KEM") else "comp")


# One message of each kind and family in the default run; all 92 with -m slow.
_SAMPLE = [
    name
    for name in ENVELOPED
    if name.startswith(("ML-KEM-768", "id-MLKEM768-X25519", "id-kem-frodokem976-shake"))
]


def test_the_folder_is_complete() -> None:
    assert len(ENVELOPED) == 92  # 69 EnvelopedData + 23 AuthEnvelopedData
    assert len(_SAMPLE) == 12


@pytest.mark.parametrize("name", _SAMPLE)
def test_sample_decrypts(name: str) -> None:
    assert cms.decrypt(bundle()[name], recipient_key(name)) == PLAINTEXT


@pytest.mark.slow
@pytest.mark.parametrize("name", ENVELOPED)
def test_every_enveloped_message_decrypts(name: str) -> None:
    assert cms.decrypt(bundle()[name], recipient_key(name)) == PLAINTEXT


def test_another_recipients_key_is_refused() -> None:
    name = "ML-KEM-768-2.16.840.1.101.3.4.4.2_kemri_auth.der"
    other = recipient_key("ML-KEM-1024-2.16.840.1.101.3.4.4.3_kemri_auth.der")
    with pytest.raises(cms.DecryptionError):
        cms.decrypt(bundle()[name], other)
