"""Ctrl-C by the hundred: real ``unbeatable`` processes, each sent SIGINT at a random moment,
each outcome sorted. Not a test (minutes, and what it finds depends on the machine's timing);
the suite's ``tests/test_ctrl_c_start.py`` sends a few dozen within the first half second.

Usage: ``python benchmarks/ctrl_c.py [--runs 300] [--seed 1] [--max-delay 1.0] [--cold]
[--command "match --game connect4 -n 50 perfect random" ...]``.
Protocol: the commands (default: :data:`COMMANDS`) are run in turn, one at a time, with
standard input and output closed and SIGINT at its default in the child; each gets SIGINT
after a delay drawn uniformly from 0.02 s to ``--max-delay`` (seeded). ``--cold`` gives each
run an empty ``NUMBA_CACHE_DIR`` of its own, so that the signal lands while the compiled
kernels build (use a longer ``--max-delay``, about 15 s). Outcomes:

* ``quiet``: exit code 130 and one line on stderr (the build's notice aside), as asked of every
  command;
* ``finished``: the process had ended before the signal was sent (a command quicker than the
  delay);
* ``python``: killed by the signal with nothing said, or a traceback naming no file of ours:
  Python's own start-up or shutdown, where no handler of ours can run;
* ``loud``: anything else (exit code 0 after Ctrl-C: the interrupt was heard and lost; a
  traceback; a process still running ``--patience`` seconds after it, killed).

Prints every run that was not ``quiet`` or ``finished``, then the counts; exits 1 if any run
was ``loud``. Found this way on 2026-12-04 (before the fixes of that day): a module lock's
callback and llvmlite's callback swallowing the KeyboardInterrupt (one hang, numba's
traceback), the chess warm-up's search and Connect Four's line dropping it (matches played on).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from unbeatable.web.server import stop

SCRIPT = Path(sys.executable).with_name("unbeatable")

#: commands that run past a second on a warm cache, each through the console script
COMMANDS = (
    "analyze connect4 4453",
    "analyze mnk:4,4,4",
    "analyze chess --time 3",
    "uci",
    "bench",
    "match --game connect4 -n 50 perfect random",
    "match --game chess -n 3 time:0.3 time:0.3",
)

NOTICE = re.compile(r"building .* once, about \d+ s; later runs start at once\n")
OURS = re.compile(r'File "[^"]*unbeatable[/\\]')


def outcome(code: int, err: str, finished: bool) -> str:
    """The outcome's name (see the module's docstring)."""
    err = NOTICE.sub("", err)
    if finished:
        return "finished"
    if code == 130 and err.count("\n") == 1 and err.endswith("\n") and "Traceback" not in err:
        return "quiet"
    if (code == -signal.SIGINT and not err) or ("Traceback" in err and not OURS.search(err)):
        return "python"
    return "loud"


def run_once(
    words: list[str], delay: float, patience: float, env: dict[str, str]
) -> tuple[int, str, bool]:
    """One run: the exit code (-9: killed after ``patience``), stderr, and whether the
    process had ended before the signal."""
    uci = words[:1] == ["uci"]  # the engine reads its commands until its input closes
    process = subprocess.Popen(
        [str(SCRIPT), *words],
        stdin=subprocess.PIPE if uci else subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    time.sleep(delay)
    finished = process.poll() is not None
    err = stop(process, patience)  # SIGINT, and SIGKILL after ``patience``
    if process.returncode == -signal.SIGKILL:
        err += f"[still running {patience:g} s after Ctrl-C: killed]\n"
    return process.returncode, err, finished


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-delay", type=float, default=1.0, metavar="SECONDS")
    parser.add_argument("--patience", type=float, default=120.0, metavar="SECONDS")
    parser.add_argument("--cold", action="store_true", help="an empty kernel cache each run")
    parser.add_argument("--command", action="append", help="a command line (repeatable)")
    args = parser.parse_args(argv)
    if not SCRIPT.exists():
        parser.error(f"no console script beside {sys.executable}: install the package first")
    if args.runs < 1 or not args.max_delay >= 0.02:  # (not: NaN too)
        parser.error("--runs must be at least 1 and --max-delay at least 0.02")
    commands = [shlex.split(c) for c in (args.command or COMMANDS)]
    rng = random.Random(args.seed)
    counts: Counter[str] = Counter()
    print(
        f"{args.runs} runs of {len(commands)} command(s), delays 0.02-{args.max_delay:g} s, "
        f"seed {args.seed}, {'cold' if args.cold else 'warm'} kernel cache",
        flush=True,
    )
    with tempfile.TemporaryDirectory(prefix="ctrl-c-") as scratch:
        for index in range(args.runs):
            words = commands[index % len(commands)]
            delay = rng.uniform(0.02, args.max_delay)
            env = dict(os.environ)
            if args.cold:
                env["NUMBA_CACHE_DIR"] = os.path.join(scratch, f"cache-{index}")
            code, err, finished = run_once(words, delay, args.patience, env)
            if args.cold:
                shutil.rmtree(env["NUMBA_CACHE_DIR"], ignore_errors=True)
            kind = outcome(code, err, finished)
            counts[kind] += 1
            if kind not in ("quiet", "finished"):
                print(f"{kind}: {' '.join(words)} at {delay:.3f} s: {code} {err[-300:]!r}")
                sys.stdout.flush()
    print(", ".join(f"{kind} {counts[kind]}" for kind in ("quiet", "finished", "python", "loud")))
    return 1 if counts["loud"] else 0


if __name__ == "__main__":
    sys.exit(main())
