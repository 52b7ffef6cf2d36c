"""The learned evaluation's kernels (``_eval.net_refresh``, ``net_move``, ``net_output``;
weights loaded by ``_tables.build_tables`` from a file, ``UNBEATABLE_CHESS_NET``'s by default):
the value a plain numpy reading of the same weights gives, the same for either colour, added to
the hand-written evaluation in the residual mode, the units kept up to date move by move equal
to the units counted afresh (castling, en passant and promotions among the moves); and a file
that cannot be played (missing, not a network, the wrong shape, weights too large) refused in
one line naming the variable and the file, by the library and by every front end."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from tests.test_chess_eval import _mirror, _positions
from unbeatable.games.chess import _eval, _tables, check_network
from unbeatable.games.chess._tables import CAPTURE, EMPTY, EN_PASSANT, PAWN, PROMOTION
from unbeatable.games.chess.core import TABLES, Position, kernel_context

HIDDEN = _tables.NET_HIDDEN
SRC = Path(__file__).resolve().parents[1] / "src"


def _net(path: Path, seed: int, residual: bool = False) -> dict[str, npt.NDArray[np.float32]]:
    rng = np.random.default_rng(seed)
    net = {
        "w1": (rng.standard_normal((768, HIDDEN)) * 0.1).astype(np.float32),
        "b1": rng.uniform(0.0, 1.0, HIDDEN).astype(np.float32),
        "w2": (rng.standard_normal(2 * HIDDEN) * 0.5).astype(np.float32),
        "b2": np.array([0.1], dtype=np.float32),
    }
    np.savez(path, w1=net["w1"], b1=net["b1"], w2=net["w2"], b2=net["b2"],
             residual=np.array(residual))  # fmt: skip
    return net


def _reference(net: dict[str, npt.NDArray[np.float32]], position: Position) -> float:
    """The network's value (centipawns, the side to move's) by matrix products over the
    one-hot inputs of each side: the first layer in whole steps of ``NET_ONE`` (as the kernel
    stores it), the output in float64."""
    one = _tables.NET_ONE
    inputs = np.zeros((2, 768), dtype=np.int64)
    for square, piece in enumerate(position.board()):
        if piece == 12:  # empty
            continue
        colour, kind = divmod(piece, 6)
        inputs[0, (colour * 6 + kind) * 64 + square] = 1
        inputs[1, ((1 - colour) * 6 + kind) * 64 + (square ^ 56)] = 1
    w1 = np.round(net["w1"].astype(np.float64) * one).astype(np.int64)
    b1 = np.round(net["b1"].astype(np.float64) * one).astype(np.int64)
    units = np.clip(inputs @ w1 + b1, 0, one) / one
    us = 0 if position.turn == 0 else 1
    value = net["w2"][:HIDDEN] @ units[us] + net["w2"][HIDDEN:] @ units[1 - us] + net["b2"][0]
    return float(100 * value)


def _evaluate(position: Position, tab: npt.NDArray[np.uint64]) -> int:
    scratch = np.zeros(_eval.SCRATCH_WORDS, dtype=np.int64)
    with kernel_context():
        return int(_eval.evaluate(position.array.copy(), tab, scratch))


def test_the_kernel_reads_the_weights_as_a_plain_reading_does(tmp_path: Path) -> None:
    net = _net(tmp_path / "net.npz", 5)
    tab = _tables.build_tables(str(tmp_path / "net.npz"))
    assert tab[_tables.T_NET_MODE] == _tables.NET_WHOLE
    values = set()
    for position in _positions(200, 11):
        value = _evaluate(position, tab)
        # float32 against float64 in the output layer: within a centipawn of the rounding
        assert abs(value - _reference(net, position)) <= 1.0, position.fen()
        values.add(value)
    assert len(values) > 100  # the weights reach the value: not one constant


def test_the_network_scores_a_position_as_its_mirror_with_colours_swapped(tmp_path: Path) -> None:
    _net(tmp_path / "net.npz", 6)
    tab = _tables.build_tables(str(tmp_path / "net.npz"))
    for position in _positions(200, 12):
        mirrored = Position.from_fen(_mirror(position.fen()))
        # the first layer sums whole numbers (int16), so the order of the pieces cannot matter
        assert _evaluate(position, tab) == _evaluate(mirrored, tab), position.fen()


def test_the_residual_mode_adds_the_network_to_the_hand_written_evaluation(tmp_path: Path) -> None:
    _net(tmp_path / "whole.npz", 7)
    _net(tmp_path / "residual.npz", 7, residual=True)
    whole = _tables.build_tables(str(tmp_path / "whole.npz"))
    residual = _tables.build_tables(str(tmp_path / "residual.npz"))
    alone = _tables.build_tables("none")
    assert residual[_tables.T_NET_MODE] == _tables.NET_RESIDUAL
    bare = 0
    for position in _positions(300, 13):
        hand_written = _evaluate(position, alone)
        if _bare_king(position):  # against a bare king the mop-up terms lead alone
            bare += 1
            assert _evaluate(position, residual) == hand_written
        else:
            assert _evaluate(position, residual) == hand_written + _evaluate(position, whole)
    assert bare > 0


def _bare_king(position: Position) -> bool:
    """Whether a side has its king alone."""
    board = position.fen().split()[0]
    return not any(c in board for c in "PNBRQ") or not any(c in board for c in "pnbrq")


@pytest.mark.parametrize("setting", ["none", "", "None"])
def test_asked_for_none_the_tables_carry_no_network(
    setting: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UNBEATABLE_CHESS_NET", setting)
    tab = _tables.build_tables()
    assert tab[_tables.T_NET_MODE] == _tables.NET_OFF
    assert not tab[_tables.T_NET : _tables.T_SIZE].any()


def test_by_default_the_engine_plays_with_the_packaged_network(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("UNBEATABLE_CHESS_NET", raising=False)
    tab = _tables.build_tables()
    assert tab[_tables.T_NET_MODE] == _tables.NET_RESIDUAL
    assert (tab == TABLES).all()  # what the engine imported
    monkeypatch.setenv("UNBEATABLE_CHESS_NET", "none")
    alone = _tables.build_tables()
    positions = [p for p in _positions(80, 14) if not _bare_king(p)]
    changed = [p for p in positions if _evaluate(p, tab) != _evaluate(p, alone)]
    assert len(positions) > 30
    assert len(changed) > 0.9 * len(positions)  # the network adds to almost every value


def test_a_network_of_another_size_is_refused_by_its_file_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "small.npz"
    np.savez(path, w1=np.zeros((768, 8), np.float32), b1=np.zeros(8, np.float32),
             w2=np.zeros(16, np.float32), b2=np.zeros(1, np.float32),
             residual=np.array(False))  # fmt: skip
    monkeypatch.setenv("UNBEATABLE_CHESS_NET", str(path))
    with pytest.raises(ValueError, match=r"small\.npz: a network of 8 units"):
        _tables.build_tables()


def _units(position: Position, tab: npt.NDArray[np.uint64]) -> npt.NDArray[np.int64]:
    words = np.zeros(_eval.S_NET_WORDS, dtype=np.int64)
    with kernel_context():
        _eval.net_refresh(position.array.copy(), tab, words)
    return words


def test_the_units_kept_up_to_date_move_by_move_are_the_units_counted_afresh(
    tmp_path: Path,
) -> None:
    _net(tmp_path / "net.npz", 8)
    tab = _tables.build_tables(str(tmp_path / "net.npz"))
    rng = np.random.default_rng(9)
    kinds = {"castling": 0, "en passant": 0, "promotion": 0, "capture": 0}
    for _ in range(60):
        position = Position.initial()
        words = _units(position, tab)
        for _ in range(200):
            moves = position.legal_moves()
            if not moves:
                break
            special = [m for m in moves if m >> 12 in (2, 3, EN_PASSANT) or m >> 12 & PROMOTION]
            pool = special if special and rng.random() < 0.7 else moves
            move = int(pool[rng.integers(len(pool))])
            flag = move >> 12
            to = (move >> 6) & 63
            captured = EMPTY
            if flag == EN_PASSANT:
                captured = (1 - position.turn) * 6 + PAWN
            elif flag & CAPTURE:
                captured = position.board()[to]
            kinds["castling"] += flag in (2, 3)
            kinds["en passant"] += flag == EN_PASSANT
            kinds["promotion"] += bool(flag & PROMOTION)
            kinds["capture"] += captured != EMPTY
            after = position.play(move)
            moved = np.zeros_like(words)
            with kernel_context():
                _eval.net_move(after.array.copy(), tab, move, captured, words, moved)
            assert (moved == _units(after, tab)).all(), (position.fen(), move)
            position, words = after, moved
    assert all(count >= 5 for count in kinds.values()), kinds


def test_weights_too_large_for_the_kernels_sums_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    net = _net(tmp_path / "net.npz", 10)
    for layer, message in (("w1", "first-layer"), ("w2", "output")):
        big = dict(net)
        big[layer] = net[layer] * (1000 if layer == "w1" else 10_000)
        path = tmp_path / f"big-{layer}.npz"
        np.savez(path, w1=big["w1"], b1=big["b1"], w2=big["w2"], b2=big["b2"],
                 residual=np.array(False))  # fmt: skip
        monkeypatch.setenv("UNBEATABLE_CHESS_NET", str(path))
        with pytest.raises(ValueError, match=f"big-{layer}.npz: {message} weights too large"):
            _tables.build_tables()


def _bad_files(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """Files that are not networks the kernels can play, and what the error says of each."""
    (tmp_path / "garbage.npz").write_bytes(b"\x93NUMPY not really" * 10)
    np.savez(tmp_path / "keys.npz", w1=np.zeros((768, HIDDEN), np.float32))
    np.savez(tmp_path / "shape.npz", w1=np.zeros((700, HIDDEN), np.float32),
             b1=np.zeros(HIDDEN, np.float32), w2=np.zeros(2 * HIDDEN, np.float32),
             b2=np.zeros(1, np.float32), residual=np.array(True))  # fmt: skip
    net = _net(tmp_path / "nan.npz", 3)
    net["w2"][5] = np.nan
    np.savez(tmp_path / "nan.npz", w1=net["w1"], b1=net["b1"], w2=net["w2"], b2=net["b2"],
             residual=np.array(True))  # fmt: skip
    return {
        "missing": (tmp_path / "missing.npz", "no such file"),
        "directory": (tmp_path, "a directory, not a network file"),
        "garbage": (tmp_path / "garbage.npz", r"not a network file \(benchmarks"),
        "keys": (tmp_path / "keys.npz", r"not a network file \(no b1, w2, b2, residual\)"),
        "shape": (tmp_path / "shape.npz", rf"not a network file \(layers shaped \(700, {HIDDEN}\)"),
        "nan": (tmp_path / "nan.npz", r"not a network file \(weights not all finite\)"),
    }


@pytest.mark.parametrize("kind", ["missing", "directory", "garbage", "keys", "shape", "nan"])
def test_a_file_that_is_no_network_is_refused_in_one_line_naming_it(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, why = _bad_files(tmp_path)[kind]
    with pytest.raises(_tables.NetworkFileError, match=f"^{re.escape(str(path))}: {why}") as got:
        _tables.build_tables(str(path))
    assert "\n" not in str(got.value)
    monkeypatch.setenv("UNBEATABLE_CHESS_NET", str(path))
    variable = re.escape(f"UNBEATABLE_CHESS_NET={path}")
    with pytest.raises(_tables.NetworkFileError, match=f"^{variable}: {why}"):
        _tables.build_tables()
    with pytest.raises(ValueError, match=f"^{variable}: {why}"):
        check_network()


def test_every_front_end_refuses_a_bad_network_file_in_one_line_and_exit_code_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from unbeatable import uci
    from unbeatable.web import server

    path = _bad_files(tmp_path)["garbage"][0]
    # the command line: the engine's tables are built when chess is first imported, so in a
    # process of its own (this one imported chess long ago); named from its folder (the
    # command line cuts a long echo in the middle)
    env = {**os.environ, "UNBEATABLE_CHESS_NET": path.name, "PYTHONPATH": str(SRC)}
    said = f"UNBEATABLE_CHESS_NET={path.name}: not a network file {_WRITES}"
    for command in (["analyze", "chess", "startpos", "--time", "1"], ["play", "chess"]):
        done = subprocess.run(
            [sys.executable, "-m", "unbeatable", *command],
            env=env, cwd=tmp_path, input="", capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert done.returncode == 2, done.stderr
        # the one line, before any announcement of a build of the kernels (a cold cache)
        assert done.stderr.splitlines() == [f"unbeatable: error: 'chess': {said}"]
        assert done.stdout == ""
    said = f"UNBEATABLE_CHESS_NET={path}: not a network file {_WRITES}"
    monkeypatch.setenv("UNBEATABLE_CHESS_NET", str(path))
    out, err = io.StringIO(), io.StringIO()
    assert uci.main([], stdin=io.StringIO("uci\nisready\nquit\n"), stdout=out, stderr=err) == 2
    assert out.getvalue() == ""  # not even id lines: a GUI sees the engine fail to start
    assert err.getvalue().splitlines() == [f"unbeatable uci: error: {said}"]
    err = io.StringIO()
    assert server.main(["--port", "0"], stderr=err) == 2  # before it binds or serves
    assert err.getvalue().splitlines() == [f"unbeatable serve: error: {said}"]


_WRITES = "(benchmarks/chess_net.py writes them)"
