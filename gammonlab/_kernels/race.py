"""Race values: the bear-off database's two-sided probabilities and races (no
contact) by one-sided playouts on top of it, for boards laid out as in
:mod:`gammonlab._kernels.board`, row 0 on roll.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bearoff import bearoff_index_row, better_result
from .board import BAR, HOME, OFF, ROLLS, WINNER_HOME_LOW
from .pubeval import pubeval_is_race
from .rng import roll_index, stream_key

__all__ = [
    "RACE_ROLLS",
    "RACE_TRIALS",
    "bearoff_probabilities",
    "is_pure_bearoff",
    "one_sided_race",
    "race_probabilities",
]


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


RACE_TRIALS = 1296
"""Playouts per side of a race evaluation: the first two rolls rotate over all 36 x 36."""
RACE_ROLLS = 160
"""Length of the race distributions (rolls 0..159); longer tails are folded into the last."""
_RACE_KEY = np.uint64(0x5EED0F0A7ACE5EED)  # fixed: a race evaluation is a pure function
_RACE_STREAM = 3


@njit(cache=True, nogil=True)
def one_sided_race(row, expected, rolls, first_off, finish, first, leave):
    """Distributions of a side racing alone (no contact), by one-sided playouts.

    ``row`` is one side's board row (int8, 26 columns, nothing on the bar). The
    side brings its checkers home with a fixed bear-in rule, :data:`RACE_TRIALS`
    times with quasi-random rolls (the first two rolls cover all 36 x 36
    ordered pairs); once every checker is home the rest comes exactly from the
    one-sided bear-off database. Writes, for rolls ``t = 0..RACE_ROLLS - 1``:

    ``finish[t]``
        P(the last checker is borne off on roll ``t``).
    ``first[t]``
        P(the first checker is borne off on roll ``t``); all zero if the side
        has borne off a checker already (it cannot lose a gammon).
    ``leave[t]``
        P(the last checker leaves points 19-24, the opponent's home board, on
        roll ``t``); ``leave[0] = 1`` when none is there.

    Bear-in rule, the usual advice of saving crossovers (moves from one quarter
    of the board into the next, which every checker outside must make), as in
    GNU Backgammon's one-sided rollouts (``osr.c``, Jørn Thyssen, 2002): with
    each die (larger first) bring a checker exactly onto the 6-point if one
    can; else make a crossover with the rearmost checker that can; else move
    the rearmost checker. Checkers home are not moved until all are (R7.1). If
    every checker gets home before the roll is over, each remaining die bears
    off with the play the database prefers (fewest expected rolls). The same
    play serves racing and saving the gammon.
    """
    for t in range(RACE_ROLLS):
        finish[t] = 0.0
        first[t] = 0.0
        leave[t] = 0.0
    can_lose_gammon = row[OFF] == 0
    home_index = bearoff_index_row(row)
    if home_index >= 0:
        for t in range(min(rolls.shape[1], RACE_ROLLS)):
            finish[t] = rolls[home_index, t]
        if can_lose_gammon:
            for t in range(min(first_off.shape[1], RACE_ROLLS)):
                first[t] = first_off[home_index, t]
        leave[0] = 1.0
        return
    weight = 1.0 / RACE_TRIALS
    last = RACE_ROLLS - 1
    work = np.empty(26, dtype=np.int64)
    dice = np.empty(4, dtype=np.int64)
    if not can_lose_gammon:
        leave[0] = 1.0  # a side with a checker off cannot be backgammoned
    for i in range(RACE_TRIALS):
        for col in range(26):
            work[col] = row[col]
        base = stream_key(_RACE_KEY, i, _RACE_STREAM)
        counter = 0
        used = 0
        first_roll = -1
        left_home = 0
        for point in range(WINNER_HOME_LOW, BAR):
            if work[point] > 0:
                left_home = -1
        outside = 0
        for point in range(HOME + 1, BAR):
            outside += work[point]
        on_board = 0
        for col in range(1, BAR):
            on_board += work[col]
        while outside > 0:
            used += 1
            if used == 1:
                roll = i % ROLLS
            elif used == 2:
                roll = i // ROLLS % ROLLS
            else:
                roll, counter = roll_index(base, counter)
            high = max(roll // 6, roll % 6) + 1
            low = min(roll // 6, roll % 6) + 1
            n_dice = 4 if high == low else 2
            dice[0] = high
            dice[1] = low
            dice[2] = high
            dice[3] = high
            for m in range(n_dice):
                die = dice[m]
                if outside > 0:
                    source = -1
                    if HOME + die < BAR and work[HOME + die] > 0:
                        source = HOME + die  # exactly onto the 6-point
                    if source < 0:
                        for point in range(BAR - 1, HOME, -1):  # rearmost first
                            if work[point] > 0 and (point - 1) // HOME != (point - die - 1) // HOME:
                                source = point  # a crossover
                                break
                    if source < 0:
                        for point in range(BAR - 1, HOME, -1):
                            if work[point] > 0:
                                source = point
                                break
                    work[source] -= 1
                    work[source - die] += 1
                    if source - die <= HOME:
                        outside -= 1
                elif on_board > 0:
                    # R7.2-R7.4 with the database's choice, one die at a time
                    highest = 0
                    for point in range(HOME, 0, -1):
                        if work[point] > 0:
                            highest = point
                            break
                    best_source = -1
                    best_target = -1
                    best_index = -1
                    for point in range(1, HOME + 1):
                        if work[point] == 0:
                            continue
                        if point > die:
                            target = point - die
                        elif point == die or point == highest:
                            target = OFF
                        else:
                            continue
                        work[point] -= 1
                        work[target] += 1
                        index = bearoff_index_row(work)
                        work[target] -= 1
                        work[point] += 1
                        if better_result(index, best_index, expected):
                            best_source = point
                            best_target = target
                            best_index = index
                    work[best_source] -= 1
                    work[best_target] += 1
                    if best_target == OFF:
                        on_board -= 1
                        if first_roll < 0:
                            first_roll = used
            if left_home < 0:
                left_home = used
                for point in range(WINNER_HOME_LOW, BAR):
                    if work[point] > 0:
                        left_home = -1
        h = bearoff_index_row(work)
        for t in range(rolls.shape[1]):
            finish[min(used + t, last)] += weight * rolls[h, t]
        if can_lose_gammon:
            if first_roll >= 0:
                first[min(first_roll, last)] += weight
            else:
                for t in range(first_off.shape[1]):
                    first[min(used + t, last)] += weight * first_off[h, t]
            leave[min(max(left_home, 0), last)] += weight


@njit(cache=True, nogil=True)
def _tail_from(dist, t):
    total = 0.0
    for s in range(t, dist.shape[0]):
        total += dist[s]
    return total


@njit(cache=True, nogil=True)
def race_probabilities(boards, expected, rolls, first_off):
    """Probabilities ``(n, 5)`` of race positions (no contact), from the side on roll.

    Each side's distributions come from :func:`one_sided_race`; the sides are
    independent. The side on roll (A) rolls first: it wins when it finishes on
    its roll ``t`` and the other (B) needs ``t`` rolls or more; a gammon when
    B's first checker needs ``t`` rolls or more too; a backgammon when B's
    last checker leaves A's home board on its roll ``t`` or later (R8.2). B
    wins likewise one roll later. Both sides bearing off gives the database's
    two-sided numbers (:func:`bearoff_probabilities`) exactly.
    Rows of positions with contact are NaN.
    """
    n = boards.shape[0]
    out = np.full((n, 5), np.nan)
    dists = np.empty((2, 3, RACE_ROLLS))
    for b in range(n):
        board = boards[b]
        if not pubeval_is_race(board):
            continue
        if is_pure_bearoff(board):
            w, wg, wbg, lg, lbg = bearoff_probabilities(board, rolls, first_off)
            out[b, 0] = w
            out[b, 1] = wg
            out[b, 2] = wbg
            out[b, 3] = lg
            out[b, 4] = lbg
            continue
        for side in range(2):
            one_sided_race(
                board[side],
                expected,
                rolls,
                first_off,
                dists[side, 0],
                dists[side, 1],
                dists[side, 2],
            )
        a_finish, a_first, a_leave = dists[0, 0], dists[0, 1], dists[0, 2]
        b_finish, b_first, b_leave = dists[1, 0], dists[1, 1], dists[1, 2]
        win = 0.0
        win_gammon = 0.0
        win_backgammon = 0.0
        lose_gammon = 0.0
        lose_backgammon = 0.0
        b_survival = _tail_from(b_finish, 0)
        for t in range(RACE_ROLLS):
            if a_finish[t] > 0.0:
                win += a_finish[t] * b_survival
                if board[1, OFF] == 0:
                    win_gammon += a_finish[t] * _tail_from(b_first, t)
                    win_backgammon += a_finish[t] * _tail_from(b_leave, t)
            b_survival -= b_finish[t]
            if b_finish[t] > 0.0 and board[0, OFF] == 0:
                lose_gammon += b_finish[t] * _tail_from(a_first, t + 1)
                lose_backgammon += b_finish[t] * _tail_from(a_leave, t + 1)
        win = min(max(win, 0.0), 1.0)
        win_gammon = min(win_gammon, win)
        win_backgammon = min(win_backgammon, win_gammon)
        lose_gammon = min(lose_gammon, 1.0 - win)
        lose_backgammon = min(lose_backgammon, lose_gammon)
        out[b, 0] = win
        out[b, 1] = win_gammon
        out[b, 2] = win_backgammon
        out[b, 3] = lose_gammon
        out[b, 4] = lose_backgammon
    return out
