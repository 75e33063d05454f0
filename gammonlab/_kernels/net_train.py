"""Training the neural evaluator by self-play: TD(lambda) in numba kernels.

The net plays both sides (0-ply, the highest cubeless equity). Every position
a side is on roll in, before its roll, gets a target: the lambda-return of the
game from there,

    G_t = (1 - lambda) * V(s_{t+1}) + lambda * G_{t+1},

each from the point of view of the side on roll at ``t`` (a value of the next
position, where the other side is on roll, is flipped: win <-> lose). ``V`` of
the position the chosen play leads to is the value the net gave it when it
chose the play; the last position's return is the game's exact result. With
``lambda = 0`` this is TD(0), with 1 the plain result of the game (Monte
Carlo). The returns are computed when the game is over, from values taken
during play, and each position is then moved towards its return by one
step of gradient descent on the cross-entropy of the five probabilities
(the forward view of TD(lambda), Sutton and Barto, ch. 12).

The loss is that of the six outcomes (single, gammon, backgammon won or
lost): with the chained outputs of :mod:`gammonlab._kernels.net`, its gradient
with respect to the logits is, for a target ``t`` and logistic values ``s``::

    dz0 = s0 - t0            dz1 = t0 * s1 - t1        dz2 = t1 * s2 - t2
    dz3 = (1 - t0) * s3 - t3                           dz4 = t3 * s4 - t4

Positions where both sides bear off are not trained on (the database gives
them exactly), but the database's values are the targets of the positions
before them: the exact knowledge flows back into the nets.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .board import OFF
from .movegen import GAME_CAPACITY, search_all, search_buffers, swap_into, swap_sides
from .net import (
    CONTACT,
    N_OUTPUTS,
    RACE,
    chain_probabilities,
    hidden_layer,
    net_phase,
    output_logits,
)
from .net_play import (
    candidate_probabilities,
    eval_buffers,
    net_choose,
    position_probabilities,
)
from .outcome import STANDARD, cubeless_equity, flipped, points_won
from .race import is_pure_bearoff
from .rng import CHOICE, DICE, draw_below, next_dice, stream_key

__all__ = [
    "MAX_GAME_PLIES",
    "N_STATS",
    "best_play_positions",
    "fit_targets",
    "phase_positions",
    "play_rollout_targets",
    "rollout_targets",
    "self_play_positions",
    "td_update",
    "train_buffers",
    "train_games",
]

MAX_GAME_PLIES = 4000
"""Plies kept for one game's returns; a longer self-play game is cut there."""
N_STATS = 8
"""Slots of the statistics array of :func:`train_games` (see there)."""


@njit(cache=True, nogil=True)
def train_buffers(weights):
    """Scratch space of :func:`td_update` for a net of ``weights``:
    ``(acc, z, grad, index, value)``."""
    buffers = eval_buffers(weights)
    grad = np.empty(buffers.acc.shape[0], dtype=np.float32)
    return buffers.acc, buffers.z, grad, buffers.active_index, buffers.active_value


@njit(cache=True, nogil=True, fastmath=True)
def td_update(board, target, weights, alpha, buffers):
    """One gradient step of the net of ``board``'s phase towards ``target`` (5).

    ``board`` has row 0 on roll; ``weights`` ``(w1, b1, w2, b2)`` are updated in
    place; ``buffers`` are :func:`train_buffers`. Returns the squared error of
    the win output before the step.
    """
    w1, b1, w2, b2 = weights
    acc, z, grad, index, value = buffers
    net = net_phase(board, w1.shape[0])
    count = hidden_layer(board, 0, net, w1, b1, acc, index, value)
    output_logits(acc, net, w2, b2, z)  # acc now holds the hidden units after the ReLU
    can_lose = board[0, OFF] == 0
    can_win = board[1, OFF] == 0
    _, s = chain_probabilities(z, can_lose, can_win)
    t0 = target[0]
    dz = np.zeros(N_OUTPUTS, dtype=np.float32)
    dz[0] = s[0] - t0
    if can_win:
        dz[1] = t0 * s[1] - target[1]
        dz[2] = target[1] * s[2] - target[2]
    if can_lose:
        dz[3] = (1.0 - t0) * s[3] - target[3]
        dz[4] = target[3] * s[4] - target[4]
    h = acc.shape[0]
    for j in range(h):
        g = np.float32(0.0)
        if acc[j] > 0.0:
            for o in range(N_OUTPUTS):
                g += dz[o] * w2[net, o, j]
        grad[j] = g
    step = np.float32(alpha)
    for o in range(N_OUTPUTS):
        d = step * dz[o]
        for j in range(h):
            w2[net, o, j] -= d * acc[j]
        b2[net, o] -= d
    for j in range(h):
        b1[net, j] -= step * grad[j]
    for a in range(count):
        k = index[a]
        v = step * value[a]
        for j in range(h):
            w1[net, k, j] -= v * grad[j]
    return (s[0] - t0) ** 2


@njit(cache=True, nogil=True)
def _self_play_buffers(weights):
    """What :func:`_self_play` works in: one game's record ``(history, following)``,
    :func:`~gammonlab._kernels.movegen.search_buffers` and :func:`eval_buffers`."""
    record = (
        np.empty((MAX_GAME_PLIES, 2, 26), dtype=np.int8),
        np.empty((MAX_GAME_PLIES, N_OUTPUTS)),
    )
    return record, search_buffers(GAME_CAPACITY), eval_buffers(weights)


@njit(cache=True, nogil=True)
def _self_play(weights, tables, starts, start_weights, key, game, record, search, buffers):
    """One self-play game of the net (0-ply both sides).

    Writes each position a side is on roll in (before its roll) to
    ``history[t]`` and the value, from that side, of the position after its
    play to ``following[t]`` (exact when the play ends the game), ``record``
    being ``(history, following)``. Returns the plies played, whether the game
    finished, and the search buffers (grown if a roll had more plays than they
    held).
    """
    history, following = record
    board = search.stack[0]
    dice_base = stream_key(key, game, DICE)
    choice_base = stream_key(key, game, CHOICE)
    counter = 0
    total_weight = start_weights[start_weights.shape[0] - 1]
    pick, _ = draw_below(choice_base, 0, total_weight)
    s = 0
    while start_weights[s] <= pick:
        s += 1
    for side in range(2):
        for col in range(26):
            board[side, col] = starts[s, side, col]
    t = 0
    while t < history.shape[0]:
        for side in range(2):
            for col in range(26):
                history[t, side, col] = board[side, col]
        d1, d2, counter = next_dice(dice_base, counter, t == 0)
        n, search = search_all(search, d1, d2, 0)
        candidates = search.boards
        if n == 0:  # R5.5: the turn is lost; the opponent is on roll in the same position
            p = position_probabilities(board, 1, weights, tables, buffers)
        else:
            chosen = 0
            if n > 1:
                chosen, _ = net_choose(candidates, n, weights, tables, buffers)
            p = position_probabilities(candidates[chosen], 1, weights, tables, buffers)
        seen = flipped(p)
        for j in range(N_OUTPUTS):
            following[t, j] = seen[j]
        t += 1
        if n == 0:
            swap_sides(board)
        elif points_won(candidates[chosen], STANDARD) > 0:
            return t, True, search  # R8.1: the mover has borne off every checker; p is exact
        else:
            swap_into(candidates[chosen], board)
    return t, False, search


@njit(cache=True, nogil=True)
def train_games(
    weights, tables, starts, start_weights, key, first_game, n_games, alpha, lam, stats
):
    """Play ``n_games`` self-play games (numbers ``first_game ...``) and learn from them.

    Parameters
    ----------
    weights : tuple of float32 arrays
        ``(w1, b1, w2, b2)`` (see :mod:`gammonlab._kernels.net`), updated in place.
    tables : tuple of float64 arrays
        The one-sided bear-off tables ``(rolls, first_off)``.
    starts : int8 (k, 2, 26)
        Starting positions; game ``g`` starts from one drawn with the
        cumulative weights ``start_weights`` (int64, the last one the total).
    key : uint64
        Seed key: game ``g``'s dice and start depend only on ``(key, g)``.
    alpha, lam : float
        Learning rate and lambda.
    stats : float64 (N_STATS,)
        Added to: games, plies, positions trained, squared error of the win
        output (summed), games won by the side on roll first, gammons and
        backgammons (games), cut games.
    """
    record, search, buffers = _self_play_buffers(weights)
    history, following = record
    learning = train_buffers(weights)
    target = np.empty(N_OUTPUTS)
    for g in range(n_games):
        t, finished, search = _self_play(
            weights, tables, starts, start_weights, key, first_game + g, record, search, buffers
        )
        if finished:
            stats[4] += 1.0 if t % 2 == 1 else 0.0
            if following[t - 1, 1] > 0.5:
                stats[5] += 1.0
            if following[t - 1, 2] > 0.5:
                stats[6] += 1.0
        else:
            stats[7] += 1.0
        # -- the lambda-returns, last position first, and the updates
        for j in range(N_OUTPUTS):
            target[j] = following[t - 1, j]
        for u in range(t - 1, -1, -1):
            if u < t - 1:
                # G_u = (1 - lam) V(s_{u+1}) + lam G_{u+1}, G_{u+1} flipped to this side
                later = flipped(target)
                for j in range(N_OUTPUTS):
                    target[j] = (1.0 - lam) * following[u, j] + lam * later[j]
            if not is_pure_bearoff(history[u]):
                stats[3] += td_update(history[u], target, weights, alpha, learning)
                stats[2] += 1.0
        stats[0] += 1.0
        stats[1] += t
    return 0


@njit(cache=True, nogil=True)
def self_play_positions(weights, tables, starts, start_weights, key, first_game, n_games, out):
    """The positions of ``n_games`` self-play games of the net, for labelling.

    Every position a side is on roll in, before its roll, except those the
    database values (both sides bearing off), goes to ``out`` ``(capacity, 2,
    26)`` until it is full. Returns how many were written and how many games
    were played to write them.
    """
    record, search, buffers = _self_play_buffers(weights)
    history = record[0]
    count = 0
    for g in range(n_games):
        t, _, search = _self_play(
            weights, tables, starts, start_weights, key, first_game + g, record, search, buffers
        )
        for u in range(t):
            if is_pure_bearoff(history[u]):
                continue
            if count == out.shape[0]:
                return count, g + 1
            out[count] = history[u]
            count += 1
    return count, n_games


@njit(cache=True, nogil=True)
def fit_targets(weights, boards, targets, order, alpha):
    """One pass of gradient steps over ``boards`` (row 0 on roll) towards
    ``targets`` ``(n, 5)``, in the order ``order``. Returns the mean squared
    error of the win output before each step."""
    buffers = train_buffers(weights)
    total = 0.0
    for i in range(order.shape[0]):
        k = order[i]
        total += td_update(boards[k], targets[k], weights, alpha, buffers)
    return total / max(order.shape[0], 1)


@njit(cache=True, nogil=True)
def _finished(board):
    """Whether a side of ``board`` has borne off all its checkers (R8.1)."""
    for side in range(2):
        left = 0
        for col in range(1, 26):
            left += board[side, col]
        if left == 0:
            return True
    return False


@njit(cache=True, nogil=True)
def phase_positions(boards, phase, nets):
    """The indices of ``boards`` ``(n, 2, 26)`` that the net of ``phase``
    (:data:`CONTACT`, :data:`RACE`, ...: :func:`~gammonlab._kernels.net.phase_of`)
    among ``nets`` nets values (with two nets, :data:`CONTACT` takes all
    contact positions): of the race
    positions, a bear-off of both sides is the database's and a finished game
    is scored exactly."""
    keep = np.empty(boards.shape[0], dtype=np.int64)
    count = 0
    for i in range(boards.shape[0]):
        board = boards[i]
        if net_phase(board, nets) != phase:
            continue
        if phase == RACE and (is_pure_bearoff(board) or _finished(board)):
            continue
        keep[count] = i
        count += 1
    return keep[:count]


@njit(cache=True, nogil=True)
def rollout_targets(boards, trials, truncate, weights, tables, key, first, out):
    """Rollout values of ``boards`` ``(n, 2, 26)`` (row 0 on roll, before its roll)
    into ``out`` ``(n, 5)``: labels from the net's own play, deeper than its look-ahead.

    Each board is played on ``trials`` times by the net at 0-ply on both sides,
    cubeless, for at most ``truncate`` plies; a trial that ends the game scores
    its exact result (R8.1, R8.2), one that reaches a bear-off of both sides takes
    the database's values, any other the net's value of the position it reached.
    The label is the mean over the trials, seen from the side on roll. Trial
    ``t``'s first roll is ``t mod 36`` (each of the 36 rolls alike often when
    ``trials`` is a multiple of 36, the rotation of the rollouts); the later rolls
    come from the dice stream of ``(key, (first + i) * trials + t)``, so board
    ``i``'s label depends only on the board, the weights, ``key`` and ``first + i``.
    """
    search = search_buffers(GAME_CAPACITY)
    buffers = eval_buffers(weights)
    board = search.stack[0]
    total = np.empty(N_OUTPUTS)
    for i in range(boards.shape[0]):
        for j in range(N_OUTPUTS):
            total[j] = 0.0
        for t in range(trials):
            for side in range(2):
                for col in range(26):
                    board[side, col] = boards[i, side, col]
            dice_base = stream_key(key, (first + i) * trials + t, DICE)
            counter = 0
            mover = 0  # 0: the side on roll at the start, 1: its opponent
            ply = 0
            while True:
                if is_pure_bearoff(board):
                    # row 0 is on roll: the database's values, from the side on roll
                    p = position_probabilities(board, 0, weights, tables, buffers)
                    seen = p
                    break
                if ply == 0:
                    d1 = (t % 36) // 6 + 1
                    d2 = t % 6 + 1
                else:
                    d1, d2, counter = next_dice(dice_base, counter, False)
                n, search = search_all(search, d1, d2, 0)
                board = search.stack[0]
                candidates = search.boards
                chosen = 0
                if n > 1:
                    chosen, _ = net_choose(candidates, n, weights, tables, buffers)
                ply += 1
                if n > 0 and points_won(candidates[chosen], STANDARD) > 0:
                    # R8.1: the mover has borne off its last checker; exact from its side
                    seen = flipped(
                        position_probabilities(candidates[chosen], 1, weights, tables, buffers)
                    )
                    break
                if n == 0:  # R5.5: the turn is lost
                    swap_sides(board)
                else:
                    swap_into(candidates[chosen], board)
                mover = 1 - mover
                if ply == truncate:
                    seen = position_probabilities(board, 0, weights, tables, buffers)
                    break
            # ``seen`` is from the side that was on roll last (the mover after the
            # last play made the board's row 0 its opponent, counted in ``mover``)
            if mover == 1:
                seen = flipped(seen)
            for j in range(N_OUTPUTS):
                total[j] += seen[j]
        for j in range(N_OUTPUTS):
            out[i, j] = total[j] / trials
    return 0


@njit(cache=True, nogil=True)
def _ranked_plays(search, board, key, number, weights, tables, buffers):
    """The plays of a roll of ``board`` (row 0 on roll), best first at 0-ply.

    The roll is drawn from the choice stream of ``(key, number)``. Returns the
    plays' order, best first (empty for a roll with one play or none), and the
    search buffers, whose ``boards`` hold the positions after them, seen from
    the mover.
    """
    start = search.stack[0]
    for side in range(2):
        for col in range(26):
            start[side, col] = board[side, col]
    d1, d2, _ = next_dice(stream_key(key, number, CHOICE), 0, False)
    n, search = search_all(search, d1, d2, 0)
    if n < 2:
        return np.empty(0, dtype=np.int64), search
    probs = np.empty((n, N_OUTPUTS))
    candidate_probabilities(search.boards, n, weights, tables, buffers, probs)
    equities = np.empty(n)
    for c in range(n):
        # the opponent's equity, on roll next: the mover prefers it low
        equities[c] = cubeless_equity(probs[c])
    return np.argsort(equities), search


@njit(cache=True, nogil=True)
def _write_best(search, ranked, keep, contact_only, out, count):
    """Write the positions after the ``keep`` best ``ranked`` plays to ``out``
    from row ``count`` on, the opponent on roll; with ``contact_only`` only those
    the contact net values, else all but the database's. Returns the next row."""
    kept = 0
    for r in range(ranked.shape[0]):
        if kept == keep:
            break
        c = ranked[r]
        for col in range(26):
            out[count, 0, col] = search.boards[c, 1, col]
            out[count, 1, col] = search.boards[c, 0, col]
        if contact_only:
            if net_phase(out[count], 2) != CONTACT:  # contact, deep or not
                continue
        elif is_pure_bearoff(out[count]):
            continue
        count += 1
        kept += 1
    return count


@njit(cache=True, nogil=True)
def best_play_positions(boards, keep, weights, tables, key, first, out):
    """The positions after the ``keep`` best plays of one roll from each of
    ``boards`` ``(n, 2, 26)`` (row 0 on roll, before its roll), the opponent on
    roll, for labelling: what a player compares when it chooses a play.

    Board ``i`` gets a roll from the choice stream of ``(key, first + i)``; its
    plays are ranked by the net at 0-ply. A roll with one play or none is
    skipped, and so is a position both sides bear off in (the database values
    it). Returns how many positions were written (``out`` needs room for
    ``n * keep``).
    """
    search = search_buffers(GAME_CAPACITY)
    buffers = eval_buffers(weights)
    count = 0
    for i in range(boards.shape[0]):
        ranked, search = _ranked_plays(search, boards[i], key, first + i, weights, tables, buffers)
        count = _write_best(search, ranked, keep, False, out, count)
    return count


@njit(cache=True, nogil=True)
def play_rollout_targets(
    boards, keep, trials, truncate, weights, tables, key, first, out_boards, out_targets
):
    """Rollout values of the best plays of one roll from each of ``boards``
    ``(n, 2, 26)`` (row 0 on roll, before its roll): labels that rank plays.

    Board ``i`` gets a roll from the choice stream of ``(key, first + i)``; the
    plays of that roll are ranked by the net at 0-ply and the ``keep`` best whose
    positions the contact net values are kept. Each kept position (the opponent
    on roll) goes to ``out_boards`` and its rollout value to ``out_targets``, as
    :func:`rollout_targets` gives it for the position number ``first + i``: the
    plays of one roll are rolled out on the same dice, so the errors of their
    labels are largely shared and their differences far less noisy than the
    labels. A roll with one play or none is skipped. Returns how many positions
    were written (``out_boards`` needs room for ``n * keep``).
    """
    search = search_buffers(GAME_CAPACITY)
    buffers = eval_buffers(weights)
    label = np.empty((1, N_OUTPUTS))
    count = 0
    for i in range(boards.shape[0]):
        ranked, search = _ranked_plays(search, boards[i], key, first + i, weights, tables, buffers)
        start = count
        count = _write_best(search, ranked, keep, True, out_boards, count)
        for k in range(start, count):
            rollout_targets(
                out_boards[k : k + 1], trials, truncate, weights, tables, key, first + i, label
            )
            for j in range(N_OUTPUTS):
                out_targets[k, j] = label[0, j]
    return count
