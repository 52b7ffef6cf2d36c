"""The README's promises: its custom-game example runs and says what it claims."""

from __future__ import annotations

import contextlib
import functools
import io
import re
import shlex
import subprocess
import sys
import types
from pathlib import Path
from typing import cast

import pytest

from tests.own_sources import PIG
from unbeatable import check_game
from unbeatable.search import search

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def code_block_after(heading: str) -> str:
    section = README.split(heading, 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match is not None
    return match.group(1)


def test_the_custom_game_example_solves_nim(tmp_path: Path) -> None:
    source = code_block_after("## Your own game, solved")
    assert 25 <= len(source.strip().splitlines()) <= 45
    assert "Save this as `mygame.py`" in README
    (tmp_path / "mygame.py").write_text(source, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "mygame.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "win in 6 ((0, 2),)"
    assert "(0, 2) win in 6" in lines
    # the nim-sum rule: the only winning move leaves heaps whose xor is 0
    module = types.ModuleType("readme_example")  # dataclasses look their module up
    sys.modules[module.__name__] = module
    namespace = module.__dict__
    try:
        exec(compile(source, "README.md", "exec"), namespace)  # not __main__: no search
        result = search(namespace["Nim"](), analyze=True)
        # the check the README asks users to run holds for its own example (which pickles
        # states, so while the example's module is there)
        assert check_game(namespace["Nim"](), games=10).positions > 10
    finally:
        del sys.modules[module.__name__]
    assert result.move_scores is not None
    for move, score in result.move_scores.items():
        heap, taken = cast(tuple[int, int], move)
        heaps = [3, 4, 5]
        heaps[heap] -= taken
        assert score.is_win == (heaps[0] ^ heaps[1] ^ heaps[2] == 0)


def test_the_readme_game_runs_from_the_command_line_as_a_user_runs_it(tmp_path: Path) -> None:
    """The README's file in a directory of its own, and the README's command run from there
    by the installed console script: it loads mygame:Nim and says win in 6."""
    (tmp_path / "mygame.py").write_text(code_block_after("## Your own game, solved"), "utf-8")
    shell = code_block_after_sh("Every command takes it as `module:attribute`")
    command = next(line for line in shell.splitlines() if line.startswith("unbeatable analyze"))
    argv = shlex.split(command.split("#")[0])
    script = Path(sys.executable).parent / "unbeatable"
    done = subprocess.run(
        [str(script), *argv[1:]], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "first player to move: win in 6" in done.stdout
    assert "best: (0, 2)" in done.stdout
    assert done.stderr == ""


def code_block_after_sh(heading: str) -> str:
    section = README.split(heading, 1)[1]
    match = re.search(r"```sh\n(.*?)```", section, re.S)
    assert match is not None
    return match.group(1)


def test_ci_runs_the_readme_test_command() -> None:
    assert "make test" in README.split("## Two commands", 1)[1].split("##", 1)[0]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert [
        line for line in ci.splitlines() if line and not line.startswith(("#", "set ", "cd "))
    ] == ["make test"]


def test_the_readme_shell_examples_need_nothing_outside_the_repository() -> None:
    shell = "\n".join(re.findall(r"```sh\n(.*?)```", README, re.S))
    assert "../" not in shell  # a clone of the project alone has no ../shared (issue 18, #8)


def test_the_readme_solve_example_checks_its_scores() -> None:
    from tests.helpers import run

    found = re.search(r"unbeatable solve connect4 <<'END'[^\n]*\n(.*?)\nEND\n", README, re.S)
    assert found is not None
    lines = found.group(1).splitlines()
    assert len(lines) >= 3 and all(len(line.split()) == 2 for line in lines)  # POSITION SCORE
    code, out, err = run("solve", "connect4", stdin=found.group(1) + "\n")
    assert (code, err) == (0, "") and out.splitlines() == lines


def test_the_minimax_family_example_steps_through_a_typed_tree() -> None:
    source = code_block_after("## Learn the minimax family")
    out = io.StringIO()
    namespace: dict[str, object] = {}
    with contextlib.redirect_stdout(out):
        exec(compile(source, "README.md", "exec"), namespace)
    lines = out.getvalue().splitlines()
    assert lines[0] == "Enter the root: MAX to move, α = -∞, β = +∞."
    assert lines[-1].startswith("The root is worth +6 (MAX gets 6); the search plays 2.")
    tree = namespace["tree"]
    assert str(tree._repr_svg_()).startswith("<svg")  # type: ignore[attr-defined]


def _dice21_by_hand() -> float:
    """The README's dice game solved by a recursion of its own rules (the first player's
    expected score: a win 1, a draw 0, a loss -1), not by the library."""

    @functools.cache
    def second(mine: int, theirs: int) -> float:  # the second rolls with ``theirs`` so far
        if theirs > 10:
            return 1.0
        stand = 0.0 if mine == theirs else 1.0 if mine > theirs else -1.0
        return min(stand, sum(second(mine, theirs + face) for face in range(1, 7)) / 6)

    @functools.cache
    def first(mine: int) -> float:
        if mine > 10:
            return -1.0
        return max(second(mine, 0), sum(first(mine + face) for face in range(1, 7)) / 6)

    return first(0)


def test_the_dice_game_example_runs_from_the_command_line_and_is_right(tmp_path: Path) -> None:
    """The README's dice game as a user saves it, checked by check_game, its value against a
    recursion of its rules, and the README's command's words as the console script prints
    them."""
    source = code_block_after("## Dice and more players")
    assert "Save this as `dice21.py`" in README
    (tmp_path / "dice21.py").write_text(source, encoding="utf-8")
    module = types.ModuleType("readme_dice21")
    sys.modules[module.__name__] = module
    try:
        exec(compile(source, "README.md", "exec"), module.__dict__)
        start = module.__dict__["Dice21"]()
        assert check_game(start, games=20).positions > 20
        result = search(start, analyze=True)
    finally:
        del sys.modules[module.__name__]
    assert result.score.meaning == "expected-score"
    assert abs(result.score.value - _dice21_by_hand()) < 1e-12
    said = re.search(r"`unbeatable analyze dice21:Dice21 \"\"` says `([^`]+)`", README)
    assert said is not None
    script = Path(sys.executable).parent / "unbeatable"
    done = subprocess.run(
        [str(script), "analyze", "dice21:Dice21", ""],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert f"first player to move: {said.group(1)}" in done.stdout
    assert "best: roll" in done.stdout


@pytest.mark.slow
def test_a_game_that_goes_round_in_circles_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    """Pig, as the README warns: a search to the end is refused in one line, and a time
    limit plays."""
    (tmp_path / "pig.py").write_text(PIG, encoding="utf-8")
    script = Path(sys.executable).parent / "unbeatable"

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(script), *args], cwd=tmp_path, capture_output=True, text=True, timeout=120
        )

    done = run("analyze", "pig:Pig", "")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "goes round in circles" in done.stderr and "depth or a time limit" in done.stderr
    done = run("analyze", "pig:Pig", "", "--depth", "4")
    assert done.returncode == 0, done.stderr
    assert "*roll" in done.stdout



def test_the_built_in_dice_and_party_example_prints_what_it_says() -> None:
    section = README.split("## Dice and more players", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    source = next(block for block in blocks if "bearoff" in block)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, "README.md", "exec"), {})
    said = [line.split("#", 1)[1].strip() for line in source.splitlines() if "print(" in line]
    printed = out.getvalue().splitlines()
    assert printed[0] == said[0]  # 81.02% to win (expected score +0.6205) star1
    assert said[1].startswith(printed[1] + ":")  # (0.0, 0.0, 0.0): max^n, a draw
