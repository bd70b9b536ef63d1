"""Hybrid Public Key Encryption (RFC 9180) with the post-quantum KEMs of
draft-ietf-hpke-pq.

KEMs: ML-KEM-512/768/1024 (0x0040-0x0042), MLKEM768-P256 (0x0050),
MLKEM1024-P384 (0x0051) and X-Wing = MLKEM768-X25519 (0x647A); KDFs: HKDF-SHA256/
384/512 and the one-stage SHAKE128, SHAKE256, TurboSHAKE128, TurboSHAKE256
(draft-ietf-hpke-hpke's LabeledDerive key schedule); AEADs: AES-128-GCM,
AES-256-GCM, ChaCha20-Poly1305 (pyca/cryptography) and export-only. Modes base
and psk; the auth modes need a Diffie-Hellman KEM and are refused.

The single-shot API has the shape of pyca/cryptography's
``cryptography.hazmat.primitives.hpke`` (``Suite(kem, kdf, aead).encrypt(plaintext,
public_key, info)`` returning ``enc || ct``, ``decrypt(ciphertext, private_key,
info)``); keys are raw bytes (the public key, the seed-form private key) or pqkit
key objects. The RFC 9180 API (``setup_sender`` / ``setup_recipient`` contexts
with ``seal`` / ``open`` / ``export``, single-shot ``seal`` / ``open``) is there
as well.
"""

from __future__ import annotations

from pqkit.hpke import suite as _suite
from pqkit.hpke.suite import *  # noqa: F403 - the package re-exports its suite module
from pqkit.hpke.suite import KEM_NAMES, kem_named

__all__ = ["KEM_NAMES", "kem_named"]
__all__ += _suite.__all__
