"""The ``python`` backend: every family in pure Python, the portable reference.

SHA-3/SHAKE (:mod:`.keccak`, FIPS 202), SHA-2 (:mod:`.sha2`, FIPS 180-4) and
AES-128 and AES-256 (:mod:`.aes`, FIPS 197, bitsliced without table lookups). It is the
default AES provider only where pyca/cryptography is not installed.
"""

from __future__ import annotations

from pqkit.common.python.aes import AES
from pqkit.common.python.keccak import SHA3
from pqkit.common.python.sha2 import SHA2

__all__ = ["AES", "SHA2", "SHA3"]
