"""Connect Four: drop stones into columns; four in a row (any direction) wins.

Positions are bitboards in Python integers, column by column from the left, each column
``height + 1`` bits from the bottom (the extra bit keeps columns apart):

* ``mask``: every stone on the board;
* ``current``: the stones of the side to move.

Notation: the move sequence of 1-based columns from the empty board (``4453``; on boards wider
than 9 columns, separate them with commas), or a picture, rows top to bottom separated by ``/``
(``x`` moves first, ``.`` is empty).
"""

from __future__ import annotations

import functools
from collections.abc import Hashable
from typing import Any

from ...game import (
    Game,
    IllegalMoveError,
    Move,
    Outcome,
    SolveAnswer,
    SolveRequest,
    State,
    parse_numbered_move,
    require_text,
)
from . import hooks
from .fours import aligned, open_lines, winning_cells
from .picture import check_reachable, read_cells

__all__ = ["Connect4", "Connect4State", "connect4"]


@functools.lru_cache(maxsize=32)
def connect4(width: int = 7, height: int = 6) -> Connect4:
    """The Connect Four game of this size (one shared instance per size)."""
    return Connect4(width, height)


class Connect4(Game):
    """Connect Four on a ``width`` x ``height`` board (7 x 6 by default)."""

    name = "connect4"

    def __init__(self, width: int = 7, height: int = 6) -> None:
        for label, value in (("width", width), ("height", height)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"connect4: {label} must be a whole number >= 1, not {value!r}")
        if (height + 1) * width > 64:
            raise ValueError(
                f"connect4: a {width}x{height} board does not fit a 64-bit bitboard "
                f"((height + 1) x width = {(height + 1) * width} > 64)"
            )
        self.width, self.height = width, height
        self.cells = width * height
        h1 = height + 1
        self.bottom = sum(1 << (c * h1) for c in range(width))
        self.board = self.bottom * ((1 << height) - 1)
        self.bottoms = [1 << (c * h1) for c in range(width)]
        self.tops = [1 << (c * h1 + height - 1) for c in range(width)]
        self.columns = [((1 << height) - 1) << (c * h1) for c in range(width)]
        self.order = sorted(range(width), key=lambda c: (abs(2 * c - (width - 1)), c))
        self.windows = self._windows()
        centre = width // 2
        self.centre_mask = self.columns[centre] | (
            self.columns[centre - 1] if width % 2 == 0 and width > 1 else 0
        )
        self.shifts = (1, h1, height, height + 2)
        self._initial = Connect4State(self, 0, 0, 0, None)

    @property
    def params(self) -> dict[str, Any]:
        return {"width": self.width, "height": self.height}

    @property
    def spec(self) -> str:
        if (self.width, self.height) == (7, 6):
            return "connect4"
        return f"connect4:width={self.width},height={self.height}"

    def __reduce__(self) -> tuple[Any, ...]:
        return (connect4, (self.width, self.height))

    def initial(self) -> Connect4State:
        return self._initial

    def mirror(self, bits: int) -> int:
        """``bits`` reflected left to right."""
        h1 = self.height + 1
        column = (1 << h1) - 1
        mirrored = 0
        for c in range(self.width):
            mirrored |= ((bits >> (c * h1)) & column) << ((self.width - 1 - c) * h1)
        return mirrored

    def _windows(self) -> list[int]:
        h1 = self.height + 1
        windows = []
        for c in range(self.width):
            for r in range(self.height):
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    ec, er = c + 3 * dc, r + 3 * dr
                    if 0 <= ec < self.width and 0 <= er < self.height:
                        windows.append(sum(1 << ((c + i * dc) * h1 + r + i * dr) for i in range(4)))
        return windows

    # --- notation ------------------------------------------------------------------------

    def split_moves(self, text: str) -> list[str]:
        text = text.strip()
        if self.width <= 9 and not any(ch == "," or ch.isspace() for ch in text):
            return list(text)
        return text.replace(",", " ").split()

    def parse_position(self, text: str) -> Connect4State:
        """A move sequence (``4453``) or a picture (``......./.../...x...``)."""
        require_text(text)
        stripped = text.strip()
        if "/" in stripped or any(ch in "xXoO." for ch in stripped):
            return self.parse_picture(stripped)
        state = super().parse_position(stripped)
        assert isinstance(state, Connect4State)
        return state

    def parse_picture(self, text: str) -> Connect4State:
        first, second = read_cells(text, self.width, self.height)
        mask = first | second
        x_won, o_won = check_reachable(text, first, second, self.height, self.columns)
        moves = first.bit_count() + second.bit_count()
        current = first if moves % 2 == 0 else second
        outcome: Outcome | None = None
        if x_won:
            outcome = Outcome.FIRST_WINS
        elif o_won:
            outcome = Outcome.SECOND_WINS
        elif moves == self.cells:
            outcome = Outcome.DRAW
        return Connect4State(self, current, mask, moves, outcome)

    def format_moves(self, moves: list[Move]) -> str:
        texts = [str(int(m) + 1) for m in moves]  # type: ignore[call-overload]
        return "".join(texts) if self.width <= 9 else ",".join(texts)

    def format_position(self, state: State) -> str:
        return str(state)

    def picture(self, state: State) -> str:
        assert isinstance(state, Connect4State)
        first, second = state.stones()
        h1 = self.height + 1
        lines = []
        for r in range(self.height - 1, -1, -1):
            cells = []
            for c in range(self.width):
                bit = 1 << (c * h1 + r)
                cells.append("X" if first & bit else "O" if second & bit else ".")
            lines.append(" ".join(cells))
        # the column numbers read downwards past 9 (tens above units): a cell is one character
        if self.width > 9:
            lines.append(" ".join(str((c + 1) // 10) if c >= 9 else " " for c in range(self.width)))
        lines.append(" ".join(str((c + 1) % 10) for c in range(self.width)))
        return "\n".join(lines)


class Connect4State(State):
    """A Connect Four position: the side to move's stones, all stones, and the move count."""

    __slots__ = ("current", "game", "mask", "mirror_current", "mirror_mask", "moves", "outcome_")

    game: Connect4

    def __init__(
        self,
        game: Connect4,
        current: int,
        mask: int,
        moves: int,
        outcome: Outcome | None,
        mirror: tuple[int, int] | None = None,
    ) -> None:
        self.game = game
        self.current = current
        self.mask = mask
        self.moves = moves
        self.outcome_ = outcome
        # the mirror image's bitboards, kept up to date by play() so that key() is cheap
        if mirror is None:
            mirror = (game.mirror(current), game.mirror(mask))
        self.mirror_current, self.mirror_mask = mirror

    # --- protocol ------------------------------------------------------------------------

    @property
    def to_move(self) -> int:
        return self.moves & 1

    @property
    def ply(self) -> int:
        return self.moves

    @property
    def max_plies(self) -> int:
        return self.game.cells

    def outcome(self) -> Outcome | None:
        return self.outcome_

    def legal_moves(self) -> list[int]:
        if self.outcome_ is not None:
            return []
        mask = self.mask
        return [c for c, top in enumerate(self.game.tops) if not mask & top]

    def play(self, move: Move) -> Connect4State:
        column: int = move  # type: ignore[assignment]
        game = self.game
        mask = self.mask
        new_mask = mask | (mask + game.bottoms[column])
        mover = self.current | (new_mask ^ mask)
        m_mask = self.mirror_mask
        new_m_mask = m_mask | (m_mask + game.bottoms[game.width - 1 - column])
        m_mover = self.mirror_current | (new_m_mask ^ m_mask)
        moves = self.moves + 1
        outcome = None
        if aligned(mover, game.height):
            outcome = Outcome.FIRST_WINS if self.moves & 1 == 0 else Outcome.SECOND_WINS
        elif moves == game.cells:
            outcome = Outcome.DRAW
        return Connect4State(
            game, mover ^ new_mask, new_mask, moves, outcome, (m_mover ^ new_m_mask, new_m_mask)
        )

    def possible(self) -> int:
        """The cells where a stone can be dropped now."""
        return (self.mask + self.game.bottom) & self.game.board

    def winning_move(self) -> int | None:
        wins = winning_cells(self.current, self.game.height, self.game.board) & self.possible()
        if not wins:
            return None
        return self._column_of(wins & -wins)

    def _column_of(self, bit: int) -> int:
        return (bit.bit_length() - 1) // (self.game.height + 1)

    def ordered_moves(self) -> list[int]:
        """Moves that block the opponent's immediate win first, then from the centre out."""
        game = self.game
        mask = self.mask
        opponent = self.current ^ mask
        threats = winning_cells(opponent, game.height, game.board) & self.possible()
        moves = [c for c in game.order if not mask & game.tops[c]]
        if threats:
            moves.sort(key=lambda c: not threats & game.columns[c])
        return moves

    def key(self) -> Hashable:
        """The position's key (``current + mask`` is unique), the same for mirror images."""
        raw = self.current + self.mask
        mirrored = self.mirror_current + self.mirror_mask
        return raw if raw <= mirrored else mirrored

    def stones(self) -> tuple[int, int]:
        """The first and the second player's stones."""
        other = self.current ^ self.mask
        return (self.current, other) if self.moves & 1 == 0 else (other, self.current)

    def evaluate(self) -> float:
        """A heuristic from the side to move's view: open windows of four (2 stones: 2 points,
        3 stones: 8), threats (an empty cell that would complete a four: 25, 40 if it can be
        filled at once), and stones in the centre column (3 each)."""
        game = self.game
        own = self.current
        other = own ^ self.mask
        empty = game.board & ~self.mask
        own_twos, own_threes = open_lines(own, own | empty, game.shifts)
        other_twos, other_threes = open_lines(other, other | empty, game.shifts)
        total = 2 * (own_twos - other_twos) + 8 * (own_threes - other_threes)
        playable = self.possible()
        own_threats = winning_cells(own, game.height, game.board) & empty
        other_threats = winning_cells(other, game.height, game.board) & empty
        total += 25 * own_threats.bit_count() + 15 * (own_threats & playable).bit_count()
        total -= 25 * other_threats.bit_count() + 15 * (other_threats & playable).bit_count()
        total += 3 * ((own & game.centre_mask).bit_count() - (other & game.centre_mask).bit_count())
        return total

    # --- the exact solver ------------------------------------------------------------------

    has_solver = True

    def warm_up(self) -> None:
        """Load the compiled solver (its kernels, from numba's cache or built) in this
        process: see :func:`.hooks.ready_solver`."""
        hooks.ready_solver(self.game, SolveRequest())

    def solver_value(self, request: SolveRequest) -> int | None:
        """The exact score from the opening book, the database or the compiled solver (see
        :mod:`.hooks`); None when a limit in ``request`` stopped it first (Ctrl-C: the search
        stops and KeyboardInterrupt is raised again)."""
        if self.outcome_ is not None:
            return None
        return hooks.value(self, request)

    def solver_moves(self, request: SolveRequest) -> SolveAnswer | None:
        """Every legal column's exact score, from the opening book, the database or the compiled
        solver, with bounds for the columns still open when a limit or Ctrl-C stopped it
        (``quick``: None when neither book nor database serves and the position is early)."""
        if self.outcome_ is not None:
            return None
        return hooks.move_values(self, request)

    def solver_line(self, request: SolveRequest) -> list[int] | None:
        """A principal variation to the end of the game, each move proven to keep the
        position's exact score by the compiled solver (see :func:`.hooks.line`); shorter when
        the request's deadline or node budget stops it first."""
        if self.outcome_ is not None:
            return None
        return hooks.line(self, request)

    # --- notation ------------------------------------------------------------------------

    def move_text(self, move: Move) -> str:
        return str(int(move) + 1)  # type: ignore[call-overload]

    def parse_move(self, text: str) -> int:
        column = parse_numbered_move(self, text, self.game.width, "column")
        if self.mask & self.game.tops[column]:
            raise IllegalMoveError(
                f"column {column + 1} is full in {self}", text=text.strip(), position=str(self)
            )
        return column

    # --- value semantics -----------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Connect4State)
            and self.current == other.current
            and self.mask == other.mask
            and (self.game is other.game or self.game.params == other.game.params)
        )

    def __hash__(self) -> int:
        return hash((self.current, self.mask))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Connect4State, (self.game, self.current, self.mask, self.moves, self.outcome_))

    def __str__(self) -> str:
        game = self.game
        first, second = self.stones()
        h1 = game.height + 1
        rows = []
        for r in range(game.height - 1, -1, -1):
            row = []
            for c in range(game.width):
                bit = 1 << (c * h1 + r)
                row.append("x" if first & bit else "o" if second & bit else ".")
            rows.append("".join(row))
        return "/".join(rows)

    def __repr__(self) -> str:
        return f"<{self.game.spec} {self}>"
