"""HQC's warm-up part (:class:`pqkit.families.Part`): real operations on the ``jit``
backend that build every compiled kernel the scheme's calls use."""

from __future__ import annotations

from pqkit.arith.warmup import Step, kem_steps


def steps() -> list[Step]:
    """Key generation, encapsulation, decapsulation and implicit rejection of each
    parameter set (the kernels' compiled signatures are the same for all three)."""
    from pqkit import registry

    return [step for name in ("HQC-1", "HQC-3", "HQC-5") for step in kem_steps(registry.kem(name))]
