"""The ``pqkit`` command frame and ``pqkit demo``."""

from __future__ import annotations

import argparse
import os
import runpy
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest

import pqkit
from pqkit.cli import main
from pqkit.errors import UnknownAlgorithm


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "usage: pqkit" in capsys.readouterr().out


@pytest.mark.slow  # every scheme, the large Classic McEliece sets too (minutes of CPU)
def test_demo_round_trips_every_scheme(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["demo"])
    out = capsys.readouterr().out
    names = pqkit.kems() + pqkit.sigs()
    if not names:
        assert status == 2
        return
    assert status == 0
    slow = [n for n in pqkit.sigs() if n.startswith("SLH-DSA-") and n.endswith("s")]
    slow += [n for n in pqkit.sigs() if pqkit.registry.algorithm(n).stateful]
    slow += [n for n in pqkit.kems() if pqkit.registry.algorithm(n).length_public_key > 300_000]
    # a scheme whose extra is not installed (the hybrids without pyca/cryptography) is
    # named on the "skipped" line instead of a row of its own
    from pqkit._extras import installed
    from pqkit.registry import algorithm

    skipped_line = next((line for line in out.splitlines() if line.startswith("skipped ")), "")
    for name in names:
        extra = algorithm(name).extra
        if extra is not None and not installed(extra):
            assert name in skipped_line and f"pqkit[{extra}]" in skipped_line
            continue
        assert f"{name} " in out or (name in slow and name in out)
    assert "not run by default" in out and all(n in out for n in slow)
    assert " NO" not in out


def test_demo_leaves_out_the_large_key_kems_unless_named() -> None:
    from pqkit.cli.demo import _default_kems

    run, left_out = _default_kems()
    assert "Classic-McEliece-348864" in run and "ML-KEM-768" in run
    assert "Classic-McEliece-8192128f" in left_out and "Classic-McEliece-460896" in left_out
    assert not set(run) & set(left_out) and sorted(run + left_out) == sorted(pqkit.kems())


def test_demo_runs_a_named_slow_set(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "SLH-DSA-SHAKE-128s"]) == 0
    out = capsys.readouterr().out
    assert "SLH-DSA-SHAKE-128s " in out and "not run by default" not in out


def test_demo_unknown_name_matches_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "no-such-scheme"]) == 2
    assert "no schemes matched" in capsys.readouterr().out


def test_python_dash_m(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["pqkit", "list"])
    with pytest.raises(SystemExit) as stop:
        runpy.run_module("pqkit", run_name="__main__")
    assert stop.value.code == 0
    assert "ML-KEM-768" in capsys.readouterr().out


def _console_script() -> list[str]:
    """The installed ``pqkit`` script beside this interpreter, else ``python -m pqkit``."""
    script = Path(sys.executable).with_name("pqkit")
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    return [sys.executable, "-m", "pqkit"]


def test_console_entry_point_smoke(tmp_path: Path) -> None:
    """The one subprocess test: the console script runs, with pipes and status."""
    src = str(Path(pqkit.__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([src, os.environ.get("PYTHONPATH", "")]))
    command = _console_script()
    done = subprocess.run(
        [*command, "keygen", "ML-DSA-44", "-o", "k.pem", "--pub", "p.pem"],
        cwd=tmp_path, env=env, capture_output=True, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    (tmp_path / "m").write_bytes(b"message")
    done = subprocess.run(
        [*command, "sign", "k.pem", "m", "-o", "sig"],
        cwd=tmp_path, env=env, capture_output=True, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    done = subprocess.run(
        [*command, "verify", "p.pem", "-", "sig"],
        cwd=tmp_path, env=env, input=b"other", capture_output=True, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.decode().startswith("pqkit: ") and b"Traceback" not in done.stderr


def test_unknown_algorithm_error_lists_known_names(capsys: pytest.CaptureFixture[str]) -> None:
    def fail(_args: object) -> int:
        raise UnknownAlgorithm("Kyber9", ["ML-KEM-768"])

    parser = argparse.ArgumentParser()
    parser.set_defaults(func=fail)
    with mock.patch("pqkit.cli.build_parser", return_value=parser):
        assert main([]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pqkit: error: unknown algorithm 'Kyber9'")
    assert "ML-KEM-768" in err
    assert "Traceback" not in err
