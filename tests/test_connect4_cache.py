"""The numba cache guard: cached kernels made from other kernel sources are dropped."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

from unbeatable.games.connect4 import _cache

PACKAGE = Path(_cache.__file__).resolve().parent


def _copy_package(tmp_path: Path) -> Path:
    pkg = tmp_path / "connect4"
    pkg.mkdir()
    for name in _cache.KERNEL_SOURCES:
        shutil.copy(PACKAGE / name, pkg / name)
    return pkg


def _fake_cache(pkg: Path) -> list[Path]:
    cache = pkg / "__pycache__"
    cache.mkdir(exist_ok=True)
    files = [cache / "_columns.best_map-59.py311.nbi", cache / "_columns.best_map-59.py311.1.nbc"]
    for f in files:
        f.write_bytes(b"compiled")
    return files


@pytest.mark.parametrize("edited", _cache.KERNEL_SOURCES)
def test_a_cache_of_other_kernel_sources_is_dropped_and_a_current_one_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edited: str
) -> None:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    pkg = _copy_package(tmp_path)
    old = _fake_cache(pkg)
    assert _cache.drop_stale_cache(pkg)  # no stamp: sources unknown
    assert not any(f.exists() for f in old)
    kept = _fake_cache(pkg)
    assert not _cache.drop_stale_cache(pkg)  # stamp matches
    assert all(f.exists() for f in kept)
    with open(pkg / edited, "a") as f:  # a change in a file the cached one may link in
        f.write("\n# edited\n")
    assert _cache.drop_stale_cache(pkg)
    assert not any(f.exists() for f in kept)
    assert (pkg / "__pycache__" / _cache.STAMP).read_text() == _cache.kernel_digest(pkg)


def test_every_module_that_compiles_a_kernel_is_in_the_digest() -> None:
    """A kernel module left out of ``KERNEL_SOURCES`` would let a stale cache run old code."""
    compiling = set()
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        from_numba = {
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("numba")
            for alias in node.names
        }
        if from_numba & {"njit", "jit", "intrinsic", "vectorize"}:
            compiling.add(path.name)
    assert compiling, "no kernel module found: the scan is broken"
    assert compiling == set(_cache.KERNEL_SOURCES)


def test_a_cache_elsewhere_is_left_to_numba(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pkg = _copy_package(tmp_path)
    files = _fake_cache(pkg)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "elsewhere"))
    assert not _cache.drop_stale_cache(pkg)
    assert all(f.exists() for f in files)


def test_the_installed_kernels_carry_their_stamp() -> None:
    from unbeatable.games.connect4 import solver  # noqa: F401  (its import checks the cache)

    stamp = PACKAGE / "__pycache__" / _cache.STAMP
    if stamp.exists():  # absent only where the package directory is not writable
        assert stamp.read_text() == _cache.kernel_digest(PACKAGE)
