"""One-sided bear-off database: index, build and policy (numba kernels).

A one-sided bear-off position is a distribution of at most 15 checkers on the
six home points, given as a length-6 count vector ``counts[0..5]`` for points
1..6. There are C(21, 6) = 54,264 of them, the empty position included.

Index (combinatorial number system)
-----------------------------------
Let ``s_k`` be the number of checkers on the ``k`` highest points,
``s_k = counts[5] + ... + counts[6 - k]`` for ``k = 1..6``. Then::

    index = sum_{k=1..6} C(s_k + k - 1, k)

This is the rank of the position written as 15 stars and 6 bars (the stars
before the ``k``-th bar are the checkers on points ``7 - k`` and above) in the
colexicographic order, and it is the index GNU Backgammon's one-sided
databases use: the empty position is 0, one checker on the 1-point 1, on the
6-point 6, two on the 1-point 7, and 15 on the 6-point 54,263; every position
with at most ``n`` checkers comes before every position with more.
Moving a checker to a lower point or off lowers some ``s_k`` and no other, so
every bear-off play leads to a lower index: the tables are built by dynamic
programming in index order.

Tables (built by :func:`build_tables`)
--------------------------------------
``expected[i]``
    Expected number of rolls (turns) to bear off every checker of position
    ``i``, playing each roll to minimise it.
``rolls[i, t]``
    Probability that this play needs exactly ``t`` rolls, ``t = 0..MAX_ROLLS``.
    ``MAX_ROLLS`` = 30 (15 checkers on the 6-point against a run of 2-1s) is
    the largest number of rolls any position can need, so nothing is truncated.
``first_off[i, t]``
    Probability that the first checker is borne off on roll ``t``, playing
    each roll to minimise the expected number of rolls until a checker comes
    off (the play that best saves a gammon), ``t = 0..MAX_FIRST_OFF``
    (``MAX_FIRST_OFF`` = 10, reached by 15 checkers on the 5-point after a
    long run of small rolls, with probability ~1e-12; nothing is truncated).
    Row 0 (no checker left) is all zero.

Plays follow the bear-off rules (all checkers home, contact ignored): a die
bears a checker off its own point (R7.2); with that point empty it must move a
checker down from a higher point if there is one (R7.3) and otherwise bears
off from the highest occupied point (R7.4); any checker on a higher point may
move down instead (R7.5); doubles are played four times (R4.5). With every
checker home some checker can always use a die, so R5's "play as much as you
can" reduces to playing every die until no checker is left.

Ties between plays with equal expected rolls go to the resulting position with
the higher index. (In exact arithmetic such ties change no probability by more
than 1e-16; the rule matters for GNU Backgammon's 16-bit database, whose build
it reproduces.)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..errors import InternalError

__all__ = [
    "MAX_FIRST_OFF",
    "MAX_ROLLS",
    "N_CHECKERS",
    "N_POINTS",
    "N_POSITIONS",
    "bearoff_best",
    "bearoff_index",
    "bearoff_index_row",
    "bearoff_position",
    "better_result",
    "build_tables",
    "roll_successors",
    "two_sided_probabilities",
    "two_sided_win",
]

N_POINTS = 6
N_CHECKERS = 15
N_POSITIONS = 54264  # C(N_CHECKERS + N_POINTS, N_POINTS)
MAX_ROLLS = 30
MAX_FIRST_OFF = 10
_WORK_ROLLS = 48  # room for the build; the build checks nothing lands beyond MAX_ROLLS


def _binomials() -> np.ndarray:
    table = np.zeros((N_CHECKERS + N_POINTS + 1, N_POINTS + 1), dtype=np.int64)
    for n in range(table.shape[0]):
        table[n, 0] = 1
        for k in range(1, min(n, N_POINTS) + 1):
            table[n, k] = table[n - 1, k - 1] + (table[n - 1, k] if k <= n - 1 else 0)
    return table


_C = _binomials()


@njit(cache=True)
def bearoff_index(counts: np.ndarray) -> int:
    """Index of a bear-off position given as counts on points 1..6 (see module doc)."""
    s = 0
    index = 0
    for k in range(1, N_POINTS + 1):
        s += counts[N_POINTS - k]
        index += _C[s + k - 1, k]
    return index


@njit(cache=True)
def bearoff_index_row(row: np.ndarray) -> int:
    """Index of the home-board part of a board row (columns 1..6), or -1 if the
    row has a checker outside its home board or on the bar, or more than 15."""
    for point in range(N_POINTS + 1, row.shape[0]):
        if row[point] != 0:
            return -1
    s = 0
    index = 0
    for k in range(1, N_POINTS + 1):
        c = row[N_POINTS + 1 - k]
        if c < 0:
            return -1
        s += c
        index += _C[s + k - 1, k] if s <= N_CHECKERS else 0
    if s > N_CHECKERS:
        return -1
    return index


@njit(cache=True)
def bearoff_position(index: int) -> np.ndarray:
    """Counts on points 1..6 (int64, length 6) of the position with this index."""
    # Greedy unranking: the k-th bar sits at m_k = s_k + k - 1, the largest m
    # below the (k+1)-th bar with C(m, k) <= what is left of the index.
    counts = np.zeros(N_POINTS, dtype=np.int64)
    s_values = np.zeros(N_POINTS + 1, dtype=np.int64)
    rest = index
    upper = N_CHECKERS + N_POINTS
    for k in range(N_POINTS, 0, -1):
        m = upper - 1
        while _C[m, k] > rest:
            m -= 1
        rest -= _C[m, k]
        s_values[k] = m - k + 1
        upper = m
    previous_s = 0
    for k in range(1, N_POINTS + 1):
        counts[N_POINTS - k] = s_values[k] - previous_s
        previous_s = s_values[k]
    return counts


@njit(cache=True)
def _die_moves(counts: np.ndarray, die: int, out: np.ndarray) -> int:
    """Positions (as indices) one die can lead to from ``counts``; returns how many."""
    highest = 0
    for point in range(N_POINTS, 0, -1):
        if counts[point - 1] > 0:
            highest = point
            break
    n = 0
    for point in range(1, N_POINTS + 1):
        if counts[point - 1] == 0:
            continue
        if point > die:
            target = point - die  # R7.3 / R7.5: move down inside the home board
        elif point == die or point == highest:
            target = 0  # R7.2 off its own point; R7.4 off the highest point
        else:
            continue
        counts[point - 1] -= 1
        if target > 0:
            counts[target - 1] += 1
        out[n] = bearoff_index(counts)
        n += 1
        if target > 0:
            counts[target - 1] -= 1
        counts[point - 1] += 1
    return n


@njit(cache=True)
def _die_table() -> np.ndarray:
    """``succ[i, d - 1, :]``: positions one die ``d`` leads to from ``i`` (-1 pads).

    The empty position leads to itself, so a roll that finishes the bear-off
    early simply stays there.
    """
    succ = np.full((N_POSITIONS, 6, N_POINTS), -1, dtype=np.int32)
    out = np.empty(N_POINTS, dtype=np.int64)
    for d in range(6):
        succ[0, d, 0] = 0
    for i in range(1, N_POSITIONS):
        counts = bearoff_position(i)
        for d in range(1, 7):
            n = _die_moves(counts, d, out)
            for j in range(n):
                succ[i, d - 1, j] = out[j]
    return succ


@njit(cache=True)
def better_result(a: int, b: int, value: np.ndarray) -> bool:
    """Is position ``a`` a better result than ``b`` (lower value, then higher index;
    any position is better than none, ``b < 0``)?"""
    if b < 0:
        return True
    if value[a] < value[b]:
        return True
    return value[a] == value[b] and a > b


@njit(cache=True)
def _best_results(
    succ: np.ndarray,
    value: np.ndarray,
    i: int,
    reach: np.ndarray,
    best: np.ndarray,
    checkers: np.ndarray,
    sentinel: int,
) -> None:
    """For position ``i``, fill ``best[r]`` with the best position reachable with roll
    ``r`` (21 distinct rolls, order of :func:`_rolls`), given ``reach[k, p, d]`` = the
    best position reachable from ``p`` with ``k`` more moves of die ``d`` (k = 1..3,
    already known for every ``p < i``).

    With ``sentinel >= 0`` a first move to a position with fewer ``checkers``
    than ``i`` ends the play there, its result being ``sentinel``.
    """
    r = 0
    for d1 in range(1, 7):
        for d2 in range(1, d1 + 1):
            # one move of either die, then one of the other (both orders); doubles
            # four moves of the number (R4.5), so one order, then three more
            more = 3 if d1 == d2 else 1
            chosen = -1
            for order in range(1 if d1 == d2 else 2):
                first = d1 if order == 0 else d2
                second = d2 if order == 0 else d1
                for j in range(N_POINTS):
                    y = succ[i, first - 1, j]
                    if y < 0:
                        break
                    z = _moved(y, i, checkers, sentinel, reach[more, y, second - 1])
                    if better_result(z, chosen, value):
                        chosen = z
            best[r] = chosen
            r += 1


@njit(cache=True)
def _moved(y: int, i: int, checkers: np.ndarray, sentinel: int, rest: int) -> int:
    """The result of a move from ``i`` to ``y`` followed by ``rest``: ``rest``, or
    ``sentinel`` (when ``sentinel >= 0``) if ``y`` has fewer ``checkers`` than ``i``."""
    if sentinel >= 0 and checkers[y] < checkers[i]:
        return sentinel
    return rest


@njit(cache=True)
def _fill_reach(
    succ: np.ndarray,
    value: np.ndarray,
    i: int,
    reach: np.ndarray,
    checkers: np.ndarray,
    sentinel: int,
) -> None:
    """``reach[k, i, d]`` for k = 1..3 (see :func:`_best_results`, ``sentinel`` too)."""
    for d in range(6):
        for k in range(1, 4):
            chosen = -1
            for j in range(N_POINTS):
                y = succ[i, d, j]
                if y < 0:
                    break
                z = _moved(y, i, checkers, sentinel, y if k == 1 else reach[k - 1, y, d])
                if better_result(z, chosen, value):
                    chosen = z
            reach[k, i, d] = chosen


@njit(cache=True)
def _rolls() -> np.ndarray:
    """Weights (in 36ths) of the 21 distinct rolls, high die first, 1-1 .. 6-6."""
    w = np.empty(21, dtype=np.float64)
    r = 0
    for d1 in range(1, 7):
        for d2 in range(1, d1 + 1):
            w[r] = 1.0 if d1 == d2 else 2.0
            r += 1
    return w


@njit(cache=True)
def _build_rolls(succ: np.ndarray):
    n = N_POSITIONS
    expected = np.zeros(n, dtype=np.float64)
    dist = np.zeros((n, _WORK_ROLLS), dtype=np.float64)
    dist[0, 0] = 1.0
    reach = np.full((4, n, 6), -1, dtype=np.int32)
    for d in range(6):
        for k in range(1, 4):
            reach[k, 0, d] = 0
    weights = _rolls() / 36.0
    best = np.empty(21, dtype=np.int64)
    no_checkers = np.zeros(1, dtype=np.int64)  # no sentinel: every result counts
    for i in range(1, n):
        _fill_reach(succ, expected, i, reach, no_checkers, -1)
        _best_results(succ, expected, i, reach, best, no_checkers, -1)
        e = 0.0
        for r in range(21):
            b = best[r]
            w = weights[r]
            e += w * expected[b]
            for t in range(_WORK_ROLLS - 1):
                dist[i, t + 1] += w * dist[b, t]
        expected[i] = 1.0 + e
    return expected, dist


@njit(cache=True)
def _checkers(i: int) -> int:
    counts = bearoff_position(i)
    return int(counts.sum())


@njit(cache=True)
def _build_first_off(succ: np.ndarray):
    """Turns until the first checker is off, playing to minimise their expectation.

    A move that takes a checker off ends the count, so as a "result" it is worth
    0: ``worth[p]`` is the expected number of further rolls from ``p`` with the
    same checkers, and positions with fewer checkers are mapped to the sentinel
    ``n`` (worth 0) before comparing.
    """
    n = N_POSITIONS
    checkers = np.zeros(n, dtype=np.int64)
    for i in range(n):
        checkers[i] = _checkers(i)
    worth = np.zeros(n + 1, dtype=np.float64)  # worth[n] = 0: a checker is off
    dist = np.zeros((n, _WORK_ROLLS), dtype=np.float64)
    # reach[k, p, d]: best result of k more moves of die d from p, where any
    # result with fewer checkers than p is the sentinel n.
    reach = np.full((4, n, 6), -1, dtype=np.int32)
    weights = _rolls() / 36.0
    for d in range(6):
        for k in range(1, 4):
            reach[k, 0, d] = n
    best = np.empty(21, dtype=np.int64)
    for i in range(1, n):
        _fill_reach(succ, worth, i, reach, checkers, n)
        _best_results(succ, worth, i, reach, best, checkers, n)
        e = 0.0
        for r in range(21):
            chosen = best[r]
            w = weights[r]
            if chosen == n:
                dist[i, 1] += w
            else:
                e += w * worth[chosen]
                for t in range(_WORK_ROLLS - 1):
                    dist[i, t + 1] += w * dist[chosen, t]
        worth[i] = 1.0 + e
    return dist


def build_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Build ``(expected, rolls, first_off)`` (float64) for every position.

    ``expected`` has shape ``(N_POSITIONS,)``, ``rolls`` ``(N_POSITIONS,
    MAX_ROLLS + 1)`` and ``first_off`` ``(N_POSITIONS, MAX_FIRST_OFF + 1)``;
    see the module docstring.
    """
    succ = _die_table()
    expected, dist = _build_rolls(succ)
    first = _build_first_off(succ)
    if dist[:, MAX_ROLLS + 1 :].any() or first[:, MAX_FIRST_OFF + 1 :].any():
        raise InternalError("bear-off build: a position needs more rolls than the table holds")
    return (
        expected,
        np.ascontiguousarray(dist[:, : MAX_ROLLS + 1]),
        np.ascontiguousarray(first[:, : MAX_FIRST_OFF + 1]),
    )


@njit(cache=True)
def _play_results(index: int, dice: np.ndarray, n_moves: int) -> np.ndarray:
    """Every position (with repeats) that playing ``dice[0..n_moves-1]`` in that
    order can lead to from ``index``."""
    inner = np.empty(N_POINTS, dtype=np.int64)
    frontier = np.zeros(1, dtype=np.int64)
    frontier[0] = index
    for m in range(n_moves):
        nxt = np.empty(frontier.shape[0] * N_POINTS, dtype=np.int64)
        size = 0
        for f in range(frontier.shape[0]):
            p = frontier[f]
            if p == 0:
                nxt[size] = 0
                size += 1
                continue
            k = _die_moves(bearoff_position(p), dice[m], inner)
            for j in range(k):
                nxt[size] = inner[j]
                size += 1
        frontier = nxt[:size].copy()
    return frontier


@njit(cache=True)
def roll_successors(index: int, expected: np.ndarray) -> np.ndarray:
    """The position (index) the database's play reaches from ``index`` for each of
    the 21 distinct rolls (1-1, 2-1, 2-2, 3-1, ..., 6-6, high die first).

    Enumerates every play of every roll directly (no shared tables): a slow,
    independent check of the build.
    """
    best = np.empty(21, dtype=np.int64)
    dice = np.empty(4, dtype=np.int64)
    r = 0
    for d1 in range(1, 7):
        for d2 in range(1, d1 + 1):
            chosen = -1
            if d1 == d2:
                dice[:] = d1
                results = _play_results(index, dice, 4)
                for f in range(results.shape[0]):
                    if better_result(results[f], chosen, expected):
                        chosen = results[f]
            else:
                for order in range(2):
                    dice[0] = d1 if order == 0 else d2
                    dice[1] = d2 if order == 0 else d1
                    results = _play_results(index, dice, 2)
                    for f in range(results.shape[0]):
                        if better_result(results[f], chosen, expected):
                            chosen = results[f]
            best[r] = chosen
            r += 1
    return best


@njit(cache=True)
def bearoff_best(candidates: np.ndarray, expected: np.ndarray) -> int:
    """Index of the candidate board whose mover needs the fewest expected rolls.

    ``candidates`` is ``(k, 2, 26)`` int8, each seen from the mover (row 0 has
    just moved); ``expected`` is the database's expected-rolls table. Only row
    0 matters (contact is ignored); ties go to the higher database index, then
    to the earlier candidate, which is the play the database itself assumes.
    Returns -1 if ``k == 0`` or some candidate's mover is not bearing off
    (a checker outside the home board or on the bar).
    """
    best = -1
    best_index = -1
    for c in range(candidates.shape[0]):
        i = bearoff_index_row(candidates[c, 0])
        if i < 0:
            return -1
        if better_result(i, best_index, expected):
            best = c
            best_index = i
    return best


@njit(cache=True)
def two_sided_win(rolls_on_roll: np.ndarray, rolls_opponent: np.ndarray) -> float:
    """Probability that the side on roll finishes first, given both sides' roll
    distributions (independent one-sided play): ``sum_t P_a(t) P_b(>= t)``."""
    n = rolls_opponent.shape[0]
    survival = 0.0
    for s in range(n):
        survival += rolls_opponent[s]
    win = 0.0
    for t in range(rolls_on_roll.shape[0]):
        if t < n:
            win += rolls_on_roll[t] * survival
            survival -= rolls_opponent[t]
    return win


@njit(cache=True)
def two_sided_probabilities(
    boards: np.ndarray, rolls: np.ndarray, first_off: np.ndarray
) -> np.ndarray:
    """GNU Backgammon-order probabilities ``(n, 5)`` for pure bear-off boards.

    Row 0 of each board is on roll. Wins come from :func:`two_sided_win`.
    A side wins a gammon when it finishes before the other has borne off a
    checker; that is only possible when the other has none off (column 0 is
    0), and its chance uses the loser's ``first_off`` distribution (the loser
    plays to save the gammon, the winner to finish fast). Backgammons are
    impossible (the loser's checkers are all in its own home board). Rows that
    are not pure bear-offs (a checker outside home or on the bar) are NaN.
    """
    n = boards.shape[0]
    out = np.full((n, 5), np.nan)
    for b in range(n):
        a = bearoff_index_row(boards[b, 0])
        o = bearoff_index_row(boards[b, 1])
        if a < 0 or o < 0:
            continue
        pa = rolls[a]
        po = rolls[o]
        win = two_sided_win(pa, po)
        win_gammon = 0.0
        lose_gammon = 0.0
        if boards[b, 1, 0] == 0 and o != 0:
            # P(on roll finishes on its roll t and the opponent has no checker
            # off after t - 1 rolls) = sum_t P_a(t) P(G_o >= t)
            g = first_off[o]
            for t in range(1, pa.shape[0]):
                tail = 0.0
                for s in range(t, g.shape[0]):
                    tail += g[s]
                win_gammon += pa[t] * tail
        if boards[b, 0, 0] == 0 and a != 0:
            # the opponent finishes on its roll s, after the side on roll has
            # had s rolls without a checker off: sum_s P_o(s) P(G_a >= s + 1)
            g = first_off[a]
            for s in range(1, po.shape[0]):
                tail = 0.0
                for t in range(s + 1, g.shape[0]):
                    tail += g[t]
                lose_gammon += po[s] * tail
        # Rounding can leave the sums a hair outside [0, 1]; and each side's
        # numbers come from its own one-sided play, so keep the gammons inside
        # the wins they belong to.
        win = min(max(win, 0.0), 1.0)
        win_gammon = min(win_gammon, win)
        lose_gammon = min(lose_gammon, 1.0 - win)
        out[b, 0] = win
        out[b, 1] = win_gammon
        out[b, 2] = 0.0
        out[b, 3] = lose_gammon
        out[b, 4] = 0.0
    return out
