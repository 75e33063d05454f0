"""The hand-made features of gammonlab's neural evaluator (numba kernels).

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
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from .board import BAR, POINTS

__all__ = [
    "break_contact",
    "containment",
    "dance_count",
    "escapes",
    "feature_counts",
    "forward_anchor",
    "hit_pips",
    "masks_counts",
    "shot_count",
    "side_masks",
]

_POINT_BITS = np.int64((1 << (POINTS + 1)) - 2)  # bits 1..24
_HOME_BOARD_SEEN = np.int64(((1 << 6) - 1) << 19)  # bits 19..24: the other side's home board
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
def _highest(mask):
    """The highest set bit of a nonzero mask."""
    return 63 - leading_zeros(mask)


@njit(cache=True, nogil=True, inline="always")
def _hits(occupied, on_bar, blots, held):
    """``(rolls, pips)``: the rolls (of 36) with which a side hits one of ``blots``
    (its numbering), and the sum over the 36 rolls of the pips the farthest-travelled
    blot hit with that roll would lose (0 for a roll that hits nothing).

    ``occupied`` are its points (the bar bit 25 among them), ``on_bar`` its
    checkers on the bar and ``held`` the opposing points, both in its numbering.
    A roll hits when one die carries a checker onto a blot, or both dice in
    either order with the intermediate point open, or a double up to four steps
    with every intermediate point open (R4.2). With checkers on the bar only they
    may move; two or more there only hit where they enter. A blot hit on the
    hitter's point ``j`` stood on its owner's point ``25 - j`` and goes to the
    bar (25): it loses ``j`` pips, so a roll's loss is the highest hit point.
    """
    if blots == 0:
        return 0, 0
    sources = np.int64(1) << BAR if on_bar > 0 else occupied
    single = on_bar < 2  # a checker may go on after its first step
    open_points = ~held & _POINT_BITS
    count = 0
    pips = 0
    for a in range(1, 7):
        direct_a = (sources >> a) & blots
        hit = direct_a
        if single:
            chain = open_points >> a
            further = (sources >> (2 * a)) & chain
            chain &= open_points >> (2 * a)
            further |= (sources >> (3 * a)) & chain
            chain &= open_points >> (3 * a)
            further |= (sources >> (4 * a)) & chain
            hit |= further & blots
        if hit:
            count += 1
            pips += _highest(hit)
        for b in range(a + 1, 7):
            hit = direct_a | ((sources >> b) & blots)
            if single:
                hit |= (sources >> (a + b)) & ((open_points >> a) | (open_points >> b)) & blots
            if hit:
                count += 2
                pips += 2 * _highest(hit)
    return count, pips


@njit(cache=True, nogil=True, inline="always")
def _shots(occupied, on_bar, blots, held):
    """Rolls (of 36) with which a side hits one of ``blots`` (its numbering), as
    :func:`_hits` counts them."""
    return _hits(occupied, on_bar, blots, held)[0]


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
def _break_contact(board, row, occupied, back_against):
    """Pips row ``row``'s checkers need to pass the opposing rearmost checker on
    the opponent's point ``back_against`` (0: none): the sum, over its checkers on
    its points ``p`` above ``25 - back_against`` (the bar 25 among them), of
    ``p - (25 - back_against) + 1``."""
    level = BAR - back_against
    behind = occupied & ~((np.int64(1) << (level + 1)) - 1)
    pips = 0
    while behind:
        col = trailing_zeros(behind)
        behind &= behind - 1
        pips += board[row, col] * (col - level + 1)
    return pips


@njit(cache=True, nogil=True, inline="always")
def _forward_anchor(held):
    """``25 - p`` for the lowest point ``p`` of 19 to 24 in ``held`` (a side's own
    points, in its numbering: its most advanced point in the opposing home
    board), 1 to 6; 0 when it holds none there."""
    anchors = held & _HOME_BOARD_SEEN
    if anchors == 0:
        return 0
    return BAR - trailing_zeros(anchors)


@njit(cache=True, nogil=True, inline="always")
def _dance(on_bar, held):
    """With checkers on the bar (``on_bar > 0``), the rolls (of 36) with which a
    side enters none: ``k * k`` for ``k`` opposing points held in the opposing home
    board (``held``, its points 19 to 24 in its numbering); 0 with none on the bar."""
    if on_bar == 0:
        return 0
    closed = held & _HOME_BOARD_SEEN
    k = 0
    while closed:
        closed &= closed - 1
        k += 1
    return k * k


@njit(cache=True, nogil=True, inline="always")
def masks_counts(board, me, mine, theirs):
    """:func:`feature_counts` of ``board`` with row ``me`` on roll, from the
    :func:`side_masks` of the side on roll (``mine``) and of its opponent (``theirs``)."""
    opp = 1 - me
    on_bar = board[me, BAR]
    on_bar_against = board[opp, BAR]
    occupied_me, held_me, blots_me, held_me_seen, back_me = mine
    occupied_opp, held_opp, blots_opp, held_opp_seen, back_opp = theirs
    shots, pips = _hits(occupied_me, on_bar, blots_opp, held_opp_seen)
    shots_against, pips_against = _hits(occupied_opp, on_bar_against, blots_me, held_me_seen)
    return (
        shots,
        shots_against,
        _longest_run(held_me),
        _longest_run(held_opp),
        _escapes(back_me, held_opp_seen),
        _escapes(back_opp, held_me_seen),
        back_me,
        back_opp,
        _contained(held_opp_seen),
        _contained(held_me_seen),
        pips,
        pips_against,
        _break_contact(board, me, occupied_me, back_opp),
        _break_contact(board, opp, occupied_opp, back_me),
        _forward_anchor(held_me),
        _forward_anchor(held_opp),
        _dance(on_bar, held_opp_seen),
        _dance(on_bar_against, held_me_seen),
    )


@njit(cache=True, nogil=True)
def feature_counts(board, me):
    """The features of ``board`` with row ``me`` on roll, as counts: ``(shots,
    shots_against, prime, prime_against, escapes, escapes_against, back,
    back_against, contained, contained_against, hit_pips, hit_pips_against,
    break_contact, break_contact_against, anchor, anchor_against, dance,
    dance_against)``. The net's inputs are these over 36, 36, 6, 6, 36, 36, 25,
    25, 36, 36, 432, 432, 167, 167, 6, 6, 36, 36
    (:func:`gammonlab._kernels.net.feature_values`).
    """
    return masks_counts(board, me, side_masks(board, me), side_masks(board, 1 - me))


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


@njit(cache=True, nogil=True)
def hit_pips(board, me, opp):
    """The pips row ``opp`` loses to row ``me``'s hits, summed over the 36 rolls
    (0..864; over 36, the expected pip loss of one roll): for each roll with
    which ``me`` hits a blot of ``opp`` (as :func:`shot_count` counts them), the
    pips the blot hit farthest from ``opp``'s bar loses, its point in ``me``'s
    numbering. A feature of the net, not a rule.
    """
    occupied, _, _, _, _ = side_masks(board, me)
    _, _, blots, held, _ = side_masks(board, opp)
    return _hits(occupied, board[me, BAR], blots, held)[1]


@njit(cache=True, nogil=True)
def break_contact(board, me, opp):
    """The pips row ``me``'s checkers must travel to pass row ``opp``'s rearmost
    checker (0..390; 0 when ``opp`` has no checker left): the sum over ``me``'s
    checkers on its points ``p`` above ``25 - b`` (the bar 25 among them), ``b``
    the point of ``opp``'s rearmost checker in ``opp``'s numbering (bar 25), of
    ``p - (25 - b) + 1``. From the standard start it is 167, the pip count. A
    feature of the net, not a rule.
    """
    occupied, _, _, _, _ = side_masks(board, me)
    _, _, _, _, back = side_masks(board, opp)
    return _break_contact(board, me, occupied, back)


@njit(cache=True, nogil=True)
def forward_anchor(board, me):
    """``25 - p`` for the lowest of row ``me``'s points 19 to 24 (the opposing home
    board) holding two or more of its checkers (1..6: 6 on its 19-point, 1 on its
    24-point); 0 when it holds none there. A feature of the net, not a rule."""
    _, held, _, _, _ = side_masks(board, me)
    return _forward_anchor(held)


@njit(cache=True, nogil=True)
def dance_count(board, me, opp):
    """With checkers of row ``me`` on the bar, the rolls (of 36) with which it enters
    none, ``k * k`` for the ``k`` points of ``opp``'s home board (``opp``'s points
    1 to 6) that ``opp`` holds with two or more checkers (R4.2, R4.3); 0 when
    ``me`` has none on the bar. A feature of the net, not a rule."""
    _, _, _, held, _ = side_masks(board, opp)
    return _dance(board[me, BAR], held)
