"""How games end and what they are worth (R8): the codes of a trial's end, the
scorings, and the one scoring kernel every game-playing kernel uses (rollouts
of every variant, the neural evaluator, its training) and
:meth:`gammonlab.Position.result` too, on boards laid out as in
:mod:`gammonlab._kernels.board` (row 0 on roll); and a game's five
probabilities seen from the other side, and their cubeless equity.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .board import BAR, HOME, OFF, WINNER_HOME_LOW

__all__ = [
    "END_BACKGAMMON",
    "END_BEAROFF",
    "END_GAMMON",
    "END_SINGLE",
    "END_TRUNCATED",
    "SCORING_CODES",
    "SEED_000",
    "STANDARD",
    "acey_points",
    "acey_terminal_values",
    "cubeless_equity",
    "end_class",
    "flip_probabilities",
    "flipped",
    "game_class",
    "points_won",
    "terminal_values",
]

# Scorings (``scoring`` of the kernels).
STANDARD = 0
"""R8.2: single 1, gammon 2, backgammon 3."""
SEED_000 = 1
"""R8.4: 1; 2 if the loser has a checker outside its home board; 4 if one on the bar."""
SCORING_CODES = {"standard": STANDARD, "seed-000": SEED_000}
"""Kernel code of each scoring name of :data:`gammonlab.rules.SCORINGS`."""

# How a trial ended (``end``): the class of a finished game, lowest first. Under
# R8.2 they are also its points; under R8.4 they stand for 1, 2 and 4 points.
END_SINGLE = 1
END_GAMMON = 2
END_BACKGAMMON = 3
END_TRUNCATED = 4
END_BEAROFF = 5


@njit(cache=True, nogil=True)
def game_class(board, scoring, waiting):
    """The class of a game just won by row 0 of ``board`` (row 1 the loser).

    ``waiting`` counts the loser's checkers still waiting to enter from off the
    board (Acey-Deucey, R11.1; 0 in the other variants): each is scored as a
    checker on the bar, which it is like (it must enter into the winner's home
    board first, R6.4).

    :data:`STANDARD` (R8.2): :data:`END_SINGLE` if the loser has borne off a
    checker, else :data:`END_BACKGAMMON` if it has one on the bar (or waiting)
    or in the winner's home board (its points 19-24), else :data:`END_GAMMON`.
    :data:`SEED_000` (R8.4): :data:`END_BACKGAMMON` (4 points) if the loser has
    a checker on the bar (or waiting), else :data:`END_GAMMON` (2 points) if it
    has one outside its home board (points 7-24), else :data:`END_SINGLE`;
    borne-off checkers do not matter.
    """
    if scoring == SEED_000:
        if board[1, BAR] > 0 or waiting > 0:
            return END_BACKGAMMON
        for col in range(HOME + 1, BAR):
            if board[1, col] > 0:
                return END_GAMMON
        return END_SINGLE
    if board[1, OFF] > 0:
        return END_SINGLE
    if waiting > 0:
        return END_BACKGAMMON
    for col in range(WINNER_HOME_LOW, BAR + 1):
        if board[1, col] > 0:
            return END_BACKGAMMON
    return END_GAMMON


@njit(cache=True, nogil=True)
def end_class(board, scoring):
    """:func:`game_class` of a variant whose checkers are all on the board."""
    return game_class(board, scoring, 0)


@njit(cache=True, nogil=True)
def points_won(board, scoring=STANDARD):
    """The class of the game if row 0 has no checker left on the board, all borne
    off (R8.1), else 0: :func:`end_class`."""
    left = 0
    for col in range(1, BAR + 1):
        left += board[0, col]
    if left > 0:
        return 0
    return end_class(board, scoring)


@njit(cache=True, nogil=True)
def acey_points(board, checkers, scoring=STANDARD):
    """The class of the game if row 0 has borne off all its ``checkers`` (R8.1),
    else 0: :func:`game_class`, the loser's checkers not on the board (the
    borne-off column included) waiting to enter (Acey-Deucey, R2.4)."""
    if board[0, OFF] < checkers:
        return 0
    placed = 0
    for col in range(26):
        placed += board[1, col]
    return game_class(board, scoring, checkers - placed)


@njit(cache=True, nogil=True)
def terminal_values(candidates, scoring=STANDARD):
    """For candidate boards seen from the mover: the class of the game if the mover
    has just borne off its last checker (:func:`end_class`: 1, 2 or 3, which are
    the points under R8.2), else 0."""
    n = candidates.shape[0]
    out = np.zeros(n, dtype=np.int8)
    for c in range(n):
        out[c] = points_won(candidates[c], scoring)
    return out


@njit(cache=True, nogil=True)
def acey_terminal_values(candidates, checkers, scoring=STANDARD):
    """:func:`acey_points` of each candidate board ``(n, 2, 26)`` (int8 array)."""
    n = candidates.shape[0]
    out = np.zeros(n, dtype=np.int8)
    for c in range(n):
        out[c] = acey_points(candidates[c], checkers, scoring)
    return out


@njit(cache=True, nogil=True, inline="always")
def flipped(p):
    """Five probabilities (win, win gammon, win backgammon, lose gammon, lose
    backgammon) seen from the other side, as a tuple: win <-> lose."""
    return 1.0 - p[0], p[3], p[4], p[1], p[2]


@njit(cache=True)
def flip_probabilities(p):
    """Probabilities ``(n, 5)`` seen from the other side (in place): win <-> lose."""
    for i in range(p.shape[0]):
        p[i, 0], p[i, 1], p[i, 2], p[i, 3], p[i, 4] = flipped(p[i])
    return p


@njit(cache=True, nogil=True, inline="always")
def cubeless_equity(p):
    """The cubeless equity (points per game) of five probabilities."""
    return 2.0 * p[0] - 1.0 + p[1] - p[3] + p[2] - p[4]
