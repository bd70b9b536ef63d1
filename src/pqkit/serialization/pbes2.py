"""Password-encrypted PKCS#8 (RFC 5958 §3 EncryptedPrivateKeyInfo, PBES2 of RFC 8018).

Encryption and decryption use the primitives of the optional ``cryptography``
package (PBKDF2-HMAC and AES-CBC from ``cryptography.hazmat``); without it an
encrypted key is a :class:`pqkit.MissingExtra` (an ``ImportError``) naming the
``openssl`` extra. The ASN.1 is pqkit's
own (:mod:`pqkit.der`), so any ML-KEM / ML-DSA key form can be
wrapped, including those ``cryptography``'s own loaders refuse::

    EncryptedPrivateKeyInfo ::= SEQUENCE {
        encryptionAlgorithm  AlgorithmIdentifier,  -- id-PBES2 with PBES2-params
        encryptedData        OCTET STRING }
    PBES2-params ::= SEQUENCE { keyDerivationFunc AlgorithmIdentifier,   -- id-PBKDF2
                                encryptionScheme  AlgorithmIdentifier }  -- aesN-CBC, IV
    PBKDF2-params ::= SEQUENCE { salt OCTET STRING, iterationCount INTEGER,
                                 keyLength INTEGER OPTIONAL,
                                 prf AlgorithmIdentifier DEFAULT hmacWithSHA1 }

Written: PBKDF2 with HMAC-SHA-256, a 16-byte random salt, ``iterations`` rounds
(default :data:`DEFAULT_ITERATIONS`), AES-256-CBC with a random IV: what OpenSSL
and ``cryptography`` write. Read: PBKDF2 with HMAC-SHA-1/224/256/384/512 and
AES-128/192/256-CBC.
"""

from __future__ import annotations

import os
from typing import Any

from pqkit import der

__all__ = [
    "DEFAULT_ITERATIONS",
    "MAX_ITERATIONS",
    "MIN_ITERATIONS",
    "check_max_iterations",
    "check_write_iterations",
    "decrypt",
    "encrypt",
    "is_available",
    "require",
]

DEFAULT_ITERATIONS = 600_000
"""PBKDF2 rounds written by default: OWASP's figure (Password Storage Cheat Sheet,
2023) for PBKDF2-HMAC-SHA256, the PRF pqkit writes."""
MIN_ITERATIONS = 1_000
"""Fewest rounds pqkit writes: the minimum RFC 8018 §4.2 recommends."""
MAX_ITERATIONS = 1_000_000
"""Most rounds a loader accepts unless given ``max_iterations=``.

The iteration count is written by whoever made the file and is paid before the
password can be checked, so it is an attacker's knob: at 10 million PBKDF2-SHA-512
rounds a 302-byte file cost 14 s per load. Real tools write far fewer (OpenSSL and
``cryptography`` 2 048; pqkit itself :data:`DEFAULT_ITERATIONS` = 600 000), so a
cap of one million accepts every one of them while bounding a hostile file to
under a second of PBKDF2 work (0.4 us per SHA-256 round, 0.85 us per SHA-512
round measured on the development machine)."""

ID_PBES2 = "1.2.840.113549.1.5.13"
ID_PBKDF2 = "1.2.840.113549.1.5.12"
_PRFS = {  # RFC 8018 Appendix B.1.1 and B.1.2
    "1.2.840.113549.2.7": "SHA1",
    "1.2.840.113549.2.8": "SHA224",
    "1.2.840.113549.2.9": "SHA256",
    "1.2.840.113549.2.10": "SHA384",
    "1.2.840.113549.2.11": "SHA512",
}
_HMAC_SHA256 = "1.2.840.113549.2.9"
_CIPHERS = {  # NIST aes arc, RFC 8018 Appendix B.2.5: OID -> key length
    "2.16.840.1.101.3.4.1.2": 16,
    "2.16.840.1.101.3.4.1.22": 24,
    "2.16.840.1.101.3.4.1.42": 32,
}
_AES256_CBC = "2.16.840.1.101.3.4.1.42"
_WHAT = "encrypted PKCS#8 private key"


def is_available() -> bool:
    """True when ``cryptography`` (needed for PBES2) can be imported."""
    try:
        import cryptography.hazmat.primitives.ciphers  # noqa: F401
    except ImportError:
        return False
    return True


def require() -> None:
    """:class:`pqkit.MissingExtra` naming the ``openssl`` extra unless ``cryptography``
    (PBKDF2 and AES-CBC) can be imported."""
    from pqkit._extras import require as require_extra

    require_extra(
        "openssl",
        "password encryption of private keys (PBES2)",
        "cryptography.hazmat.primitives.ciphers",
    )


def _pbkdf2(password: bytes, salt: bytes, iterations: int, length: int, prf: str) -> bytes:
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC

    algorithm: Any = getattr(hashes, prf)()
    kdf = PBKDF2HMAC(algorithm=algorithm, length=length, salt=salt, iterations=iterations)
    return kdf.derive(password)


def _aes_cbc(key: bytes, iv: bytes, data: bytes, *, encrypt: bool) -> bytes:
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    cipher = Cipher(algorithms.AES(key), modes.CBC(iv))
    ctx = cipher.encryptor() if encrypt else cipher.decryptor()
    return ctx.update(data) + ctx.finalize()


def check_write_iterations(iterations: object) -> int:
    """``iterations`` if it is an int in ``MIN_ITERATIONS..MAX_ITERATIONS``; else
    TypeError (not an int) or ValueError."""
    if not isinstance(iterations, int) or isinstance(iterations, bool):
        raise TypeError(f"iterations must be an int, not {type(iterations).__name__}")
    if not MIN_ITERATIONS <= iterations <= MAX_ITERATIONS:
        raise ValueError(
            f"iterations must be in {MIN_ITERATIONS}..{MAX_ITERATIONS} "
            f"(RFC 8018 §4.2 minimum; loaders refuse more by default), got {iterations}"
        )
    return iterations


def check_max_iterations(max_iterations: object) -> int:
    """A loader's ``max_iterations`` argument: a positive int (TypeError / ValueError)."""
    if not isinstance(max_iterations, int) or isinstance(max_iterations, bool):
        raise TypeError(f"max_iterations must be an int, not {type(max_iterations).__name__}")
    if max_iterations < 1:
        raise ValueError(f"max_iterations must be at least 1, got {max_iterations}")
    return max_iterations


def encrypt(
    plaintext_der: bytes, password: bytes, *, iterations: int = DEFAULT_ITERATIONS
) -> bytes:
    """The DER EncryptedPrivateKeyInfo of a DER PrivateKeyInfo under ``password``."""
    require()
    check_write_iterations(iterations)
    salt = os.urandom(16)
    iv = os.urandom(16)
    key = _pbkdf2(password, salt, iterations, 32, "SHA256")
    pad = 16 - len(plaintext_der) % 16  # PKCS #5 padding (RFC 8018 §6.1.1 step 4)
    ciphertext = _aes_cbc(key, iv, plaintext_der + bytes([pad]) * pad, encrypt=True)
    kdf_params = der.encode_sequence(
        der.encode_octet_string(salt),
        der.encode_integer(iterations),
        der.encode_sequence(der.encode_oid(_HMAC_SHA256), der.encode_null()),
    )
    scheme = der.encode_sequence(
        der.encode_sequence(der.encode_oid(ID_PBKDF2), kdf_params),
        der.encode_sequence(der.encode_oid(_AES256_CBC), der.encode_octet_string(iv)),
    )
    algorithm = der.encode_sequence(der.encode_oid(ID_PBES2), scheme)
    return der.encode_sequence(algorithm, der.encode_octet_string(ciphertext))


def _algorithm(reader: der.DerReader, name: str) -> tuple[str, der.DerReader]:
    """Read an AlgorithmIdentifier: its OID and a reader over its parameters."""
    content = reader.expect(der.SEQUENCE, name)
    inner = der.DerReader(content, f"{_WHAT} {name}")
    oid = der.decode_oid(inner.expect(der.OBJECT_IDENTIFIER, f"{name} OID"), inner.what)
    return oid, inner


def decrypt(data: bytes, password: bytes, *, max_iterations: int = MAX_ITERATIONS) -> bytes:
    """The DER PrivateKeyInfo inside a DER EncryptedPrivateKeyInfo.

    A wrong password is a ``ValueError``; so is any structure other than PBES2 with
    PBKDF2 and AES-CBC, and an iteration count above ``max_iterations``, refused
    before any PBKDF2 work.
    """
    max_iterations = check_max_iterations(max_iterations)
    body = der.read_single(data, der.SEQUENCE, "SEQUENCE", _WHAT)
    reader = der.DerReader(body, _WHAT)
    oid, params = _algorithm(reader, "encryptionAlgorithm")
    ciphertext = reader.expect(der.OCTET_STRING, "encryptedData")
    reader.finish()
    if oid != ID_PBES2:
        raise ValueError(f"{_WHAT}: unsupported encryption scheme {oid} (pqkit reads PBES2)")
    scheme = der.DerReader(params.expect(der.SEQUENCE, "PBES2-params"), f"{_WHAT} PBES2-params")
    params.finish()
    kdf_oid, kdf = _algorithm(scheme, "keyDerivationFunc")
    enc_oid, enc = _algorithm(scheme, "encryptionScheme")
    scheme.finish()
    if kdf_oid != ID_PBKDF2:
        raise ValueError(f"{_WHAT}: unsupported key derivation {kdf_oid} (pqkit reads PBKDF2)")
    key_length = _CIPHERS.get(enc_oid)
    if key_length is None:
        raise ValueError(f"{_WHAT}: unsupported cipher {enc_oid} (pqkit reads AES-CBC)")
    iv = enc.expect(der.OCTET_STRING, "IV")
    enc.finish()
    if len(iv) != 16:
        raise ValueError(f"{_WHAT}: AES-CBC IV must be 16 bytes, got {len(iv)}")
    pbkdf2 = der.DerReader(kdf.expect(der.SEQUENCE, "PBKDF2-params"), f"{_WHAT} PBKDF2-params")
    kdf.finish()
    salt = pbkdf2.expect(der.OCTET_STRING, "salt")
    iterations = der.decode_integer(pbkdf2.expect(der.INTEGER, "iterationCount"), pbkdf2.what)
    if not 1 <= iterations <= max_iterations:
        raise ValueError(
            f"{_WHAT}: PBKDF2 iteration count {iterations} out of range (1..{max_iterations}; "
            "a loader's max_iterations= accepts more)"
        )
    if pbkdf2.peek_tag() == der.INTEGER:
        stated = der.decode_integer(pbkdf2.read()[1], pbkdf2.what)
        if stated != key_length:
            raise ValueError(f"{_WHAT}: PBKDF2 keyLength {stated} does not fit the cipher")
    prf = "SHA1"  # the DEFAULT (RFC 8018 Appendix A.2)
    if not pbkdf2.at_end():
        prf_oid, prf_params = _algorithm(pbkdf2, "prf")
        if not prf_params.at_end():
            prf_params.expect(der.NULL, "NULL parameters")
            prf_params.finish()
        if prf_oid not in _PRFS:
            raise ValueError(f"{_WHAT}: unsupported PBKDF2 PRF {prf_oid}")
        prf = _PRFS[prf_oid]
    pbkdf2.finish()
    if not ciphertext or len(ciphertext) % 16:
        raise ValueError(f"{_WHAT}: encryptedData is not a whole number of AES blocks")
    require()
    key = _pbkdf2(password, salt, iterations, key_length, prf)
    padded = _aes_cbc(key, iv, ciphertext, encrypt=False)
    pad = padded[-1]
    if not 1 <= pad <= 16 or padded[-pad:] != bytes([pad]) * pad:
        raise ValueError("could not decrypt the private key: wrong password or corrupted data")
    return padded[:-pad]
