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
from .movegen import START_CAPACITY, room, search_all, search_buffers
from .net import N_OUTPUTS
from .net_play import (
    candidate_probabilities,
    eval_buffers,
    net_choose,
    position_probabilities,
)
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
def _flip_into(p, out):
    out[0] = 1.0 - p[0]
    out[1] = p[3]
    out[2] = p[4]
    out[3] = p[1]
    out[4] = p[2]


@njit(cache=True, nogil=True)
def _equity(p):
    return 2.0 * p[0] - 1.0 + p[1] - p[3] + p[2] - p[4]


@njit(cache=True, nogil=True)
def _one_ply(
    board,
    w1,
    b1,
    w2,
    b2,
    rolls,
    first_off,
    out,
    acc,
    z,
    index,
    value,
    work,
    stack,
    scratch,
    cands,
    moves,
    hashes,
):
    """1-ply probabilities of ``board`` (row 0 on roll) into ``out``. Returns the
    candidate buffer, grown if a roll had more plays than it held."""
    for j in range(N_OUTPUTS):
        out[j] = 0.0
    if _settled(board):
        p = position_probabilities(
            board, 0, w1, b1, w2, b2, rolls, first_off, acc, z, index, value, work
        )
        for j in range(N_OUTPUTS):
            out[j] = p[j]
        return cands, moves, hashes
    for r in range(ROLL_WEIGHTS.shape[0]):
        d1 = ROLL_WEIGHTS[r, 0]
        d2 = ROLL_WEIGHTS[r, 1]
        ways = ROLL_WEIGHTS[r, 2] / 36.0
        for side in range(2):
            for col in range(26):
                stack[0, side, col] = board[side, col]
        n, cands, moves, hashes = search_all(stack, scratch, d1, d2, 0, cands, moves, hashes)
        if n == 0:
            p = position_probabilities(
                board, 1, w1, b1, w2, b2, rolls, first_off, acc, z, index, value, work
            )
        else:
            best, _ = net_choose(
                cands, n, w1, b1, w2, b2, rolls, first_off, acc, z, index, value, work
            )
            p = position_probabilities(
                cands[best], 1, w1, b1, w2, b2, rolls, first_off, acc, z, index, value, work
            )
        # p is seen from the other side, on roll after A's play: flip it
        out[0] += ways * (1.0 - p[0])
        out[1] += ways * p[3]
        out[2] += ways * p[4]
        out[3] += ways * p[1]
        out[4] += ways * p[2]
    return cands, moves, hashes


@njit(cache=True, nogil=True)
def ply_probabilities(boards, plies, w1, b1, w2, b2, rolls, first_off, keep, margin):
    """Probabilities ``(n, 5)`` of boards ``(n, 2, 26)`` (row 0 on roll) at
    ``plies`` = 1 or 2 (see the module's description)."""
    n_boards = boards.shape[0]
    result = np.empty((n_boards, N_OUTPUTS))
    acc, z, index, value, work = eval_buffers(w1)
    inner_stack, inner_scratch, inner_cands, inner_moves, inner_hashes = search_buffers(_CAPACITY)
    stack, scratch, cands, moves, hashes = search_buffers(_CAPACITY)
    out = np.empty(N_OUTPUTS)
    inner = np.empty(N_OUTPUTS)
    seen = np.empty(N_OUTPUTS)
    swapped = np.empty((2, 26), dtype=np.int8)
    equities = np.empty(_CAPACITY)
    for i in range(n_boards):
        board = boards[i]
        if plies <= 1 or _settled(board):
            inner_cands, inner_moves, inner_hashes = _one_ply(
                board,
                w1,
                b1,
                w2,
                b2,
                rolls,
                first_off,
                out,
                acc,
                z,
                index,
                value,
                work,
                inner_stack,
                inner_scratch,
                inner_cands,
                inner_moves,
                inner_hashes,
            )
            for j in range(N_OUTPUTS):
                result[i, j] = out[j]
            continue
        # 2-ply: the average over the rolls of the best play's 1-ply value
        for j in range(N_OUTPUTS):
            result[i, j] = 0.0
        for r in range(ROLL_WEIGHTS.shape[0]):
            d1 = ROLL_WEIGHTS[r, 0]
            d2 = ROLL_WEIGHTS[r, 1]
            ways = ROLL_WEIGHTS[r, 2] / 36.0
            for side in range(2):
                for col in range(26):
                    stack[0, side, col] = board[side, col]
            n, cands, moves, hashes = search_all(stack, scratch, d1, d2, 0, cands, moves, hashes)
            if n > equities.shape[0]:
                equities = np.empty(n)
            if n == 0:
                for col in range(26):
                    swapped[0, col] = board[1, col]
                    swapped[1, col] = board[0, col]
                inner_cands, inner_moves, inner_hashes = _one_ply(
                    swapped,
                    w1,
                    b1,
                    w2,
                    b2,
                    rolls,
                    first_off,
                    inner,
                    acc,
                    z,
                    index,
                    value,
                    work,
                    inner_stack,
                    inner_scratch,
                    inner_cands,
                    inner_moves,
                    inner_hashes,
                )
            else:
                # the move filter: rank by 0-ply, keep the best few within the margin
                probs = np.empty((n, N_OUTPUTS))
                candidate_probabilities(
                    cands, n, w1, b1, w2, b2, rolls, first_off, acc, z, index, value, work, probs
                )
                top = -np.inf
                for c in range(n):
                    equities[c] = -_equity(probs[c])
                    if equities[c] > top:
                        top = equities[c]
                ranked = np.argsort(-equities[:n])
                best_equity = -np.inf
                for k in range(min(keep, n)):
                    c = ranked[k]
                    if k > 0 and equities[c] < top - margin:
                        break
                    for col in range(26):
                        swapped[0, col] = cands[c, 1, col]
                        swapped[1, col] = cands[c, 0, col]
                    inner_cands, inner_moves, inner_hashes = _one_ply(
                        swapped,
                        w1,
                        b1,
                        w2,
                        b2,
                        rolls,
                        first_off,
                        seen,
                        acc,
                        z,
                        index,
                        value,
                        work,
                        inner_stack,
                        inner_scratch,
                        inner_cands,
                        inner_moves,
                        inner_hashes,
                    )
                    e = -_equity(seen)
                    if e > best_equity:
                        best_equity = e
                        for j in range(N_OUTPUTS):
                            inner[j] = seen[j]
            _flip_into(inner, out)
            for j in range(N_OUTPUTS):
                result[i, j] += ways * out[j]
    return result


@njit(cache=True, nogil=True)
def choose_plays(boards, dice, plies, w1, b1, w2, b2, rolls, first_off, keep, margin):
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
    acc, z, index, value, work = eval_buffers(w1)
    stack, scratch, cands, moves, hashes = search_buffers(_CAPACITY)
    equities = np.empty(_CAPACITY)
    swapped = np.empty((1, 2, 26), dtype=np.int8)
    for i in range(n_boards):
        for side in range(2):
            for col in range(26):
                stack[0, side, col] = boards[i, side, col]
        n, cands, moves, hashes = search_all(
            stack, scratch, dice[i, 0], dice[i, 1], 0, cands, moves, hashes
        )
        if n == 0:
            result[i] = boards[i]
            continue
        if n > equities.shape[0]:
            equities = np.empty(n)
        probs = np.empty((n, N_OUTPUTS))
        candidate_probabilities(
            cands, n, w1, b1, w2, b2, rolls, first_off, acc, z, index, value, work, probs
        )
        best = 0
        top = -np.inf
        for c in range(n):
            equities[c] = -_equity(probs[c])
            if equities[c] > top:
                top = equities[c]
                best = c
        if plies > 0 and n > 1:
            ranked = np.argsort(-equities[:n])
            deep_best = -np.inf
            for k in range(min(keep, n)):
                c = ranked[k]
                if k > 0 and equities[c] < top - margin:
                    break
                for col in range(26):
                    swapped[0, 0, col] = cands[c, 1, col]
                    swapped[0, 1, col] = cands[c, 0, col]
                deep = ply_probabilities(
                    swapped, plies, w1, b1, w2, b2, rolls, first_off, keep, margin
                )
                e = -_equity(deep[0])
                if e > deep_best:
                    deep_best = e
                    best = c
        result[i] = cands[best]
    return result


@njit(cache=True, nogil=True)
def roll_plays(board, dice, w1, b1, w2, b2, rolls, first_off):
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
    acc, z, index, value, work = eval_buffers(w1)
    stack, scratch, cands, moves, hashes = search_buffers(_CAPACITY)
    total = 0
    for r in range(k):
        for side in range(2):
            for col in range(26):
                stack[0, side, col] = board[side, col]
        n, cands, moves, hashes = search_all(
            stack, scratch, dice[r, 0], dice[r, 1], 0, cands, moves, hashes
        )
        rows = max(n, 1)
        all_boards = room(all_boards, total, total + rows)
        if n == 0:
            all_boards[total] = board
        else:
            all_boards[total : total + n] = cands[:n]
        total += rows
        starts[r + 1] = total
    probabilities = np.empty((total, N_OUTPUTS))
    candidate_probabilities(
        all_boards,
        total,
        w1,
        b1,
        w2,
        b2,
        rolls,
        first_off,
        acc,
        z,
        index,
        value,
        work,
        probabilities,
    )
    return all_boards[:total].copy(), starts, probabilities
