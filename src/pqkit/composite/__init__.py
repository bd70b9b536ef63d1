"""Composite ML-DSA and composite ML-KEM (IETF LAMPS drafts).

- :mod:`.params`: the parameter sets (one per OID 1.3.6.1.5.5.7.6.37-.66) and the
  catalogue entries;
- :mod:`.traditional`: the traditional halves (RSA, ECDSA / ECDH, EdDSA, X25519 /
  X448) on pyca/cryptography (the ``openssl`` extra): key encodings, checks,
  signatures and the KEM forms of RSA-OAEP and Diffie-Hellman;
- :mod:`.sig`: composite ML-DSA (draft-ietf-lamps-pq-composite-sigs);
- :mod:`.kem`: composite ML-KEM (draft-ietf-lamps-pq-composite-kem).

``SCHEMES`` maps each canonical name to its scheme object; it is built on first
use, so importing :mod:`.params` stays light.
"""

from __future__ import annotations

from pqkit.registry import lazy_schemes

__all__ = ["SCHEMES"]

__getattr__ = lazy_schemes(__name__, ("sig", "kem"))
