"""SLH-DSA's warm-up part (:class:`pqkit.families.Part`)."""

from __future__ import annotations

from pqkit.arith.warmup import Step, sig_steps


def steps() -> list[Step]:
    """SLH-DSA on jit runs the compiled engine (:mod:`pqkit.slhdsa.kernels.jit_ops`):
    one compilation serves every set (the hash mode and sizes are runtime
    arguments); a SHA-2 set with SHA-512 (n > 16) runs the engine's other hash
    paths once."""
    from pqkit import registry

    return [
        step
        for name in ("SLH-DSA-SHAKE-128f", "SLH-DSA-SHA2-192f")
        for step in sig_steps(registry.sig(name))
    ]
