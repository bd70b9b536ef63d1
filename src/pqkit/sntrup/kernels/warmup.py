"""Streamlined NTRU Prime's warm-up part (:class:`pqkit.families.Part`): a round
trip on the ``jit`` backend, which compiles every kernel the scheme calls."""

from __future__ import annotations

from pqkit.arith.warmup import Step, kem_steps


def steps() -> list[Step]:
    from pqkit import registry

    return kem_steps(registry.kem("sntrup761"))
