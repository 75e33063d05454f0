"""The eight hand-made features of gammonlab's neural evaluator (numba kernels).

Boards are ``(2, 26)`` int8 arrays (:mod:`gammonlab._kernels.board`); the
features are described in :mod:`gammonlab._kernels.net`. They are computed
for every candidate play of every roll of every game a net plays, so they are
worked out on bitmasks rather than point by point: one pass over the board
gives, for each side, the points it occupies and holds and, in the other
side's numbering, its blots and the points it holds. Bit ``p`` of a mask
stands for point ``p`` (the bar is bit 25). Moving ``d`` pips down the board
is a right shift by ``d``, so "a checker ``d`` pips above a blot" is
``(sources >> d) & blots`` for all blots at once.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .board import BAR, POINTS

__all__ = ["containment", "escapes", "feature_counts", "masks_counts", "shot_count", "side_masks"]

_POINT_BITS = np.int64((1 << (POINTS + 1)) - 2)  # bits 1..24
_WINDOW = 12
"""The points in front of a checker that :func:`escapes` looks at."""


def _escape_table() -> np.ndarray:
    """Escaping rolls (of 36) for each pattern of held points in front of a checker.

    Bit ``i`` of the pattern says that the point ``i + 1`` pips in front of the
    checker holds two or more opposing checkers (R4.2); points past the 1-point,
    and those more than 12 pips ahead (where a double's third or fourth step
    may stop), count as open. The checker escapes when it lands beyond the furthest
    held point, with one die or with the dice in either order (a double up to four
    times), every point it stops on open.
    """
    table = np.zeros(1 << _WINDOW, dtype=np.int64)
    for pattern in range(1 << _WINDOW):
        held = [bool(pattern >> i & 1) for i in range(_WINDOW)]
        if not any(held):
            table[pattern] = 36
            continue
        furthest = max(i + 1 for i in range(_WINDOW) if held[i])  # pips to the furthest held point

        def blocked(pips: int, held: list[bool] = held) -> bool:
            return pips <= _WINDOW and held[pips - 1]

        count = 0
        for a in range(1, 7):
            for b in range(1, 7):
                if a == b:
                    steps = [a * k for k in range(1, 5)]
                    ok = False
                    for pips in steps:
                        if blocked(pips):
                            break
                        if pips > furthest:
                            ok = True
                            break
                else:
                    ok = any(
                        not blocked(first)
                        and (
                            first > furthest
                            or (first + second > furthest and not blocked(first + second))
                        )
                        for first, second in ((a, b), (b, a))
                    )
                count += ok
        table[pattern] = count
    return table


def _window_table() -> np.ndarray:
    """:func:`_escape_table` indexed by the window of held points as it lies on the
    board: bit ``k`` for the point ``12 - k`` pips in front of the checker, so that
    the window is a plain shift of a mask of points."""
    by_pattern = _escape_table()
    table = np.empty_like(by_pattern)
    for window in range(1 << _WINDOW):
        pattern = 0
        for k in range(_WINDOW):
            if window >> k & 1:
                pattern |= 1 << (_WINDOW - 1 - k)
        table[window] = by_pattern[pattern]
    return table


_ESCAPES = _window_table()


@njit(cache=True, nogil=True, inline="always")
def side_masks(board, row):
    """One pass over row ``row`` of ``board``: ``(occupied, held, blots_seen,
    held_seen, back)``.

    ``occupied`` (points 1..24 and the bar) and ``held`` (two or more checkers)
    are in the row's own numbering; ``blots_seen`` and ``held_seen`` are its
    blots and held points in the other side's numbering (point ``p`` is the
    other side's ``25 - p``); ``back`` is the rearmost checker's point (bar 25),
    0 when none is left.
    """
    occupied = np.int64(0)
    held = np.int64(0)
    blots_seen = np.int64(0)
    held_seen = np.int64(0)
    back = 0
    for col in range(1, POINTS + 1):
        n = board[row, col]
        if n > 0:
            back = col
            occupied |= np.int64(1) << col
            if n >= 2:
                held |= np.int64(1) << col
                held_seen |= np.int64(1) << (BAR - col)
            else:
                blots_seen |= np.int64(1) << (BAR - col)
    if board[row, BAR] > 0:
        back = BAR
        occupied |= np.int64(1) << BAR
    return occupied, held, blots_seen, held_seen, back


@njit(cache=True, nogil=True, inline="always")
def _shots(occupied, on_bar, blots, held):
    """Rolls (of 36) with which a side hits one of ``blots`` (its numbering).

    ``occupied`` are its points (the bar bit 25 among them), ``on_bar`` its
    checkers on the bar and ``held`` the opposing points, both in its numbering.
    A roll hits when one die carries a checker onto a blot, or both dice in
    either order with the intermediate point open, or a double up to four steps
    with every intermediate point open (R4.2). With checkers on the bar only they
    may move; two or more there only hit where they enter.
    """
    if blots == 0:
        return 0
    sources = np.int64(1) << BAR if on_bar > 0 else occupied
    single = on_bar < 2  # a checker may go on after its first step
    open_points = ~held & _POINT_BITS
    direct = 0  # bit a: die a alone hits
    for a in range(1, 7):
        if (sources >> a) & blots:
            direct |= 1 << a
    count = 0
    for a in range(1, 7):
        if direct >> a & 1:
            count += 1
        elif single:
            chain = open_points >> a
            hit = (sources >> (2 * a)) & chain
            chain &= open_points >> (2 * a)
            hit |= (sources >> (3 * a)) & chain
            chain &= open_points >> (3 * a)
            hit |= (sources >> (4 * a)) & chain
            if hit & blots:
                count += 1
        for b in range(a + 1, 7):
            if (direct >> a | direct >> b) & 1:
                count += 2
            elif single and (
                (sources >> (a + b)) & ((open_points >> a) | (open_points >> b)) & blots
            ):
                count += 2
    return count


@njit(cache=True, nogil=True, inline="always")
def _escapes(back, held):
    """Escaping rolls (of 36) of a checker on point ``back`` (0: none) in front of
    the opposing points ``held`` (its numbering)."""
    if back == 0:
        return 0
    shift = back - _WINDOW
    if shift >= 0:
        window = (held >> shift) & ((1 << _WINDOW) - 1)
    else:
        window = (held << -shift) & ((1 << _WINDOW) - 1)
    return _ESCAPES[window]


@njit(cache=True, nogil=True, inline="always")
def _contained(held):
    """The fewest escaping rolls (of 36) of a checker on any of the points 13 to 24
    in front of the opposing points ``held`` (its numbering), as :func:`_escapes`
    counts them."""
    worst = 36
    for source in range(13, POINTS + 1):
        escaping = _escapes(source, held)
        if escaping < worst:
            worst = escaping
    return worst


@njit(cache=True, nogil=True, inline="always")
def _longest_run(held):
    """The longest run of consecutive points in a mask."""
    run = 0
    while held:
        held &= held >> 1
        run += 1
    return run


@njit(cache=True, nogil=True, inline="always")
def masks_counts(mine, theirs, on_bar, on_bar_against):
    """:func:`feature_counts` from the :func:`side_masks` of the side on roll
    (``mine``) and of its opponent (``theirs``), and their checkers on the bar."""
    occupied_me, held_me, blots_me, held_me_seen, back_me = mine
    occupied_opp, held_opp, blots_opp, held_opp_seen, back_opp = theirs
    return (
        _shots(occupied_me, on_bar, blots_opp, held_opp_seen),
        _shots(occupied_opp, on_bar_against, blots_me, held_me_seen),
        _longest_run(held_me),
        _longest_run(held_opp),
        _escapes(back_me, held_opp_seen),
        _escapes(back_opp, held_me_seen),
        back_me,
        back_opp,
        _contained(held_opp_seen),
        _contained(held_me_seen),
    )


@njit(cache=True, nogil=True)
def feature_counts(board, me):
    """The features of ``board`` with row ``me`` on roll, as counts: ``(shots,
    shots_against, prime, prime_against, escapes, escapes_against, back,
    back_against, contained, contained_against)``. The net's inputs are these
    over 36, 36, 6, 6, 36, 36, 25, 25, 36, 36.
    """
    opp = 1 - me
    return masks_counts(
        side_masks(board, me), side_masks(board, opp), board[me, BAR], board[opp, BAR]
    )


@njit(cache=True, nogil=True)
def shot_count(board, me, opp):
    """How many of the 36 rolls let row ``me`` hit a blot of row ``opp`` (0..36).

    A hit lands on a point (1..24, ``me``'s numbering) holding exactly one
    opposing checker, with one die or with a combination of the dice whose
    intermediate points are open (a double up to four steps). With checkers on
    the bar only they may move: a single one may enter and go on, two or more
    only hit where they enter. Bear-off and the rest of R5 are not looked at:
    this is a feature of the net, not a rule.
    """
    occupied, _, _, _, _ = side_masks(board, me)
    _, _, blots, held, _ = side_masks(board, opp)
    return _shots(occupied, board[me, BAR], blots, held)


@njit(cache=True, nogil=True)
def escapes(board, me, opp):
    """How many of the 36 rolls let row ``me``'s rearmost checker pass the opposing
    points held in the 12 points in front of it (0..36; 36 when none is held there,
    0 when ``me`` has no checker left).

    The checker escapes when it lands beyond the furthest such point with one
    die, or with both in either order (a double up to four times), every point
    it stops on holding fewer than two opposing checkers (R4.2). A feature of
    the net, not a rule: R5 and bearing off are not looked at.
    """
    _, _, _, _, back = side_masks(board, me)
    _, _, _, held, _ = side_masks(board, opp)
    return _escapes(back, held)


@njit(cache=True, nogil=True)
def containment(board, me, opp):
    """The fewest of the 36 rolls with which a checker of row ``me`` standing on
    any of its points 13 to 24 would pass the opposing points held in the 12
    points in front of it (0..36), counted as :func:`escapes` counts them.

    It measures the opponent's blockade where ``me``'s back checkers are or may
    come to be: 36 when no opposing point is held in front of the 13-point. A
    feature of the net, not a rule.
    """
    _, _, _, held, _ = side_masks(board, opp)
    return _contained(held)
