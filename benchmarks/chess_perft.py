"""Perft of the compiled chess core: the published counts at full depth, and the speed beside
python-chess's in the same run.

    PYTHONPATH=src python benchmarks/chess_perft.py                   # full depths, checked
    PYTHONPATH=src python benchmarks/chess_perft.py --peer python-chess
    PYTHONPATH=src python benchmarks/chess_perft.py --fen "<FEN>" --depth 5 --divide

Without ``--peer``: each position of the chessprogramming wiki's perft page at its published
depth (start 6 = 119,060,324; Kiwipete 5 = 193,690,690; positions 3 to 6), the count checked
against the published one (a mismatch exits 1), with the time and nodes per second.

With ``--peer python-chess``: the same positions at a depth python-chess does in seconds, both
counted the same way (the last ply in bulk: the length of the legal move list; python-chess by
``push``/``pop`` and ``legal_moves.count()``), one after the other on each position; the
counts must agree. Our time is the best of repeated runs of at least 0.2 s (a run at these
depths is milliseconds); python-chess's one run. Prints both speeds and the ratio.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from unbeatable.games.chess.core import Position, divide, perft

# name, FEN, published counts (depth 1 first), depth for the peer comparison
POSITIONS = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        (20, 400, 8_902, 197_281, 4_865_609, 119_060_324),
        4,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        (48, 2_039, 97_862, 4_085_603, 193_690_690),
        3,
    ),
    (
        "position 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        (14, 191, 2_812, 43_238, 674_624, 11_030_083, 178_633_661),
        5,
    ),
    (
        "position 4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        (6, 264, 9_467, 422_333, 15_833_292, 706_045_033),
        4,
    ),
    (
        "position 5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        (44, 1_486, 62_379, 2_103_487, 89_941_194),
        3,
    ),
    (
        "position 6",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        (46, 2_079, 89_890, 3_894_594, 164_075_551, 6_923_051_137),
        3,
    ),
]


def load() -> str:
    try:
        return " ".join(f"{v:.2f}" for v in os.getloadavg())
    except OSError:
        return "unknown"


def python_chess_perft(board: object, depth: int) -> int:
    """python-chess's perft, the last ply counted in bulk."""
    import chess

    assert isinstance(board, chess.Board)
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += python_chess_perft(board, depth - 1)
        board.pop()
    return total


def _ours_timed(position: Position, depth: int) -> tuple[int, float]:
    """The count and the best seconds of repeated runs lasting at least 0.2 s in all."""
    best = float("inf")
    spent = 0.0
    while spent < 0.2:
        start = time.perf_counter()
        count = perft(position, depth)
        took = time.perf_counter() - start
        best = min(best, took)
        spent += took
    return count, best


def full_depth(max_depth: int) -> int:
    bad = 0
    total_nodes, total_time = 0, 0.0
    for name, fen, counts, _ in POSITIONS:
        depth = min(len(counts), max_depth)
        position = Position.from_fen(fen)
        start = time.perf_counter()
        got = perft(position, depth)
        took = time.perf_counter() - start
        want = counts[depth - 1]
        ok = got == want
        bad += not ok
        total_nodes += got
        total_time += took
        print(
            f"{name:11} depth {depth}: {got:>14,} {'ok' if ok else f'WRONG (published {want:,})'}"
            f"  {took:7.2f} s  {got / took / 1e6:7.1f} M nodes/s",
            flush=True,
        )
    rate = total_nodes / total_time / 1e6
    print(f"all: {total_nodes:,} nodes in {total_time:.1f} s, {rate:.1f} M nodes/s")
    return 1 if bad else 0


def against_python_chess(max_depth: int) -> int:
    import chess

    print("depth  position      nodes        ours (M/s)   python-chess (M/s)   ratio")
    ours_t = theirs_t = 0.0
    nodes_all = 0
    for name, fen, counts, peer_depth in POSITIONS:
        depth = min(peer_depth, max_depth)
        position = Position.from_fen(fen)
        count, ours = _ours_timed(position, depth)
        board = chess.Board(fen)
        start = time.perf_counter()
        theirs_count = python_chess_perft(board, depth)
        theirs = time.perf_counter() - start
        if not count == theirs_count == counts[depth - 1]:
            print(f"{name}: counts differ: ours {count}, python-chess {theirs_count}")
            return 1
        ours_t += ours
        theirs_t += theirs
        nodes_all += count
        print(
            f"{depth:5}  {name:11} {count:>10,}   {count / ours / 1e6:10.1f}   "
            f"{count / theirs / 1e6:18.3f}   {theirs / ours:6.0f}x",
            flush=True,
        )
    print(
        f"all positions: ours {nodes_all / ours_t / 1e6:.1f} M nodes/s, python-chess "
        f"{nodes_all / theirs_t / 1e6:.3f} M nodes/s: {theirs_t / ours_t:.0f}x"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--peer", choices=["python-chess"], help="compare with a peer, same run")
    p.add_argument(
        "--max-depth", type=int, default=7, help="cap the depths, the peer's too (quick look)"
    )
    p.add_argument("--fen", help="one position of your own (with --depth)")
    p.add_argument("--depth", type=int, default=5)
    p.add_argument("--divide", action="store_true", help="each root move's count")
    args = p.parse_args(argv)
    print(f"load average at the start: {load()}", flush=True)
    perft(Position.initial(), 2)  # compiles (or loads) the kernels outside the timing
    if args.fen:
        position = Position.from_fen(args.fen)
        start = time.perf_counter()
        if args.divide:
            rows = divide(position, args.depth)
            for move, count in rows:
                print(f"{move}: {count}")
            nodes = sum(count for _, count in rows)
            print(f"\nNodes searched: {nodes}")
        else:
            nodes = perft(position, args.depth)
            print(f"perft {args.depth}: {nodes:,}")
        took = time.perf_counter() - start
        print(f"{took:.2f} s, {nodes / took / 1e6:.1f} M nodes/s")
        return 0
    code = against_python_chess(args.max_depth) if args.peer else full_depth(args.max_depth)
    print(f"load average at the end: {load()}")
    return code


if __name__ == "__main__":
    sys.exit(main())
