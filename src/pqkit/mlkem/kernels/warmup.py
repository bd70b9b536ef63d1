"""ML-KEM's warm-up parts (:class:`pqkit.families.Part`): real operations on the
``jit`` backend that build every compiled specialization the library's calls use."""

from __future__ import annotations

from pqkit.arith.warmup import Step, kem_steps


def steps() -> list[Step]:
    """Every parameter set's single operations, and the round-3 variants' paths."""
    from pqkit import registry

    kems = ("ML-KEM-768", "ML-KEM-512", "ML-KEM-1024", "Kyber768", "Kyber768-90s")
    return [
        *(step for name in kems for step in kem_steps(registry.kem(name))),
        ("ML-KEM new keys", _new_keys),
    ]


def _new_keys() -> None:
    """The one-call encapsulation and decapsulation of a key the ek cache does not
    hold yet (what ``encaps`` without ``rng`` and ``decaps`` run for a new key):
    the steps above meet their keys again, so they are called here directly (one
    specialization serves every parameter set)."""
    from pqkit.mlkem.kernels import jit_ops as fast
    from pqkit.mlkem.params import MLKEM_768 as p

    ek, dk = fast.mlkem_keygen_internal(bytes(32), bytes(32), p.k, p.eta1)
    _, _, _, _, _, c = fast.mlkem_encaps_ek(ek, bytes(32), p.k, p.eta1, p.eta2, p.du, p.dv)
    fast.mlkem_decaps_dk(dk, c, p.k, p.eta1, p.eta2, p.du, p.dv)


def batch_steps() -> list[Step]:
    """The batch view's compiled operations (:mod:`pqkit.mlkem.kernels.jit_batch`):
    rows of keys, one broadcast key, implicit rejection; ``FEW`` rows, the fewest
    that encapsulation and decapsulation run compiled (fewer run the single
    operations)."""
    import numpy as np

    from pqkit import registry
    from pqkit.mlkem.batch import FEW

    name = "ML-KEM-768"
    view = registry.kem(name).using(arith="jit").batch

    def run() -> None:
        seeds = np.arange(FEW * 64, dtype=np.uint8).reshape(FEW, 64)
        eks, dks = view.keygen_derand(seeds)
        _, cts = view.encaps_derand(eks, seeds[:, :32])
        view.encaps_derand(eks[0], seeds[:, :32])
        view.decaps(dks, cts)
        view.decaps(dks[0], np.zeros_like(cts))

    return [(f"{name} batch", run)]
