"""Parts of the compiled chess engine on their own: the static exchange evaluation
(``_eval.see``) on hand-worked exchanges, the transposition table (``_tt``: what a probe gives
back, torn entries, the bucket's replacement rule of the module's docstring, mate scores), the
bench signature's determinism, and ``analyze chess --algorithm alphabeta`` reaching the generic
engine rather than the compiled searcher."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from unbeatable import get_game
from unbeatable.games.chess import _eval, _order, _tables, _tt
from unbeatable.games.chess.core import TABLES, Position, kernel_context
from unbeatable.games.chess.searcher import BENCH_FENS, Limits, Searcher, bench
from unbeatable.search import Limits as GenericLimits
from unbeatable.search import SearchOptions, search

ROOT = Path(__file__).resolve().parent.parent

# --- static exchange evaluation ----------------------------------------------------------------
#
# ``see`` counts in ``_eval.SEE_VALUE``: pawn 100, knight 320, bishop 330, rook 500, queen 900,
# king 20,000. The result is the material the side making the move gains (negative: it loses),
# each side taking with its least valuable piece first and free to stop when taking would lose.
# The swap list below: g0 is what the move takes, g(k) = (value of the piece that took last)
# - g(k-1) is what the k-th recapturer has if the exchange ends there; then from the end
# g(k-1) = -max(-g(k-1), g(k)), and the answer is g0.


def _mirror_fen(fen: str) -> str:
    """The same position upside down with the colours swapped (castling left out: no case of
    ``SEE_CASES`` castles)."""
    board, side, _, ep, half, full = fen.split()
    rows = board.split("/")[::-1]
    flipped = "/".join(row.swapcase() for row in rows)
    if ep != "-":
        ep = ep[0] + ("6" if ep[1] == "3" else "3")
    return f"{flipped} {'b' if side == 'w' else 'w'} - {ep} {half} {full}"


def _mirror_uci(move: str) -> str:
    return "".join(str(9 - int(c)) if c.isdigit() else c for c in move)


def _see(fen: str, uci: str) -> int:
    position = Position.from_fen(fen)
    move = position.parse_uci(uci)
    gain = np.zeros(34, dtype=np.int64)
    with kernel_context():  # a writable copy: the search passes its own writable array
        return int(_eval.see(position.array.copy(), TABLES, np.int64(move), gain))


SEE_CASES = [
    # A rook takes an undefended knight: g0 = 320, nobody recaptures.
    pytest.param("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", "d1d5", 320, id="free-capture"),
    # A queen takes a pawn the pawn e6 defends: g0 = 100, exd5 g1 = 900 - 100 = 800; White has
    # nothing left. g0 = -max(-100, 800) = -800: the queen is lost for a pawn.
    pytest.param("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", -800, id="queen-takes-defended"),
    # The defender may decline: Rd2xd5 g0 = 100, Qxd5 g1 = 500 - 100 = 400, Rd1xd5 g2 = 900 -
    # 400 = 500. g1 = -max(-400, 500) = -500 (the queen does better not to take), g0 =
    # -max(-100, -500) = 100. Had Black to take back, it would be 500.
    pytest.param("3qk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100, id="defender-declines"),
    # A rook takes a rook that a pawn defends: g0 = 500, exd5 g1 = 500 - 500 = 0;
    # g0 = -max(-500, 0) = 0: an even trade.
    pytest.param("4k3/8/4p3/3r4/8/8/8/3RK3 w - - 0 1", "d1d5", 0, id="even-trade"),
    # Doubled rooks (the x-ray behind the capturer): Rd2xd5 g0 = 320, Rd8xd5 g1 = 500 - 320 =
    # 180, Rd1xd5 (seen through d2 once that rook has gone) g2 = 500 - 180 = 320; Black has no
    # more. g1 = -max(-180, 320) = -320, g0 = -max(-320, -320) = 320. Without the rook on d1 in
    # the exchange it would be -180.
    pytest.param("3rk3/8/8/3n4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 320, id="xray-behind-the-capturer"),
    # Doubled rooks on both sides (the x-ray behind a recapturer): g0 = 320 (Rd2xd5), g1 = 500 -
    # 320 = 180 (Rd7xd5), g2 = 500 - 180 = 320 (Rd1xd5), g3 = 500 - 320 = 180 (Rd8xd5, seen
    # once d7 has gone). g2 = -max(-320, 180) = -180, g1 = -max(-180, -180) = 180,
    # g0 = -max(-320, 180) = -180: a rook for a knight. Without Rd8 it would be +320.
    pytest.param(
        "3rk3/3r4/8/3n4/8/8/3R4/3RK3 w - - 0 1", "d2d5", -180, id="xray-behind-a-recapturer"
    ),
    # A bishop behind a pawn on the diagonal (b7, c6, d5): Nc3xd5 g0 = 100, cxd5 g1 = 320 - 100
    # = 220, Nf4xd5 g2 = 100 - 220 = -120, Bb7xd5 (uncovered by the pawn's capture) g3 = 320 -
    # (-120) = 440; White has no more. g2 = -max(120, 440) = -440, g1 = -max(-220, -440) = 220,
    # g0 = -max(-100, 220) = -220: a knight for a pawn. Without the bishop it would be -120.
    pytest.param("4k3/1b6/2p5/3p4/5N2/2N5/8/4K3 w - - 0 1", "c3d5", -220, id="xray-behind-a-pawn"),
    # Least valuable first: Nc3xd5 g0 = 320, exd5 (the pawn before the queen) g1 = 320 - 320 =
    # 0, Rxd5 g2 = 100 - 0 = 100, Qxd5 g3 = 500 - 100 = 400. g2 = -max(-100, 400) = -400,
    # g1 = -max(0, -400) = 0, g0 = -max(-320, 0) = 0: knight for knight. (The queen first would
    # make it 320.)
    pytest.param("3qk3/8/4p3/3n4/8/2N5/8/3RK3 w - - 0 1", "c3d5", 0, id="least-valuable-first"),
    # The king may take a piece nobody defends: Rxd5 g0 = 100, Kxd5 g1 = 500 - 100 = 400;
    # g0 = -max(-100, 400) = -400.
    pytest.param("8/8/4k3/3p4/8/8/8/3RK3 w - - 0 1", "d1d5", -400, id="king-recaptures"),
    # ... but not one the other side still guards: Rd2xd5 g0 = 100 and the king may not take
    # (Rd1 would take it): 100.
    pytest.param("8/8/4k3/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100, id="king-may-not-recapture"),
    # A quiet move onto a square a pawn attacks: g0 = 0 (nothing taken), cxd4 g1 = 900 - 0;
    # g0 = -max(0, 900) = -900.
    pytest.param("4k3/8/8/2p5/8/8/8/3QK3 w - - 0 1", "d1d4", -900, id="quiet-move-en-prise"),
    # A quiet move to a square nobody attacks: 0.
    pytest.param("4k3/8/8/2p5/8/8/8/3QK3 w - - 0 1", "d1d2", 0, id="quiet-move-safe"),
    # A promotion counts the piece gained: g0 = 900 - 100 = 800, nobody takes on e8.
    pytest.param("7k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", 800, id="promotion"),
    pytest.param("7k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8n", 220, id="underpromotion"),
    # ... and the piece then lost: g0 = 800, Rxe8 g1 = 900 - 800 = 100; g0 = -max(-800, 100)
    # = -100 (the pawn is gone).
    pytest.param("r6k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", -100, id="promotion-taken"),
    # En passant: g0 = 100, cxd6 g1 = 100 - 100 = 0; g0 = -max(-100, 0) = 0.
    pytest.param("4k3/2p5/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", 0, id="en-passant"),
    # ... and the pawn taken en passant leaves the d-file open behind d6: g0 = 100, cxd6 g1 = 0,
    # Rd1xd6 g2 = 100 - 0 = 100. g1 = -max(0, 100) = -100, g0 = -max(-100, -100) = 100.
    pytest.param("4k3/2p5/8/3pP3/8/8/8/3RK3 w - d6 0 2", "e5d6", 100, id="en-passant-uncovers"),
]


@pytest.mark.parametrize(("fen", "uci", "expected"), SEE_CASES)
def test_see_of_hand_worked_exchanges(fen: str, uci: str, expected: int) -> None:
    assert _see(fen, uci) == expected


@pytest.mark.parametrize(("fen", "uci", "expected"), SEE_CASES)
def test_see_is_the_movers_gain_for_either_colour(fen: str, uci: str, expected: int) -> None:
    """The same exchanges with the colours swapped (Black moves): the same value, so the sign is
    the mover's gain, not White's."""
    assert _see(_mirror_fen(fen), _mirror_uci(uci)) == expected


def test_see_of_castling_is_zero() -> None:
    # the king's move to g1 takes nothing and nothing attacks g1 (castling into an attack is
    # illegal): 0, with the king's 20,000 counted nowhere
    assert _see("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1") == 0


# --- transposition table -----------------------------------------------------------------------

I64 = np.int64


def _table(buckets: int) -> npt.NDArray[np.uint64]:
    return np.zeros(buckets * _tt.BUCKET * 2, dtype=np.uint64)


def _store(
    tt: npt.NDArray[np.uint64],
    key: int,
    depth: int,
    gen: int,
    *,
    move: int = 0,
    score: int = 0,
    static_eval: int = 0,
    bound: int | np.int64 = _tt.LOWER,
) -> None:
    with kernel_context():
        _tt.store(
            tt, np.uint64(key), I64(move), I64(score), I64(static_eval), I64(depth),
            I64(bound), I64(gen),
        )  # fmt: skip


def _probe(tt: npt.NDArray[np.uint64], key: int) -> int:
    with kernel_context():
        return int(_tt.probe(tt, np.uint64(key)))


def _fields(data: int) -> tuple[int, int, int, int, int]:
    """(move, score, static evaluation, depth, bound) of an entry's data."""
    word = np.uint64(data)
    return (
        int(_tt.entry_move(word)),
        int(_tt.entry_score(word)),
        int(_tt.entry_eval(word)),
        int(_tt.entry_depth(word)),
        int(_tt.entry_bound(word)),
    )


def _present(tt: npt.NDArray[np.uint64], keys: list[int]) -> list[bool]:
    return [_probe(tt, key) != 0 for key in keys]


# Keys of bucket 2 of a 4-bucket table (the bucket is the key's low bits), high bits apart.
BUCKETS = 4
K = [(0x9E37_79B9_7F4A_7C15 * (i + 1) & ~3 & (2**64 - 1)) | 2 for i in range(8)]


def test_a_probe_gives_back_what_was_stored() -> None:
    tt = _table(BUCKETS)
    e2e4 = Position.initial().parse_uci("e2e4")
    _store(tt, K[0], 9, 5, move=e2e4, score=-250, static_eval=37, bound=_tt.LOWER)
    _store(tt, K[1], 0, 5, move=0, score=1234, static_eval=-80, bound=_tt.UPPER)
    _store(tt, K[2], 200, 5, move=0xBF34, score=-_tt.MATE, static_eval=0, bound=_tt.EXACT)
    assert _fields(_probe(tt, K[0])) == (e2e4, -250, 37, 9, int(_tt.LOWER))
    assert _fields(_probe(tt, K[1])) == (0, 1234, -80, 0, int(_tt.UPPER))
    assert _fields(_probe(tt, K[2])) == (0xBF34, -_tt.MATE, 0, 200, int(_tt.EXACT))
    # all in bucket 2 (words 16..23 of the table): the other buckets are untouched
    assert not tt[: 2 * 2 * _tt.BUCKET].any() and not tt[3 * 2 * _tt.BUCKET :].any()


def test_a_key_never_stored_misses() -> None:
    tt = _table(BUCKETS)
    assert _probe(tt, K[0]) == 0 and _probe(tt, 0) == 0  # an empty table, key 0 included
    for i in range(3):
        _store(tt, K[i], 4 + i, 1, move=100 + i, score=10 * i)
    assert _probe(tt, K[3]) == 0  # same bucket, another key
    assert _probe(tt, K[0] ^ (1 << 63)) == 0  # the same low bits, one high bit apart
    assert _probe(tt, K[0] ^ 1) == 0  # another bucket
    assert all(_present(tt, K[:3]))


def test_a_torn_entry_is_rejected() -> None:
    """An entry whose two words come from two writes (the key word of one, the data word of
    the other, as two threads writing the same slot at once can leave it) reads as a miss."""
    first, second = _table(1), _table(1)
    _store(first, K[0], 6, 1, move=200, score=50)
    _store(second, K[1], 9, 1, move=300, score=-70)
    assert _probe(first, K[0]) != 0 and _probe(second, K[1]) != 0
    torn = first.copy()
    torn[1] = second[1]  # slot 0: K[0]'s key word with K[1]'s data
    assert _probe(torn, K[0]) == 0 and _probe(torn, K[1]) == 0
    flipped = first.copy()
    flipped[1] ^= np.uint64(1 << 20)  # one bit of the score changed after the key word was written
    assert _probe(flipped, K[0]) == 0


def test_the_bucket_fills_its_empty_entries_first() -> None:
    tt = _table(BUCKETS)
    for i, depth in enumerate((30, 2, 40, 1)):  # even the shallow ones stay while room is left
        _store(tt, K[i], depth, 1)
    assert all(_present(tt, K[:4]))


def test_a_full_bucket_drops_its_shallowest_entry() -> None:
    """Same generation: the least valuable entry is the one of least depth, whatever the new
    entry's depth."""
    tt = _table(BUCKETS)
    for i, depth in enumerate((7, 3, 9, 5)):
        _store(tt, K[i], depth, 1)
    _store(tt, K[4], 1, 1)  # depth 3 (K[1]) makes way, though the new entry is shallower
    assert _present(tt, K[:5]) == [True, False, True, True, True]
    _store(tt, K[5], 8, 1)  # now the new depth 1 (K[4]) is the least valuable
    assert _present(tt, K[:6]) == [True, False, True, True, False, True]


def test_old_entries_lose_eight_plies_a_generation() -> None:
    """Worth ``depth - 8 * age``: a depth-20 entry two generations old (worth 4) makes way before
    a depth-6 entry of this generation; one generation old (worth 12) it stays."""
    one_old = _table(BUCKETS)
    _store(one_old, K[0], 20, 1)
    for i, depth in ((1, 6), (2, 7), (3, 8)):
        _store(one_old, K[i], depth, 2)
    _store(one_old, K[4], 5, 2)  # worths 12, 6, 7, 8: K[1] goes
    assert _present(one_old, K[:5]) == [True, False, True, True, True]

    two_old = _table(BUCKETS)
    _store(two_old, K[0], 20, 1)
    for i, depth in ((1, 6), (2, 7), (3, 8)):
        _store(two_old, K[i], depth, 3)
    _store(two_old, K[4], 5, 3)  # worths 4, 6, 7, 8: K[0] goes, the deepest of all
    assert _present(two_old, K[:5]) == [False, True, True, True, True]


# Generations run 1..63 and then start at 1 again (``Searcher._iterate``: ``gen % 63 + 1``).
# An entry of generation 60 seen in generation 1 is old (four searches ago, worth 20 - 32 < 0),
# not from the future: it makes way. One of generation 62 was written two searches ago (62, 63,
# 1): age 2, worth 20 - 16 = 4, above a depth-0 entry of this generation (worth 0), which makes
# way instead. (With the age taken modulo 64 it would be 3, worth -4, and the depth-20 entry
# would go.)
@pytest.mark.parametrize(
    ("old_generation", "depths", "kept"),
    [
        (60, (6, 7, 8), [False, True, True, True, True]),
        (62, (0, 7, 8), [True, False, True, True, True]),
    ],
)
def test_ages_are_counted_across_the_generations_wrap(
    old_generation: int, depths: tuple[int, int, int], kept: list[bool]
) -> None:
    tt = _table(BUCKETS)
    _store(tt, K[0], 20, old_generation)
    for i, depth in enumerate(depths, start=1):
        _store(tt, K[i], depth, 1)
    _store(tt, K[4], 5, 1)
    assert _present(tt, K[:5]) == kept


def test_a_positions_own_entry_is_overwritten_in_place() -> None:
    tt = _table(BUCKETS)
    for i, depth in enumerate((7, 3, 9, 5)):
        _store(tt, K[i], depth, 1, move=10 + i, score=i)
    # shallower than K[2]'s depth 9, but by no more than two plies: its own entry is replaced
    _store(tt, K[2], 7, 1, move=99, score=-3, bound=_tt.UPPER)
    assert all(_present(tt, K[:4]))  # nobody else made way
    assert _fields(_probe(tt, K[2])) == (99, -3, 0, 7, int(_tt.UPPER))
    words = tt[2 * 2 * _tt.BUCKET : 3 * 2 * _tt.BUCKET]
    keys = [int(words[2 * i] ^ words[2 * i + 1]) for i in range(_tt.BUCKET)]
    assert sorted(keys) == sorted(K[:4])  # one entry each


@pytest.mark.parametrize(
    ("old_depth", "old_gen", "new_depth", "new_bound", "kept"),
    [
        (10, 4, 7, _tt.LOWER, True),  # three plies deeper, this generation: kept
        (10, 4, 7, _tt.UPPER, True),
        (9, 4, 7, _tt.LOWER, False),  # only two plies deeper: overwritten
        (10, 4, 7, _tt.EXACT, False),  # the new one is exact: overwritten
        (10, 3, 7, _tt.LOWER, False),  # an earlier generation's: overwritten
    ],
)
def test_when_a_positions_deeper_entry_is_kept(
    old_depth: int, old_gen: int, new_depth: int, new_bound: Any, kept: bool
) -> None:
    tt = _table(BUCKETS)
    _store(tt, K[0], old_depth, old_gen, move=111, score=40, static_eval=5, bound=_tt.LOWER)
    _store(tt, K[0], new_depth, 4, move=222, score=-60, static_eval=6, bound=new_bound)
    if kept:
        assert _fields(_probe(tt, K[0])) == (111, 40, 5, old_depth, int(_tt.LOWER))
    else:
        assert _fields(_probe(tt, K[0])) == (222, -60, 6, new_depth, int(new_bound))


def test_a_kept_entry_without_a_move_takes_the_new_one() -> None:
    tt = _table(BUCKETS)
    _store(tt, K[0], 10, 4, move=0, score=40, static_eval=5, bound=_tt.UPPER)
    _store(tt, K[0], 7, 4, move=222, score=-60, static_eval=6, bound=_tt.LOWER)
    assert _fields(_probe(tt, K[0])) == (222, 40, 5, 10, int(_tt.UPPER))


# Mate scores: MATE = 32,000 and a mate n plies from the root scores MATE - n at the root. The
# table keeps it as the distance from the entry's own position: at ply 3, a mate 5 plies from the
# root is 2 plies away, MATE - 2; read at ply 1 (the same position reached by a shorter path) it
# is 1 + 2 = 3 plies from that root, MATE - 3. Losses mirror it; scores short of MATE_BOUND =
# MATE - MAX_PLY = 31,872 are not mates and are kept as they are.
MATE = _tt.MATE


@pytest.mark.parametrize(
    ("score", "ply", "stored"),
    [
        (MATE - 5, 3, MATE - 2),
        (-(MATE - 5), 3, -(MATE - 2)),
        (MATE, 0, MATE),
        (_tt.MATE_BOUND, 10, _tt.MATE_BOUND + 10),
        (_tt.MATE_BOUND - 1, 10, _tt.MATE_BOUND - 1),
        (-(_tt.MATE_BOUND - 1), 10, -(_tt.MATE_BOUND - 1)),
        (250, 7, 250),
    ],
)
def test_mate_scores_are_kept_from_the_entrys_position(score: int, ply: int, stored: int) -> None:
    with kernel_context():
        assert int(_tt.to_tt(I64(score), I64(ply))) == stored
        assert int(_tt.from_tt(I64(stored), I64(ply))) == score


def test_a_mate_stored_at_one_ply_reads_at_another() -> None:
    tt = _table(BUCKETS)
    with kernel_context():
        win_kept = int(_tt.to_tt(I64(MATE - 5), I64(3)))  # mating 5 plies from the root, at ply 3
        loss_kept = int(_tt.to_tt(I64(7 - MATE), I64(4)))  # mated 7 plies from the root, at ply 4
    _store(tt, K[0], 6, 1, move=7, score=win_kept, bound=_tt.EXACT)
    _store(tt, K[1], 6, 1, move=8, score=loss_kept, bound=_tt.EXACT)
    assert _fields(_probe(tt, K[0]))[1] == MATE - 2 and _fields(_probe(tt, K[1]))[1] == 3 - MATE
    with kernel_context():
        win = int(_tt.from_tt(I64(_fields(_probe(tt, K[0]))[1]), I64(1)))
        loss = int(_tt.from_tt(I64(_fields(_probe(tt, K[1]))[1]), I64(9)))
    assert win == MATE - 3  # 5 - 3 = 2 plies from the entry, 1 + 2 from the new root
    assert loss == -(MATE - 12)  # 7 - 4 = 3 plies from the entry, 9 + 3 from the new root


def test_a_prefetched_table_reads_the_same() -> None:
    """The search asks for a child's bucket early (``prefetch_entry``): a hint to the processor,
    which leaves the table as it was and every probe's answer the same, in every bucket."""
    tt = _table(BUCKETS)
    for i in range(3):
        _store(tt, K[i], 4 + i, 1, move=100 + i, score=10 * i)
    before = tt.copy()
    with kernel_context():
        for key in [*K, 0, 1, 2**64 - 1]:
            _tt.prefetch_entry(tt, np.uint64(key))
    assert np.array_equal(tt, before)
    assert all(_present(tt, K[:3])) and not any(_present(tt, K[3:]))


# --- move ordering -----------------------------------------------------------------------------


def _playout_positions(games: int, plies: int, seed: int) -> list[Position]:
    """Positions of random games (legal moves drawn uniformly) from the start."""
    rng = np.random.default_rng(seed)
    found = []
    for _ in range(games):
        position = Position.initial()
        for _ in range(plies):
            moves = position.legal_moves()
            if not moves:
                break
            position = position.play(moves[int(rng.integers(len(moves)))])
            found.append(position)
    return found


def test_a_captures_ordering_score_is_negative_exactly_when_it_loses_by_see() -> None:
    """The quiescence search skips a capture that loses material by its ordering score's sign
    rather than by working SEE out again (``_search._next_child``); that holds only if the sign
    and SEE agree on every capture, which this checks on the captures and en-passant captures
    of 2,000 positions of random games (a promotion is searched whatever it loses)."""
    heur = np.zeros(_order.HEUR_SIZE, dtype=np.int16)
    gain = np.zeros(34, dtype=np.int64)
    checked = losing = 0
    for position in _playout_positions(games=25, plies=80, seed=13):
        legal = np.array(position.legal_moves(), dtype=np.int32)
        scores = np.zeros(len(legal), dtype=np.int64)
        pos = position.array.copy()
        with kernel_context():
            _order.score_moves(
                pos, TABLES, legal, scores, I64(0), I64(len(legal)), I64(0), heur, I64(0), gain,
                I64(-1), I64(-1),
            )  # fmt: skip
            for move, score in zip(legal.tolist(), scores.tolist(), strict=True):
                flag = move >> 12
                if not flag & _tables.CAPTURE or flag & _tables.PROMOTION:
                    continue
                loses = int(_eval.see(pos, TABLES, I64(move), gain)) < 0
                assert (score < 0) == loses, (position.fen(), move, score)
                checked += 1
                losing += loses
    assert checked > 2_000 and losing > 100  # both kinds met, many times


# Positions where a special move gives check (each would be missed by a test of ordinary moves):
# castling on either side and for either colour, en passant discovering a rook's check and
# giving the pawn's own, promotions to a knight, and a king stepping off a bishop's line.
SPECIAL_CHECKS = (
    "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
    "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1",
    "4k2r/8/8/8/8/8/8/5K2 b k - 0 1",
    "r3k3/8/8/8/8/8/8/3K4 b q - 0 1",
    "8/8/8/R2pP2k/8/8/8/4K3 w - d6 0 1",
    "8/2k5/8/3pP3/8/8/8/4K3 w - d6 0 1",
    "8/4P3/3k4/8/8/8/8/4K3 w - - 0 1",
    "3r4/4P3/5k2/8/8/8/8/4K3 w - - 0 1",
    "8/7k/8/8/8/8/2K5/1B6 w - - 0 1",
)


@pytest.mark.slow  # every move of thousands of positions: 1.4 s (2026-12-02)
def test_gives_check_before_the_move_agrees_with_making_it() -> None:
    """The search asks whether a move gives check before making it (``_movegen.gives_check``),
    so that a move it prunes is never made; that must be what making the move and asking
    ``in_check`` says, for every legal move of 2,000 positions of random games, of every
    position a ply from the bench positions (the published perft positions among them) and
    within two plies of positions where castling, en passant or a promotion gives check, and
    discovered checks are among them."""
    from unbeatable.games.chess import _movegen

    positions = _playout_positions(games=25, plies=80, seed=17)
    for fen in (*BENCH_FENS, *SPECIAL_CHECKS):
        root = Position.from_fen(fen)
        positions.append(root)
        for move in root.legal_moves():
            child = root.play(move)
            positions.append(child)
            if fen in SPECIAL_CHECKS:
                positions.extend(child.play(reply) for reply in child.legal_moves())
    kinds = dict.fromkeys(("plain", "castle", "en passant", "promotion", "discovered"), 0)
    checked = 0
    for position in positions:
        pos = position.array.copy()
        for move in position.legal_moves():
            with kernel_context():
                predicted = bool(_movegen.gives_check(pos, TABLES, I64(move)))
            after = position.play(move)
            assert predicted == after.is_check(), (position.fen(), Position.uci(move))
            checked += 1
            if not predicted:
                continue
            flag = move >> 12
            if flag in (_tables.CASTLE_K, _tables.CASTLE_Q):
                kinds["castle"] += 1
            elif flag == _tables.EN_PASSANT:
                kinds["en passant"] += 1
            elif flag & _tables.PROMOTION:
                kinds["promotion"] += 1
            else:
                to = (move >> 6) & 63
                with kernel_context():
                    by = int(_movegen.checkers(after.array.copy(), TABLES))
                kinds["discovered" if by & ~(1 << to) else "plain"] += 1
    assert checked > 80_000 and all(count > 0 for count in kinds.values()), (checked, kinds)


def test_pick_takes_the_first_of_the_best_scores_left() -> None:
    """``_order.pick`` packs each score with its place to find the best in one pass; it must
    take what a plain scan takes (the first of the best scores left, ties and negative scores
    included) and swap it into place, on lists up to the most moves a position has."""
    rng = np.random.default_rng(5)
    with kernel_context():
        for _ in range(300):
            n = int(rng.integers(1, 219))
            offset = int(rng.integers(0, 3)) * 256  # a node's moves start at ply * MAX_MOVES
            scores = np.zeros(offset + n, dtype=np.int64)
            scores[offset:] = rng.choice([-(1 << 32) - 5, -3, 0, 0, 7, 1 << 35, 1 << 38], n)
            scores[offset:] += rng.integers(-2, 3, n)
            moves = np.arange(offset + n, dtype=np.int32)
            expect_moves, expect_scores = moves.copy(), scores.copy()
            for i in range(offset, offset + n):
                best = i + int(np.argmax(expect_scores[i:]))  # numpy's argmax: the first best
                for a in (expect_moves, expect_scores):
                    a[i], a[best] = a[best], a[i]
                got = int(_order.pick(moves, scores, I64(i), I64(offset + n)))
                assert got == expect_moves[i]
            assert (moves == expect_moves).all() and (scores == expect_scores).all()


def test_dropping_the_pruned_moves_leaves_the_order_of_the_others() -> None:
    """Once a node prunes every quiet move that gives no check, the search takes those out of
    its list (``_search._drop_pruned``) instead of picking each in turn to skip it. That must not
    change the order in which it picks the moves left: after any number of picks, the picks
    after dropping are the picks of the whole list with the dropped moves left out. Checked on
    every position of 25 random games, with the ordering scores of killers and histories that a
    search had left."""
    from unbeatable.games.chess import _movegen, _search

    searcher = Searcher(hash_mb=1)
    searcher.search(Position.from_fen(BENCH_FENS[5]), Limits(depth=8))
    heur = searcher._workers[0].heur.copy()
    gain = np.zeros(34, dtype=np.int64)
    rng = np.random.default_rng(3)
    dropped = kept_quiet = 0
    for position in _playout_positions(games=25, plies=80, seed=29):
        legal = np.array(position.legal_moves(), dtype=np.int32)
        n = len(legal)
        pos = position.array.copy()
        scores = np.zeros(n, dtype=np.int64)
        with kernel_context():
            _order.score_moves(pos, TABLES, legal, scores, I64(0), I64(n), I64(0), heur,
                               I64(int(rng.integers(0, 8))), gain, I64(-1), I64(-1))  # fmt: skip
            first = int(rng.integers(0, n + 1))  # the moves searched before the node prunes
            whole_moves, whole_scores = legal.copy(), scores.copy()
            whole = [int(_order.pick(whole_moves, whole_scores, I64(i), I64(n))) for i in range(n)]
            for i in range(first):
                _order.pick(legal, scores, I64(i), I64(n))
            end = int(_search._drop_pruned(pos, TABLES, legal, scores, I64(first), I64(n)))
            after = [int(_order.pick(legal, scores, I64(i), I64(end))) for i in range(first, end)]
            expected = [
                m
                for m in whole[first:]
                if not _eval.is_quiet(I64(m)) or _movegen.gives_check(pos, TABLES, I64(m))
            ]
        assert whole[:first] == [int(m) for m in legal[:first]]
        assert after == expected, position.fen()
        dropped += n - first - len(expected)
        kept_quiet += sum(1 for m in expected if _eval.is_quiet(I64(m)))
    assert dropped > 10_000 and kept_quiet > 50  # moves dropped, and quiet checks kept


def test_the_heuristics_fit_sixteen_bits() -> None:
    """``heur`` is ``int16``: a history score driven by the largest bonus, either way and as
    often as it can be, stays within +-HISTORY_MAX, and the largest quiet move (killers and
    counter-moves hold only quiet moves) fits too."""
    assert Searcher(hash_mb=1)._workers[0].heur.dtype == np.int16
    heur = np.zeros(_order.HEUR_SIZE, dtype=np.int16)
    index = I64(_order.H_HISTORY + 77)
    seen = []
    with kernel_context():
        for bonus in (400, -400, 400):  # the bonus is min(depth^2, 400)
            for _ in range(3_000):
                _order._nudge(heur, index, I64(bonus))
                seen.append(int(heur[index]))
    # driven to the bound both ways (a floor division keeps the low side a little short of it)
    assert max(seen) == _order.HISTORY_MAX and -_order.HISTORY_MAX <= min(seen) < -16_000
    assert _order.HISTORY_MAX < 2**15
    largest_quiet = 63 | 63 << 6 | max(_tables.QUIET, _tables.DOUBLE_PUSH, _tables.CASTLE_K,
                                       _tables.CASTLE_Q) << 12  # fmt: skip
    assert largest_quiet < _tables.CAPTURE << 12 <= 2**15 - 1


# --- bench -------------------------------------------------------------------------------------


def test_bench_is_the_nodes_of_fresh_searchers() -> None:
    """``bench`` gives the same count each time, and it is the sum of each position searched by
    a fresh one-thread searcher with a 16 MiB table."""
    nodes = bench(depth=3)[0]
    fresh = sum(
        Searcher(hash_mb=16, threads=1).search(Position.from_fen(fen), Limits(depth=3)).nodes
        for fen in BENCH_FENS
    )
    assert nodes == fresh == bench(depth=3)[0]


def test_a_cleared_searcher_counts_as_a_fresh_one() -> None:
    """The table carries over from one search to the next (the same search again is cheaper);
    after ``clear`` the count is a fresh searcher's again."""
    position = Position.from_fen(BENCH_FENS[1])
    searcher = Searcher(hash_mb=16)
    first = searcher.search(position, Limits(depth=6)).nodes
    again = searcher.search(position, Limits(depth=6)).nodes
    searcher.clear()
    cleared = searcher.search(position, Limits(depth=6)).nodes
    assert again < first
    assert cleared == first == Searcher(hash_mb=16).search(position, Limits(depth=6)).nodes


@pytest.mark.slow
def test_the_bench_signature_at_depth_10() -> None:
    # docs/chess.md gives the signature of the current engine: 236,070 nodes at depth 10. Any
    # change to the search (pruning, ordering, evaluation, the table) moves it: such a change
    # must update this number and the docs' figure together.
    assert bench(depth=10)[0] == 236_070


# --- analyze chess --algorithm alphabeta -------------------------------------------------------


def _analyze_json(*flags: str) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, "-m", "unbeatable", "analyze", "chess", "e2e4 e7e5", "--depth", "2",
         "--json", *flags],
        capture_output=True, text=True, timeout=120, cwd=ROOT, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    return report


@pytest.mark.slow
@pytest.mark.parametrize(
    ("flags", "algorithm"),
    [(("--algorithm", "alphabeta"), "alphabeta"), ((), "searcher")],
    ids=["alphabeta", "default"],
)
def test_analyze_chess_names_the_engine_that_searched(
    flags: tuple[str, ...], algorithm: str
) -> None:
    """``--algorithm alphabeta`` searches chess with the generic engine (its report says
    ``alphabeta`` and has its node count, and no searcher's lines); without it the compiled
    searcher answers (``searcher``, with its MultiPV lines)."""
    report = _analyze_json(*flags)
    state = get_game("chess").parse_position("e2e4 e7e5")
    options = SearchOptions(algorithm=flags[1] if flags else None)
    library = search(state, GenericLimits(depth=2), analyze=True, options=options)
    assert report["algorithm"] == algorithm == library.algorithm
    assert report["nodes"] == library.nodes and report["depth"] == 2
    assert report["position"] == "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    assert ("lines" in report) == (algorithm == "searcher")


@pytest.mark.slow
def test_analyze_chess_shows_only_what_the_searcher_counted() -> None:
    """The compiled searcher counts nodes, not table hits or cut-offs: its text line and its
    notebook table leave those out (they read 0, not a count), where the generic engine's give
    them."""
    from unbeatable.drawing import result_html

    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    lines = {}
    for name, flags in (("searcher", ()), ("alphabeta", ("--algorithm", "alphabeta"))):
        done = subprocess.run(
            [sys.executable, "-m", "unbeatable", "analyze", "chess", "e2e4 e7e5", "--depth",
             "2", *flags],
            capture_output=True, text=True, timeout=120, cwd=ROOT, env=env,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        lines[name] = done.stdout.splitlines()[-1]
    assert re.fullmatch(r"\d+ nodes, depth 2, [\d.]+ ms, the game's own searcher, heuristic",
                        lines["searcher"]), lines  # fmt: skip
    assert re.fullmatch(r"\d+ nodes, \d+ table hits, \d+ cut-offs, depth 2, [\d.]+ ms, "
                        r"alphabeta, heuristic", lines["alphabeta"]), lines  # fmt: skip
    state = get_game("chess").parse_position("e2e4 e7e5")
    ours = search(state, GenericLimits(depth=2))
    generic = search(state, GenericLimits(depth=2), options=SearchOptions(algorithm="alphabeta"))
    assert not ours.counts_cutoffs and generic.counts_cutoffs
    assert "table hits" not in result_html(ours) and "cut-offs" not in result_html(ours)
    assert "table hits" in result_html(generic) and "cut-offs" in result_html(generic)
