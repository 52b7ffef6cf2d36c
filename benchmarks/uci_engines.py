"""What the chess benchmarks share: a UCI engine process under a name (ours from this checkout),
restarted after a crash, and the machine's load averages.

The benchmarks run as scripts (``python benchmarks/chess_match.py``): this folder is then first
on ``sys.path``, and they import this module by its bare name (mypy finds it the same way: the
folder is on its ``mypy_path``)."""

from __future__ import annotations

import concurrent.futures
import os
import sys
from pathlib import Path

import chess.engine

ROOT = Path(__file__).resolve().parents[1]
#: Our engine: this interpreter running this checkout's ``unbeatable.uci``.
OURS = [sys.executable, "-m", "unbeatable.uci"]


#: Seconds an engine may take to answer its first ``isready``.
READY_TIMEOUT = 600.0


class Engine:
    """An engine process (``command``) under a name, with UCI ``options`` set at each start,
    restarted after a crash."""

    def __init__(
        self, name: str, command: list[str], options: dict[str, str] | None = None
    ) -> None:
        self.name = name
        self.command = command
        self.options = options or {}
        self.engine = self._start()

    def _start(self) -> chess.engine.SimpleEngine:
        env = dict(os.environ)
        if self.command == OURS:  # this checkout's source first
            env["PYTHONPATH"] = os.pathsep.join(
                [str(ROOT / "src")] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])
            )
        engine = chess.engine.SimpleEngine.popen_uci(self.command, timeout=30, env=env)
        for name, value in self.options.items():
            option = engine.options.get(name)
            if option is None:
                raise SystemExit(f"{self.command[0]}: no UCI option {name!r}")
            engine.configure({name: option.parse(value)})
        # `isready` before any clock runs: an engine may build its kernels first (ours compiles
        # them once, up to a minute on a loaded machine), and a GUI asks the same
        engine.timeout, patience = READY_TIMEOUT, engine.timeout
        engine.ping()
        engine.timeout = patience
        return engine

    def restart(self) -> None:
        try:
            self.engine.quit()
        except (chess.engine.EngineError, concurrent.futures.TimeoutError, OSError):
            self.engine.close()
        self.engine = self._start()

    def close(self) -> None:
        self.engine.quit()


def load() -> str:
    """The machine's load averages over 1, 5 and 15 minutes (the machine may be shared)."""
    try:
        return " ".join(f"{value:.2f}" for value in os.getloadavg())
    except OSError:
        return "unknown"
