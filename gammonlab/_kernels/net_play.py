"""The neural evaluator at work: batches of positions, the choice of a play,
and whole games between two policies (numba kernels).

Weights as in :mod:`gammonlab._kernels.net`; ``rolls`` and ``first_off`` are
the one-sided bear-off tables (:class:`gammonlab.evaluators.bearoff.BearoffDatabase`),
used when both sides bear off.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .board import BAR, HOME, OFF, POINTS
from .movegen import START_CAPACITY, search_all, search_buffers
from .net import (
    CONTACT,
    MAX_ACTIVE,
    N_OUTPUTS,
    OFF_INPUT,
    RACE,
    SIDE_INPUTS,
    add_features,
    add_point,
    evaluate_one,
    logistic,
)
from .outcome import END_BACKGAMMON, END_GAMMON, STANDARD, end_class
from .policy import NET
from .pubeval import pubeval_best, pubeval_is_race
from .race import bearoff_probabilities, is_pure_bearoff
from .rng import DICE, roll_index, stream_key

__all__ = [
    "candidate_probabilities",
    "eval_buffers",
    "net_choose",
    "net_probabilities",
    "play_pairs",
    "position_probabilities",
]

_CAPACITY = START_CAPACITY * 16


@njit(cache=True, nogil=True)
def position_probabilities(
    board, swap, w1, b1, w2, b2, rolls, first_off, acc, z, index, value, work
):
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
def eval_buffers(w1):
    """Scratch space of :func:`position_probabilities` and the kernels built on it
    for a net of weights ``w1``: ``(acc, z, index, value, work)``."""
    acc = np.empty(w1.shape[2], dtype=np.float32)
    z = np.empty(N_OUTPUTS, dtype=np.float32)
    index = np.empty(MAX_ACTIVE, dtype=np.int32)
    value = np.empty(MAX_ACTIVE, dtype=np.float32)
    work = np.empty((2, 26), dtype=np.int8)
    return acc, z, index, value, work


@njit(cache=True, nogil=True)
def net_probabilities(boards, w1, b1, w2, b2, rolls, first_off):
    """Probabilities ``(n, 5)`` float64 of boards ``(n, 2, 26)``, row 0 on roll."""
    n = boards.shape[0]
    out = np.empty((n, N_OUTPUTS))
    acc, z, index, value, work = eval_buffers(w1)
    for i in range(n):
        p = position_probabilities(
            boards[i], 0, w1, b1, w2, b2, rolls, first_off, acc, z, index, value, work
        )
        for j in range(N_OUTPUTS):
            out[i, j] = p[j]
    return out


@njit(cache=True, nogil=True)
def _equity(p):
    return 2.0 * p[0] - 1.0 + p[1] - p[3] + p[2] - p[4]


@njit(cache=True, nogil=True, fastmath=True)
def candidate_probabilities(
    candidates, n, w1, b1, w2, b2, rolls, first_off, acc, z, index, value, work, out
):
    """The probabilities of the first ``n`` candidates (resulting boards seen from
    the mover), each from the opponent's side, on roll next, into ``out`` ``(n, 5)``.

    Each is valued exactly as :func:`position_probabilities` values it. The
    opponent's checkers are the same in every candidate that hits nothing, so
    their part of the hidden layer is added once per phase and reused; the
    rest is written out in place (no helper call per candidate), as in the
    move generator.
    """
    h = acc.shape[0]
    base = np.empty((2, h), dtype=np.float32)
    reference = np.empty((2, 26), dtype=np.int8)
    have = np.zeros(2, dtype=np.bool_)
    for c in range(n):
        # one pass per side: checkers left on the board, rearmost checker (bar = 25)
        left_mover = 0
        left_opponent = 0
        back_mover = 0
        back_opponent = 0
        for col in range(BAR, 0, -1):
            m = candidates[c, 0, col]
            o = candidates[c, 1, col]
            left_mover += m
            left_opponent += o
            if m > 0 and back_mover == 0:
                back_mover = col
            if o > 0 and back_opponent == 0:
                back_opponent = col
        if left_mover == 0 or left_opponent == 0 or (back_mover <= HOME and back_opponent <= HOME):
            # a finished game or a bear-off of both sides: exact values
            p = position_probabilities(
                candidates[c], 1, w1, b1, w2, b2, rolls, first_off, acc, z, index, value, work
            )
            for j in range(N_OUTPUTS):
                out[c, j] = p[j]
        else:
            net = RACE if back_mover + back_opponent <= POINTS else CONTACT
            same = have[net]
            if same:
                for col in range(26):
                    if candidates[c, 1, col] != reference[net, col]:
                        same = False
                        break
            if not same:
                # the opponent (on roll next) is input block 0
                for j in range(h):
                    base[net, j] = b1[net, j]
                for col in range(1, BAR + 1):
                    count = candidates[c, 1, col]
                    if count > 0:
                        k = 4 * (col - 1)
                        add_point(base[net], w1, net, k, count)
                off = candidates[c, 1, OFF]
                if off > 0:
                    v = np.float32(off / 15.0)
                    for j in range(h):
                        base[net, j] += v * w1[net, OFF_INPUT, j]
                for col in range(26):
                    reference[net, col] = candidates[c, 1, col]
                have[net] = True
            for j in range(h):
                acc[j] = base[net, j]
            # the mover is input block 1
            for col in range(1, BAR + 1):
                count = candidates[c, 0, col]
                if count > 0:
                    add_point(acc, w1, net, SIDE_INPUTS + 4 * (col - 1), count)
            off = candidates[c, 0, OFF]
            if off > 0:
                v = np.float32(off / 15.0)
                for j in range(h):
                    acc[j] += v * w1[net, SIDE_INPUTS + OFF_INPUT, j]
            add_features(candidates[c], 1, net, w1, acc)
            z0 = np.float32(0.0)
            z1 = np.float32(0.0)
            z2 = np.float32(0.0)
            z3 = np.float32(0.0)
            z4 = np.float32(0.0)
            for j in range(h):
                a = max(acc[j], np.float32(0.0))
                z0 += w2[net, 0, j] * a
                z1 += w2[net, 1, j] * a
                z2 += w2[net, 2, j] * a
                z3 += w2[net, 3, j] * a
                z4 += w2[net, 4, j] * a
            # the chain of the outputs, from the opponent's side (can it win or lose a gammon?)
            win = logistic(z0 + b2[net, 0])
            wg = win * logistic(z1 + b2[net, 1]) if candidates[c, 0, OFF] == 0 else 0.0
            lg = (1.0 - win) * logistic(z3 + b2[net, 3]) if candidates[c, 1, OFF] == 0 else 0.0
            out[c, 0] = win
            out[c, 1] = wg
            out[c, 2] = wg * logistic(z2 + b2[net, 2])
            out[c, 3] = lg
            out[c, 4] = lg * logistic(z4 + b2[net, 4])


@njit(cache=True, nogil=True)
def net_choose(candidates, n, w1, b1, w2, b2, rolls, first_off, acc, z, index, value, work):
    """The candidate (resulting boards seen from the mover) with the mover's highest
    cubeless equity at 0-ply, and that equity. Ties go to the first."""
    probs = np.empty((n, N_OUTPUTS))
    candidate_probabilities(
        candidates, n, w1, b1, w2, b2, rolls, first_off, acc, z, index, value, work, probs
    )
    best = -1
    best_equity = -np.inf
    for c in range(n):
        e = -_equity(probs[c])
        if e > best_equity:
            best = c
            best_equity = e
    return best, best_equity


@njit(cache=True, nogil=True)
def play_pairs(
    w1, b1, w2, b2, rolls, first_off, opponent, key, first_pair, n_pairs, start, points, plies
):
    """Cubeless money games of the net against ``opponent`` with duplicate dice.

    Pair ``i`` is two games from ``start`` (row 0 on roll, the opening roll
    drawn again while it is a double, as R3 allows only different numbers to
    start) with the same dice: in game 0 the net is on roll first, in game 1
    the opponent. ``opponent`` is :data:`PUBEVAL` or :data:`NET` (self-play).
    Writes the net's points (+1/+2/+3 won, negative lost) to ``points[i, g]``
    and the plays made to ``plies[i, g]``.
    """
    stack, scratch, out_boards, out_moves, hashes = search_buffers(_CAPACITY)
    acc, z, index, value, work = eval_buffers(w1)
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
                n, out_boards, out_moves, hashes = search_all(
                    stack, scratch, d1, d2, 0, out_boards, out_moves, hashes
                )
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
                        chosen, _ = net_choose(
                            out_boards,
                            n,
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
                        )
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
