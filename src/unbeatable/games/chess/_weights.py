"""The weights of the evaluation's terms beyond PeSTO (``_eval.terms``): data, not code.

``WEIGHTS[0]`` are the middle game's, ``WEIGHTS[1]`` the end game's, in centipawns per unit of
each feature (``F_*``: a count, White's less Black's). They were set by hand, and the terms
kept because a match against PeSTO alone said they pay (docs/chess.md).
``benchmarks/chess_tune.py`` fits them to self-play games (Texel's method) and writes its fit
into the block below; a fit from 286,000 positions moved them a little and did not play better
(docs/chess.md), so these are still the hand-set ones.
"""

from __future__ import annotations

import numpy as np

# Feature indices: each a count, White's less Black's.
F_MOB_N = 0  # + safe squares (0..8): a knight with that many
F_MOB_B = F_MOB_N + 9  # 0..13
F_MOB_R = F_MOB_B + 14  # 0..14
F_MOB_Q = F_MOB_R + 15  # 0..27
F_KING_ATTACK = F_MOB_Q + 28  # attack units on the enemy king's zone (2 attackers, a queen)
F_KING_ATTACK_SQ = F_KING_ATTACK + 1  # their square / 8
F_SHIELD_NEAR = F_KING_ATTACK_SQ + 1  # a pawn just before a king on its back ranks
F_SHIELD_FAR = F_SHIELD_NEAR + 1  # two squares before it
F_SHIELD_MISSING = F_SHIELD_FAR + 1  # no pawn of its own before it on a file
F_PASSED = F_SHIELD_MISSING + 1  # + rank (from its side, 1..6): a passed pawn
F_PASSED_FREE = F_PASSED + 8  # + rank: nothing on the squares before it
F_PASSED_THEIR_KING = F_PASSED_FREE + 8  # + rank: the other king's distance to its next square
F_PASSED_MY_KING = F_PASSED_THEIR_KING + 8  # + rank: its own king's distance to it
F_ROOK_OPEN = F_PASSED_MY_KING + 8  # a rook on a file without pawns
F_ROOK_HALF = F_ROOK_OPEN + 1  # a rook on a file with only the other side's pawns
F_BISHOP_PAIR = F_ROOK_HALF + 1
F_DOUBLED = F_BISHOP_PAIR + 1  # a pawn beyond the first on a file
F_ISOLATED = F_DOUBLED + 1  # a pawn with no pawn of its side on the files beside it
F_PAWN_THREAT = F_ISOLATED + 1  # a piece (not a pawn) attacked by an enemy pawn
F_TEMPO = F_PAWN_THREAT + 1  # 1 for White to move, -1 for Black
F_THREAT_MINOR = F_TEMPO + 1  # an enemy rook or queen attacked by a knight or bishop
F_THREAT_ROOK = F_THREAT_MINOR + 1  # an enemy queen attacked by a rook
F_HANGING = F_THREAT_ROOK + 1  # an enemy piece (not a pawn or king) attacked and undefended
F_SAFE_CHECK = F_HANGING + 1  # a kind of piece (N, B, R, Q) with a check the enemy does not guard
# against a bare king (no pawn, no piece) the side with a queen, a rook or two minor pieces
# drives it to the edge and brings its own king (the search alone wanders when the mate lies
# beyond its depth): the bare king's distance from the centre (0..6, in king steps along the
# rank and the file), and 14 less the two kings' distance along the rank and the file
F_MOPUP_EDGE = F_SAFE_CHECK + 1
F_MOPUP_NEAR = F_MOPUP_EDGE + 1
# a knight (a bishop) on the 4th to 6th rank from its side, defended by a pawn of its side, on a
# square no pawn of the other side can ever attack
F_OUTPOST_N = F_MOPUP_NEAR + 1
F_OUTPOST_B = F_OUTPOST_N + 1
# a pawn of its side on the squares of a bishop's colour, for each bishop
F_BISHOP_PAWNS = F_OUTPOST_B + 1
N_FEATURES = F_BISHOP_PAWNS + 1

# weights (chess_tune.py --write replaces this block)
# fmt: off
WEIGHTS = np.array([
    [  # middle game
        # F_MOB_N
        -16, -12, -8, -4, 0, 4, 8, 12, 16,
        # F_MOB_B
        -30, -25, -20, -15, -10, -5, 0, 5, 10, 15, 20, 25, 30, 35,
        # F_MOB_R
        -14, -12, -10, -8, -6, -4, -2, 0, 2, 4, 6, 8, 10, 12, 14,
        # F_MOB_Q
        -13, -12, -11, -10, -9, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8,
        9, 10, 11, 12, 13, 14,
        # F_KING_ATTACK
        0,
        # F_KING_ATTACK_SQ
        2,
        # F_SHIELD_NEAR
        12,
        # F_SHIELD_FAR
        5,
        # F_SHIELD_MISSING
        -15,
        # F_PASSED
        0, 0, 5, 10, 20, 35, 55, 0,
        # F_PASSED_FREE
        0, 0, 0, 0, 0, 0, 0, 0,
        # F_PASSED_THEIR_KING
        0, 0, 0, 0, 0, 0, 0, 0,
        # F_PASSED_MY_KING
        0, 0, 0, 0, 0, 0, 0, 0,
        # F_ROOK_OPEN
        25,
        # F_ROOK_HALF
        12,
        # F_BISHOP_PAIR
        25,
        # F_DOUBLED
        -8,
        # F_ISOLATED
        -8,
        # F_PAWN_THREAT
        -35,
        # F_TEMPO
        10,
        # F_THREAT_MINOR
        40,
        # F_THREAT_ROOK
        30,
        # F_HANGING
        35,
        # F_SAFE_CHECK
        40,
        # F_MOPUP_EDGE
        10,
        # F_MOPUP_NEAR
        4,
        # F_OUTPOST_N
        25,
        # F_OUTPOST_B
        12,
        # F_BISHOP_PAWNS
        -3,
    ],
    [  # end game
        # F_MOB_N
        -16, -12, -8, -4, 0, 4, 8, 12, 16,
        # F_MOB_B
        -30, -25, -20, -15, -10, -5, 0, 5, 10, 15, 20, 25, 30, 35,
        # F_MOB_R
        -28, -24, -20, -16, -12, -8, -4, 0, 4, 8, 12, 16, 20, 24, 28,
        # F_MOB_Q
        -26, -24, -22, -20, -18, -16, -14, -12, -10, -8, -6, -4, -2, 0, 2, 4, 6, 8, 10, 12,
        14, 16, 18, 20, 22, 24, 26, 28,
        # F_KING_ATTACK
        0,
        # F_KING_ATTACK_SQ
        0,
        # F_SHIELD_NEAR
        0,
        # F_SHIELD_FAR
        0,
        # F_SHIELD_MISSING
        0,
        # F_PASSED
        0, 5, 10, 20, 35, 60, 90, 0,
        # F_PASSED_FREE
        0, 0, 2, 5, 12, 22, 35, 0,
        # F_PASSED_THEIR_KING
        0, 0, 0, 5, 15, 25, 40, 0,
        # F_PASSED_MY_KING
        0, 0, 0, -2, -6, -10, -16, 0,
        # F_ROOK_OPEN
        10,
        # F_ROOK_HALF
        6,
        # F_BISHOP_PAIR
        50,
        # F_DOUBLED
        -18,
        # F_ISOLATED
        -12,
        # F_PAWN_THREAT
        -25,
        # F_TEMPO
        10,
        # F_THREAT_MINOR
        30,
        # F_THREAT_ROOK
        20,
        # F_HANGING
        15,
        # F_SAFE_CHECK
        10,
        # F_MOPUP_EDGE
        10,
        # F_MOPUP_NEAR
        4,
        # F_OUTPOST_N
        12,
        # F_OUTPOST_B
        6,
        # F_BISHOP_PAWNS
        -7,
    ],
], dtype=np.int64)
# fmt: on
# end weights
