"""Helpers the test modules share: the command line run in-process (``run``), the one line a
user error prints (``one_error_line``; ``error_line`` for an argument error, without its
prefix), random positions, what a cold build of a game's kernels compiles (``cold_compiles``),
and where Debian's Stockfish is (``STOCKFISH``)."""

from __future__ import annotations

import io
import json
import os
import random
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO

from unbeatable import State, cli, get_game

#: Debian's Stockfish (``apt-get install stockfish``, in ``/usr/games``; ``make test`` installs it
#: where it can), the chess tests' outside engine; None where it is not installed.
STOCKFISH = shutil.which("stockfish") or shutil.which("/usr/games/stockfish")


def run(
    *argv: str,
    stdin: str | IO[str] = "",
    stdout: IO[str] | None = None,
    stderr: IO[str] | None = None,
) -> tuple[int, str, str]:
    """``unbeatable ARGV`` run in this process: its exit code, what it wrote on stdout and on
    stderr. ``stdin`` is the text it reads (or a stream); ``stdout``/``stderr`` replace the
    captured streams (then their text is read back only if they are StringIO, else '')."""
    out = io.StringIO() if stdout is None else stdout
    err = io.StringIO() if stderr is None else stderr
    inp = io.StringIO(stdin) if isinstance(stdin, str) else stdin
    code = cli.main(list(argv), stdout=out, stderr=err, stdin=inp)
    return code, _text(out), _text(err)


def _text(stream: IO[str]) -> str:
    return stream.getvalue() if isinstance(stream, io.StringIO) else ""


def communicate_rest(job: subprocess.Popen[str], timeout: float) -> tuple[str, str]:
    """What ``job`` writes on its stdout and stderr (pipes, text) from now until it ends, once
    lines were read from them with ``readline``: ``job.communicate`` reads the pipes' file
    descriptors, not their file objects, so it would lose what ``readline`` had read ahead
    into the file object's buffer (an answer line that came in the same chunk as the first).
    Raises subprocess.TimeoutExpired when the job has not ended within ``timeout``."""
    assert job.stdout is not None and job.stderr is not None
    texts = {"out": "", "err": ""}

    def drain(name: str, stream: IO[str]) -> None:
        with stream:  # closed at its end, as communicate closes it
            texts[name] = stream.read()

    readers = [
        threading.Thread(target=drain, args=("out", job.stdout), daemon=True),
        threading.Thread(target=drain, args=("err", job.stderr), daemon=True),
    ]
    for reader in readers:
        reader.start()
    job.wait(timeout=timeout)
    for reader in readers:
        reader.join(timeout)
        if reader.is_alive():  # a process the job left behind holds the pipe open
            raise subprocess.TimeoutExpired(job.args, timeout)
    return texts["out"], texts["err"]


def one_error_line(err: str) -> str:
    """The one line of a user error (no traceback, starts with ``unbeatable``)."""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("unbeatable")
    return lines[0]


def error_line(err: str) -> str:
    """The one line of a user error on stderr, without ``unbeatable: error: ``; fails the test
    on a traceback or more than one line."""
    assert "Traceback" not in err, err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("unbeatable: error: "), err
    return lines[0].removeprefix("unbeatable: error: ")


def random_position(spec: str, plies: int, rng: random.Random | int) -> State:
    """The position after up to ``plies`` random moves from the start of ``spec`` (``rng``: a
    generator, or a seed for a new one), stopping short of a move that ends the game: never a
    finished position."""
    rng = random.Random(rng) if isinstance(rng, int) else rng
    state = get_game(spec).initial()
    for _ in range(plies):
        child = state.play(rng.choice(list(state.legal_moves())))
        if child.outcome() is not None:
            break
        state = child
    return state


_COLD_COMPILES = """
import json, sys
from numba.core import event
from unbeatable import kernels

module, warm, package = sys.argv[1:]
compiled = []

class Compiles(event.Listener):
    def on_start(self, ev):
        pass

    def on_end(self, ev):
        kernel = ev.data["dispatcher"].py_func
        if kernel.__module__.startswith(package):
            compiled.append(f"{kernel.__module__}.{kernel.__qualname__}")

event.register("numba:compile", Compiles())
loaded = __import__(module, fromlist=["KERNELS"])
getattr(__import__(warm.rsplit(".", 1)[0], fromlist=["_"]), warm.rsplit(".", 1)[1])()
print(json.dumps({"compiled": compiled, "cached": kernels.cached_kernels(loaded.KERNELS)}))
"""


def cold_compiles(
    group_module: str, warm: str, cache: Path, package: str = "", timeout: float = 900
) -> tuple[list[str], int]:
    """What loading a game's kernels compiles with an empty numba cache (``cache``), in a
    fresh process: every kernel compiled (``module.qualname``, in order, those of modules
    under ``package``), and how many kernels of the group (``group_module.KERNELS``) numba's
    cache holds after. ``warm``: the function that loads them (``module.function``)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    src = str(Path(__file__).resolve().parent.parent / "src")
    env["PYTHONPATH"] = os.pathsep.join([src, *filter(None, [env.get("PYTHONPATH")])])
    proc = subprocess.run(
        [sys.executable, "-c", _COLD_COMPILES, group_module, warm, package],
        env=env, capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    found = json.loads(proc.stdout.strip().splitlines()[-1])
    return found["compiled"], found["cached"]
