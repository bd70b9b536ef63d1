"""A family moves in by adding a folder (issue 27 item 4; docs/architecture.md,
"Adding a family"): the toy KEM of tests/toyfamily, which no file of src/ names,
registered with one call, works through the registry, the kernel selection, the
batch views, the warm-up and the ``pqkit speed kem`` and ``pqkit kat`` commands."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from helpers import Cli
from toyfamily.family import FAMILY
from toyfamily.params import NAME

import pqkit
from pqkit import arith, families
from pqkit.arith import warmup

SRC = Path(__file__).resolve().parents[1] / "src"


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # The toy has no jit table: PQKIT_ARITH=jit (a whole-suite run on jit) would
    # select a backend it lacks, which is an error by design (UnknownBackend).
    monkeypatch.delenv("PQKIT_ARITH", raising=False)
    families.register(FAMILY)  # Adding a family, step 5 (out of the package's folders)
    try:
        yield
    finally:
        families.unregister(FAMILY.name)


def test_no_source_file_names_the_toy() -> None:
    if not SRC.is_dir():
        pytest.skip("src/ is not beside the tests (the sdist's run)")
    for path in SRC.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "toyfamily" not in text and NAME not in text, path


def test_unknown_before_and_after_registration(toy: None) -> None:
    assert NAME in pqkit.kems()
    families.unregister(FAMILY.name)
    try:
        assert NAME not in pqkit.kems()
        with pytest.raises(pqkit.UnknownAlgorithm):
            pqkit.kem(NAME)
        assert "toykem" not in arith.SCHEMES
    finally:
        families.register(FAMILY)


def test_the_scheme_api(toy: None) -> None:
    kem = pqkit.kem(NAME)
    assert pqkit.kems()[-1] == NAME  # rank 95: listed after the package's families
    assert kem.length_ciphertext == 32 and kem.claimed_nist_level == 1
    pk, sk = kem.keygen()
    ss, ct = kem.encaps(pk)
    assert kem.decaps(sk, ct) == ss
    assert pqkit.kem(NAME.lower().replace("-", "_")) is kem  # the registry's normaliser


@pytest.mark.parametrize("backend", ["ref", "numpy"])
def test_each_backend_gives_the_same_bytes(toy: None, backend: str) -> None:
    kem = pqkit.kem(NAME)
    assert "toykem" in arith.SCHEMES
    assert arith.available("toykem") == ["numpy", "ref"]  # no jit table declared
    assert arith.kernels("toykem", backend).backend == backend
    bound = kem.using(arith=backend)
    pk, sk = bound.keygen_derand(bytes(range(32)))
    ss, ct = bound.encaps_derand(pk, bytes(32))
    assert (ss, ct) == kem.using(arith="ref").encaps_derand(pk, bytes(32))
    assert bound.decaps(sk, ct) == ss
    with pytest.raises(pqkit.UnknownBackend):
        kem.using(arith="jit")


def test_the_batch_view(toy: None) -> None:
    view = pqkit.kem(NAME).batch
    seeds = np.arange(3 * 32, dtype=np.uint8).reshape(3, 32)
    pks, sks = view.keygen_derand(seeds)
    sss, cts = view.encaps_derand(pks, seeds)
    assert np.array_equal(view.decaps(sks, cts), sss)
    single = pqkit.kem(NAME).encaps_derand(bytes(pks[1]), bytes(seeds[1]))
    assert bytes(cts[1]) == single.ciphertext and bytes(sss[1]) == single.shared_secret


def test_the_warm_up_part(toy: None) -> None:
    from toyfamily.kernels import warmup as toy_warmup

    assert "toykem" in warmup.groups()
    assert ("toykem", "toykem") in warmup.parts_in_order()
    assert warmup.parts("toykem") == ["toykem"]
    before = len(toy_warmup.RUNS)
    for _label, step in warmup.steps("toykem"):
        step()
    assert len(toy_warmup.RUNS) == before + 1
    assert warmup.target("toykem") == "numpy"


def test_speed_kem(toy: None, cli: Cli) -> None:
    out = cli.ok("speed", "kem", NAME, "--duration", "0.02", "-q", "--format", "json")
    assert NAME.encode() in out


def test_kat(toy: None, cli: Cli) -> None:
    out = cli.ok("kat", NAME, "--count", "2").decode()
    assert out.startswith(f"# {NAME}\n\ncount = 0\n")
    assert "count = 1" in out and "ss = " in out


def test_the_background_warm_up_switches_the_toy_to_its_backend() -> None:
    import json
    import os
    import subprocess
    import sys

    code = (
        "import json, pqkit\n"
        "from pqkit import arith, families\n"
        "from pqkit.arith import auto\n"
        "from toyfamily.family import FAMILY\n"
        "from toyfamily.kernels import warmup\n"
        "families.register(FAMILY)\n"
        "first = arith.active(scheme='toykem')\n"
        "arith.kernels('toykem')  # the first default request queues the group\n"
        "done = auto.wait(120, ('toykem',))\n"
        "print(json.dumps([first, done, auto.status()['backend']['toykem'], warmup.RUNS]))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PQKIT_ARITH"}
    env["PQKIT_JIT_BACKGROUND"] = "1"
    env["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).parent), env.get("PYTHONPATH", "")])
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    first, done, backend, runs = json.loads(out.stdout)
    if not done and backend == "numpy" and not runs:  # pragma: no cover - no Numba here
        pytest.skip("the background warm-up needs Numba installed")
    assert [first, done, backend, runs] == ["numpy", True, "numpy", [f"{NAME} round trip"]]


def test_pqkit_compile_runs_the_toy_part(toy: None, cli: Cli) -> None:
    # The compile parts come from the registrations: the toy's part is one of them.
    pytest.importorskip("numba", reason="pqkit compile needs Numba")
    from toyfamily.kernels import warmup as toy_warmup

    before = len(toy_warmup.RUNS)
    out = cli.ok("compile", "--only", "toykem", "--jobs", "1").decode()
    assert out.startswith("compiled the jit kernels of toykem in ")
    assert len(toy_warmup.RUNS) == before + 1
