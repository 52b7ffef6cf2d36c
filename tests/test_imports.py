"""No import cycles anywhere in the package (issue 8): the module-level imports between our
modules form no cycle, and every module imports on its own, first, in a fresh interpreter."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "unbeatable"


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
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
