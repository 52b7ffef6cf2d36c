"""Speed of the chess engine through UCI: ``go depth N`` from three positions (an Italian
opening, 'Kiwipete', WAC.001), each after ``ucinewgame``; nodes, time and nodes per second as
the engine reports them in its last ``info`` line.

    python benchmarks/chess_depth.py [depth]          (default 4)
    PYTHONPATH=other/src python benchmarks/chess_depth.py   compares another checkout
"""

from __future__ import annotations

import subprocess
import sys

FENS = [
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
]


def main() -> None:
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    engine = subprocess.Popen(
        [sys.executable, "-m", "unbeatable.uci"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert engine.stdin is not None and engine.stdout is not None
    total_nodes = total_ms = 0
    for fen in FENS:
        engine.stdin.write(f"ucinewgame\nposition fen {fen}\ngo depth {depth}\n")
        engine.stdin.flush()
        nodes = ms = 0
        for line in engine.stdout:
            words = line.split()
            if line.startswith("info depth"):
                nodes = int(words[words.index("nodes") + 1])
                ms = int(words[words.index("time") + 1])
            elif line.startswith("bestmove"):
                print(f"{fen}: {line.strip()}, nodes {nodes:,}, {ms} ms")
                break
        total_nodes += nodes
        total_ms += ms
    engine.stdin.write("quit\n")
    engine.stdin.flush()
    engine.wait()
    nps = total_nodes * 1000 // max(total_ms, 1)
    print(f"depth {depth}: nodes {total_nodes:,}, time {total_ms / 1000:.1f} s, {nps:,} nodes/s")


if __name__ == "__main__":
    main()
