"""Connect Four on every board size the solver supports (``width * (height + 1) <= 64``), each
solved from the empty board and compared with the published results.

The published results are John Tromp's (every board with width + height <= 15,
https://tromp.github.io/c4/c4.html) and Christophe Steininger's (width + height <= 16 and some
larger, https://github.com/ChristopheSteininger/c4, README); they are stored as data, with the
citation, in ``unbeatable.games.connect4.published``. Boards narrower or lower than 4 have no
published entry: their score is printed, not checked.

    PYTHONPATH=src python benchmarks/connect4_sizes.py                     # width + height <= 12
    PYTHONPATH=src python benchmarks/connect4_sizes.py --min-sum 13 --max-sum 13 --cap 600
    PYTHONPATH=src python benchmarks/connect4_sizes.py --size 7x6 --threads 2
    python benchmarks/connect4_sizes.py --max-sum 13 --against ../before/src   # before/after
    PYTHONPATH=src python benchmarks/connect4_sizes.py --size 9x5 --table-mb 4096 --progress
    PYTHONPATH=src python benchmarks/connect4_sizes.py --size 16x2 --cap 3600 --keep-table DIR

For each size a fresh solver (no opening book, ``--table-mb`` of table, ``--threads``) solves
the empty board strongly (the exact score, so the move on which the game ends) under a time cap
``--cap`` (seconds): a search cut short prints the bounds it proved (``--progress``: also each
time they narrow, on stderr). The empty board of a size with a published score is probed from
that score first (see ``_negamax.solve_position``'s guess; the score is still proven);
``--no-guess`` withholds it, so that the root's probes scan from 0 as on a size with no published
result (the solver is then told nothing of the answer). The line gives the wall time, the
nodes, the published score and whether ours equals it; the exit status is 1 when a complete
score differs from a published one.

``--keep-table DIR`` keeps each size's table in DIR (``Solver.save_table``, 8 bytes a slot, with a
JSON list of the sittings beside it): a size whose table is there starts from it, and saves it
again after the search, solved or cut. The table holds only bounds true for any search, so a
search cut at the cap resumes in a later run (another day, another commit of the solver) from
what it proved, and the score is still proven; the time and nodes printed are this run's, and
stderr gives the sittings' totals.

``--src PATH`` solves with the package under PATH (another checkout's ``src``) instead of this
one's. ``--against PATH`` compares two sources size by size in the same run: two worker
processes, one on this checkout's sources and one on PATH's (same table, threads and cap, same
``nice``), take each size in turn (alternating which goes first), and the table gives each one's
wall time, CPU time and nodes, their ratios (this checkout over PATH's) and the totals. The other
checkout's numba cache goes to a directory under the system's temporary directory
(``NUMBA_CACHE_DIR``), so that nothing is written into it. The published results are always this
checkout's (an older checkout may not have them).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
OWN_SRC = HERE.parent / "src"


def board_sizes(min_sum: int, max_sum: int) -> list[tuple[int, int]]:
    """Every (width, height) that fits the bitboard with ``min_sum <= width + height <=
    max_sum``, by growing cell count."""
    sizes = [
        (w, h)
        for w in range(1, 65)
        for h in range(1, 64)
        if w * (h + 1) <= 64 and min_sum <= w + h <= max_sum
    ]
    return sorted(sizes, key=lambda s: (s[0] * s[1], s))


def parse_size(text: str) -> tuple[int, int]:
    """``WxH`` as (width, height)."""
    try:
        w, h = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size WxH: {text!r}") from None
    if w < 1 or h < 1 or w * (h + 1) > 64:
        raise argparse.ArgumentTypeError(f"board {text} does not fit a 64-bit word")
    return w, h


def published_score(width: int, height: int) -> int | None:
    """This checkout's published score of the empty board (loaded from its file, so that
    another checkout's package on ``sys.path`` needs none)."""
    path = OWN_SRC / "unbeatable" / "games" / "connect4" / "published.py"
    spec = importlib.util.spec_from_file_location("_published_results", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    score: int | None = module.first_player_score(width, height)
    return score


def serve(args: argparse.Namespace) -> int:
    """The worker of ``--against``: solve each ``W H`` line of stdin, answer one JSON line."""
    from unbeatable.games.connect4.solver import Solver, compile_kernels

    compile_kernels()
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        w, h = (int(x) for x in line.split())
        solver = Solver(int(args.table_mb * 2**20), width=w, height=h, book=False)
        cpu0, t0 = time.process_time(), time.perf_counter()
        result = solver.bounds(0, 0, 0, threads=args.threads, deadline=t0 + args.cap)
        dt, cpu = time.perf_counter() - t0, time.process_time() - cpu0
        answer = {
            "time": dt, "cpu": cpu, "nodes": result.nodes, "complete": result.complete,
            "lower": result.lower[0], "upper": result.upper[0],
        }  # fmt: skip
        del solver
        print(json.dumps(answer), flush=True)
    return 0


class Worker:
    """A ``--serve`` process on one checkout's sources."""

    def __init__(self, src: Path, args: argparse.Namespace) -> None:
        env = dict(os.environ)
        if src.resolve() != OWN_SRC:
            tag = hashlib.sha256(str(src.resolve()).encode()).hexdigest()[:12]
            env["NUMBA_CACHE_DIR"] = str(Path(tempfile.gettempdir()) / f"c4-sizes-numba-{tag}")
        command = [
            sys.executable, str(Path(__file__).resolve()), "--serve", "--src", str(src),
            "--threads", str(args.threads), "--table-mb", str(args.table_mb),
            "--cap", str(args.cap),
        ]  # fmt: skip
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
        )
        self.read()  # the kernels are loaded

    def read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("a worker ended early")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def solve(self, w: int, h: int) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{w} {h}\n")
        self.process.stdin.flush()
        return self.read()

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def _score(answer: dict[str, Any]) -> str:
    lo, hi = answer["lower"], answer["upper"]
    return str(lo) if answer["complete"] else f"[{lo},{hi}]"


def _commit(src: Path) -> str:
    found = subprocess.run(
        ["git", "-C", str(src), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return found.stdout.strip() or "?"


def compare(args: argparse.Namespace, sizes: list[tuple[int, int]]) -> int:
    """``--against``: both checkouts' workers, size by size, and the table of both."""
    other = Path(args.against)
    print(
        f"{len(sizes)} board size(s); table {args.table_mb:g} MiB, {args.threads} thread(s), "
        f"no book, cap {args.cap:g} s a size; after = {OWN_SRC.parent} ({_commit(OWN_SRC)}), "
        f"before = {other} ({_commit(other)}); load average {os.getloadavg()[0]:.1f}"
    )
    workers = {"before": Worker(other, args), "after": Worker(OWN_SRC, args)}
    print(
        "| size | score | before time | after time | before CPU | after CPU | CPU after/before "
        "| before nodes | after nodes | nodes after/before | published |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    totals = {k: {"time": 0.0, "cpu": 0.0, "nodes": 0} for k in workers}
    wrong = 0
    try:
        for i, (w, h) in enumerate(sizes):
            order = ["before", "after"] if i % 2 == 0 else ["after", "before"]
            found = {name: workers[name].solve(w, h) for name in order}
            b, a = found["before"], found["after"]
            for name, answer in found.items():
                for k in ("time", "cpu", "nodes"):
                    totals[name][k] += answer[k]
            expected = published_score(w, h)
            scores = {_score(b), _score(a)}
            differs = len(scores) > 1 or (expected is not None and scores != {str(expected)})
            if differs and all(x["complete"] for x in (a, b)):
                wrong += 1
            score = " / ".join(sorted(scores))
            ratio = a["cpu"] / b["cpu"] if b["cpu"] > 0 else float("nan")
            nodes = a["nodes"] / b["nodes"] if b["nodes"] else float("nan")
            print(
                f"| {w}x{h} | {score} | {b['time']:.2f} s | {a['time']:.2f} s | "
                f"{b['cpu']:.2f} s | {a['cpu']:.2f} s | {ratio:.2f} | {b['nodes']:,} | "
                f"{a['nodes']:,} | {nodes:.2f} | {'' if expected is None else expected} |",
                flush=True,
            )
    finally:
        for worker in workers.values():
            worker.close()
    b, a = totals["before"], totals["after"]
    print(
        f"| total | | {b['time']:.2f} s | {a['time']:.2f} s | {b['cpu']:.2f} s | "
        f"{a['cpu']:.2f} s | {a['cpu'] / max(b['cpu'], 1e-9):.2f} | {b['nodes']:,} | "
        f"{a['nodes']:,} | {a['nodes'] / max(b['nodes'], 1):.2f} | |"
    )
    verdict = f"{wrong} WRONG" if wrong else "all as published, both alike"
    print(f"load average {os.getloadavg()[0]:.1f}; {verdict}")
    return 1 if wrong else 0


class Kept:
    """``--keep-table``: a size's table kept in a directory across runs (``Solver.save_table``),
    with a JSON list of the sittings that searched it, each printed on stderr."""

    def __init__(self, folder: Path, solver: Any) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        name = f"{solver.width}x{solver.height}-{solver.table_slots}"
        self.table = folder / f"{name}.table"
        self.log = folder / f"{name}.json"
        self.sittings: list[dict[str, Any]] = []
        if self.table.exists():
            t = time.perf_counter()
            solver.load_table(self.table)
            if self.log.exists():
                self.sittings = json.loads(self.log.read_text())["sittings"]
            print(
                f"  table read from {self.table} in {time.perf_counter() - t:.1f} s "
                f"({self._total('before')})",
                file=sys.stderr,
                flush=True,
            )

    def _total(self, when: str = "") -> str:
        n = len(self.sittings)
        seconds = sum(x["seconds"] for x in self.sittings)
        nodes = sum(x["nodes"] for x in self.sittings)
        return f"{n} sitting(s){' ' + when if when else ''}: {seconds:,.0f} s, {nodes:,} nodes"

    def save(self, solver: Any, result: Any, seconds: float, threads: int) -> None:
        t = time.perf_counter()
        solver.save_table(self.table)
        self.sittings.append(
            {
                "ended": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
                "seconds": round(seconds, 2),
                "nodes": result.nodes,
                "threads": threads,
                "bounds": [result.lower[0], result.upper[0]],
                "complete": result.complete,
                "load_average": round(os.getloadavg()[0], 1),
            }
        )
        rows = ",\n  ".join(json.dumps(x) for x in self.sittings)
        self.log.write_text(f'{{"sittings": [\n  {rows}\n]}}\n')
        print(
            f"  table saved to {self.table} in {time.perf_counter() - t:.1f} s; {self._total()}",
            file=sys.stderr,
            flush=True,
        )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--min-sum", type=int, default=2, help="smallest width + height (default 2)")
    p.add_argument("--max-sum", type=int, default=12, help="largest width + height (default 12)")
    p.add_argument("--size", type=parse_size, action="append", help="only this size WxH")
    p.add_argument("--cap", type=float, default=1800.0, help="seconds per size (default 1800)")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--table-mb", type=float, default=64.0)
    p.add_argument(
        "--no-guess",
        action="store_true",
        help="withhold the published score from the solver (it orders the root's probes)",
    )
    p.add_argument("--src", type=Path, help="solve with the package under PATH (a checkout's src)")
    p.add_argument("--against", type=Path, help="compare with the package under PATH, size by size")
    p.add_argument(
        "--keep-table",
        type=Path,
        metavar="DIR",
        help="keep each size's table in DIR: read it back first, save it after (a cut search "
        "resumes from what it proved; DIR/WxH-SLOTS.json lists the sittings)",
    )
    p.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    p.add_argument(
        "--progress",
        action="store_true",
        help="print each size's bounds, nodes and time to stderr each time they narrow",
    )
    args = p.parse_args(argv)
    for flag, given in (("--no-guess", args.no_guess), ("--keep-table", args.keep_table)):
        if given and (args.against is not None or args.serve):
            p.error(f"{flag} solves in this process: not with --against")
    if args.src is not None:
        sys.path.insert(0, str(args.src.resolve()))
    if args.serve:
        return serve(args)
    sizes = args.size or board_sizes(args.min_sum, args.max_sum)
    if args.against is not None:
        return compare(args, sizes)

    from unbeatable.games.connect4.solver import Analysis, Solver, compile_kernels

    first_player_score = published_score
    compile_kernels()
    guess = "none (the published score withheld)" if args.no_guess else "the published score"
    print(
        f"{len(sizes)} board size(s); table {args.table_mb:g} MiB, {args.threads} thread(s), "
        f"no book, cap {args.cap:g} s a size, root's guess {guess}; "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"{'size':>6} {'cells':>5} {'score':>9} {'time':>9} {'nodes':>15} {'published':>9}  check"
    )
    wrong = 0
    for w, h in sizes:
        solver = Solver(
            int(args.table_mb * 2**20), width=w, height=h, book=False, guess=not args.no_guess
        )
        try:
            kept = Kept(args.keep_table, solver) if args.keep_table else None
        except (OSError, ValueError) as e:  # a table of another format, DIR not a folder
            print(f"connect4_sizes.py: --keep-table: {e}", file=sys.stderr)
            return 2
        t0 = time.perf_counter()

        def told(a: Analysis, t0: float = t0, size: str = f"{w}x{h}") -> None:
            dt = time.perf_counter() - t0
            bounds = f"[{a.lower[0]}, {a.upper[0]}]"
            print(f"  {size} {bounds} {a.nodes:,} nodes {dt:.1f} s", file=sys.stderr, flush=True)

        progress = told if args.progress else None
        result = solver.bounds(
            0, 0, 0, threads=args.threads, deadline=t0 + args.cap, progress=progress
        )
        dt = time.perf_counter() - t0
        if kept is not None:
            kept.save(solver, result, dt, args.threads)
        lo, hi = result.lower[0], result.upper[0]
        ours = str(lo) if result.complete else f"[{lo},{hi}]"
        expected = first_player_score(w, h)
        if expected is None:
            check = "no published result"
        elif not result.complete:
            inside = lo is not None and hi is not None and lo <= expected <= hi
            cut = "by Ctrl-C" if result.interrupted else "at the cap"
            check = f"cut {cut}; the bounds {'hold' if inside else 'EXCLUDE'} it"
            wrong += not inside
        elif lo == expected:
            check = "equal"
        else:
            check = "DIFFERENT"
            wrong += 1
        published = "" if expected is None else str(expected)
        print(
            f"{w:>3}x{h:<2} {w * h:>5} {ours:>9} {dt:>8.2f}s {result.nodes:>15,} {published:>9}  "
            f"{check}",
            flush=True,
        )
        if result.interrupted:
            print("interrupted", file=sys.stderr)
            break
    verdict = f"{wrong} WRONG" if wrong else "all as published"
    print(f"load average {os.getloadavg()[0]:.1f}; {verdict}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
