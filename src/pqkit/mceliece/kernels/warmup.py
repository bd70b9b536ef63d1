"""Classic McEliece's warm-up part (a :class:`pqkit.families.Part`): a round trip
of the plain and the ``f`` variant of the smallest set on ``jit``, which builds
every compiled function (the parameter sets differ only in runtime values)."""

from __future__ import annotations

from typing import Any

from pqkit.arith.warmup import Step


def steps() -> list[Step]:
    from pqkit import registry

    out: list[Step] = []
    for name in ("Classic-McEliece-348864", "Classic-McEliece-348864f"):
        kem = registry.kem(name).using(arith="jit")
        box: dict[str, Any] = {}

        def round_trip(kem: Any = kem, box: dict[str, Any] = box) -> None:
            box["pk"], box["sk"] = kem.keygen_derand(bytes(32))
            enc = kem.encaps(box["pk"])
            kem.decaps(box["sk"], enc.ciphertext)
            kem.decaps(box["sk"], bytes(kem.length_ciphertext))  # implicit rejection

        out.append((f"{name} round trip", round_trip))
    return out
