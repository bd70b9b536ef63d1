"""The composite families' declaration (draft-ietf-lamps-pq-composite-sigs and
draft-ietf-lamps-pq-composite-kem): a catalogue only. They have no kernels of their
own: ML-DSA / ML-KEM are pqkit's, the traditional halves pyca/cryptography's."""

from __future__ import annotations

from pqkit.families import Family

FAMILY = Family(name="composite", rank=45, catalog="pqkit.composite.params")
