"""The warm-up workload of the ``jit`` backend: real operations, so that every
compiled specialization the library's calls use is built (or loaded from Numba's
on-disk cache). The background selection (:mod:`pqkit.arith.auto`) and
``pqkit compile`` run it; Numba is imported only when a step runs.

Each step is an operation on a scheme object bound to ``jit``; the argument types
it passes are the ones real calls pass (read-only byte buffers, read-only cached
states), which is what Numba specializes on. Kernels of one scheme compile once
for every parameter set (k, l, eta are runtime arguments), but each set runs once
anyway: cheap when compiled, and a guard against a path a set alone takes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["ORDER", "PARTS", "part_steps", "parts", "steps"]

ORDER: tuple[str, ...] = ("hash", "mlkem", "mldsa", "mlkem-batch", "mldsa-batch")
"""Every kernel family: the switch to ``jit`` is per family, and the background
warm-up runs the requested ones in request order. ``hash`` holds the hash kernels
and the SLH-DSA engine. ``mlkem-batch`` and ``mldsa-batch`` are the batch views'
compiled operations (:mod:`pqkit.arith.jit_mlkem_batch`,
:mod:`pqkit.arith.jit_mldsa_batch`), apart from the single operations: they take
about as long to compile, and the single operations should not wait for them;
until they are built the batch views run their vectorised path
(:func:`pqkit.arith.ops.batch_operations_now`)."""

PARTS: tuple[tuple[str, str], ...] = (
    ("slhdsa", "hash"),
    ("mlkem", "mlkem"),
    ("mldsa", "mldsa"),
    ("mlkem-batch", "mlkem-batch"),
    ("mldsa-batch", "mldsa-batch"),
    ("hash-kernels", "hash"),
)
"""``pqkit compile``'s units of work as (part, family), in the order its worker
processes take them. ``hash`` is split in two because the SLH-DSA engine
alone takes about 25 s on an empty cache here, the others 4-21 s. Longest first,
so that the two processes of a 2-core machine finish close together, but each
batch part after its family's single operations: it then loads the kernels they
share instead of compiling them a second time (docs/decisions.md, "Compile time,
third round")."""

Step = tuple[str, Callable[[], object]]


def _kem_steps(name: str) -> list[Step]:
    import pqkit

    kem: Any = pqkit.kem(name)
    kem = kem.using(arith="jit")
    seed = bytes(range(64))
    box: dict[str, Any] = {}

    def keygen() -> None:
        box["ek"], box["dk"] = kem.keygen_derand(seed)

    def encaps() -> None:
        box["enc"] = kem.encaps_derand(box["ek"], bytes(32))

    def decaps() -> None:
        kem.decaps(box["dk"], box["enc"].ciphertext)
        kem.decaps(box["dk"], bytes(kem.length_ciphertext))  # implicit rejection

    return [(f"{name} keygen", keygen), (f"{name} encaps", encaps), (f"{name} decaps", decaps)]


def _sig_steps(name: str) -> list[Step]:
    import pqkit

    sig: Any = pqkit.sig(name)
    sig = sig.using(arith="jit")
    box: dict[str, Any] = {}

    def keygen() -> None:
        box["pk"], box["sk"] = sig.keygen_derand(bytes(range(sig.length_seed)))

    def sign() -> None:
        box["sigma"] = sig.sign(box["sk"], b"pqkit warm-up", deterministic=True)

    def verify() -> None:
        sig.verify(box["pk"], b"pqkit warm-up", box["sigma"])
        sig.verify(box["pk"], b"other", box["sigma"])

    return [(f"{name} keygen", keygen), (f"{name} sign", sign), (f"{name} verify", verify)]


def _kem_batch_steps(name: str) -> list[Step]:
    """The batch view's compiled operations (:mod:`pqkit.arith.jit_mlkem_batch`):
    rows of keys, one broadcast key, implicit rejection; ``FEW`` rows, the fewest
    that encapsulation and decapsulation run compiled (fewer run the single
    operations)."""
    import numpy as np

    import pqkit
    from pqkit.mlkem.batch import FEW

    kem: Any = pqkit.kem(name)
    view = kem.using(arith="jit").batch

    def run() -> None:
        seeds = np.arange(FEW * 64, dtype=np.uint8).reshape(FEW, 64)
        eks, dks = view.keygen_derand(seeds)
        _, cts = view.encaps_derand(eks, seeds[:, :32])
        view.encaps_derand(eks[0], seeds[:, :32])
        view.decaps(dks, cts)
        view.decaps(dks[0], np.zeros_like(cts))

    return [(f"{name} batch", run)]


def _sig_batch_steps(name: str) -> list[Step]:
    """The batch view's compiled operations (:mod:`pqkit.arith.jit_mldsa_batch`)."""
    import numpy as np

    import pqkit

    sig: Any = pqkit.sig(name)
    view = sig.using(arith="jit").batch

    def run() -> None:
        pks, sks = view.keygen_derand(np.arange(2 * 32, dtype=np.uint8).reshape(2, 32))
        msgs = [b"pqkit", b"warm-up"]
        sigs = view.sign(sks, msgs, deterministic=True)
        view.sign(sks[0], msgs, deterministic=True)
        view.verify(pks, msgs, sigs)
        view.verify(pks[0], msgs, sigs)

    return [(f"{name} batch", run)]


def _hash_kernel_steps() -> list[Step]:
    import numpy as np

    from pqkit import arith

    def run() -> None:
        K = arith.kernels("hash", "jit")
        rows = np.zeros((300, 48), dtype=np.uint8)
        K.keccak_f1600(np.zeros((300, 25), dtype=np.uint64))
        for bits in (128, 256):
            K.shake_many(bits, rows, 64)
            K.shake_many(bits, rows, 64, prefix=bytes(200))
        K.sha256_many(rows)
        K.sha256_many(rows, prefix=bytes(64))
        K.sha512_many(rows)
        K.sha512_many(rows, prefix=bytes(128))
        K.sha256_compress(np.zeros((300, 8), np.uint32), np.zeros((300, 64), np.uint8))
        K.sha512_compress(np.zeros((300, 8), np.uint64), np.zeros((300, 128), np.uint8))

    return [("hash kernels", run)]


def _slhdsa_steps() -> list[Step]:
    # SLH-DSA on jit runs the compiled engine (pqkit.arith.jit_slhdsa_ops): one
    # compilation serves every set (the hash mode and sizes are runtime arguments);
    # a SHA-2 set with SHA-512 (n > 16) runs the engine's other hash paths once.
    return [*_sig_steps("SLH-DSA-SHAKE-128f"), *_sig_steps("SLH-DSA-SHA2-192f")]


def part_steps(part: str) -> list[Step]:
    """The (label, callable) steps of one part of :data:`PARTS`, in order."""
    if part == "mlkem":
        kems = ("ML-KEM-768", "ML-KEM-512", "ML-KEM-1024", "Kyber768", "Kyber768-90s")
        return [step for name in kems for step in _kem_steps(name)]
    if part == "mldsa":
        sigs = ("ML-DSA-65", "ML-DSA-44", "ML-DSA-87", "Dilithium3")
        return [step for name in sigs for step in _sig_steps(name)]
    if part == "hash-kernels":
        return _hash_kernel_steps()
    if part == "slhdsa":
        return _slhdsa_steps()
    if part == "mlkem-batch":
        return _kem_batch_steps("ML-KEM-768")
    if part == "mldsa-batch":
        return _sig_batch_steps("ML-DSA-65")
    raise ValueError(f"unknown warm-up part {part!r}; known: {', '.join(p for p, _ in PARTS)}")


def parts(family: str) -> list[str]:
    """The parts of one kernel family, in :data:`PARTS` order."""
    if family not in ORDER:
        raise ValueError(f"unknown kernel family {family!r}; known: {', '.join(ORDER)}")
    return [part for part, owner in PARTS if owner == family]


def steps(family: str) -> list[Step]:
    """The (label, callable) steps of one kernel family's warm-up, in order."""
    return [step for part in parts(family) for step in part_steps(part)]
