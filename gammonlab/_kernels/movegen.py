"""Legal plays: the move generator (R4-R7) as numba kernels.

A board is an int8 array ``(2, 26)``: row 0 is the side on roll, row 1 its
opponent, each row in its own side's numbering (column 0 borne off, 1..24 the
points, 25 the bar). Our point ``p`` is the opponent's point ``25 - p`` (R1.1).

The kernels return every legal play for a roll, unique by resulting position,
each as the resulting board (still seen from the mover: row 0 is the side that
has just moved) and the checker moves that make it, one die at a time, as
``(from, to)`` pairs in the mover's numbering (``to == 0`` is off;
unused slots hold ``-1``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

OFF = 0
BAR = 25
HOME = 6
MAX_MOVES = 4
START_CAPACITY = 256

__all__ = [
    "generate_plays",
    "generate_plays_batch",
    "count_plays_batch",
    "plays_into",
]


@njit(cache=True, inline="always")
def _all_home(row):
    # R7.1: bearing off starts only when every checker is in the home board.
    for point in range(HOME + 1, BAR + 1):
        if row[point] > 0:
            return False
    return True


@njit(cache=True)
def _destination(board, source, die):
    """Where a checker from ``source`` lands with ``die``; -1 if it may not move."""
    me = board[0]
    if me[source] == 0:
        return -1
    if me[BAR] > 0 and source != BAR:
        return -1  # R6.3: nothing else moves while a checker is on the bar
    target = source - die
    if target >= 1:
        # R4.2 / R6.4: a point held by two or more opponent checkers is blocked
        if board[1, BAR - target] >= 2:
            return -1
        return target
    if not _all_home(me):
        return -1  # R7.1
    if target == 0:
        return OFF  # R7.2
    # R7.3 / R7.4: a larger die bears off only from the highest occupied point
    for point in range(source + 1, HOME + 1):
        if me[point] > 0:
            return -1
    return OFF


@njit(cache=True, inline="always")
def _apply(src_board, dst_board, source, target):
    """Copy ``src_board`` to ``dst_board`` and move one checker; return 1 on a hit."""
    for side in range(2):
        for col in range(26):
            dst_board[side, col] = src_board[side, col]
    dst_board[0, source] -= 1
    dst_board[0, target] += 1
    if target != OFF and dst_board[1, BAR - target] == 1:
        # R6.1: landing on a blot hits it
        dst_board[1, BAR - target] = 0
        dst_board[1, BAR] += 1
        return 1
    return 0


@njit(cache=True, inline="always")
def _board_hash(board):
    h = np.int64(1469598103934665603)
    for side in range(2):
        for col in range(26):
            h = (h ^ np.int64(board[side, col] + 1)) * np.int64(1099511628211)
    return h


@njit(cache=True)
def _record(board, moves, n_moves, out_boards, out_moves, hashes, count):
    """Store a play unless its resulting position is already stored.

    Returns the new count, or -1 when the output arrays are full.
    """
    h = _board_hash(board)
    for i in range(count):
        if hashes[i] == h:
            same = True
            for side in range(2):
                for col in range(26):
                    if out_boards[i, side, col] != board[side, col]:
                        same = False
                        break
                if not same:
                    break
            if same:
                return count
    if count >= out_boards.shape[0]:
        return -1
    for side in range(2):
        for col in range(26):
            out_boards[count, side, col] = board[side, col]
    for m in range(MAX_MOVES):
        if m < n_moves:
            out_moves[count, m, 0] = moves[m, 0]
            out_moves[count, m, 1] = moves[m, 1]
        else:
            out_moves[count, m, 0] = -1
            out_moves[count, m, 1] = -1
    hashes[count] = h
    return count + 1


@njit(cache=True)
def _plays_non_doubles(board, high, low, out_boards, out_moves, hashes):
    stack = np.empty((3, 2, 26), dtype=np.int8)
    moves = np.full((MAX_MOVES, 2), -1, dtype=np.int8)
    count = 0
    for order in range(2):
        first = high if order == 0 else low
        second = low if order == 0 else high
        for s1 in range(BAR, 0, -1):
            t1 = _destination(board, s1, first)
            if t1 < 0:
                continue
            _apply(board, stack[1], s1, t1)
            moves[0, 0] = s1
            moves[0, 1] = t1
            for s2 in range(BAR, 0, -1):
                t2 = _destination(stack[1], s2, second)
                if t2 < 0:
                    continue
                _apply(stack[1], stack[2], s2, t2)
                moves[1, 0] = s2
                moves[1, 1] = t2
                count = _record(stack[2], moves, 2, out_boards, out_moves, hashes, count)
                if count < 0:
                    return -1
    if count > 0:
        return count  # R5.1: both numbers are played whenever some sequence allows it
    # R5.2 / R5.3: one number only; the larger one if it can be played at all
    for die in (high, low):
        for s1 in range(BAR, 0, -1):
            t1 = _destination(board, s1, die)
            if t1 < 0:
                continue
            _apply(board, stack[1], s1, t1)
            moves[0, 0] = s1
            moves[0, 1] = t1
            count = _record(stack[1], moves, 1, out_boards, out_moves, hashes, count)
            if count < 0:
                return -1
        if count > 0:
            return count
    return 0  # R5.5: no number can be played, the turn is lost


@njit(cache=True)
def _plays_doubles(board, die, out_boards, out_moves, hashes):
    # R4.5 / R5.4: four moves of the same number, as many as can be played.
    # Any legal sequence can be reordered so that the points moved from never
    # increase (moves only go down the board and hits only remove blots), so
    # the search visits sources in non-increasing order and sees each set of
    # moves once.
    stack = np.empty((MAX_MOVES + 1, 2, 26), dtype=np.int8)
    for col in range(26):
        stack[0, 0, col] = board[0, col]
        stack[0, 1, col] = board[1, col]
    moves = np.full((MAX_MOVES, 2), -1, dtype=np.int8)
    next_source = np.zeros(MAX_MOVES + 1, dtype=np.int64)
    had_child = np.zeros(MAX_MOVES + 1, dtype=np.bool_)
    best_depth = 0
    count = 0
    depth = 0
    next_source[0] = BAR
    had_child[0] = False
    while depth >= 0:
        source = next_source[depth]
        target = -1
        while source >= 1:
            target = _destination(stack[depth], source, die)
            if target >= 0:
                break
            source -= 1
        if source >= 1:
            had_child[depth] = True
            next_source[depth] = source - 1
            _apply(stack[depth], stack[depth + 1], source, target)
            moves[depth, 0] = source
            moves[depth, 1] = target
            if depth + 1 == MAX_MOVES:
                if best_depth < MAX_MOVES:
                    best_depth = MAX_MOVES
                    count = 0
                count = _record(stack[MAX_MOVES], moves, MAX_MOVES, out_boards, out_moves,
                                hashes, count)
                if count < 0:
                    return -1
            else:
                depth += 1
                next_source[depth] = source
                had_child[depth] = False
            continue
        # every source at this depth is tried
        if not had_child[depth] and depth > 0 and depth >= best_depth:
            if depth > best_depth:
                best_depth = depth
                count = 0
            count = _record(stack[depth], moves, depth, out_boards, out_moves, hashes, count)
            if count < 0:
                return -1
        depth -= 1
    return count


@njit(cache=True)
def plays_into(board, die1, die2, out_boards, out_moves, hashes):
    """Write the legal plays of ``board`` for a roll into preallocated arrays.

    Parameters
    ----------
    board : int8 array (2, 26)
    die1, die2 : int
        The roll, in any order.
    out_boards : int8 array (capacity, 2, 26)
        Resulting boards, seen from the mover.
    out_moves : int8 array (capacity, 4, 2)
        Checker moves of each play, ``(from, to)``, unused slots ``-1``.
    hashes : int64 array (capacity,)
        Scratch space.

    Returns
    -------
    int
        Number of plays written (0 when no number can be played, R5.5), or -1
        when ``capacity`` is too small.
    """
    if die1 == die2:
        return _plays_doubles(board, die1, out_boards, out_moves, hashes)
    high = max(die1, die2)
    low = min(die1, die2)
    return _plays_non_doubles(board, high, low, out_boards, out_moves, hashes)


@njit(cache=True)
def generate_plays(board, die1, die2):
    """Every legal play of ``board`` for the roll ``die1``-``die2``.

    Returns
    -------
    boards : int8 array (n, 2, 26)
        The resulting boards, seen from the mover (row 0 has just moved).
    moves : int8 array (n, 4, 2)
        The checker moves of each play, one die at a time.
    """
    capacity = START_CAPACITY
    while True:
        out_boards = np.empty((capacity, 2, 26), dtype=np.int8)
        out_moves = np.empty((capacity, MAX_MOVES, 2), dtype=np.int8)
        hashes = np.empty(capacity, dtype=np.int64)
        n = plays_into(board, die1, die2, out_boards, out_moves, hashes)
        if n >= 0:
            return out_boards[:n].copy(), out_moves[:n].copy()
        capacity *= 4


@njit(cache=True)
def count_plays_batch(boards, dice):
    """Number of legal plays for each ``(board, roll)`` of a batch.

    Parameters
    ----------
    boards : int8 array (n, 2, 26)
    dice : integer array (n, 2)

    Returns
    -------
    int32 array (n,)
    """
    n = boards.shape[0]
    counts = np.empty(n, dtype=np.int32)
    capacity = START_CAPACITY * 4
    out_boards = np.empty((capacity, 2, 26), dtype=np.int8)
    out_moves = np.empty((capacity, MAX_MOVES, 2), dtype=np.int8)
    hashes = np.empty(capacity, dtype=np.int64)
    for i in range(n):
        while True:
            c = plays_into(boards[i], dice[i, 0], dice[i, 1], out_boards, out_moves, hashes)
            if c >= 0:
                break
            capacity *= 4
            out_boards = np.empty((capacity, 2, 26), dtype=np.int8)
            out_moves = np.empty((capacity, MAX_MOVES, 2), dtype=np.int8)
            hashes = np.empty(capacity, dtype=np.int64)
        counts[i] = c
    return counts


@njit(cache=True)
def generate_plays_batch(boards, dice):
    """Every legal play for each ``(board, roll)`` of a batch, concatenated.

    Parameters
    ----------
    boards : int8 array (n, 2, 26)
    dice : integer array (n, 2)

    Returns
    -------
    offsets : int64 array (n + 1,)
        The plays of item ``i`` are rows ``offsets[i]:offsets[i + 1]``.
    result_boards : int8 array (total, 2, 26)
        Resulting boards, seen from the mover.
    moves : int8 array (total, 4, 2)
        Checker moves of each play.
    """
    n = boards.shape[0]
    offsets = np.zeros(n + 1, dtype=np.int64)
    total_capacity = max(16, n * 24)
    all_boards = np.empty((total_capacity, 2, 26), dtype=np.int8)
    all_moves = np.empty((total_capacity, MAX_MOVES, 2), dtype=np.int8)
    capacity = START_CAPACITY * 4
    out_boards = np.empty((capacity, 2, 26), dtype=np.int8)
    out_moves = np.empty((capacity, MAX_MOVES, 2), dtype=np.int8)
    hashes = np.empty(capacity, dtype=np.int64)
    total = 0
    for i in range(n):
        while True:
            c = plays_into(boards[i], dice[i, 0], dice[i, 1], out_boards, out_moves, hashes)
            if c >= 0:
                break
            capacity *= 4
            out_boards = np.empty((capacity, 2, 26), dtype=np.int8)
            out_moves = np.empty((capacity, MAX_MOVES, 2), dtype=np.int8)
            hashes = np.empty(capacity, dtype=np.int64)
        if total + c > total_capacity:
            new_capacity = max(2 * total_capacity, total + c)
            grown_boards = np.empty((new_capacity, 2, 26), dtype=np.int8)
            grown_moves = np.empty((new_capacity, MAX_MOVES, 2), dtype=np.int8)
            grown_boards[:total] = all_boards[:total]
            grown_moves[:total] = all_moves[:total]
            all_boards = grown_boards
            all_moves = grown_moves
            total_capacity = new_capacity
        all_boards[total:total + c] = out_boards[:c]
        all_moves[total:total + c] = out_moves[:c]
        total += c
        offsets[i + 1] = total
    return offsets, all_boards[:total].copy(), all_moves[:total].copy()
