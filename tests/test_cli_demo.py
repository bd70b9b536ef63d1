"""``pqkit demo`` shows what a warm pqkit gives (issue 25 item 8): it takes ``--arith``,
names ``PQKIT_ARITH`` in its help, says per row which arithmetic backend ran, and
waits (at most ``WAIT`` seconds) for a warm jit cache to load before timing.

The wait itself, with a really warm cache, is checked in a fresh process right after
``pqkit compile`` (tests/test_arith_auto.py); here the decision is checked with the
cache question and the wait replaced.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import Cli

from pqkit.arith import auto
from pqkit.cli import compile as compile_cmd
from pqkit.cli import demo
from pqkit.registry import kernel_group


def _rows(out: str) -> dict[str, list[str]]:
    return {line.split()[0]: line.split() for line in out.splitlines() if line.endswith(" yes")}


def test_arith_option_runs_every_row_on_that_backend(cli: Cli) -> None:
    out = cli.ok("demo", "--arith", "numpy", "ML-KEM-512", "ML-DSA-44", "Kyber512").decode()
    assert out.splitlines()[0] == "arithmetic backend: numpy (--arith)"
    rows = _rows(out)
    assert sorted(rows) == ["Kyber512", "ML-DSA-44", "ML-KEM-512"]
    assert {row[-2] for row in rows.values()} == {"numpy"}
    out = cli.ok("demo", "--arith", "ref", "ML-KEM-512").decode()
    assert _rows(out)["ML-KEM-512"][-2] == "ref"


def test_arith_option_refuses_an_unknown_backend(cli: Cli) -> None:
    cli.fails("demo", "--arith", "nope", "ML-KEM-512", match="unknown or unavailable arith backend")


def test_pqkit_arith_is_named(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PQKIT_ARITH", "numpy")
    out = cli.ok("demo", "ML-KEM-512").decode()
    assert out.splitlines()[0] == "arithmetic backend: numpy (PQKIT_ARITH)"
    help_text = cli.ok("demo", "--help").decode()
    assert "PQKIT_ARITH" in help_text and "--arith BACKEND" in help_text
    assert "pqkit compile" in help_text


def test_without_the_background_switch_it_says_why(cli: Cli) -> None:
    # The test processes run with PQKIT_JIT_BACKGROUND=0 (conftest.py).
    out = cli.ok("demo", "ML-KEM-512").decode()
    installed = importlib.util.find_spec("numba") is not None
    why = "PQKIT_JIT_BACKGROUND=0" if installed else "numba is not installed"
    assert out.splitlines()[0] == f"arithmetic backend: numpy ({why}: no automatic switch to jit)"
    assert _rows(out)["ML-KEM-512"][-2] == "numpy"


class _Fake:
    """auto.status / auto.wait / compile.cached stand-ins that record the waits."""

    def __init__(self, warm: set[str], ready: bool) -> None:
        self.warm = warm
        self.ready = ready
        self.waits: list[tuple[float | None, tuple[str, ...] | None]] = []

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(auto, "status", lambda: {"enabled": True})
        monkeypatch.setattr(auto, "wait", self.wait)
        monkeypatch.setattr(compile_cmd, "cached", lambda family: family in self.warm)

    def wait(self, timeout: float | None = None, families: tuple[str, ...] | None = None) -> bool:
        self.waits.append((timeout, families))
        return self.ready


def _first_line(monkeypatch: pytest.MonkeyPatch, fake: _Fake, *names: str) -> str:
    fake.install(monkeypatch)
    families = [kernel_group(name) for name in names]
    return demo._arith_line(list(dict.fromkeys(families)), None)


def test_a_warm_cache_is_waited_for_within_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _Fake({"mlkem", "mldsa"}, ready=True)
    line = _first_line(monkeypatch, fake, "ML-KEM-768", "Kyber512", "ML-DSA-65")
    assert fake.waits == [(demo.WAIT, ("mlkem", "mldsa"))]
    assert 0 < demo.WAIT <= 10
    assert line.startswith("arithmetic backend: jit for mlkem, mldsa (loaded from the cache in ")


def test_a_cold_family_is_not_waited_for(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _Fake({"mlkem"}, ready=True)
    line = _first_line(monkeypatch, fake, "ML-KEM-768", "SLH-DSA-SHAKE-128f")
    assert fake.waits == [(demo.WAIT, ("mlkem",))]  # hash (SLH-DSA) is cold
    assert line.endswith(
        "; numpy for hash until its jit code is compiled in the background "
        "(`pqkit compile --all` builds it ahead of time)"
    )
    fake = _Fake(set(), ready=True)
    line = _first_line(monkeypatch, fake, "ML-KEM-768")
    assert fake.waits == [] and line.startswith("arithmetic backend: numpy for mlkem until")


def test_a_load_that_takes_too_long_is_said(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _Fake({"mlkem"}, ready=False)
    line = _first_line(monkeypatch, fake, "X-Wing")  # the hybrids run ML-KEM's kernels
    assert fake.waits == [(demo.WAIT, ("mlkem",))]
    assert f"did not load within {demo.WAIT:g} s" in line


def test_rows_name_the_backend_each_ran_on(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A switch during a row (the background finished loading) shows as numpy>jit.
    answers = iter(["numpy", "jit", "jit", "jit"])
    monkeypatch.setattr(demo, "_backend", lambda family, pinned: next(answers))
    rows = demo._Rows(None)
    rows.row("ML-KEM-512", lambda: (["cells"], True))
    rows.row("ML-KEM-768", lambda: (["cells"], False))
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[-2:] == ["numpy>jit", "yes"]
    assert out[1].split()[-2:] == ["jit", "NO"] and rows.failures == 1


@pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="needs numba")
def test_cached_reads_numbas_index(tmp_path: Path) -> None:
    # An empty NUMBA_CACHE_DIR: nothing is cached for any family.
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    code = (
        "from pqkit.cli.compile import cached\n"
        "from pqkit.arith.warmup import ORDER\n"
        "print([cached(f) for f in ORDER])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    from pqkit.arith.warmup import ORDER

    assert len(ORDER) >= 6  # the families with compiled parts (FrodoKEM's since issue 32)
    assert done.stdout.strip() == str([False] * len(ORDER))


def test_cached_knows_the_families(monkeypatch: pytest.MonkeyPatch) -> None:
    from pqkit.arith.warmup import ORDER

    with pytest.raises(ValueError, match="unknown kernel family 'nope'"):
        compile_cmd.cached("nope")
    for family in ORDER:
        assert compile_cmd._compiled_modules()[family]
    monkeypatch.setitem(sys.modules, "numba", None)
    assert compile_cmd.cached("mlkem") is False
