"""How games end and what they are worth: the codes and scoring kernels shared
by every game-playing kernel (rollouts, the neural evaluator, its training).

Boards are ``(2, 26)`` int8 arrays, row 0 on roll (see
:mod:`gammonlab._kernels.movegen`).
"""

from __future__ import annotations

from numba import njit

from .bearoff import bearoff_index_row
from .movegen import BAR, OFF

__all__ = [
    "BEAROFF",
    "END_BACKGAMMON",
    "END_BEAROFF",
    "END_GAMMON",
    "END_SINGLE",
    "END_TRUNCATED",
    "NET",
    "PUBEVAL",
    "RANDOM",
    "SCORING_CODES",
    "SEED_000",
    "STANDARD",
    "bearoff_probabilities",
    "end_class",
    "is_pure_bearoff",
]

# Built-in policies.
RANDOM = 0
PUBEVAL = 1
BEAROFF = 2
NET = 3

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
HOME = 6
_POINTS = 24


@njit(cache=True, nogil=True)
def end_class(board, scoring):
    """The class of a game just won by row 0 of ``board`` (row 1 the loser).

    :data:`STANDARD` (R8.2): :data:`END_SINGLE` if the loser has borne off a
    checker, else :data:`END_BACKGAMMON` if it has one on the bar or in the
    winner's home board (its points 19-24), else :data:`END_GAMMON`.
    :data:`SEED_000` (R8.4): :data:`END_BACKGAMMON` (4 points) if the loser has
    a checker on the bar, else :data:`END_GAMMON` (2 points) if it has one
    outside its home board (points 7-24), else :data:`END_SINGLE`; borne-off
    checkers do not matter.
    """
    if scoring == SEED_000:
        if board[1, BAR] > 0:
            return END_BACKGAMMON
        for col in range(HOME + 1, BAR):
            if board[1, col] > 0:
                return END_GAMMON
        return END_SINGLE
    if board[1, OFF] > 0:
        return END_SINGLE
    for col in range(_POINTS - HOME + 1, BAR + 1):
        if board[1, col] > 0:
            return END_BACKGAMMON
    return END_GAMMON


@njit(cache=True, nogil=True)
def bearoff_probabilities(board, rolls, first_off):
    """Two-sided bear-off probabilities of ``board`` (row 0 on roll) as a 5-tuple.

    The formula of :func:`gammonlab._kernels.bearoff.two_sided_probabilities`
    for one board, returned as numbers so that the game loop passes no output
    array. The caller has checked that both rows are pure bear-offs.
    """
    a = bearoff_index_row(board[0])
    o = bearoff_index_row(board[1])
    n_rolls = rolls.shape[1]
    n_first = first_off.shape[1]
    # P(on roll finishes on its roll t, the opponent has not finished in t - 1 rolls)
    survival = 0.0
    for s in range(n_rolls):
        survival += rolls[o, s]
    win = 0.0
    for t in range(n_rolls):
        win += rolls[a, t] * survival
        survival -= rolls[o, t]
    win_gammon = 0.0
    lose_gammon = 0.0
    if board[1, OFF] == 0 and o != 0:
        for t in range(1, n_rolls):
            tail = 0.0
            for s in range(t, n_first):
                tail += first_off[o, s]
            win_gammon += rolls[a, t] * tail
    if board[0, OFF] == 0 and a != 0:
        for s in range(1, n_rolls):
            tail = 0.0
            for t in range(s + 1, n_first):
                tail += first_off[a, t]
            lose_gammon += rolls[o, s] * tail
    win = min(max(win, 0.0), 1.0)
    win_gammon = min(win_gammon, win)
    lose_gammon = min(lose_gammon, 1.0 - win)
    return win, win_gammon, 0.0, lose_gammon, 0.0


@njit(cache=True, nogil=True)
def is_pure_bearoff(board):
    """Both sides have every checker in their home boards (the database applies)."""
    return bearoff_index_row(board[0]) >= 0 and bearoff_index_row(board[1]) >= 0
