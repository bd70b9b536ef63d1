"""Falcon's warm-up part (:class:`pqkit.families.Part`): real operations on the
``jit`` backend that build every compiled specialization its calls use (both
degrees; signing with randomness, as Falcon always signs)."""

from __future__ import annotations

from typing import Any

from pqkit.arith.warmup import Step


def steps() -> list[Step]:
    """Sign and verify with Falcon-512 and Falcon-1024 (fixed keys from the seed
    0, 1, ..., 47: key generation is Python big integers and compiles nothing)."""
    from pqkit import registry

    out: list[Step] = []
    for name in ("Falcon-512", "Falcon-1024"):
        sig = registry.sig(name).using(arith="jit")
        box: dict[str, Any] = {}

        def keygen(sig: Any = sig, box: dict[str, Any] = box) -> None:
            box["pk"], box["sk"] = sig.keygen_derand(bytes(range(48)))

        def sign(sig: Any = sig, box: dict[str, Any] = box) -> None:
            box["sigma"] = sig.sign(box["sk"], b"pqkit warm-up")

        def verify(sig: Any = sig, box: dict[str, Any] = box) -> None:
            sig.verify(box["pk"], b"pqkit warm-up", box["sigma"])
            sig.verify(box["pk"], b"other", box["sigma"])

        out += [(f"{name} keygen", keygen), (f"{name} sign", sign), (f"{name} verify", verify)]
    return out
