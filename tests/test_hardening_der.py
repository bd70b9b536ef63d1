"""Issue 13 item 1: no key file costs more than linear time to accept or refuse.

The timing bounds are generous (0.1 s for inputs that took seconds before the
bounds); they detect super-linear blow-ups, not speed.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import pytest

import pqkit
from pqkit import der
from pqkit.serialization.pem import MAX_PEM_BYTES, pem_encode


def _elapsed(call: Callable[[], object], error: type[Exception] = ValueError) -> float:
    start = time.perf_counter()
    with pytest.raises(error):
        call()
    return time.perf_counter() - start


def _spki_with_oid(oid_content: bytes) -> bytes:
    algorithm = der.encode_sequence(der.encode_tlv(der.OBJECT_IDENTIFIER, oid_content))
    return der.encode_sequence(algorithm, der.encode_bit_string(bytes(1184)))


def test_200kb_oid_spki_rejected_fast() -> None:
    huge_arc = b"\x2b" + b"\xff" * 200_000 + b"\x7f"  # 1.3, then one 1.4-Mbit arc
    spki = _spki_with_oid(huge_arc)
    pem = pem_encode(spki, "PUBLIC KEY")
    assert _elapsed(lambda: pqkit.load_der_public_key(spki)) < 0.1
    assert _elapsed(lambda: pqkit.load_pem_public_key(pem)) < 0.1
    with pytest.raises(ValueError, match="OBJECT IDENTIFIER of 200002 octets is too long"):
        pqkit.load_der_public_key(spki)


def test_many_small_arcs_oid_rejected_fast() -> None:
    spki = _spki_with_oid(b"\x2b" + b"\x01" * 200_000)
    assert _elapsed(lambda: pqkit.load_der_public_key(spki)) < 0.1


def test_oid_bounds() -> None:
    assert der.decode_oid(b"\x2b" + b"\x01" * (der.MAX_OID_OCTETS - 1), "t").startswith("1.3.1")
    with pytest.raises(ValueError, match="too long"):
        der.decode_oid(b"\x2b" + b"\x01" * der.MAX_OID_OCTETS, "t")
    uuid_arc = der.oid_to_der(f"2.25.{(1 << 128) - 1}")  # X.667: a 128-bit arc is fine
    assert der.decode_oid(uuid_arc, "t") == f"2.25.{(1 << 128) - 1}"
    long_arc = b"\x2b" + b"\x81" * der.MAX_ARC_OCTETS + b"\x01"
    with pytest.raises(ValueError, match="sub-identifier longer than 20 octets"):
        der.decode_oid(long_arc, "t")


def test_1mb_random_pem_rejected_fast() -> None:
    blob = os.urandom(1_000_000)
    assert _elapsed(lambda: pqkit.load_pem_public_key(blob)) < 0.1
    assert _elapsed(lambda: pqkit.load_pem_private_key(blob, None)) < 0.1


def test_1mb_pem_body_rejected_fast() -> None:
    body = os.urandom(700_000)  # a 1 MB PEM block whose base64 holds random bytes
    pem = pem_encode(body, "PUBLIC KEY")
    assert 900_000 < len(pem) < MAX_PEM_BYTES
    assert _elapsed(lambda: pqkit.load_pem_public_key(pem)) < 0.1


def test_oversized_pem_refused() -> None:
    pem = pem_encode(bytes(MAX_PEM_BYTES), "PUBLIC KEY")
    with pytest.raises(ValueError, match="too large"):
        pqkit.load_pem_public_key(pem)
    with pytest.raises(ValueError, match="too large"):
        pqkit.load_pem_private_key(pem, None)


def test_huge_integers_refused_fast() -> None:
    version = der.encode_tlv(der.INTEGER, b"\x01" + bytes(200_000))
    pkcs8 = der.encode_sequence(version, der.encode_sequence(der.encode_oid("1.3.6")))
    t = _elapsed(lambda: pqkit.load_der_private_key(pkcs8))
    assert t < 0.1
    with pytest.raises(ValueError, match="INTEGER of 200001 octets is too long"):
        pqkit.load_der_private_key(pkcs8)
    assert der.decode_integer(b"\x7f" + bytes(7), "t") == 0x7F << 56
    with pytest.raises(ValueError, match="too long"):
        der.decode_integer(b"\x7f" + bytes(8), "t")
    assert der.decode_integer(b"\x01" + bytes(8), "t", max_octets=9) == 1 << 64
