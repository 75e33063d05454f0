"""Legal plays: the move generator (R4-R7) as numba kernels.

A board is an int8 array ``(2, 26)``: row 0 is the side on roll, row 1 its
opponent, each row in its own side's numbering (column 0 borne off, 1..24 the
points, 25 the bar). Our point ``p`` is the opponent's point ``25 - p`` (R1.1).

The kernels return every legal play for a roll, unique by resulting position,
each as the resulting board (still seen from the mover: row 0 is the side that
has just moved) and the checker moves that make it, one die at a time, as
``(from, to)`` pairs in the mover's numbering (``to == 0`` is off;
unused slots hold ``-1``).

One search loop serves every variant: Acey-Deucey's checkers still waiting to
enter from off the board (R2.4, R11.1) are one more source, counted rather than
placed on the board; other variants have none waiting. An entry from off the
board is written with the source :data:`START` (26) in a moves array.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .board import BAR, HOME, OFF, START

MAX_MOVES = 4
START_CAPACITY = 256
GAME_CAPACITY = START_CAPACITY * 16
"""Plays the search buffers of a kernel playing whole games start with room for."""

# Random 64-bit weights of a linear position hash: sum(board * WEIGHTS), which a
# checker move updates in constant time. Equal hashes are confirmed cell by cell.
WEIGHTS = np.random.default_rng(20261130).integers(-(2**62), 2**62, size=(2, 26), dtype=np.int64)

__all__ = [
    "GAME_CAPACITY",
    "SearchBuffers",
    "count_plays_batch",
    "generate_plays",
    "generate_plays_batch",
    "play_buffers",
    "plays_into",
    "plays_with_change",
    "replay_changes",
    "room",
    "search_all",
    "search_all_entering",
    "search_board",
    "search_board_entering",
    "search_buffers",
    "swap_into",
    "swap_sides",
]


# Layout of the int64 scratch array of the search, one slot per depth 0..4.
_HASH = 0
_NEXT = 5
_HAD_CHILD = 10
_HOME = 15
_WAITING = 20  # checkers waiting to enter from off the board (R11.1)
_MOVES = 25  # 4 moves x (from, to)
SCRATCH = 33


def _make_search(entering):
    """The search loop, compiled for ``entering`` (Acey-Deucey) or not.

    ``entering`` is a constant of the compiled function: numba drops the code
    behind ``if entering`` from the other variants' search, which runs exactly as
    if that code were not there.
    """

    def search(stack, scratch, die1, die2, waiting, out_boards, out_moves, hashes):
        """Every legal play of ``stack[0]`` for the roll, written to the ``out_*`` arrays.

        ``waiting`` counts the mover's checkers not yet entered from off the board
        (Acey-Deucey, R11.1; 0 in the other variants). They enter like checkers
        on the bar (die ``n`` to point ``25 - n``), after the bar is empty (R6.3),
        and are written with the source :data:`START`.

        One self-contained loop: the helpers a reader would expect (destination,
        apply, record) are written out in place, because every call taking arrays
        costs numba two atomic reference-count operations per array, which
        dominated the run time.

        The search is depth-first over the dice. Non-doubles are searched in both
        orders; doubles (R4.5) once, with the points moved from never increasing:
        any legal sequence can be so reordered (moves only go down the board and
        hits only remove blots), so each set of moves is seen once. The bar slot
        doubles as the entry from off the board: both enter on the same points,
        and a waiting checker may enter only once the bar is empty (R6.3), so in
        the order bar, off the board, 24 .. 1 the slot means the bar while it holds
        a checker and the waiting checkers after.
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
        for side in range(2):
            for col in range(26):
                h0 += stack[0, side, col] * WEIGHTS[side, col]
        scratch[_HASH] = h0
        if entering:
            scratch[_WAITING] = waiting
        # R7.1: bearing off starts only when every checker is in the home board,
        # none of them still waiting to enter (R11.1)
        home0 = 1 if not entering or waiting == 0 else 0
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
                # -- the next checker at this depth that may move ``die`` (R4, R6, R7, R11.1)
                source = scratch[_NEXT + depth]
                target = -1
                if (
                    entering
                    and source == BAR
                    and scratch[_WAITING + depth] > 0
                    and (stack[depth, 0, BAR] == 0)
                ):
                    # R11.1: the bar is empty (R6.3), a waiting checker may enter on
                    # the same point as from the bar (R6.4); checked here, once per
                    # step, to keep the loop over the points as it is for other variants
                    if stack[depth, 1, die] < 2:
                        target = BAR - die
                    else:
                        source -= 1
                if target < 0:
                    while source >= 1:
                        if stack[depth, 0, source] > 0 and (
                            source == BAR or stack[depth, 0, BAR] == 0
                        ):  # R6.3
                            t = source - die
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
                        source -= 1
                leaf = -1
                if source >= 1:
                    scratch[_HAD_CHILD + depth] = 1
                    scratch[_NEXT + depth] = source - 1
                    # -- play it on the next level of the stack
                    nxt = depth + 1
                    for side in range(2):
                        for col in range(26):
                            stack[nxt, side, col] = stack[depth, side, col]
                    moved_from = source
                    if entering and source == BAR and stack[depth, 0, BAR] == 0:
                        # R11.1: a checker enters from off the board
                        moved_from = START
                        scratch[_WAITING + nxt] = scratch[_WAITING + depth] - 1
                        h = scratch[_HASH + depth] + WEIGHTS[0, target]
                    else:
                        if entering:
                            scratch[_WAITING + nxt] = scratch[_WAITING + depth]
                        stack[nxt, 0, source] -= 1
                        h = scratch[_HASH + depth] - WEIGHTS[0, source] + WEIGHTS[0, target]
                    stack[nxt, 0, target] += 1
                    if target != OFF and stack[nxt, 1, BAR - target] == 1:
                        # R6.1: landing on a blot hits it
                        stack[nxt, 1, BAR - target] = 0
                        stack[nxt, 1, BAR] += 1
                        h += WEIGHTS[1, BAR] - WEIGHTS[1, BAR - target]
                    scratch[_HASH + nxt] = h
                    scratch[_MOVES + 2 * depth] = moved_from
                    scratch[_MOVES + 2 * depth + 1] = target
                    if nxt == n_dice:
                        leaf = nxt
                    else:
                        depth = nxt
                        scratch[_NEXT + depth] = source if doubles else BAR
                        scratch[_HAD_CHILD + depth] = 0
                        home = scratch[_HOME + depth - 1]
                        if home == 0 and (not entering or scratch[_WAITING + depth] == 0):
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
                                differences = 0  # branch-free, so it vectorises
                                for side in range(2):
                                    for col in range(26):
                                        differences += (
                                            out_boards[i, side, col] != stack[leaf, side, col]
                                        )
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

    return njit(cache=True)(search)


_search_entering = _make_search(True)
"""The search with checkers waiting off the board (Acey-Deucey, R11.1)."""
_search_standard = _make_search(False)


# -- buffers: the one place that grows an output and searches again --------------------------


class SearchBuffers(NamedTuple):
    """Everything a search works in (numba takes it as one argument)."""

    stack: np.ndarray
    """int8 ``(MAX_MOVES + 1, 2, 26)``: the boards of the search, its first level the position."""
    scratch: np.ndarray
    """int64 ``(SCRATCH,)``: the search's bookkeeping."""
    boards: np.ndarray
    """int8 ``(capacity, 2, 26)``: the plays found, as resulting boards seen from the mover."""
    moves: np.ndarray
    """int8 ``(capacity, MAX_MOVES, 2)``: their checker moves."""
    hashes: np.ndarray
    """int64 ``(capacity,)``: their hashes."""


@njit(cache=True, nogil=True)
def play_buffers(capacity):
    """Empty output arrays of the search for ``capacity`` plays: ``(boards, moves, hashes)``."""
    return (
        np.empty((capacity, 2, 26), dtype=np.int8),
        np.empty((capacity, MAX_MOVES, 2), dtype=np.int8),
        np.empty(capacity, dtype=np.int64),
    )


@njit(cache=True, nogil=True)
def search_buffers(capacity):
    """:class:`SearchBuffers` with room for ``capacity`` plays."""
    boards, moves, hashes = play_buffers(capacity)
    return SearchBuffers(
        np.empty((MAX_MOVES + 1, 2, 26), dtype=np.int8),
        np.empty(SCRATCH, dtype=np.int64),
        boards,
        moves,
        hashes,
    )


def _make_search_all(search):
    """``search`` run until its output arrays hold every play, grown fourfold each time:
    ``(search_all, search_board)``."""

    def search_all(buffers, die1, die2, waiting):
        """Every legal play of ``buffers.stack[0]`` (the search leaves it as it is).

        Returns ``(n, buffers)``: the number of plays and the :class:`SearchBuffers`
        holding them, the given ones or ones with larger outputs that the caller
        keeps using.
        """
        stack, scratch, boards, moves, hashes = buffers
        n = search(stack, scratch, die1, die2, waiting, boards, moves, hashes)
        while n < 0:
            boards, moves, hashes = play_buffers(4 * boards.shape[0])
            n = search(stack, scratch, die1, die2, waiting, boards, moves, hashes)
        return n, SearchBuffers(stack, scratch, boards, moves, hashes)

    # inlined where called, so that passing the buffers in and out costs nothing per search
    compiled = njit(cache=True, nogil=True, inline="always")(search_all)

    def search_board(buffers, board, die1, die2, waiting):
        """:func:`search_all` of ``board``, copied to the first level of the stack."""
        for side in range(2):
            for col in range(26):
                buffers.stack[0, side, col] = board[side, col]
        return compiled(buffers, die1, die2, waiting)

    return compiled, njit(cache=True, nogil=True, inline="always")(search_board)


search_all, search_board = _make_search_all(_search_standard)
"""Every legal play, the output grown as needed; ``waiting`` is 0 (no checker waits)."""
search_all_entering, search_board_entering = _make_search_all(_search_entering)
"""The same with checkers waiting to enter from off the board (Acey-Deucey, R11.1)."""


@njit(cache=True, nogil=True, inline="always")
def swap_sides(board):
    """Swap the rows of ``board`` in place: the position seen from the other side."""
    for col in range(26):
        held = board[0, col]
        board[0, col] = board[1, col]
        board[1, col] = held


@njit(cache=True, nogil=True, inline="always")
def swap_into(source, target):
    """``source`` with its rows swapped into ``target``: seen from the other side."""
    for col in range(26):
        target[0, col] = source[1, col]
        target[1, col] = source[0, col]


@njit(cache=True, nogil=True, inline="always")
def room(rows, total, needed):
    """``rows`` if it has ``needed`` rows, else a longer array (twice as long, or
    ``needed``) holding its first ``total`` rows: how a concatenated output grows."""
    if needed <= rows.shape[0]:
        return rows
    shape = (max(2 * rows.shape[0], needed),) + rows.shape[1:]  # noqa: RUF005 (numba)
    grown = np.empty(shape, dtype=rows.dtype)
    grown[:total] = rows[:total]
    return grown


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
    stack = np.empty((MAX_MOVES + 1, 2, 26), dtype=np.int8)
    scratch = np.empty(SCRATCH, dtype=np.int64)
    for side in range(2):
        for col in range(26):
            stack[0, side, col] = board[side, col]
    return _search_standard(stack, scratch, die1, die2, 0, out_boards, out_moves, hashes)


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
    n, buffers = search_board(search_buffers(START_CAPACITY), board, die1, die2, 0)
    return buffers.boards[:n].copy(), buffers.moves[:n].copy()


@njit(cache=True)
def count_plays_batch(boards, dice):
    """The number of legal plays (int32 ``(n,)``) of each ``(board, roll)`` of a
    batch, given as :func:`generate_plays_batch` takes it."""
    n = boards.shape[0]
    counts = np.empty(n, dtype=np.int32)
    buffers = search_buffers(START_CAPACITY * 4)
    for i in range(n):
        c, buffers = search_board(buffers, boards[i], dice[i, 0], dice[i, 1], 0)
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
    all_boards, all_moves, _ = play_buffers(max(16, n * 24))
    buffers = search_buffers(START_CAPACITY * 4)
    total = 0
    for i in range(n):
        c, buffers = search_board(buffers, boards[i], dice[i, 0], dice[i, 1], 0)
        all_boards = room(all_boards, total, total + c)
        all_moves = room(all_moves, total, total + c)
        all_boards[total : total + c] = buffers.boards[:c]
        all_moves[total : total + c] = buffers.moves[:c]
        total += c
        offsets[i + 1] = total
    return offsets, all_boards[:total].copy(), all_moves[:total].copy()


@njit(cache=True)
def plays_with_change(boards, board, change):
    """Indices of the plays whose mover's row is ``board[0] + change``: the row a
    written play leaves, found in one pass. None when that row counts fewer than
    no checkers on a slot (the play moves checkers that are not there).

    Parameters
    ----------
    boards : int8 array (n, 2, 26)
        Resulting boards of the legal plays, as :func:`generate_plays` returns them.
    board : int8 array (2, 26)
        The board the plays are made from.
    change : int8 array (26,)
        Checkers put on (positive) and taken from (negative) each slot of row 0.

    Returns
    -------
    int64 array
    """
    row = np.empty(26, dtype=np.int64)
    for col in range(26):
        count = np.int64(board[0, col]) + np.int64(change[col])
        if count < 0:
            return np.empty(0, dtype=np.int64)
        row[col] = count
    found = np.empty(boards.shape[0], dtype=np.int64)
    k = 0
    for i in range(boards.shape[0]):
        same = True
        for col in range(26):
            if boards[i, 0, col] != row[col]:
                same = False
                break
        if same:
            found[k] = i
            k += 1
    return found[:k]


@njit(cache=True)
def replay_changes(board, turns):
    """The written plays of a game's turns, sides alternating, found among the legal
    plays of each in one call: turn ``i`` leaves the mover's row ``turns[i, :26]``
    away from where it was (:func:`plays_with_change`) with the dice
    ``turns[i, 26:28]``. A zero change is a roll no number of which can be played
    (R5.5).

    The replay stops at the first turn whose change no legal play makes, or that
    plays leaving different boards make (they hit different blots on the way: the
    caller chooses among them, then replays the turns after).

    Parameters
    ----------
    board : int8 array (2, 26)
        The board of the first turn, seen from its mover.
    turns : int8 array (m, 28)
        Each turn's change of the mover's row, then its dice.

    Returns
    -------
    done : int
        How many turns were replayed (the first ``done``).
    choose : bool
        Whether turn ``done`` stopped the replay with plays to choose from.
    befores : int8 array (m + 1, 2, 26)
        The board of each turn, seen from its mover; ``befores[done]`` the board after.
    results : int8 array (m, 2, 26)
        The board each play leaves, seen from its mover.
    n_legal : int64 array (m,)
        How many legal plays each roll had.
    offsets : int64 array (m + 1,)
        The plays that leave turn ``i``'s row are rows ``offsets[i]:offsets[i + 1]``
        of ``found`` and ``found_boards``.
    found : int8 array (total, 4, 2)
        Their checker moves.
    found_boards : int8 array (total, 2, 26)
        The boards they leave, seen from the mover.
    """
    m = turns.shape[0]
    befores = np.zeros((m + 1, 2, 26), dtype=np.int8)
    results = np.zeros((m, 2, 26), dtype=np.int8)
    n_legal = np.zeros(m, dtype=np.int64)
    offsets = np.zeros(m + 1, dtype=np.int64)
    found_boards, found, _ = play_buffers(max(4, m))
    buffers = search_buffers(START_CAPACITY)
    row = np.empty(26, dtype=np.int64)
    befores[0] = board
    total = 0
    done = 0
    choose = False
    for i in range(m):
        before = befores[i]
        die1 = np.int64(turns[i, 26])
        die2 = np.int64(turns[i, 27])
        n, buffers = search_board(buffers, before, die1, die2, 0)
        n_legal[i] = n
        moved = False
        possible = True
        for col in range(26):
            count = np.int64(before[0, col]) + np.int64(turns[i, col])
            if turns[i, col] != 0:
                moved = True
            if count < 0:
                possible = False
            row[col] = count
        start = total
        if not moved:
            if n != 0:
                break
            results[i] = before
        else:
            if n == 0 or not possible:
                break
            for k in range(n):
                same = True
                for col in range(26):
                    if buffers.boards[k, 0, col] != row[col]:
                        same = False
                        break
                if same:
                    found = room(found, total, total + 1)
                    found_boards = room(found_boards, total, total + 1)
                    found[total] = buffers.moves[k]
                    found_boards[total] = buffers.boards[k]
                    total += 1
            if total == start:
                break
            offsets[i + 1] = total
            for k in range(start + 1, total):
                for col in range(26):
                    if found_boards[k, 1, col] != found_boards[start, 1, col]:
                        choose = True
            if choose:
                break
            results[i] = found_boards[start]
        offsets[i + 1] = total
        swap_into(results[i], befores[i + 1])
        done = i + 1
    return (
        done,
        choose,
        befores,
        results,
        n_legal,
        offsets,
        found[:total].copy(),
        found_boards[:total].copy(),
    )
