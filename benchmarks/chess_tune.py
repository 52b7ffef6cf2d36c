"""Fit the evaluation's weights (``_weights.WEIGHTS``) to the results of self-play games by
Texel's method: the weights under which ``sigmoid(K * evaluation)`` best predicts each
position's result (mean squared error), PeSTO's tables held fixed.

The data are ``chess_selfplay.py``'s lines (``FEN;result``). Every position's features are
counted once by the engine's own kernel (``_eval.features``: the same code as the evaluation's
``terms``), so the evaluation is linear in the weights and each step of the fit is two matrix
products (full-batch Adam, in numpy). ``K`` is first fitted to the current weights; one game
in ten (a game's positions together) is held out, and the fit reports the error on both parts
before and after.

    PYTHONPATH=src python benchmarks/chess_tune.py /tmp/selfplay.txt [--steps 3000]
        [--write src/unbeatable/games/chess/_weights.py]

``--write`` replaces the weights in ``_weights.py`` (between its ``# weights`` markers). The
counted features are kept beside the data (``DATA.<size>.<features>.npz``) for the next run.
"""

from __future__ import annotations

import argparse
import math
import re
import textwrap
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt

from unbeatable.games.chess import _eval, _weights
from unbeatable.games.chess.core import TABLES, Position, kernel_context

FloatArray = npt.NDArray[np.float64]


def load(
    path: Path, limit: int | None
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, npt.NDArray[np.int64]]:
    """The features (positions x features, White's view), PeSTO's (mg, eg), the phase, the
    results and the game numbers of the positions in ``path``."""
    text = path.read_text()
    cache = path.with_name(path.name + f".{len(text)}.{_weights.N_FEATURES}.npz")
    if cache.exists() and not limit:  # the features of this very file, counted before
        with np.load(cache) as saved:
            return (saved["feats"], saved["pesto"], saved["phase"], saved["results"],
                    saved["games"])  # fmt: skip
    rows = []
    games = []
    game = 0
    for line in text.splitlines():
        if line.startswith("#"):
            game += 1
        elif ";" in line:
            rows.append(line.rsplit(";", 1))
            games.append(game)
    if limit:
        rows = rows[:limit]
        games = games[:limit]
    n = len(rows)
    feats = np.zeros((n, _weights.N_FEATURES), dtype=np.float64)
    pesto = np.zeros((n, 2), dtype=np.float64)
    phase = np.zeros(n, dtype=np.float64)
    results = np.zeros(n, dtype=np.float64)
    out = np.zeros(_weights.N_FEATURES, dtype=np.int64)
    with kernel_context():
        for i, (fen, result) in enumerate(rows):
            out[:] = 0
            mg, eg, ph = _eval.features(Position.from_fen(fen).array, TABLES, out)
            feats[i] = out
            pesto[i] = mg, eg
            phase[i] = ph
            results[i] = float(result)
    numbers = np.array(games, dtype=np.int64)
    if not limit:
        np.savez(cache, feats=feats, pesto=pesto, phase=phase, results=results, games=numbers)
    return feats, pesto, phase, results, numbers


def evaluation(
    w: FloatArray, feats: FloatArray, pesto: FloatArray, phase: FloatArray
) -> FloatArray:
    """The evaluations (White's view, centipawns) under weights ``w`` (2 x features)."""
    mg: FloatArray = pesto[:, 0] + feats @ w[0]
    eg: FloatArray = pesto[:, 1] + feats @ w[1]
    return (mg * phase + eg * (24 - phase)) / 24


def error(k: float, e: FloatArray, results: FloatArray) -> float:
    p = 1 / (1 + np.power(10.0, -k * e / 400))
    return float(np.mean((results - p) ** 2))


def fit_k(e: FloatArray, results: FloatArray) -> float:
    """The scale ``K`` that fits the evaluations best (golden-section search on 0.2..3)."""
    lo, hi = 0.2, 3.0
    g = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
        if error(a, e, results) < error(b, e, results):
            hi = b
        else:
            lo = a
    return (lo + hi) / 2


def tune(w0: FloatArray, k: float, feats: FloatArray, pesto: FloatArray, phase: FloatArray,
         results: FloatArray, steps: int, rate: float, ridge: float) -> FloatArray:  # fmt: skip
    """Adam on the mean squared error plus ``ridge`` times the squared distance from ``w0``,
    full batch. Each mobility table's changes are kept to a mean of zero over the positions'
    pieces (a projection after each step): a table moved as a whole would change the piece's
    material value, which PeSTO sets."""
    w: FloatArray = w0.copy()
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    scale = k * math.log(10) / 400
    mg_share = phase / 24
    eg_share = 1 - mg_share
    tables = [(_weights.F_MOB_N, 9), (_weights.F_MOB_B, 14), (_weights.F_MOB_R, 15),
              (_weights.F_MOB_Q, 28)]  # fmt: skip
    counts = np.abs(feats).sum(axis=0)
    for t in range(1, steps + 1):
        e = evaluation(w, feats, pesto, phase)
        p = 1 / (1 + np.exp(-scale * e))
        d = -2 * (results - p) * p * (1 - p) * scale / len(e)  # dError/de per position
        grad = np.stack([feats.T @ (d * mg_share), feats.T @ (d * eg_share)])
        grad += 2 * ridge * (w - w0)
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= rate * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-12)
        for first, size in tables:
            part = slice(first, first + size)
            weight = counts[part] / max(counts[part].sum(), 1)
            change = w[:, part] - w0[:, part]
            w[:, part] -= (change @ weight)[:, None]
        if t % 500 == 0:
            print(f"  step {t}: error {error(k, e, results):.6f}", flush=True)
    return w


def write(path: Path, w: npt.NDArray[np.int64]) -> None:
    """Replace the weights between ``_weights.py``'s ``# weights`` markers with ``w``, a line
    of numbers per feature group under its name."""
    starts = sorted((v, n) for n, v in vars(_weights).items() if n.startswith("F_"))
    lines = ["# weights (chess_tune.py --write replaces this block)", "# fmt: off",
             "WEIGHTS = np.array(["]  # fmt: skip
    for part, label in enumerate(("middle game", "end game")):
        lines.append(f"    [  # {label}")
        for j, (first, name) in enumerate(starts):
            end = starts[j + 1][0] if j + 1 < len(starts) else _weights.N_FEATURES
            numbers = ", ".join(str(int(x)) for x in w[part, first:end]) + ","
            lines.append(f"        # {name}")
            lines.extend(textwrap.wrap(numbers, 92, initial_indent=" " * 8,
                                       subsequent_indent=" " * 8))  # fmt: skip
        lines.append("    ],")
    lines += ["], dtype=np.int64)", "# fmt: on", "# end weights"]
    text = path.read_text()
    new, count = re.subn(
        r"# weights \(.*?# end weights", lambda _: "\n".join(lines), text, flags=re.S
    )
    if count != 1:
        raise SystemExit(f"{path}: no '# weights (...' ... '# end weights' block")
    path.write_text(new)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("--limit", type=int, default=None, help="use the first N positions")
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--rate", type=float, default=1.0, help="Adam's step, centipawns")
    parser.add_argument(
        "--ridge", type=float, default=0.0, help="a pull toward the current weights"
    )
    parser.add_argument("--write", type=Path, default=None)
    args = parser.parse_args()
    start = time.perf_counter()
    feats, pesto, phase, results, games = load(args.data, args.limit)
    print(f"{len(results)} positions, features counted in {time.perf_counter() - start:.1f} s")
    held = games % 10 == 0  # one game in ten held out, all its positions
    train = ~held
    w0 = _weights.WEIGHTS.astype(np.float64)
    e0 = evaluation(w0, feats, pesto, phase)
    k = fit_k(e0[train], results[train])
    print(f"K = {k:.4f}; error with the current weights: training "
          f"{error(k, e0[train], results[train]):.6f}, held out "
          f"{error(k, e0[held], results[held]):.6f}")  # fmt: skip
    used = np.count_nonzero(feats, axis=0)
    w = tune(w0, k, feats[train], pesto[train], phase[train], results[train], args.steps,
             args.rate, args.ridge)  # fmt: skip
    w[:, used == 0] = w0[:, used == 0]  # a feature never seen keeps its weight
    rounded = np.round(w).astype(np.int64)
    e1 = evaluation(rounded.astype(np.float64), feats, pesto, phase)
    print(f"error with the fitted weights: training {error(k, e1[train], results[train]):.6f}, "
          f"held out {error(k, e1[held], results[held]):.6f}")  # fmt: skip
    names = {v: n for n, v in vars(_weights).items() if n.startswith("F_")}
    for i in range(_weights.N_FEATURES):
        label = names.get(i, "")
        print(f"{i:4d} {label:22} seen {used[i]:7d}  mg {w0[0, i]:6.0f} -> {rounded[0, i]:5d}"
              f"  eg {w0[1, i]:6.0f} -> {rounded[1, i]:5d}")  # fmt: skip
    if args.write:
        write(args.write, rounded)
        print(f"written to {args.write}")


if __name__ == "__main__":
    main()
