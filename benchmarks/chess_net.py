# The fitting loops are numba-compiled and carry no annotations.
# mypy: disable-error-code="no-untyped-def"
"""Fit a small neural network evaluation to self-play positions (``chess_selfplay.py --score``).

The network: for each side, 768 inputs (a piece of a colour and kind on a square, seen from
that side: its own pieces first, the board turned over for Black), one shared first layer of
``--hidden`` units clipped to [0, 1] (an *accumulator*, as in an efficiently updatable
network; by default the kernels' ``_tables.NET_HIDDEN``, which a file must match), then
one output from both sides' units, the side to move's first, in centipawns.
With ``--residual`` the network learns what to add to the hand-written evaluation
(``_eval.evaluate``) instead of the whole value.

The target of each position blends the search's score and the game's result (``--lambda`` of
the score): ``lambda * sigmoid(score / S) + (1 - lambda) * result``, the side to move's, where
``S`` is first fitted so that ``sigmoid(score / S)`` best predicts the results; the network's
value ``v`` is fitted so that ``sigmoid(v / S)`` meets the target (mean squared error, Adam,
minibatches; one game in twenty held out; the weights of the epoch with the least held-out
error kept). So the network's centipawns are the search's. While fitting, each piece has a
first-layer row of its own besides its 64 squares' (learned from every position holding the
piece; added into the squares' rows when saved); ``--mirror`` adds every training position with
its files mirrored, ``--decay`` a weight decay.

The kernel reads the saved file when ``UNBEATABLE_CHESS_NET`` names it (``_tables._load_net``):
``env UNBEATABLE_CHESS_NET=net.npz python -m unbeatable.uci`` plays with it.

    PYTHONPATH=src python benchmarks/chess_net.py DATA.txt [DATA2.txt ...] --out net.npz

The positions' inputs are counted once and kept beside the first file (``.net.npz``).
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from unbeatable.games.chess import _eval, _tables
from unbeatable.games.chess.core import Position, kernel_context

PIECES = "PNBRQKpnbrqk"
MAX_PIECES = 32


def inputs(fen: str) -> tuple[list[int], list[int], int]:
    """The active inputs of White's and Black's side, and the side to move (0 White)."""
    board, turn = fen.split()[:2]
    white: list[int] = []
    black: list[int] = []
    rank = 7
    file = 0
    for ch in board:
        if ch == "/":
            rank -= 1
            file = 0
        elif ch.isdigit():
            file += int(ch)
        else:
            piece = PIECES.index(ch)
            colour, kind = divmod(piece, 6)
            square = rank * 8 + file
            white.append((colour * 6 + kind) * 64 + square)
            black.append(((1 - colour) * 6 + kind) * 64 + (square ^ 56))
            file += 1
    return white, black, 0 if turn == "w" else 1


def prepare(paths: list[Path]) -> dict[str, npt.NDArray[Any]]:
    """The data of ``paths``, counted once (kept beside the first file)."""
    text = "".join(path.read_text() for path in paths)
    cache = paths[0].with_name(paths[0].name + f".{len(text)}.net.npz")
    if cache.exists():
        with np.load(cache) as saved:
            return dict(saved)
    rows = []
    game = 0
    for line in text.splitlines():
        if line.startswith("#"):
            game += 1
        elif line.count(";") == 2:
            fen, won, found = line.split(";")
            rows.append((fen, float(won), int(found), game))
    n = len(rows)
    feats = np.full((n, 2, MAX_PIECES), -1, dtype=np.int16)
    stm = np.zeros(n, dtype=np.int8)
    result = np.zeros(n, dtype=np.float32)  # the side to move's
    score = np.zeros(n, dtype=np.float32)  # the side to move's
    hce = np.zeros(n, dtype=np.float32)  # the hand-written evaluation, the side to move's
    games = np.zeros(n, dtype=np.int32)
    hand_written = _tables.build_tables("none")  # what a residual network adds to
    scratch = np.zeros(_eval.SCRATCH_WORDS, dtype=np.int64)
    start = time.perf_counter()
    for i, (fen, res, sc, g) in enumerate(rows):
        white, black, turn = inputs(fen)
        feats[i, 0, : len(white)] = white
        feats[i, 1, : len(black)] = black
        stm[i] = turn
        result[i] = res if turn == 0 else 1.0 - res
        score[i] = sc if turn == 0 else -sc
        with kernel_context():
            array = Position.from_fen(fen).array.copy()
            hce[i] = _eval.evaluate(array, hand_written, scratch)
        games[i] = g
        if i % 200_000 == 0 and i:
            print(f"  {i} positions counted, {time.perf_counter() - start:.0f} s", flush=True)
    np.savez(cache, feats=feats, stm=stm, result=result, score=score, hce=hce, games=games)
    return {"feats": feats, "stm": stm, "result": result, "score": score, "hce": hce,
            "games": games}  # fmt: skip


def fit_scale(score: npt.NDArray[Any], result: npt.NDArray[Any]) -> float:
    """The ``S`` under which ``sigmoid(score / S)`` best predicts ``result`` (a scan)."""
    best = (math.inf, 0.0)
    clipped = np.clip(score, -3000, 3000).astype(np.float64)
    for s in np.arange(50.0, 600.0, 2.0):
        p = 1.0 / (1.0 + np.exp(-clipped / s))
        best = min(best, (float(np.mean((p - result) ** 2)), float(s)))
    return best[1]


@numba.njit(cache=True, fastmath=True)
def _forward(w1, b1, w2, b2, f, turn, acc):
    """Accumulate both sides' units into ``acc`` (2 x hidden); return the output (pawns)."""
    hidden = b1.shape[0]
    for side in range(2):
        for h in range(hidden):
            acc[side, h] = b1[h]
        for j in range(f.shape[1]):
            x = f[side, j]
            if x < 0:
                break
            for h in range(hidden):
                acc[side, h] += w1[x, h] + w1[768 + x // 64, h]
    out = b2[0]
    for h in range(hidden):
        us = min(max(acc[turn, h], 0.0), 1.0)
        them = min(max(acc[1 - turn, h], 0.0), 1.0)
        out += w2[h] * us + w2[hidden + h] * them
    return out


@numba.njit(cache=True, fastmath=True)
def _epoch(w1, b1, w2, b2, params_m, params_v, feats, stm, base, target, order, batch, lr,
           decay, scale, step, train):  # fmt: skip
    """One pass over ``order`` (minibatches of ``batch``, Adam) when ``train``; return the
    mean squared error (before each batch's update) and the step count."""
    hidden = b1.shape[0]
    acc = np.zeros((2, hidden), dtype=np.float32)
    g1 = np.zeros_like(w1)
    gb1 = np.zeros_like(b1)
    g2 = np.zeros_like(w2)
    gb2 = np.zeros_like(b2)
    total = 0.0
    n = order.shape[0]
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    sizes = (w1.size, b1.size, w2.size, b2.size)
    for start in range(0, n, batch):
        end = min(start + batch, n)
        if train:
            g1[:] = 0.0
            gb1[:] = 0.0
            g2[:] = 0.0
            gb2[:] = 0.0
        for k in range(start, end):
            i = order[k]
            turn = stm[i]
            out = _forward(w1, b1, w2, b2, feats[i], turn, acc)
            value = base[i] + 100.0 * out
            p = 1.0 / (1.0 + math.exp(-value / scale))
            err = p - target[i]
            total += err * err
            if not train:
                continue
            g = 2.0 * err * p * (1.0 - p) / scale * 100.0 / (end - start)
            gb2[0] += g
            for side in range(2):
                offset = 0 if side == turn else hidden
                for h in range(hidden):
                    a = acc[side, h]
                    unit = min(max(a, 0.0), 1.0)
                    g2[offset + h] += g * unit
                    if 0.0 < a < 1.0:
                        d = g * w2[offset + h]
                        gb1[h] += d
                        for j in range(feats.shape[2]):
                            x = feats[i, side, j]
                            if x < 0:
                                break
                            g1[x, h] += d
                            g1[768 + x // 64, h] += d
        if not train:
            continue
        step += 1
        c1 = 1.0 - beta1**step
        c2 = 1.0 - beta2**step
        pos = 0
        flat = ((w1.reshape(w1.size), g1.reshape(g1.size), sizes[0]), (b1, gb1, sizes[1]),
                (w2, g2, sizes[2]), (b2, gb2, sizes[3]))  # fmt: skip
        for arr, grad, size in flat:
            for q in range(size):
                gq = grad[q]
                m = beta1 * params_m[pos + q] + (1.0 - beta1) * gq
                v = beta2 * params_v[pos + q] + (1.0 - beta2) * gq * gq
                params_m[pos + q] = m
                params_v[pos + q] = v
                arr[q] -= lr * ((m / c1) / (math.sqrt(v / c2) + eps) + decay * arr[q])
            pos += size
    return total / max(n, 1), step


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, nargs="+")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--hidden", type=int, default=_tables.NET_HIDDEN)
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--lambda", dest="lam", type=float, default=0.7)
    parser.add_argument("--residual", action="store_true")
    parser.add_argument("--mirror", action="store_true", help="add the file-mirrored boards")
    parser.add_argument("--decay", type=float, default=0.0, help="weight decay, per step")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    data = prepare(args.data)
    n = data["stm"].shape[0]
    scale = fit_scale(data["score"], data["result"])
    hce_scale = fit_scale(data["hce"], data["result"])
    print(f"{n} positions; S = {scale:.0f} (the score's), {hce_scale:.0f} (the evaluation's)")
    score = np.clip(data["score"], -3000, 3000)
    target = (args.lam / (1.0 + np.exp(-score / scale)) + (1 - args.lam) * data["result"]).astype(
        np.float32
    )
    base = data["hce"] if args.residual else np.zeros(n, dtype=np.float32)
    held = data["games"] % 20 == 0
    rng = np.random.default_rng(args.seed)
    train_idx = np.flatnonzero(~held)
    test_idx = np.flatnonzero(held)
    h = args.hidden
    # rows 768..779: each piece's value wherever it stands, shared by its 64 squares' rows
    # while fitting (it learns from every position that has the piece), folded into them after
    w1 = (rng.standard_normal((768 + 12, h)) * 0.05).astype(np.float32)
    w1[768:] = 0.0
    b1 = np.full(h, 0.5 if not args.residual else 0.0, dtype=np.float32)
    w2 = (rng.standard_normal(2 * h) * (0.01 if args.residual else 0.1)).astype(np.float32)
    b2 = np.zeros(1, dtype=np.float32)
    size = w1.size + b1.size + w2.size + b2.size
    m = np.zeros(size, dtype=np.float32)
    v = np.zeros(size, dtype=np.float32)
    feats, stm = data["feats"], data["stm"].astype(np.int64)
    if args.mirror:  # each training position again with its files mirrored (a <-> h)
        n_all = feats.shape[0]
        feats = np.concatenate([feats, np.where(feats >= 0, feats ^ 7, feats)])
        stm = np.concatenate([stm, stm])
        base = np.concatenate([base, base])
        target = np.concatenate([target, target])
        train_idx = np.concatenate([train_idx, train_idx + n_all])
    hce_p = 1.0 / (1.0 + np.exp(-np.clip(data["hce"], -3000, 3000) / scale))
    print(f"the hand-written evaluation's error on the held-out part: "
          f"{np.mean((hce_p[test_idx] - target[test_idx]) ** 2):.6f}")  # fmt: skip
    step = 0
    best = (math.inf, 0, (w1.copy(), b1.copy(), w2.copy(), b2.copy()))
    for epoch in range(args.epochs):
        lr = args.lr * (0.3 if epoch >= args.epochs * 2 // 3 else 1.0)
        order = rng.permutation(train_idx)
        t0 = time.perf_counter()
        train_err, step = _epoch(w1, b1, w2, b2, m, v, feats, stm, base, target, order,
                                 args.batch, lr, args.decay, scale, step, True)  # fmt: skip
        test_err, _ = _epoch(w1, b1, w2, b2, m, v, feats, stm, base, target, test_idx,
                             args.batch, lr, args.decay, scale, step, False)  # fmt: skip
        print(f"epoch {epoch + 1}: train {train_err:.6f}, held out {test_err:.6f} "
              f"({time.perf_counter() - t0:.0f} s)", flush=True)  # fmt: skip
        if test_err < best[0]:
            best = (test_err, epoch + 1, (w1.copy(), b1.copy(), w2.copy(), b2.copy()))
    w1, b1, w2, b2 = best[2]
    print(f"kept: epoch {best[1]}, held out {best[0]:.6f}")
    folded = w1[:768] + np.repeat(w1[768:], 64, axis=0)
    np.savez(args.out, w1=folded, b1=b1, w2=w2, b2=b2, residual=np.array(args.residual),
             scale=np.array(scale))  # fmt: skip


if __name__ == "__main__":
    main()
