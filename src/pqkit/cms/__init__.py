"""CMS (RFC 5652) with post-quantum keys: EnvelopedData / AuthEnvelopedData to KEM
recipients (KEMRecipientInfo, RFC 9629; ML-KEM per RFC 9936, composite ML-KEM,
FrodoKEM) and SignedData.

Needs the ``cms`` extra (pyasn1-alt-modules and cryptography)::

    pip install "pqkit[cms]"
"""

from __future__ import annotations

from pqkit.cms.enveloped import CIPHERS, DecryptionError, decrypt, encrypt
from pqkit.cms.kemri import KDFS, WRAPS, Recipient
from pqkit.cms.signed import (
    SignedDataError,
    Signer,
    VerifiedData,
    VerifiedSigner,
    sign,
    verify,
)

__all__ = [
    "CIPHERS",
    "KDFS",
    "WRAPS",
    "DecryptionError",
    "Recipient",
    "SignedDataError",
    "Signer",
    "VerifiedData",
    "VerifiedSigner",
    "decrypt",
    "encrypt",
    "sign",
    "verify",
]
