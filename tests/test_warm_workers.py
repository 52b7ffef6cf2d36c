"""Workers that start warm: a parallel searcher loads a game's compiled solver in its own
process before it forks its workers (``State.warm_up``), so that each worker has it from its
first task and a batch on N workers pays the loading once."""

from __future__ import annotations

import concurrent.futures as cf

from unbeatable import ParallelSearcher, get_game
from unbeatable.game import State
from unbeatable.search.parallel.pool import WorkerPool


def _loaded() -> bool:
    """In a worker: whether the 7 x 6 solver was ready when it started (nothing loads it
    here)."""
    from unbeatable.games.connect4 import hooks

    return (7, 6, None) in hooks._READY


def test_a_pool_forks_its_workers_after_the_solver_is_loaded() -> None:
    state = get_game("connect4").parse_position("4453")
    searcher = ParallelSearcher(workers=2)
    try:
        pool: WorkerPool = searcher._pool
        pool.prepare(state)
        assert all(f.result() for f in [pool.executor().submit(_loaded) for _ in range(4)])
        assert list(searcher.solve_many([state, state.play_text("4")])) == [-2, 3]
    finally:
        searcher.close()


class _Counting(State):
    """A state whose warm_up is counted (never searched)."""

    calls = 0

    @property
    def to_move(self) -> int:
        return 0

    def legal_moves(self) -> list[int]:
        return []

    def play(self, move: object) -> _Counting:
        return self

    def outcome(self) -> None:
        return None

    def warm_up(self) -> None:
        type(self).calls += 1


def test_the_first_task_warms_the_game_once_and_a_given_executor_never() -> None:
    pool = WorkerPool(1, None, True)
    pool.prepare(_Counting())
    assert _Counting.calls == 1
    pool._executor = cf.ThreadPoolExecutor(1)  # made: its workers exist already
    pool.prepare(_Counting())
    assert _Counting.calls == 1
    pool._executor.shutdown()
    executor = cf.ThreadPoolExecutor(1)
    given = WorkerPool(1, executor, False)  # the caller's executor: its workers are its own
    given.prepare(_Counting())
    assert _Counting.calls == 1
    executor.shutdown()

