"""PQ/T hybrid KEMs: X-Wing (= MLKEM768-X25519), MLKEM768-P256, MLKEM1024-P384.

- :mod:`.params`: the parameter sets and the family's catalogue entries;
- :mod:`.groups`: the traditional halves (X25519, P-256, P-384) through
  pyca/cryptography (the ``openssl`` extra);
- :mod:`.scheme`: the hybrid scheme objects (ML-KEM half: :mod:`pqkit.mlkem`);
- :mod:`.tls`: the TLS 1.3 key shares X25519MLKEM768 and SecP256r1MLKEM768.

``SCHEMES`` maps each canonical name to its scheme object; it is built on first
use, so importing :mod:`.params` stays light.
"""

from __future__ import annotations

from pqkit.registry import lazy_schemes

__all__ = ["SCHEMES"]

__getattr__ = lazy_schemes(__name__, ("scheme",))
