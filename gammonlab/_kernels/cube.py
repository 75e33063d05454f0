"""The cube arithmetic: cubeful values of many probabilities at once, and cube efficiencies.

Every cubeful figure of :mod:`gammonlab.cube` and :mod:`gammonlab.analysis` is
computed here, over arrays: ``p`` is ``(n, 5)`` cubeless probabilities of the
player on roll (GNU Backgammon's order: win, win gammon, win backgammon, lose
gammon, lose backgammon), ``x`` the ``(n,)`` cube efficiencies, and the result
``x * live + (1 - x) * dead`` per row. Money play follows Janowski's formulas
(GNU Backgammon's Cl2CfMoney), match play their generalisation with live cash
points found level by level up the cube (Cl2CfMatch, GetPoints). The match
equity table is read in Python (:meth:`gammonlab.cube.theory._Situation.constants`):
the kernels only do arithmetic. For a position or two :mod:`gammonlab.cube`
runs their Python source (``py_func``), which is the same code, rather than load
the compiled kernels.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.extending import register_jitable

from .board import HOME as HOME_POINTS

__all__ = [
    "CENTRED",
    "DEAD_LEVEL",
    "EPSILON",
    "LIVE_LEVEL",
    "MINE",
    "THEIRS",
    "cube_efficiencies",
    "match_cubeful",
    "money_cubeful",
]

CENTRED, MINE, THEIRS = 0, 1, 2
"""Who owns the cube, seen from the player on roll."""
EPSILON = 1e-7
"""Below this winning chance (or above 1 minus it) the cube is as good as dead (Cl2CfMoney)."""
DEAD_LEVEL, LIVE_LEVEL = 0.0, 1.0
"""The kind of a cube level in :func:`match_cubeful`'s ``levels``: its doubled cube is dead,
or live."""


@njit(cache=True, error_model="numpy")
def money_cubeful(p, x, owner, jacoby_centred, can_turn):  # pragma: no cover - compiled
    """Cubeful money equity per cube: GNU Backgammon's Cl2CfMoney (Janowski).

    ``jacoby_centred``: gammons count single (R10.1). With ``can_turn`` false
    the cube is dead: the cubeless equity.
    """
    n = p.shape[0]
    out = np.empty(n)
    for i in range(n):
        w, wg, wbg, lg, lbg = p[i, 0], p[i, 1], p[i, 2], p[i, 3], p[i, 4]
        if jacoby_centred:
            dead = 2.0 * w - 1.0  # R10.1: gammons count single while the cube is centred
        else:
            dead = 2.0 * w - 1.0 + wg - lg + wbg - lbg
        if not can_turn or w <= EPSILON or w >= 1.0 - EPSILON:
            out[i] = dead
            continue
        big_w = 1.0 + (wg + wbg) / w
        big_l = 1.0 + (lg + lbg) / (1.0 - w)
        take = (big_l - 0.5) / (big_w + big_l + 0.5)
        cash = (big_l + 1.0) / (big_w + big_l + 0.5)
        if owner == CENTRED:
            if w < take:
                live = -1.0 if jacoby_centred else -big_l + (big_l - 1.0) * w / take
            elif w < cash:
                live = -1.0 + 2.0 * (w - take) / (cash - take)
            else:
                live = 1.0 if jacoby_centred else 1.0 + (big_w - 1.0) * (w - cash) / (1.0 - cash)
        elif owner == MINE:
            if w < cash:
                live = -big_l + (1.0 + big_l) * w / cash
            else:
                live = 1.0 + (big_w - 1.0) * (w - cash) / (1.0 - cash)
        elif w < take:
            live = -big_l + (big_l - 1.0) * w / take
        else:
            live = -1.0 + (big_w + 1.0) * (w - take) / (1.0 - take)
        out[i] = dead * (1.0 - x[i]) + live * x[i]
    return out


@register_jitable(error_model="numpy")
def _from_start(w, y0, x1, y1):
    """The value at ``w`` of the line from ``(0, y0)`` to ``(x1, y1)`` (``y0`` if ``x1`` is 0).

    ``register_jitable``: compiled into the kernels, a plain function in their ``py_func``."""
    return y0 + (y1 - y0) * w / x1 if x1 > 0.0 else y0


@register_jitable(error_model="numpy")
def _to_end(w, x0, y0, y1):
    """The value at ``w`` of the line from ``(x0, y0)`` to ``(1, y1)`` (``y1`` if ``x0`` is 1)."""
    return y0 + (y1 - y0) * (w - x0) / (1.0 - x0) if x0 < 1.0 else y1


@njit(cache=True, error_model="numpy")
def match_cubeful(p, x, owner, alive, results, levels):  # pragma: no cover - compiled
    """Cubeful match winning chance: GNU Backgammon's Cl2CfMatch (live cash points).

    ``results``: MWC after winning 1, 2, 3 cubes, then after losing them (the
    cubeless, dead-cube value). ``levels[level, side]`` (side 0 the player on
    roll, 1 the opponent), for each cube level still live:
    ``[kind, W1, W2, W4, W6, L2, L4, L6, P]``, the MWC after winning or losing
    that many times the level's cube and ``P`` after a pass. With ``alive``
    false the cube is dead: the cubeless MWC.
    """
    n = p.shape[0]
    out = np.empty(n)
    won1, won2, won3, lost1, lost2, lost3 = (
        results[0],
        results[1],
        results[2],
        results[3],
        results[4],
        results[5],
    )
    for i in range(n):
        w, wg, wbg, lg, lbg = p[i, 0], p[i, 1], p[i, 2], p[i, 3], p[i, 4]
        dead = (
            (w - wg) * won1
            + (wg - wbg) * won2
            + wbg * won3
            + (1.0 - w - lg) * lost1
            + (lg - lbg) * lost2
            + lbg * lost3
        )
        if not alive:
            out[i] = dead
            continue
        win_g = (wg - wbg) / w if w > 0.0 else 0.0
        win_bg = wbg / w if w > 0.0 else 0.0
        lose_g = (lg - lbg) / (1.0 - w) if w < 1.0 else 0.0
        lose_bg = lbg / (1.0 - w) if w < 1.0 else 0.0
        # live cash points, from the highest live cube level down (GNU Backgammon's GetPoints)
        next_mine, next_theirs = 1.0, 1.0
        cash_mine, cash_theirs = 1.0, 1.0
        for level in range(levels.shape[0] - 1, -1, -1):
            for side in range(2):
                if side == 0:
                    g, bg, og, obg, other = win_g, win_bg, lose_g, lose_bg, next_theirs
                else:
                    g, bg, og, obg, other = lose_g, lose_bg, win_g, win_bg, next_mine
                c = levels[level, side]
                taken_won = (1.0 - g - bg) * c[2] + g * c[3] + bg * c[4]
                if c[0] == DEAD_LEVEL:
                    taken_lost = (1.0 - og - obg) * c[5] + og * c[6] + obg * c[7]
                    span = taken_lost - taken_won
                    cash = (taken_lost - c[8]) / span if span != 0.0 else 1.0
                else:
                    span = c[5] - taken_won
                    cash = 1.0 - other * (c[1] - taken_won) / span if span != 0.0 else 1.0
                if side == 0:
                    cash_mine = cash
                else:
                    cash_theirs = cash
            next_mine, next_theirs = cash_mine, cash_theirs
        won = (1.0 - win_g - win_bg) * won1 + win_g * won2 + win_bg * won3
        lost = (1.0 - lose_g - lose_bg) * lost1 + lose_g * lost2 + lose_bg * lost3
        too_good, opp_too_good = cash_mine, 1.0 - cash_theirs
        # the live cube's value: straight lines through (0, lost), the points where
        # a side is too good (opp_too_good, lost1) and (too_good, won1), and (1, won)
        if owner == CENTRED:
            if w <= opp_too_good:
                live = _from_start(w, lost, opp_too_good, lost1)
            elif w < too_good:
                live = lost1 + (won1 - lost1) * (w - opp_too_good) / (too_good - opp_too_good)
            else:
                live = _to_end(w, too_good, won1, won)
        elif owner == MINE:
            if w <= too_good:
                live = _from_start(w, lost, too_good, won1)
            else:
                live = _to_end(w, too_good, won1, won)
        elif w <= opp_too_good:
            live = _from_start(w, lost, opp_too_good, lost1)
        else:
            live = _to_end(w, opp_too_good, lost1, won)
        out[i] = dead * (1.0 - x[i]) + live * x[i]
    return out


@njit(cache=True)
def cube_efficiencies(
    boards, checkers, small_variant, base, per_pip, low, high, contact_x, bearoff_x
):  # pragma: no cover - compiled
    """GNU Backgammon's cube efficiency of ``(n, 2, 26)`` boards, seen from the side on roll."""
    n = boards.shape[0]
    out = np.empty(n)
    for i in range(n):
        if boards[i, 0, 0] == checkers or boards[i, 1, 0] == checkers:
            out[i] = 0.0  # the game is over: a dead cube
            continue
        furthest = np.zeros(2, dtype=np.int64)
        for side in range(2):
            for point in range(25, 0, -1):
                if boards[i, side, point] > 0:
                    furthest[side] = point
                    break
        if small_variant:
            out[i] = bearoff_x
        elif furthest[0] > 0 and furthest[1] > 0 and furthest[0] + furthest[1] > 25:
            out[i] = contact_x
        elif furthest[0] <= HOME_POINTS and furthest[1] <= HOME_POINTS:
            out[i] = bearoff_x
        else:
            pips = 0
            for point in range(1, 26):
                pips += point * boards[i, 0, point]
            out[i] = min(max(base + per_pip * pips, low), high)
    return out
