"""The m,n,k game: an m-row, n-column board, k in a row wins. Tic-tac-toe is 3,3,3.

Cells are numbered 1..m*n in row-major order (1 is the top-left corner). Two notations:

* a move sequence from the empty board: ``5193`` (when the board has at most 9 cells the
  digits may run together; otherwise separate them with commas or spaces: ``1,12,7``);
* a board picture, rows top to bottom separated by ``/``: ``x.o/.x./..o`` (``x`` moves
  first, ``.`` is empty).

Internally a position is two bitmasks (bit ``c`` is cell ``c+1``) and moves are 0-based cells.

With ``players=3`` or more (``mnk:4,4,3,players=3``) the players take turns in order, each
with its own mark (``x``, ``o``, ``v``, ``w``, ``y``, ``z``); the first to get k in a row
wins (1 to it, -1 to every other), a full board is a draw (0 to all). Such a game is played by
max^n or the paranoid search; its positions are move sequences.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Hashable, Sequence
from typing import Any, ClassVar

from ..game import (
    FIRST,
    Game,
    IllegalMoveError,
    InvalidPositionError,
    Move,
    Outcome,
    Payoff,
    State,
    parse_numbered_move,
    require_text,
)

__all__ = ["MARKS", "MNK", "MNKPartyState", "MNKState", "mnk"]

MAX_SIDE = 32
#: Up to this many cells the symmetric key is taken from whole-board lookup tables.
_DIRECT_TABLE_CELLS = 12
#: Up to this many cells positions are keyed by their canonical image under the board's
#: symmetries; beyond, the board is too large for mirror images to recur often enough to pay.
_SYMMETRY_CELLS = 25
#: Up to this many cells, a mask's winning cells are remembered once computed.
_CACHE_CELLS = 16

_SYMBOLS = ("x", "o")

#: Each player's mark, in turn order (two players: x and o).
MARKS = ("x", "o", "v", "w", "y", "z")


def mnk(m: int = 3, n: int = 3, k: int = 3, players: int = 2) -> MNK:
    """The m,n,k game (one shared instance per parameters, however they are given)."""
    return _mnk(m, n, k, players)


@functools.lru_cache(maxsize=64)
def _mnk(m: int, n: int, k: int, players: int) -> MNK:
    return MNK(m, n, k, players)


class MNK(Game):
    """m rows, n columns, k in a row (horizontally, vertically or diagonally) wins."""

    name = "mnk"

    def __init__(self, m: int = 3, n: int = 3, k: int = 3, players: int = 2) -> None:
        for label, value in (("m", m), ("n", n), ("k", k), ("players", players)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"mnk: {label} must be a whole number, not {value!r}")
        if not (1 <= m <= MAX_SIDE and 1 <= n <= MAX_SIDE):
            raise ValueError(f"mnk: the board must be 1 to {MAX_SIDE} on each side, not {m}x{n}")
        if not 1 <= k <= max(m, n):
            raise ValueError(
                f"mnk: k must be between 1 and {max(m, n)} on a {m}x{n} board, not {k}"
            )
        if not 2 <= players <= min(len(MARKS), max(2, m * n)):
            raise ValueError(
                f"mnk: players must be from 2 to {min(len(MARKS), max(2, m * n))}, not {players}"
            )
        self.m, self.n, self.k = m, n, k
        self.players = players
        self.cells = m * n
        self.full = (1 << self.cells) - 1
        self.lines = self._windows()
        self.lines_through: list[list[int]] = [
            [line for line in self.lines if line >> c & 1] for c in range(self.cells)
        ]
        centre_r, centre_c = (m - 1) / 2, (n - 1) / 2
        self.centre_order = sorted(
            range(self.cells),
            key=lambda c: (abs(c // n - centre_r) + abs(c % n - centre_c), c),
        )
        self.cell_bits = [(c, 1 << c) for c in range(self.cells)]
        self.order_bits = [(c, 1 << c) for c in self.centre_order]
        self.weights = [0] + [4**i for i in range(1, k + 1)]
        self._threat_cache: dict[int, int] | None = {} if self.cells <= _CACHE_CELLS else None
        # Small boards: every mask's winning cells computed once, up front.
        self._threat_table = (
            [self._threats(mask) for mask in range(1 << self.cells)]
            if self.cells <= _DIRECT_TABLE_CELLS
            else None
        )
        self._symmetries = self._make_symmetries() if self.cells <= _SYMMETRY_CELLS else []
        self._initial: MNKState | MNKPartyState = MNKState(self, 0, 0, 0, None)
        if players > 2:
            self._initial = MNKPartyState(self, (0,) * players, 0, None)

    @property
    def params(self) -> dict[str, Any]:
        found = {"m": self.m, "n": self.n, "k": self.k}
        if self.players > 2:
            found["players"] = self.players
        return found

    @property
    def spec(self) -> str:
        if (self.m, self.n, self.k, self.players) == (3, 3, 3, 2):
            return "tictactoe"
        more = f",players={self.players}" if self.players > 2 else ""
        return f"mnk:m={self.m},n={self.n},k={self.k}{more}"

    def __reduce__(self) -> tuple[Any, ...]:
        return (mnk, (self.m, self.n, self.k, self.players))

    def initial(self) -> MNKState | MNKPartyState:
        return self._initial

    # --- tables --------------------------------------------------------------------------

    def _windows(self) -> list[int]:
        m, n, k = self.m, self.n, self.k
        windows = []
        for r in range(m):
            for c in range(n):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                    if 0 <= end_r < m and 0 <= end_c < n:
                        mask = 0
                        for i in range(k):
                            mask |= 1 << ((r + dr * i) * n + c + dc * i)
                        windows.append(mask)
        return sorted(set(windows))

    def threats(self, own: int) -> int:
        """The cells that would complete a line of ``own`` stones (occupied or not)."""
        if self._threat_table is not None:
            return self._threat_table[own]
        cache = self._threat_cache
        if cache is None:
            return self._threats(own)
        found = cache.get(own)
        if found is None:
            found = cache[own] = self._threats(own)
        return found

    def _threats(self, own: int) -> int:
        result = 0
        for line in self.lines:
            rest = line & ~own
            if rest and not rest & (rest - 1):
                result |= rest
        return result

    def _make_symmetries(self) -> list[list[list[int]]]:
        """For every symmetry of the board, lookup tables that map a mask to its image."""
        m, n = self.m, self.n
        maps: list[Callable[[int, int], tuple[int, int]]] = [
            lambda r, c: (r, c),
            lambda r, c: (r, n - 1 - c),
            lambda r, c: (m - 1 - r, c),
            lambda r, c: (m - 1 - r, n - 1 - c),
        ]
        if m == n:
            maps += [
                lambda r, c: (c, r),
                lambda r, c: (c, m - 1 - r),
                lambda r, c: (n - 1 - c, r),
                lambda r, c: (n - 1 - c, m - 1 - r),
            ]
        images = []
        for f in maps[1:]:  # the identity needs no table
            perm = [0] * self.cells
            for cell in range(self.cells):
                r, c = f(cell // n, cell % n)
                perm[cell] = r * n + c
            images.append(perm)
        chunk = self.cells if self.cells <= _DIRECT_TABLE_CELLS else 8
        tables = []
        for perm in images:
            parts = []
            for start in range(0, self.cells, chunk):
                width = min(chunk, self.cells - start)
                part = []
                for value in range(1 << width):
                    image = 0
                    for i in range(width):
                        if value >> i & 1:
                            image |= 1 << perm[start + i]
                    part.append(image)
                parts.append(part)
            tables.append(parts)
        self._chunk = chunk
        return tables

    def canonical_many(self, stones: tuple[int, ...]) -> tuple[int, ...]:
        """The least image of a position of several players' stones under the board's
        symmetries."""
        best = stones
        if not self._symmetries:
            return best
        for parts in self._symmetries:
            if self.cells <= _DIRECT_TABLE_CELLS:
                (table,) = parts
                image = tuple(table[mask] for mask in stones)
            else:
                chunk, low = self._chunk, (1 << self._chunk) - 1
                image = tuple(
                    sum(t[mask >> (i * chunk) & low] for i, t in enumerate(parts))
                    for mask in stones
                )
            if image < best:
                best = image
        return best

    def canonical(self, first: int, second: int) -> int:
        """The least image of the position under the board's symmetries, as one integer."""
        cells = self.cells
        best = first << cells | second
        if self.cells <= _DIRECT_TABLE_CELLS:
            for (table,) in self._symmetries:
                image = table[first] << cells | table[second]
                if image < best:
                    best = image
            return best
        chunk, mask = self._chunk, (1 << self._chunk) - 1
        for parts in self._symmetries:
            a = b = 0
            for i, table in enumerate(parts):
                shift = i * chunk
                a |= table[first >> shift & mask]
                b |= table[second >> shift & mask]
            image = a << cells | b
            if image < best:
                best = image
        return best

    # --- notation ------------------------------------------------------------------------

    def split_moves(self, text: str) -> list[str]:
        text = text.strip()
        if self.cells <= 9 and text.isascii() and text.isdigit():
            return list(text)
        return text.replace(",", " ").split()

    def parse_position(self, text: str) -> MNKState:
        """A move sequence (``5193``) or a board picture (``x.o/.x./..o``; two players).
        (With more players the position is an :class:`MNKPartyState`.)"""
        require_text(text)
        stripped = text.strip()
        if self.players > 2 and ("/" in stripped or any(ch in "xXoO." for ch in stripped)):
            raise InvalidPositionError(
                f"{stripped!r}: a game of {self.players} players reads its positions as moves "
                "from the empty board (e.g. 5,1,9)",
                text=stripped,
                position=stripped,
            )
        if "/" in stripped or any(ch in "xXoO." for ch in stripped):
            return self.parse_picture(stripped)
        state = super().parse_position(stripped)
        assert isinstance(state, (MNKState, MNKPartyState))
        return state  # type: ignore[return-value]

    def parse_picture(self, text: str) -> MNKState:
        rows = text.strip().split("/")
        if len(rows) != self.m:
            raise InvalidPositionError(
                f"{text!r} has {len(rows)} rows; a {self.m}x{self.n} board has {self.m}",
                text=text,
                position=text,
            )
        first = second = 0
        for r, row in enumerate(rows):
            if len(row) != self.n:
                raise InvalidPositionError(
                    f"row {r + 1} of {text!r} is {row!r}: it needs {self.n} cells",
                    text=row,
                    position=text,
                )
            for c, ch in enumerate(row):
                bit = 1 << (r * self.n + c)
                if ch in "xX":
                    first |= bit
                elif ch in "oO":
                    second |= bit
                elif ch not in ".-_":
                    raise InvalidPositionError(
                        f"{ch!r} in {text!r} is not a cell: use x, o or .",
                        text=ch,
                        position=text,
                    )
        return self.from_masks(first, second, text=text)

    def from_masks(self, first: int, second: int, *, text: str = "") -> MNKState:
        """The position with these stones, checked to be one that play can reach."""
        where = text or f"{first:#x}/{second:#x}"
        xs, os = first.bit_count(), second.bit_count()
        if first & second or (first | second) & ~self.full:
            raise InvalidPositionError(f"{where!r} is not a board", text=where, position=where)
        if xs not in (os, os + 1):
            raise InvalidPositionError(
                f"{where!r} cannot arise: x has {xs} stones and o {os} (x moves first)",
                text=where,
                position=where,
            )
        x_won, o_won = self._has_line(first), self._has_line(second)
        if x_won and o_won:
            raise InvalidPositionError(
                f"{where!r} cannot arise: both players have {self.k} in a row",
                text=where,
                position=where,
            )
        winner = FIRST if x_won else 1 if o_won else None
        if winner is not None:
            mover_stones = first if winner == FIRST else second
            if (winner == FIRST) != (xs == os + 1) or not self._last_stone_possible(mover_stones):
                raise InvalidPositionError(
                    f"{where!r} cannot arise: play would have stopped at the first {self.k} "
                    "in a row",
                    text=where,
                    position=where,
                )
        ply = xs + os
        if winner is not None:
            outcome: Outcome | None = Outcome.win_for(winner)
        elif ply == self.cells:
            outcome = Outcome.DRAW
        else:
            outcome = None
        return MNKState(self, first, second, ply, outcome)

    def _has_line(self, stones: int) -> bool:
        return any(stones & line == line for line in self.lines)

    def _last_stone_possible(self, stones: int) -> bool:
        """Some stone of the winner completes every one of its lines (the winning move)."""
        rest = stones
        while rest:
            bit = rest & -rest
            rest ^= bit
            if not self._has_line(stones ^ bit):
                return True
        return False

    def format_moves(self, moves: Sequence[Move]) -> str:
        """The move-sequence notation of ``moves`` played from the empty board."""
        texts = [str(int(m) + 1) for m in moves]  # type: ignore[call-overload]
        return "".join(texts) if self.cells <= 9 else ",".join(texts)

    def format_position(self, state: State) -> str:
        if isinstance(state, MNKPartyState):
            raise NotImplementedError("a game of more than two players writes no board text")
        return str(state)

    def picture(self, state: State) -> str:
        if isinstance(state, MNKPartyState):
            return state.picture()
        assert isinstance(state, MNKState)
        width = len(str(self.cells))
        lines = []
        for r in range(self.m):
            cells = []
            for c in range(self.n):
                cell = r * self.n + c
                bit = 1 << cell
                if state.first & bit:
                    cells.append("X".rjust(width))
                elif state.second & bit:
                    cells.append("O".rjust(width))
                else:
                    cells.append(str(cell + 1).rjust(width))
            lines.append(" ".join(cells))
        return "\n".join(lines)


class MNKState(State):
    """A position of an m,n,k game: the first and second players' stones as bitmasks."""

    __slots__ = ("first", "game", "outcome_", "ply_", "second")

    game: MNK

    def __init__(
        self, game: MNK, first: int, second: int, ply: int, outcome: Outcome | None
    ) -> None:
        self.game = game
        self.first = first
        self.second = second
        self.ply_ = ply
        self.outcome_ = outcome

    # --- protocol ------------------------------------------------------------------------

    @property
    def to_move(self) -> int:
        return self.ply_ & 1

    @property
    def ply(self) -> int:
        return self.ply_

    @property
    def max_plies(self) -> int:
        return self.game.cells

    def outcome(self) -> Outcome | None:
        return self.outcome_

    def legal_moves(self) -> list[int]:
        if self.outcome_ is not None:
            return []
        occupied = self.first | self.second
        return [c for c, bit in self.game.cell_bits if not occupied & bit]

    def ordered_moves(self) -> list[int]:
        """Cells that block the opponent's immediate win first, then from the centre out."""
        game = self.game
        occupied = self.first | self.second
        opponent = self.second if self.ply_ & 1 == 0 else self.first
        blocks = game.threats(opponent) & ~occupied
        moves = [c for c, bit in game.order_bits if not occupied & bit]
        if blocks:
            moves.sort(key=lambda c: not blocks >> c & 1)
        return moves

    def threats(self) -> list[int]:
        """The empty cells that would complete a line of the player not to move."""
        if self.outcome_ is not None:
            return []
        other = self.second if self.ply_ & 1 == 0 else self.first
        found = self.game.threats(other) & ~(self.first | self.second)
        return [c for c, bit in self.game.cell_bits if found & bit]

    def winning_move(self) -> int | None:
        own = self.first if self.ply_ & 1 == 0 else self.second
        wins = self.game.threats(own) & ~(self.first | self.second)
        if wins:
            return (wins & -wins).bit_length() - 1
        return None

    def play(self, move: Move) -> MNKState:
        cell: int = move  # type: ignore[assignment]
        bit = 1 << cell
        game = self.game
        ply = self.ply_ + 1
        if self.ply_ & 1 == 0:
            stones = self.first | bit
            won = any(stones & line == line for line in game.lines_through[cell])
            outcome = Outcome.FIRST_WINS if won else Outcome.DRAW if ply == game.cells else None
            return MNKState(game, stones, self.second, ply, outcome)
        stones = self.second | bit
        won = any(stones & line == line for line in game.lines_through[cell])
        outcome = Outcome.SECOND_WINS if won else Outcome.DRAW if ply == game.cells else None
        return MNKState(game, self.first, stones, ply, outcome)

    def key(self) -> Hashable:
        game = self.game
        if game._symmetries:
            return game.canonical(self.first, self.second)
        return self.first << game.cells | self.second

    def evaluate(self) -> float:
        """Open lines: each window holding only one side's stones counts 4**stones for that side.

        From the side to move's view; the side to move also gets a small bonus for the tempo.
        """
        first, second = self.first, self.second
        weights = self.game.weights
        total = 0
        for line in self.game.lines:
            a = first & line
            b = second & line
            if a and not b:
                total += weights[a.bit_count()]
            elif b and not a:
                total -= weights[b.bit_count()]
        return total + 1 if self.ply_ & 1 == 0 else 1 - total

    # --- notation ------------------------------------------------------------------------

    def move_text(self, move: Move) -> str:
        return str(int(move) + 1)  # type: ignore[call-overload]

    def parse_move(self, text: str) -> int:
        cell = parse_numbered_move(self, text, self.game.cells, "cell")
        if (self.first | self.second) >> cell & 1:
            raise IllegalMoveError(
                f"cell {cell + 1} is taken in {self}", text=text.strip(), position=str(self)
            )
        return cell

    # --- value semantics -----------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, MNKState)
            and self.first == other.first
            and self.second == other.second
            and (self.game is other.game or self.game.params == other.game.params)
        )

    def __hash__(self) -> int:
        return hash((self.first, self.second, self.game.cells))

    def __reduce__(self) -> tuple[Any, ...]:
        return (MNKState, (self.game, self.first, self.second, self.ply_, self.outcome_))

    def __str__(self) -> str:
        n = self.game.n
        rows = []
        for r in range(self.game.m):
            row = []
            for c in range(n):
                bit = 1 << (r * n + c)
                row.append("x" if self.first & bit else "o" if self.second & bit else ".")
            rows.append("".join(row))
        return "/".join(rows)

    def __repr__(self) -> str:
        return f"<{self.game.spec} {self}>"


class MNKPartyState(State):
    """A position of an m,n,k game of three players or more: each player's stones as a
    bitmask, in turn order."""

    __slots__ = ("game", "outcome_", "ply_", "stones")

    numeric_outcomes: ClassVar[bool] = True
    #: a win 1 and a loss -1 (heuristic values lie strictly between)
    value_bounds: ClassVar[tuple[float, float] | None] = (-1.0, 1.0)

    game: MNK

    def __init__(
        self, game: MNK, stones: tuple[int, ...], ply: int, outcome: Payoff | None
    ) -> None:
        self.game = game
        self.stones = stones
        self.ply_ = ply
        self.outcome_ = outcome

    @property
    def players(self) -> int:
        return self.game.players

    @property
    def to_move(self) -> int:
        return self.ply_ % self.game.players

    @property
    def ply(self) -> int:
        return self.ply_

    @property
    def max_plies(self) -> int:
        return self.game.cells

    def outcome(self) -> Payoff | None:
        return self.outcome_

    def _occupied(self) -> int:
        occupied = 0
        for mask in self.stones:
            occupied |= mask
        return occupied

    def legal_moves(self) -> list[int]:
        if self.outcome_ is not None:
            return []
        occupied = self._occupied()
        return [c for c, bit in self.game.cell_bits if not occupied & bit]

    def ordered_moves(self) -> list[int]:
        """Cells that win at once first, then those that block the next player's win, then
        from the centre out."""
        game = self.game
        occupied = self._occupied()
        own = game.threats(self.stones[self.to_move]) & ~occupied
        following = self.stones[(self.to_move + 1) % game.players]
        blocks = game.threats(following) & ~occupied
        moves = [c for c, bit in game.order_bits if not occupied & bit]
        moves.sort(key=lambda c: (not own >> c & 1, not blocks >> c & 1))
        return moves

    def winning_move(self) -> int | None:
        wins = self.game.threats(self.stones[self.to_move]) & ~self._occupied()
        return (wins & -wins).bit_length() - 1 if wins else None

    def play(self, move: Move) -> MNKPartyState:
        cell: int = move  # type: ignore[assignment]
        game = self.game
        mover = self.to_move
        stones = list(self.stones)
        stones[mover] |= 1 << cell
        ply = self.ply_ + 1
        outcome = None
        if any(stones[mover] & line == line for line in game.lines_through[cell]):
            outcome = Payoff.win_for(mover, game.players)
        elif ply == game.cells:
            outcome = Payoff.win_for(0, game.players, draw=True)
        return MNKPartyState(game, tuple(stones), ply, outcome)

    def key(self) -> Hashable:
        return self.game.canonical_many(self.stones)

    def evaluate_players(self) -> tuple[float, ...]:
        """Every player's open lines (each window holding only its stones counts 4**stones),
        less the best of the others', squashed inside (-1, 1): a win (1) ranks above any
        estimate."""
        game = self.game
        weights = game.weights
        raw = [0] * game.players
        for line in game.lines:
            holders = [p for p, mask in enumerate(self.stones) if mask & line]
            if len(holders) == 1:
                raw[holders[0]] += weights[(self.stones[holders[0]] & line).bit_count()]
        return tuple(
            0.9 * math.tanh((raw[p] - max(raw[q] for q in range(game.players) if q != p)) / 64)
            for p in range(game.players)
        )

    def evaluate(self) -> float:
        return self.evaluate_players()[self.to_move]

    def move_text(self, move: Move) -> str:
        return str(int(move) + 1)  # type: ignore[call-overload]

    def parse_move(self, text: str) -> int:
        cell = parse_numbered_move(self, text, self.game.cells, "cell")
        if self._occupied() >> cell & 1:
            raise IllegalMoveError(
                f"cell {cell + 1} is taken in {self}", text=text.strip(), position=str(self)
            )
        return cell

    def mark(self, cell: int) -> str:
        """The mark on ``cell`` (0-based), or ``.``."""
        for player, mask in enumerate(self.stones):
            if mask >> cell & 1:
                return MARKS[player]
        return "."

    def picture(self) -> str:
        game = self.game
        width = len(str(game.cells))
        rows = []
        for r in range(game.m):
            cells = []
            for c in range(game.n):
                cell = r * game.n + c
                mark = self.mark(cell)
                cells.append((mark.upper() if mark != "." else str(cell + 1)).rjust(width))
            rows.append(" ".join(cells))
        return "\n".join(rows)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, MNKPartyState)
            and self.stones == other.stones
            and self.game.params == other.game.params
        )

    def __hash__(self) -> int:
        return hash((self.stones, self.game.cells))

    def __reduce__(self) -> tuple[Any, ...]:
        return (MNKPartyState, (self.game, self.stones, self.ply_, self.outcome_))

    def __str__(self) -> str:
        n = self.game.n
        return "/".join("".join(self.mark(r * n + c) for c in range(n)) for r in range(self.game.m))

    def __repr__(self) -> str:
        return f"<{self.game.spec} {self}>"
