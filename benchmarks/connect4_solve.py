"""Benchmark of the exact Connect Four solver on Pascal Pons' six test sets.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/connect4_solve.py                 # all six sets
    PYTHONPATH=src python benchmarks/connect4_solve.py Test_L2_R2 --sample 1000 --weak
    PYTHONPATH=src python benchmarks/connect4_solve.py --empty         # also the empty board

For each set the first N lines are solved by one batch call (``Solver.solve_many``,
in chunks so that progress can be shown on stderr); the time includes turning
the move strings into arrays.  A fresh solver (empty transposition table) is made
for each set (and each ``--repeat`` pass) and the table is kept between the
positions of a set unless ``--reset-each``.  Both wall-clock and process CPU
time are shown: the machine is shared, and CPU time is less hurt by other
processes.  The reference figures are Pons' C++ solver (no opening book)
measured on this machine, per position, strong mode.

``--pons`` is Pons' protocol: the table cleared before each position (for us a generation
step inside the batch call, nanoseconds; the real zeroing needed once in 255 clears is done
between batches, untimed, as Pons' own clearing is), only the solving timed.
``--peer bitbully`` runs BitBully (AGPL, measured only; no opening book) on the same
positions in the same run, with the same protocol (its table cleared before each position
under ``--pons``), timing each solve call.  Our solver runs without its database unless ``--book``.

``--pons-binary PATH`` also runs a built copy of Pascal Pons' solver (its ``c4solver``;
https://github.com/PascalPons/connect4, AGPL; measured only, never part of this repository:
build it outside it with its own ``make``) on each set's same lines in the same run: one
process reads them on stdin (``-w`` with ``--weak``) in a scratch folder without its opening
book and answers each line with its score as soon as it has it. Its start-up (about 60 ms here:
it allocates its table) is longer than a whole set of the shortest positions (Test_L3_R1's 1,000
lines take under 10 ms of it), so it is left out: the first line is written and its answer
awaited untimed, then the other lines are written and the clock runs from there to the last
answer (the process's CPU in that span from ``/proc/<pid>/schedstat``); its row is that time
over the lines timed (all but the first), the best of ``--peer-runs`` processes (default 3), and
its scores are checked against the set's. ``ratio`` in its row is ours over it, same run. What
it does between positions is its own: its blog's protocol clears its table before each, but the
process does not (a set given twice ran 8 times faster the second time, on Test_L2_R1), so its
later lines may find what earlier ones stored; ours, under ``--pons``, clears before each.

``--peer-binary PATH`` (with ``--empty``) also runs a built copy of Christophe Steininger's
solver (https://github.com/ChristopheSteininger/c4, AGPL; measured only, never part of this
repository: build it outside it with its own CMake preset, its thread count and table size set
in its ``settings.h`` as its README says). Its ``c4`` program solves the empty 7 x 6 board from
scratch (strong, no book) and exits; the benchmark times the whole process (wall clock) and
prints what it reports (board, table memory, threads, score, nodes) beside our own solve of the
empty board in the same run (``--threads N``, the same ``--table-mb``, no database), and the
ratio of the two times. Give it the same table memory and thread count as ours. As it ships,
our solver orders the empty board's probes from the board's published score (the score is still
proven); ``--no-guess`` withholds it, so that ours, like the peer, is told nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import select
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import IO

SETS = ["Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3"]
DEFAULT_SAMPLE = 100
DEFAULT_SAMPLE_L1_R3 = 10

# Pons' C++ solver on this machine: mean seconds and nodes per position (strong mode).
# Test_L1_R3: measured on its first 200 lines.
REFERENCE = {
    "Test_L3_R1": (4.6e-6, 51),
    "Test_L2_R1": (41e-6, 450),
    "Test_L2_R2": (3.8e-3, 40_000),
    "Test_L1_R1": (0.28e-3, 3_300),
    "Test_L1_R2": (102e-3, 1_200_000),
    "Test_L1_R3": (5.1, 55_000_000),
}


def default_data_dir() -> Path:
    env = os.environ.get("UNBEATABLE_C4_DATA")
    if env:
        return Path(env)
    repo = Path(__file__).resolve().parents[1]
    beside = repo.parent / "shared" / "benchmarks" / "connect4"
    return beside if beside.is_dir() else Path("/work/shared/benchmarks/connect4")


def fmt_time(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.3f} s"


def bitbully_set(
    moves: list[str], expected: list[int], weak: bool, reset_each: bool
) -> tuple[float, float, int, int] | None:
    """BitBully (no opening book) on the same positions: its solve time summed, wall and CPU
    (the board is built and, with ``reset_each``, the table cleared outside the timed part),
    its nodes, and its mismatches; None if BitBully is not installed."""
    try:
        from bitbully import BitBully, Board
    except ImportError:
        print("BitBully not installed (pip install bitbully): peer skipped", file=sys.stderr)
        return None
    agent = BitBully(None)
    total = cpu = 0.0
    nodes = 0
    bad = 0
    for m, exp in zip(moves, expected, strict=True):
        board = Board("".join(str(int(c) - 1) for c in m))
        if reset_each:
            agent.reset_transposition_table()
        agent.reset_node_counter()
        c0 = time.process_time()
        t0 = time.perf_counter()
        got = agent.null_window(board) if weak else agent.mtdf(board)
        total += time.perf_counter() - t0
        cpu += time.process_time() - c0
        nodes += agent.get_node_counter()
        if weak:
            got = (got > 0) - (got < 0)
        bad += got != exp
    return total, cpu, nodes, bad


def bitbully_empty(weak: bool) -> None:
    """BitBully (no opening book, one thread) on the empty board."""
    try:
        from bitbully import BitBully, Board
    except ImportError:
        print("BitBully not installed (pip install bitbully): peer skipped", file=sys.stderr)
        return
    agent = BitBully(None)
    t0 = time.perf_counter()
    score = agent.null_window(Board()) if weak else agent.mtdf(Board())
    dt = time.perf_counter() - t0
    print(
        f"BitBully empty board ({'weak' if weak else 'strong'}): score {score}, {dt:.1f} s wall, "
        f"{agent.get_node_counter():,} nodes",
        flush=True,
    )


class PeerRun:
    """What a run of a peer solver's binary reported, and how long it took."""

    def __init__(self, wall: float, cpu: float, output: str) -> None:
        self.wall = wall
        self.cpu = cpu
        self.output = output

    def field(self, pattern: str) -> str | None:
        """The first group of the last match of ``pattern`` in the output, or None."""
        found = re.findall(pattern, self.output)
        return str(found[-1]) if found else None

    def summary(self) -> str:
        setup = self.field(r"Using (a .*? threads)")
        score = self.field(r"Final strong score is (-?\d+)") or self.field(r"Score is (-?\d+)")
        nodes = self.field(r"Total\s*=\s*(\d+)")
        own = self.field(r"Time to solve\s*=\s*([\d.]+ s)")
        parts = [
            f"{self.wall:.1f} s wall (its own count {own})" if own else f"{self.wall:.1f} s wall"
        ]
        parts.append(f"{self.cpu:.1f} s CPU")
        if score is not None:
            parts.insert(0, f"score {score}")
        if nodes is not None:
            parts.append(f"{int(nodes):,} nodes")
        return ", ".join(parts) + (f" ({setup})" if setup else "")


def run_binary(
    command: list[str], text: str, timeout: float, label: str, scratch_prefix: str
) -> PeerRun | None:
    """Run a peer's binary in a scratch folder with ``text`` on its stdin, timing the whole
    process (wall clock, and its CPU); None (and why, on stderr, after ``label``) if it could
    not run."""
    with tempfile.TemporaryDirectory(prefix=scratch_prefix) as scratch:
        before = os.times()
        t0 = time.perf_counter()
        try:
            done = subprocess.run(
                command, cwd=scratch, input=text, capture_output=True, text=True,
                timeout=timeout, check=False,
            )  # fmt: skip
        except (OSError, subprocess.TimeoutExpired) as exc:
            print(f"{label}: {exc}", file=sys.stderr)
            return None
        wall = time.perf_counter() - t0
        after = os.times()
    if done.returncode != 0:
        print(f"{label}: exit status {done.returncode}", file=sys.stderr)
        return None
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return PeerRun(wall, cpu, done.stdout)


def run_peer_binary(path: Path, timeout: float) -> PeerRun | None:
    """Run a peer's solver binary (it solves the empty board and exits) in a scratch folder,
    timing the whole process; None (and why, on stderr) if it could not run."""
    return run_binary([str(path)], "\n", timeout, f"peer binary {path}", "c4-peer-")


def stream_binary(
    command: list[str], lines: list[str], timeout: float, label: str
) -> tuple[float, float, list[str]] | None:
    """Run a line-by-line solver (one answer line to each line read, each written as it is
    found) in a scratch folder, timing only its solves after the first: the first line is
    written and its answer awaited (start-up and the first solve untimed), then the others are
    written and the clock runs until the last answer arrives. The wall seconds, the process's
    CPU seconds in that span (``/proc/<pid>/schedstat``; the wall seconds where there is no
    such file), and every answer line; None (and why, on stderr, after ``label``) if it could
    not run or did not answer every line in ``timeout`` seconds."""
    with tempfile.TemporaryDirectory(prefix="c4-pons-") as scratch:
        try:
            proc = subprocess.Popen(
                command, cwd=scratch, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )  # fmt: skip
        except OSError as exc:
            print(f"{label}: {exc}", file=sys.stderr)
            return None
        assert proc.stdin is not None and proc.stdout is not None
        out = proc.stdout.fileno()
        received = bytearray()
        deadline = time.perf_counter() + timeout

        def read_answers(count: int) -> bool:
            """Read until ``count`` answer lines arrived in all (False: it ended or timed out)."""
            while received.count(b"\n") < count:
                if time.perf_counter() > deadline:
                    return False
                ready, _, _ = select.select([out], [], [], 1.0)
                if ready:
                    chunk = os.read(out, 1 << 16)
                    if not chunk:
                        return False
                    received.extend(chunk)
            return True

        def cpu_ns() -> int | None:
            try:
                with open(f"/proc/{proc.pid}/schedstat") as f:
                    return int(f.read().split()[0])
            except (OSError, ValueError, IndexError):
                return None

        rest = "".join(line + "\n" for line in lines[1:]).encode()
        writer = threading.Thread(target=_write_all, args=(proc.stdin, rest), daemon=True)
        try:
            proc.stdin.write((lines[0] + "\n").encode())
            proc.stdin.flush()
            answered = read_answers(1)
            if answered:
                c0 = cpu_ns()
                t0 = time.perf_counter()
                writer.start()
                answered = read_answers(len(lines))
                wall = time.perf_counter() - t0
                c1 = cpu_ns()
        except OSError as exc:
            print(f"{label}: {exc}", file=sys.stderr)
            answered = False
        finally:
            if writer.ident is not None:
                writer.join(timeout=max(deadline - time.perf_counter(), 0.0))
            proc.kill()
            proc.wait()
    if not answered:
        print(f"{label}: did not answer every line", file=sys.stderr)
        return None
    cpu = wall if c0 is None or c1 is None else (c1 - c0) / 1e9
    return wall, cpu, received.decode().splitlines()


def _write_all(pipe: IO[bytes], data: bytes) -> None:
    """Write ``data`` to ``pipe`` and close it (a thread's work, so that the answers are read
    while the lines are written, and neither pipe fills up and blocks the other side)."""
    with contextlib.suppress(OSError):
        pipe.write(data)
        pipe.close()


def pons_set(
    path: Path, moves: list[str], expected: list[int], weak: bool, runs: int = 3
) -> tuple[float, float, int] | None:
    """Pons' ``c4solver`` on the same positions, one process for all of them, timed as
    :func:`stream_binary` says (its start-up and the first line's solve left out): the wall and
    CPU seconds a line, the best of ``runs`` processes, and its mismatches; None (and why, on
    stderr) if it could not run."""
    if len(moves) < 2:
        print(f"pons binary {path}: needs at least two lines to time", file=sys.stderr)
        return None
    command = [str(path), *(["-w"] if weak else [])]
    best: tuple[float, float, list[str]] | None = None
    cpu = float("inf")
    for _ in range(max(runs, 1)):
        got = stream_binary(command, moves, 7200.0, f"pons binary {path}")
        if got is None:
            return None
        cpu = min(cpu, got[1])
        if best is None or got[0] < best[0]:
            best = got
    assert best is not None
    answers = [line.split() for line in best[2] if line.strip()]
    if len(answers) != len(moves):
        print(f"pons binary {path}: {len(answers)} answers to {len(moves)} lines", file=sys.stderr)
        return None
    bad = sum(
        1 for words, m, e in zip(answers, moves, expected, strict=True) if words[:2] != [m, str(e)]
    )
    timed = len(moves) - 1
    return best[0] / timed, cpu / timed, bad


def peer_row(
    name: str, count: int, wall: float, cpu: float, nodes: int | None, bad: int,
    mean_t: float, mean_c: float,
) -> str:  # fmt: skip
    """A peer's row under ours for a set: its mean time and CPU a position over ``count``
    (``wall``, ``cpu``: its totals), its nodes where it counts them, its mismatches, and our
    means (``mean_t``, ``mean_c``) over its."""
    figures = f"{'':>12} {'':>9}"
    if nodes is not None:
        figures = f"{nodes / count:>12,.0f} {nodes / wall / 1e6:>7.2f} M"
    return (
        f"{'  ' + name:<11} {count:>9} {fmt_time(wall / count):>11} {fmt_time(cpu / count):>11} "
        f"{figures} {bad:>8} | {'ours / ' + name:>22} {mean_t / max(wall / count, 1e-12):>5.2f}x "
        f"{mean_c / max(cpu / count, 1e-12):>5.2f}x"
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("sets", nargs="*", help=f"sets to run (default: all): {' '.join(SETS)}")
    p.add_argument(
        "--sample",
        type=int,
        default=None,
        help=f"first N lines of each set (default {DEFAULT_SAMPLE}, "
        f"{DEFAULT_SAMPLE_L1_R3} for Test_L1_R3)",
    )
    p.add_argument("--weak", action="store_true", help="weak solve (win/draw/loss only)")
    p.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="passes over each set, each with a fresh table; the best wall and the best CPU "
        "time are shown (default 1)",
    )
    p.add_argument("--table-mb", type=float, default=64.0, help="transposition table MiB")
    p.add_argument(
        "--reset-each", action="store_true", help="clear the table before every position"
    )
    p.add_argument(
        "--pons",
        action="store_true",
        help="Pons' protocol: the table cleared before each position (implies --reset-each)",
    )
    p.add_argument(
        "--book",
        action="store_true",
        help="let our solver use its 12-stone database (default: the bare solver)",
    )
    p.add_argument(
        "--peer",
        choices=["bitbully"],
        help="also run BitBully (pip install bitbully; no opening book) on the same positions, "
        "same protocol, same run",
    )
    p.add_argument(
        "--pons-binary",
        type=Path,
        default=None,
        metavar="PATH",
        help="also time this build of Pons' c4solver on each set's same lines, same run "
        "(one process; its start-up and first line untimed)",
    )
    p.add_argument(
        "--peer-runs",
        type=int,
        default=3,
        metavar="N",
        help="with --pons-binary: run its process N times and take the best (default 3)",
    )
    p.add_argument(
        "--peer-binary",
        type=Path,
        default=None,
        metavar="PATH",
        help="with --empty: also time this build of Steininger's c4 (it solves the empty board "
        "and exits), same run; build it with the same table memory and --threads",
    )
    p.add_argument("--empty", action="store_true", help="also solve the empty 7x6 board")
    p.add_argument("--empty-only", action="store_true", help="only the empty board (no set)")
    p.add_argument(
        "--no-guess",
        action="store_true",
        help="the empty board solved with its published score withheld (by default the solver "
        "orders its probes from it, as it ships; the score is proven either way)",
    )
    p.add_argument(
        "--threads", type=int, default=1, help="our threads on the empty board (default 1)"
    )
    p.add_argument(
        "--empty-map", action="store_true", help="also the score of every first move (slow)"
    )
    p.add_argument(
        "--cold",
        action="store_true",
        help="compile from scratch (use a new, empty numba cache directory)",
    )
    p.add_argument("--data", type=Path, default=None, help="folder holding the Test_L*_R* files")
    args = p.parse_args(argv)
    for option, path in (("--peer-binary", args.peer_binary), ("--pons-binary", args.pons_binary)):
        if path is not None and not (path.is_file() and os.access(path, os.X_OK)):
            p.error(f"{option} {path}: not an executable file")
    args.reset_each = args.reset_each or args.pons
    args.empty = args.empty or args.empty_only

    if args.cold:
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="c4-numba-cache-")
    # import after NUMBA_CACHE_DIR is set
    from unbeatable.games.connect4 import _batch
    from unbeatable.games.connect4.solver import Solver, compile_kernels

    data = args.data or default_data_dir()
    sets = [] if args.empty_only else (args.sets or SETS)
    for s in sets:
        if s not in SETS:
            p.error(f"unknown set {s!r}")
    if not data.is_dir():
        print(f"test data not found in {data} (set UNBEATABLE_C4_DATA)", file=sys.stderr)
        return 2

    compile_s = compile_kernels()
    hits = sum(_batch.solve_batch.stats.cache_hits.values())
    print(
        f"first call (compile{' or load from numba cache' if hits else ''}): {compile_s:.2f} s"
        f"  [numba cache {'hit' if hits else 'miss: compiled from scratch'}]"
    )
    table_bytes = int(args.table_mb * 1024 * 1024)
    mode = "weak" if args.weak else "strong"
    print(
        f"mode {mode}; table {args.table_mb:g} MiB, "
        f"{'cleared before each position' if args.reset_each else 'kept between positions'}"
        f" (fresh table for each set and pass; best of {args.repeat} pass(es) shown)\n"
        f"mean time = wall clock, mean cpu = this process's CPU time "
        f"(less hurt by a busy machine); ratio = our mean / reference mean time"
    )

    header = (
        f"{'set':<11} {'positions':>9} {'mean time':>11} {'mean cpu':>11} {'mean nodes':>12} "
        f"{'nodes/s':>9} {'mismatch':>8} | {'ref time':>10} {'ref nodes':>11} {'ratio':>6} "
        f"{'cpu r.':>6}"
    )
    rows = []
    total_bad = 0
    for name in sets:
        n = args.sample or (DEFAULT_SAMPLE_L1_R3 if name == "Test_L1_R3" else DEFAULT_SAMPLE)
        with open(data / name) as f:
            lines = [ln.split() for ln in f if ln.strip()][:n]
        moves = [m for m, _ in lines]
        expected = [int(s) for _, s in lines]
        if args.weak:
            expected = [(e > 0) - (e < 0) for e in expected]
        # progress every ~5 %, but in chunks of >= ~20 ms of the reference's work, so
        # that the per-call overhead of the Python wrapper stays negligible
        chunk = max(1, len(moves) // 20, int(0.02 / REFERENCE[name][0]))
        if args.reset_each:
            # a cleared table is a new generation of its entries, and every 255 generations the
            # table is zeroed: that is done between chunks, outside the timed part
            chunk = min(chunk, 250)
        best_wall = best_cpu = float("inf")
        bad = 0  # mismatches over all passes
        for rep in range(args.repeat):
            solver = Solver(table_bytes=table_bytes, book=args.book)  # fresh table each pass
            elapsed = 0.0
            cpu = 0.0
            nodes = 0
            for start in range(0, len(moves), chunk):
                part = moves[start : start + chunk]
                if args.reset_each and solver.resets_left < len(part):
                    solver.clear()  # zero the table outside the timed part, as Pons does
                c0 = time.process_time()
                t0 = time.perf_counter()
                res = solver.solve_many(part, weak=args.weak, reset_each=args.reset_each)
                elapsed += time.perf_counter() - t0
                cpu += time.process_time() - c0
                nodes += int(res.nodes.sum())
                exp_part = expected[start : start + chunk]
                for got, exp, m in zip(res.scores, exp_part, part, strict=True):
                    if int(got) != exp:
                        bad += 1
                        print(
                            f"\nMISMATCH {name} {m}: got {int(got)}, expected {exp}",
                            file=sys.stderr,
                        )
                done = start + len(part)
                print(
                    f"\r{name} pass {rep + 1}/{args.repeat}: {done}/{len(moves)}  "
                    f"{fmt_time(elapsed)}",
                    end="",
                    file=sys.stderr,
                    flush=True,
                )
            print(file=sys.stderr)
            best_wall = min(best_wall, elapsed)
            best_cpu = min(best_cpu, cpu)
        elapsed, cpu = best_wall, best_cpu
        total_bad += bad
        count = len(moves)
        ref_t, ref_n = REFERENCE[name]
        mean_t = elapsed / count
        mean_c = cpu / count
        rows.append(
            f"{name:<11} {count:>9} {fmt_time(mean_t):>11} {fmt_time(mean_c):>11} "
            f"{nodes / count:>12,.0f} {nodes / elapsed / 1e6:>7.2f} M {bad:>8} | "
            f"{fmt_time(ref_t):>10} {ref_n:>11,} {mean_t / ref_t:>5.2f}x {mean_c / ref_t:>5.2f}x"
        )
        if args.peer == "bitbully":
            peer = bitbully_set(moves, expected, args.weak, args.reset_each)
            if peer is not None:
                pt, pc, pn, pbad = peer
                rows.append(peer_row("BitBully", count, pt, pc, pn, pbad, mean_t, mean_c))
        if args.pons_binary is not None:
            pons = pons_set(args.pons_binary, moves, expected, args.weak, args.peer_runs)
            if pons is not None:
                pt, pc, pbad = pons  # a line's time (all but the first line timed)
                rows.append(
                    peer_row("Pons", count, pt * count, pc * count, None, pbad, mean_t, mean_c)
                )
    if rows:
        print(header)
        print("\n".join(rows))
    if args.weak and rows:
        print("(reference figures are strong-mode figures)")

    if args.peer_binary is not None and not args.empty:
        p.error("--peer-binary needs --empty")
    if args.empty or args.empty_map:
        solver = Solver(
            table_bytes=table_bytes, book=args.book, threads=args.threads, guess=not args.no_guess
        )
        told = (
            "the published score withheld" if args.no_guess else "probes from the published score"
        )
        if args.peer == "bitbully":
            bitbully_empty(args.weak)
        peer_run = None
        if args.peer_binary is not None:
            peer_run = run_peer_binary(args.peer_binary, timeout=3600.0)
            if peer_run is not None:
                print(f"peer {args.peer_binary} empty board: {peer_run.summary()}", flush=True)
        c0 = time.process_time()
        t0 = time.perf_counter()
        score = solver.solve("", weak=args.weak)
        dt = time.perf_counter() - t0
        dc = time.process_time() - c0
        print(
            f"empty board ({mode}, {args.threads} thread(s), {args.table_mb:g} MiB, {told}): score "
            f"{score}, {dt:.1f} s wall, {dc:.1f} s CPU, {solver.nodes:,} nodes"
            + (f"; load average {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else ""),
            flush=True,
        )
        if peer_run is not None:
            print(
                f"ours / peer on the empty board: {dt / peer_run.wall:.2f}x wall, "
                f"{dc / max(peer_run.cpu, 1e-9):.2f}x CPU",
                flush=True,
            )
        t0 = time.perf_counter()
        child = solver.solve("4", weak=args.weak)
        dt = time.perf_counter() - t0
        print(
            f"after first move 4 ({mode}, same table): score {child} for the second player "
            f"(so column 4 {'reaches' if -child == score else 'does NOT reach'} the board's "
            f"score), {dt:.1f} s, {solver.nodes:,} nodes"
        )
        if args.empty_map:
            t0 = time.perf_counter()
            smap = solver.score_map("", weak=args.weak)
            dt = time.perf_counter() - t0
            best = [i + 1 for i, v in enumerate(smap) if v == max(x for x in smap if x is not None)]
            print(f"empty board score map {smap}: best column(s) {best}, {dt:.1f} s")
    return 1 if total_bad else 0


if __name__ == "__main__":
    sys.exit(main())
