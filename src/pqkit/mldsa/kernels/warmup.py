"""ML-DSA's warm-up parts (:class:`pqkit.families.Part`): real operations on the
``jit`` backend that build every compiled specialization the library's calls use."""

from __future__ import annotations

from pqkit.arith.warmup import Step, sig_steps


def steps() -> list[Step]:
    """Every parameter set's single operations, verification on an external mu (its
    own compiled entry: :meth:`pqkit.mldsa.fips204.MLDSA.verify_mu`), and round-3
    Dilithium's path."""
    from pqkit import registry

    sigs = ("ML-DSA-65", "ML-DSA-44", "ML-DSA-87", "Dilithium3")
    found = [step for name in sigs for step in sig_steps(registry.sig(name))]
    return [*found, *_external_mu("ML-DSA-65")]


def _external_mu(name: str) -> list[Step]:
    from pqkit.mldsa.fips204 import SCHEMES

    sig = SCHEMES[name].using(arith="jit")

    def run() -> None:
        pk, sk = sig.keygen_derand(bytes(range(32)))
        mu = sig.mu(pk, b"pqkit warm-up")
        sig.verify_mu(pk, mu, sig.sign_mu(sk, mu, deterministic=True))

    return [(f"{name} external mu", run)]


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
