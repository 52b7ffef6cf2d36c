"""``unbeatable serve`` and ``unbeatable uci``: optional front ends, loaded only when asked for."""

from __future__ import annotations

import sys
import types

import pytest

from tests.helpers import one_error_line, run

MODULES = {"serve": ("unbeatable.web.server", "web"), "uci": ("unbeatable.uci", "chess")}


@pytest.mark.parametrize("command", sorted(MODULES))
def test_a_missing_front_end_is_one_line_naming_the_extra(
    command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    module, extra = MODULES[command]
    monkeypatch.setitem(sys.modules, module, None)  # importing it raises ImportError
    code, out, err = run(command, "--port", "8000", "x")
    assert code == 2 and out == ""
    assert one_error_line(err).startswith(
        f"unbeatable {command} needs the {extra} extra: pip install 'unbeatable[{extra}]'"
    )


@pytest.mark.parametrize("command", sorted(MODULES))
def test_every_argument_is_passed_on(command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    module, _ = MODULES[command]
    seen: list[list[str]] = []
    fake = types.ModuleType(module)

    def main(argv: list[str]) -> int:
        seen.append(argv)
        return 7

    fake.main = main  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module, fake)
    assert run(command, "--port", "8000", "x", "-v")[0] == 7
    assert run(command)[0] == 7
    assert run(command, "--", "--help")[0] == 7
    assert seen == [["--port", "8000", "x", "-v"], [], ["--help"]]


def test_help_of_the_front_ends_is_ours() -> None:
    for command, (_, extra) in MODULES.items():
        code, out, _ = run(command, "--help")
        assert code == 0 and f"unbeatable[{extra}]" in " ".join(out.split())
