"""The README is code: every example in it runs as written (issue 14 item 3).

Each fenced block of README.md is one test:

- a ```python block runs on its own, in a fresh interpreter, in an empty
  temporary directory; it passes when it exits with status 0 (its ``assert``
  lines are the checks);
- a ```console block runs its ``$ `` lines one by one with bash (``pipefail``),
  in one empty temporary directory per block, each with exit status 0; the other
  lines are the output a reader sees and are not compared. A ```sh block runs
  every line that is not blank or a comment the same way;
- the ``pqkit`` command is the project's: the entry point next to this Python,
  or ``python -m pqkit`` where that is not installed. The temporary directory
  links to the checkout's ``benchmarks/`` so that its scripts run as written.

Two ways out, both visible in the README itself:

- ``<!-- not-run: REASON -->`` on the line before a block: the block is reported
  as skipped with that reason (installing pqkit, running the whole test suite).
  A not-run Python block must still compile.
- Long timings are shortened, not skipped: ``pqkit speed kem|sig|common|kernels``
  and ``benchmarks/*.py`` get ``--duration 0.02`` (see :data:`SHORTEN`), so the
  whole README runs in seconds while every command and option is exercised.

Other fence languages (``text``, none) are output samples and are not run.

Every ```python block, not-run ones included, must also pass ``mypy --strict``
(issue 25 item 4: code copied from the README type-checks as it runs): one mypy
run checks them all, each block a module of its own.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

RUN_LANGUAGES = ("python", "console", "sh")
NOT_RUN = re.compile(r"^<!--\s*not-run:\s*(?P<reason>\S.*?)\s*-->$")
FENCE = re.compile(r"^```(?P<lang>[\w-]*)\s*$")

# A command whose program matches is run with ``--duration 0.02`` inserted right
# after the match (before its own arguments, so redirections stay intact).
SHORT = "--duration 0.02"
SHORTEN = (
    re.compile(r"^pqkit speed (?:kem|sig|common|kernels)\b"),
    re.compile(r"^(?:python3?|\S*/python3?) benchmarks/\w+\.py\b"),
)
TIMEOUT = 300


@dataclass(frozen=True)
class Block:
    lang: str
    line: int  # 1-based line of the opening fence
    code: str
    not_run: str | None  # the reason, for a block marked not-run


def blocks(text: str) -> list[Block]:
    """The fenced blocks of ``text`` in order; ``ValueError`` for an unclosed fence."""
    found: list[Block] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if match is None:
            i += 1
            continue
        start = i
        i += 1
        body: list[str] = []
        while i < len(lines) and lines[i].rstrip() != "```":
            body.append(lines[i])
            i += 1
        if i == len(lines):
            raise ValueError(f"README.md line {start + 1}: fence never closed")
        i += 1
        before = next((s.strip() for s in reversed(lines[:start]) if s.strip()), "")
        marker = NOT_RUN.match(before)
        found.append(
            Block(
                match["lang"],
                start + 1,
                "\n".join(body) + "\n",
                marker["reason"] if marker else None,
            )
        )
    return found


def commands(block: Block) -> list[str]:
    """The shell commands of a console (``$ `` lines) or sh (non-comment lines) block."""
    if block.lang == "console":
        return [s[2:] for s in block.code.splitlines() if s.startswith("$ ")]
    return [s for s in block.code.splitlines() if s.strip() and not s.lstrip().startswith("#")]


def shortened(command: str) -> str:
    for pattern in SHORTEN:
        match = pattern.match(command)
        if match and "--duration" not in command:
            return f"{command[: match.end()]} {SHORT}{command[match.end() :]}"
    return command


def _cases() -> list[object]:
    cases: list[object] = []
    for block in blocks(README.read_text(encoding="utf-8")):
        if block.lang not in RUN_LANGUAGES:
            continue
        marks = []
        if block.not_run is not None:
            marks.append(pytest.mark.skip(reason=f"README marks it not-run: {block.not_run}"))
        cases.append(pytest.param(block, id=f"{block.lang}-line{block.line}", marks=marks))
    return cases


@pytest.fixture
def environment(tmp_path: Path) -> dict[str, str]:
    """PATH with this Python first and a ``pqkit`` command; a scratch directory."""
    bindir = Path(sys.executable).parent
    path = [str(bindir)]
    if shutil.which("pqkit", path=str(bindir)) is None:
        shim = tmp_path.parent / f"{tmp_path.name}-bin"
        shim.mkdir()
        script = shim / "pqkit"
        script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m pqkit "$@"\n')
        script.chmod(0o755)
        path.insert(0, str(shim))
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([*path, env.get("PATH", "")])
    env.pop("PYTHONSTARTUP", None)
    if (ROOT / "benchmarks").is_dir():
        (tmp_path / "benchmarks").symlink_to(ROOT / "benchmarks")
    return env


@pytest.mark.parametrize("block", _cases())
def test_readme_block(block: Block, tmp_path: Path, environment: dict[str, str]) -> None:
    where = f"README.md line {block.line}"
    if block.lang == "python":
        result = subprocess.run(
            [sys.executable, "-c", block.code],
            cwd=tmp_path,
            env=environment,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
        assert result.returncode == 0, f"{where}: python block failed\n{result.stderr}"
        return
    lines = commands(block)
    assert lines, f"{where}: a {block.lang} block with no command"
    for command in lines:
        result = subprocess.run(
            ["bash", "-o", "pipefail", "-c", shortened(command)],
            cwd=tmp_path,
            env=environment,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            stdin=subprocess.DEVNULL,
        )
        assert result.returncode == 0, (
            f"{where}: `{command}` exited with {result.returncode}\n"
            f"stdout:\n{result.stdout[-2000:]}\nstderr:\n{result.stderr[-2000:]}"
        )


def test_not_run_python_blocks_compile() -> None:
    for block in blocks(README.read_text(encoding="utf-8")):
        if block.lang == "python" and block.not_run is not None:
            compile(block.code, f"README.md line {block.line}", "exec")


def test_python_blocks_pass_mypy_strict(tmp_path: Path) -> None:
    api = pytest.importorskip("mypy.api", reason="mypy (the dev and test extras) not installed")
    files = []
    for block in blocks(README.read_text(encoding="utf-8")):
        if block.lang == "python":
            path = tmp_path / f"readme_line{block.line}.py"
            path.write_text(block.code, encoding="utf-8")
            files.append(str(path))
    assert files
    # The checkout's cache when it can be written (CI's mypy --strict src filled it).
    cache = ROOT / ".mypy_cache"
    if not os.access(ROOT, os.W_OK) or (cache.exists() and not os.access(cache, os.W_OK)):
        cache = tmp_path / ".mypy_cache"
    stdout, stderr, status = api.run(
        ["--strict", "--no-error-summary", "--cache-dir", str(cache), *files]
    )
    shown = stdout.replace(str(tmp_path) + os.sep, "")
    assert status == 0, (
        f"mypy --strict rejects README code (file names: README line):\n{shown}{stderr}"
    )


def test_readme_has_runnable_examples() -> None:
    found = [b for b in blocks(README.read_text(encoding="utf-8")) if b.lang in RUN_LANGUAGES]
    assert any(b.lang == "python" and b.not_run is None for b in found)
    assert any(b.lang == "console" and b.not_run is None for b in found)


# --- the extractor itself ------------------------------------------------------------


def test_blocks_parse_languages_markers_and_lines() -> None:
    text = (
        "intro\n"
        "```python\nx = 1\n```\n"
        "<!-- not-run: installs things -->\n\n"
        "```sh\npip install .\n# a comment\n```\n"
        "```console\n$ pqkit list\nML-KEM-512 ...\n$ echo hi\n```\n"
        "```\nplain\n```\n"
    )
    found = blocks(text)
    assert [(b.lang, b.line, b.not_run) for b in found] == [
        ("python", 2, None),
        ("sh", 7, "installs things"),
        ("console", 11, None),
        ("", 16, None),
    ]
    assert found[0].code == "x = 1\n"
    assert commands(found[1]) == ["pip install ."]
    assert commands(found[2]) == ["pqkit list", "echo hi"]


def test_unclosed_fence_is_an_error() -> None:
    with pytest.raises(ValueError, match="line 2: fence never closed"):
        blocks("text\n```python\nx = 1\n")


def test_shortened_inserts_the_duration_once() -> None:
    assert shortened("pqkit speed kem ML-KEM-768 > a.json") == (
        "pqkit speed kem --duration 0.02 ML-KEM-768 > a.json"
    )
    assert shortened("python benchmarks/peers.py --kem X") == (
        "python benchmarks/peers.py --duration 0.02 --kem X"
    )
    assert shortened("pqkit speed kem --duration 3") == "pqkit speed kem --duration 3"
    assert shortened("pqkit speed compare a.json b.json") == "pqkit speed compare a.json b.json"
    assert shortened("pqkit kat Kyber768") == "pqkit kat Kyber768"
