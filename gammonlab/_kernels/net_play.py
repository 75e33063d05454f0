"""The neural evaluator at work: batches of positions, the choice of a play,
and whole games between two policies (numba kernels).

Weights as in :mod:`gammonlab._kernels.net`; ``rolls`` and ``first_off`` are
the one-sided bear-off tables (:class:`gammonlab.evaluators.bearoff.BearoffDatabase`),
used when both sides bear off.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .movegen import BAR, MAX_MOVES, SCRATCH, START_CAPACITY, _search
from .net import MAX_ACTIVE, N_OUTPUTS, evaluate_one
from .outcome import (
    END_BACKGAMMON,
    END_GAMMON,
    NET,
    PUBEVAL,
    STANDARD,
    bearoff_probabilities,
    end_class,
    is_pure_bearoff,
)
from .pubeval import pubeval_best, pubeval_is_race
from .rng import DICE, roll_index, stream_key

__all__ = [
    "NET",
    "PUBEVAL",
    "net_choose",
    "net_probabilities",
    "play_pairs",
    "position_probabilities",
]

_CAPACITY = START_CAPACITY * 16


@njit(cache=True, nogil=True)
def position_probabilities(board, swap, w1, b1, w2, b2, rolls, first_off, acc, z, index, value,
                           work):
    """Probabilities of one position from the side on roll (row ``swap``).

    A finished game is scored exactly (R8.1, R8.2), a bear-off of both sides
    comes from the database, anything else from the net of its phase.
    ``acc``, ``z``, ``index``, ``value`` and ``work`` (a board) are scratch space.
    """
    me = swap
    opp = 1 - swap
    left_me = 0
    left_opp = 0
    for col in range(1, BAR + 1):
        left_me += board[me, col]
        left_opp += board[opp, col]
    if left_opp == 0 or left_me == 0:
        for col in range(26):
            work[0, col] = board[opp if left_opp == 0 else me, col]
            work[1, col] = board[me if left_opp == 0 else opp, col]
        points = end_class(work, STANDARD)
        gammon = 1.0 if points >= END_GAMMON else 0.0
        backgammon = 1.0 if points == END_BACKGAMMON else 0.0
        if left_opp == 0:
            return 0.0, 0.0, 0.0, gammon, backgammon
        return 1.0, gammon, backgammon, 0.0, 0.0
    if is_pure_bearoff(board):
        for col in range(26):
            work[0, col] = board[me, col]
            work[1, col] = board[opp, col]
        return bearoff_probabilities(work, rolls, first_off)
    return evaluate_one(board, swap, w1, b1, w2, b2, acc, z, index, value)


@njit(cache=True, nogil=True)
def net_probabilities(boards, w1, b1, w2, b2, rolls, first_off):
    """Probabilities ``(n, 5)`` float64 of boards ``(n, 2, 26)``, row 0 on roll."""
    n = boards.shape[0]
    out = np.empty((n, N_OUTPUTS))
    acc = np.empty(w1.shape[2], dtype=np.float32)
    z = np.empty(N_OUTPUTS, dtype=np.float32)
    index = np.empty(MAX_ACTIVE, dtype=np.int32)
    value = np.empty(MAX_ACTIVE, dtype=np.float32)
    work = np.empty((2, 26), dtype=np.int8)
    for i in range(n):
        p = position_probabilities(boards[i], 0, w1, b1, w2, b2, rolls, first_off, acc, z, index,
                                   value, work)
        for j in range(N_OUTPUTS):
            out[i, j] = p[j]
    return out


@njit(cache=True, nogil=True)
def _equity(p):
    return 2.0 * p[0] - 1.0 + p[1] - p[3] + p[2] - p[4]


@njit(cache=True, nogil=True)
def net_choose(candidates, n, w1, b1, w2, b2, rolls, first_off, acc, z, index, value, work):
    """The candidate (resulting boards seen from the mover) with the mover's highest
    cubeless equity at 0-ply, and that equity. Ties go to the first."""
    best = -1
    best_equity = -np.inf
    for c in range(n):
        # the opponent is on roll after the play: row 1 of the candidate
        p = position_probabilities(candidates[c], 1, w1, b1, w2, b2, rolls, first_off, acc, z,
                                   index, value, work)
        e = -_equity(p)
        if e > best_equity:
            best = c
            best_equity = e
    return best, best_equity


@njit(cache=True, nogil=True)
def play_pairs(w1, b1, w2, b2, rolls, first_off, opponent, key, first_pair, n_pairs, start,
               points, plies):
    """Cubeless money games of the net against ``opponent`` with duplicate dice.

    Pair ``i`` is two games from ``start`` (row 0 on roll, the opening roll
    drawn again while it is a double, as R3 allows only different numbers to
    start) with the same dice: in game 0 the net is on roll first, in game 1
    the opponent. ``opponent`` is :data:`PUBEVAL` or :data:`NET` (self-play).
    Writes the net's points (+1/+2/+3 won, negative lost) to ``points[i, g]``
    and the plays made to ``plies[i, g]``.
    """
    stack = np.empty((MAX_MOVES + 1, 2, 26), dtype=np.int8)
    scratch = np.empty(SCRATCH, dtype=np.int64)
    capacity = _CAPACITY
    out_boards = np.empty((capacity, 2, 26), dtype=np.int8)
    out_moves = np.empty((capacity, MAX_MOVES, 2), dtype=np.int8)
    hashes = np.empty(capacity, dtype=np.int64)
    acc = np.empty(w1.shape[2], dtype=np.float32)
    z = np.empty(N_OUTPUTS, dtype=np.float32)
    index = np.empty(MAX_ACTIVE, dtype=np.int32)
    value = np.empty(MAX_ACTIVE, dtype=np.float32)
    work = np.empty((2, 26), dtype=np.int8)
    board = stack[0]
    for i in range(n_pairs):
        pair = first_pair + i
        for g in range(2):
            base = stream_key(key, pair, DICE)
            counter = 0
            for side in range(2):
                for col in range(26):
                    board[side, col] = start[side, col]
            ply = 0
            result = 0
            while result == 0:
                roll, counter = roll_index(base, counter)
                d1 = roll // 6 + 1
                d2 = roll % 6 + 1
                while ply == 0 and d1 == d2:
                    roll, counter = roll_index(base, counter)
                    d1 = roll // 6 + 1
                    d2 = roll % 6 + 1
                net_moves = (ply % 2 == 0) == (g == 0)
                n = _search(stack, scratch, d1, d2, out_boards, out_moves, hashes)
                while n < 0:
                    capacity *= 4
                    out_boards = np.empty((capacity, 2, 26), dtype=np.int8)
                    out_moves = np.empty((capacity, MAX_MOVES, 2), dtype=np.int8)
                    hashes = np.empty(capacity, dtype=np.int64)
                    n = _search(stack, scratch, d1, d2, out_boards, out_moves, hashes)
                ply += 1
                if n == 0:
                    for col in range(26):
                        held = board[0, col]
                        board[0, col] = board[1, col]
                        board[1, col] = held
                    continue
                chosen = 0
                if n > 1:
                    if net_moves or opponent == NET:
                        chosen, _ = net_choose(out_boards, n, w1, b1, w2, b2, rolls, first_off,
                                               acc, z, index, value, work)
                    else:
                        chosen = pubeval_best(out_boards[:n], 1 if pubeval_is_race(board) else 0)
                left = 0
                for col in range(1, BAR + 1):
                    left += out_boards[chosen, 0, col]
                if left == 0:
                    result = end_class(out_boards[chosen], STANDARD)
                    if not net_moves:
                        result = -result
                    break
                for col in range(26):
                    board[0, col] = out_boards[chosen, 1, col]
                    board[1, col] = out_boards[chosen, 0, col]
            points[i, g] = result
            plies[i, g] = ply
    return 0

