"""The batched hash kernels' declaration (Keccak-f[1600] / SHAKE, SHA-256 / SHA-512
over many inputs): the kernel group ``"hash"`` of the symmetric layer, read by
:mod:`pqkit.families`; module paths only."""

from __future__ import annotations

from pqkit.families import Family, Part

_K = "pqkit.common.kernels"

FAMILY = Family(
    name="hash",
    rank=90,
    contract=f"{_K}.contract:HashKernels",
    kernels={"jit": f"{_K}.jit", "numpy": f"{_K}.numpy", "ref": f"{_K}.ref"},
    warmup=(Part("hash-kernels", "hash", f"{_K}.warmup:steps", order=60),),
)
