"""TurboSHAKE128/256 (RFC 9861 §5 test vectors) through both symmetric backends."""

from __future__ import annotations

import pytest

from pqkit import common

BACKENDS = ["python", "openssl"]


def ptn(n: int) -> bytes:
    """RFC 9861 §5: the pattern 00 01 ... FA repeated, truncated to n bytes."""
    return bytes(i % 251 for i in range(n))


def _h(text: str) -> bytes:
    return bytes.fromhex(text)


# (bits, message, domain, output length, bytes skipped before the expected output)
VECTORS_128 = [
    (b"", 0x1F, 32, 0, "1E415F1C5983AFF2169217277D17BB538CD945A397DDEC541F1CE41AF2C1B74C"),
    (
        b"",
        0x1F,
        64,
        0,
        "1E415F1C5983AFF2169217277D17BB538CD945A397DDEC541F1CE41AF2C1B74C"
        "3E8CCAE2A4DAE56C84A04C2385C03C15E8193BDF58737363321691C05462C8DF",
    ),
    (b"", 0x1F, 32, 10000, "A3B9B0385900CE761F22AED548E754DA10A5242D62E8C658E3F3A923A7555607"),
    (ptn(1), 0x1F, 32, 0, "55CEDD6F60AF7BB29A4042AE832EF3F58DB7299F893EBB9247247D856958DAA9"),
    (ptn(17), 0x1F, 32, 0, "9C97D036A3BAC819DB70EDE0CA554EC6E4C2A1A4FFBFD9EC269CA6A111161233"),
    (ptn(17**2), 0x1F, 32, 0, "96C77C279E0126F7FC07C9B07F5CDAE1E0BE60BDBE10620040E75D7223A624D2"),
    (ptn(17**3), 0x1F, 32, 0, "D4976EB56BCF118520582B709F73E1D6853E001FDAF80E1B13E0D0599D5FB372"),
    (
        b"\xff\xff\xff",
        0x01,
        32,
        0,
        "BF323F940494E88EE1C540FE660BE8A0C93F43D15EC006998462FA994EED5DAB",
    ),
    (b"\xff", 0x06, 32, 0, "8EC9C66465ED0D4A6C35D13506718D687A25CB05C74CCA1E42501ABD83874A67"),
    (
        b"\xff\xff\xff",
        0x07,
        32,
        0,
        "B658576001CAD9B1E5F399A9F77723BBA05458042D68206F7252682DBA3663ED",
    ),
]
VECTORS_256 = [
    (
        b"",
        0x1F,
        64,
        0,
        "367A329DAFEA871C7802EC67F905AE13C57695DC2C6663C61035F59A18F8E7DB"
        "11EDC0E12E91EA60EB6B32DF06DD7F002FBAFABB6E13EC1CC20D995547600DB0",
    ),
    (
        ptn(1),
        0x1F,
        64,
        0,
        "3E1712F928F8EAF1054632B2AA0A246ED8B0C378728F60BC970410155C28820E"
        "90CC90D8A3006AA2372C5C5EA176B0682BF22BAE7467AC94F74D43D39B0482E2",
    ),
    (
        ptn(17),
        0x1F,
        64,
        0,
        "B3BAB0300E6A191FBE6137939835923578794EA54843F5011090FA2F3780A9E5"
        "CB22C59D78B40A0FBFF9E672C0FBE0970BD2C845091C6044D687054DA5D8E9C7",
    ),
]
CASES = [(128, *v) for v in VECTORS_128] + [(256, *v) for v in VECTORS_256]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("bits", "msg", "domain", "n", "skip", "expected"), CASES)
def test_rfc9861_vectors(
    backend: str, bits: int, msg: bytes, domain: int, n: int, skip: int, expected: str
) -> None:
    make = common.turboshake128 if bits == 128 else common.turboshake256
    xof = make(msg, domain=domain, backend=backend)
    if skip:
        xof.read(skip)
    assert xof.read(n) == _h(expected)


def test_incremental_and_digest_agree() -> None:
    msg = ptn(500)
    xof = common.turboshake256()
    xof.update(msg[:137])
    xof.update(msg[137:])
    first = xof.read(10) + xof.read(190)
    assert first == common.turboshake256_digest(msg, 200)
    assert common.turboshake128_digest(msg, 40, domain=0x1F) == common.turboshake128(msg).read(40)
    # 12 rounds, not 24, and D placed where SHAKE puts its suffix: not SHAKE.
    assert common.turboshake128_digest(b"", 32) != common.shake128_digest(b"", 32)


def test_bad_domain_and_length() -> None:
    for bad in (0x00, 0x80, 0x100):
        with pytest.raises(ValueError, match="0x01-0x7F"):
            common.turboshake128(b"", domain=bad)
    with pytest.raises(TypeError, match="domain"):
        common.turboshake256(b"", domain="1f")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="data"):
        common.turboshake128("text")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=">= 0"):
        common.turboshake128_digest(b"", -1)
    xof = common.turboshake128(b"x")
    xof.read(1)
    with pytest.raises(ValueError, match="absorb"):
        xof.update(b"y")
