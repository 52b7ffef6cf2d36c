"""Ctrl-C from the first instant: a real ``unbeatable`` process (and the UCI engine waiting for its
commands, as ``python -m unbeatable.uci`` and as ``unbeatable uci``), sent a real SIGINT at a
random moment of its first half second (while Python starts, while our modules import, while the
command runs), ends with exit code 130 and one line, never a traceback.

Python's own start-up (``site``, the ``.pth`` files of the environment) runs before any of our
code and cannot be guarded: a SIGINT that lands there kills the process before Python installs
its handler (signal 2, nothing said) or raises inside a frozen module. Such a run is told apart
by its traceback naming no file of ours, and counted aside; every run that reached our code
must end quietly, and most runs must reach it (else the test would prove nothing).

Also here: a process that has loaded MPI (mpi4py, which initialises MPI on import) and numba's
threading layer, and has run a threaded kernel and the Connect Four solver, still stops on
Ctrl-C; and a process started with SIGINT ignored (a background job of a shell script, and
every process it starts) keeps it ignored, as the shell asked.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from unbeatable.web.server import stop

SCRIPT = Path(sys.executable).with_name("unbeatable")
#: a frame of one of our files in a traceback (the script in .venv/bin is not a directory)
OURS = re.compile(r'File "[^"]*unbeatable[/\\]')


def _interrupt(command: list[str], delay: float) -> tuple[int, str]:
    # the UCI engine reads its commands until the end of its input: an open pipe keeps it going
    uci = command[-1] in ("unbeatable.uci", "uci")
    process = subprocess.Popen(
        command,
        stdin=subprocess.PIPE if uci else subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    time.sleep(delay)
    err = stop(process, 120)  # SIGINT; killed after 120 s, not left running into the next tests
    if process.returncode == -signal.SIGKILL:
        pytest.fail(f"{' '.join(command[1:])}: still running 120 s after Ctrl-C at {delay:.3f} s")
    return process.returncode, err


#: the one line said when compiled kernels must be built (``unbeatable.kernels``): not an answer
#: to Ctrl-C, and said only on a cold cache (the engine builds the chess core as it starts)
NOTICE = re.compile(r"building .* once, about \d+ s; later runs start at once\n")


def _classify(code: int, err: str) -> str:
    err = NOTICE.sub("", err)
    if code == 130 and err.count("\n") == 1 and err.endswith("\n") and "Traceback" not in err:
        return "quiet"  # "interrupted", or the command's own word on what it had
    if (code == -signal.SIGINT and not err) or ("Traceback" in err and not OURS.search(err)):
        return "before our code"  # Python's own start-up
    return "loud"


def _runs(count: int, rng: random.Random) -> None:
    if not SCRIPT.exists():
        pytest.skip(f"no console script beside {sys.executable}")
    commands = [
        [str(SCRIPT), "analyze", "connect4", "4453"],
        [sys.executable, "-m", "unbeatable.uci"],
        [str(SCRIPT), "analyze", "mnk:4,4,4"],
        [str(SCRIPT), "uci"],
        [sys.executable, "-m", "unbeatable", "analyze", "connect4", "4453"],
        # Python imports unbeatable.games (every game) before this module's first line
        [sys.executable, "-m", "unbeatable.games.connect4"],
    ]
    seen: dict[str, list[tuple[float, str]]] = {"quiet": [], "before our code": [], "loud": []}
    for index in range(count):
        command = commands[index % len(commands)]
        delay = rng.uniform(0.02, 0.5)
        code, err = _interrupt(command, delay)
        seen[_classify(code, err)].append((delay, f"{' '.join(command[1:])}: {code} {err!r}"))
    assert not seen["loud"], seen["loud"]
    assert len(seen["quiet"]) >= count // 2, seen


@pytest.mark.slow
def test_ctrl_c_in_the_first_half_second_is_one_line_and_130() -> None:
    _runs(10, random.Random(24))


@pytest.mark.slow
def test_ctrl_c_at_many_random_moments_is_one_line_and_130() -> None:
    _runs(45, random.Random())


def test_ctrl_c_inside_an_import_or_a_build_ends_at_once_elsewhere_it_is_raised(
    tmp_path: Path,
) -> None:
    """While a command runs, Ctrl-C is a KeyboardInterrupt for it to handle; but one that lands
    in Python's import machinery (a module imported by the command, a module lock's callback)
    or in numba's or llvmlite's code (a kernel's build, a callback from the compiler) cannot be
    raised there safely: Python swallowed it in a weak-reference callback (a ``python -m
    unbeatable.games.connect4`` went on, once to exit 0 and once to hang) and in a ctypes
    callback (a cold chess match failed with numba's traceback). The process ends at once, one
    line and 130. Here the handler runs from a module's first line while it is imported (the
    frames a real import has), and from a function in a file of a folder named ``llvmlite``."""
    from unbeatable.__main__ import _hear

    said: list[int] = []
    with pytest.raises(KeyboardInterrupt):
        _hear(said, sys._getframe())
    assert said == [signal.SIGINT]
    hear = "import sys\nfrom unbeatable.__main__ import _hear\n"
    (tmp_path / "imported_now.py").write_text(hear + "_hear([], sys._getframe())\n")
    callback = tmp_path / "llvmlite" / "callback.py"
    callback.parent.mkdir()
    callback.write_text(hear + "def notify():\n    _hear([], sys._getframe())\n")
    for code in (
        "import imported_now",
        f"import runpy; runpy.run_path({str(callback)!r})['notify']()",
    ):
        done = subprocess.run(
            [sys.executable, "-c", code + "; print('went on')"],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=tmp_path,
        )
        assert (done.returncode, done.stdout, done.stderr) == (130, "", "interrupted\n"), code


def test_classify_tells_our_tracebacks_from_pythons_start_up() -> None:
    ours = 'Traceback (most recent call last):\n  File "/x/src/unbeatable/cli/__init__.py"'
    assert _classify(1, ours + "\nKeyboardInterrupt\n") == "loud"
    assert _classify(130, "interrupted\n") == "quiet"
    assert _classify(130, "interrupted\ninterrupted\n") == "loud"
    assert _classify(130, "unbeatable: interrupted before any move's value was known\n") == "quiet"
    assert _classify(0, "") == "loud"  # not stopped: every command here runs past 0.5 s
    script = 'Traceback (most recent call last):\n  File "/x/.venv/bin/unbeatable", line 3'
    assert _classify(1, script + "\nKeyboardInterrupt\n") == "before our code"
    assert _classify(-signal.SIGINT, "") == "before our code"
    notice = "building the chess engine once, about 9 s; later runs start at once\n"
    assert _classify(130, notice + "interrupted\n") == "quiet"
    assert _classify(130, notice + "interrupted\ninterrupted\n") == "loud"


def test_python_dash_m_names_the_module_it_runs() -> None:
    from unbeatable import _module_run as module_run

    assert module_run(["python", "-m", "unbeatable.uci"]) == "unbeatable.uci"
    assert module_run(["python", "-X", "importtime", "-munbeatable.web", "--port", "0"]) == (
        "unbeatable.web"
    )
    assert module_run(["python", "-u", "-m", "mpi4py.futures", "-m", "unbeatable"]) == (
        "mpi4py.futures"
    )
    assert module_run(["python", "script.py", "-m", "unbeatable"]) is None
    assert module_run(["python", "-c", "pass"]) is None
    assert module_run(["python", "-m"]) is None
    assert module_run([]) is None


_EARLY = textwrap.dedent(
    """
    import signal, sys
    sys.argv[0] = "-m"  # as while Python looks for the module of python -m
    sys.orig_argv = [sys.executable, "-m", sys.argv[1]]
    before = signal.getsignal(signal.SIGINT)
    import unbeatable
    handler = signal.getsignal(signal.SIGINT)
    print(before is signal.default_int_handler, getattr(handler, "__module__", handler))
    """
)


@pytest.mark.parametrize(
    ("module", "expected"),
    [
        ("unbeatable.games.connect4", "True unbeatable"),
        ("unbeatable", "True unbeatable"),
        ("mpi4py.futures", "True _signal"),  # another program's -m: Python's own handler kept
    ],
)
def test_python_dash_m_unbeatable_hears_ctrl_c_while_its_packages_import(
    module: str, expected: str
) -> None:
    """``python -m unbeatable.games.connect4`` imports ``unbeatable``, then ``unbeatable.games``
    (every game) before the module's first line hands over to ``guarded``: the package's first
    lines make Ctrl-C end it at once in that window (the random-moment test above sends it)."""
    done = subprocess.run(
        [sys.executable, "-c", _EARLY, module],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert done.stdout.strip() == expected, done.stderr


_LOADED = textwrap.dedent(
    """
    import os, signal, sys, time
    from mpi4py import MPI                     # initialises MPI (MPICH here)
    assert MPI.Is_initialized()
    import numba
    from numba import njit, prange

    @njit(parallel=True)
    def total(n):
        s = 0.0
        for i in prange(n):
            s += i
        return s

    total(100_000)                            # numba's threading layer, started
    from unbeatable import get_game, search
    state = get_game("connect4").parse_position("4453")
    search(state, analyze=True)               # the solver's kernels on their threads
    try:  # before the line that tells the test to send SIGINT
        print(numba.threading_layer(), flush=True)
        while True:
            time.sleep(0.01)
    except KeyboardInterrupt:
        print("heard", flush=True)
        sys.exit(130)
    """
)


@pytest.mark.slow
def test_a_process_that_loaded_mpi_and_numba_still_stops_on_ctrl_c() -> None:
    pytest.importorskip("mpi4py")
    process = subprocess.Popen(
        [sys.executable, "-c", _LOADED],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert process.stdout is not None
    layer = process.stdout.readline().strip()
    assert layer in {"omp", "tbb", "workqueue"}, process.communicate(timeout=60)
    status = Path(f"/proc/{process.pid}/status")
    if status.exists():  # the kernel's own view: SIGINT neither ignored nor blocked everywhere
        fields = dict(line.split(":\t", 1) for line in status.read_text().splitlines())
        assert not int(fields["SigIgn"], 16) & 1 << (signal.SIGINT - 1)
        assert int(fields["SigCgt"], 16) & 1 << (signal.SIGINT - 1)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert (process.returncode, out) == (130, "heard\n"), err


def test_a_process_started_with_ctrl_c_ignored_keeps_it_ignored() -> None:
    """What a shell script does to its background jobs (``command &``): SIGINT ignored,
    inherited by every process they start. Such a process never hears Ctrl-C, by design;
    the test suite's own processes set it back (tests/conftest.py)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "unbeatable", "solve", "tictactoe"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    time.sleep(0.3)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate("5193\n", timeout=60)
    assert (process.returncode, out, err) == (0, "5193 0\n", "")


def test_the_shell_ignores_ctrl_c_in_its_background_jobs() -> None:
    """The cause of processes that "ignored SIGINT" in earlier test runs started in the
    background: the disposition is inherited, and Python keeps it."""
    probe = f"{sys.executable} -c 'import signal; print(signal.getsignal(signal.SIGINT))'"
    done = subprocess.run(
        ["sh", "-c", f"{probe} & wait"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert done.stdout.strip() == str(int(signal.SIG_IGN))


def test_ctrl_c_that_a_c_extensions_import_turns_into_import_error_is_one_line_and_130(
    tmp_path: Path,
) -> None:
    """Ctrl-C while ``main`` imports a C extension (numpy, as a command loads its game) comes
    out as that module's ImportError (seen: "PyCapsule_Import could not import module
    "datetime"", a traceback and exit code 1 from ``python -m unbeatable.uci`` at 0.46 s):
    the entry point ends it as Ctrl-C. An ImportError without Ctrl-C is still raised."""
    (tmp_path / "importer.py").write_text(
        textwrap.dedent(
            """
            import os, signal, sys, time

            def main():
                if sys.argv[1:] == ["plain"]:
                    raise ImportError("no module named 'nothing'")
                try:  # as numpy's C code does with the KeyboardInterrupt of an import
                    os.kill(os.getpid(), signal.SIGINT)
                    time.sleep(5)
                except KeyboardInterrupt:
                    raise ImportError('PyCapsule_Import could not import module "datetime"')
                return 0
            """
        )
    )
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    code = "import sys; from unbeatable.__main__ import guarded; guarded('importer')"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environment,
        timeout=60, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (130, "interrupted\n")
    plain = subprocess.run(
        [sys.executable, "-c", code, "plain"], capture_output=True, text=True, env=environment,
        timeout=60, check=False,
    )  # fmt: skip
    assert plain.returncode == 1 and "ImportError: no module named 'nothing'" in plain.stderr
