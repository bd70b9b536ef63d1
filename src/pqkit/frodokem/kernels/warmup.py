"""FrodoKEM's warm-up part (:class:`pqkit.families.Part`): a round trip with A by
AES-128 and one with A by SHAKE128 on the ``jit`` backend, which compile every
kernel (and the batched SHAKE of the ``hash`` kernels that A by SHAKE128 uses)."""

from __future__ import annotations

from typing import Any

from pqkit.arith.warmup import Step


def steps() -> list[Step]:
    from pqkit import registry

    out: list[Step] = []
    for name in ("FrodoKEM-640-AES", "eFrodoKEM-640-SHAKE"):
        kem = registry.kem(name).using(arith="jit")

        def round_trip(k: Any = kem) -> None:
            pk, sk = k.keygen_derand(bytes(range(k.length_seed)))
            _, ct = k.encaps_derand(pk, bytes(k.length_encaps_m))
            k.decaps(sk, ct)
            k.decaps(sk, bytes(k.length_ciphertext))  # implicit rejection

        out.append((f"{name} round trip", round_trip))
    return out
