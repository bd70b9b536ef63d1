"""ML-DSA's warm-up parts (:class:`pqkit.families.Part`): real operations on the
``jit`` backend that build every compiled specialization the library's calls use."""

from __future__ import annotations

from pqkit.arith.warmup import Step, sig_steps


def steps() -> list[Step]:
    """Every parameter set's single operations, and round-3 Dilithium's path."""
    from pqkit import registry

    sigs = ("ML-DSA-65", "ML-DSA-44", "ML-DSA-87", "Dilithium3")
    return [step for name in sigs for step in sig_steps(registry.sig(name))]


def batch_steps() -> list[Step]:
    """The batch view's compiled operations (:mod:`pqkit.mldsa.kernels.jit_batch`)."""
    import numpy as np

    from pqkit import registry

    name = "ML-DSA-65"
    view = registry.sig(name).using(arith="jit").batch

    def run() -> None:
        pks, sks = view.keygen_derand(np.arange(2 * 32, dtype=np.uint8).reshape(2, 32))
        msgs = [b"pqkit", b"warm-up"]
        sigs = view.sign(sks, msgs, deterministic=True)
        view.sign(sks[0], msgs, deterministic=True)
        view.verify(pks, msgs, sigs)
        view.verify(pks[0], msgs, sigs)

    return [(f"{name} batch", run)]
