# The kernels are numba-compiled: numba types them from their arguments, so they
# carry no annotations (the typed API is ``searcher.Searcher``).
# mypy: disable-error-code="no-untyped-def, no-untyped-call"
"""The alpha-beta search of the chess core: one node routine run as a loop over an explicit
stack (no kernel recurses: numba's on-disk cache mislinks a cached kernel that calls a
recursive one, numba issue 6061).

``search(..., depth, alpha, beta, ...)`` returns the root's fail-soft value ``v`` from the side
to move's view: ``v <= alpha`` means the true value is at most ``v``, ``v >= beta`` at least
``v``, and in between it is the value of the principal variation left in ``pv[0]`` (within the
depth limit, the evaluation at the leaves, the pruning below). ``ABORTED`` when a stop flag or
the node limit cut it short (the position is restored either way).

Scores: centipawns, a mate ``MATE - plies`` from the root (a loss the negation), a draw 0.

A node (frame ``ply`` of ``frames``, fields ``F_*``) runs through stages:

* ``ENTER``: count the node; stop when asked; draws (repetition of a position since the last
  capture or pawn move, in the game's history or the search's own line; fifty moves; material
  that cannot mate); mate-distance pruning; a table probe (a cut-off outside PV nodes); the
  static evaluation (the table's, stored with the entry, when it has the position), replaced
  for the pruning by the table's score when its bound says the value lies beyond it, and
  whether it is *improving* (above the side's evaluation two plies before); at depth 0 the
  quiescence search (stand pat, then captures that do not lose material by SEE and could
  reach alpha with the piece taken and ``DELTA_MARGIN`` more, all moves when in check); else a
  ply less without a table move at depth ``IIR_DEPTH`` or more (internal iterative
  reduction), reverse futility pruning (not in check, not in a PV node: the evaluation itself
  when it is ``RFP_MARGIN`` a ply above beta at depth ``RFP_DEPTH`` or less, a ply less when
  not improving), razoring (not in check, not in a PV node, at depth ``RAZOR_DEPTH`` or less,
  an evaluation ``RAZOR_BASE + RAZOR_MARGIN * (depth - 1)`` below alpha: the node is searched
  as a quiescence node first, whose value stands when it does not beat alpha, and else searched
  again at its depth, ``_unrazor``) and null-move pruning (not in check, not in a PV node, with
  a piece besides pawns, not after another null move: a pass searched ``R = 3 + depth/4 (+ up
  to 3 by the margin over beta)`` plies shallower with a null window; a fail high prunes the
  node), then the moves, scored for ordering (``_order``).
* ``LOOP``: the next move: principal variation search (the first move with the full window,
  the others with a null window and searched again with the full window when they land inside
  it), late move reductions (quiet moves late in the order at depth 3 or more, not in or giving
  check, searched ``ln(depth) ln(count) / 2.25`` plies shallower, less in PV nodes, for
  killers and for moves of good history (the sum of the three in ``_order``), more for moves
  of bad history and outside PV nodes when not improving; searched again at full depth when
  they beat alpha), a check extension (a move that gives check and does not lose material by
  SEE is searched a ply deeper); in
  non-PV nodes not in check, once a move has been searched, near the leaves, moves that give
  no check are skipped when they are quiet and late in the order (late move pruning, fewer when
  not improving), quiet with the evaluation far below alpha (futility pruning), quiet with a
  bad history (history pruning), or lose material by SEE (quiet ones more than ``SEE_QUIET``
  depth^2, captures more than ``SEE_CAPTURE`` depth); once late move or futility pruning holds
  at a node it holds to the node's end, and the quiet moves that give no check are then taken
  out of the list at once (``_drop_pruned``) rather than picked one by one to be skipped. A
  beta cut-off makes a quiet move a killer and the counter-move of the move before, and
  rewards its histories.
* ``AFTER_*``: the child's value arrived (``value``, from the child's view); the re-searches
  above, then the bookkeeping of the best move, the PV (a triangular table) and the table.
"""

from __future__ import annotations

import math

import numpy as np

from ._eval import (
    S_NET,
    S_NET_WORDS,
    SCRATCH_WORDS,
    SEE_VALUE,
    captured_kind,
    dead_draw,
    evaluate_with,
    is_quiet,
    net_move,
    net_refresh,
    non_pawn_material,
    see,
)
from ._make import make, make_null, unmake, unmake_null
from ._movegen import GEN_ALL, GEN_NOISY, gen_moves, gives_check, in_check
from ._order import (
    KILLER_SCORE,
    TT_MOVE_SCORE,
    base_score,
    pick,
    piece_to,
    quiet_score,
    reward,
    score_moves,
)
from ._tables import (
    I0,
    I1,
    I2,
    MAX_MOVES,
    NET_OFF,
    P_HALF,
    P_KEY,
    P_SIDE,
    PROMOTION,
    T_NET_MODE,
    kernel,
    kernel_nogil,
)
from ._tt import (
    EXACT,
    LOWER,
    MATE,
    MATE_BOUND,
    MAX_PLY,
    UPPER,
    entry_bound,
    entry_depth,
    entry_eval,
    entry_move,
    entry_score,
    from_tt,
    prefetch_entry,
    probe,
    store,
    to_tt,
)

INF = MATE + 1
ABORTED = 40_000  # beyond every score
MAX_QUIETS = 64  # quiet moves remembered per ply for the history's penalty

# pruning near the leaves (non-PV nodes, not in check; ``depth`` is the plies left)
RFP_DEPTH = 6  # reverse futility: return the evaluation when it exceeds beta by
RFP_MARGIN = 80  # RFP_MARGIN * depth
PRUNING = True  # late move and futility pruning of quiet moves that give no check:
LMP_DEPTH = 4  # after 3 + depth^2 moves, at depth <= LMP_DEPTH;
FUTILITY_DEPTH = 5  # when the evaluation + FUTILITY_BASE + FUTILITY_MARGIN * depth <= alpha
FUTILITY_BASE = 60
FUTILITY_MARGIN = 90
SEE_DEPTH = 6  # at depth <= SEE_DEPTH, moves that lose material by SEE: quiet ones losing
SEE_QUIET = 25  # more than SEE_QUIET * depth^2, captures more than SEE_CAPTURE * depth
SEE_CAPTURE = 100
HISTORY_DEPTH = 3  # at depth <= HISTORY_DEPTH, quiet moves whose history is below
HISTORY_PRUNE = 4096  # -HISTORY_PRUNE * depth
DELTA_MARGIN = 200  # quiescence: captures that leave the evaluation this far below alpha
IIR_DEPTH = 4  # a node without a table move, this deep or more, searches a ply shallower
RAZOR_DEPTH = 3  # razoring: at depth <= RAZOR_DEPTH, an evaluation below alpha by
RAZOR_BASE = 300  # RAZOR_BASE + RAZOR_MARGIN * (depth - 1): a quiescence search first, whose
RAZOR_MARGIN = 200  # value is returned when it does not beat alpha

# frame fields
(F_ALPHA, F_BETA, F_DEPTH, F_STAGE, F_BEST, F_BESTMOVE, F_NEXT, F_END, F_ALPHA0, F_CHECK,
 F_EVAL, F_MOVE, F_NEWDEPTH, F_COUNT, F_TTMOVE, F_PV, F_QS, F_NULLOK, F_NQUIET,
 F_QUIET, F_STATIC, F_IMPROVING, F_CONT, F_DROPPED, F_RAZOR) = range(25)  # fmt: skip
F_NET = 25  # F_NET..: the learned evaluation's units of the node's position (``net_refresh``)
N_FIELDS = F_NET + S_NET_WORDS
# F_STATIC: the static evaluation (-INF in check); F_EVAL: the same, or the table's score where
# its bound says the true value lies beyond it (the pruning's estimate); F_IMPROVING: the static
# evaluation is above that of two plies before; F_CONT: the piece-to index of the move made
# here (``_order``; -1 for a null move); F_DROPPED: the quiet moves that give no check are
# taken out of the list left (``_drop_pruned``); F_RAZOR: the depth of a node razored (searched
# as a quiescence node first, and again at this depth when that beats alpha; 0: not razored)
# stages
ENTER, AFTER_NULL, LOOP, AFTER_REDUCED, AFTER_ZW, AFTER_FULL = 0, 1, 2, 3, 4, 5

# the control array shared by the threads of a search (int64)
C_STOP = 0  # non-zero: every thread stops at its next node
C_SOFT = 1  # non-zero: start no new iteration
C_GEN = 2  # the table's generation, 1..63
C_NODE_LIMIT = 3  # stop when the threads' nodes reach this (0: no limit)
C_NODES = 8  # C_NODES + thread: that thread's nodes so far (published every 1,024 nodes)
C_SIZE = C_NODES + 256

# the per-thread statistics array (int64)
S_NODES, S_SELDEPTH, S_THREAD, S_THREADS = 0, 1, 2, 3
S_GAIN = 8  # 34 words of scratch space for the static exchange evaluation
S_SIZE = SCRATCH_WORDS  # S_GAIN's 34 words, then the network's units (_eval.S_NET)
if S_GAIN + 34 > S_NET:  # the two modules' layouts of the one scratch array must not overlap
    raise AssertionError(f"the exchange scratch ends at {S_GAIN + 34}, past _eval.S_NET {S_NET}")


@kernel
def _enter(frames, ply, alpha, beta, depth, pv, check, null_ok):
    """Open the frame of the node at ``ply``."""
    frames[ply, F_ALPHA] = alpha
    frames[ply, F_BETA] = beta
    frames[ply, F_DEPTH] = depth
    frames[ply, F_STAGE] = ENTER
    frames[ply, F_PV] = pv
    frames[ply, F_QS] = 1 if depth <= 0 else 0
    frames[ply, F_CHECK] = check
    frames[ply, F_NULLOK] = null_ok
    frames[ply, F_RAZOR] = 0


@kernel
def _repeated(keys, n_hist, ply, halfmove):
    """Whether the position at ``ply`` stood before with the same side to move since the last
    capture or pawn move: in the search's line or in the game's history before the root."""
    here = n_hist + ply
    key = keys[here]
    i = here - 4  # two plies back cannot repeat (a move and a reply are needed)
    low = max(0, here - halfmove)
    while i >= low:
        if keys[i] == key:
            return True
        i -= 2
    return False


@kernel
def _stop_now(ctrl, stats, nodes):
    """Whether this thread must stop: the stop flag, or the node limit (counted exactly with
    one thread, over the threads' published counts with several)."""
    limit = ctrl[C_NODE_LIMIT]
    if stats[S_THREADS] == 1:
        if limit > 0 and nodes >= limit:
            return True
        if nodes & 1023 == 0:
            ctrl[C_NODES + stats[S_THREAD]] = nodes
            return ctrl[C_STOP] != 0
        return False
    if nodes & 1023 != 0:
        return False
    ctrl[C_NODES + stats[S_THREAD]] = nodes
    if limit > 0:
        total = 0
        for t in range(stats[S_THREADS]):
            total += ctrl[C_NODES + t]
        if total >= limit:
            ctrl[C_STOP] = 1
    return ctrl[C_STOP] != 0


@kernel
def _reduction(depth, count, pv, killer, history):
    """Late move reduction of a quiet move (``history``: its three histories' sum)."""
    r = np.int64(0.75 + math.log(depth) * math.log(count) / 2.25)
    if pv:
        r -= 1
    if killer:
        r -= 1
    if history > 8192:
        r -= 1
        if history > 20000:
            r -= 1
    elif history < -8192:
        r += 1
    return r


@kernel
def _prev(frames, ply, back):
    """The piece-to index of the move made ``back`` plies above ``ply`` (-1: none)."""
    if ply < back:
        return -1
    return frames[ply - back, F_CONT]


@kernel_nogil
def search(pos, tab, tt, keys, n_hist, ctrl, stats, heur, frames, moves, scores, undo, pv,
           pv_len, quiets, depth, alpha, beta, excluded, n_excluded):  # fmt: skip
    """The root's value (the contract: the module's docstring). ``keys[:n_hist]``: the game's
    keys before the root, oldest first; ``keys[n_hist + ply]`` is filled in as the search goes.
    ``excluded[:n_excluded]``: root moves not to search (MultiPV's lines already found)."""
    gen = ctrl[C_GEN]
    nodes = stats[S_NODES]
    gain = stats[S_GAIN : S_GAIN + 34]
    keys[n_hist] = pos[P_KEY]
    ply = I0
    net = tab[T_NET_MODE] != NET_OFF
    if net:
        net_refresh(pos, tab, frames[ply, F_NET:])
    _enter(frames, ply, alpha, beta, depth, I1, 1 if in_check(pos, tab) else 0, I0)
    value = 0
    while True:
        stage = frames[ply, F_STAGE]
        result = ABORTED  # ABORTED: the node goes on; anything else: it returns that
        if stage == ENTER:
            nodes += 1
            pv_len[ply] = ply
            if ply > stats[S_SELDEPTH]:
                stats[S_SELDEPTH] = ply
            if _stop_now(ctrl, stats, nodes):
                for q in range(ply - 1, -1, -1):  # take every move back: the root is restored
                    if frames[q, F_STAGE] == AFTER_NULL:
                        unmake_null(pos, undo, q)
                    else:
                        unmake(pos, tab, frames[q, F_MOVE], undo, q)
                stats[S_NODES] = nodes
                return ABORTED
            alpha = frames[ply, F_ALPHA]
            beta = frames[ply, F_BETA]
            depth = frames[ply, F_DEPTH]
            check = frames[ply, F_CHECK]
            qs = frames[ply, F_QS]
            halfmove = np.int64(pos[P_HALF])
            base = ply * MAX_MOVES
            if ply > 0:
                if _repeated(keys, n_hist, ply, halfmove) or dead_draw(pos):
                    result = 0
                elif halfmove >= 100:
                    result = 0  # unless it is mate
                    if check and gen_moves(pos, tab, moves, base, GEN_ALL) == base:
                        result = -MATE + ply
                else:
                    alpha = max(alpha, -MATE + ply)  # mate-distance pruning
                    beta = min(beta, MATE - ply - 1)
                    if alpha >= beta:
                        result = alpha
            if result == ABORTED and ply >= MAX_PLY - 1:
                result = evaluate_with(pos, tab, stats, frames[ply, F_NET:])
            tt_move = 0
            data = np.uint64(0)
            tt_score = 0
            bound = 0
            if result == ABORTED:
                key = pos[P_KEY]
                data = probe(tt, key)
                if data != 0:
                    tt_move = entry_move(data)
                    tt_score = from_tt(entry_score(data), ply)
                    bound = entry_bound(data)
                    if (
                        frames[ply, F_PV] == 0
                        and entry_depth(data) >= max(depth, 0)
                        and (
                            bound == EXACT
                            or (bound == LOWER and tt_score >= beta)
                            or (bound == UPPER and tt_score <= alpha)
                        )
                    ):
                        result = tt_score
            if result == ABORTED:
                if ply > 0 and not qs and tt_move == 0 and depth >= IIR_DEPTH:
                    depth -= 1  # no move from the table: a shallower search finds one cheaper
                    frames[ply, F_DEPTH] = depth
                frames[ply, F_ALPHA] = alpha
                frames[ply, F_BETA] = beta
                frames[ply, F_ALPHA0] = alpha
                frames[ply, F_TTMOVE] = tt_move
                frames[ply, F_BESTMOVE] = 0
                frames[ply, F_COUNT] = 0
                frames[ply, F_NQUIET] = 0
                frames[ply, F_DROPPED] = 0
                if check:
                    static = -INF
                elif data != 0:
                    static = entry_eval(data)  # the same position's: its evaluation, stored
                else:
                    static = evaluate_with(pos, tab, stats, frames[ply, F_NET:])
                frames[ply, F_STATIC] = static
                improving = 0
                if not check and (ply < 2 or static > frames[ply - 2, F_STATIC]):
                    improving = 1
                frames[ply, F_IMPROVING] = improving
                if (
                    not check
                    and data != 0
                    and abs(tt_score) < MATE_BOUND
                    and (
                        bound == EXACT
                        or (bound == LOWER and tt_score > static)
                        or (bound == UPPER and tt_score < static)
                    )
                ):
                    static = tt_score  # the table knows better than the evaluation
                frames[ply, F_EVAL] = static
                if (
                    not qs
                    and frames[ply, F_PV] == 0
                    and not check
                    and depth <= RAZOR_DEPTH
                    and -MATE_BOUND < alpha < MATE_BOUND
                    and static + RAZOR_BASE + RAZOR_MARGIN * (depth - 1) < alpha
                ):
                    qs = 1  # razoring: far below alpha, the captures first (``_razor_fails``)
                    frames[ply, F_RAZOR] = depth
                    frames[ply, F_QS] = 1
                    frames[ply, F_DEPTH] = 0
                if qs:
                    if check:
                        frames[ply, F_BEST] = -MATE + ply
                        end = gen_moves(pos, tab, moves, base, GEN_ALL)
                    elif static >= beta:
                        result = static
                    else:
                        frames[ply, F_BEST] = static
                        if static > alpha:
                            frames[ply, F_ALPHA] = static
                        end = gen_moves(pos, tab, moves, base, GEN_NOISY)
                    if result == ABORTED:
                        score_moves(pos, tab, moves, scores, base, end, tt_move, heur, ply,
                                    gain, _prev(frames, ply, I1),
                                    _prev(frames, ply, I2))  # fmt: skip
                        frames[ply, F_NEXT] = base
                        frames[ply, F_END] = end
                        frames[ply, F_STAGE] = LOOP
                elif (
                    frames[ply, F_PV] == 0
                    and not check
                    and depth <= RFP_DEPTH
                    and beta > -MATE_BOUND
                    and static < MATE_BOUND
                    and static - RFP_MARGIN * (depth - improving) >= beta
                ):
                    result = static  # reverse futility: far above beta this close to the leaves
                elif (
                    frames[ply, F_PV] == 0
                    and not check
                    and frames[ply, F_NULLOK]
                    and depth >= 3
                    and static >= beta
                    and beta > -MATE_BOUND
                    and beta < MATE_BOUND
                    and non_pawn_material(pos, np.int64(pos[P_SIDE]))
                ):
                    r = 3 + depth // 4 + min((static - beta) // 200, 3)
                    make_null(pos, tab, undo, ply)
                    if net:  # the same pieces: the same units
                        for w in range(F_NET, N_FIELDS):
                            frames[ply + 1, w] = frames[ply, w]
                    frames[ply, F_CONT] = -1
                    keys[n_hist + ply + 1] = pos[P_KEY]
                    prefetch_entry(tt, pos[P_KEY])
                    frames[ply, F_STAGE] = AFTER_NULL
                    ply += 1
                    _enter(frames, ply, -beta, -beta + 1, depth - 1 - r, I0, I0, I0)
                    continue
                else:
                    frames[ply, F_STAGE] = LOOP
                    frames[ply, F_NEXT] = -1  # the moves are still to be generated
        elif stage == AFTER_NULL:
            unmake_null(pos, undo, ply)
            v = -value
            if v >= frames[ply, F_BETA]:
                result = frames[ply, F_BETA] if v >= MATE_BOUND else v
            else:
                frames[ply, F_STAGE] = LOOP
                frames[ply, F_NEXT] = -1
        else:
            # LOOP or a child's value arrived: finish the move searched, then take the next
            if stage != LOOP:
                v = -value
                move = frames[ply, F_MOVE]
                alpha = frames[ply, F_ALPHA]
                beta = frames[ply, F_BETA]
                again = 0
                if stage == AFTER_REDUCED and v > alpha:
                    again = 1  # the reduced search beat alpha: at full depth, null window
                    nd = frames[ply, F_NEWDEPTH]
                    child_check = frames[ply + 1, F_CHECK]
                    _enter(frames, ply + 1, -alpha - 1, -alpha, nd, I0, child_check, I1)
                    frames[ply, F_STAGE] = AFTER_ZW
                elif stage == AFTER_ZW and frames[ply, F_PV] and alpha < v < beta:
                    again = 1  # inside the window of a PV node: with the full window
                    nd = frames[ply, F_NEWDEPTH]
                    _enter(frames, ply + 1, -beta, -alpha, nd, I1, frames[ply + 1, F_CHECK], I1)
                    frames[ply, F_STAGE] = AFTER_FULL
                if again:
                    ply += 1
                    continue
                unmake(pos, tab, move, undo, ply)
                if v > frames[ply, F_BEST]:
                    frames[ply, F_BEST] = v
                    if v > alpha:
                        frames[ply, F_BESTMOVE] = move
                        pv[ply, ply] = move
                        for i in range(ply + 1, pv_len[ply + 1]):
                            pv[ply, i] = pv[ply + 1, i]
                        pv_len[ply] = max(pv_len[ply + 1], ply + 1)
                        if v >= beta:
                            if frames[ply, F_QUIET] and frames[ply, F_QS] == 0:
                                n_q = frames[ply, F_NQUIET]
                                side = np.int64(pos[P_SIDE])
                                q0 = ply * MAX_QUIETS
                                reward(heur, side, ply, move, frames[ply, F_DEPTH], quiets, q0,
                                       q0 + n_q, pos, _prev(frames, ply, I1),
                                       _prev(frames, ply, I2))  # fmt: skip
                            store(tt, pos[P_KEY], move, to_tt(v, ply),
                                  _eval16(frames[ply, F_STATIC]), frames[ply, F_DEPTH], LOWER,
                                  gen)  # fmt: skip
                            result = v
                        else:
                            frames[ply, F_ALPHA] = v
                frames[ply, F_STAGE] = LOOP
            if result == ABORTED and frames[ply, F_NEXT] < 0:  # a node's moves, generated late
                base = ply * MAX_MOVES
                end = gen_moves(pos, tab, moves, base, GEN_ALL)
                if end == base:
                    result = -MATE + ply if frames[ply, F_CHECK] else 0
                else:
                    frames[ply, F_BEST] = -INF
                    score_moves(pos, tab, moves, scores, base, end, frames[ply, F_TTMOVE],
                                heur, ply, gain, _prev(frames, ply, I1),
                                _prev(frames, ply, I2))  # fmt: skip
                    frames[ply, F_NEXT] = base
                    frames[ply, F_END] = end
            if result == ABORTED:
                pushed = _next_child(pos, tab, tt, keys, n_hist, frames, moves, scores, undo,
                                     quiets, heur, ply, excluded, n_excluded, gain)  # fmt: skip
                if pushed:
                    ply += 1
                    continue
                result = _finish(pos, tt, frames, ply, gen)
        if result != ABORTED and frames[ply, F_RAZOR] > 0 and result > frames[ply, F_ALPHA0]:
            _unrazor(frames, ply)  # the quiescence search beat alpha: the full search after all
            pv_len[ply] = ply
            result = ABORTED
        if result != ABORTED:
            if ply == 0:
                stats[S_NODES] = nodes
                return result
            value = result
            ply -= 1


@kernel
def _unrazor(frames, ply):
    """A razored node whose quiescence search beat alpha: searched again at its depth, as if
    it had not been razored (its moves still to be generated)."""
    frames[ply, F_QS] = 0
    frames[ply, F_DEPTH] = frames[ply, F_RAZOR]
    frames[ply, F_RAZOR] = 0
    frames[ply, F_ALPHA] = frames[ply, F_ALPHA0]
    frames[ply, F_BEST] = -INF
    frames[ply, F_BESTMOVE] = 0
    frames[ply, F_COUNT] = 0
    frames[ply, F_NQUIET] = 0
    frames[ply, F_DROPPED] = 0
    frames[ply, F_STAGE] = LOOP
    frames[ply, F_NEXT] = -1


@kernel
def _eval16(static):
    """A static evaluation as the table keeps it (0 for none: the side was in check)."""
    return 0 if static <= -MATE_BOUND else static


@kernel
def _finish(pos, tt, frames, ply, gen):
    """A node's moves are all searched: its value, kept in the table."""
    best = frames[ply, F_BEST]
    best_move = frames[ply, F_BESTMOVE]
    bound = EXACT if best_move != 0 else UPPER
    depth = max(frames[ply, F_DEPTH], 0)
    if best > -INF:
        store(tt, pos[P_KEY], best_move, to_tt(best, ply), _eval16(frames[ply, F_STATIC]), depth,
              bound, gen)  # fmt: skip
    return best


@kernel
def _prunes_quiets(frames, ply, depth, alpha):
    """Whether the node at ``ply`` now prunes its quiet moves that give no check: outside the
    principal variation and the quiescence search, not in check, once a move has been searched,
    late move pruning (after ``3 + depth^2`` moves, half as many when not improving) or futility
    pruning (the evaluation far below alpha) near the leaves."""
    return (
        PRUNING
        and not frames[ply, F_QS]
        and not frames[ply, F_PV]
        and not frames[ply, F_CHECK]
        and frames[ply, F_COUNT] > 0
        and frames[ply, F_BEST] > -MATE_BOUND
        and (
            (
                depth <= LMP_DEPTH
                and frames[ply, F_COUNT] >= (3 + depth * depth) // (2 - frames[ply, F_IMPROVING])
            )
            or (
                depth <= FUTILITY_DEPTH
                and alpha < MATE_BOUND
                and frames[ply, F_EVAL] + FUTILITY_BASE + FUTILITY_MARGIN * depth <= alpha
            )
        )
    )


@kernel
def _drop_pruned(pos, tab, moves, scores, i, end):
    """Take the quiet moves that give no check out of ``moves[i:end]``, keeping the others in
    their order, and return the list's new end. ``_next_child`` calls it once a node prunes
    every such move (late move pruning or futility pruning, which, once they hold, hold for the
    rest of a node outside the principal variation: the moves searched only grow, alpha stays);
    the moves' scores are all different (``_order.score_moves``), so the moves left are picked
    in the order they were, and nothing the search does changes but the time it takes."""
    k = i
    for j in range(i, end):
        move = np.int64(moves[j])
        if not is_quiet(move) or gives_check(pos, tab, move):
            moves[k] = moves[j]
            scores[k] = scores[j]
            k += 1
    return k


@kernel
def _next_child(pos, tab, tt, keys, n_hist, frames, moves, scores, undo, quiets, heur, ply,
                excluded, n_excluded, gain):  # fmt: skip
    """Make the node's next move worth searching and open its child's frame; False when the
    node has no move left."""
    end = frames[ply, F_END]
    qs = frames[ply, F_QS]
    check = frames[ply, F_CHECK]
    pv_node = frames[ply, F_PV]
    alpha = frames[ply, F_ALPHA]
    beta = frames[ply, F_BETA]
    depth = frames[ply, F_DEPTH]
    while frames[ply, F_NEXT] < end:
        i = frames[ply, F_NEXT]
        if not frames[ply, F_DROPPED] and _prunes_quiets(frames, ply, depth, alpha):
            end = _drop_pruned(pos, tab, moves, scores, i, end)
            frames[ply, F_END] = end
            frames[ply, F_DROPPED] = 1
            if i >= end:
                break
        move = pick(moves, scores, i, end)
        frames[ply, F_NEXT] = i + 1
        if ply == 0 and n_excluded > 0:
            skip = False
            for k in range(n_excluded):
                skip = skip or excluded[k] == move
            if skip:
                continue
        quiet = is_quiet(move)
        if qs and not check and not (move >> 12) & PROMOTION:
            if frames[ply, F_EVAL] + SEE_VALUE[captured_kind(pos, move)] + DELTA_MARGIN <= alpha:
                continue  # delta pruning: even winning the piece leaves it below alpha
            # a capture that loses material is not worth a quiescence node; its ordering score
            # already says whether it does (``_order``: below zero exactly when SEE is), except
            # for the table's move, scored first whatever it takes
            first = base_score(scores[i]) == TT_MOVE_SCORE
            if see(pos, tab, move, gain) < 0 if first else scores[i] < 0:
                continue
        prune = quiet and _prunes_quiets(frames, ply, depth, alpha)
        pt = piece_to(pos, move)
        if (
            PRUNING
            and not prune
            and not qs
            and not pv_node
            and not check
            and frames[ply, F_COUNT] > 0
            and frames[ply, F_BEST] > -MATE_BOUND
            and depth <= SEE_DEPTH
        ):
            if quiet:
                prune = (
                    depth <= HISTORY_DEPTH
                    and quiet_score(heur, np.int64(pos[P_SIDE]), pt, move, _prev(frames, ply, I1),
                                    _prev(frames, ply, I2)) < -HISTORY_PRUNE * depth
                ) or (
                    # a quiet move loses at most the piece moved (``pt``'s piece): SEE only
                    # where that is more than the margin
                    SEE_VALUE[(pt >> 6) % 6] > SEE_QUIET * depth * depth
                    and see(pos, tab, move, gain) < -SEE_QUIET * depth * depth
                )  # fmt: skip
            elif scores[i] < 0:  # a capture that loses material (``_order``)
                prune = see(pos, tab, move, gain) < -SEE_CAPTURE * depth
        checks = 1 if gives_check(pos, tab, move) else 0  # known before the move is made
        if prune and not checks:
            continue  # late move pruning, futility pruning, history and SEE pruning: a move
            # this late, this far below alpha, this bad so far or losing this much, near the
            # leaves, is not searched (nor made)
        extend = 0
        if checks and not qs:  # a check extension, unless the check loses material by SEE
            extend = 1 if see(pos, tab, move, gain) >= 0 else 0
        make(pos, tab, move, undo, ply)
        if tab[T_NET_MODE] != NET_OFF:
            net_move(pos, tab, move, np.int64(undo[ply, 8]), frames[ply, F_NET:],
                     frames[ply + 1, F_NET:])  # fmt: skip
        keys[n_hist + ply + 1] = pos[P_KEY]
        prefetch_entry(tt, pos[P_KEY])  # the child probes it first
        count = frames[ply, F_COUNT] + 1
        frames[ply, F_COUNT] = count
        frames[ply, F_MOVE] = move
        frames[ply, F_CONT] = pt
        frames[ply, F_QUIET] = 1 if quiet else 0
        if qs:
            _enter(frames, ply + 1, -beta, -alpha, I0, I0, checks, I1)
            frames[ply, F_STAGE] = AFTER_FULL
            return True
        if quiet:
            n_q = frames[ply, F_NQUIET]
            if n_q < MAX_QUIETS:
                quiets[ply * MAX_QUIETS + n_q] = move
                frames[ply, F_NQUIET] = n_q + 1
        new_depth = depth - 1 + extend
        frames[ply, F_NEWDEPTH] = new_depth
        if count == 1:
            _enter(frames, ply + 1, -beta, -alpha, new_depth, pv_node, checks, I1)
            frames[ply, F_STAGE] = AFTER_FULL
            return True
        r = 0
        if depth >= 3 and quiet and not check and not checks and count > 2 + pv_node:
            killer = base_score(scores[i]) in (KILLER_SCORE, KILLER_SCORE - 1)
            side = 1 - np.int64(pos[P_SIDE])
            history = quiet_score(heur, side, pt, move, _prev(frames, ply, I1),
                                  _prev(frames, ply, I2))  # fmt: skip
            r = _reduction(depth, count, pv_node, killer, history)
            if not pv_node and not frames[ply, F_IMPROVING]:
                r += 1
            r = min(max(r, 0), new_depth - 1)
        if r > 0:
            _enter(frames, ply + 1, -alpha - 1, -alpha, new_depth - r, I0, checks, I1)
            frames[ply, F_STAGE] = AFTER_REDUCED
        else:
            _enter(frames, ply + 1, -alpha - 1, -alpha, new_depth, I0, checks, I1)
            frames[ply, F_STAGE] = AFTER_ZW
        return True
    return False
