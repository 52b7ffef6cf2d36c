"""The README's promises: its custom-game example runs and says what it claims."""

from __future__ import annotations

import contextlib
import io
import re
import sys
import types
from pathlib import Path

from unbeatable import check_game

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def code_block_after(heading: str) -> str:
    section = README.split(heading, 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match is not None
    return match.group(1)


def test_the_custom_game_example_solves_nim() -> None:
    source = code_block_after("## Your own game, solved")
    assert 25 <= len(source.strip().splitlines()) <= 45
    out = io.StringIO()
    module = types.ModuleType("readme_example")  # dataclasses look their module up
    sys.modules[module.__name__] = module
    namespace = module.__dict__
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(source, "README.md", "exec"), namespace)
        # the check the README asks users to run holds for its own example (which pickles
        # states, so while the example's module is there)
        assert check_game(namespace["Nim"](), games=10).positions > 10
    finally:
        del sys.modules[module.__name__]
    lines = out.getvalue().splitlines()
    assert lines[0] == "win in 6 ((0, 2),)"
    assert "(0, 2) win in 6" in lines
    # the nim-sum rule: the only winning move leaves heaps whose xor is 0
    result = namespace["result"]
    for (heap, taken), score in result.move_scores.items():
        heaps = [3, 4, 5]
        heaps[heap] -= taken
        assert score.is_win == (heaps[0] ^ heaps[1] ^ heaps[2] == 0)


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
