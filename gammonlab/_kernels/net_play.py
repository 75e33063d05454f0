"""The neural evaluator at work: batches of positions, the choice of a play,
and whole games between two policies (numba kernels).

``weights`` are the net's ``(w1, b1, w2, b2)`` (:mod:`gammonlab._kernels.net`);
``tables`` are the one-sided bear-off tables ``(rolls, first_off)``
(:class:`gammonlab.evaluators.bearoff.BearoffDatabase`), used when both sides
bear off; ``buffers`` are the scratch space of :func:`eval_buffers`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .board import BAR, HOME, OFF
from .movegen import GAME_CAPACITY, search_all, search_buffers, swap_into, swap_sides
from .net import (
    F_SHOTS,
    MAX_ACTIVE,
    N_FEATURES,
    N_OUTPUTS,
    OFF_INPUT,
    SIDE_INPUTS,
    add_occupied,
    add_row,
    change_point,
    evaluate_one,
    feature_values,
    hidden_logits,
    logistic,
    phase_of,
)
from .net_features import masks_counts, side_masks
from .outcome import END_BACKGAMMON, END_GAMMON, STANDARD, cubeless_equity, end_class, points_won
from .policy import NET
from .pubeval import pubeval_best, pubeval_is_race
from .race import bearoff_probabilities, is_pure_bearoff
from .rng import DICE, next_dice, stream_key

__all__ = [
    "CHOICE_CAPACITY",
    "EvalBuffers",
    "candidate_probabilities",
    "eval_buffers",
    "net_choose",
    "net_probabilities",
    "net_widths",
    "play_pairs",
    "position_probabilities",
]


@njit(cache=True, nogil=True)
def position_probabilities(board, swap, weights, tables, buffers):
    """Probabilities of one position from the side on roll (row ``swap``).

    A finished game is scored exactly (R8.1, R8.2), a bear-off of both sides
    comes from the database, anything else from the net of its phase.
    """
    acc = buffers.acc
    z = buffers.z
    work = buffers.work
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
        return bearoff_probabilities(work, tables[0], tables[1])
    return evaluate_one(board, swap, weights, acc, z, buffers.widths)


FRESH_START_EVERY = 16
"""Candidates :func:`candidate_probabilities` values by changing the hidden layer
of the one before, in a row, before it starts afresh: float32 rounding cannot add up."""


CHOICE_CAPACITY = 256
"""Candidates :func:`net_choose` values in the buffers' space; more get their own."""


class EvalBuffers(NamedTuple):
    """Scratch space of the kernels that value positions (numba takes it as one
    argument), made once per kernel call so that no play allocates."""

    acc: np.ndarray
    """float32 ``(H,)``: the hidden layer."""
    z: np.ndarray
    """float32 ``(5,)``: the logits."""
    active_index: np.ndarray
    """int32 ``(MAX_ACTIVE,)``: the active inputs."""
    active_value: np.ndarray
    """float32 ``(MAX_ACTIVE,)``: their values."""
    work: np.ndarray
    """int8 ``(2, 26)``: a board seen from another side."""
    base: np.ndarray
    """float32 ``(nets, H)``: the hidden layer of the opponent's checkers, per net."""
    reference: np.ndarray
    """int8 ``(nets, 26)``: the board whose opponent ``base`` holds, per net."""
    have: np.ndarray
    """bool ``(nets,)``: whether ``base`` holds a net's sum."""
    probs: np.ndarray
    """float64 ``(CHOICE_CAPACITY, 5)``: the candidates' probabilities."""
    widths: np.ndarray
    """int64 ``(nets,)``: the hidden units each net uses (:func:`net_widths`)."""
    last: np.ndarray
    """int8 ``(26,)``: the mover's checkers in the candidate :func:`candidate_probabilities`
    valued last (its opponent's are ``reference``'s for its net)."""
    last_features: np.ndarray
    """float32 ``(N_FEATURES,)``: its features."""


@njit(cache=True, nogil=True)
def net_widths(weights):
    """The hidden units each net uses: up to its last unit with an output weight.

    A file holds one width for all its nets; a narrower net is stored with units
    whose output weights are 0 after its own, which change none of its outputs
    and are skipped.
    """
    w2 = weights[2]
    widths = np.zeros(w2.shape[0], dtype=np.int64)
    for net in range(w2.shape[0]):
        for j in range(w2.shape[2] - 1, -1, -1):
            used = False
            for o in range(w2.shape[1]):
                if w2[net, o, j] != 0.0:
                    used = True
            if used:
                widths[net] = j + 1
                break
    return widths


@njit(cache=True, nogil=True)
def eval_buffers(weights):
    """:class:`EvalBuffers` for a net of ``weights``."""
    nets, _, h = weights[0].shape
    return EvalBuffers(
        np.empty(h, dtype=np.float32),
        np.empty(N_OUTPUTS, dtype=np.float32),
        np.empty(MAX_ACTIVE, dtype=np.int32),
        np.empty(MAX_ACTIVE, dtype=np.float32),
        np.empty((2, 26), dtype=np.int8),
        np.empty((nets, h), dtype=np.float32),
        np.empty((nets, 26), dtype=np.int8),
        np.zeros(nets, dtype=np.bool_),
        np.empty((CHOICE_CAPACITY, N_OUTPUTS)),
        net_widths(weights),
        np.empty(26, dtype=np.int8),
        np.empty(N_FEATURES, dtype=np.float32),
    )


@njit(cache=True, nogil=True)
def net_probabilities(boards, weights, tables):
    """Probabilities ``(n, 5)`` float64 of boards ``(n, 2, 26)``, row 0 on roll."""
    n = boards.shape[0]
    out = np.empty((n, N_OUTPUTS))
    buffers = eval_buffers(weights)
    for i in range(n):
        p = position_probabilities(boards[i], 0, weights, tables, buffers)
        for j in range(N_OUTPUTS):
            out[i, j] = p[j]
    return out


@njit(cache=True, nogil=True, fastmath=True)
def candidate_probabilities(candidates, n, weights, tables, buffers, out):
    """The probabilities of the first ``n`` candidates (resulting boards seen from
    the mover), each from the opponent's side, on roll next, into ``out`` ``(n, 5)``.

    Each is valued as :func:`position_probabilities` values it, to float32
    rounding. The candidates of a roll differ in a few points, so a candidate
    valued by the same net as the one before it, with the opponent's checkers
    where they were, starts from that one's hidden layer and changes only the
    weight rows of the mover's points and of the features that differ, up to
    :data:`FRESH_START_EVERY` in a row. Any other starts afresh: the opponent's
    part of its hidden layer is added once per net and reused while the
    opponent's checkers stay put (none is hit).
    """
    w1, b1, w2, b2 = weights
    acc = buffers.acc
    base = buffers.base
    reference = buffers.reference
    have = buffers.have
    widths = buffers.widths
    last = buffers.last
    last_features = buffers.last_features
    nets = w1.shape[0]
    for net in range(nets):
        have[net] = False
    last_net = -1  # the net that valued the candidate before, -1 for none
    chain = 0  # the candidates valued since the last fresh start
    for c in range(n):
        board = candidates[c]
        # one pass per side: its points as bitmasks (bar bit 25), its rearmost checker
        mover = side_masks(board, 0)
        opponent = side_masks(board, 1)
        back_mover = mover[4]
        back_opponent = opponent[4]
        if mover[0] == 0 or opponent[0] == 0 or (back_mover <= HOME and back_opponent <= HOME):
            # a finished game or a bear-off of both sides: exact values
            p = position_probabilities(board, 1, weights, tables, buffers)
            last_net = -1
        else:
            net = phase_of(back_mover + back_opponent, nets)
            units = acc[: widths[net]]
            features = feature_values(masks_counts(board, 1, opponent, mover))
            # the opponent's part of the hidden layer for this net: kept while its checkers stay put
            same = have[net]
            if same:
                for col in range(26):
                    if board[1, col] != reference[net, col]:
                        same = False
                        break
            if same and net == last_net and chain < FRESH_START_EVERY:
                chain += 1
                # the mover is input block 1 (the opponent, on roll next, is block 0)
                for col in range(1, BAR + 1):
                    if board[0, col] != last[col]:
                        k = SIDE_INPUTS + 4 * (col - 1)
                        change_point(units, w1, net, k, last[col], board[0, col])
                if board[0, OFF] != last[OFF]:
                    off = np.float32((board[0, OFF] - last[OFF]) / 15.0)
                    add_row(units, w1, net, SIDE_INPUTS + OFF_INPUT, off)
                for f in range(N_FEATURES):
                    v = np.float32(features[f])
                    if v != last_features[f]:
                        add_row(units, w1, net, F_SHOTS + f, v - last_features[f])
                        last_features[f] = v
            else:
                chain = 0
                h = units.shape[0]
                if not same:
                    # the opponent (on roll next) is input block 0
                    for j in range(h):
                        base[net, j] = b1[net, j]
                    add_occupied(board, 1, opponent[0], 0, net, w1, base[net, :h])
                    for col in range(26):
                        reference[net, col] = board[1, col]
                    have[net] = True
                for j in range(h):
                    units[j] = base[net, j]
                add_occupied(board, 0, mover[0], 1, net, w1, units)
                for f in range(N_FEATURES):
                    v = np.float32(features[f])
                    last_features[f] = v
                    if v != 0.0:
                        add_row(units, w1, net, F_SHOTS + f, v)
            for col in range(26):
                last[col] = board[0, col]
            last_net = net
            z0, z1, z2, z3, z4 = hidden_logits(units, net, w2, b2)
            # the chain of the outputs, from the opponent's side (can it win or lose a gammon?)
            win = logistic(z0)
            wg = win * logistic(z1) if board[0, OFF] == 0 else 0.0
            lg = (1.0 - win) * logistic(z3) if board[1, OFF] == 0 else 0.0
            p = (win, wg, wg * logistic(z2), lg, lg * logistic(z4))
        for j in range(N_OUTPUTS):
            out[c, j] = p[j]


@njit(cache=True, nogil=True)
def net_choose(candidates, n, weights, tables, buffers):
    """The candidate (resulting boards seen from the mover) with the mover's highest
    cubeless equity at 0-ply, and that equity. Ties go to the first."""
    probs = buffers.probs if n <= CHOICE_CAPACITY else np.empty((n, N_OUTPUTS))
    candidate_probabilities(candidates, n, weights, tables, buffers, probs)
    best = -1
    best_equity = -np.inf
    for c in range(n):
        e = -cubeless_equity(probs[c])
        if e > best_equity:
            best = c
            best_equity = e
    return best, best_equity


@njit(cache=True, nogil=True)
def play_pairs(weights, tables, opponent, key, first_pair, n_pairs, start, points, plies):
    """Cubeless money games of the net against ``opponent`` with duplicate dice.

    Pair ``i`` is two games from ``start`` (row 0 on roll, the opening roll
    drawn again while it is a double, as R3 allows only different numbers to
    start) with the same dice: in game 0 the net is on roll first, in game 1
    the opponent. ``opponent`` is :data:`PUBEVAL` or :data:`NET` (self-play).
    Writes the net's points (+1/+2/+3 won, negative lost) to ``points[i, g]``
    and the plays made to ``plies[i, g]``.
    """
    search = search_buffers(GAME_CAPACITY)
    buffers = eval_buffers(weights)
    board = search.stack[0]
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
                d1, d2, counter = next_dice(base, counter, ply == 0)
                net_moves = (ply % 2 == 0) == (g == 0)
                n, search = search_all(search, d1, d2, 0)
                ply += 1
                if n == 0:
                    swap_sides(board)
                    continue
                candidates = search.boards
                chosen = 0
                if n > 1:
                    if net_moves or opponent == NET:
                        chosen, _ = net_choose(candidates, n, weights, tables, buffers)
                    else:
                        chosen = pubeval_best(candidates[:n], 1 if pubeval_is_race(board) else 0)
                result = points_won(candidates[chosen], STANDARD)
                if result == 0:
                    swap_into(candidates[chosen], board)
                elif not net_moves:
                    result = -result
            points[i, g] = result
            plies[i, g] = ply
    return 0
