"""The toy family's warm-up step (a :class:`pqkit.families.Part`): one round trip
on the backend the part prepares, as a compiled family's warm-up would compile it."""

from __future__ import annotations

from pqkit.arith.warmup import Step

RUNS: list[str] = []
"""Labels of the steps that ran (the test reads it)."""


def steps() -> list[Step]:
    from pqkit import registry
    from toyfamily.params import NAME

    kem = registry.kem(NAME).using(arith="numpy")

    def round_trip() -> None:
        pk, sk = kem.keygen_derand(bytes(32))
        ss, ct = kem.encaps_derand(pk, bytes(32))
        assert kem.decaps(sk, ct) == ss
        RUNS.append(f"{NAME} round trip")

    return [(f"{NAME} round trip", round_trip)]
