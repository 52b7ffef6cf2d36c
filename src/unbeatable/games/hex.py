"""Hex: two players take turns to place a stone on an n x n rhombus of hexagons; the first
player (``x``) connects the top and bottom edges, the second (``o``) the left and right
edges. A full board always holds exactly one such chain, so the game has no draws.

Cells are named by a column letter and a row number, ``a1`` to ``k11`` (``a1`` is the top
left corner, an acute one; row 1 is the top row). Cell ``(r, c)`` (0-based) touches
``(r-1, c)``, ``(r-1, c+1)``, ``(r, c-1)``, ``(r, c+1)``, ``(r+1, c-1)`` and ``(r+1, c)``:
drawn with each row shifted half a cell to the right of the one above.

With the swap rule (``hex:N,swap``) the second player's first move may be ``swap``: the
first stone changes colour and is mirrored in the long diagonal (``c3`` becomes an ``o`` at
``c3``'s mirror ``c3``... in general ``(r, c)`` becomes ``(c, r)``), so that it plays the same
part for its new owner; then the first player moves again.

Positions: a move sequence from the empty board (``c3 b4``, or run together: ``c3b4``,
``a1 swap``), or a picture, rows top to bottom separated by ``/`` (``x../.o./...``).

Internally a position is two bitmasks (bit ``r * n + c``), moves are 0-based cells and the
swap is the move ``n * n``. A win is found when it happens: the new stone's chain (a flood
over the bitboard) touches both of its player's edges. The evaluation is the two-distance
potential of Queenbee (van Rijswijck, 2000): how far each player is from connecting when the
opponent can always block the best way to a cell.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Hashable, Sequence
from typing import Any, ClassVar

from ..game import (
    FIRST,
    SECOND,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    Move,
    Outcome,
    State,
    require_text,
)

__all__ = ["HEX_MAX", "HEX_MIN", "Hex", "HexState", "hex_game"]

#: The smallest and largest boards.
HEX_MIN, HEX_MAX = 2, 11

#: From this size on, a search with no limit thinks for a while instead of solving (no search
#: here solves 6 x 6 Hex from the start in reasonable time).
_THINKING_SIZE = 6

#: From this size on, an opponent's move and an analysis in an interactive front end (the
#: page) think for a while instead of solving: a search with no limit solves 5 x 5 Hex, but
#: takes minutes over its early positions, which nobody waiting for a move sits through.
_QUICK_SIZE = 5

#: How long a board that does not solve quickly thinks, by purpose (see
#: :meth:`~unbeatable.game.State.thinking_time`).
THINKING_TIMES = {"search": 5.0, "move": 1.0, "analysis": 2.0}

_LETTERS = "abcdefghijk"
_TOKEN = re.compile(r"swap|[a-z][0-9]+|[^\s,]")


def hex_game(size: int = 11, swap: int = 0) -> Hex:
    """The game of Hex on a ``size`` x ``size`` board, with the swap rule when ``swap`` is 1
    (one shared instance per parameters)."""
    return _shared(size, swap)


@functools.lru_cache(maxsize=32)
def _shared(size: int, swap: int) -> Hex:
    return Hex(size, swap)


class Hex(Game):
    """Hex on an n x n board (2 <= n <= 11), with or without the swap rule."""

    name = "hex"

    def __init__(self, size: int = 11, swap: int = 0) -> None:
        if not isinstance(size, int) or isinstance(size, bool):
            raise ValueError(f"hex: the size must be a whole number, not {size!r}")
        if not HEX_MIN <= size <= HEX_MAX:
            raise ValueError(f"hex: the board is {HEX_MIN} to {HEX_MAX} cells a side, not {size}")
        if swap not in (0, 1, False, True):
            raise ValueError(f"hex: swap is 0 (no swap rule) or 1, not {swap!r}")
        n = self.size = size
        self.swap = bool(swap)
        self.cells = n * n
        self.swap_move = self.cells
        self.full = (1 << self.cells) - 1
        col0 = sum(1 << (r * n) for r in range(n))
        self.col_first, self.col_last = col0, col0 << (n - 1)
        self.row_first, self.row_last = (1 << n) - 1, ((1 << n) - 1) << (n * (n - 1))
        self.not_first_col = self.full & ~self.col_first
        self.not_last_col = self.full & ~self.col_last
        self.adjacent = [self.expand(1 << c) & ~(1 << c) for c in range(self.cells)]
        # the edges each player connects: the first top and bottom, the second left and right
        self.edges = ((self.row_first, self.row_last), (self.col_first, self.col_last))
        centre = (n - 1) / 2
        self.centre_order = sorted(
            range(self.cells),
            key=lambda c: (_hex_distance(c // n - centre, c % n - centre), c),
        )
        self.mirror = [(c % n) * n + c // n for c in range(self.cells)]
        self._initial = HexState(self, 0, 0, 0, None, False)

    @property
    def params(self) -> dict[str, Any]:
        return {"size": self.size, "swap": int(self.swap)}

    @property
    def spec(self) -> str:
        return f"hex:{self.size}" + (",swap" if self.swap else "")

    def __reduce__(self) -> tuple[Any, ...]:
        return (hex_game, (self.size, int(self.swap)))

    def initial(self) -> HexState:
        return self._initial

    # --- the board as bits --------------------------------------------------------------

    def expand(self, mask: int) -> int:
        """``mask`` and every cell that touches it."""
        n = self.size
        return (
            mask
            | (mask << 1 & self.not_first_col)
            | (mask >> 1 & self.not_last_col)
            | (mask << n & self.full)
            | mask >> n
            | (mask << (n - 1) & self.not_last_col & self.full)
            | (mask >> (n - 1) & self.not_first_col)
        )

    def chain(self, seed: int, stones: int) -> int:
        """The cells of ``stones`` connected to ``seed`` (a mask inside ``stones``)."""
        chain = seed
        while True:
            grown = self.expand(chain) & stones
            if grown == chain:
                return chain
            chain = grown

    def connects(self, stones: int, player: int) -> bool:
        """Whether ``stones`` of ``player`` join that player's two edges."""
        start, end = self.edges[player]
        return self.chain(stones & start, stones) & end != 0

    def rotate(self, mask: int) -> int:
        """``mask`` turned half a turn (cell ``i`` to ``cells - 1 - i``), which keeps both
        players' edges."""
        return int(format(mask, f"0{self.cells}b")[::-1], 2) if mask else 0

    # --- notation -----------------------------------------------------------------------

    def cell_name(self, cell: int) -> str:
        return f"{_LETTERS[cell % self.size]}{cell // self.size + 1}"

    def split_moves(self, text: str) -> list[str]:
        return _TOKEN.findall(text.lower())

    def parse_position(self, text: str) -> HexState:
        """A move sequence (``c3 b4``, ``c3b4``) or a board picture (``x../.o./...``)."""
        require_text(text)
        stripped = text.strip()
        picture = stripped.partition(",")[0]
        if "/" in stripped or (picture and set(picture) <= set("xXoO.-_")):
            return self.parse_picture(stripped)
        state = super().parse_position(stripped)
        assert isinstance(state, HexState)
        return state

    def parse_picture(self, text: str) -> HexState:
        """The position a picture shows: ``n`` rows of ``n`` cells (``x``, ``o`` or ``.``),
        top row first, separated by ``/``, then ``,swapped`` when the swap was played. Who is
        to move follows from the stones: ``x`` when both have as many (after a swap: when
        ``o`` has one more), else ``o``."""
        stripped = text.strip()
        body, comma, mark = stripped.partition(",")
        if comma and mark.strip().lower() != "swapped":
            raise InvalidPositionError(
                f"{text!r}: a picture may end in ',swapped' (the swap was played), "
                f"not {',' + mark!r}",
                text=mark,
                position=text,
            )
        swapped = bool(comma)
        if swapped and not self.swap:
            raise InvalidPositionError(
                f"{text!r}: this game has no swap rule (play {self.name}:{self.size},swap)",
                text=text,
                position=text,
            )
        rows = body.strip().split("/")
        n = self.size
        if len(rows) != n:
            raise InvalidPositionError(
                f"{text!r} has {len(rows)} rows; a {n}x{n} board has {n}",
                text=text,
                position=text,
            )
        first = second = 0
        for r, row in enumerate(rows):
            if len(row) != n:
                raise InvalidPositionError(
                    f"row {r + 1} of {text!r} is {row!r}: it needs {n} cells",
                    text=row,
                    position=text,
                )
            for c, ch in enumerate(row):
                bit = 1 << (r * n + c)
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
        return self.from_masks(first, second, swapped=swapped, text=text)

    def from_masks(
        self, first: int, second: int, *, swapped: bool = False, text: str = ""
    ) -> HexState:
        """The position with these stones (``swapped``: after the swap), checked to be one
        that play can reach. With the swap rule, ``o`` having one stone more than ``x`` can
        only follow a swap, which is then taken as played."""
        where = text or f"{first:#x}/{second:#x}"
        xs, os = first.bit_count(), second.bit_count()
        if first & second or (first | second) & ~self.full:
            raise InvalidPositionError(f"{where!r} is not a board", text=where, position=where)
        swapped = swapped or (self.swap and os == xs + 1)
        if (os - xs not in (0, 1)) if swapped else (xs - os not in (0, 1)):
            counts = f"x has {xs} stones and o {os}"
            rule = "after the swap, o has as many as x or one more" if swapped else (
                "x moves first" + (", and o has one more only after a swap" if self.swap else "")
            )
            raise InvalidPositionError(
                f"{where!r} cannot arise: {counts} ({rule})", text=where, position=where
            )
        if swapped and os == 0:
            raise InvalidPositionError(
                f"{where!r} cannot arise: after the swap o has a stone", text=where,
                position=where,
            )
        won = [self.connects(first, FIRST), self.connects(second, SECOND)]
        if all(won):
            raise InvalidPositionError(
                f"{where!r} cannot arise: both players join their edges", text=where,
                position=where,
            )
        ply = xs + os + (1 if swapped else 0)
        outcome = None
        if any(won):
            winner = FIRST if won[0] else SECOND
            stones = first if winner == FIRST else second
            # the winner moved last, and some stone of the chain was the winning one
            if (ply - 1) & 1 != winner or not self._last_stone_possible(stones, winner):
                raise InvalidPositionError(
                    f"{where!r} cannot arise: play would have stopped when a chain first "
                    "joined its edges",
                    text=where,
                    position=where,
                )
            outcome = Outcome.win_for(winner)
        return HexState(self, first, second, ply, outcome, swapped)

    def _last_stone_possible(self, stones: int, player: int) -> bool:
        rest = stones
        while rest:
            bit = rest & -rest
            rest ^= bit
            if not self.connects(stones ^ bit, player):
                return True
        return False

    def format_moves(self, moves: Sequence[Move]) -> str:
        """The move-sequence notation of ``moves`` played from the empty board."""
        return " ".join("swap" if m == self.swap_move else self.cell_name(int(m)) for m in moves)  # type: ignore[call-overload]

    def format_position(self, state: State) -> str:
        return str(state)

    def picture(self, state: State) -> str:
        """The board as people draw it: each row half a cell right of the one above, the
        columns' letters on top, the rows' numbers on the left; ``X`` joins top and bottom,
        ``O`` left and right."""
        assert isinstance(state, HexState)
        n = self.size
        lines = ["   " + " ".join(_LETTERS[:n]) + "  (X: top-bottom, O: left-right)"]
        for r in range(n):
            cells = []
            for c in range(n):
                bit = 1 << (r * n + c)
                cells.append("X" if state.first & bit else "O" if state.second & bit else ".")
            lines.append(f"{r + 1:>2} " + " " * r + " ".join(cells))
        return "\n".join(lines)


def _hex_distance(dr: float, dc: float) -> float:
    """The distance on the hex grid between cells ``dr`` rows and ``dc`` columns apart."""
    return max(abs(dr), abs(dc), abs(dr + dc))


class HexState(State):
    """A position of Hex: the first and second players' stones as bitmasks."""

    __slots__ = ("_joins", "_key", "first", "game", "outcome_", "ply_", "second", "swapped")

    game: Hex
    #: No game of Hex ends in a draw.
    has_draws: ClassVar[bool] = False

    def __init__(
        self, game: Hex, first: int, second: int, ply: int, outcome: Outcome | None,
        swapped: bool,
    ) -> None:
        self.game = game
        self.first = first
        self.second = second
        self.ply_ = ply
        self.outcome_ = outcome
        self.swapped = swapped
        self._key: int | None = None
        #: each player's joining cells (see _joining), once computed
        self._joins: list[int | None] = [None, None]

    # --- protocol -----------------------------------------------------------------------

    @property
    def to_move(self) -> int:
        return self.ply_ & 1

    @property
    def ply(self) -> int:
        return self.ply_

    @property
    def max_plies(self) -> int:
        return self.game.cells + (1 if self.game.swap else 0)

    def thinking_time(self, purpose: str = "search") -> float | None:
        """Boards of 6 x 6 and more, which no search here solves, think when given no limit:
        5 s a search, 1 s an opponent's move on the page, 2 s an analysis there. 5 x 5 is
        searched to its end by a search (a proof takes minutes from the early positions), but
        its opponent's move and analysis on the page think 1 s and 2 s (exact when that
        proves the value, as it does once a few stones are down)."""
        size = self.game.size
        if size >= _THINKING_SIZE or (size >= _QUICK_SIZE and purpose != "search"):
            return THINKING_TIMES.get(purpose, THINKING_TIMES["search"])
        return None

    def outcome(self) -> Outcome | None:
        return self.outcome_

    @property
    def can_swap(self) -> bool:
        return self.game.swap and self.ply_ == 1

    def legal_moves(self) -> list[int]:
        if self.outcome_ is not None:
            return []
        free = ~(self.first | self.second)
        moves = [c for c in range(self.game.cells) if free >> c & 1]
        if self.can_swap:
            moves.append(self.game.swap_move)
        return moves

    def ordered_moves(self) -> list[int]:
        """From the centre out (the swap, where legal, first: it takes the centre's stone)."""
        occupied = self.first | self.second
        moves = [c for c in self.game.centre_order if not occupied >> c & 1]
        if self.can_swap:
            moves.insert(0, self.game.swap_move)
        return moves

    def play(self, move: Move) -> HexState:
        game = self.game
        cell: int = move  # type: ignore[assignment]
        ply = self.ply_ + 1
        if cell == game.swap_move:
            return HexState(game, 0, 1 << game.mirror[self.first.bit_length() - 1], ply, None, True)
        bit = 1 << cell
        mover = self.ply_ & 1
        if mover == FIRST:
            stones = self.first | bit
            won = _won(game, bit, stones, FIRST)
            child = HexState(
                game, stones, self.second, ply, Outcome.FIRST_WINS if won else None,
                self.swapped,
            )
        else:
            stones = self.second | bit
            won = _won(game, bit, stones, SECOND)
            child = HexState(
                game, self.first, stones, ply, Outcome.SECOND_WINS if won else None,
                self.swapped,
            )
        # the other player's chains are as they were: its joining cells lose only this one
        known = self._joins[1 - mover]
        if known is not None and not won:
            child._joins[1 - mover] = known & ~bit
        return child

    def winning_move(self) -> int | None:
        """A cell that joins the side to move's edges at once, if there is one: one touching
        (or on) both the chains grown from one edge and those grown from the other."""
        wins = self._joining(self.ply_ & 1)
        return (wins & -wins).bit_length() - 1 if wins else None

    def threats(self) -> list[int] | None:
        """The cells that would join the edges of the player not to move (None while the swap
        may still be played: it takes the threats away)."""
        if self.can_swap:
            return None
        return _cells(self._joining(1 - (self.ply_ & 1)))

    def _joining(self, player: int) -> int:
        """The empty cells that would join ``player``'s edges at once."""
        if self.outcome_ is not None:
            return 0
        known = self._joins[player]
        if known is None:
            known = self._joins[player] = self._join(player)
        return known

    def _join(self, player: int) -> int:
        game = self.game
        own = self.second if player else self.first
        free = game.full & ~(self.first | self.second)
        start, end = game.edges[player]
        near_start = (game.expand(game.chain(own & start, own)) | start) & free
        if not near_start:
            return 0
        near_end = (game.expand(game.chain(own & end, own)) | end) & free
        return near_start & near_end

    def key(self) -> Hashable:
        """The position or its half-turn image, whichever is smaller (both players' edges
        stay theirs), and whether the swap was played (it changes who moves next)."""
        key = self._key
        if key is None:
            game = self.game
            cells = game.cells
            packed = self.first << cells | self.second
            turned = game.rotate(self.first) << cells | game.rotate(self.second)
            key = self._key = (min(packed, turned) << 1) | self.swapped
        return key

    def evaluate(self) -> float:
        """The two-distance potentials (Queenbee's): each player's least sum, over the empty
        cells, of the cell's two-distances to that player's two edges; a lower potential is
        nearer a connection. 100 times the opponent's potential less the side to move's,
        plus the number of cells where the side to move reaches its potential less the
        opponent's (more ways to connect are harder to block)."""
        game = self.game
        player = self.ply_ & 1
        mine, my_ways = _potential(game, self.first, self.second, player)
        theirs, their_ways = _potential(game, self.first, self.second, 1 - player)
        return 100 * (theirs - mine) + (my_ways - their_ways)

    def random_outcome(self, rng: random.Random) -> Outcome:
        """A uniformly random playout's result, found by filling every empty cell at once in
        a random order, in turn (the chain that ends a game survives the rest of the filling,
        and a full board has exactly one)."""
        if self.outcome_ is not None:
            return self.outcome_
        state = self
        if self.can_swap:
            state = self.play(rng.choice(self.legal_moves()))
        game = self.game
        free = [c for c in range(game.cells) if not (state.first | state.second) >> c & 1]
        rng.shuffle(free)
        mover = state.ply_ & 1
        mine = sum(1 << c for c in free[0::2])
        first = state.first | (mine if mover == FIRST else 0)
        if mover != FIRST:
            first |= sum(1 << c for c in free[1::2])
        return Outcome.FIRST_WINS if game.connects(first, FIRST) else Outcome.SECOND_WINS

    # --- notation -----------------------------------------------------------------------

    def move_text(self, move: Move) -> str:
        if move == self.game.swap_move:
            return "swap"
        return self.game.cell_name(int(move))  # type: ignore[call-overload]

    def parse_move(self, text: str) -> int:
        token = text.strip().lower()
        position = str(self)
        game = self.game
        n = game.size
        if token == "swap":
            if not game.swap:
                raise IllegalMoveError(
                    f"'swap' in {position}: this game has no swap rule (play {game.name}:{n},swap)",
                    text=token,
                    position=position,
                )
            if not self.can_swap:
                raise IllegalMoveError(
                    f"'swap' in {position}: only the second player's first move may swap",
                    text=token,
                    position=position,
                )
            return game.swap_move
        match = re.fullmatch(r"([a-z])([0-9]{1,2})", token)
        if match is None:
            raise InvalidMoveError(
                f"{text.strip()!r} is not a cell (a1 to {_LETTERS[n - 1]}{n}) or swap",
                text=text.strip(),
                position=position,
            )
        column, row = _LETTERS.find(match.group(1)), int(match.group(2))
        if not (0 <= column < n and 1 <= row <= n):
            raise InvalidMoveError(
                f"cell {token} is not on the board (a1 to {_LETTERS[n - 1]}{n})",
                text=token,
                position=position,
            )
        if self.outcome_ is not None:
            raise IllegalMoveError(
                f"{token} after the game ended ({self.outcome_}) in {position}",
                text=token,
                position=position,
            )
        cell = (row - 1) * n + column
        if (self.first | self.second) >> cell & 1:
            raise IllegalMoveError(f"cell {token} is taken in {position}", text=token,
                                   position=position)
        return cell

    # --- value semantics ----------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, HexState)
            and self.first == other.first
            and self.second == other.second
            and self.swapped == other.swapped
            and (self.game is other.game or self.game.params == other.game.params)
        )

    def __hash__(self) -> int:
        return hash((self.first, self.second, self.swapped, self.game.cells))

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            HexState, (self.game, self.first, self.second, self.ply_, self.outcome_, self.swapped)
        )

    def __str__(self) -> str:
        n = self.game.size
        rows = []
        for r in range(n):
            row = []
            for c in range(n):
                bit = 1 << (r * n + c)
                row.append("x" if self.first & bit else "o" if self.second & bit else ".")
            rows.append("".join(row))
        return "/".join(rows) + (",swapped" if self.swapped else "")

    def __repr__(self) -> str:
        return f"<{self.game.spec} {self}>"


def _won(game: Hex, bit: int, stones: int, player: int) -> bool:
    """Whether the stone ``bit`` just placed joins ``player``'s edges: its chain touches both."""
    start, end = game.edges[player]
    chain = game.chain(bit, stones)
    return chain & start != 0 and chain & end != 0


def _potential(game: Hex, first: int, second: int, player: int) -> tuple[int, int]:
    """``player``'s two-distance potential and the number of empty cells that reach it."""
    own = second if player else first
    free = game.full & ~(first | second)
    start, end = game.edges[player]
    # the player's chains, each with the empty cells around it: a cell next to a chain is
    # next to every cell around that chain (the chain costs nothing to cross)
    groups = []
    rest = own
    while rest:
        chain = game.chain(rest & -rest, own)
        rest &= ~chain
        groups.append((chain, game.expand(chain) & free))
    neighbours: dict[int, int] = {}
    adjacent = game.adjacent

    def around(cell: int) -> int:
        found = neighbours.get(cell)
        if found is None:
            near = adjacent[cell]
            found = near & free
            if near & own:
                for chain, ring in groups:
                    if chain & near:
                        found |= ring
            found &= ~(1 << cell)
            neighbours[cell] = found
        return found

    def edge_ring(edge: int) -> int:
        ring = edge & free
        for chain, chain_ring in groups:
            if chain & edge:
                ring |= chain_ring
        return ring

    first_distances = _two_distances(edge_ring(start), free, around)
    second_distances = _two_distances(edge_ring(end), free, around)
    # a cell that cannot be reached when the opponent blocks is a whole board away
    far = game.cells
    best, ways = 2 * far, 0
    for cell in _cells(free):
        total = first_distances.get(cell, far) + second_distances.get(cell, far)
        if total < best:
            best, ways = total, 1
        elif total == best:
            ways += 1
    return best, ways


def _cells(mask: int) -> list[int]:
    cells = []
    while mask:
        bit = mask & -mask
        mask ^= bit
        cells.append(bit.bit_length() - 1)
    return cells


def _two_distances(ring: int, free: int, around: Any) -> dict[int, int]:
    """Every empty cell's two-distance to an edge whose neighbouring empty cells are ``ring``
    (at distance 1): one more than the second smallest of its neighbours' distances."""
    distances: dict[int, int] = {}
    level = 1
    current = ring
    settled = ring
    once = twice = 0
    while current:
        rest = current
        while rest:
            bit = rest & -rest
            rest ^= bit
            cell = bit.bit_length() - 1
            distances[cell] = level
            near = around(cell) & ~settled
            twice |= once & near
            once |= near
        level += 1
        current = twice & ~settled & free
        settled |= current
    return distances
