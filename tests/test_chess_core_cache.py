"""The chess core's numba cache guard: cached kernels made from other kernel sources are dropped
(the same guard as Connect Four's, over the chess kernels' sources)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers import cold_compiles
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


@pytest.mark.slow
def test_a_cold_build_compiles_each_kernel_once(tmp_path: Path) -> None:
    """With an empty cache, the warm-up compiles every kernel of the chess core once: no
    second build of a kernel for a literal argument (``f(x, 0)``) or a read-only array passed
    from Python (a third of the cold build's time before), and as many as the group declares
    (the live line's total)."""
    compiled, cached = cold_compiles(
        "unbeatable.games.chess._cache", "unbeatable.games.chess.warm.warm_up", tmp_path,
        package="unbeatable.games.chess",
    )  # fmt: skip
    assert "unbeatable.games.chess._search.search" in compiled
    twice = sorted({name for name in compiled if compiled.count(name) > 1})
    assert not twice, twice
    assert cached == len(compiled) == _cache.KERNELS.kernels


def test_ctrl_c_in_the_warm_ups_search_is_passed_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine's searcher ends a search quietly on Ctrl-C (its result says ``interrupted``),
    as a UCI ``stop`` or an analysis wants; the warm-up's search passes it on as
    KeyboardInterrupt: a cold ``unbeatable match --game chess`` sent Ctrl-C while the kernels
    built heard it in that search and played the whole match on, to exit code 0."""
    from dataclasses import replace

    from unbeatable.games.chess import searcher, warm

    iterate = searcher.Searcher.iterate

    def cut_short(self: searcher.Searcher, *args: object, **kwargs: object) -> object:
        for result in iterate(self, *args, **kwargs):  # type: ignore[arg-type]
            yield replace(result, interrupted=True)  # as Ctrl-C during the search ends it

    warm.warm_up()  # not interrupted: it ends quietly
    monkeypatch.setattr(searcher.Searcher, "iterate", cut_short)
    with pytest.raises(KeyboardInterrupt):
        warm.warm_up()
