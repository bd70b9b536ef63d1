"""The warm-up workload of the ``jit`` backend: real operations, so that every
compiled specialization the library's calls use is built (or loaded from Numba's
on-disk cache). The background selection (:mod:`pqkit.arith.auto`) and
``pqkit compile`` run it; Numba is imported only when a step runs.

Each family declares its parts (:class:`pqkit.families.Part`: name, kernel group,
steps, compile order) in its ``family.py``; this module collects them and names
no family. :func:`kem_steps` and :func:`sig_steps` are the steps most families
build their parts from.

Each step is an operation on a scheme object bound to ``jit``; the argument types
it passes are the ones real calls pass (read-only byte buffers, read-only cached
states), which is what Numba specializes on. Kernels of one scheme compile once
for every parameter set (k, l, eta are runtime arguments), but each set runs once
anyway: cheap when compiled, and a guard against a path a set alone takes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pqkit import families

__all__ = [  # and ORDER, PARTS: derived on every read (module __getattr__)
    "Step",
    "ahead_groups",
    "groups",
    "kem_steps",
    "part_steps",
    "parts",
    "parts_in_order",
    "sig_steps",
    "steps",
    "target",
]

Step = tuple[str, Callable[[], object]]

_derived: dict[str, Any] = {}


def _forget() -> None:
    _derived.clear()


families.on_change(_forget)


def _parts() -> tuple[families.Part, ...]:
    found = _derived.get("parts")
    if found is None:
        found = tuple(
            sorted(
                (part for family in families.families() for part in family.warmup),
                key=lambda part: (part.order, part.name),
            )
        )
        _derived["parts"] = found
    return found


def groups() -> tuple[str, ...]:
    """Every kernel group with a warm-up (``ORDER``): the switch to the compiled
    backend is per group, and the background warm-up runs the requested ones in
    request order. A family's batch group (``"mlkem-batch"``) holds the batch
    views' compiled operations, apart from the single operations: they take about
    as long to compile, and the single operations should not wait for them; until
    they are built the batch views run their vectorised path
    (:func:`pqkit.arith.ops.batch_operations_now`)."""
    return tuple(dict.fromkeys(part.group for part in _parts()))


def ahead_groups() -> tuple[str, ...]:
    """The kernel groups ``pqkit compile`` builds by default (those with a part
    declared ``ahead``), in :func:`groups` order; the others compile on first use,
    in the background, or with ``pqkit compile --all`` / ``--only``."""
    return tuple(dict.fromkeys(part.group for part in _parts() if part.ahead))


def parts_in_order() -> tuple[tuple[str, str], ...]:
    """``pqkit compile``'s units of work as (part, group) (``PARTS``), in the order
    its worker processes take them: longest first, so that the processes of a 2-core
    machine finish close together, but each batch part after its family's single
    operations (it then loads the kernels they share instead of compiling them a
    second time; docs/decisions.md, "Compile time, third round")."""
    return tuple((part.name, part.group) for part in _parts())


def __getattr__(name: str) -> Any:
    # Derived from the registered families on every read (they may change).
    if name == "ORDER":
        return groups()
    if name == "PARTS":
        return parts_in_order()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def target(group: str) -> str:
    """The backend ``group`` switches to once its parts have run."""
    return next((p.backend for p in _parts() if p.group == group), "jit")


def kem_steps(kem: Any) -> list[Step]:
    """Key generation, encapsulation and decapsulation (a valid and an implicitly
    rejected ciphertext) of the KEM scheme object ``kem`` on ``jit``."""
    name = kem.name
    kem = kem.using(arith="jit")
    seed = bytes(range(kem.length_seed))
    coins = bytes(int(getattr(kem, "length_randomness", 32)))  # encaps_derand's m
    box: dict[str, Any] = {}

    def keygen() -> None:
        box["ek"], box["dk"] = kem.keygen_derand(seed)

    def encaps() -> None:
        box["enc"] = kem.encaps_derand(box["ek"], coins)

    def decaps() -> None:
        kem.decaps(box["dk"], box["enc"].ciphertext)
        kem.decaps(box["dk"], bytes(kem.length_ciphertext))  # implicit rejection

    return [(f"{name} keygen", keygen), (f"{name} encaps", encaps), (f"{name} decaps", decaps)]


def sig_steps(sig: Any) -> list[Step]:
    """Key generation, signing and verification (a valid and a wrong message) of the
    signature scheme object ``sig`` on ``jit``."""
    name = sig.name
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


def part_steps(part: str) -> list[Step]:
    """The (label, callable) steps of one part of :data:`PARTS`, in order."""
    for declared in _parts():
        if declared.name == part:
            steps: list[Step] = families.load(declared.steps)()
            return steps
    known = ", ".join(p.name for p in _parts())
    raise ValueError(f"unknown warm-up part {part!r}; known: {known}")


def parts(family: str) -> list[str]:
    """The parts of one kernel group, in :data:`PARTS` order."""
    if family not in groups():
        raise ValueError(f"unknown kernel family {family!r}; known: {', '.join(groups())}")
    return [part.name for part in _parts() if part.group == family]


def steps(family: str) -> list[Step]:
    """The (label, callable) steps of one kernel group's warm-up, in order."""
    return [step for part in parts(family) for step in part_steps(part)]
