"""gammonlab's neural evaluator: inputs, forward pass and policy (numba kernels).

Boards are ``(2, 26)`` int8 arrays, row 0 on roll (see
:mod:`gammonlab._kernels.movegen`). A net maps a position, seen from the side
on roll before it rolls, to GNU Backgammon's five probabilities: win, win
gammon, win backgammon, lose gammon, lose backgammon.

Phases
------
Two, three, five or nine nets share one layout: the **contact** net (:data:`CONTACT`)
for positions where some checker still has to pass an opposing one, the
**race** net (:data:`RACE`) for the others
(:func:`gammonlab._kernels.pubeval.pubeval_is_race`), and, where the weights
hold more nets, nets for parts of contact, told apart by the sum of the two
rearmost checkers' points (each side in its own numbering, the bar 25;
:func:`phase_of`):

- three nets: the **deep contact** net (:data:`DEEP`) for a sum over
  :data:`DEEP_BACK_SUM` (both sides still have checkers far back, as in the
  opening, holding and back games), the contact net for the rest;
- five nets: the contact positions in four parts, **late contact**
  (:data:`LATE`, a sum of :data:`LATE_BACK_SUM` or less: the rearmost checkers
  are close to passing), **contact** (up to :data:`DEEP_BACK_SUM`), **deep
  contact** (below :data:`BOTH_BACK_SUM`) and **both back** (:data:`BOTH_BACK`:
  both sides' rearmost checkers on the opposing ace point or the bar, or one
  on the bar and the other on the 23 point);
- nine nets: each of those four parts in two, the first net of each for its
  lower sums (late contact up to 30, contact up to 38, deep contact up to 45,
  both back at 48) and :data:`LATE_FAR`, :data:`CONTACT_FAR`,
  :data:`DEEP_FAR` and :data:`BOTH_BACK_BAR` (49 and 50: a side on the bar) for
  the rest (:data:`CONTACT_PARTS`).

With two nets the contact net values all contact positions. When both sides
bear off (every checker home), the one-sided bear-off database gives the
probabilities instead (:func:`gammonlab._kernels.outcome.bearoff_probabilities`).

Inputs (:data:`N_INPUTS`)
-------------------------
For each side, the side on roll first (offset 0) and then the opponent (offset
:data:`SIDE_INPUTS`), each in its own numbering:

- points 1..24 and the bar (column 25): four inputs each, at ``4 * (col - 1)``:
  one checker or more, two or more, three or more, and ``(n - 3) / 2`` for
  ``n >= 4`` (Tesauro's truncated unary code, which gives the count exactly);
- checkers borne off: ``n / 15``.

Then eighteen features (:data:`N_FEATURES`) that a linear layer cannot form
from those:

- :data:`F_SHOTS`: the share of the 36 rolls with which the side on roll can
  hit a blot of the opponent (directly or with a combination whose
  intermediate point is open; from the bar only when it has checkers there);
- :data:`F_SHOTS_AGAINST`: the same for the opponent against the side on roll;
- :data:`F_PRIME`, :data:`F_PRIME_AGAINST`: each side's longest run of
  consecutive points held with two or more checkers, divided by 6;
- :data:`F_ESCAPES`, :data:`F_ESCAPES_AGAINST`: the share of the 36 rolls
  with which each side's rearmost checker passes the opposing points held in
  the 12 points in front of it (:func:`~gammonlab._kernels.net_features.escapes`);
- :data:`F_BACK`, :data:`F_BACK_AGAINST`: each side's rearmost checker's
  point (bar 25), divided by 25;
- :data:`F_CONTAINED`, :data:`F_CONTAINED_AGAINST`: how well the opposing
  points hold in each side's checkers: the share of the 36 rolls with which
  a checker escapes, at the worst of the points 13 to 24
  (:func:`~gammonlab._kernels.net_features.containment`);
- :data:`F_HIT_PIPS`, :data:`F_HIT_PIPS_AGAINST`: the pips each side's hits
  would cost the other side on its next roll, summed over the 36 rolls (for
  each roll the farthest-travelled blot it hits), divided by 12 x 36: the
  expected pip loss of one roll over 12
  (:func:`~gammonlab._kernels.net_features.hit_pips`);
- :data:`F_BREAK_CONTACT`, :data:`F_BREAK_CONTACT_AGAINST`: the pips each
  side's checkers must travel to pass the opposing rearmost checker, divided
  by 167 (1 from the standard start;
  :func:`~gammonlab._kernels.net_features.break_contact`);
- :data:`F_ANCHOR`, :data:`F_ANCHOR_AGAINST`: each side's most advanced point
  held in the opposing home board, ``25 - p`` for its point ``p`` of 19 to 24,
  divided by 6; 0 when it holds none there
  (:func:`~gammonlab._kernels.net_features.forward_anchor`);
- :data:`F_DANCE`, :data:`F_DANCE_AGAINST`: for a side with checkers on the
  bar, the share of the 36 rolls with which it enters none (``k * k / 36``
  for ``k`` closed points of the opposing home board); 0 with none on the bar
  (:func:`~gammonlab._kernels.net_features.dance_count`).

Layers
------
``hidden = relu(b1 + sum of the rows of W1 over the active inputs, each times
its value)``, the sum that the sparse inputs allow (at most 140 of the 220
rows are touched, usually about 37); ``z = b2 + W2 @ hidden``; then
the outputs are chained so that they are consistent by construction::

    win = s(z0), win_gammon = win * s(z1), win_backgammon = win_gammon * s(z2)
    lose_gammon = (1 - win) * s(z3), lose_backgammon = lose_gammon * s(z4)

with ``s`` the logistic function. A side that has borne off a checker cannot
lose a gammon (R8.2): those two outputs are then exactly zero.

Weights: ``w1`` float32 ``(nets, N_INPUTS, H)``, ``b1`` ``(nets, H)``, ``w2``
``(nets, 5, H)``, ``b2`` ``(nets, 5)``, ``nets`` 2, 3, 5 or 9; the first index
is the phase. The kernels
that play take them as one argument, the tuple ``weights = (w1, b1, w2, b2)``.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from .board import BAR, OFF, POINTS
from .net_features import feature_counts
from .pubeval import rearmost

__all__ = [
    "BOTH_BACK",
    "BOTH_BACK_BAR",
    "BOTH_BACK_SUM",
    "CONTACT",
    "CONTACT_FAR",
    "CONTACT_PARTS",
    "DEEP",
    "DEEP_BACK_SUM",
    "DEEP_FAR",
    "F_ANCHOR",
    "F_ANCHOR_AGAINST",
    "F_BACK",
    "F_BACK_AGAINST",
    "F_BREAK_CONTACT",
    "F_BREAK_CONTACT_AGAINST",
    "F_CONTAINED",
    "F_CONTAINED_AGAINST",
    "F_DANCE",
    "F_DANCE_AGAINST",
    "F_ESCAPES",
    "F_ESCAPES_AGAINST",
    "F_HIT_PIPS",
    "F_HIT_PIPS_AGAINST",
    "F_PRIME",
    "F_PRIME_AGAINST",
    "F_SHOTS",
    "F_SHOTS_AGAINST",
    "LATE",
    "LATE_BACK_SUM",
    "LATE_FAR",
    "MAX_ACTIVE",
    "MAX_BACK_SUM",
    "NET_COUNTS",
    "N_FEATURES",
    "N_INPUTS",
    "N_OUTPUTS",
    "OFF_INPUT",
    "PHASES",
    "RACE",
    "SIDE_INPUTS",
    "active_inputs",
    "add_borne_off",
    "add_feature_counts",
    "add_features",
    "add_occupied",
    "add_point",
    "add_row",
    "add_side",
    "chain_probabilities",
    "change_point",
    "evaluate_one",
    "feature_values",
    "hidden_layer",
    "hidden_logits",
    "logistic",
    "logits",
    "net_inputs",
    "net_phase",
    "output_layer",
    "output_logits",
    "phase_of",
]

CONTACT = 0
RACE = 1
DEEP = 2
LATE = 3
BOTH_BACK = 4
LATE_FAR = 5
CONTACT_FAR = 6
DEEP_FAR = 7
BOTH_BACK_BAR = 8
NET_COUNTS = (2, 3, 5, 9)
"""The numbers of nets a file may hold: of the nets above (their indices), a
file of two holds the first two, a file of three the first three, and so on."""
DEEP_BACK_SUM = 42
"""Contact is deep when the two rearmost checkers' points sum to more than this
(the starting position's sum is 48; about half of the contact positions of
self-play games are deep)."""
LATE_BACK_SUM = 34
"""With five nets or more, contact is late when the two rearmost checkers'
points sum to this or less (about a quarter of the contact positions of
self-play games)."""
BOTH_BACK_SUM = 48
"""With five nets or more, the both-back nets value the sums from this up (as
at the start; about a quarter of the contact positions of self-play games)."""
MAX_BACK_SUM = 2 * BAR
"""The largest sum of the two rearmost checkers' points: both sides on the bar."""
CONTACT_PARTS = {
    2: ((CONTACT, MAX_BACK_SUM),),
    3: ((CONTACT, DEEP_BACK_SUM), (DEEP, MAX_BACK_SUM)),
    5: (
        (LATE, LATE_BACK_SUM),
        (CONTACT, DEEP_BACK_SUM),
        (DEEP, BOTH_BACK_SUM - 1),
        (BOTH_BACK, MAX_BACK_SUM),
    ),
    # each part of five nets in two, about an eighth of the contact positions each
    9: (
        (LATE, 30),
        (LATE_FAR, LATE_BACK_SUM),
        (CONTACT, 38),
        (CONTACT_FAR, DEEP_BACK_SUM),
        (DEEP, 45),
        (DEEP_FAR, BOTH_BACK_SUM - 1),
        (BOTH_BACK, BOTH_BACK_SUM),
        (BOTH_BACK_BAR, MAX_BACK_SUM),
    ),
}
"""For each number of nets, its contact nets in the order of the sum of the two
rearmost checkers' points, each with the highest sum it values (the first
from ``POINTS + 1``, the lowest sum of contact)."""


def _phase_table() -> np.ndarray:
    table = np.full((max(NET_COUNTS) + 1, MAX_BACK_SUM + 1), CONTACT, dtype=np.int64)
    table[:, : POINTS + 1] = RACE
    for nets, parts in CONTACT_PARTS.items():
        low = POINTS + 1
        for net, high in parts:
            table[nets, low : high + 1] = net
            low = high + 1
    return table


PHASES = _phase_table()
"""``PHASES[nets, back_sum]``: the net that values a position in play (:func:`phase_of`)."""
SIDE_INPUTS = 101
"""Inputs per side: 25 columns (points and bar) x 4, and the checkers off."""
OFF_INPUT = 100
"""Offset of the checkers-off input in a side's block."""
F_SHOTS = 2 * SIDE_INPUTS
F_SHOTS_AGAINST = F_SHOTS + 1
F_PRIME = F_SHOTS + 2
F_PRIME_AGAINST = F_SHOTS + 3
F_ESCAPES = F_SHOTS + 4
F_ESCAPES_AGAINST = F_SHOTS + 5
F_BACK = F_SHOTS + 6
F_BACK_AGAINST = F_SHOTS + 7
F_CONTAINED = F_SHOTS + 8
F_CONTAINED_AGAINST = F_SHOTS + 9
F_HIT_PIPS = F_SHOTS + 10
F_HIT_PIPS_AGAINST = F_SHOTS + 11
F_BREAK_CONTACT = F_SHOTS + 12
F_BREAK_CONTACT_AGAINST = F_SHOTS + 13
F_ANCHOR = F_SHOTS + 14
F_ANCHOR_AGAINST = F_SHOTS + 15
F_DANCE = F_SHOTS + 16
F_DANCE_AGAINST = F_SHOTS + 17
N_FEATURES = 18
N_INPUTS = F_SHOTS + N_FEATURES
N_OUTPUTS = 5


@njit(cache=True, nogil=True, inline="always")
def phase_of(back_sum, nets):
    """The net of a position in play whose two rearmost checkers' points sum to
    ``back_sum``, for weights of ``nets`` nets: :data:`RACE` when no checker has
    to pass an opposing one (a sum of 24 or less); else the contact net of
    :data:`CONTACT_PARTS` whose sums hold it (with two nets, :data:`CONTACT`)."""
    return PHASES[nets, back_sum]


@njit(cache=True, nogil=True)
def net_phase(board, nets):
    """The net (:data:`CONTACT`, :data:`RACE`, ...: :func:`phase_of`) that values a
    board (either row on roll) among ``nets`` nets; a finished game counts as a race."""
    back0 = rearmost(board[0])
    back1 = rearmost(board[1])
    if back0 == 0 or back1 == 0:
        return RACE
    return phase_of(back0 + back1, nets)


MAX_ACTIVE = 2 * (15 * 4 + 1) + N_FEATURES
"""Most inputs one position can make active: 2 x (15 columns x 4 + off) + the features."""


@njit(cache=True, nogil=True, inline="always")
def feature_values(counts):
    """The features' input values from their counts, as
    :func:`~gammonlab._kernels.net_features.feature_counts` returns them: each
    over its range (36 rolls, 6 points, 25 points; the pips hit over 12 x 36,
    those to break contact over 167, the standard start's)."""
    return (
        counts[0] / 36.0,
        counts[1] / 36.0,
        counts[2] / 6.0,
        counts[3] / 6.0,
        counts[4] / 36.0,
        counts[5] / 36.0,
        counts[6] / 25.0,
        counts[7] / 25.0,
        counts[8] / 36.0,
        counts[9] / 36.0,
        counts[10] / 432.0,
        counts[11] / 432.0,
        counts[12] / 167.0,
        counts[13] / 167.0,
        counts[14] / 6.0,
        counts[15] / 6.0,
        counts[16] / 36.0,
        counts[17] / 36.0,
    )


@njit(cache=True, nogil=True)
def active_inputs(board, swap, index, value):
    """The nonzero inputs of ``board`` (``swap``: row 1 is on roll), written as
    indices and values into ``index`` (int32) and ``value`` (float32) of length
    :data:`MAX_ACTIVE`. Returns their number."""
    count = 0
    for side in range(2):
        row = side ^ swap
        base = side * SIDE_INPUTS
        for col in range(1, BAR + 1):
            n = board[row, col]
            if n > 0:
                k = base + 4 * (col - 1)
                index[count] = k
                value[count] = 1.0
                count += 1
                if n >= 2:
                    index[count] = k + 1
                    value[count] = 1.0
                    count += 1
                if n >= 3:
                    index[count] = k + 2
                    value[count] = 1.0
                    count += 1
                if n >= 4:
                    index[count] = k + 3
                    value[count] = (n - 3) * 0.5
                    count += 1
        off = board[row, OFF]
        if off > 0:
            index[count] = base + OFF_INPUT
            value[count] = off / 15.0
            count += 1
    features = feature_values(feature_counts(board, swap))
    for f in range(N_FEATURES):
        if features[f] != 0.0:
            index[count] = F_SHOTS + f
            value[count] = features[f]
            count += 1
    return count


@njit(cache=True, nogil=True, fastmath=True)
def hidden_layer(board, swap, net, w1, b1, acc, index, value):
    """The hidden layer of ``board`` (``swap``: row 1 is on roll) into ``acc``
    (float32, H), before the ReLU: the bias plus the weight rows of the active
    inputs, each times its value. ``index`` and ``value`` receive the active
    inputs (:func:`active_inputs`). Returns their number."""
    h = acc.shape[0]
    count = active_inputs(board, swap, index, value)
    for j in range(h):
        acc[j] = b1[net, j]
    for a in range(count):
        k = index[a]
        v = value[a]
        if v == 1.0:
            for j in range(h):
                acc[j] += w1[net, k, j]
        else:
            for j in range(h):
                acc[j] += v * w1[net, k, j]
    return count


@njit(cache=True, nogil=True, fastmath=True, inline="always")
def output_layer(acc, net, w2, b2, relu_in_place):
    """The five logits of the hidden layer ``acc`` (before its ReLU), as a tuple;
    ``relu_in_place`` leaves the ReLU's values in ``acc`` (for the gradient)."""
    h = acc.shape[0]
    z0 = np.float32(0.0)
    z1 = np.float32(0.0)
    z2 = np.float32(0.0)
    z3 = np.float32(0.0)
    z4 = np.float32(0.0)
    for j in range(h):
        a = max(acc[j], np.float32(0.0))
        if relu_in_place:
            acc[j] = a
        z0 += w2[net, 0, j] * a
        z1 += w2[net, 1, j] * a
        z2 += w2[net, 2, j] * a
        z3 += w2[net, 3, j] * a
        z4 += w2[net, 4, j] * a
    return z0 + b2[net, 0], z1 + b2[net, 1], z2 + b2[net, 2], z3 + b2[net, 3], z4 + b2[net, 4]


@njit(cache=True, nogil=True, fastmath=True, inline="always")
def logits(acc, net, w2, b2):
    """ReLU of the hidden layer (in place) and the five logits, as a tuple."""
    return output_layer(acc, net, w2, b2, True)


@njit(cache=True, nogil=True, fastmath=True, inline="always")
def hidden_logits(acc, net, w2, b2):
    """The five logits of the hidden layer ``acc`` before its ReLU, as a tuple
    (:func:`logits`), leaving ``acc`` as it is."""
    return output_layer(acc, net, w2, b2, False)


@njit(cache=True, nogil=True, fastmath=True)
def output_logits(acc, net, w2, b2, z):
    """ReLU of the hidden layer (in place) and the five logits into ``z`` (:func:`logits`)."""
    z[0], z[1], z[2], z[3], z[4] = logits(acc, net, w2, b2)


@njit(cache=True, nogil=True, fastmath=True, inline="always")
def add_point(acc, w1, net, k, n):
    """Add to ``acc`` the rows of ``n`` checkers on one point, whose inputs start
    at ``k``: one or more, two or more, three or more, ``(n - 3) / 2``."""
    h = acc.shape[0]
    if n == 1:
        for j in range(h):
            acc[j] += w1[net, k, j]
    elif n == 2:
        for j in range(h):
            acc[j] += w1[net, k, j] + w1[net, k + 1, j]
    elif n == 3:
        for j in range(h):
            acc[j] += w1[net, k, j] + w1[net, k + 1, j] + w1[net, k + 2, j]
    else:
        v = np.float32((n - 3) * 0.5)
        for j in range(h):
            acc[j] += w1[net, k, j] + w1[net, k + 1, j] + w1[net, k + 2, j] + v * w1[net, k + 3, j]


@njit(cache=True, nogil=True, fastmath=True, inline="always")
def add_row(acc, w1, net, k, v):
    """Add to ``acc`` the weight row of input ``k`` times ``v`` (float32)."""
    for j in range(acc.shape[0]):
        acc[j] += v * w1[net, k, j]


@njit(cache=True, nogil=True, fastmath=True, inline="always")
def change_point(acc, w1, net, k, old, new):
    """Change ``acc`` from ``old`` checkers to ``new`` on one point, whose inputs
    start at ``k`` (:func:`add_point`): one pass for each of the four inputs
    whose value changes, usually one."""
    if (new >= 1) != (old >= 1):
        add_row(acc, w1, net, k, np.float32(1.0 if new >= 1 else -1.0))
    if (new >= 2) != (old >= 2):
        add_row(acc, w1, net, k + 1, np.float32(1.0 if new >= 2 else -1.0))
    if (new >= 3) != (old >= 3):
        add_row(acc, w1, net, k + 2, np.float32(1.0 if new >= 3 else -1.0))
    more = max(new - 3, 0) - max(old - 3, 0)
    if more != 0:
        add_row(acc, w1, net, k + 3, np.float32(more * 0.5))


@njit(cache=True, nogil=True, fastmath=True, inline="always")
def add_borne_off(acc, w1, net, base, off):
    """Add to ``acc`` the row of ``off`` checkers borne off, for the side whose
    inputs start at ``base``: ``off / 15`` times its weights."""
    if off > 0:
        v = np.float32(off / 15.0)
        for j in range(acc.shape[0]):
            acc[j] += v * w1[net, base + OFF_INPUT, j]


@njit(cache=True, nogil=True, fastmath=True)
def add_side(board, row, block, net, w1, acc):
    """Add to ``acc`` the weight rows of one side's checkers: board row ``row`` as
    input block ``block`` (0: the side on roll, 1: its opponent).

    The same sum as :func:`hidden_layer`'s over that side's inputs, one pass
    over ``acc`` per occupied point.
    """
    base = block * SIDE_INPUTS
    for col in range(1, BAR + 1):
        n = board[row, col]
        if n > 0:
            add_point(acc, w1, net, base + 4 * (col - 1), n)
    add_borne_off(acc, w1, net, base, board[row, OFF])


@njit(cache=True, nogil=True, fastmath=True, inline="always")
def add_occupied(board, row, occupied, block, net, w1, acc):
    """:func:`add_side` for a row whose occupied points (the bar bit 25 among
    them) are the bits of ``occupied``: the same additions in the same order,
    without looking at the empty points."""
    base = block * SIDE_INPUTS
    while occupied:
        col = trailing_zeros(occupied)
        occupied &= occupied - 1
        add_point(acc, w1, net, base + 4 * (col - 1), board[row, col])
    add_borne_off(acc, w1, net, base, board[row, OFF])


@njit(cache=True, nogil=True, fastmath=True, inline="always")
def add_feature_counts(counts, net, w1, acc):
    """Add to ``acc`` the rows of the features, given as
    :func:`~gammonlab._kernels.net_features.feature_counts` returns them."""
    h = acc.shape[0]
    features = feature_values(counts)
    for f in range(N_FEATURES):
        v = np.float32(features[f])
        if v != 0.0:
            for j in range(h):
                acc[j] += v * w1[net, F_SHOTS + f, j]


@njit(cache=True, nogil=True, fastmath=True)
def add_features(board, swap, net, w1, acc):
    """Add to ``acc`` the rows of the features (side on roll: row ``swap``)."""
    add_feature_counts(feature_counts(board, swap), net, w1, acc)


@njit(cache=True, nogil=True, inline="always")
def logistic(x):
    """The logistic function ``1 / (1 + exp(-x))`` in double precision, without overflow."""
    x = np.float64(x)
    if x >= 0.0:
        return 1.0 / (1.0 + np.exp(-x))
    e = np.exp(x)
    return e / (1.0 + e)


@njit(cache=True, nogil=True)
def chain_probabilities(z, can_lose_gammon, can_win_gammon):
    """The five probabilities from the logits, consistent by construction.

    Returns the tuple ``(win, win_gammon, win_backgammon, lose_gammon,
    lose_backgammon)`` and the five logistic values ``s`` of the chain (for
    the gradient).
    """
    s0 = logistic(z[0])
    s1 = logistic(z[1])
    s2 = logistic(z[2])
    s3 = logistic(z[3])
    s4 = logistic(z[4])
    win = s0
    wg = win * s1 if can_win_gammon else 0.0
    wbg = wg * s2
    lg = (1.0 - win) * s3 if can_lose_gammon else 0.0
    lbg = lg * s4
    return (win, wg, wbg, lg, lbg), (s0, s1, s2, s3, s4)


@njit(cache=True, nogil=True)
def evaluate_one(board, swap, weights, acc, z, widths):
    """The five probabilities of one position in play, from the side on roll
    (row ``swap``), by the net of its phase. ``weights`` are ``(w1, b1, w2, b2)``;
    ``acc`` (float32, H) and ``z`` (float32, 5) are scratch space; ``widths``
    the hidden units each net uses (the others have no output weight). The rows
    are added side by side (:func:`add_side`)."""
    w1, b1, w2, b2 = weights
    net = net_phase(board, w1.shape[0])
    acc = acc[: widths[net]]
    for j in range(acc.shape[0]):
        acc[j] = b1[net, j]
    add_side(board, swap, 0, net, w1, acc)
    add_side(board, 1 - swap, 1, net, w1, acc)
    add_features(board, swap, net, w1, acc)
    output_logits(acc, net, w2, b2, z)
    me = swap
    opp = 1 - swap
    probs, _ = chain_probabilities(z, board[me, OFF] == 0, board[opp, OFF] == 0)
    return probs


@njit(cache=True, nogil=True)
def net_inputs(boards):
    """The dense input vectors ``(n, N_INPUTS)`` float32 of boards ``(n, 2, 26)``.

    The forward kernels never build them (they add weight rows); this is the
    encoding for tests and for training outside numba.
    """
    n = boards.shape[0]
    x = np.zeros((n, N_INPUTS), dtype=np.float32)
    index = np.empty(MAX_ACTIVE, dtype=np.int32)
    value = np.empty(MAX_ACTIVE, dtype=np.float32)
    for i in range(n):
        count = active_inputs(boards[i], 0, index, value)
        for a in range(count):
            x[i, index[a]] = value[a]
    return x
