"""Tesauro's pubeval: a linear move-selection score (numba kernels).

Gerald Tesauro published pubeval in 1993 as a benchmark opponent: a linear
function ``W . X`` of a 122-input raw encoding of the board, with one weight
vector for contact positions and one for races. It scores the position *after*
a play from the point of view of the side that just moved; the play with the
highest score is the one pubeval chooses. The score is not a probability or an
equity.

Boards are gammonlab's ``(2, 26)`` int8 arrays seen from the MOVER: row 0 is the
side that has just moved, row 1 the opponent who is about to roll, each row in
its own numbering (column 0 off, 1..24 points, 25 bar).

The weights are Tesauro's published figures (:data:`WEIGHTS_RACE`,
:data:`WEIGHTS_CONTACT`, float64 as printed). The score is computed in single
precision in the order GNU Backgammon's ``pub_eval.c`` uses, so scores agree
with GNU Backgammon's bit for bit and near-equal plays are ordered alike;
:func:`pubeval_encode` gives the 122 inputs of the published encoding.

Race or contact: pubeval itself takes the choice as an argument and says to
decide it on the position *before* the play. The kernels here follow GNU
Backgammon's classification: a position is a contact position when the two
sides' rearmost checkers (bar = 25) have point numbers summing to more than 24,
i.e. some checker of one side still has to pass a checker of the other.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .board import BAR, OFF, POINTS

__all__ = [
    "WEIGHTS_CONTACT",
    "WEIGHTS_RACE",
    "pubeval_best",
    "pubeval_encode",
    "pubeval_is_race",
    "pubeval_score",
    "pubeval_scores",
    "rearmost",
]

_N_INPUTS = 122
_ALL_OFF_SCORE = np.float32(99999999.0)  # pubeval's "all men off, best possible move"

# Tesauro's published weights (pubeval.c, 1993): race positions.
WEIGHTS_RACE = np.array(
    [
        0.00000,
        -0.17160,
        0.27010,
        0.29906,
        -0.08471,
        0.00000,
        -1.40375,
        -1.05121,
        0.07217,
        -0.01351,
        0.00000,
        -1.29506,
        -2.16183,
        0.13246,
        -1.03508,
        0.00000,
        -2.29847,
        -2.34631,
        0.17253,
        0.08302,
        0.00000,
        -1.27266,
        -2.87401,
        -0.07456,
        -0.34240,
        0.00000,
        -1.34640,
        -2.46556,
        -0.13022,
        -0.01591,
        0.00000,
        0.27448,
        0.60015,
        0.48302,
        0.25236,
        0.00000,
        0.39521,
        0.68178,
        0.05281,
        0.09266,
        0.00000,
        0.24855,
        -0.06844,
        -0.37646,
        0.05685,
        0.00000,
        0.17405,
        0.00430,
        0.74427,
        0.00576,
        0.00000,
        0.12392,
        0.31202,
        -0.91035,
        -0.16270,
        0.00000,
        0.01418,
        -0.10839,
        -0.02781,
        -0.88035,
        0.00000,
        1.07274,
        2.00366,
        1.16242,
        0.22520,
        0.00000,
        0.85631,
        1.06349,
        1.49549,
        0.18966,
        0.00000,
        0.37183,
        -0.50352,
        -0.14818,
        0.12039,
        0.00000,
        0.13681,
        0.13978,
        1.11245,
        -0.12707,
        0.00000,
        -0.22082,
        0.20178,
        -0.06285,
        -0.52728,
        0.00000,
        -0.13597,
        -0.19412,
        -0.09308,
        -1.26062,
        0.00000,
        3.05454,
        5.16874,
        1.50680,
        5.35000,
        0.00000,
        2.19605,
        3.85390,
        0.88296,
        2.30052,
        0.00000,
        0.92321,
        1.08744,
        -0.11696,
        -0.78560,
        0.00000,
        -0.09795,
        -0.83050,
        -1.09167,
        -4.94251,
        0.00000,
        -1.00316,
        -3.66465,
        -2.56906,
        -9.67677,
        0.00000,
        -2.77982,
        -7.26713,
        -3.40177,
        -12.32252,
        0.00000,
        3.42040,
    ],
    dtype=np.float64,
)

# Tesauro's published weights (pubeval.c, 1993): contact positions.
WEIGHTS_CONTACT = np.array(
    [
        0.25696,
        -0.66937,
        -1.66135,
        -2.02487,
        -2.53398,
        -0.16092,
        -1.11725,
        -1.06654,
        -0.92830,
        -1.99558,
        -1.10388,
        -0.80802,
        0.09856,
        -0.62086,
        -1.27999,
        -0.59220,
        -0.73667,
        0.89032,
        -0.38933,
        -1.59847,
        -1.50197,
        -0.60966,
        1.56166,
        -0.47389,
        -1.80390,
        -0.83425,
        -0.97741,
        -1.41371,
        0.24500,
        0.10970,
        -1.36476,
        -1.05572,
        1.15420,
        0.11069,
        -0.38319,
        -0.74816,
        -0.59244,
        0.81116,
        -0.39511,
        0.11424,
        -0.73169,
        -0.56074,
        1.09792,
        0.15977,
        0.13786,
        -1.18435,
        -0.43363,
        1.06169,
        -0.21329,
        0.04798,
        -0.94373,
        -0.22982,
        1.22737,
        -0.13099,
        -0.06295,
        -0.75882,
        -0.13658,
        1.78389,
        0.30416,
        0.36797,
        -0.69851,
        0.13003,
        1.23070,
        0.40868,
        -0.21081,
        -0.64073,
        0.31061,
        1.59554,
        0.65718,
        0.25429,
        -0.80789,
        0.08240,
        1.78964,
        0.54304,
        0.41174,
        -1.06161,
        0.07851,
        2.01451,
        0.49786,
        0.91936,
        -0.90750,
        0.05941,
        1.83120,
        0.58722,
        1.28777,
        -0.83711,
        -0.33248,
        2.64983,
        0.52698,
        0.82132,
        -0.58897,
        -1.18223,
        3.35809,
        0.62017,
        0.57353,
        -0.07276,
        -0.36214,
        4.37655,
        0.45481,
        0.21746,
        0.10504,
        -0.61977,
        3.54001,
        0.04612,
        -0.18108,
        0.63211,
        -0.87046,
        2.47673,
        -0.48016,
        -1.27157,
        0.86505,
        -1.11342,
        1.24612,
        -0.82385,
        -2.77082,
        1.23606,
        -1.59529,
        0.10438,
        -1.30206,
        -4.11520,
        5.62596,
        -2.75800,
    ],
    dtype=np.float64,
)


def _folded(weights: np.ndarray) -> np.ndarray:
    """Single-precision weights with the input scales folded in.

    Inputs ``5k+4`` and 120 are halved and input 121 divided by 15 in pubeval's
    encoding; folding the scale into the weight (in double, then rounding to
    float, as a C compiler does with ``.25236 / 2.0``) lets the kernel add
    weights instead of building the input vector.
    """
    folded = weights.copy()
    folded[4:120:5] /= 2.0
    folded[120] /= 2.0
    folded[121] /= 15.0
    return folded.astype(np.float32)


_FOLDED_RACE = _folded(WEIGHTS_RACE)
_FOLDED_CONTACT = _folded(WEIGHTS_CONTACT)


@njit(cache=True, nogil=True, inline="always")
def rearmost(row: np.ndarray) -> int:
    """Point of a side's rearmost checker on the board (bar = 25); 0 if none is left."""
    for point in range(BAR, OFF, -1):
        if row[point] > 0:
            return point
    return 0


@njit(cache=True)
def pubeval_is_race(board: np.ndarray) -> bool:
    """True when no checker of either side has to pass a checker of the other.

    GNU Backgammon's rule (``ClassifyPosition(...) <= CLASS_RACE``): contact when
    the two rearmost checkers' point numbers (each in its own numbering, bar 25)
    sum to more than 24. A finished game (a side with no checker left) is a race.
    The test is symmetric, so either side may be row 0.
    """
    back0 = rearmost(board[0])
    back1 = rearmost(board[1])
    if back0 == 0 or back1 == 0:
        return True
    return back0 + back1 <= POINTS


@njit(cache=True)
def pubeval_encode(board: np.ndarray) -> np.ndarray:
    """Pubeval's 122 inputs (float32) for a board seen from the mover.

    pubeval's own board ``pos[0..26]``: ``pos[j]`` for ``j`` in 1..24 is the
    mover's point ``j`` (mover's checkers positive, the opponent's negative; the
    opponent's point ``25 - j`` is the same place), ``pos[0]`` minus the
    opponent's bar, ``pos[25]`` the mover's bar, ``pos[26]`` the mover's
    checkers off. Inputs ``5*(j-1) .. 5*(j-1)+4`` describe ``pos[25-j]``: an
    opponent blot; one mover checker; at least two; exactly three; and
    ``(n-3)/2`` for ``n >= 4``. Input 120 is half the opponent's bar count,
    input 121 the mover's checkers off divided by 15.
    """
    x = np.zeros(_N_INPUTS, dtype=np.float32)
    for j in range(1, POINTS + 1):
        place = POINTS + 1 - j  # pubeval location 25 - j, i.e. the mover's point
        n = np.int32(board[0, place])
        if n == 0:
            n = -np.int32(board[1, POINTS + 1 - place])
        base = 5 * (j - 1)
        if n == -1:
            x[base] = np.float32(1.0)
        elif n == 1:
            x[base + 1] = np.float32(1.0)
        if n >= 2:
            x[base + 2] = np.float32(1.0)
        if n == 3:
            x[base + 3] = np.float32(1.0)
        if n >= 4:
            x[base + 4] = np.float32((n - 3) / 2.0)
    x[120] = np.float32(board[1, BAR] / 2.0)
    x[121] = np.float32(board[0, OFF] / 15.0)
    return x


@njit(cache=True)
def _score(board: np.ndarray, race: bool) -> np.float32:
    # Single precision throughout, summed in the order of GNU Backgammon's
    # optimised pub_eval.c (bar and off first, then the mover's points 24..1):
    # the same function as Tesauro's, rounded the same way, so near-equal
    # plays are ordered alike.
    on_board = 0
    for point in range(1, BAR + 1):
        on_board += board[0, point]
    if on_board == 0:
        return _ALL_OFF_SCORE
    w = _FOLDED_RACE if race else _FOLDED_CONTACT
    score = w[120] * np.float32(board[1, BAR]) + w[121] * np.float32(board[0, OFF])
    i = 0
    for place in range(POINTS, 0, -1):
        n = np.int32(board[0, place])
        if n == 0:
            n = -np.int32(board[1, POINTS + 1 - place])
        if n == -1:
            score += w[i]
        elif n == 1:
            score += w[i + 1]
        elif n == 2:
            score += w[i + 2]
        elif n == 3:
            score += w[i + 2] + w[i + 3]
        elif n >= 4:
            score += w[i + 2] + w[i + 4] * np.float32(n - 3)
        i += 5
    return score


@njit(cache=True)
def pubeval_score(board: np.ndarray, race: int = -1) -> float:
    """Pubeval's score of a ``(2, 26)`` board seen from the mover (higher is better).

    ``race``: 1 uses the race weights, 0 the contact weights, -1 (default)
    classifies ``board`` itself with :func:`pubeval_is_race` (what GNU
    Backgammon's ``pub_eval_score`` does). A mover with no checker left on the
    board scores 1e8 (pubeval's "all men off").
    """
    if race < 0:
        flag = pubeval_is_race(board)
    else:
        flag = race != 0
    return np.float64(_score(board, flag))


@njit(cache=True)
def _candidates_race(candidates: np.ndarray) -> bool:
    # No play creates contact, so the position before the play was a race exactly
    # when every resulting position is one, unless every legal play broke contact.
    for i in range(candidates.shape[0]):
        if not pubeval_is_race(candidates[i]):
            return False
    return True


@njit(cache=True)
def pubeval_scores(candidates: np.ndarray, race: int = -1) -> np.ndarray:
    """Scores (float64) of ``k`` candidate boards ``(k, 2, 26)`` seen from the mover.

    ``race`` as in :func:`pubeval_best`: one classification for all candidates.
    """
    k = candidates.shape[0]
    out = np.empty(k, dtype=np.float64)
    if race < 0:
        flag = _candidates_race(candidates)
    else:
        flag = race != 0
    for i in range(k):
        out[i] = _score(candidates[i], flag)
    return out


@njit(cache=True)
def pubeval_best(candidates: np.ndarray, race: int = -1) -> int:
    """Index of the candidate resulting board that pubeval prefers.

    ``candidates`` is ``(k, 2, 26)`` int8, each seen from the mover (row 0 has
    just moved). As pubeval prescribes, one weight vector serves all candidates,
    chosen on the position before the play: pass ``race`` = 1 (race) or 0
    (contact) when that position is known (``pubeval_is_race(before)``); with -1
    (default) it is inferred from the candidates: race when every candidate is a
    race. That inference differs from the position before the play only when
    every legal play breaks contact. Ties go to the first candidate, as in GNU
    Backgammon. Returns -1 when ``k == 0``.
    """
    k = candidates.shape[0]
    if k == 0:
        return -1
    if race < 0:
        flag = _candidates_race(candidates)
    else:
        flag = race != 0
    best = 0
    best_score = _score(candidates[0], flag)
    for i in range(1, k):
        s = _score(candidates[i], flag)
        if s > best_score:
            best = i
            best_score = s
    return best
