"""Issue 13 item 1: no key file costs more than linear time to accept or refuse.

No clock: each test counts the Python lines the refusal runs
(tests/work_meter.py) for an input of N and of 2N octets of the same shape. A
parser that checks the size first runs the same lines for both; one that walks
the input (the OID decoder before its bounds spent seconds on a 200 kB arc) runs
lines in proportion to it, and the meter stops it at its budget. The error
message names the check that stopped the input.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import pytest
from work_meter import lines_run

import pqkit
from pqkit import der
from pqkit.serialization.pem import MAX_PEM_BYTES, pem_encode

SIZES = (100_000, 200_000)


def _same_work(make: Callable[[int], Callable[[], object]], match: str | None = None) -> None:
    """``make(n)()`` is refused (ValueError matching ``match``, ``{n}`` filled in)
    after the same number of Python lines for both :data:`SIZES`: its cost does
    not grow with the input. A first call of each warms the lazy imports (and the
    compiled ``match`` pattern) up."""
    counts = []
    for n in SIZES:
        pattern = None if match is None else match.format(n=n)
        lines_run(make(n), match=pattern)
        counts.append(lines_run(make(n), match=pattern))
    assert counts[0] == counts[1], counts


def _spki_with_oid(oid_content: bytes) -> bytes:
    algorithm = der.encode_sequence(der.encode_tlv(der.OBJECT_IDENTIFIER, oid_content))
    return der.encode_sequence(algorithm, der.encode_bit_string(bytes(1184)))


def _noise(n: int) -> bytes:
    """``n`` fixed pseudo-random octets (the same prefix for every ``n``)."""
    return hashlib.shake_256(b"pqkit test noise").digest(n)


def test_200kb_oid_spki_rejected_without_walking_the_arcs() -> None:
    def huge_arc(n: int) -> bytes:  # 1.3, then one arc of 7 n bits
        return _spki_with_oid(b"\x2b" + b"\xff" * n + b"\x7f")

    match = r"OBJECT IDENTIFIER of {n} octets is too long"
    _same_work(lambda n: lambda: pqkit.load_der_public_key(huge_arc(n - 2)), match)
    pems = {n: pem_encode(huge_arc(n - 2), "PUBLIC KEY") for n in SIZES}
    _same_work(lambda n: lambda: pqkit.load_pem_public_key(pems[n]), match)


def test_many_small_arcs_oid_rejected_without_walking_them() -> None:
    spkis = {n: _spki_with_oid(b"\x2b" + b"\x01" * (n - 1)) for n in SIZES}
    _same_work(lambda n: lambda: pqkit.load_der_public_key(spkis[n]), "{n} octets is too long")


def test_the_meter_sees_a_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the length bound the decoder walks the 200 000 arcs: the meter stops
    it and fails the test (so the tests above can fail)."""
    spki = _spki_with_oid(b"\x2b" + b"\x01" * 200_000)
    monkeypatch.setattr(der, "MAX_OID_OCTETS", 10**6)
    with pytest.raises(pytest.fail.Exception, match="its cost grows with the input"):
        lines_run(lambda: pqkit.load_der_public_key(spki))


def test_oid_bounds() -> None:
    assert der.decode_oid(b"\x2b" + b"\x01" * (der.MAX_OID_OCTETS - 1), "t").startswith("1.3.1")
    with pytest.raises(ValueError, match="too long"):
        der.decode_oid(b"\x2b" + b"\x01" * der.MAX_OID_OCTETS, "t")
    uuid_arc = der.oid_to_der(f"2.25.{(1 << 128) - 1}")  # X.667: a 128-bit arc is fine
    assert der.decode_oid(uuid_arc, "t") == f"2.25.{(1 << 128) - 1}"
    long_arc = b"\x2b" + b"\x81" * der.MAX_ARC_OCTETS + b"\x01"
    with pytest.raises(ValueError, match="sub-identifier longer than 20 octets"):
        der.decode_oid(long_arc, "t")


def test_1mb_random_pem_rejected_without_walking_it() -> None:
    sizes = {SIZES[0]: 500_000, SIZES[1]: 1_000_000}
    _same_work(lambda n: lambda: pqkit.load_pem_public_key(_noise(sizes[n])), "no PEM block")
    _same_work(lambda n: lambda: pqkit.load_pem_private_key(_noise(sizes[n]), None))


def test_1mb_pem_body_rejected_without_walking_it() -> None:
    # a PEM block of up to 1 MB whose base64 holds noise
    pems = {n: pem_encode(_noise(3 * n + 100_000), "PUBLIC KEY") for n in SIZES}
    assert 900_000 < len(pems[SIZES[1]]) < MAX_PEM_BYTES
    _same_work(lambda n: lambda: pqkit.load_pem_public_key(pems[n]))


def test_oversized_pem_refused() -> None:
    pem = pem_encode(bytes(MAX_PEM_BYTES), "PUBLIC KEY")
    with pytest.raises(ValueError, match="too large"):
        pqkit.load_pem_public_key(pem)
    with pytest.raises(ValueError, match="too large"):
        pqkit.load_pem_private_key(pem, None)


def test_huge_integers_refused_before_reading_them() -> None:
    version = der.encode_tlv(der.INTEGER, b"\x01" + bytes(200_000))
    pkcs8 = der.encode_sequence(version, der.encode_sequence(der.encode_oid("1.3.6")))
    with pytest.raises(ValueError, match="INTEGER of 200001 octets is too long"):
        pqkit.load_der_private_key(pkcs8)

    def pkcs8_of(n: int) -> bytes:
        version = der.encode_tlv(der.INTEGER, b"\x01" + bytes(n - 1))
        return der.encode_sequence(version, der.encode_sequence(der.encode_oid("1.3.6")))

    blobs = {n: pkcs8_of(n) for n in SIZES}
    _same_work(lambda n: lambda: pqkit.load_der_private_key(blobs[n]), "INTEGER of {n} octets")
    assert der.decode_integer(b"\x7f" + bytes(7), "t") == 0x7F << 56
    with pytest.raises(ValueError, match="too long"):
        der.decode_integer(b"\x7f" + bytes(8), "t")
    assert der.decode_integer(b"\x01" + bytes(8), "t", max_octets=9) == 1 << 64
