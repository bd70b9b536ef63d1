"""Issue 13 item 2: the PBKDF2 iteration count of an encrypted key is capped before
any key derivation; pqkit writes OWASP's count and refuses to write too few."""

from __future__ import annotations

import time

import pytest

import pqkit
from pqkit import der
from pqkit.keys import MLKEM768PrivateKey
from pqkit.serialization import BestAvailableEncryption, Encoding, PrivateFormat, pbes2
from pqkit.serialization.pem import pem_encode

needs_cryptography = pytest.mark.skipif(
    not pbes2.is_available(), reason="PBES2 needs the cryptography package"
)

_SHA512 = "1.2.840.113549.2.11"


def _blob(iterations: int) -> bytes:
    """An EncryptedPrivateKeyInfo with ``iterations`` PBKDF2-HMAC-SHA512 rounds."""
    seq = der.encode_sequence
    params = seq(
        der.encode_octet_string(bytes(16)),
        der.encode_integer(iterations),
        seq(der.encode_oid(_SHA512), der.encode_null()),
    )
    kdf = seq(der.encode_oid(pbes2.ID_PBKDF2), params)
    cipher = seq(der.encode_oid("2.16.840.1.101.3.4.1.42"), der.encode_octet_string(bytes(16)))
    algorithm = seq(der.encode_oid(pbes2.ID_PBES2), seq(kdf, cipher))
    return seq(algorithm, der.encode_octet_string(bytes(96)))


def test_defaults() -> None:
    assert pbes2.DEFAULT_ITERATIONS == 600_000  # OWASP, PBKDF2-HMAC-SHA256
    assert pbes2.MIN_ITERATIONS == 1_000  # RFC 8018 §4.2
    assert pbes2.MIN_ITERATIONS <= 2048 <= pbes2.DEFAULT_ITERATIONS <= pbes2.MAX_ITERATIONS
    assert BestAvailableEncryption(b"pw").iterations == pbes2.DEFAULT_ITERATIONS


@pytest.mark.parametrize("iterations", [10_000_000, pbes2.MAX_ITERATIONS + 1])
def test_iterations_above_cap_rejected_fast(iterations: int) -> None:
    blob = _blob(iterations)
    pem = pem_encode(blob, "ENCRYPTED PRIVATE KEY")
    for load, data in ((pqkit.load_der_private_key, blob), (pqkit.load_pem_private_key, pem)):
        start = time.perf_counter()
        with pytest.raises(ValueError, match=f"iteration count {iterations} out of range"):
            load(data, b"pw")
        assert time.perf_counter() - start < 0.1


def test_max_iterations_argument() -> None:
    blob = _blob(5000)
    with pytest.raises(ValueError, match=r"iteration count 5000 out of range \(1..4999"):
        pqkit.load_der_private_key(blob, b"pw", max_iterations=4999)
    pem = pem_encode(blob, "ENCRYPTED PRIVATE KEY")
    with pytest.raises(ValueError, match=r"out of range \(1..2048"):
        pqkit.load_pem_private_key(pem, b"pw", max_iterations=2048)
    with pytest.raises(TypeError, match="max_iterations must be an int"):
        pqkit.load_der_private_key(blob, b"pw", max_iterations="many")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_iterations must be at least 1"):
        pqkit.load_pem_private_key(pem, b"pw", max_iterations=0)


@needs_cryptography
def test_max_iterations_raises_the_cap() -> None:
    key = MLKEM768PrivateKey.from_seed_bytes(bytes(range(64)))
    plain = key.private_bytes(Encoding.DER, PrivateFormat.PKCS8, pqkit.NoEncryption())
    blob = pbes2.encrypt(plain, b"pw", iterations=3000)
    with pytest.raises(ValueError, match="out of range"):
        pqkit.load_der_private_key(blob, b"pw", max_iterations=2999)
    loaded = pqkit.load_der_private_key(blob, b"pw", max_iterations=3000)
    assert loaded.private_bytes_raw() == key.private_bytes_raw()


@needs_cryptography
@pytest.mark.parametrize("bad", [0, 1, 999, pbes2.MAX_ITERATIONS + 1])
def test_writing_refuses_out_of_range(bad: int) -> None:
    with pytest.raises(ValueError, match=r"iterations must be in 1000..1000000"):
        BestAvailableEncryption(b"pw", iterations=bad)
    with pytest.raises(ValueError, match=r"iterations must be in 1000..1000000"):
        pbes2.encrypt(b"\x30\x00", b"pw", iterations=bad)


def test_writing_refuses_non_int() -> None:
    with pytest.raises(TypeError, match="iterations must be an int"):
        BestAvailableEncryption(b"pw", iterations=2048.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="iterations must be an int"):
        BestAvailableEncryption(b"pw", iterations=True)
