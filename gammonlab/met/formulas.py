"""The formulas behind match equity tables: GNU Backgammon's extension of short tables, its
tables from parameters (Zadeh, Tornberg's calculator), and :func:`generate`, a table of our own
from gammon rates."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping

import numpy as np

from ..errors import ArgumentError
from .table import MAX_AWAY, MatchEquityTable

__all__ = [
    "GENERATOR_DEFAULTS",
    "MEC_PRE_DEFAULTS",
    "ZADEH_PRE_DEFAULTS",
    "extend_post_crawford",
    "extend_pre_crawford",
    "generate",
    "mec_pre_crawford",
    "post_from_parameters",
    "zadeh_pre_crawford",
]

# GNU Backgammon's defaults for tables it computes from parameters (matchequity.c)
ZADEH_PRE_DEFAULTS = {
    "gammon-rate-leader": 0.25,
    "gammon-rate-trailer": 0.15,
    "delta": 0.08,
    "delta-bar": 0.06,
}
_ZADEH_POST_DEFAULTS = {
    "gammon-rate-trailer": 0.25,
    "free-drop-2-away": 0.015,
    "free-drop-4-away": 0.004,
}
MEC_PRE_DEFAULTS = {"gammon-rate": 0.15, "win-rate": 0.5}
_MEC_POST_DEFAULTS = {
    "gammon-rate": 0.25,
    "free-drop-2-away": 0.015,
    "free-drop-4-away": 0.004,
    "win-rate": 0.5,
}

_EXTENSION_GAMMON_RATE = 0.25
"""Post-Crawford trailer's gammon rate GNU Backgammon uses to extend short tables."""
_EXTENSION_FREE_DROP_2_AWAY = 0.015
_EXTENSION_FREE_DROP_4_AWAY = 0.004
_MONTGOMERY_STDDEV = {
    1: 1.24,
    2: 1.27,
    3: 1.47,
    4: 1.50,
    5: 1.60,
    6: 1.61,
    7: 1.66,
    8: 1.68,
    9: 1.70,
    10: 1.72,
}
"""Standard deviation of the points one game moves, by away score (David Montgomery's
extension, as GNU Backgammon's ExtendMET uses it)."""
_MONTGOMERY_STDDEV_LONG = 1.77
_MONTGOMERY_TAIL = 6.0
"""The normal integral runs to this many standard deviations, as GNU Backgammon's does."""
_ZADEH_CUBE_LEVELS = 7
"""Cube levels 1, 2, ... 64 in Zadeh's recursion (GNU Backgammon's MAXCUBELEVEL)."""

# -- extension of short tables (GNU Backgammon 1.07) ----------------------------------------------


def _zadeh_post_crawford_values(
    values: list[float],
    size: int,
    gammon_rate: float,
    free_drop_2_away: float,
    free_drop_4_away: float,
) -> list[float]:
    """Zadeh's post-Crawford recursion, filling ``values`` up to ``size`` entries.

    The trailer doubles at once; a single win takes them 2 points nearer, a
    gammon 4. The leader's free drop costs the trailer a little at 2-away and
    4-away (index 1 and 3).
    """
    out = list(values[:size])
    for index in range(len(out), size):
        gammon = out[index - 4] if index >= 4 else 1.0
        single = out[index - 2] if index >= 2 else 1.0
        value = 0.5 * (gammon_rate * gammon + (1.0 - gammon_rate) * single)
        if index == 1:
            value -= free_drop_2_away
        elif index == 3:
            value -= free_drop_4_away
        out.append(value)
    return out


def extend_post_crawford(values: list[float], size: int) -> np.ndarray:
    return np.array(
        _zadeh_post_crawford_values(
            values,
            size,
            _EXTENSION_GAMMON_RATE,
            _EXTENSION_FREE_DROP_2_AWAY,
            _EXTENSION_FREE_DROP_4_AWAY,
        )
    )


def _montgomery_stddev(away: int) -> float:
    return _MONTGOMERY_STDDEV.get(away, _MONTGOMERY_STDDEV_LONG)


def _normal_cdf(z: float) -> float:
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def extend_pre_crawford(native: np.ndarray, size: int) -> np.ndarray:
    """Montgomery's normal approximation for scores beyond the native table."""
    have = native.shape[0]
    if have >= size:
        return native[:size, :size].copy()
    table = np.zeros((size, size))
    table[:have, :have] = native
    for i in range(have, size):
        for j in range(i + 1):
            trailer, leader = i + 1, j + 1
            games = (trailer + leader) / 2.0
            sigma = math.hypot(_montgomery_stddev(trailer), _montgomery_stddev(leader)) * math.sqrt(
                games
            )
            deficit = float(trailer - leader)
            if _MONTGOMERY_TAIL * sigma > deficit:
                table[i][j] = _normal_cdf(_MONTGOMERY_TAIL) - _normal_cdf(deficit / sigma)
            else:
                table[i][j] = 0.0
    for i in range(size):
        for j in range(have if i < have else i + 1, size):
            table[i][j] = 1.0 - table[j][i]
    return table


# -- tables from parameters -----------------------------------------------------------------------


def post_from_parameters(kind: str, given: Mapping[str, float], size: int) -> np.ndarray:
    if kind == "zadeh":
        p = {**_ZADEH_POST_DEFAULTS, **given}
        return np.array(
            _zadeh_post_crawford_values(
                [], size, p["gammon-rate-trailer"], p["free-drop-2-away"], p["free-drop-4-away"]
            )
        )
    p = {**_MEC_POST_DEFAULTS, **given}
    return _mec_post_crawford(
        size,
        gammon_rate=p["gammon-rate"],
        win_rate=p["win-rate"],
        free_drop_2_away=p["free-drop-2-away"],
        free_drop_4_away=p["free-drop-4-away"],
    )


def _mec_post_crawford(
    size: int,
    *,
    gammon_rate: float,
    win_rate: float,
    free_drop_2_away: float,
    free_drop_4_away: float,
) -> np.ndarray:
    """Tornberg's post-Crawford table: the favourite's chance when trailing.

    The favourite wins a game with ``win_rate``. At an even away score the
    trailer gains nothing by doubling twice, so the score equals the one a point
    nearer, less the free-drop allowance at 2-away. mec.c adds its 4-away
    allowance to the trailer's chance; this is kept so that ``mec.xml`` reads
    as GNU Backgammon computes it.
    """
    trailing = [1.0] + [0.0] * size
    trailing[1] = win_rate
    for n in range(2, size + 1):
        if n % 2 == 0:
            trailing[n] = trailing[n - 1]
            if n == 2:
                trailing[n] -= free_drop_2_away
            elif n == 4:
                trailing[n] += free_drop_4_away
        else:
            trailing[n] = (
                win_rate * (1.0 - gammon_rate) * trailing[max(n - 2, 0)]
                + win_rate * gammon_rate * trailing[max(n - 4, 0)]
            )
    return np.array(trailing[1:])


def mec_pre_crawford(
    post: np.ndarray, size: int, *, gammon_rate: float, win_rate: float
) -> np.ndarray:
    """Tornberg's pre-Crawford table (mec.c), which is :func:`_cube_recursion`
    with a fully efficient cube and one gammon rate."""
    post_trailing = [1.0, *post[0][:size]]
    post_leading = [0.0, *(1.0 - post[1][:size])]
    return _cube_recursion(
        size,
        win_rate=win_rate,
        gammon_rate=lambda a, b: gammon_rate,
        crawford_gammon_rate=gammon_rate,
        cube_efficiency=1.0,
        post_trailing=post_trailing,
        post_leading=post_leading,
    )


def zadeh_pre_crawford(
    post: np.ndarray,
    size: int,
    *,
    gammon_rate_leader: float,
    gammon_rate_trailer: float,
    delta: float,
    delta_bar: float,
) -> np.ndarray:
    """Zadeh's match equities as GNU Backgammon's initMETZadeh computes them.

    ``D1``/``D2`` are each player's equity at the other's drop point with
    semi-efficient recubes (``delta``); the bar versions assume dead cubes. The
    equity at a score interpolates between the scores one point nearer for
    either player, weighted by the drop points (``delta_bar``).
    """
    g1, g2 = gammon_rate_leader, gammon_rate_trailer
    table = np.full((size, size), np.nan)

    def met(i: int, j: int) -> float:
        if i < 0:
            return 1.0
        if j < 0:
            return 0.0
        return float(table[i][j])

    def post_at(index: int) -> float:
        return float(post[index]) if index >= 0 else 1.0

    for i in range(size):
        table[i][0] = g1 * 0.5 * post_at(i - 2) + (1.0 - g1) * 0.5 * post_at(i - 1)
        table[0][i] = 1.0 - table[i][0]

    def prime(i: int, j: int, cube: int) -> int:
        # the taker redoubles at once when the doubler needs no more than 2 cubes
        return 2 * cube if i < 2 * cube <= j else cube

    def drop_equity(i: int, j: int, cube: int) -> float:
        c = prime(i, j, cube)
        lose = g2 * met(i, j - 4 * c) + (1.0 - g2) * met(i, j - 2 * c)
        win = g1 * met(i - 4 * c, j) + (1.0 - g1) * met(i - 2 * c, j)
        return (met(i - cube, j) - lose) / (win - lose)

    levels = _ZADEH_CUBE_LEVELS
    # GNU Backgammon's order: every score needs only scores one side nearer
    for i in range(1, size):
        for j in range(1, i + 1):
            d1: dict[tuple[int, int, int], float] = {}
            d2: dict[tuple[int, int, int], float] = {}
            for level in range(levels - 1, -1, -1):
                cube = 1 << level
                d1bar = {(i, j): drop_equity(i, j, cube), (j, i): drop_equity(j, i, cube)}
                d2bar = {(i, j): d1bar[(j, i)], (j, i): d1bar[(i, j)]}
                dead = i < 2 * cube or j < 2 * cube
                for r, c in {(i, j), (j, i)}:
                    if dead:
                        d1[(r, c, level)] = d1bar[(r, c)]
                        d2[(r, c, level)] = d2bar[(r, c)]
                    else:
                        d1[(r, c, level)] = 1.0 + (d2[(r, c, level + 1)] + delta) * (
                            d1bar[(r, c)] - 1.0
                        )
                        d2[(r, c, level)] = 1.0 + (d1[(r, c, level + 1)] + delta) * (
                            d2bar[(r, c)] - 1.0
                        )
            a, b = d1[(i, j, 0)] + delta_bar, d2[(i, j, 0)] + delta_bar
            table[i][j] = ((b - 0.5) * met(i - 1, j) + (a - 0.5) * met(i, j - 1)) / (a + b - 1.0)
            if i != j:
                table[j][i] = 1.0 - table[i][j]
    return table


# -- our own generator ----------------------------------------------------------------------------

GammonRate = float | Callable[[int, int], float]

GENERATOR_DEFAULTS: Mapping[str, float] = {
    "gammon_rate": 0.32,
    "crawford_gammon_rate": 0.30,
    "post_crawford_gammon_rate": 0.29,
    "cube_efficiency": 0.80,
    "free_drop_swing": 0.028,
}
"""Defaults of :func:`generate`, fitted to Kazaross-XG2 (largest difference to
15 points about 0.003)."""


def generate(
    *,
    gammon_rate: GammonRate = GENERATOR_DEFAULTS["gammon_rate"],
    crawford_gammon_rate: float = GENERATOR_DEFAULTS["crawford_gammon_rate"],
    post_crawford_gammon_rate: float = GENERATOR_DEFAULTS["post_crawford_gammon_rate"],
    cube_efficiency: float = GENERATOR_DEFAULTS["cube_efficiency"],
    free_drop_swing: float = GENERATOR_DEFAULTS["free_drop_swing"],
    max_away: int = MAX_AWAY,
    name: str | None = None,
) -> MatchEquityTable:
    """Compute a match equity table from gammon rates and a cube efficiency.

    The model (after Zadeh 1977, Keeler and Spencer 1975 and Tornberg's mec):

    - A game is a continuous process of the winning chance ``p`` of the player
      on roll, starting at 0.5 (equal players). A game won is a gammon with the
      given gammon rate; backgammons are ignored.
    - Pre-Crawford, the cube is live. Its owner doubles at the opponent's take
      point, the cash point: there the taker is indifferent between passing
      (the doubler wins the cube value) and taking (the taker owns the doubled
      cube and redoubles at their own cash point, found recursively for every
      cube level). A player who wins the match with a single game at the
      current cube never doubles (a dead cube).
    - As in Janowski's cube model, the match winning chance at ``p`` is
      ``x * live + (1 - x) * dead``: ``live`` is linear between the two cash
      points (and beyond them to the gammon-weighted results at ``p = 0`` and
      ``p = 1``), ``dead`` the chance if the cube were never turned again, and
      ``x`` the cube efficiency. Take points come from the same blend. With
      ``x = 1`` and one gammon rate this is exactly Tornberg's mec.
    - The Crawford game (R10.2) has no cube: one game at the gammon rate
      ``crawford_gammon_rate`` decides the scores of the post-Crawford table.
    - Post-Crawford the trailer doubles at once. The leader may pass a double
      for free when the trailer's position is strong enough; the early swing
      of the game is modelled as a normal jump of the winning chance with
      standard deviation ``free_drop_swing``, and the leader passes whenever
      taking is worse, which gives the free-drop value in closed form at
      every score (not only 2- and 4-away).

    Parameters
    ----------
    gammon_rate : float or callable
        Fraction of games won that are gammons, pre-Crawford. A callable
        ``gammon_rate(away, opp_away)`` gives the rate of the player who is
        ``away`` at each score.
    crawford_gammon_rate, post_crawford_gammon_rate : float
        The trailer's gammon rate in the Crawford game and in post-Crawford
        games (the leader's gammons do not matter there).
    cube_efficiency : float
        ``x`` between 0 (dead cube) and 1 (fully live).
    free_drop_swing : float
        Standard deviation of the winning chance by the time the leader
        answers the trailer's post-Crawford double; 0 means no free drops.
    max_away : int
        Scores to cover.
    name : str, optional

    Returns
    -------
    MatchEquityTable

    Notes
    -----
    The defaults fit Kazaross-XG2 to within about 0.003 everywhere to 15 points
    (0.0035 to 25). They were found by minimising the largest difference.

    Examples
    --------
    >>> from gammonlab.met import load
    >>> table = generate(max_away=9)
    >>> abs(table.equity(3, 5) - load().equity(3, 5)) < 0.005
    True
    >>> round(generate(cube_efficiency=1.0, max_away=3).equity(2, 2), 3)
    0.5
    """
    if not 0.0 <= cube_efficiency <= 1.0:
        raise ArgumentError(f"cube_efficiency must lie in [0, 1], got {cube_efficiency}")
    if free_drop_swing < 0.0:
        raise ArgumentError(f"free_drop_swing must be >= 0, got {free_drop_swing}")
    rate = gammon_rate if callable(gammon_rate) else _constant(float(gammon_rate))
    post = _free_drop_post_crawford(max_away, post_crawford_gammon_rate, free_drop_swing)
    post_trailing = [1.0, *post]
    post_leading = [0.0, *(1.0 - np.array(post))]
    pre = _cube_recursion(
        max_away,
        win_rate=0.5,
        gammon_rate=rate,
        crawford_gammon_rate=crawford_gammon_rate,
        cube_efficiency=cube_efficiency,
        post_trailing=post_trailing,
        post_leading=post_leading,
    )
    parameters = {
        "gammon_rate": gammon_rate if callable(gammon_rate) else float(gammon_rate),
        "crawford_gammon_rate": crawford_gammon_rate,
        "post_crawford_gammon_rate": post_crawford_gammon_rate,
        "cube_efficiency": cube_efficiency,
        "free_drop_swing": free_drop_swing,
    }
    rate_text = "per score" if callable(gammon_rate) else f"{float(gammon_rate):.3g}"
    return MatchEquityTable(
        name=name or f"gammonlab (gammon rate {rate_text}, cube efficiency {cube_efficiency:.3g})",
        pre_crawford=pre,
        post_crawford=np.array(post),
        description="computed by gammonlab.met.generate from gammon rates",
        source="gammonlab.met.generate",
        parameters=parameters,
    )


def _constant(value: float) -> Callable[[int, int], float]:
    def rate(away: int, opp_away: int) -> float:
        return value

    return rate


def _free_drop_post_crawford(size: int, gammon_rate: float, swing: float) -> list[float]:
    """The trailer's post-Crawford chance with the leader's free drops.

    The trailer at ``n`` doubles at once (the leader's cube is dead, R10.2).
    Taken, the game is worth ``p * T`` to the trailer, ``T`` the gammon-weighted
    chance after a win; passed, the trailer's chance one point nearer, ``D``.
    With ``p ~ N(0.5, swing^2)`` when the leader decides, the leader passes when
    ``p T > D``, so the trailer gets ``E[min(p T, D)]``.
    """
    trailing = [1.0] * (size + 1)
    trailing[1] = 0.5

    def at(n: int) -> float:
        return 1.0 if n <= 0 else trailing[n]

    for n in range(2, size + 1):
        take = (1.0 - gammon_rate) * at(n - 2) + gammon_rate * at(n - 4)
        drop = at(n - 1)
        if swing > 0.0:
            threshold = drop / take
            z = (0.5 - threshold) / swing
            density = math.exp(-0.5 * z * z) / math.sqrt(2.0 * math.pi)
            free_drop = take * (swing * density + (0.5 - threshold) * _normal_cdf(z))
        else:
            free_drop = max(0.0, 0.5 * take - drop)
        trailing[n] = 0.5 * take - free_drop
    return trailing[1:]


def _cube_recursion(
    size: int,
    *,
    win_rate: float,
    gammon_rate: Callable[[int, int], float],
    crawford_gammon_rate: float,
    cube_efficiency: float,
    post_trailing: list[float],
    post_leading: list[float],
) -> np.ndarray:
    """Pre-Crawford match winning chances of player A under the live-cube model.

    ``post_trailing[n]`` / ``post_leading[n]`` are A's post-Crawford chances
    when A is ``n``-away / 1-away (index 0 means A / B has won). ``win_rate`` is
    A's chance to win a game. See :func:`generate` for the model.
    """
    x = cube_efficiency
    w = win_rate
    crawford_trailing = [1.0] * (size + 1)  # A n-away, B 1-away, Crawford game
    crawford_leading = [0.0] * (size + 1)  # A 1-away, B n-away
    g = crawford_gammon_rate

    def post_t(n: int) -> float:
        return 1.0 if n <= 0 else post_trailing[n]

    def post_l(n: int) -> float:
        return 0.0 if n <= 0 else post_leading[n]

    for n in range(2, size + 1):
        crawford_trailing[n] = w * ((1.0 - g) * post_t(n - 1) + g * post_t(n - 2))
        crawford_leading[n] = w + (1.0 - w) * ((1.0 - g) * post_l(n - 1) + g * post_l(n - 2))

    table = np.full((size + 1, size + 1), np.nan)

    def mwc(a: int, b: int) -> float:
        if a <= 0:
            return 1.0
        if b <= 0:
            return 0.0
        if a == 1 and b == 1:
            return post_trailing[1]
        if a == 1:
            return crawford_leading[b]
        if b == 1:
            return crawford_trailing[a]
        return float(table[a][b])

    for total in range(4, 2 * size + 1):
        for a in range(2, size + 1):
            b = total - a
            if 2 <= b <= size:
                table[a][b] = _centred_value(a, b, w, gammon_rate(a, b), gammon_rate(b, a), x, mwc)

    out = np.empty((size, size))
    for a in range(1, size + 1):
        for b in range(1, size + 1):
            out[a - 1][b - 1] = mwc(a, b)
    return out


def _root(f: Callable[[float], float], knot: float) -> float:
    """The root of an increasing function on [0, 1], linear on either side of ``knot``.

    Returns 0 or 1 when the function does not cross zero.
    """
    knot = min(max(knot, 0.0), 1.0)
    low, middle, high = f(0.0), f(knot), f(1.0)
    if low >= 0.0:
        return 0.0
    if high <= 0.0:
        return 1.0
    if middle >= 0.0:
        return knot * -low / (middle - low)
    return knot + (1.0 - knot) * -middle / (high - middle)


def _centred_value(
    a: int,
    b: int,
    w: float,
    gammons_a: float,
    gammons_b: float,
    x: float,
    mwc: Callable[[int, int], float],
) -> float:
    """A's chance at a-away b-away, cube centred at 1, A winning a game with ``w``."""

    def win(cube: int) -> float:
        return (1.0 - gammons_a) * mwc(a - cube, b) + gammons_a * mwc(a - 2 * cube, b)

    def lose(cube: int) -> float:
        return (1.0 - gammons_b) * mwc(a, b - cube) + gammons_b * mwc(a, b - 2 * cube)

    def dead(cube: int, p: float) -> float:
        return p * win(cube) + (1.0 - p) * lose(cube)

    @functools.cache
    def a_cash(cube: int) -> float:
        """A's winning chance at which B passes A's double from ``cube``."""
        if a <= cube:
            return 1.0  # A's cube is dead: a single win already wins the match
        redouble = b_cash(2 * cube)
        passed, b_cashes = mwc(a - cube, b), mwc(a, b - 2 * cube)
        top, bottom = win(2 * cube), lose(2 * cube)

        def taken(p: float) -> float:
            if p >= redouble:
                live = (
                    top
                    if redouble >= 1.0
                    else (b_cashes + (top - b_cashes) * (p - redouble) / (1.0 - redouble))
                )
            else:
                live = bottom + (b_cashes - bottom) * p / redouble
            return x * live + (1.0 - x) * dead(2 * cube, p) - passed

        return _root(taken, redouble)

    @functools.cache
    def b_cash(cube: int) -> float:
        """A's winning chance below which A passes B's double from ``cube``."""
        if b <= cube:
            return 0.0
        redouble = a_cash(2 * cube)
        passed, a_cashes = mwc(a, b - cube), mwc(a - 2 * cube, b)
        top, bottom = win(2 * cube), lose(2 * cube)

        def taken(p: float) -> float:
            if p <= redouble:
                live = a_cashes if redouble <= 0.0 else bottom + (a_cashes - bottom) * p / redouble
            else:
                live = a_cashes + (top - a_cashes) * (p - redouble) / (1.0 - redouble)
            return x * live + (1.0 - x) * dead(2 * cube, p) - passed

        return _root(taken, redouble)

    mine, theirs = a_cash(1), b_cash(1)
    a_cashes, b_cashes = mwc(a - 1, b), mwc(a, b - 1)
    if w >= mine:
        live = win(1) if mine >= 1.0 else a_cashes + (win(1) - a_cashes) * (w - mine) / (1.0 - mine)
    elif w <= theirs:
        live = b_cashes if theirs <= 0.0 else lose(1) + (b_cashes - lose(1)) * w / theirs
    else:
        live = b_cashes + (a_cashes - b_cashes) * (w - theirs) / (mine - theirs)
    return x * live + (1.0 - x) * dead(1, w)
