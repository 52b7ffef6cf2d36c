"""Load on the web server, on loopback: latency of many small analyses, and overload.

Protocol (every run starts its own servers on free 127.0.0.1 ports and stops them with SIGINT):

1. Tic-tac-toe: ``--requests`` (1,000) GET /api/analyze of distinct unfinished positions drawn
   at random (seeded) from every reachable one, ``--concurrency`` (20) clients at a time, each
   on its own keep-alive connection, against a server of ``--workers`` processes. Then the same
   positions again (answered from the server's cache of finished analyses). Latency is from
   sending the request to reading the whole answer. Goal: p95 under 50 ms, no error.
2. Connect Four: ``--burst`` (50) analyses of positions of 10 to 14 stones (random playouts,
   seeded) sent at once to a server of ``--workers`` processes and a queue of 10 requests, each
   with a 5 s time cap, while a client asks /api/health every 50 ms. Goal: every request
   answered (200, 503 when full, 504 past its cap), none lost; the health check answered
   within 100 ms throughout.

Bounded: at most a few thousand requests, each with a 60 s client timeout.

    python benchmarks/serve_load.py [--workers 2] [--requests 1000] [--concurrency 20]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from unbeatable import get_game
from unbeatable.game import State
from unbeatable.web.server import free_port, launch, stop


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def tictactoe_positions() -> list[str]:
    """Every reachable unfinished tic-tac-toe position, by one move sequence each."""
    game = get_game("tictactoe")
    found: dict[State, str] = {}
    frontier: list[tuple[State, str]] = [(game.initial(), "")]
    while frontier:
        state, moves = frontier.pop()
        if state in found or state.outcome() is not None:
            continue
        found[state] = moves
        for move in state.legal_moves():
            frontier.append((state.play(move), moves + state.move_text(move)))
    return sorted(found.values())


def connect4_positions(count: int, rng: random.Random) -> list[str]:
    game = get_game("connect4")
    found: list[str] = []
    while len(found) < count:
        state, moves = game.initial(), ""
        for _ in range(rng.randint(10, 14)):
            move = rng.choice(list(state.legal_moves()))
            moves += state.move_text(move)
            state = state.play(move)
            if state.outcome() is not None:
                break
        if state.outcome() is None and state.winning_move() is None:
            found.append(moves)
    return found


class Client:
    """One keep-alive connection per thread."""

    local = threading.local()

    def __init__(self, port: int) -> None:
        self.port = port

    def get(self, path: str) -> tuple[int, float]:
        conn = getattr(self.local, "conn", None)
        if conn is None:
            conn = self.local.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        start = time.perf_counter()
        try:
            conn.request("GET", path)
            response = conn.getresponse()
            response.read()
            status = response.status
        except (OSError, http.client.HTTPException):
            conn.close()
            self.local.conn = None
            status = 0
        return status, time.perf_counter() - start


def health_of(port: int) -> dict[str, object]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/api/health")
    data: dict[str, object] = json.loads(conn.getresponse().read())
    conn.close()
    return data


def run_many(
    client: Client, paths: list[str], concurrency: int
) -> tuple[list[float], Counter[int]]:
    latencies: list[float] = []
    statuses: Counter[int] = Counter()
    with ThreadPoolExecutor(concurrency) as pool:
        for status, seconds in pool.map(client.get, paths):
            statuses[status] += 1
            latencies.append(seconds)
    return latencies, statuses


def report(label: str, latencies: list[float], statuses: Counter[int], wall: float) -> None:
    errors = sum(n for s, n in statuses.items() if s != 200)
    print(
        f"{label}: {len(latencies)} requests in {wall:.2f} s ({len(latencies) / wall:.0f}/s); "
        f"p50 {percentile(latencies, 0.5) * 1000:.1f} ms, "
        f"p95 {percentile(latencies, 0.95) * 1000:.1f} ms, "
        f"p99 {percentile(latencies, 0.99) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms; "
        f"errors {errors} {dict(statuses)}"
    )


def tictactoe_load(args: argparse.Namespace) -> bool:
    rng = random.Random(args.seed)
    every = tictactoe_positions()
    chosen = rng.sample(every, min(args.requests, len(every)))
    paths = [f"/api/analyze?game=tictactoe&moves={m}" for m in chosen]
    port = free_port()
    process = launch(port, workers=args.workers, queue=4 * args.concurrency)
    try:
        client = Client(port)
        client.get("/api/analyze?game=tictactoe&moves=")  # one connection warmed per worker
        print(
            f"tic-tac-toe: {len(chosen)} distinct positions of {len(every)} reachable, "
            f"{args.concurrency} at a time, {args.workers} workers"
        )
        start = time.perf_counter()
        latencies, statuses = run_many(client, paths, args.concurrency)
        report("  first pass (searched)", latencies, statuses, time.perf_counter() - start)
        start = time.perf_counter()
        again, statuses_again = run_many(client, paths, args.concurrency)
        report("  second pass (cached)", again, statuses_again, time.perf_counter() - start)
        print(f"  server: {health_of(port)}")
    finally:
        stop(process)
    p95 = percentile(latencies, 0.95)
    met = p95 < 0.050 and set(statuses) == {200}
    print(f"  goal p95 < 50 ms and 0 errors (first pass): {'met' if met else 'NOT met'}")
    return met


def connect4_burst(args: argparse.Namespace) -> bool:
    rng = random.Random(args.seed)
    positions = connect4_positions(args.burst, rng)
    port = free_port()
    process = launch(port, workers=args.workers, queue=10, cap=10)
    stop_health = threading.Event()
    health: list[float] = []

    def watch() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        while not stop_health.is_set():
            start = time.perf_counter()
            conn.request("GET", "/api/health")
            conn.getresponse().read()
            health.append(time.perf_counter() - start)
            stop_health.wait(0.05)
        conn.close()

    try:
        client = Client(port)
        watcher = threading.Thread(target=watch)
        watcher.start()
        paths = [f"/api/analyze?game=connect4&moves={m}&timeout=5" for m in positions]
        start = time.perf_counter()
        latencies, statuses = run_many(client, paths, len(paths))
        wall = time.perf_counter() - start
        stop_health.set()
        watcher.join()
    finally:
        stop(process)
    answered = sum(n for s, n in statuses.items() if s in (200, 503, 504))
    print(
        f"connect four: {len(paths)} analyses at once, {args.workers} workers, queue 10, "
        f"cap 5 s: answered {answered}/{len(paths)} {dict(statuses)} in {wall:.2f} s; "
        f"slowest answer {max(latencies):.2f} s"
    )
    print(
        f"  health checks during it: {len(health)}, p50 {statistics.median(health) * 1000:.1f} "
        f"ms, max {max(health) * 1000:.1f} ms"
    )
    met = answered == len(paths) and max(health) < 0.100
    print(f"  goal all answered, none lost, health < 100 ms: {'met' if met else 'NOT met'}")
    return met


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=20)
    parser.add_argument("--burst", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not (1 <= args.requests <= 5000 and 1 <= args.concurrency <= 100 and 1 <= args.burst <= 200):
        parser.error("at most 5,000 requests, 100 at a time, bursts of 200")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"machine: {os.cpu_count()} cores, load average {load} (other work slows the figures)")
    first = tictactoe_load(args)
    second = connect4_burst(args)
    return 0 if first and second else 1


if __name__ == "__main__":
    sys.exit(main())
