"""Rollout statistics: per-stratum running sums of the trials' results and the
standard errors of stratified means.

The rotated roll of a trial (its first unknown roll, see
:mod:`gammonlab._kernels.playout`) is its stratum, the 21 distinct rolls.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .board import ROLLS

__all__ = [
    "ROLL_STRATUM",
    "STRATA",
    "accumulate",
    "stratified_stderr",
]


@njit(cache=True)
def _equity(p0, p1, p2, p3, p4, top):
    # cubeless money equity: win - lose + gammons + the top class's extra points,
    # ``top - 2``: 1 for R8.2's backgammon (3 points), 2 for R8.4's bar (4 points);
    # with 1.0 the sums are bit for bit R8.2's ``... + p2 - p4``
    extra = top - 2.0
    return 2.0 * p0 - 1.0 + p1 - p3 + extra * p2 - extra * p4


STRATA = 21
"""Strata of the rotated roll: the 21 distinct rolls (1-1, 2-1, 2-2, ..., 6-6)."""


def _roll_strata() -> np.ndarray:
    # An ordered roll and its reverse give the same legal plays, so the same game
    # from there on: one stratum. Numbered like the bear-off tables' rolls.
    table = np.empty(ROLLS, dtype=np.int64)
    stratum = 0
    for high in range(1, 7):
        for low in range(1, high + 1):
            table[6 * (high - 1) + low - 1] = stratum
            table[6 * (low - 1) + high - 1] = stratum
            stratum += 1
    return table


ROLL_STRATUM = _roll_strata()
"""Stratum (0..20) of each ordered roll index (0..35)."""


@njit(cache=True)
def stratified_stderr(count, s1, s2, total):
    """Standard error of a mean from per-stratum sums, and of a plain random sample.

    ``count[s]``, ``s1[s]``, ``s2[s]``: trials, sum and sum of squares of
    stratum ``s``; ``total`` = sum of counts. Stratified estimator with the
    strata's weights fixed by design (``count[s] / total``):
    ``Var = sum_s count_s * var_s / total**2`` where ``var_s`` is the stratum's
    sample variance. Strata holding a single trial (the doubles of a single
    block) have no sample variance: they are collapsed in pairs of neighbours
    (1-1 with 2-2, 3-3 with 4-4, 5-5 with 6-6; an odd one joins the last pair),
    Cochran's collapsed strata, which can only overstate the error. A lone
    stratum with no partner falls back to the plain variance.
    Returns ``(stratified, plain)``.
    """
    if total < 2:
        return np.nan, np.nan
    grand = 0.0
    grand2 = 0.0
    lone = 0
    for s in range(count.shape[0]):
        grand += s1[s]
        grand2 += s2[s]
        if count[s] == 1:
            lone += 1
    plain = max((grand2 - grand * grand / total) / (total - 1), 0.0) / total
    if lone == 1:
        return np.sqrt(plain), np.sqrt(plain)
    var = 0.0
    group_count = 0
    group1 = 0.0
    group2 = 0.0
    seen = 0
    for s in range(count.shape[0]):
        c = count[s]
        if c >= 2:
            v = (s2[s] - s1[s] * s1[s] / c) / (c - 1)
            var += c * max(v, 0.0)
        elif c == 1:
            seen += 1
            group_count += 1
            group1 += s1[s]
            group2 += s2[s]
            # close a pair, unless a single lone stratum would be left over
            if group_count >= 2 and lone - seen != 1:
                v = (group2 - group1 * group1 / group_count) / (group_count - 1)
                var += group_count * max(v, 0.0)
                group_count = 0
                group1 = 0.0
                group2 = 0.0
    return np.sqrt(var / (total * total)), np.sqrt(plain)


@njit(cache=True)
def accumulate(count, s1, products, cross, probs, strata, done, target, block, top=3.0):
    """Add trials to per-stratum sums, in trial order, and stop at a target.

    Parameters
    ----------
    count : int64 (n_strata,)
    s1 : float64 (n_strata, k, 6)
        Sums of the five probabilities and the equity, per root.
    products : float64 (n_strata, k, 6, 6)
        Sums of their pairwise products (squares on the diagonal), per root.
    cross : float64 (n_strata, k, k)
        Sums of products of the roots' equities (paired differences).
    probs : float64 (k, n, 5)
        The new trials' results, in trial order.
    strata : int64 (n,)
        Each trial's stratum.
    done : int
        Trials already added.
    target : float
        Stop after the first whole ``block`` at which the largest standard
        error of the roots' equities is at most ``target`` (0: never).
    top : float
        Points of the top class: 3 (R8.2's backgammon) or 4 (R8.4's bar).

    Returns
    -------
    added : int
        How many of the new trials were added.
    reached : bool
        Whether the target was reached.
    """
    k = probs.shape[0]
    n = probs.shape[1]
    n_strata = count.shape[0]
    equities = np.empty(k)
    values = np.empty(6)
    c_eq = np.empty(n_strata, dtype=np.int64)
    e1 = np.empty(n_strata)
    e2 = np.empty(n_strata)
    for i in range(n):
        s = strata[i]
        count[s] += 1
        for r in range(k):
            for j in range(5):
                values[j] = probs[r, i, j]
            values[5] = _equity(values[0], values[1], values[2], values[3], values[4], top)
            equities[r] = values[5]
            for a in range(6):
                s1[s, r, a] += values[a]
                for b in range(6):
                    products[s, r, a, b] += values[a] * values[b]
        for a in range(k):
            for b in range(k):
                cross[s, a, b] += equities[a] * equities[b]
        total = done + i + 1
        if target > 0.0 and total % block == 0 and total >= 2 * block:
            worst = 0.0
            for r in range(k):
                for t in range(n_strata):
                    c_eq[t] = count[t]
                    e1[t] = s1[t, r, 5]
                    e2[t] = products[t, r, 5, 5]
                se, _ = stratified_stderr(c_eq, e1, e2, total)
                worst = max(worst, se)
            if worst <= target:
                return i + 1, True
    return n, False
