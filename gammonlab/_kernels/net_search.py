"""Look-ahead with the neural evaluator: 1-ply and 2-ply (numba kernels).

The n-ply value of a position (side on roll A) is the average over the 21
rolls (a non-double counting twice, out of 36) of the position after A's play
for that roll, valued at (n-1)-ply and seen from A. A's play is the one with
the highest cubeless equity:

- at 1-ply, by the nets' own (0-ply) values of the resulting positions;
- at 2-ply, by their 1-ply values, for the plays that the move filter keeps
  (at most ``keep`` plays within ``margin`` of the best at 0-ply).

When A has no legal play (R5.5) the position passes to the other side
unchanged. Finished games and positions where both sides bear off are valued
exactly at every depth (the bear-off database is its own look-ahead).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .board import BAR
from .movegen import START_CAPACITY, room, search_board, search_buffers, swap_into
from .net import N_OUTPUTS
from .net_play import (
    candidate_probabilities,
    eval_buffers,
    net_choose,
    position_probabilities,
)
from .outcome import cubeless_equity, flipped
from .race import is_pure_bearoff

__all__ = ["ROLL_WEIGHTS", "choose_plays", "ply_probabilities", "roll_plays"]

_CAPACITY = START_CAPACITY * 4


def _distinct_rolls() -> np.ndarray:
    rolls = []
    for high in range(1, 7):
        for low in range(1, high + 1):
            rolls.append((high, low, 1 if high == low else 2))
    return np.array(rolls, dtype=np.int64)


ROLL_WEIGHTS = _distinct_rolls()
"""The 21 distinct rolls ``(high, low, ways)``; ``ways`` of 36."""


@njit(cache=True, nogil=True)
def _settled(board):
    """Whether a position is valued exactly: a finished game or both sides bearing off."""
    left0 = 0
    left1 = 0
    for col in range(1, BAR + 1):
        left0 += board[0, col]
        left1 += board[1, col]
    return left0 == 0 or left1 == 0 or is_pure_bearoff(board)


@njit(cache=True, nogil=True)
def _one_ply(board, weights, tables, buffers, search, out):
    """1-ply probabilities of ``board`` (row 0 on roll) into ``out``. Returns the
    search buffers, grown if a roll had more plays than they held."""
    for j in range(N_OUTPUTS):
        out[j] = 0.0
    if _settled(board):
        p = position_probabilities(board, 0, weights, tables, buffers)
        for j in range(N_OUTPUTS):
            out[j] = p[j]
        return search
    for r in range(ROLL_WEIGHTS.shape[0]):
        ways = ROLL_WEIGHTS[r, 2] / 36.0
        n, search = search_board(search, board, ROLL_WEIGHTS[r, 0], ROLL_WEIGHTS[r, 1], 0)
        if n == 0:
            p = position_probabilities(board, 1, weights, tables, buffers)
        else:
            best, _ = net_choose(search.boards, n, weights, tables, buffers)
            p = position_probabilities(search.boards[best], 1, weights, tables, buffers)
        # p is seen from the other side, on roll after A's play
        seen = flipped(p)
        for j in range(N_OUTPUTS):
            out[j] += ways * seen[j]
    return search


@njit(cache=True, nogil=True)
def _ranked(candidates, n, weights, tables, buffers, equities):
    """The candidates' 0-ply equities for the mover into ``equities`` (grown to
    ``n`` if shorter). Returns the first best candidate, its equity and ``equities``."""
    if n > equities.shape[0]:
        equities = np.empty(n)
    probs = np.empty((n, N_OUTPUTS))
    candidate_probabilities(candidates, n, weights, tables, buffers, probs)
    best = 0
    top = -np.inf
    for c in range(n):
        equities[c] = -cubeless_equity(probs[c])
        if equities[c] > top:
            top = equities[c]
            best = c
    return best, top, equities


@njit(cache=True, nogil=True)
def _kept(equities, n, top, keep, margin):
    """The move filter: the candidates looked at again, best first by their
    0-ply ``equities``: at most ``keep``, the best and those within ``margin`` of it."""
    ranked = np.argsort(-equities[:n])
    count = max(min(keep, n), 0)
    for k in range(1, count):
        if equities[ranked[k]] < top - margin:
            count = k
            break
    return ranked[:count]


@njit(cache=True, nogil=True)
def ply_probabilities(boards, plies, weights, tables, keep, margin):
    """Probabilities ``(n, 5)`` of boards ``(n, 2, 26)`` (row 0 on roll) at
    ``plies`` = 1 or 2 (see the module's description)."""
    n_boards = boards.shape[0]
    result = np.empty((n_boards, N_OUTPUTS))
    buffers = eval_buffers(weights)
    inner_search = search_buffers(_CAPACITY)
    search = search_buffers(_CAPACITY)
    inner = np.empty(N_OUTPUTS)
    seen = np.empty(N_OUTPUTS)
    swapped = np.empty((2, 26), dtype=np.int8)
    equities = np.empty(_CAPACITY)
    for i in range(n_boards):
        board = boards[i]
        if plies <= 1 or _settled(board):
            inner_search = _one_ply(board, weights, tables, buffers, inner_search, result[i])
            continue
        # 2-ply: the average over the rolls of the best play's 1-ply value
        for j in range(N_OUTPUTS):
            result[i, j] = 0.0
        for r in range(ROLL_WEIGHTS.shape[0]):
            ways = ROLL_WEIGHTS[r, 2] / 36.0
            n, search = search_board(search, board, ROLL_WEIGHTS[r, 0], ROLL_WEIGHTS[r, 1], 0)
            if n == 0:
                swap_into(board, swapped)
                inner_search = _one_ply(swapped, weights, tables, buffers, inner_search, inner)
            else:
                # the move filter: rank by 0-ply, keep the best few within the margin
                _, top, equities = _ranked(search.boards, n, weights, tables, buffers, equities)
                best_equity = -np.inf
                for c in _kept(equities, n, top, keep, margin):
                    swap_into(search.boards[c], swapped)
                    inner_search = _one_ply(swapped, weights, tables, buffers, inner_search, seen)
                    e = -cubeless_equity(seen)
                    if e > best_equity:
                        best_equity = e
                        for j in range(N_OUTPUTS):
                            inner[j] = seen[j]
            after = flipped(inner)
            for j in range(N_OUTPUTS):
                result[i, j] += ways * after[j]
    return result


@njit(cache=True, nogil=True)
def choose_plays(boards, dice, plies, weights, tables, keep, margin):
    """The board after the play the net prefers on each ``(board, roll)``.

    ``boards`` ``(n, 2, 26)`` have row 0 on roll, ``dice`` ``(n, 2)``. Each
    play's resulting position is valued at ``plies`` (0, 1 or 2); above 0-ply
    only the plays the move filter keeps at 0-ply are looked at again (at most
    ``keep`` within ``margin`` of the best). A play that bears off the last
    checker is worth its points (R8.2). A roll with no legal play (R5.5)
    leaves the board unchanged. The results are seen from the mover (row 0
    has just moved), like the move generator's.
    """
    n_boards = boards.shape[0]
    result = np.empty((n_boards, 2, 26), dtype=np.int8)
    buffers = eval_buffers(weights)
    search = search_buffers(_CAPACITY)
    equities = np.empty(_CAPACITY)
    swapped = np.empty((1, 2, 26), dtype=np.int8)
    for i in range(n_boards):
        n, search = search_board(search, boards[i], dice[i, 0], dice[i, 1], 0)
        if n == 0:
            result[i] = boards[i]
            continue
        best, top, equities = _ranked(search.boards, n, weights, tables, buffers, equities)
        if plies > 0 and n > 1:
            deep_best = -np.inf
            for c in _kept(equities, n, top, keep, margin):
                swap_into(search.boards[c], swapped[0])
                deep = ply_probabilities(swapped, plies, weights, tables, keep, margin)
                e = -cubeless_equity(deep[0])
                if e > deep_best:
                    deep_best = e
                    best = c
        result[i] = search.boards[best]
    return result


@njit(cache=True, nogil=True)
def roll_plays(board, dice, weights, tables):
    """Every legal play of ``board`` (row 0 on roll) for each roll of ``dice``
    ``(k, 2)``, valued by the net at 0-ply.

    Returns
    -------
    boards : int8 (total, 2, 26)
        The resulting boards, seen from the mover; a roll with no legal play
        (R5.5) has one row, the board unchanged.
    starts : int64 (k + 1,)
        Rows ``starts[i]:starts[i + 1]`` belong to roll ``i``.
    probabilities : float64 (total, 5)
        Of each resulting position, seen from the opponent (on roll next).
    """
    k = dice.shape[0]
    starts = np.zeros(k + 1, dtype=np.int64)
    all_boards = np.empty((64 * k + 64, 2, 26), dtype=np.int8)
    buffers = eval_buffers(weights)
    search = search_buffers(_CAPACITY)
    total = 0
    for r in range(k):
        n, search = search_board(search, board, dice[r, 0], dice[r, 1], 0)
        rows = max(n, 1)
        all_boards = room(all_boards, total, total + rows)
        if n == 0:
            all_boards[total] = board
        else:
            all_boards[total : total + n] = search.boards[:n]
        total += rows
        starts[r + 1] = total
    probabilities = np.empty((total, N_OUTPUTS))
    candidate_probabilities(all_boards, total, weights, tables, buffers, probabilities)
    return all_boards[:total].copy(), starts, probabilities
