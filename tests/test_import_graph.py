"""The import graph of the package: no circle, and the shared machinery names no
family (issue 27). import-linter checks the layers in CI (pyproject.toml,
``[tool.importlinter]``); this test reads the same graph with grimp, which counts
the imports inside functions too, and fails on any cycle."""

from __future__ import annotations

import pytest

grimp = pytest.importorskip("grimp", reason="grimp (the test extra) reads the import graph")


@pytest.fixture(scope="module")
def graph() -> object:
    return grimp.build_graph("pqkit", cache_dir=None, exclude_type_checking_imports=True)


def _cycles(graph: object) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in sorted(graph.find_modules_directly_imported_by(module)):  # type: ignore[attr-defined]
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1 or module in graph.find_modules_directly_imported_by(module):  # type: ignore[attr-defined]
                found.append(sorted(component))

    for module in sorted(graph.modules):  # type: ignore[attr-defined]
        if module not in index:
            visit(module)
    return found


def test_no_import_cycle(graph: object) -> None:
    cycles = _cycles(graph)
    assert not cycles, "import cycles: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_the_cycle_finder_finds_a_cycle() -> None:
    class Toy:
        modules = frozenset({"a", "b", "c"})

        @staticmethod
        def find_modules_directly_imported_by(module: str) -> set[str]:
            return {"a": {"b"}, "b": {"a"}, "c": {"a"}}[module]

    assert _cycles(Toy()) == [["a", "b"]]


SHARED = ("pqkit.arith", "pqkit.common", "pqkit.families", "pqkit.registry", "pqkit.schemes")
FAMILIES = ("pqkit.mlkem", "pqkit.mldsa", "pqkit.slhdsa", "pqkit.hybrid")


@pytest.mark.parametrize("shared", SHARED)
def test_shared_machinery_imports_no_family(graph: object, shared: str) -> None:
    for family in FAMILIES:
        chain = graph.find_shortest_chain(importer=shared, imported=family, as_packages=True)  # type: ignore[attr-defined]
        assert chain is None, f"{shared} reaches {family}: {' -> '.join(chain)}"


def test_import_pqkit_loads_no_family_and_listing_loads_no_kernels() -> None:
    import json
    import subprocess
    import sys

    code = (
        "import json, sys, pqkit\n"
        "def loaded():\n"
        "    return sorted(m for m in sys.modules if m.startswith('pqkit.') and any("
        "m.startswith(f'pqkit.{f}') for f in ('mlkem', 'mldsa', 'slhdsa', 'hybrid', "
        "'common.kernels')))\n"
        "first = loaded()\n"
        "pqkit.kems(); pqkit.sigs()\n"
        "print(json.dumps([first, loaded(), 'numpy' in sys.modules]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    first, listed, numpy_loaded = json.loads(out.stdout)
    assert first == []
    # Listing reads the declarations and the light catalogues: no kernels, no NumPy.
    packages = {
        "pqkit.mlkem",
        "pqkit.mldsa",
        "pqkit.slhdsa",
        "pqkit.hybrid",
        "pqkit.common.kernels",
    }
    assert {m for m in listed if not m.endswith((".family", ".params"))} <= packages, listed
    assert "pqkit.mlkem.params" in listed and "pqkit.mlkem.family" in listed
    assert numpy_loaded is False
