"""Legal plays for Acey-Deucey (R2.4, R11) as numba kernels.

The board is :mod:`movegen`'s int8 ``(2, 26)`` array: row 0 is the side on
roll, row 1 its opponent, each in its own numbering (column 0 borne off, 1..24
the points, 25 the bar). A side's checkers that have not entered yet stand
nowhere on it: there are ``checkers - row.sum()`` of them (the borne-off column
included), as :meth:`Position.from_board` reads an Acey-Deucey board.

Plays come out as in :func:`movegen.generate_plays`: the resulting boards,
seen from the mover and unique by position, and the checker moves making each,
``(from, to)`` pairs in the mover's numbering (``to == 0`` is off, unused slots
``-1``). One extra source index: ``from == START`` (26) is a checker entering
from off the board (R11.1), written ``in/22`` in notation; ``from == 25`` is
still the bar.

>>> import numpy as np
>>> boards, moves = acey_plays(np.zeros((2, 26), dtype=np.int8), 6, 5)
>>> len(boards), moves[0].tolist()
(2, [[26, 19], [26, 20], [-1, -1], [-1, -1]])
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .movegen import WEIGHTS

OFF = 0
BAR = 25
START = 26
"""Source index of a checker entering from off the board (R11.1) in a moves array."""
HOME = 6
CHECKERS = 15
MAX_MOVES = 4
ACEY_DEUCEY_MOVES = 6
"""Moves of a 1-2 play: slots 0-1 the 1 and the 2, slots 2-5 the chosen doubles (R11.2)."""
START_CAPACITY = 256

__all__ = [
    "ACEY_DEUCEY_MOVES",
    "START",
    "acey_deucey_plays",
    "acey_plays",
]


# Layout of the int64 scratch array of the search, one slot per depth 0..4.
_HASH = 0
_NEXT = 5
_HAD_CHILD = 10
_HOME = 15
_WAITING = 20  # checkers not yet entered
_MOVES = 25  # 4 moves x (from, to)
SCRATCH = 33


@njit(cache=True)
def _search(stack, scratch, die1, die2, checkers, out_boards, out_moves, hashes):
    """Every legal Acey-Deucey play of ``stack[0]`` for the roll, written to the ``out_*`` arrays.

    :func:`movegen._search` with one more source, the checkers waiting off the
    board, and written out in one loop for the same reason (numba
    reference-counts every array passed to a helper). Sources are tried in the
    order bar, start, 24 .. 1; doubles (R4.5) keep that order never going back
    up. Any legal sequence can be so reordered: moves only go down the board,
    hits only remove blots, the bar empties first (R6.3) and a checker enters
    from the start on the same points as from the bar (R11.1), so each set of
    moves is seen once.
    Returns the number of plays, or -1 when the output arrays are full.
    """
    doubles = die1 == die2
    high = max(die1, die2)
    low = min(die1, die2)
    n_dice = MAX_MOVES if doubles else 2
    n_orders = 1 if doubles else 2
    capacity = out_boards.shape[0]
    count = 0
    best = 0
    high_single = False
    h0 = np.int64(0)
    on_board = 0
    for side in range(2):
        for col in range(26):
            h0 += stack[0, side, col] * WEIGHTS[side, col]
    for col in range(26):
        on_board += stack[0, 0, col]
    waiting0 = checkers - on_board
    scratch[_HASH] = h0
    scratch[_WAITING] = waiting0
    # R7.1: bearing off starts only when all the checkers are home; those not
    # yet entered are not (R11.1)
    home0 = 1 if waiting0 == 0 else 0
    for point in range(HOME + 1, BAR + 1):
        if stack[0, 0, point] > 0:
            home0 = 0
    for order in range(n_orders):
        depth = 0
        scratch[_NEXT] = BAR
        scratch[_HAD_CHILD] = 0
        scratch[_HOME] = home0
        while depth >= 0:
            if doubles:
                die = high
            elif (depth == 0) == (order == 0):
                die = high
            else:
                die = low
            # -- the next checker at this depth that may move ``die`` (R4, R6, R7, R11)
            source = scratch[_NEXT + depth]
            target = -1
            on_bar = stack[depth, 0, BAR] > 0
            while source >= 1:
                if source == BAR:
                    movable = on_bar
                    t = BAR - die  # R6.4
                elif source == START:
                    # R11.1: entering is not compulsory, but waits for the bar (R6.3)
                    movable = (not on_bar) and scratch[_WAITING + depth] > 0
                    t = BAR - die
                else:
                    movable = (not on_bar) and stack[depth, 0, source] > 0  # R6.3
                    t = source - die
                if movable:
                    if t >= 1:
                        # R4.2 / R6.4: two or more opposing checkers block a point
                        if stack[depth, 1, BAR - t] < 2:
                            target = t
                            break
                    elif scratch[_HOME + depth] == 1:
                        if t == 0:
                            target = OFF  # R7.2
                            break
                        # R7.3 / R7.4: a larger die bears off from the highest point only
                        highest = True
                        for point in range(source + 1, HOME + 1):
                            if stack[depth, 0, point] > 0:
                                highest = False
                        if highest:
                            target = OFF
                            break
                if source == BAR:
                    source = START
                elif source == START:
                    source = BAR - 1
                else:
                    source -= 1
            leaf = -1
            if source >= 1:
                scratch[_HAD_CHILD + depth] = 1
                if source == BAR:
                    scratch[_NEXT + depth] = START
                elif source == START:
                    scratch[_NEXT + depth] = BAR - 1
                else:
                    scratch[_NEXT + depth] = source - 1
                # -- play it on the next level of the stack
                nxt = depth + 1
                for side in range(2):
                    for col in range(26):
                        stack[nxt, side, col] = stack[depth, side, col]
                h = scratch[_HASH + depth] + WEIGHTS[0, target]
                if source == START:
                    scratch[_WAITING + nxt] = scratch[_WAITING + depth] - 1
                else:
                    scratch[_WAITING + nxt] = scratch[_WAITING + depth]
                    stack[nxt, 0, source] -= 1
                    h -= WEIGHTS[0, source]
                stack[nxt, 0, target] += 1
                if target != OFF and stack[nxt, 1, BAR - target] == 1:
                    # R6.1: landing on a blot hits it
                    stack[nxt, 1, BAR - target] = 0
                    stack[nxt, 1, BAR] += 1
                    h += WEIGHTS[1, BAR] - WEIGHTS[1, BAR - target]
                scratch[_HASH + nxt] = h
                scratch[_MOVES + 2 * depth] = source
                scratch[_MOVES + 2 * depth + 1] = target
                if nxt == n_dice:
                    leaf = nxt
                else:
                    depth = nxt
                    scratch[_NEXT + depth] = source if doubles else BAR
                    scratch[_HAD_CHILD + depth] = 0
                    home = scratch[_HOME + depth - 1]
                    if home == 0 and scratch[_WAITING + depth] == 0:
                        home = 1
                        for point in range(HOME + 1, BAR + 1):
                            if stack[depth, 0, point] > 0:
                                home = 0
                    scratch[_HOME + depth] = home
                    continue
            elif scratch[_HAD_CHILD + depth] == 0 and depth > 0:
                leaf = depth  # no die can follow: a play using fewer dice
            if leaf >= 0:
                # R5.1 / R5.4: only plays that use as many dice as possible count;
                # R5.2 / R5.3: of one-die plays, the larger die's when it has any
                accept = leaf >= best
                if accept and not doubles and leaf == 1:
                    if order == 0:
                        high_single = True
                    else:
                        accept = not high_single
                if accept:
                    if leaf > best:
                        best = leaf
                        count = 0
                    h = scratch[_HASH + leaf]
                    duplicate = False
                    for i in range(count):
                        if hashes[i] == h:
                            differences = 0
                            for side in range(2):
                                for col in range(26):
                                    differences += (out_boards[i, side, col]
                                                    != stack[leaf, side, col])
                            if differences == 0:
                                duplicate = True
                                break
                    if not duplicate:
                        if count >= capacity:
                            return -1
                        for side in range(2):
                            for col in range(26):
                                out_boards[count, side, col] = stack[leaf, side, col]
                        for m in range(MAX_MOVES):
                            if m < leaf:
                                out_moves[count, m, 0] = scratch[_MOVES + 2 * m]
                                out_moves[count, m, 1] = scratch[_MOVES + 2 * m + 1]
                            else:
                                out_moves[count, m, 0] = -1
                                out_moves[count, m, 1] = -1
                        hashes[count] = h
                        count += 1
            if source < 1:
                depth -= 1
    return count  # 0: no number can be played, the turn is lost (R5.5)


@njit(cache=True)
def _check(board, checkers):
    total = 0
    for col in range(26):
        total += board[0, col]
    if total > checkers:
        raise ValueError("the side on roll has more checkers on the board than it owns")


@njit(cache=True)
def acey_plays(board, die1, die2, checkers=CHECKERS):
    """Every legal Acey-Deucey play of ``board`` for an ordinary roll (R4-R7, R11.1).

    Checkers not yet entered (``checkers - board[0].sum()``) enter into the
    opponent's home board as from the bar (die ``n`` to our point ``25 - n``)
    and may move on with the other dice; entering is not compulsory, but
    nothing, entries included, moves while a checker is on the bar (R6.3), and
    nothing bears off while a checker waits to enter (R7.1). The 1-2 roll has
    its own kernel, :func:`acey_deucey_plays`; here 1-2 is just a roll.

    Parameters
    ----------
    board : int8 array (2, 26)
    die1, die2 : int
        The roll, in any order.
    checkers : int
        Checkers a side owns.

    Returns
    -------
    boards : int8 array (n, 2, 26)
        The resulting boards, seen from the mover (row 0 has just moved).
    moves : int8 array (n, 4, 2)
        The checker moves of each play, one die at a time; ``START`` (26) as
        the source is an entry from off the board. ``n == 0``: the turn is lost.
    """
    _check(board, checkers)
    stack = np.empty((MAX_MOVES + 1, 2, 26), dtype=np.int8)
    scratch = np.empty(SCRATCH, dtype=np.int64)
    capacity = START_CAPACITY
    while True:
        out_boards = np.empty((capacity, 2, 26), dtype=np.int8)
        out_moves = np.empty((capacity, MAX_MOVES, 2), dtype=np.int8)
        hashes = np.empty(capacity, dtype=np.int64)
        for side in range(2):
            for col in range(26):
                stack[0, side, col] = board[side, col]
        n = _search(stack, scratch, die1, die2, checkers, out_boards, out_moves, hashes)
        if n >= 0:
            return out_boards[:n].copy(), out_moves[:n].copy()
        capacity *= 4


@njit(cache=True)
def acey_deucey_plays(board, checkers=CHECKERS):
    """Every legal play of the roll 1-2, acey-deucey (R11.2), over all choices of doubles.

    The 1 and the 2 are played as an ordinary roll (R5.1-R5.3 on that part).
    Only when both are played does the player choose doubles ``d`` (any of
    1..6, playable or not) and play as many of the four ``d`` moves as possible
    (R5.4) from there; a 1-2 that cannot be played in full forfeits the rest of
    the roll, doubles and the roll again included. The roll again is the
    caller's business: it is earned when all six moves are played.

    Parameters
    ----------
    board : int8 array (2, 26)
    checkers : int
        Checkers a side owns.

    Returns
    -------
    boards : int8 array (n, 2, 26)
        The resulting boards, seen from the mover, unique by position.
    moves : int8 array (n, 6, 2)
        Slots 0-1 the 1 and the 2 in the order played, slots 2-5 the doubles,
        ``(from, to)`` as in :func:`acey_plays`; ``-1`` pads each part.
    doubles : int8 array (n,)
        The doubles chosen, 1..6; 0 when the 1-2 was not played in full (no
        doubles part). Of the choices reaching one position, the play kept is
        one with the most moves (so a roll again, when any choice earns it),
        then the smallest ``d``.

    >>> import numpy as np
    >>> boards, moves, doubles = acey_deucey_plays(np.zeros((2, 26), dtype=np.int8))
    >>> int(doubles[0]), moves[0].tolist()
    (1, [[26, 23], [26, 24], [26, 24], [26, 24], [26, 24], [26, 24]])
    """
    _check(board, checkers)
    stack = np.empty((MAX_MOVES + 1, 2, 26), dtype=np.int8)
    scratch = np.empty(SCRATCH, dtype=np.int64)
    # -- the 1 and the 2 (R5.1-R5.3)
    capacity = START_CAPACITY
    while True:
        first_boards = np.empty((capacity, 2, 26), dtype=np.int8)
        first_moves = np.empty((capacity, MAX_MOVES, 2), dtype=np.int8)
        first_hashes = np.empty(capacity, dtype=np.int64)
        for side in range(2):
            for col in range(26):
                stack[0, side, col] = board[side, col]
        n_first = _search(stack, scratch, 1, 2, checkers, first_boards, first_moves,
                          first_hashes)
        if n_first >= 0:
            break
        capacity *= 4
    if n_first == 0 or first_moves[0, 1, 0] < 0:
        # R5.5 / R5.2: the 1-2 not played in full ends the roll there
        moves = np.full((n_first, ACEY_DEUCEY_MOVES, 2), -1, dtype=np.int8)
        moves[:, :2] = first_moves[:n_first, :2]
        return (first_boards[:n_first].copy(), moves,
                np.zeros(n_first, dtype=np.int8))
    # -- then any doubles (R11.2, R5.4), deduplicated over all the choices through
    # an open-addressing table of row indices keyed by the position hash
    capacity = START_CAPACITY * 4
    out_boards = np.empty((capacity, 2, 26), dtype=np.int8)
    out_moves = np.empty((capacity, MAX_MOVES, 2), dtype=np.int8)
    hashes = np.empty(capacity, dtype=np.int64)
    size = 1024
    res_boards = np.empty((size, 2, 26), dtype=np.int8)
    res_moves = np.empty((size, ACEY_DEUCEY_MOVES, 2), dtype=np.int8)
    res_doubles = np.empty(size, dtype=np.int8)
    res_used = np.empty(size, dtype=np.int64)
    res_hashes = np.empty(size, dtype=np.int64)
    table = np.full(2 * size, -1, dtype=np.int64)
    mask = 2 * size - 1
    total = 0
    for q in range(n_first):
        for d in range(1, 7):
            while True:
                for side in range(2):
                    for col in range(26):
                        stack[0, side, col] = first_boards[q, side, col]
                n = _search(stack, scratch, d, d, checkers, out_boards, out_moves, hashes)
                if n >= 0:
                    break
                capacity *= 4
                out_boards = np.empty((capacity, 2, 26), dtype=np.int8)
                out_moves = np.empty((capacity, MAX_MOVES, 2), dtype=np.int8)
                hashes = np.empty(capacity, dtype=np.int64)
            used = 0
            if n == 0:
                # R5.5: doubles that cannot be played leave the position after the 1-2
                n = 1
                for side in range(2):
                    for col in range(26):
                        out_boards[0, side, col] = first_boards[q, side, col]
                for m in range(MAX_MOVES):
                    out_moves[0, m, 0] = -1
                    out_moves[0, m, 1] = -1
                hashes[0] = first_hashes[q]
            else:
                for m in range(MAX_MOVES):
                    if out_moves[0, m, 0] >= 0:
                        used += 1
            for i in range(n):
                h = hashes[i]
                slot = h & mask
                found = -1
                while table[slot] >= 0:
                    j = table[slot]
                    if res_hashes[j] == h:
                        differences = 0
                        for side in range(2):
                            for col in range(26):
                                differences += res_boards[j, side, col] != out_boards[i, side, col]
                        if differences == 0:
                            found = j
                            break
                    slot = (slot + 1) & mask
                if found >= 0:
                    if used < res_used[found] or (used == res_used[found]
                                                  and d >= res_doubles[found]):
                        continue
                    row = found
                else:
                    if total >= size:
                        size *= 4
                        grown_boards = np.empty((size, 2, 26), dtype=np.int8)
                        grown_moves = np.empty((size, ACEY_DEUCEY_MOVES, 2), dtype=np.int8)
                        grown_doubles = np.empty(size, dtype=np.int8)
                        grown_used = np.empty(size, dtype=np.int64)
                        grown_hashes = np.empty(size, dtype=np.int64)
                        grown_boards[:total] = res_boards[:total]
                        grown_moves[:total] = res_moves[:total]
                        grown_doubles[:total] = res_doubles[:total]
                        grown_used[:total] = res_used[:total]
                        grown_hashes[:total] = res_hashes[:total]
                        res_boards = grown_boards
                        res_moves = grown_moves
                        res_doubles = grown_doubles
                        res_used = grown_used
                        res_hashes = grown_hashes
                        table = np.full(2 * size, -1, dtype=np.int64)
                        mask = 2 * size - 1
                        for j in range(total):
                            s = res_hashes[j] & mask
                            while table[s] >= 0:
                                s = (s + 1) & mask
                            table[s] = j
                        slot = h & mask
                        while table[slot] >= 0:
                            slot = (slot + 1) & mask
                    row = total
                    table[slot] = row
                    total += 1
                    for side in range(2):
                        for col in range(26):
                            res_boards[row, side, col] = out_boards[i, side, col]
                    res_hashes[row] = h
                res_used[row] = used
                res_doubles[row] = d
                for k in range(2):
                    res_moves[row, k, 0] = first_moves[q, k, 0]
                    res_moves[row, k, 1] = first_moves[q, k, 1]
                for m in range(MAX_MOVES):
                    res_moves[row, 2 + m, 0] = out_moves[i, m, 0]
                    res_moves[row, 2 + m, 1] = out_moves[i, m, 1]
    return res_boards[:total].copy(), res_moves[:total].copy(), res_doubles[:total].copy()
