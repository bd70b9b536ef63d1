"""Fixtures shared by the test modules.

- ``arith_backend`` runs a test once per installed arithmetic backend (``ref``
  included); ``fast_backend`` once per backend other than ``ref``, for the
  differential suites that check it against the ``ref`` oracle. Both take the list
  from :func:`pqkit.arith.available` (via ``helpers.ARITH_BACKENDS``), with the
  backend name as the test id, so a registered, installed backend is tested
  without editing any test.
- ``cli`` runs the ``pqkit`` command in-process in a temporary directory.

The automatic backend selection's background jit warm-up is off for the test
processes (``PQKIT_JIT_BACKGROUND=0``: the default stays ``numpy``, and no thread
compiles while tests patch the registry); tests/test_arith_auto.py runs it in
fresh processes.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers import ARITH_BACKENDS, FAST_BACKENDS, Cli

os.environ.setdefault("PQKIT_JIT_BACKGROUND", "0")


@pytest.fixture(params=ARITH_BACKENDS)
def arith_backend(request: pytest.FixtureRequest) -> str:
    """The name of one installed arithmetic backend (each in turn)."""
    name: str = request.param
    return name


@pytest.fixture(params=FAST_BACKENDS)
def fast_backend(request: pytest.FixtureRequest) -> str:
    """The name of one installed backend other than ``ref`` (each in turn)."""
    name: str = request.param
    return name


@pytest.fixture
def cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]
) -> Cli:
    """``pqkit`` run in-process in ``tmp_path`` (the current directory for the test)."""
    monkeypatch.chdir(tmp_path)
    return Cli(monkeypatch, capsysbinary)
