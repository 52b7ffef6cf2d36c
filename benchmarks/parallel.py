"""Parallel search speed-up: the same positions serially, with local workers, and over MPI.

    python benchmarks/parallel.py                # serial, 2 local processes, MPI with 2 workers
    python benchmarks/parallel.py --quick        # small positions: checks that it all runs
    python benchmarks/parallel.py --no-mpi       # skip the MPI run
    python benchmarks/parallel.py --hosts        # MPI on 1 host against 2 hosts (root only)

For the MPI run the script starts itself under ``mpiexec -n WORKERS+1 python -m mpi4py.futures``
(the venv's mpiexec; one rank manages, the others work) and reads its figures back as JSON.

Printed per position and mode: wall-clock seconds, nodes, the ratio serial/parallel time, and
the node growth (parallel nodes / serial nodes: what splitting alpha-beta costs, as workers do
not share a table and young brothers start with a looser bound). Then the cost of a task: its
pickled size and pickling time, the round trip beyond the search itself (queueing, pickling
both ways, waking the manager), and the start-up of a pool. The machine's load average is
printed too: on a shared machine, other processes take cores from the workers, and the ratio
says so.

``--hosts`` measures what the network costs instead: the same positions over MPI with one rank
per worker, once with every rank on one host (the manager and the workers meet in shared
memory) and once with the manager and each worker on hosts of their own (network namespaces
joined by a switch, ``benchmarks/mpi_hosts.py``: every task and answer goes through TCP and
the switch, which counts bytes and packets). Both on the same cores of this machine, so the
difference is the messages' cost, not the hardware's. Needs root (namespaces).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import pickle
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path
from typing import Any

from unbeatable.game import State
from unbeatable.games import get_game
from unbeatable.search import Limits, Searcher, SearchOptions, solve
from unbeatable.search.parallel import ParallelSearcher, init_worker
from unbeatable.search.parallel.worker import Task, TaskConfig

#: (game, position, depth limit or None for an exact search)
POSITIONS: list[tuple[str, str, int | None]] = [
    ("mnk:4,4,4", "", None),
    ("mnk:4,4,4", "6", None),
    ("mnk:4,4,4", "1", None),
    ("mnk:5,5,4", "", 8),
    ("mnk:5,5,4", "13", 8),
    ("connect4", "", 11),
    ("connect4", "4453", 10),
    ("connect4", "444", 10),
]
#: Connect Four positions with their published scores, solved by the game's own solver.
SOLVER_FILE = Path("/work/shared/benchmarks/connect4/Test_L1_R2")
SOLVER_COUNT = 20
QUICK: list[tuple[str, str, int | None]] = [
    ("mnk:4,3,3", "", None),
    ("mnk:4,4,3", "", None),
    ("mnk:5,5,4", "", 5),
]

Row = dict[str, Any]


def _state(spec: str, text: str) -> State:
    return get_game(spec).parse_position(text)


def _label(spec: str, text: str, depth: int | None) -> str:
    return f"{spec} {text or '(start)'} " + (f"depth {depth}" if depth else "exact")


def run_serial(cases: list[tuple[str, str, int | None]]) -> list[Row]:
    rows = []
    for spec, text, depth in cases:
        state = _state(spec, text)
        cpu, start = time.process_time(), time.perf_counter()
        result = Searcher().search(state, Limits(depth=depth))
        rows.append(
            {
                "seconds": time.perf_counter() - start,
                "cpu": time.process_time() - cpu,
                "nodes": result.nodes,
                "score": result.score.value,
                "best": [repr(m) for m in result.best_moves],
                "move": repr(result.move),
            }
        )
    return rows


def run_parallel(
    cases: list[tuple[str, str, int | None]], executor: Executor, workers: int
) -> list[Row]:
    """Every case with a fresh searcher (fresh worker tables) on the same running pool."""
    rows = []
    for spec, text, depth in cases:
        state = _state(spec, text)
        with ParallelSearcher(workers, executor=executor) as searcher:
            cpu, start = time.process_time(), time.perf_counter()
            result = searcher.search(state, Limits(depth=depth))
            seconds = time.perf_counter() - start
            log = searcher.task_log
        overhead = [t.round_trip - t.seconds for t in log]
        rows.append(
            {
                "seconds": seconds,
                "cpu": time.process_time() - cpu + sum(t.cpu for t in log),
                "busy": sum(t.seconds for t in log),
                "nodes": result.nodes,
                "score": result.score.value,
                "move": repr(result.move),
                "tasks": len(log),
                "overhead": statistics.median(overhead) if overhead else 0.0,
                "workers_used": len({t.worker for t in log}),
            }
        )
    return rows


def solver_lines(path: Path, count: int, skip: int = 0) -> list[tuple[str, int]]:
    """``count`` (moves, score) lines of a Connect Four test file, after ``skip`` lines."""
    lines = path.read_text().split("\n")[skip : skip + count]
    return [(line.split()[0], int(line.split()[1])) for line in lines if line.strip()]


def solver_serial(lines: list[tuple[str, int]], warm: list[tuple[str, int]]) -> Row:
    game = get_game("connect4")
    for moves, _ in warm:  # compile (or load) the kernels, outside the timing
        solve(game.parse_position(moves))
    states = [game.parse_position(moves) for moves, _ in lines]
    cpu, start = time.process_time(), time.perf_counter()
    scores = [solve(state) for state in states]
    return {
        "seconds": time.perf_counter() - start,
        "cpu": time.process_time() - cpu,
        "right": sum(got == want for got, (_, want) in zip(scores, lines, strict=True)),
    }


def _warm_solver(moves: str) -> int:
    """In a worker: load the Connect Four kernels and make this process's solver (with its
    table) by solving a position outside the measured set; then linger so that the next
    warm-up task goes to another worker. Returns the worker's process id."""
    solve(get_game("connect4").parse_position(moves))
    time.sleep(0.5)
    return os.getpid()


def solver_parallel(
    lines: list[tuple[str, int]], warm: list[tuple[str, int]], executor: Executor, workers: int
) -> Row:
    """All positions at once, one task each (solve_many), on workers whose solvers are warm."""
    game = get_game("connect4")
    states = [game.parse_position(moves) for moves, _ in lines]
    warmed = set(executor.map(_warm_solver, [moves for moves, _ in warm]))
    with ParallelSearcher(workers, executor=executor) as searcher:
        start = time.perf_counter()
        scores = list(searcher.solve_many(states))
        seconds = time.perf_counter() - start
    return {
        "seconds": seconds,
        "right": sum(got == want for got, (_, want) in zip(scores, lines, strict=True)),
        "warmed": len(warmed),
    }


def _fresh_serial_solver(solver: tuple[list[tuple[str, int]], list[tuple[str, int]]]) -> Row:
    """The serial solver's figures, measured in a new process (with a cold table)."""
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=context, initializer=init_worker) as executor:
        return executor.submit(solver_serial, *solver).result()


def _warm(executor: Executor, workers: int) -> float:
    """Start the pool's workers; the seconds it took."""
    start = time.perf_counter()
    list(executor.map(abs, range(workers * 4)))
    return time.perf_counter() - start


Solver = tuple[list[tuple[str, int]], list[tuple[str, int]]] | None  # (lines, warm-up lines)


def run_local(
    cases: list[tuple[str, str, int | None]], workers: int, solver: Solver
) -> tuple[list[Row], float, Row | None]:
    # Spawned, not forked: a forked worker would inherit what the serial run left in this
    # process (the Connect Four solver's table holds the very positions to solve).
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, mp_context=context, initializer=init_worker) as executor:
        startup = _warm(executor, workers)
        rows = run_parallel(cases, executor, workers)
    solved = None
    if solver:
        with ProcessPoolExecutor(workers, mp_context=context, initializer=init_worker) as executor:
            solved = solver_parallel(*solver, executor, workers)
    return rows, startup, solved


def mpi_child(cases: list[tuple[str, str, int | None]], solver: Solver) -> None:
    """Run under mpiexec: the MPI figures as one JSON line."""
    from mpi4py.futures import MPIPoolExecutor

    start = time.perf_counter()
    with MPIPoolExecutor() as executor:
        workers = executor.num_workers
        startup = time.perf_counter() - start + _warm(executor, workers)
        rows = run_parallel(cases, executor, workers)
        solved = solver_parallel(*solver, executor, workers) if solver else None
    print(json.dumps({"workers": workers, "startup": startup, "rows": rows, "solver": solved}))


MPIRun = tuple[list[Row], float, float, Row | None]  # rows, pool start-up, launch, solver


def run_mpi(child_args: list[str], workers: int) -> MPIRun | str:
    """The MPI rows, the pool start-up inside the job, the whole job's launch overhead and the
    solver rows; or why MPI could not run."""
    mpiexec = Path(sys.executable).parent / "mpiexec"
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        return "mpi4py is not installed"
    if not mpiexec.exists():
        return f"no {mpiexec}"
    command = [str(mpiexec), "-n", str(workers + 1), sys.executable, "-m", "mpi4py.futures"]
    command += [__file__, "--mpi-child", *child_args]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, timeout=3600)
    return _mpi_figures(done, time.perf_counter() - start, workers)


def _mpi_figures(
    done: subprocess.CompletedProcess[str], total: float, workers: int
) -> MPIRun | str:
    """What :func:`mpi_child` printed, or why the job failed."""
    if done.returncode != 0:
        return f"mpiexec failed ({done.returncode}): {done.stderr.strip()[-500:]}"
    data = json.loads(done.stdout.strip().splitlines()[-1])
    if data["workers"] != workers:
        return f"the MPI job had {data['workers']} workers, not {workers}"
    searching = sum(row["seconds"] for row in data["rows"])
    searching += data["solver"]["seconds"] if data["solver"] else 0.0
    return data["rows"], data["startup"], total - searching, data["solver"]


#: (mode, its MPI figures, bytes and packets that crossed the switch, of which the start-up's)
HostRun = tuple[str, MPIRun, int, int, int]


def run_hosts(child_args: list[str], workers: int, rounds: int) -> list[HostRun] | str:
    """The same MPI job on one host (``workers`` + 1 ranks, shared memory) and on ``workers``
    + 1 hosts (a rank each, TCP through a switch); or why it could not run. Each mode also runs
    the job with nothing to do (``--startup-only``), whose bytes are the start-up's. With two
    rounds the modes run in the order A B B A, and each one's figures are the mean of its two
    runs (a machine whose load drifts favours neither)."""
    import tempfile

    from mpi_hosts import Cluster, Unavailable

    why = Cluster.why_not()
    if why:
        return why
    program = [sys.executable, "-m", "mpi4py.futures", __file__, "--mpi-child", "--hosts-child"]
    modes = [
        ("1 host", [workers + 1] + [0] * workers, False),
        (f"{workers + 1} hosts", [1] * (workers + 1), True),
    ]
    order = [0, 1, 1, 0] if rounds == 2 else [0, 1]
    found: list[list[HostRun]] = [[], []]

    def crossed(cluster: Cluster, ranks: list[int], network: bool, extra: list[str]) -> tuple[
        subprocess.CompletedProcess[str], float, int, int
    ]:
        sent, packets = cluster.traffic()
        start = time.perf_counter()
        done = cluster.run(ranks, program + extra, timeout=3600, network=network)
        spent = time.perf_counter() - start
        now_sent, now_packets = cluster.traffic()
        return done, spent, now_sent - sent, now_packets - packets

    with tempfile.TemporaryDirectory() as directory:
        try:
            with Cluster(workers + 1, Path(directory)) as cluster:
                for index in order:
                    name, ranks, network = modes[index]
                    done, spent, sent, packets = crossed(cluster, ranks, network, child_args)
                    figures = _mpi_figures(done, spent, workers)
                    if isinstance(figures, str):
                        return f"{name}: {figures}"
                    idle = crossed(cluster, ranks, network, ["--startup-only"])
                    if idle[0].returncode != 0:
                        return (
                            f"{name}: the empty job failed ({idle[0].returncode}): "
                            f"{idle[0].stderr.strip()[-500:]} {idle[0].stdout.strip()[-500:]}"
                        )
                    found[index].append((name, figures, sent, packets, idle[2]))
        except Unavailable as error:
            return str(error)
    return [_merged(runs) for runs in found]


def _merged(runs: list[HostRun]) -> HostRun:
    """One mode's runs as one: the mean of every figure (an answer that differed between the
    runs is kept as None, which the report marks)."""
    if len(runs) == 1:
        return runs[0]
    count = len(runs)

    def mean(values: list[Any]) -> Any:
        total = sum(values) / count
        return round(total) if all(isinstance(v, int) for v in values) else total

    rows: list[Row] = []
    for parts in zip(*(run[1][0] for run in runs), strict=True):
        row = dict(parts[0])
        for key in ("seconds", "cpu", "busy", "nodes", "tasks", "overhead"):
            row[key] = mean([part[key] for part in parts])
        for key in ("score", "move"):
            if any(part[key] != row[key] for part in parts):
                row[key] = None
        rows.append(row)
    figures: MPIRun = (
        rows,
        mean([run[1][1] for run in runs]),
        mean([run[1][2] for run in runs]),
        None,
    )
    return (
        runs[0][0], figures, mean([run[2] for run in runs]), mean([run[3] for run in runs]),
        mean([run[4] for run in runs]),
    )


def task_cost(cases: list[tuple[str, str, int | None]]) -> tuple[int, float]:
    """A typical task's pickled size in bytes and the seconds to pickle and unpickle it."""
    spec, text, depth = cases[0]
    state = _state(spec, text)
    config = TaskConfig("0" * 32, SearchOptions(), "alphabeta")
    task = Task(config, state, depth or 99, -100, 100, 1, None, None)
    data = pickle.dumps(task)
    rounds = 2000
    start = time.perf_counter()
    for _ in range(rounds):
        pickle.loads(pickle.dumps(task))
    return len(data), (time.perf_counter() - start) / rounds


def _ratio(serial: float, parallel: float) -> str:
    return f"{serial / parallel:5.2f}x" if parallel > 0 else "   -  "


def report(
    cases: list[tuple[str, str, int | None]],
    serial: list[Row],
    modes: list[tuple[str, list[Row]]],
    out: Callable[[str], None] = print,
) -> None:
    out(
        f"{'position':<28} {'serial s':>9} {'nodes':>9}"
        + "".join(
            f" | {name + ' s':>10} {'nodes':>9} {'ratio':>6} {'growth':>6}" for name, _ in modes
        )
    )
    for index, (spec, text, depth) in enumerate(cases):
        s = serial[index]
        line = f"{_label(spec, text, depth):<28} {s['seconds']:9.2f} {s['nodes']:9d}"
        for _name, rows in modes:
            p = rows[index]
            same = p["score"] == s["score"] and p["move"] in s["best"]
            line += (
                f" | {p['seconds']:10.2f} {p['nodes']:9d} {_ratio(s['seconds'], p['seconds'])}"
                f" {p['nodes'] / s['nodes']:5.2f}{'' if same else '!'}"
            )
        out(line)
    total = sum(row["seconds"] for row in serial)
    nodes = sum(row["nodes"] for row in serial)
    line = f"{'all':<28} {total:9.2f} {nodes:9d}"
    for _name, rows in modes:
        seconds = sum(row["seconds"] for row in rows)
        grown = sum(row["nodes"] for row in rows)
        line += f" | {seconds:10.2f} {grown:9d} {_ratio(total, seconds)} {grown / nodes:5.2f} "
    out(line)
    out("(growth: parallel nodes / serial nodes; '!' would mark an answer that differs)")
    out("")
    serial_cpu = sum(row["cpu"] for row in serial)
    for name, rows in modes:
        tasks = sum(row["tasks"] for row in rows)
        busy = sum(row["busy"] for row in rows)
        wall = sum(row["seconds"] for row in rows)
        workers = max(row["workers_used"] for row in rows)
        cpu = sum(row["cpu"] for row in rows)
        overhead = statistics.median(row["overhead"] for row in rows)
        busy_share = busy / (wall * workers)
        out(
            f"{name}: {tasks} tasks; median round trip beyond the search {overhead * 1e3:.2f} ms "
            f"per task; workers busy {busy_share:.0%} of the wall time; "
            f"processor time {cpu:.2f} s (serial {serial_cpu:.2f} s, x{cpu / serial_cpu:.2f})"
        )
        if workers > 1:
            out(
                f"  estimate, not a measurement, for {workers} otherwise idle cores: serial "
                f"processor time / (parallel processor time / ({workers} x busy share)) = "
                f"{serial_cpu * workers * busy_share / cpu:.2f}x"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small positions (a smoke test)")
    parser.add_argument("--no-mpi", action="store_true", help="skip the MPI run")
    parser.add_argument(
        "--hosts",
        action="store_true",
        help="instead: MPI on 1 host against WORKERS hosts of 1 rank (network namespaces; root)",
    )
    parser.add_argument("--workers", type=int, default=2, help="workers (default 2)")
    parser.add_argument(
        "--one-worker",
        action="store_true",
        help="also run the parallel algorithm with a single worker (what is not parallelism)",
    )
    parser.add_argument(
        "--solver-file",
        type=Path,
        default=SOLVER_FILE,
        help=f"Connect Four positions with scores (default {SOLVER_FILE}; first "
        f"{SOLVER_COUNT} lines; skipped if missing)",
    )
    parser.add_argument("--mpi-child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--startup-only", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--hosts-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    cases = QUICK if args.quick else POSITIONS
    solver: Solver = None
    if args.solver_file.exists():
        count = 4 if args.quick else SOLVER_COUNT
        solver = (
            solver_lines(args.solver_file, count),
            solver_lines(args.solver_file, 2 * args.workers, skip=count),
        )
    if args.mpi_child:
        mpi_child([] if args.startup_only else cases, None if args.hosts_child else solver)
        return 0
    print(
        f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
        f"{os.cpu_count()} cores"
    )
    if args.hosts:
        return hosts_main(args, cases)
    # The machine may be shared: serial runs before and after the parallel ones show the drift,
    # and the ratios use their mean.
    before = run_serial(cases)
    solver_before = _fresh_serial_solver(solver) if solver else None
    local, local_startup, local_solver = run_local(cases, args.workers, solver)
    modes = [(f"{args.workers} local", local)]
    solver_modes: list[tuple[str, Row | None]] = [(f"{args.workers} local", local_solver)]
    if args.one_worker:
        modes.insert(0, ("1 local", run_local(cases, 1, None)[0]))
    mpi: MPIRun | str = "skipped (--no-mpi)"
    if not args.no_mpi:
        child_args = ["--quick"] if args.quick else []
        child_args += ["--solver-file", str(args.solver_file)]
        mpi = run_mpi(child_args, args.workers)
        if not isinstance(mpi, str):
            modes.append((f"MPI {args.workers}", mpi[0]))
            solver_modes.append((f"MPI {args.workers}", mpi[3]))
    after = run_serial(cases)
    solver_after = _fresh_serial_solver(solver) if solver else None
    serial = _mean(before, after)
    print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"serial runs: {sum(r['seconds'] for r in before):.2f} s before the parallel ones, "
        f"{sum(r['seconds'] for r in after):.2f} s after (the table shows their mean)"
    )
    print()
    print("Generic engine (alpha-beta with a table; depth-limited or exact):")
    report(cases, serial, modes)
    if solver and solver_before and solver_after:
        print()
        count = len(solver[0])
        print(
            f"Connect Four solver, first {count} positions of {args.solver_file.name}, "
            "each solved whole by the game's solver (in parallel: one task per position):"
        )
        base = (solver_before["seconds"] + solver_after["seconds"]) / 2
        print(
            f"  serial (fresh process)    {base:7.2f} s  {solver_before['right']}/{count} right"
            f"  (before {solver_before['seconds']:.2f} s, after {solver_after['seconds']:.2f} s)"
        )
        for name, row in solver_modes:
            if row is None:
                continue
            print(
                f"  {name:<25} {row['seconds']:7.2f} s  {row['right']}/{count} right  "
                f"{_ratio(base, row['seconds'])}  ({row['warmed']} workers warmed)"
            )
    print()
    size, pickling = task_cost(cases)
    print(
        f"a task pickles to {size} bytes; pickling and unpickling it takes {pickling * 1e6:.0f} us"
    )
    print(f"start-up: {args.workers} local processes {local_startup * 1e3:.0f} ms", end="")
    if isinstance(mpi, str):
        print(f"; MPI: {mpi}")
    else:
        print(
            f"; MPI pool {mpi[1] * 1e3:.0f} ms inside the job, mpiexec launch and exit "
            f"{mpi[2]:.2f} s in all"
        )
    return 0


def _mean(before: list[Row], after: list[Row]) -> list[Row]:
    """The serial rows with the mean of the runs before and after the parallel ones."""
    return [
        {
            **one,
            "seconds": (one["seconds"] + two["seconds"]) / 2,
            "cpu": (one["cpu"] + two["cpu"]) / 2,
        }
        for one, two in zip(before, after, strict=True)
    ]


def hosts_main(args: argparse.Namespace, cases: list[tuple[str, str, int | None]]) -> int:
    """``--hosts``: the serial runs, and the MPI job on one host and across hosts (the generic
    engine's positions only: the messages counted are exactly their tasks)."""
    child_args = ["--quick"] if args.quick else []
    before = run_serial(cases)
    runs = run_hosts(child_args, args.workers, 1 if args.quick else 2)
    after = run_serial(cases)
    print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if isinstance(runs, str):
        print(f"MPI across hosts: not run here: {runs}")
        return 1
    serial = _mean(before, after)
    print(
        f"serial runs: {sum(r['seconds'] for r in before):.2f} s before the MPI jobs, "
        f"{sum(r['seconds'] for r in after):.2f} s after (the table shows their mean)"
    )
    print()
    print(
        f"MPI with {args.workers} worker ranks and a manager: on one host (ranks meet in shared "
        f"memory) and on {args.workers + 1} hosts, one rank each (network namespaces: TCP "
        "through a switch), on the same cores"
        + ("" if args.quick else "; each mode run twice, in the order A B B A, and averaged")
        + ":"
    )
    report(cases, serial, [(run[0], run[1][0]) for run in runs])
    print()
    for name, (rows, startup, launch, _solved), crossed, packets, idle in runs:
        tasks = sum(row["tasks"] for row in rows)
        overhead = statistics.median(row["overhead"] for row in rows)
        print(
            f"{name}: {tasks} tasks sent and {tasks} answers received by the manager; median "
            f"round trip beyond the search {overhead * 1e3:.2f} ms; pool start-up "
            f"{startup * 1e3:.0f} ms, mpiexec launch and exit {launch:.2f} s"
        )
        print(
            f"  through the switch: {crossed} bytes in {packets} packets; the same job with "
            f"nothing to do: {idle} bytes; the difference, {(crossed - idle) / max(tasks, 1):.0f} "
            "bytes a task (its message, the answer, the watch's two lines, TCP's "
            "acknowledgements)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
