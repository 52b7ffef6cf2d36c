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


@pytest.mark.parametrize("hears", [True, False])
def test_a_front_end_deaf_to_ctrl_c_ends_at_once_while_it_runs(
    hears: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``unbeatable uci`` ends at once on Ctrl-C (``HEARS_CTRL_C = False``), as ``python -m
    unbeatable.uci`` does; the handler before it is back once it returns, and a front end that
    hears Ctrl-C keeps Python's."""
    import signal

    from unbeatable import _stop

    during: list[object] = []
    fake = types.ModuleType("unbeatable.uci")
    fake.HEARS_CTRL_C = hears  # type: ignore[attr-defined]

    def main(argv: list[str]) -> int:
        during.append(signal.getsignal(signal.SIGINT))
        return 0

    fake.main = main  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "unbeatable.uci", fake)
    before = signal.getsignal(signal.SIGINT)
    assert run("uci")[0] == 0
    assert during == [before if hears else _stop]
    assert signal.getsignal(signal.SIGINT) is before
