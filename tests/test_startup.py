"""Start-up (issue 25 item 9): what a fresh process loads for one operation and for
``pqkit --version``, and the pause before the background jit warm-up. Speed itself
is measured by benchmarks/startup.py, never here; these tests check what is
imported, in fresh interpreters (the test process has imported everything)."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import subprocess
import sys
import threading
import time
from typing import Any

import pytest

HAVE_NUMBA = importlib.util.find_spec("numba") is not None
HAVE_PYCA = importlib.util.find_spec("cryptography") is not None


def _python(code: str, **env: str) -> Any:
    """Run ``code`` in a fresh interpreter with the automatic backend selection on
    (plus ``env``); its last stdout line is JSON."""
    base = {k: v for k, v in os.environ.items() if k not in ("PQKIT_ARITH", "PQKIT_JIT_BACKGROUND")}
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**base, **env},
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


_ROUND_TRIP = """
import json, sys
import pqkit
from pqkit.arith import auto
auto.START_DELAY_S = 120  # the pause, made long enough for any machine's load
kem = pqkit.kem("ML-KEM-768")
pk, sk = kem.keygen()
ss, ct = kem.encaps(pk)
assert kem.decaps(sk, ct) == ss
heavy = ("numba", "llvmlite", "cryptography", "pkgutil", "argparse")
loaded = sorted(m for m in sys.modules if m.split(".")[0] in heavy)
others = ("pqkit.mldsa", "pqkit.slhdsa", "pqkit.hybrid")
# Each family's declaration (its package and family.py: module paths only, issue 27)
# is read to find the families; nothing else of theirs may load.
declarations = {m for f in others for m in (f, f + ".family")}
families = sorted(m for m in sys.modules if m.startswith(others) and m not in declarations)
print(json.dumps({"loaded": loaded, "families": families, "status": auto.status(),
                  "cli": "pqkit.cli" in sys.modules}))
"""


def test_a_first_round_trip_loads_only_what_it_needs() -> None:
    """import pqkit + one ML-KEM-768 round trip: no Numba (the warm-up thread waits),
    no pyca/cryptography (ML-KEM hashes through hashlib), no other family's modules
    (not even their parameter catalogues; only their declarations, package and
    ``family.py``, which name module paths), no command line, and no listing of
    pqkit's package (``from pqkit import common`` asks ``pqkit.__getattr__``)."""
    got = _python(_ROUND_TRIP)
    assert got["loaded"] == []
    assert got["families"] == []
    assert got["cli"] is False
    if HAVE_NUMBA:  # the warm-up is queued, its thread waiting out the pause
        assert got["status"]["running"] is True
        assert got["status"]["backend"]["mlkem"] == "numpy"


def test_kyber_90s_still_finds_pyca_for_aes() -> None:
    """pyca/cryptography is imported on first use of AES, and then serves it."""
    got = _python(
        "import json, sys, pqkit\n"
        "from pqkit.common import openssl\n"
        "before = 'cryptography' in sys.modules\n"
        "kem = pqkit.kem('Kyber768-90s')\n"
        "pk, sk = kem.keygen()\n"
        "ss, ct = kem.encaps(pk)\n"
        "assert kem.decaps(sk, ct) == ss\n"
        "print(json.dumps([before, 'cryptography' in sys.modules, openssl.AES is not None,"
        " openssl.HAS_CRYPTOGRAPHY]))"
    )
    assert got == [False, HAVE_PYCA, HAVE_PYCA, HAVE_PYCA]


def test_version_loads_no_numpy_and_no_parser() -> None:
    got = _python(
        "import json, sys\n"
        "from pqkit.cli import main\n"
        "status = main(['--version'])\n"
        "heavy = ('numpy', 'argparse', 'pqkit.cli.keys', 'pqkit.cli.demo', 'pqkit.arith')\n"
        "print(json.dumps([status, [m for m in heavy if m in sys.modules]]))"
    )
    assert got == [0, []]


def test_version_prints_the_version(capsys: pytest.CaptureFixture[str]) -> None:
    import pqkit
    from pqkit.cli import main

    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"pqkit {pqkit.__version__}\n"


def test_a_command_loads_only_its_own_module() -> None:
    got = _python(
        "import json, sys\n"
        "from pqkit.cli import main, _COMMAND_MODULES\n"
        "status = main(['list'])\n"
        "print(json.dumps([status, [m for m in _COMMAND_MODULES if m in sys.modules]]))"
    )
    assert got == [0, ["pqkit.cli.keys"]]


def test_command_table_names_what_each_module_registers() -> None:
    """The command -> module table the fast path reads is what the modules register
    (a new subcommand must be listed), and the full parser lists them in its order."""
    from pqkit import cli

    for module in cli._COMMAND_MODULES:
        parser = argparse.ArgumentParser()
        subparsers = parser.add_subparsers()
        importlib.import_module(module).register(subparsers)
        registered = sorted(subparsers.choices)
        assert registered == sorted(c for c, m in cli._COMMANDS.items() if m == module), module
    full = cli.build_parser()
    actions = [a for a in full._actions if isinstance(a, argparse._SubParsersAction)]
    assert list(actions[0].choices) == list(cli._COMMANDS)


def test_help_and_unknown_commands_still_see_every_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from pqkit import cli

    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    assert all(command in out for command in cli._COMMANDS)
    assert cli.main(["no-such-command"]) == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'no-such-command'" in err and "'compile'" in err


def test_warm_up_waits_out_the_pause_unless_waited_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first request queues its family and starts the thread, which does nothing
    (imports nothing) during START_DELAY_S; wait() ends the pause."""
    from pqkit.arith import auto, warmup

    ran: list[str] = []
    monkeypatch.setattr(auto, "_ready", {})
    monkeypatch.setattr(auto, "_queue", [])
    monkeypatch.setattr(auto, "_state", {"thread": None, "error": None, "started": None})
    monkeypatch.setattr(auto, "_now", threading.Event())
    monkeypatch.setattr(auto, "_enabled", lambda: True)
    monkeypatch.setattr(auto, "START_DELAY_S", 600.0)
    monkeypatch.setattr(warmup, "steps", lambda family: [(family, lambda: ran.append(family))])
    assert auto.choice("mlkem") == "numpy"
    thread = auto._state["thread"]
    assert thread is not None and thread.is_alive()
    time.sleep(0.2)
    assert ran == []  # still paused
    assert auto.pending("mlkem")
    assert auto.wait(timeout=60, families=("mlkem",))
    assert ran == ["mlkem"]
    assert auto.choice("mlkem") == "jit"


def test_warm_up_starts_by_itself_after_the_pause(monkeypatch: pytest.MonkeyPatch) -> None:
    from pqkit.arith import auto, warmup

    ran: list[str] = []
    monkeypatch.setattr(auto, "_ready", {})
    monkeypatch.setattr(auto, "_queue", [])
    monkeypatch.setattr(auto, "_state", {"thread": None, "error": None, "started": None})
    monkeypatch.setattr(auto, "_now", threading.Event())
    monkeypatch.setattr(auto, "_enabled", lambda: True)
    monkeypatch.setattr(auto, "START_DELAY_S", 0.05)
    monkeypatch.setattr(warmup, "steps", lambda family: [(family, lambda: ran.append(family))])
    assert auto.choice("hash") == "numpy"
    thread = auto._state["thread"]
    assert thread is not None
    thread.join(60)  # nobody waits: the pause ends by itself
    assert ran == ["hash"]
    assert auto.choice("hash") == "jit"


def test_requests_on_numpy_do_not_search_for_numba_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every kernel request made while on numpy asks the automatic selection; once
    its family is queued that costs no search of sys.path, and whether Numba is
    installed is looked up once."""
    from pqkit.arith import auto

    searches: list[str] = []
    real = importlib.util.find_spec

    def counting(name: str, package: str | None = None) -> Any:
        searches.append(name)
        return real(name, package)

    monkeypatch.setattr(auto, "_ready", {})
    monkeypatch.setattr(auto, "_queue", ["mlkem"])  # queued, as after a first request
    monkeypatch.setattr(auto, "_state", {"thread": None, "error": None, "started": 0.0})
    monkeypatch.setattr(importlib.util, "find_spec", counting)
    monkeypatch.setenv("PQKIT_JIT_BACKGROUND", "1")
    for _ in range(3):
        assert auto.choice("mlkem") == "numpy"
    assert searches == []
    auto._numba_found.cache_clear()
    try:
        for _ in range(3):
            auto.status()
        assert searches == ["numba"]  # once, whatever the number of questions
    finally:
        auto._numba_found.cache_clear()
