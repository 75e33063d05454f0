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
still the bar. The search itself is :mod:`movegen`'s, compiled with the
entries from off the board switched on.

>>> import numpy as np
>>> boards, moves = acey_plays(np.zeros((2, 26), dtype=np.int8), 6, 5)
>>> len(boards), moves[0].tolist()
(2, [[26, 19], [26, 20], [-1, -1], [-1, -1]])
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..errors import InvalidPositionError
from .board import BAR, CHECKERS, START
from .movegen import (
    MAX_MOVES,
    START_CAPACITY,
    SearchBuffers,
    play_buffers,
    room,
    search_board_entering,
    search_buffers,
)

ACEY_DEUCEY_MOVES = 6
"""Moves of a 1-2 play: slots 0-1 the 1 and the 2, slots 2-5 the chosen doubles (R11.2)."""

__all__ = [
    "ACEY_DEUCEY_MOVES",
    "acey_deucey_plays",
    "acey_legal",
    "acey_plays",
    "waiting_on_bar",
]


@njit(cache=True)
def _waiting(board, checkers):
    """Checkers of the side on roll not yet entered (R2.4): those nowhere on its row."""
    total = 0
    for col in range(26):
        total += board[0, col]
    if total > checkers:
        raise InvalidPositionError("the side on roll has more checkers on the board than it owns")
    return checkers - total


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
    waiting = _waiting(board, checkers)
    n, found = search_board_entering(search_buffers(START_CAPACITY), board, die1, die2, waiting)
    return found.boards[:n].copy(), found.moves[:n].copy()


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
    waiting = _waiting(board, checkers)
    # -- the 1 and the 2 (R5.1-R5.3)
    n_first, first = search_board_entering(search_buffers(START_CAPACITY), board, 1, 2, waiting)
    first_boards, first_moves, first_hashes = first.boards, first.moves, first.hashes
    if n_first == 0 or first_moves[0, 1, 0] < 0:
        # R5.5 / R5.2: the 1-2 not played in full ends the roll there
        moves = np.full((n_first, ACEY_DEUCEY_MOVES, 2), -1, dtype=np.int8)
        moves[:, :2] = first_moves[:n_first, :2]
        return (first_boards[:n_first].copy(), moves, np.zeros(n_first, dtype=np.int8))
    # -- then any doubles (R11.2, R5.4), deduplicated over all the choices through
    # an open-addressing table of row indices keyed by the position hash
    out_boards, out_moves, hashes = play_buffers(START_CAPACITY * 4)
    doubles = SearchBuffers(first.stack, first.scratch, out_boards, out_moves, hashes)
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
        # the 1 and the 2 have entered as many checkers as they started from the off
        entered = 0
        for k in range(2):
            if first_moves[q, k, 0] == START:
                entered += 1
        for d in range(1, 7):
            n, doubles = search_board_entering(doubles, first_boards[q], d, d, waiting - entered)
            out_boards, out_moves, hashes = doubles.boards, doubles.moves, doubles.hashes
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
                    if used < res_used[found] or (
                        used == res_used[found] and d >= res_doubles[found]
                    ):
                        continue
                    row = found
                else:
                    if total >= size:
                        res_boards = room(res_boards, total, 4 * size)
                        res_moves = room(res_moves, total, 4 * size)
                        res_doubles = room(res_doubles, total, 4 * size)
                        res_used = room(res_used, total, 4 * size)
                        res_hashes = room(res_hashes, total, 4 * size)
                        size *= 4
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


@njit(cache=True, nogil=True)
def acey_legal(board, d1, d2, checkers):
    """Every legal play of a roll, the 1-2 included (R11.2): the resulting boards,
    their moves (``(n, 4, 2)``, or ``(n, 6, 2)`` for a 1-2) and whether each play
    earns a roll again (all six moves of a 1-2 played)."""
    if d1 + d2 == 3 and d1 != d2:  # 1-2 or 2-1: acey-deucey
        boards, moves, _doubles = acey_deucey_plays(board, checkers)
        n = boards.shape[0]
        again = np.zeros(n, dtype=np.bool_)
        for c in range(n):
            again[c] = moves[c, ACEY_DEUCEY_MOVES - 1, 0] >= 0
        return boards, moves, again
    boards, moves = acey_plays(board, d1, d2, checkers)
    return boards, moves, np.zeros(boards.shape[0], dtype=np.bool_)


@njit(cache=True, nogil=True)
def map_to_bar(source, target, checkers):
    """``source`` into ``target`` (one board) with each side's waiting checkers on its bar."""
    for side in range(2):
        placed = 0
        for col in range(26):
            target[side, col] = source[side, col]
            placed += source[side, col]
        target[side, BAR] += checkers - placed


@njit(cache=True, nogil=True)
def waiting_on_bar(boards, checkers):
    """Boards ``(n, 2, 26)`` with each side's checkers waiting to enter put on its bar.

    What policies and evaluators see (they enter as checkers on the bar do,
    R6.4, R11.1): a new array, every side with exactly ``checkers``.

    >>> import numpy as np
    >>> waiting_on_bar(np.zeros((1, 2, 26), dtype=np.int8), 15)[0, :, 25].tolist()
    [15, 15]
    """
    out = np.empty_like(boards)
    for i in range(boards.shape[0]):
        map_to_bar(boards[i], out[i], checkers)
    return out
