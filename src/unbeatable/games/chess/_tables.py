# The kernels are numba-compiled: numba types them from their arguments, so they
# carry no annotations (the typed API is ``core.Position``).
# mypy: disable-error-code="no-untyped-def, no-untyped-call"
"""The chess core's fixed data: bit helpers, the layout of a position, and the lookup tables.

Squares are numbered ``rank * 8 + file`` (a1 = 0, h1 = 7, a8 = 56, h8 = 63); a bitboard is a
``uint64`` with bit ``s`` set for square ``s``. Pieces are ``colour * 6 + kind`` (White 0,
Black 1; kinds pawn 0, knight 1, bishop 2, rook 3, queen 4, king 5), and ``EMPTY`` (12) marks an
empty square.

A position is one ``uint64`` array of ``NPOS`` words (see ``P_*``): the twelve piece bitboards,
both colours' and all occupancy, the side to move, castling rights (bits ``WK``, ``WQ``, ``BK``,
``BQ``), the en-passant square (``NO_SQUARE`` unless an en-passant capture is legal), the
halfmove clock, the fullmove number, the Zobrist key, the two tapered-evaluation sums and the
game phase (kept up to date by every move, as ``uint64`` two's complement), and a mailbox of the
64 squares' pieces.

A move is an integer ``from | to << 6 | flag << 12``: flags ``QUIET``, ``DOUBLE_PUSH``,
``CASTLE_K``, ``CASTLE_Q``, ``CAPTURE``, ``EN_PASSANT``, and ``PROMOTION | kind - 1`` (``| CAPTURE``
for a capturing promotion), so a move fits in 16 bits and 0 (a1a1) is never a move.

Every lookup table lives in one ``uint64`` array (``build_tables``; offsets ``T_*``), passed to
the kernels as an argument rather than read as a global (numba would freeze a global array into
every kernel that reads it). Sliding attacks use magic bitboards: the magic numbers below were
found once by trying sparse random numbers (splitmix64 from the seed 20240601, the AND of three
draws) until each square's occupancies mapped without a harmful collision; ``build_tables``
checks that again and builds the tables with numpy, so that importing costs no compilation.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
import numpy.typing as npt
from numba import njit

# The kernels allocate nothing (their callers pass every array), so they are compiled without
# numba's reference counting (``_nrt=False``): a call then passes its arrays without an atomic
# increment and decrement of each one's count, which cost a quarter of the search's time and
# made threads contend for the counts of the arrays they share (the tables, the hash table).
_OPTIONS: dict[str, Any] = {"cache": True, "_nrt": False}
kernel = njit(**_OPTIONS)
kernel_nogil = njit(nogil=True, **_OPTIONS)

# Numba compiles a kernel called from another once more for each literal argument it meets
# (``f(x, 0)`` compiles ``f`` for the literal 0 beside ``f`` for int64; so does a variable set to
# a constant before a loop changes it, as type inference first sees the constant). The calls
# between kernels pass these numpy scalars instead, which numba types as plain int64: each
# kernel is compiled once, and the cold build is shorter.
I0 = np.int64(0)
I1 = np.int64(1)
I2 = np.int64(2)
U0 = np.uint64(0)
U1 = np.uint64(1)
U7 = np.uint64(7)
U8 = np.uint64(8)
U16 = np.uint64(16)
ALL_BITS = np.uint64(0xFFFFFFFFFFFFFFFF)

WHITE, BLACK = 0, 1
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 0, 1, 2, 3, 4, 5
EMPTY = 12
NO_SQUARE = 64
PIECE_LETTERS = "PNBRQKpnbrqk"

WK, WQ, BK, BQ = 1, 2, 4, 8

QUIET, DOUBLE_PUSH, CASTLE_K, CASTLE_Q, CAPTURE, EN_PASSANT = 0, 1, 2, 3, 4, 5
PROMOTION = 8

# The position array.
P_BB = 0  # 12 piece bitboards, P_BB + piece
P_OCC = 12  # P_OCC + colour: that colour's pieces
P_ALL = 14
P_SIDE = 15
P_CASTLE = 16
P_EP = 17
P_HALF = 18
P_FULL = 19
P_KEY = 20
P_MG = 21
P_EG = 22
P_PHASE = 23
P_BOARD = 24  # 64 squares' pieces
NPOS = 88
# make() saves P_CASTLE..P_PHASE (8 words) and the captured piece: an undo record.
UNDO_FROM = P_CASTLE
UNDO_WORDS = 9

MAX_MOVES = 256  # more than any position's legal moves (the most known is 218)

# Offsets into the tables array.
T_KNIGHT = 0
T_KING = 64
T_PAWN = 128  # T_PAWN + colour * 64 + square: the squares a pawn of that colour attacks
T_ROOK_MASK = 256
T_ROOK_MAGIC = 320
T_ROOK_SHIFT = 384
T_ROOK_OFFSET = 448
T_BISHOP_MASK = 512
T_BISHOP_MAGIC = 576
T_BISHOP_SHIFT = 640
T_BISHOP_OFFSET = 704
T_BETWEEN = 768  # T_BETWEEN + a * 64 + b: the squares strictly between a and b on a line
T_LINE = T_BETWEEN + 4096  # the whole line through a and b (0 if they share none)
T_CASTLE_MASK = T_LINE + 4096  # castling rights kept when a move leaves or reaches a square
T_Z_PIECE = T_CASTLE_MASK + 64  # Zobrist keys: piece * 64 + square
T_Z_CASTLE = T_Z_PIECE + 12 * 64  # 16 rights sets
T_Z_EP = T_Z_CASTLE + 16  # 8 files
T_Z_SIDE = T_Z_EP + 8  # Black to move
T_PST_MG = T_Z_SIDE + 1  # material + square, middle game, piece * 64 + square (two's complement)
T_PST_EG = T_PST_MG + 12 * 64
T_PHASE = T_PST_EG + 12 * 64  # 12 pieces' weights toward the middle game
T_SLIDERS = T_PHASE + 16  # rook attack sets, then bishop attack sets
ROOK_TABLE = 102_400
BISHOP_TABLE = 5_248
T_NET_MODE = T_SLIDERS + ROOK_TABLE + BISHOP_TABLE  # the learned evaluation: NET_* below
NET_HIDDEN = 256  # the units of each side's first layer
NET_ONE = 255  # a first-layer unit's 1.0: its weights are int16 in these steps, clipped to it
T_NET = T_NET_MODE + 1  # the first layer, int16 (four to a word): 768 rows of weights, biases
T_NET_OUT = T_NET + (769 * NET_HIDDEN + 3) // 4  # the output: int32 weights, a float32 bias
NET_OUT_ONE = 1 << 16  # an output weight's centipawn (a unit step's worth, in these steps)
T_SIZE = T_NET_OUT + (2 * NET_HIDDEN + 2) // 2
NET_OFF, NET_WHOLE, NET_RESIDUAL = 0, 1, 2  # no network; its value alone; added to the rest

ROOK_MAGICS = (
    0x0480002080400050, 0x0540082000100040, 0x0480182000801004, 0x0080100081880005,
    0x0900025084080100, 0x8100010084000806, 0x4080020001800100, 0x01000B4700002082,
    0x2042800282400020, 0x104180200A824000, 0x8006004200201080, 0x0402001222008A40,
    0x0001800800040280, 0x6920800400060080, 0x0202008805020004, 0x140100320081C100,
    0x8085A08000400880, 0x0000404010002008, 0x2006808010002004, 0x100580802804B000,
    0x4203010008001184, 0x0080080104201040, 0x4040140088211016, 0x44100A0004440081,
    0xC800208980004000, 0x00002000400A5000, 0x8D200301001020C0, 0x4030008080080010,
    0x0004040080080180, 0x2001440080800200, 0x00800864001A0310, 0x004000820008432C,
    0x0005814012800020, 0x0881884008802000, 0x1084100084802000, 0x082220F001001900,
    0x11C2000922001004, 0x0402000486001008, 0x4009C10814000210, 0x000C040642000081,
    0x0004804000B08000, 0x1001008840010020, 0x0010300020008080, 0x8101001000190020,
    0x10008801011D0010, 0x08020010B4020008, 0x3202000814020049, 0xB010412052820004,
    0x1880002000400040, 0x0250A00090400080, 0x4030124100200100, 0x01000A1001006100,
    0x1008280100041100, 0x0826102044402801, 0x0180800100220080, 0x401080010001C480,
    0x0882800050690041, 0x2001034080342202, 0x4400090110422001, 0x0022002038400512,
    0x010D000208002451, 0x0013000A080C0001, 0x2900060108009024, 0x40082024008104C6,
)
BISHOP_MAGICS = (
    0x0048A00802102120, 0x0020080100498000, 0x0C902104430C0020, 0x0044050210009040,
    0x0014142012000004, 0x80282A2820801105, 0x000952100C204820, 0x0102004208042282,
    0x0480042014010202, 0x18001002009C0284, 0x00280404019A0829, 0x6380082A41000000,
    0x1008411040024401, 0x8100008860280040, 0x8040004802101050, 0x2100102401080820,
    0x0008049030900188, 0x0110708410808900, 0x0108000100C40080, 0x0004000804200804,
    0x0822008400A20034, 0x0001800108200201, 0x0109100404060280, 0x0400302201140610,
    0x0514200444208400, 0x0003100420040141, 0x0104280004080028, 0x040404020C401080,
    0x10008A0004010400, 0x4000810042034200, 0x0004A08006084400, 0x0005210100404800,
    0x040144A001102000, 0x000C022840200100, 0x004601D000A11300, 0x1004120080280080,
    0x0014040400001100, 0x8010100020024400, 0x0004008210040101, 0x0003140100008060,
    0x0084112410044008, 0x6042020120031402, 0x800300C0B0000200, 0x0810002024221800,
    0x6200280101001010, 0x0002109000800100, 0x0004100401000045, 0x9002080101054020,
    0x00010082212100E4, 0x0101006824040200, 0x8215090041300000, 0x0008000022880200,
    0x02600E405081800B, 0x82442008B008C204, 0x4014204204010420, 0x000809012A020600,
    0x1A09002802089404, 0x0080004900901000, 0x1420084200422801, 0x0004016000420200,
    0x0088020440848840, 0x0000403020010900, 0x0140408248012304, 0x0440040802142020,
)

if getattr(numba.config, "DISABLE_JIT", False):

    def popcount(x):
        """Number of set bits."""
        return bin(int(x)).count("1")

    def lsb(x):
        """The lowest set bit's index (x != 0)."""
        x = int(x)
        return (x & -x).bit_length() - 1

else:
    from llvmlite import ir  # type: ignore[import-untyped, unused-ignore]
    from numba import types
    from numba.extending import intrinsic

    @intrinsic
    def _ctpop(typingctx, x):
        """LLVM's population count of a uint64 (one instruction where the CPU has one)."""
        sig = types.int64(types.uint64)

        def codegen(context, builder, signature, args):
            fn = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
            return builder.call(fn, [args[0]])

        return sig, codegen

    @intrinsic
    def _cttz(typingctx, x):
        """LLVM's count of trailing zeros of a uint64."""
        sig = types.int64(types.uint64)

        def codegen(context, builder, signature, args):
            i64 = ir.IntType(64)
            i1 = ir.IntType(1)
            fnty = ir.FunctionType(i64, [i64, i1])
            fn = builder.module.declare_intrinsic("llvm.cttz", [i64], fnty)
            return builder.call(fn, [args[0], ir.Constant(i1, 1)])

        return sig, codegen

    popcount = _ctpop  # type: ignore[assignment]  # uint64 -> int64 (callers pass uint64)
    lsb = _cttz  # type: ignore[assignment]


@kernel
def bit(square):
    """The bitboard of one square."""
    return U1 << np.uint64(square)


# ---------------------------------------------------------------------------------------------
# Building the tables (numpy, at import)

_ROOK_DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1))
_BISHOP_DIRS = ((1, 1), (1, -1), (-1, 1), (-1, -1))
_KNIGHT_STEPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
_KING_STEPS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))


def _steps(square: int, steps: tuple[tuple[int, int], ...]) -> int:
    rank, file = divmod(square, 8)
    out = 0
    for dr, df in steps:
        r, f = rank + dr, file + df
        if 0 <= r < 8 and 0 <= f < 8:
            out |= 1 << (r * 8 + f)
    return out


def _ray_squares(square: int, dr: int, df: int) -> list[int]:
    """The squares from ``square`` (excluded) to the board's edge in one direction."""
    rank, file = divmod(square, 8)
    out = []
    r, f = rank + dr, file + df
    while 0 <= r < 8 and 0 <= f < 8:
        out.append(r * 8 + f)
        r, f = r + dr, f + df
    return out


def _slider_table(
    dirs: tuple[tuple[int, int], ...], magics: tuple[int, ...]
) -> tuple[list[int], list[int], list[int], npt.NDArray[np.uint64]]:
    """Masks, shifts, offsets and the attack sets of one kind of slider, vectorised over each
    square's occupancies; raises if a magic number maps two occupancies with different attacks
    to one entry."""
    masks, shifts, offsets, parts = [], [], [], []
    offset = 0
    for square in range(64):
        rays = [_ray_squares(square, dr, df) for dr, df in dirs]
        mask_squares = [s for ray in rays for s in ray[:-1]]  # an edge square never blocks
        bits = len(mask_squares)
        index = np.arange(1 << bits, dtype=np.uint64)
        occ = np.zeros(1 << bits, dtype=np.uint64)
        for j, s in enumerate(mask_squares):
            occ |= ((index >> np.uint64(j)) & U1) << np.uint64(s)
        attacks = np.zeros(1 << bits, dtype=np.uint64)
        for ray in rays:
            open_ = np.ones(1 << bits, dtype=bool)  # not yet blocked
            for s in ray:
                b = np.uint64(1 << s)
                attacks[open_] |= b
                open_ &= (occ & b) == U0
        shift = 64 - bits
        slot = (occ * np.uint64(magics[square])) >> np.uint64(shift)
        part = np.zeros(1 << bits, dtype=np.uint64)
        part[slot] = attacks
        if not np.array_equal(part[slot], attacks):
            raise AssertionError(f"magic number of square {square} collides")
        masks.append(sum(1 << s for s in mask_squares))
        shifts.append(shift)
        offsets.append(offset)
        parts.append(part)
        offset += 1 << bits
    return masks, shifts, offsets, np.concatenate(parts)


def _line_tables() -> tuple[list[int], list[int]]:
    between = [0] * 4096
    line = [0] * 4096
    for a in range(64):
        for dr, df in _ROOK_DIRS + _BISHOP_DIRS:
            ray = _ray_squares(a, dr, df)
            back = _ray_squares(a, -dr, -df)
            full = (1 << a) | sum(1 << s for s in ray + back)
            inner = 0
            for b in ray:
                between[a * 64 + b] = inner
                line[a * 64 + b] = full
                inner |= 1 << b
    return between, line


def _splitmix64(count: int, seed: int) -> list[int]:
    """``count`` pseudo-random 64-bit words (splitmix64): the same on every machine."""
    mask = (1 << 64) - 1
    out = []
    state = seed
    for _ in range(count):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        out.append(z ^ (z >> 31))
    return out


def build_tables(net: str | None = None) -> npt.NDArray[np.uint64]:
    """The tables array (layout: the ``T_*`` offsets). ``net``: the learned evaluation's file
    (``"none"``: the hand-written evaluation alone); None: the file :data:`NET_VARIABLE` names,
    else the package's (:func:`read_net`)."""
    from ._pesto import EG_TABLES, EG_VALUE, MG_TABLES, MG_VALUE, PHASE_WEIGHT

    tab = np.zeros(T_SIZE, dtype=np.uint64)
    for s in range(64):
        tab[T_KNIGHT + s] = _steps(s, _KNIGHT_STEPS)
        tab[T_KING + s] = _steps(s, _KING_STEPS)
        tab[T_PAWN + s] = _steps(s, ((1, -1), (1, 1)))
        tab[T_PAWN + 64 + s] = _steps(s, ((-1, -1), (-1, 1)))
    masks, shifts, offsets, rook = _slider_table(_ROOK_DIRS, ROOK_MAGICS)
    tab[T_ROOK_MASK : T_ROOK_MASK + 64] = masks
    tab[T_ROOK_MAGIC : T_ROOK_MAGIC + 64] = ROOK_MAGICS
    tab[T_ROOK_SHIFT : T_ROOK_SHIFT + 64] = shifts
    tab[T_ROOK_OFFSET : T_ROOK_OFFSET + 64] = [T_SLIDERS + o for o in offsets]
    tab[T_SLIDERS : T_SLIDERS + ROOK_TABLE] = rook
    masks, shifts, offsets, bishop = _slider_table(_BISHOP_DIRS, BISHOP_MAGICS)
    tab[T_BISHOP_MASK : T_BISHOP_MASK + 64] = masks
    tab[T_BISHOP_MAGIC : T_BISHOP_MAGIC + 64] = BISHOP_MAGICS
    tab[T_BISHOP_SHIFT : T_BISHOP_SHIFT + 64] = shifts
    tab[T_BISHOP_OFFSET : T_BISHOP_OFFSET + 64] = [T_SLIDERS + ROOK_TABLE + o for o in offsets]
    tab[T_SLIDERS + ROOK_TABLE : T_NET_MODE] = bishop
    between, line = _line_tables()
    tab[T_BETWEEN : T_BETWEEN + 4096] = between
    tab[T_LINE : T_LINE + 4096] = line
    keep = [15] * 64
    for square, lost in ((4, WK | WQ), (7, WK), (0, WQ), (60, BK | BQ), (63, BK), (56, BQ)):
        keep[square] = 15 & ~lost
    tab[T_CASTLE_MASK : T_CASTLE_MASK + 64] = keep
    keys = _splitmix64(12 * 64 + 16 + 8 + 1, 0x5EED_C4E5)
    tab[T_Z_PIECE : T_Z_SIDE + 1] = keys
    tab[T_Z_CASTLE] = 0  # no rights: nothing to add
    mg = np.zeros(12 * 64, dtype=np.int64)
    eg = np.zeros(12 * 64, dtype=np.int64)
    for kind in range(6):
        for s in range(64):
            rank, file = divmod(s, 8)
            white = (7 - rank) * 8 + file  # the tables run from a8 to h1
            black = rank * 8 + file
            mg[kind * 64 + s] = MG_VALUE[kind] + MG_TABLES[kind][white]
            eg[kind * 64 + s] = EG_VALUE[kind] + EG_TABLES[kind][white]
            mg[(6 + kind) * 64 + s] = -(MG_VALUE[kind] + MG_TABLES[kind][black])
            eg[(6 + kind) * 64 + s] = -(EG_VALUE[kind] + EG_TABLES[kind][black])
        tab[T_PHASE + kind] = tab[T_PHASE + 6 + kind] = PHASE_WEIGHT[kind]
    tab[T_PST_MG : T_PST_MG + 768] = mg.view(np.uint64)
    tab[T_PST_EG : T_PST_EG + 768] = eg.view(np.uint64)
    weights = read_net(net)
    if weights is not None:
        _load_net(tab, *weights)
    tab.flags.writeable = False
    return tab


#: The network the engine plays with, in the package's data (``benchmarks/chess_net.py``'s output).
NET_FILE = "chess-net.npz"

#: The environment variable that names another network's file (``none`` or empty: none).
NET_VARIABLE = "UNBEATABLE_CHESS_NET"


class NetworkFileError(ValueError):
    """A network file that cannot be played: missing, unreadable, or not a network the kernels
    can sum (its message is one line naming the file, and the variable when that named it)."""


def read_net(net: str | None = None) -> tuple[str, dict[str, npt.NDArray[Any]]] | None:
    """The learned evaluation's file and its arrays: ``net``, or (None) the file
    :data:`NET_VARIABLE` names, or the package's; None for ``none`` or empty (no network).
    Raises :class:`NetworkFileError` naming the file when it cannot be read as a network."""
    import os
    import zipfile
    from importlib import resources

    named = f"{NET_VARIABLE}={{}}" if net is None else "{}"
    if net is None:
        net = os.environ.get(NET_VARIABLE)
    if net is not None and net.strip().lower() in ("", "none"):
        return None
    if net is None:
        with resources.files("unbeatable.data").joinpath(NET_FILE).open("rb") as packaged:
            return NET_FILE, dict(np.load(packaged))
    name = named.format(net)
    try:
        with np.load(net, allow_pickle=False) as saved:
            arrays = dict(saved)
    except FileNotFoundError:
        raise NetworkFileError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise NetworkFileError(f"{name}: a directory, not a network file") from None
    except OSError as error:
        raise NetworkFileError(f"{name}: cannot read it: {error.strerror or error}") from None
    except (ValueError, EOFError, zipfile.BadZipFile, AttributeError):
        raise NetworkFileError(
            f"{name}: not a network file (benchmarks/chess_net.py writes them)"
        ) from None
    missing = [k for k in ("w1", "b1", "w2", "b2", "residual") if k not in arrays]
    if missing:
        raise NetworkFileError(f"{name}: not a network file (no {', '.join(missing)})")
    return name, arrays


def _load_net(tab: npt.NDArray[np.uint64], path: str, net: dict[str, npt.NDArray[Any]]) -> None:
    """Put the learned evaluation's weights (``net``, read from ``path``) into ``tab``."""
    w1, b1, w2, b2 = (np.asarray(net[k], dtype=np.float32) for k in ("w1", "b1", "w2", "b2"))
    residual = bool(np.asarray(net["residual"]).ravel()[:1].any())
    units = w1.shape[-1]
    if w1.shape != (768, units) or b1.shape != (units,) or w2.shape != (2 * units,) or b2.size != 1:
        shapes = ", ".join(str(a.shape) for a in (w1, b1, w2, b2))
        raise NetworkFileError(f"{path}: not a network file (layers shaped {shapes})")
    if units != NET_HIDDEN:
        raise NetworkFileError(f"{path}: a network of {units} units, the kernels' has {NET_HIDDEN}")
    if not all(np.isfinite(a).all() for a in (w1, b1, w2, b2)):
        raise NetworkFileError(f"{path}: not a network file (weights not all finite)")
    first = np.round(np.concatenate([w1.ravel(), b1]) * NET_ONE)
    # a unit's sum over 32 pieces of its largest weights, and its bias, fit in an int16
    worst = np.sort(np.abs(first[:-NET_HIDDEN].reshape(768, NET_HIDDEN)), axis=0)[-32:].sum(0)
    if (worst + np.abs(first[-NET_HIDDEN:])).max() > np.iinfo(np.int16).max:
        raise NetworkFileError(f"{path}: first-layer weights too large for the kernel's int16 sums")
    words = np.zeros((T_NET_OUT - T_NET) * 4, dtype=np.int16)
    words[: first.size] = first
    tab[T_NET:T_NET_OUT] = words.view(np.uint64)
    # centipawns a unit step, in whole steps of 1 / NET_OUT_ONE: the sum over every unit at its
    # most, NET_ONE, fits in an int32
    weights = np.round(w2.astype(np.float64) * 100 / NET_ONE * NET_OUT_ONE)
    if np.abs(weights).sum() * NET_ONE > np.iinfo(np.int32).max:
        raise NetworkFileError(f"{path}: output weights too large for the kernel's int32 sum")
    out = np.zeros((T_SIZE - T_NET_OUT) * 2, dtype=np.int32)
    out[: 2 * NET_HIDDEN] = weights
    out[2 * NET_HIDDEN] = np.float32(100 * b2.ravel()[0]).view(np.int32)  # the bias, centipawns
    tab[T_NET_OUT:T_SIZE] = out.view(np.uint64)
    tab[T_NET_MODE] = NET_RESIDUAL if residual else NET_WHOLE
