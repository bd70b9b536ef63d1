"""RFC 9802 public keys (HSS, XMSS, XMSS^MT in X.509) against an independent ASN.1
module: pyasn1-alt-modules' ``rfc9802`` (test-only; skipped when it is not
installed). RFC 9802 §3: the algorithm identifier's parameters are absent and the
subjectPublicKey BIT STRING holds the raw public key (RFC 8554 §6.1 /
RFC 8391 Appendix B and C), not wrapped in an OCTET STRING."""

from __future__ import annotations

import pytest
from helpers import load_lines

import pqkit
from pqkit.stateful import files

rfc9802 = pytest.importorskip(
    "pyasn1_alt_modules.rfc9802", reason="pyasn1-alt-modules is not installed (x509 extra)"
)
decoder = pytest.importorskip("pyasn1.codec.der.decoder", reason="pyasn1 is not installed")
encoder = pytest.importorskip("pyasn1.codec.der.encoder", reason="pyasn1 is not installed")
rfc5280 = pytest.importorskip("pyasn1_alt_modules.rfc5280", reason="pyasn1-alt-modules")


def _public_key(name: str) -> bytes:
    """A public key of ``name`` from its shared vector file (no key generation)."""
    folder = "lms" if name.startswith("LMS") else "xmss"
    for line in load_lines(f"{folder}/{name.replace('/', '-')}.rsp.gz"):
        if line.startswith("pk = "):
            return bytes.fromhex(line[5:])
    raise AssertionError(f"no pk in the {name} file")


CASES = [
    ("LMS_SHA256_H5_W8", "pk_HSS_LMS_HashSig", "id_alg_hss_lms_hashsig"),
    ("LMS_SHA256_H10_W4_H5_W8", "pk_HSS_LMS_HashSig", "id_alg_hss_lms_hashsig"),
    ("XMSS-SHA2_10_256", "pk_XMSS_HashSig", "id_alg_xmss_hashsig"),
    ("XMSSMT-SHA2_20/2_256", "pk_XMSSMT_HashSig", "id_alg_xmssmt_hashsig"),
]


@pytest.mark.parametrize(("name", "template", "oid"), CASES)
def test_spki_matches_rfc9802_module(name: str, template: str, oid: str) -> None:
    pk = _public_key(name)
    ours = pqkit.sig(name).public_key_spki(pk)  # type: ignore[attr-defined]
    spki, rest = decoder.decode(ours, asn1Spec=rfc5280.SubjectPublicKeyInfo())
    assert rest == b""
    assert spki["algorithm"]["algorithm"] == getattr(rfc9802, oid)
    assert not spki["algorithm"]["parameters"].hasValue()  # absent
    assert spki["subjectPublicKey"].asOctets() == pk  # raw, no OCTET STRING inside
    # the module's own SubjectPublicKeyInfo template with the raw key: the same DER
    theirs = getattr(rfc9802, template).clone()
    theirs["algorithm"] = getattr(rfc9802, template)["algorithm"]
    theirs["subjectPublicKey"] = rfc5280.univ.BitString.fromOctetString(pk)
    assert encoder.encode(theirs) == ours
    assert files.decode_spki(encoder.encode(theirs)) == (str(getattr(rfc9802, oid)), pk)


def test_octet_string_wrapped_key_is_refused_by_length() -> None:
    """A key wrapped in an OCTET STRING inside the BIT STRING (the pre-RFC 9802
    draft form some libraries wrote) is not a raw key: pqkit's verify refuses it."""
    name = "LMS_SHA256_H5_W8"
    pk = _public_key(name)
    wrapped = encoder.encode(rfc9802.HSS_LMS_HashSig_PublicKey(pk))
    spki = rfc9802.pk_HSS_LMS_HashSig.clone()
    spki["algorithm"] = rfc9802.pk_HSS_LMS_HashSig["algorithm"]
    spki["subjectPublicKey"] = rfc5280.univ.BitString.fromOctetString(wrapped)
    oid, raw = files.decode_spki(encoder.encode(spki))
    assert oid == files.OID_HSS and raw == wrapped != pk
    with pytest.raises(ValueError, match="public key must be 60 bytes"):
        pqkit.sig(name).verify(raw, b"m", bytes(pqkit.sig(name).length_signature))
