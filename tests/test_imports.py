"""No import cycles anywhere in the package (issues 8 and 18): the module-level imports between
our modules form no cycle, nor do all of their imports, those inside functions and under
``if TYPE_CHECKING`` included; and every module imports on its own, first, in a fresh
interpreter."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "unbeatable"


def modules(src: Path = SRC, package: Path = PACKAGE) -> dict[str, Path]:
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _absolute(module: str, path: Path, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_at_load(module: str, path: Path, known: set[str]) -> set[str]:
    """Our modules that ``module`` imports while it loads (not inside functions, not under
    ``if TYPE_CHECKING``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        for child in ast.walk(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                break
            if isinstance(child, ast.Import):
                found |= {a.name for a in child.names if a.name in known}
            elif isinstance(child, ast.ImportFrom):
                target = _absolute(module, path, child)
                for alias in child.names:
                    name = f"{target}.{alias.name}"
                    found.add(name if name in known else target)
    return {name for name in found if name in known and name != module}


def imports_anywhere(module: str, path: Path, known: set[str]) -> set[str]:
    """Our modules that ``module`` imports anywhere: at load, inside functions, under
    ``if TYPE_CHECKING``: every ``import`` and ``from ... import`` statement of the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            target = _absolute(module, path, node)
            for alias in node.names:
                name = f"{target}.{alias.name}"
                found.add(name if name in known else target)
    return {name for name in found if name in known and name != module}


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``graph``: each group of modules that import each other, directly
    or round a circle (a strongly connected component of more than one module, or a module
    that imports itself), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's algorithm
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph.get(node, ()):
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)


def describe(groups: list[list[str]], graph: dict[str, set[str]]) -> str:
    """Each cycle's modules and which of them imports which."""
    return "; ".join(
        ", ".join(f"{m} -> {sorted(graph[m] & set(group))}" for m in group) for group in groups
    )


@pytest.mark.slow
def test_no_import_anywhere_makes_a_cycle() -> None:
    """A cycle hidden in a function (imported on first use) or behind ``TYPE_CHECKING`` still
    ties two modules together: each needs the other. None, in the whole package."""
    table = modules()
    known = set(table)
    graph = {m: imports_anywhere(m, p, known) for m, p in table.items()}
    cycles = import_cycles(graph)
    assert not cycles, "import cycles: " + describe(cycles, graph)


def test_the_cycle_check_finds_a_cycle_inside_a_function(tmp_path: Path) -> None:
    """The check above can fail: a package whose modules import each other only inside a
    function, or only for type checking, is caught; one that imports in one direction is not."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("def f():\n    from . import b\n    return b\n")
    (package / "b.py").write_text("from .a import f\n")
    (package / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.d\n"
    )
    (package / "d.py").write_text("from . import c\n")
    (package / "e.py").write_text("from .d import c\n")
    table = modules(tmp_path, package)
    graph = {m: imports_anywhere(m, p, set(table)) for m, p in table.items()}
    assert import_cycles(graph) == [["pkg.a", "pkg.b"], ["pkg.c", "pkg.d"]]
    assert graph["pkg.e"] == {"pkg.d"}


def test_the_module_level_imports_form_no_cycle() -> None:
    table = modules()
    known = set(table)
    graph = {m: imports_at_load(m, p, known) for m, p in table.items()}
    # A package imports its submodules; a submodule importing its own package's __init__ is
    # the usual shape and not a cycle of ours unless the __init__ imports it back: kept.
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append([*stack[stack.index(nxt):], nxt])
            elif nxt not in state:
                visit(nxt, [*stack, nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


CHILD = """
import importlib, sys
failed = []
for name in sys.argv[1:]:
    for loaded in [m for m in sys.modules if m == "unbeatable" or m.startswith("unbeatable.")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as err:  # an optional extra that is not installed is fine
        if (err.name or "").startswith("unbeatable"):
            failed.append(f"{name}: {err}")
    except ImportError as err:
        failed.append(f"{name}: {err}")
print("\\n".join(failed))
"""


@pytest.mark.slow
def test_every_module_imports_first_on_its_own() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, *modules()], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""
