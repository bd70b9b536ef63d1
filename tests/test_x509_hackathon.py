"""Every certificate of the IETF hackathon copies (tests/vectors/pqc-hackathon/
certs-r5.tar.gz: each producer's `_ta.der` and `_ee.der`, and the CMS folder's
`ta.der` and `_ee.der`) loads through pqkit.x509, round-trips byte for byte, and
verifies with its issuer; the upstream defect of the shared README (KEM
certificates of two producers issued by a CA that is not in the zips) fails for
that reason."""

from __future__ import annotations

import functools
import re

import pytest
from helpers import load_tarball

pytest.importorskip("pyasn1_alt_modules", reason="pqkit.x509 needs the x509 extra")

import pqkit
from pqkit import x509
from pqkit.keys import PublicKey
from pqkit.serialization import Encoding
from pqkit.serialization.algorithms import by_oid


def _bundle() -> dict[str, bytes]:
    return load_tarball("pqc-hackathon/certs-r5.tar.gz")


FILES = sorted(_bundle())
TRUST_ANCHORS = [n for n in FILES if n.endswith("ta.der")]
END_ENTITIES = [n for n in FILES if n.endswith("_ee.der")]
# The shared README's defect: these producers' KEM certificates name a CA not in the zips.
ISSUER_MISSING = ("composite-kem-ref-impl/", "sanctum-secops-llc/")
_OID = re.compile(r"-([0-9.]+)_(?:ta|ee)\.der$")


@functools.cache
def _certificate(name: str) -> x509.Certificate:
    return x509.load_der_x509_certificate(_bundle()[name])


def _issuer_of(name: str) -> x509.Certificate | None:
    """The trust anchor whose subject is the issuer name and whose SKI is the AKI."""
    certificate = _certificate(name)
    for other in TRUST_ANCHORS:
        ta = _certificate(other)
        if (
            ta.subject == certificate.issuer
            and ta.subject_key_identifier == certificate.authority_key_identifier
        ):
            return ta
    return None


def test_the_bundle_holds_every_certificate() -> None:
    assert (len(TRUST_ANCHORS), len(END_ENTITIES)) == (112, 77)


@pytest.mark.parametrize("name", FILES)
def test_certificate_loads_round_trips_and_names_its_key(name: str) -> None:
    data = _bundle()[name]
    certificate = _certificate(name)
    assert certificate.public_bytes(Encoding.DER) == data
    again = x509.load_pem_x509_certificate(certificate.public_bytes(Encoding.PEM))
    assert again == certificate
    key = certificate.public_key()
    assert isinstance(key, PublicKey)
    match = _OID.search(name)
    if match is not None:  # the OID in the file name is the subject key's
        assert key.algorithm.oid == certificate.public_key_algorithm_oid == match.group(1)
    alg = by_oid(certificate.public_key_algorithm_oid)
    assert alg is not None
    assert alg.is_kem == name.endswith("_ee.der")


@pytest.mark.parametrize("name", TRUST_ANCHORS)
def test_trust_anchor_is_self_signed(name: str) -> None:
    certificate = _certificate(name)
    certificate.verify_directly_issued_by(certificate)
    assert certificate.signature_algorithm_oid == certificate.public_key_algorithm_oid


@pytest.mark.parametrize("name", END_ENTITIES)
def test_end_entity_verifies_with_its_issuer(name: str) -> None:
    issuer = _issuer_of(name)
    if name.startswith(ISSUER_MISSING):  # the upstream defect: no issuer to verify with
        assert issuer is None
        return
    assert issuer is not None
    certificate = _certificate(name)
    certificate.verify_directly_issued_by(issuer)
    usage = certificate.key_usage
    assert usage is None or usage.names() == ["key_encipherment"]  # RFC 9935 §5


def test_a_flipped_bit_fails() -> None:
    name = "cryptonext/artifacts_cms_v3/ML-KEM-768-2.16.840.1.101.3.4.4.2_ee.der"
    data = bytearray(_bundle()[name])
    data[-5] ^= 1  # inside the signature
    certificate = x509.load_der_x509_certificate(bytes(data))
    with pytest.raises(pqkit.InvalidSignature):
        certificate.verify_directly_issued_by(_certificate("cryptonext/artifacts_cms_v3/ta.der"))


def test_wrong_issuer_is_refused_by_name() -> None:
    certificate = _certificate(
        "cryptonext/artifacts_cms_v3/ML-KEM-768-2.16.840.1.101.3.4.4.2_ee.der"
    )
    other = _certificate(TRUST_ANCHORS[0])
    with pytest.raises(ValueError, match="is not the subject of the issuer"):
        certificate.verify_directly_issued_by(other)
