"""The strict DER encoder/decoder (pqkit.der)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pqkit import der


def test_length_forms() -> None:
    assert der.encode_length(0) == b"\x00"
    assert der.encode_length(127) == b"\x7f"
    assert der.encode_length(128) == b"\x81\x80"
    assert der.encode_length(255) == b"\x81\xff"
    assert der.encode_length(256) == b"\x82\x01\x00"
    assert der.encode_length(2400) == b"\x82\x09\x60"  # as in the ML-KEM-768 expandedKey


@pytest.mark.parametrize(
    ("value", "encoding"),
    [
        (0, "020100"),
        (1, "020101"),
        (127, "02017f"),
        (128, "02020080"),
        (256, "02020100"),
        (-1, "0201ff"),
        (-128, "020180"),
        (-129, "0202ff7f"),
        (2048, "02020800"),
    ],
)
def test_integer_encodings(value: int, encoding: str) -> None:
    assert der.encode_integer(value) == bytes.fromhex(encoding)
    assert der.decode_integer(bytes.fromhex(encoding)[2:], "t") == value


@pytest.mark.parametrize(
    ("dotted", "content"),
    [
        ("2.16.840.1.101.3.4.4.2", "608648016503040402"),  # id-alg-ml-kem-768
        ("2.16.840.1.101.3.4.3.17", "608648016503040311"),  # id-ml-dsa-44
        ("1.2.840.113549.1.5.13", "2a864886f70d01050d"),  # id-PBES2
        ("2.999.3", "883703"),  # first sub-identifier above 127
    ],
)
def test_oid_encodings(dotted: str, content: str) -> None:
    assert der.oid_to_der(dotted) == bytes.fromhex(content)
    assert der.decode_oid(bytes.fromhex(content), "t") == dotted


@given(st.integers(min_value=-(2**200), max_value=2**200))
def test_integer_round_trip(value: int) -> None:
    encoded = der.encode_integer(value)
    reader = der.DerReader(encoded, "t")
    content = reader.expect(der.INTEGER, "INTEGER")
    assert der.decode_integer(content, "t", max_octets=26) == value
    reader.finish()


@given(
    st.integers(0, 2),
    st.integers(0, 39),
    # Arcs of up to 9 base-128 octets, 7 of them: 1 + 63 octets, within the decoder's
    # MAX_OID_OCTETS = 64 (longer OIDs are refused by design: tests/test_hardening_der.py).
    st.lists(st.integers(0, 2**63 - 1), max_size=7),
)
def test_oid_round_trip(first: int, second: int, rest: list[int]) -> None:
    dotted = ".".join(str(arc) for arc in [first, second, *rest])
    content = der.oid_to_der(dotted)
    assert len(content) <= der.MAX_OID_OCTETS
    assert der.decode_oid(content, "t") == dotted


@given(st.binary(max_size=70000))
def test_octet_string_round_trip(data: bytes) -> None:
    encoded = der.encode_octet_string(data)
    assert der.read_single(encoded, der.OCTET_STRING, "OCTET STRING", "t") == data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("", "truncated"),
        ("04", "truncated"),
        ("0405aabb", "truncated"),
        ("0482", "truncated"),
        ("0480aabb0000", "indefinite"),
        ("048101aa", "non-minimal DER length"),  # long form for a short length
        ("04820005aabbccddee", "leading zero"),
        ("0485ffffffffff", "too long"),
        ("1f0100", "multi-byte"),
        ("0401aaff", "trailing"),
        ("0201aa", "tag 0x02"),
    ],
)
def test_decoder_refuses(data: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        der.read_single(bytes.fromhex(data), der.OCTET_STRING, "OCTET STRING", "t")


@pytest.mark.parametrize(
    ("content", "message"),
    [("", "empty"), ("0000", "non-minimal"), ("007f", "non-minimal"), ("ff80", "non-minimal")],
)
def test_integer_refuses(content: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        der.decode_integer(bytes.fromhex(content), "t")


@pytest.mark.parametrize(
    ("content", "message"),
    [("", "empty"), ("2a86", "truncated"), ("2a8048", "non-minimal"), ("80012a", "non-minimal")],
)
def test_oid_refuses(content: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        der.decode_oid(bytes.fromhex(content), "t")


def test_bit_string_needs_whole_octets() -> None:
    assert der.decode_bit_string(b"\x00abc", "t") == b"abc"
    with pytest.raises(ValueError, match="unused bits"):
        der.decode_bit_string(b"\x01abc", "t")
    with pytest.raises(ValueError, match="empty"):
        der.decode_bit_string(b"", "t")


@pytest.mark.parametrize("dotted", ["1", "3.1", "1.40", "1.2.x", "1.-2"])
def test_oid_to_der_refuses(dotted: str) -> None:
    with pytest.raises(ValueError):
        der.oid_to_der(dotted)


@given(st.binary(max_size=300))
def test_reader_raises_only_value_error(data: bytes) -> None:
    reader = der.DerReader(data, "fuzz")
    try:
        while not reader.at_end():
            tag, content = reader.read()
            if tag == der.INTEGER:
                der.decode_integer(content, "fuzz")
            elif tag == der.OBJECT_IDENTIFIER:
                der.decode_oid(content, "fuzz")
            elif tag == der.BIT_STRING:
                der.decode_bit_string(content, "fuzz")
    except ValueError:
        pass
