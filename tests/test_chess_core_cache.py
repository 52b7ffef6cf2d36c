"""The chess core's numba cache guard: cached kernels made from other kernel sources are dropped
(the same guard as Connect Four's, over the chess kernels' sources)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from unbeatable.games.chess import _cache

PACKAGE = Path(_cache.__file__).resolve().parent
REPO = Path(__file__).resolve().parent.parent


def test_a_cache_of_other_kernel_sources_is_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    pkg = tmp_path / "chess"
    pkg.mkdir()
    for name in _cache.KERNEL_SOURCES:
        shutil.copy(PACKAGE / name, pkg / name)
    cached = pkg / "__pycache__" / "_search.search-157.py311.nbi"
    cached.parent.mkdir()
    cached.write_bytes(b"compiled")
    assert _cache.drop_stale_cache(pkg) and not cached.exists()
    cached.write_bytes(b"compiled")
    assert not _cache.drop_stale_cache(pkg) and cached.exists()
    with open(pkg / "_movegen.py", "a") as f:  # the rules change: the search's cache goes too
        f.write("\n# edited\n")
    assert _cache.drop_stale_cache(pkg) and not cached.exists()


def test_every_kernel_source_is_in_the_digest() -> None:
    kernels = {
        p.name
        for p in PACKAGE.glob("_*.py")
        if "njit" in p.read_text() or "kernel" in p.read_text()
    }
    kernels -= {"__init__.py", "_cache.py", "_notation.py"}
    assert kernels <= set(_cache.KERNEL_SOURCES)
    from unbeatable.games.chess import core  # noqa: F401  (its import checks the cache)

    stamp = PACKAGE / "__pycache__" / _cache.STAMP
    if stamp.exists():  # absent only where the package directory is not writable
        assert stamp.read_text() == _cache.kernel_digest(PACKAGE)


COLD_LOAD = """
import json
from numba.core import event
from unbeatable import kernels
from unbeatable.games.chess import _cache, warm

compiled = []

class Compiles(event.Listener):
    def on_start(self, ev):
        pass

    def on_end(self, ev):
        kernel = ev.data["dispatcher"].py_func
        if kernel.__module__.startswith("unbeatable.games.chess"):
            compiled.append(f"{kernel.__module__}.{kernel.__qualname__}")

event.register("numba:compile", Compiles())
warm.warm_up()
print(json.dumps({"compiled": compiled, "cached": kernels.cached_kernels(_cache.KERNELS)}))
"""


@pytest.mark.slow
def test_a_cold_build_compiles_each_kernel_once(tmp_path: Path) -> None:
    """With an empty cache, the warm-up compiles every kernel of the chess core once: no
    second build of a kernel for a literal argument (``f(x, 0)``) or a read-only array passed
    from Python (a third of the cold build's time before), and as many as the group declares
    (the live line's total)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "src"), *filter(None, [env.get("PYTHONPATH")])])
    proc = subprocess.run(
        [sys.executable, "-c", COLD_LOAD], env=env, capture_output=True, text=True, timeout=900
    )
    assert proc.returncode == 0, proc.stderr
    found = json.loads(proc.stdout.strip().splitlines()[-1])
    compiled = found["compiled"]
    assert "unbeatable.games.chess._search.search" in compiled
    twice = sorted({name for name in compiled if compiled.count(name) > 1})
    assert not twice, twice
    assert found["cached"] == len(compiled) == _cache.KERNELS.kernels
