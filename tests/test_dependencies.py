"""pyproject.toml's Numba requirement: the environment markers admit only the
machines and Python versions Numba publishes wheels for (docs/decisions.md,
"Right by default"), so that no install builds Numba from source."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli", reason="reading pyproject.toml needs tomli on 3.10")
requirements = pytest.importorskip("packaging.requirements", reason="needs packaging")

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def _numba_specifiers(**env: str) -> list[str]:
    """The version specifiers of the Numba requirements a plain install asks for in
    the environment ``env`` (marker variables)."""
    if not PYPROJECT.is_file():
        pytest.skip("pyproject.toml is not beside the tests")
    deps = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["dependencies"]
    full = {"platform_python_implementation": "CPython", "extra": "", **env}
    out = []
    for text in deps:
        req = requirements.Requirement(text)
        if req.name == "numba" and (req.marker is None or req.marker.evaluate(full)):
            out.append(str(req.specifier))
    return out


def _env(system: str, machine: str, python: str) -> dict[str, str]:
    return {"sys_platform": system, "platform_machine": machine, "python_version": python}


@pytest.mark.parametrize("python", ["3.10", "3.11", "3.12", "3.13", "3.14"])
@pytest.mark.parametrize(
    ("system", "machine"),
    [("linux", "x86_64"), ("linux", "aarch64"), ("win32", "AMD64"), ("darwin", "arm64")],
)
def test_numba_where_it_has_wheels(system: str, machine: str, python: str) -> None:
    assert _numba_specifiers(**_env(system, machine, python)) == [">=0.60"]


@pytest.mark.parametrize("python", ["3.10", "3.13"])
def test_intel_macs_stop_at_the_last_numba_with_wheels_there(python: str) -> None:
    (spec,) = _numba_specifiers(**_env("darwin", "x86_64", python))
    assert "<0.63" in spec  # 0.62 is the last release with macOS x86-64 wheels
    assert _numba_specifiers(**_env("darwin", "x86_64", "3.14")) == []


@pytest.mark.parametrize(
    "env",
    [
        _env("linux", "x86_64", "3.15"),  # not tested there yet
        _env("linux", "ppc64le", "3.12"),
        _env("linux", "s390x", "3.12"),
        _env("linux", "i686", "3.12"),
        _env("win32", "ARM64", "3.11"),
        _env("win32", "x86", "3.12"),
    ],
)
def test_numpy_alone_elsewhere(env: dict[str, str]) -> None:
    assert _numba_specifiers(**env) == []


def test_numpy_alone_on_pypy() -> None:
    env = _env("linux", "x86_64", "3.10")
    assert _numba_specifiers(platform_python_implementation="PyPy", **env) == []
