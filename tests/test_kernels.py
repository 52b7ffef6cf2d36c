"""unbeatable.kernels: a build of compiled kernels is said at once (one line on stderr, a live
line in a terminal), nothing is said when numba's cache holds them, and a build that the
cache's files did not foresee is said at its first kernel.

Each case runs a small group of two real numba kernels (written to a temporary package) in a
fresh process with ``NUMBA_CACHE_DIR`` pointing at a temporary folder: empty (cold), then
filled by the first run (warm). The real groups (Connect Four, chess) are checked by what they
declare and, in a slow test, by a cold ``analyze connect4``.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from unbeatable import kernels
from unbeatable.kernels import KernelGroup, StderrNotice

KERNELS_PY = textwrap.dedent(
    """
    from numba import njit

    @njit(cache=True)
    def twice(x):
        return 2 * x

    @njit(cache=True)
    def add_twice(x, y):
        return twice(x) + y
    """
)

RUN = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from unbeatable import kernels

    here = Path(sys.argv[1])
    declared = int(sys.argv[3])
    group = kernels.KernelGroup("tiny", "the tiny kernels", here, ("tinyk.py",), 1, declared)
    sys.path.insert(0, str(here))
    if sys.argv[2] == "twice only":  # a partial cache: one kernel of the two
        kernels.watch(group)
        import tinyk
        assert tinyk.twice(2) == 4
        print(kernels.cached_kernels(group), True)
        raise SystemExit
    if sys.argv[2] == "building":
        with kernels.building(group):
            import tinyk
            assert tinyk.add_twice(2, 3) == 7
    elif sys.argv[2] == "nested":  # a warm-up around a first command's smaller load
        first = kernels.KernelGroup("tiny", "the tiny first kernel", here, ("tinyk.py",), 1, 1)
        with kernels.building(group):
            with kernels.building(first):
                import tinyk
                assert tinyk.twice(2) == 4
            assert tinyk.add_twice(2, 3) == 7
    else:
        kernels.watch(group)
        import tinyk
        assert tinyk.add_twice(2, 3) == 7
    print(kernels.cached_kernels(group), kernels.cache_dir(group) == Path(
        tinyk.add_twice._cache._cache_path))
    """
)


def _run(tmp_path: Path, how: str, declared: int = 2) -> tuple[str, str]:
    package = tmp_path / "tinypkg"
    package.mkdir(exist_ok=True)
    (package / "tinyk.py").write_text(KERNELS_PY)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run(
        [sys.executable, "-c", RUN, str(package), how, str(declared)],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout, done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("how", ["building", "watch"])
def test_a_cold_build_is_said_in_one_line_and_a_warm_load_says_nothing(
    tmp_path: Path, how: str
) -> None:
    out, err = _run(tmp_path, how)
    assert out == "2 True\n"  # both kernels cached, where kernels.cache_dir says numba keeps them
    assert err.startswith("building the tiny kernels once, about ")
    assert err.endswith(" s; later runs start at once\n") and err.count("\n") == 1
    out, err = _run(tmp_path, how)
    assert (out, err) == ("2 True\n", "")


@pytest.mark.slow
def test_a_build_the_files_did_not_foresee_is_said_at_its_first_kernel(tmp_path: Path) -> None:
    """A cache that holds one kernel of two (no complete load recorded) looks warm by its
    files; the other kernel's compile is heard, and said."""
    out, err = _run(tmp_path, "twice only")
    assert out == "1 True\n" and err.startswith("building the tiny kernels once")
    out, err = _run(tmp_path, "watch")
    assert out == "2 True\n"
    assert err.startswith("building the tiny kernels once") and err.count("\n") == 1
    assert _run(tmp_path, "watch")[1] == ""


@pytest.mark.slow
def test_a_load_inside_a_larger_one_is_said_with_the_larger_ones_figures(tmp_path: Path) -> None:
    """A warm-up (``group``) around a first command's load (``first``, a group of the same name
    and fewer kernels): one line, the warm-up's, cold or when only the inner load's kernels were
    cached (the rest heard at its first compile)."""
    (tmp_path / "cold").mkdir()
    (tmp_path / "partial").mkdir()
    out, err = _run(tmp_path / "cold", "nested")
    assert out == "2 True\n" and err.startswith("building the tiny kernels once")
    assert err.count("\n") == 1
    out, err = _run(tmp_path / "partial", "twice only")
    assert out == "1 True\n"
    out, err = _run(tmp_path / "partial", "nested")
    assert out == "2 True\n" and err.startswith("building the tiny kernels once")
    assert err.count("\n") == 1


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_live_line_counts_kernels_in_a_terminal_and_is_erased() -> None:
    group = KernelGroup("g", "the g kernels", Path("."), ("_x.py",), 10, 4)
    terminal = _Terminal()
    notice = StderrNotice(terminal)
    notice.started(group)
    notice.progress(group, 1, 0.5)
    notice.progress(group, 9, 2.0)  # more kernels than declared: shown as all
    notice.finished(group, 9, 2.5)
    text = terminal.getvalue()
    assert text.startswith("building the g kernels once, about ")
    assert "\r  [######..................] 1/4 kernels, 0.5 s\033[K" in text
    assert "\r  [########################] 4/4 kernels, 2.0 s\033[K" in text
    assert text.endswith("\r\033[K")
    pipe = io.StringIO()  # not a terminal: the one line only
    notice = StderrNotice(pipe)
    notice.started(group)
    notice.progress(group, 1, 0.5)
    notice.finished(group, 1, 0.5)
    assert pipe.getvalue().count("\n") == 1 and "\r" not in pipe.getvalue()


def test_the_estimate_grows_with_the_load() -> None:
    group = KernelGroup("g", "the g kernels", Path("."), ("_x.py",), 10, 4)
    assert group.estimate() >= 10
    assert f"about {group.estimate():.0f} s" in group.describe()


def test_cache_dir_follows_numba_cache_dir_and_the_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    group = KernelGroup("g", "the g kernels", tmp_path, ("_x.py",), 10, 4)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    assert kernels.cache_dir(group) == tmp_path / "__pycache__"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "c"))
    chosen = kernels.cache_dir(group)
    assert chosen.parent == tmp_path / "c" and chosen.name.startswith(tmp_path.name + "_")
    assert kernels.cached_kernels(group) == 0 and kernels.is_cold(group)
    chosen.mkdir(parents=True)
    for name in ("_x.f-1.py311.1.nbc", "_x.f-1.py311.nbi", "_y.g-1.py311.1.nbc"):
        (chosen / name).write_bytes(b"")
    assert kernels.cached_kernels(group) == 1  # only the group's own modules count
    assert not kernels.is_cold(group)  # some cached, no complete load recorded: warm
    (chosen / "unbeatable-g.kernels").write_text("2")  # a complete load left two
    assert kernels.is_cold(group)
    (chosen / "_x.g-9.py311.1.nbc").write_bytes(b"")
    assert not kernels.is_cold(group)
    kernels.remember(group)
    assert (chosen / "unbeatable-g.kernels").read_text() == "2"


def test_a_cache_of_other_sources_is_cold_before_it_is_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``unbeatable warm`` asks is_cold before the game's import drops a stale cache: a cache
    beside sources that changed since it was made is cold (it said "loaded from numba's
    cache" of a build)."""
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    (tmp_path / "_x.py").write_text("X = 1\n")
    group = KernelGroup("g", "the g kernels", tmp_path, ("_x.py",), 10, 1)
    cache = tmp_path / "__pycache__"
    assert kernels.is_stale(tmp_path, group.sources)  # no stamp: sources unknown
    assert kernels.drop_stale_cache(tmp_path, group.sources)
    assert not kernels.is_stale(tmp_path, group.sources)
    (cache / "_x.f-1.py311.1.nbc").write_bytes(b"")
    kernels.remember(group)
    assert not kernels.is_cold(group)
    (tmp_path / "_x.py").write_text("X = 2\n")  # the package changed (an upgrade, an edit)
    assert kernels.is_stale(tmp_path, group.sources) and kernels.is_cold(group)
    assert kernels.drop_stale_cache(tmp_path, group.sources)
    assert kernels.cached_kernels(group) == 0 and kernels.is_cold(group)
    # the count the old sources' complete load left goes with them: a partial load of the new
    # sources (one kernel of the two) is then warm at its next start, not cold at every start
    (cache / "unbeatable-g.kernels").write_text("2")
    (tmp_path / "_x.py").write_text("X = 3\n")
    assert kernels.drop_stale_cache(tmp_path, group.sources)
    assert not (cache / "unbeatable-g.kernels").exists()
    (cache / "_x.f-1.py311.1.nbc").write_bytes(b"")
    assert not kernels.is_cold(group)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "c"))  # not ours to look after
    assert not kernels.is_stale(tmp_path, group.sources)


def test_the_games_register_their_kernel_groups() -> None:
    from unbeatable.games.chess import _cache as chess_cache
    from unbeatable.games.connect4 import _cache, hooks

    found = kernels.groups()
    # Connect Four's warm-up builds more than a first command's load: its own figures
    assert found["connect4"] is hooks.WARM_KERNELS and found["chess"] is chess_cache.KERNELS
    assert hooks.KERNELS.sources == hooks.WARM_KERNELS.sources == _cache.KERNEL_SOURCES
    assert hooks.WARM_KERNELS.name == hooks.KERNELS.name
    assert hooks.WARM_KERNELS.kernels > hooks.KERNELS.kernels
    for group in found.values():
        assert all((group.directory / name).is_file() for name in group.sources)
        assert group.kernels > 0 and group.seconds > 0
    with pytest.raises(KeyError):
        kernels.warm("tictactoe")


@pytest.mark.slow
def test_a_cold_connect4_analysis_says_it_builds_the_solver(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real thing, with an empty cache: the line, then the analysis (about 11 s of CPU);
    the cold build writes at least the kernels the group declares, so the next run is warm and
    silent, with the same analysis."""
    from unbeatable.games.connect4.hooks import KERNELS

    script = Path(sys.executable).with_name("unbeatable")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert kernels.is_cold(KERNELS)
    command = [str(script), "analyze", "connect4", "4453"]
    cold = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert cold.returncode == 0, cold.stderr
    assert cold.stderr.startswith("building the Connect Four solver once, about ")
    assert cold.stderr.count("\n") == 1
    assert not kernels.is_cold(KERNELS)
    warm = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert (warm.returncode, warm.stderr) == (0, "")
    assert warm.stdout.splitlines()[:-1] == cold.stdout.splitlines()[:-1]  # all but the time


@pytest.mark.slow
def test_in_a_terminal_the_live_line_counts_the_real_kernels_and_is_erased(
    tmp_path: Path,
) -> None:
    import pty

    package = tmp_path / "tinypkg"
    package.mkdir()
    (package / "tinyk.py").write_text(KERNELS_PY)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    master, slave = pty.openpty()
    done = subprocess.run(
        [sys.executable, "-c", RUN, str(package), "building", "2"],
        stdout=subprocess.PIPE,
        stderr=slave,
        text=True,
        timeout=300,
        env=env,
    )
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the terminal's other end is closed: all read
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    shown = b"".join(chunks).decode()
    assert done.returncode == 0, shown
    assert shown.startswith("building the tiny kernels once")
    assert shown.endswith("\r\x1b[K")  # the live line erased before the command goes on
