"""The ``pqkit`` command frame and ``pqkit demo``."""

from __future__ import annotations

import argparse
import subprocess
import sys
from unittest import mock

import pytest

import pqkit
from pqkit.cli import main
from pqkit.errors import UnknownAlgorithm


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "usage: pqkit" in capsys.readouterr().out


def test_demo_round_trips_every_scheme(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["demo"])
    out = capsys.readouterr().out
    names = pqkit.kems() + pqkit.sigs()
    if not names:
        assert status == 2
        return
    assert status == 0
    for name in names:
        assert f"{name} " in out
    assert " NO" not in out


def test_demo_unknown_name_matches_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "no-such-scheme"]) == 2
    assert "no schemes matched" in capsys.readouterr().out


def test_python_dash_m() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pqkit", "--version"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0
    assert result.stdout.startswith("pqkit ")


def test_unknown_algorithm_error_lists_known_names(capsys: pytest.CaptureFixture[str]) -> None:
    def fail(_args: object) -> int:
        raise UnknownAlgorithm("Kyber9", ["ML-KEM-768"])

    parser = argparse.ArgumentParser()
    parser.set_defaults(func=fail)
    with mock.patch("pqkit.cli.build_parser", return_value=parser):
        assert main([]) == 1
    err = capsys.readouterr().err
    assert err.startswith("pqkit: error: unknown algorithm 'Kyber9'")
    assert "ML-KEM-768" in err
    assert "Traceback" not in err
