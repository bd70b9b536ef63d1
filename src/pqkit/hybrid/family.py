"""The hybrid KEMs' declaration (ML-KEM + ECDH): a catalogue only; they run on
ML-KEM's kernels and the curves of pyca/cryptography."""

from __future__ import annotations

from pqkit.families import Family

FAMILY = Family(name="hybrid", rank=40, catalog="pqkit.hybrid.params")
