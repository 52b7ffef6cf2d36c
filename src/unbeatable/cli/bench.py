"""``unbeatable bench``: fixed searches, their nodes and times, and the node-count signature."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .. import render
from ..bench import BENCH_POSITIONS, BenchResult, run_bench
from . import common
from .common import Streams


def add_parser(sub: argparse._SubParsersAction[common.Parser]) -> None:
    p = sub.add_parser(
        "bench",
        help="search fixed positions; print nodes, time and the node-count signature",
        description=(
            "Search a fixed set of positions at fixed depths and print each one's nodes and "
            "time, then the node total: a signature that changes only when the search visits "
            "different nodes (time varies from run to run; the signature must not)."
        ),
        epilog="Example: unbeatable bench",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(handler=run)


def as_json(results: list[BenchResult], interrupted: bool) -> dict[str, Any]:
    return {
        "positions": [
            {
                "game": r.position.game,
                "position": r.position.position,
                "depth": r.position.depth,
                "algorithm": r.position.algorithm,
                "table": r.position.table,
                "nodes": r.nodes,
                "seconds": round(r.seconds, 6),
                "score": str(r.score),
            }
            for r in results
        ],
        "signature": sum(r.nodes for r in results),
        "seconds": round(sum(r.seconds for r in results), 6),
        "complete": not interrupted,
    }


def show(streams: Streams, results: list[BenchResult], interrupted: bool) -> None:
    rows = [
        [
            r.position.label,
            str(r.nodes),
            f"{r.seconds * 1000:.1f}",
            f"{r.nodes / r.seconds / 1000:.0f}" if r.seconds > 0 else "-",
            str(r.score),
        ]
        for r in results
    ]
    render.print_table(
        streams.out,
        ["position", "nodes", "ms", "knodes/s", "score"],
        rows,
        color=render.is_tty(streams.out),
    )
    total = sum(r.nodes for r in results)
    seconds = sum(r.seconds for r in results)
    rate = f", {total / seconds / 1000:.0f} knodes/s" if seconds > 0 else ""
    streams.out.write(
        f"signature: {total} nodes in {seconds:.2f} s{rate}"
        f"{' (interrupted: incomplete)' if interrupted else ''}\n"
    )


def run(args: argparse.Namespace, streams: Streams) -> int:
    results: list[BenchResult] = []
    interrupted = False
    try:
        with render.progress(streams.err, len(BENCH_POSITIONS), "bench") as bar:

            def done(result: BenchResult) -> None:
                results.append(result)
                bar.advance()

            run_bench(on_result=done)
    except KeyboardInterrupt:
        interrupted = True
        streams.error(f"interrupted after {len(results)} position{'s' * (len(results) != 1)}")
    if args.json:
        streams.out.write(json.dumps(as_json(results, interrupted), indent=2) + "\n")
    else:
        show(streams, results, interrupted)
    return common.INTERRUPTED if interrupted else common.OK
