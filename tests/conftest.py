"""Fixtures shared by several test modules."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import Cli


@pytest.fixture
def cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]
) -> Cli:
    """``pqkit`` run in-process in ``tmp_path`` (the current directory for the test)."""
    monkeypatch.chdir(tmp_path)
    return Cli(monkeypatch, capsysbinary)
