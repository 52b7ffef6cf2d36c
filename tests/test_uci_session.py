"""The UCI session in-process: the options it lists and takes (Hash, Threads, MultiPV), a
refused position or `go` word answered in one `info string`, a `bestmove` for every `go`
(issue 18, defect 5), `go perft` and `bench` (issue 20)."""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator

import pytest

pytest.importorskip("chess", reason="python-chess (a test-only oracle) is not installed")
import chess
import chess.engine

from unbeatable import uci
from unbeatable.search import DEFAULT_TABLE_SIZE, Limits
from unbeatable.search.options import max_threads
from unbeatable.uci import ENTRY_BYTES, OPTIONS, UCISession, parse_go

START = chess.STARTING_FEN
AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


def talk(*commands: str, session: UCISession | None = None, wait: bool = False) -> list[str]:
    """What the session answers to ``commands`` (a search under way is stopped, or with
    ``wait`` left to end by itself)."""
    out = io.StringIO()
    session = session or UCISession(out)
    session.out = out
    for command in commands:
        session.handle(command)
    if wait and session.thread is not None:
        session.thread.join()
    session.finish()
    return out.getvalue().splitlines()


def best_move(lines: list[str]) -> str:
    found = [line for line in lines if line.startswith("bestmove ")]
    assert len(found) == 1, lines
    return found[0].split()[1]


def info_strings(lines: list[str]) -> list[str]:
    return [line.removeprefix("info string ") for line in lines if line.startswith("info string")]


# --- options ----------------------------------------------------------------------------------


def test_uci_lists_every_option_it_takes() -> None:
    lines = talk("uci")
    assert lines[:2] == ["id name unbeatable", "id author the unbeatable developers"]
    assert lines[2:-1] == list(OPTIONS) and lines[-1] == "uciok"
    names = [line.split(" type ")[0].removeprefix("option name ") for line in lines[2:-1]]
    assert names == ["Hash", "Threads", "MultiPV"]
    hash_line = lines[2].split()
    default = int(hash_line[hash_line.index("default") + 1])
    assert default * 2**20 // ENTRY_BYTES == DEFAULT_TABLE_SIZE  # the library's own table


def engine_table_bytes(session: UCISession) -> int:
    """The bytes of the compiled engine's table that the session's searcher keeps."""
    from unbeatable.games.chess.searcher import Searcher as Engine

    engines = [e for e in session.searcher.memory.values() if isinstance(e, Engine)]
    assert len(engines) == 1
    return int(engines[0].table.nbytes)


def test_hash_sets_the_size_of_the_table() -> None:
    session = UCISession(io.StringIO())
    assert talk("setoption name Hash value 32", session=session) == []
    assert session.searcher.options.table_size == 32 * 2**20 // ENTRY_BYTES
    assert best_move(talk("position startpos", "go depth 2", session=session)) in {
        m.uci() for m in chess.Board().legal_moves
    }
    assert engine_table_bytes(session) == 32 * 2**20
    assert best_move(talk("go depth 2", session=session))  # kept for the game
    assert engine_table_bytes(session) == 32 * 2**20
    talk("ucinewgame", "go depth 1", session=session)  # and the next, afresh
    assert engine_table_bytes(session) == 32 * 2**20


def test_threads_and_multipv_are_real() -> None:
    session = UCISession(io.StringIO())
    lines = talk(
        "setoption name Threads value 2", "setoption name MultiPV value 3", "position startpos",
        "go depth 4", session=session, wait=True,
    )  # fmt: skip
    assert session.searcher.options.threads == 2 and session.searcher.options.multipv == 3
    last = [line.split() for line in lines if line.startswith("info depth 4 ")]
    assert [words[words.index("multipv") + 1] for words in last] == ["1", "2", "3"]
    firsts = {words[words.index("pv") + 1] for words in last}
    assert len(firsts) == 3 and firsts <= {m.uci() for m in chess.Board().legal_moves}
    assert best_move(lines) == last[0][last[0].index("pv") + 1]


def test_a_search_cut_short_ends_with_its_lines_counting_every_node() -> None:
    """A search stopped by its node (or time) limit repeats the last completed iteration's line
    with every node searched and the whole time, as common engines do, so that a GUI's nodes
    and nps are the search's, not those of the iteration before the cut. (When the cut falls
    on an iteration's last node, about one search in 40 here, nothing is repeated.)"""

    def field(words: list[str], name: str) -> str:
        return words[words.index(name) + 1]

    repeated = 0
    for _ in range(3):
        lines = talk("position startpos", "go nodes 20000", wait=True)
        infos = [line.split() for line in lines if line.startswith("info depth ")]
        assert len({tuple(words) for words in infos}) == len(infos)  # no line twice
        before, last = infos[-2], infos[-1]
        assert int(field(last, "nodes")) <= 20_000 and int(field(last, "nps")) > 0
        assert best_move(lines) == field(last, "pv")
        if field(last, "depth") == field(before, "depth"):
            repeated += 1
            assert last[last.index("pv") :] == before[before.index("pv") :]
            assert int(field(before, "nodes")) < int(field(last, "nodes"))
            assert int(field(last, "time")) >= int(field(before, "time"))
    assert repeated >= 1
    whole = talk("position startpos", "go depth 3", wait=True)  # completed: nothing repeated
    depths = [line.split()[2] for line in whole if line.startswith("info depth ")]
    assert depths == ["1", "2", "3"]


def test_readyok_comes_once_the_kernels_are_built() -> None:
    session = UCISession(io.StringIO())
    assert talk("isready", session=session) == ["readyok"]
    assert not session.warm.is_alive()  # the compiled engine is ready for the first go


def test_go_perft_prints_each_root_move_and_the_total() -> None:
    lines = talk("position startpos moves e2e4", "go perft 3")
    board = chess.Board()
    board.push_uci("e2e4")
    counts = dict(line.split(": ") for line in lines if ": " in line and "Nodes" not in line)
    assert set(counts) == {m.uci() for m in board.legal_moves}
    assert sum(map(int, counts.values())) == 13_160  # python-chess's perft(2) after each reply
    assert lines[-1] == "Nodes searched: 13160" and lines[-2] == ""
    assert info_strings(talk("go perft 0")) == ["go perft: '0' is not a depth from 1 to 12"]


def test_bench_prints_the_engines_signature() -> None:
    from unbeatable.games.chess.searcher import bench

    lines = talk("bench 3")
    nodes = next(line for line in lines if line.startswith("Nodes searched"))
    assert int(nodes.split(":")[1]) == bench(3)[0]
    assert info_strings(talk("bench deep")) == ["bench: 'deep' is not a depth from 1 to 30"]


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("setoption name Hash value 0", "setoption Hash 0: choose 1 to 65536 megabytes"),
        ("setoption name Hash value lots", "setoption Hash: 'lots' is not a whole number"),
        ("setoption name Threads value 0", f"setoption Threads 0: choose 1 to {max_threads()} "
         "threads"),
        ("setoption name MultiPV value 999", "setoption MultiPV 999: choose 1 to 256 lines"),
    ],
)
def test_an_option_it_cannot_follow_is_answered_in_one_info_string(
    command: str, said: str
) -> None:
    session = UCISession(io.StringIO())
    assert info_strings(talk(command, session=session)) == [said]
    assert session.hash_megabytes == uci.DEFAULT_HASH
    assert (session.threads, session.multipv) == (1, 1)


def test_a_drawn_position_on_which_a_gui_plays_on_still_gets_a_move() -> None:
    fifty = "7k/8/6K1/8/8/8/8/R7 w - - 100 80"  # drawn by the rules; a GUI may play on
    lines = talk(f"position fen {fifty}", "go depth 3", wait=True)
    assert best_move(lines) == "a1a8"  # mate
    assert any(" score mate 1 " in line and line.endswith(" pv a1a8") for line in lines)


@pytest.mark.parametrize(
    "command",
    [
        "setoption name Threads value 1",
        "setoption name MultiPV value 1",
        "setoption name Ponder value true",
        "setoption name Clear Hash",
        "setoption name UCI_AnalyseMode value true",
        "setoption",
        "setoption value 3",
    ],
)
def test_other_options_are_ignored_silently(command: str) -> None:
    assert talk(command) == []


# --- a refused position ----------------------------------------------------------------------


def test_a_refused_first_position_keeps_the_start_and_says_so_once() -> None:
    lines = talk("position startpos moves e2e5", "go depth 1")
    said = info_strings(lines)
    assert said == [
        "position refused, keeping the start position: 'e2e5' is not a legal move in "
        f"{START} (move 1 of 'startpos moves e2e5')"
    ]
    assert best_move(lines) in {m.uci() for m in chess.Board().legal_moves}


def test_a_refused_position_keeps_the_last_good_one() -> None:
    lines = talk("position startpos moves e2e4", "position fen 8/8/8/8 w - - 0 1", "go depth 1")
    assert info_strings(lines) == [
        f"position refused, keeping the last good one ({AFTER_E4}): not a FEN: "
        "'8/8/8/8 w - - 0 1' (the board has 4 ranks, not 8)"
    ]
    assert best_move(lines) in {m.uci() for m in chess.Board(AFTER_E4).legal_moves}


def test_a_long_refused_position_is_cut() -> None:
    command = "position startpos moves e2e4 " + " ".join(["e7e5"] * 1000)
    assert len(command) > 5000
    said = info_strings(talk(command))
    assert len(said) == 1 and len(said[0]) < 450
    assert said[0].endswith("e7e5 e7e5 ...')") and "(move 3 of 'startpos moves e2e4 " in said[0]


# --- every go is answered --------------------------------------------------------------------


def test_a_go_word_that_is_not_a_number_is_left_out_and_the_rest_searched() -> None:
    lines = talk("position startpos", "go depth x nodes 200")
    assert info_strings(lines) == ["go: left out depth 'x': not a whole number"]
    assert best_move(lines) in {m.uci() for m in chess.Board().legal_moves}


def test_a_go_with_no_limit_left_searches_for_the_games_own_time() -> None:
    go = parse_go(["movetime", "1e3"])
    assert go.refused == ["movetime '1e3'"] and go.limits(None) == Limits()
    go = parse_go(["depth", "infinite"])  # the next word is not eaten as a value
    assert go.refused == ["depth"] and go.infinite
    assert parse_go(["depth", "3"]).refused == [] and parse_go([]).limits(None).time == 1e7


def test_a_finished_game_is_answered_0000() -> None:
    mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    assert best_move(talk(f"position fen {mated}", "go depth 2")) == "0000"


def test_a_search_that_fails_still_answers_a_legal_move(monkeypatch: pytest.MonkeyPatch) -> None:
    session = UCISession(io.StringIO())

    def broken(*args: object, **kwargs: object) -> Iterator[object]:
        raise RuntimeError("out of luck")

    monkeypatch.setattr(session.searcher, "iterate", broken)
    lines = talk("position startpos", "go depth 3", session=session)
    assert info_strings(lines) == ["the search failed: RuntimeError: out of luck"]
    assert best_move(lines) in {m.uci() for m in chess.Board().legal_moves}


# --- names -----------------------------------------------------------------------------------


def test_the_old_name_engine_still_works_and_says_it_is_deprecated() -> None:
    with pytest.warns(DeprecationWarning, match="UCISession"):
        old = uci.Engine
    assert old is UCISession
    with pytest.raises(AttributeError):
        uci.Nothing  # noqa: B018


# --- a real client ---------------------------------------------------------------------------


@pytest.mark.slow
def test_a_uci_client_configures_hash_and_plays() -> None:
    command = [sys.executable, "-m", "unbeatable.uci"]
    with chess.engine.SimpleEngine.popen_uci(command, timeout=60) as engine:
        assert set(engine.options) >= {"Hash", "Threads", "MultiPV"}
        assert engine.options["Hash"].default == uci.DEFAULT_HASH
        engine.configure({"Hash": 16, "Threads": 1})
        board = chess.Board()
        played = engine.play(board, chess.engine.Limit(depth=2))
        assert played.move is not None and board.is_legal(played.move)
