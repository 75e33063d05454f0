"""Cubeful equities of many positions at once: the arithmetic of :mod:`gammonlab.cube`.

:mod:`gammonlab.cube` judges one position at a time; analysis judges every play
of every roll, so the same formulas (Janowski's for money play, their
match-play generalisation with live cash points found level by level up the
cube, GNU Backgammon's cube efficiencies) run here in numba kernels over arrays
of probabilities. The match equity table is read in Python, once per score and
cube (:meth:`Cube.constants`); the kernels only do arithmetic. The tests hold the
two implementations to the same numbers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from numba import njit

from ..cube import theory as cube_theory
from ..met import MatchEquityTable
from ..rules import CHECKERS, HOME_POINTS

if TYPE_CHECKING:
    from ..state import GameState

CENTRED, MINE, THEIRS = 0, 1, 2
"""Who owns the cube, seen from the player on roll."""
NO_DOUBLE, DOUBLE, TOO_GOOD = "No double", "Double", "Too good to double"
TAKE, PASS, BEAVER = "take", "pass", "beaver"

_CONTACT = cube_theory.CONTACT_CUBE_EFFICIENCY
_BEAROFF = cube_theory.BEAROFF_CUBE_EFFICIENCY
_RACE_BASE = cube_theory.RACE_CUBE_EFFICIENCY_BASE
_RACE_PER_PIP = cube_theory.RACE_CUBE_EFFICIENCY_PER_PIP
_RACE_MIN = cube_theory.RACE_CUBE_EFFICIENCY_MIN
_RACE_MAX = cube_theory.RACE_CUBE_EFFICIENCY_MAX
_EPSILON = 1e-7  # below this winning chance the cube is dead (GNU Backgammon's Cl2CfMoney)
_DEAD_LEVEL, _LIVE_LEVEL = 0.0, 1.0


@dataclass(frozen=True)
class Cube:
    """The cube and score seen from the player on roll, who may double.

    Values are money equity per unit of the cube in play, or match winning
    chances (MWC); :meth:`to_equity` normalises the latter like GNU Backgammon.
    """

    money: bool
    cube: int
    owner: int
    jacoby: bool = False
    beavers: bool = False
    limit: int | None = None
    away: int = 0
    opp_away: int = 0
    crawford: bool = False
    player: int = 0
    table: MatchEquityTable | None = field(default=None, compare=False)
    # match winning chances and kernel constants by score, shared by all the copies
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, state: GameState, table: MatchEquityTable | None,
           memo: dict[Any, Any] | None = None) -> Cube:
        me = state.on_roll
        owner = (CENTRED if state.cube_owner is None
                 else MINE if state.cube_owner == me else THEIRS)
        if state.match_length == 0:
            return cls(money=True, cube=state.cube_value, owner=owner, jacoby=state.jacoby,
                       beavers=state.beavers, limit=state.cube_limit, player=me)
        return cls(money=False, cube=state.cube_value, owner=owner, limit=state.cube_limit,
                   away=state.match_length - state.score[me],
                   opp_away=state.match_length - state.score[1 - me],
                   crawford=state.crawford, player=me, table=table,
                   memo={} if memo is None else memo)

    def swapped(self) -> Cube:
        """The same cube seen from the opponent."""
        owner = {CENTRED: CENTRED, MINE: THEIRS, THEIRS: MINE}[self.owner]
        return Cube(self.money, self.cube, owner, self.jacoby, self.beavers, self.limit,
                    self.opp_away, self.away, self.crawford, 1 - self.player, self.table,
                    self.memo)

    def doubled(self) -> Cube:
        """After a double is taken: twice the cube, owned by the taker (R9.4)."""
        return Cube(self.money, 2 * self.cube, THEIRS, self.jacoby, self.beavers, self.limit,
                    self.away, self.opp_away, self.crawford, self.player, self.table, self.memo)

    @property
    def can_turn(self) -> bool:
        return self.limit is None or 2 * self.cube <= self.limit

    def may_double(self) -> bool:
        """GNU Backgammon's GetDPEq: the player on roll has a cube decision."""
        if self.owner == THEIRS or not self.can_turn:
            return False
        if self.money:
            return True
        return not self.crawford and self.away > self.cube

    def mwc_after(self, mine: int, theirs: int) -> float:
        """Match winning chance once this game ends with those points won."""
        away, opp_away = self.away - mine, self.opp_away - theirs
        if away <= 0:
            return 1.0
        if opp_away <= 0:
            return 0.0
        # the game after the first to reach 1-away is the Crawford game (R10.2)
        crawford_next = not (self.crawford or self.away == 1 or self.opp_away == 1)
        key = (away, opp_away, crawford_next, self.player)
        value = self.memo.get(key)
        if value is None:
            assert self.table is not None
            value = self.table.equity(away, opp_away, crawford=crawford_next,
                                      player=self.player)
            self.memo[key] = value
        return value

    def to_equity(self, mwc: Any) -> Any:
        """Match winning chances as normalised equity (money: unchanged)."""
        if self.money:
            return mwc
        win, lose = self.mwc_after(self.cube, 0), self.mwc_after(0, self.cube)
        if win == lose:
            return mwc * 0.0
        return (2.0 * mwc - (win + lose)) / (win - lose)

    def to_mwc(self, equity: Any) -> Any:
        """Normalised equity as match winning chances (the inverse of :meth:`to_equity`)."""
        win, lose = self.mwc_after(self.cube, 0), self.mwc_after(0, self.cube)
        return (equity * (win - lose) + (win + lose)) / 2.0

    def mwc_per_equity(self) -> float:
        """Match winning chance of one unit of normalised equity (NaN in money play)."""
        if self.money:
            return math.nan
        return (self.mwc_after(self.cube, 0) - self.mwc_after(0, self.cube)) / 2.0

    def opposite(self, value: Any) -> Any:
        """A value (money equity or MWC) seen from the other side."""
        return -value if self.money else 1.0 - value

    def alive(self) -> bool:
        """Match play: whether the cube can still change hands (GNU Backgammon's fDoCubeful)."""
        if self.away <= self.cube and self.opp_away <= self.cube:
            return False  # whoever wins wins the match
        if self.away == 2 and self.opp_away == 2:
            return False  # the first double kills the cube
        return not self.crawford and self.can_turn

    def constants(self) -> tuple[np.ndarray, np.ndarray]:
        """What the match kernel needs from the match equity table at this score and cube.

        ``results``: MWC after winning 1, 2, 3 cubes, then after losing them.
        ``levels[level, side]`` (side 0 the player on roll, 1 the opponent): for
        each cube level still live, ``[kind, W1, W2, W4, W6, L2, L4, L6, P]``,
        the MWC after winning or losing that many times the level's cube (the
        doubled cube's when it is dead), and ``P`` after a pass.
        """
        key = ("constants", self.away, self.opp_away, self.cube, self.crawford, self.player)
        found = self.memo.get(key)
        if found is not None:
            return found  # type: ignore[no-any-return]
        c = self.cube
        m = self.mwc_after
        results = np.array([m(c, 0), m(2 * c, 0), m(3 * c, 0), m(0, c), m(0, 2 * c),
                            m(0, 3 * c)])
        count, value = 0, c
        while self.away > 2 * value and self.opp_away > 2 * value:
            count += 1
            value *= 2
        levels = np.zeros((count + 1, 2, 9))
        for level in range(count + 1):
            value = c << level
            for side, mine in enumerate((True, False)):
                own, other = (self.away, self.opp_away) if mine else (self.opp_away, self.away)
                if self.away <= 2 * value or self.opp_away <= 2 * value:
                    # the doubled cube is dead; a taker who cannot lose more redoubles at once
                    prime = 2 * value if own <= 2 * value < other else value
                    win, lose = self._results(prime, mine)
                    levels[level, side] = (_DEAD_LEVEL, 0.0, win(2), win(4), win(6), lose(2),
                                           lose(4), lose(6), self._results(value, mine)[0](1))
                else:
                    win, lose = self._results(value, mine)
                    levels[level, side] = (_LIVE_LEVEL, win(1), win(2), win(4), win(6), lose(2),
                                           0.0, 0.0, 0.0)
        self.memo[key] = (results, levels)
        return results, levels

    def _results(self, value: int, mine: bool) -> tuple[Any, Any]:
        """MWC of me (or the opponent) after winning / losing ``k`` times ``value`` points."""
        m = self.mwc_after
        if mine:
            return (lambda k: m(k * value, 0)), (lambda k: m(0, k * value))
        return (lambda k: 1.0 - m(0, k * value)), (lambda k: 1.0 - m(k * value, 0))


# -- kernels --------------------------------------------------------------------------------------


@njit(cache=True, error_model="numpy")
def _money_kernel(p, x, owner, jacoby_centred, can_turn):  # pragma: no cover - compiled
    """Cubeful money equity per cube: GNU Backgammon's Cl2CfMoney (Janowski)."""
    n = p.shape[0]
    out = np.empty(n)
    for i in range(n):
        w, wg, wbg, lg, lbg = p[i, 0], p[i, 1], p[i, 2], p[i, 3], p[i, 4]
        if jacoby_centred:
            dead = 2.0 * w - 1.0  # R10.1: gammons count single while the cube is centred
        else:
            dead = 2.0 * w - 1.0 + wg - lg + wbg - lbg
        if not can_turn or w <= _EPSILON or w >= 1.0 - _EPSILON:
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


@njit(cache=True, error_model="numpy")
def _match_kernel(p, x, owner, alive, results, levels):  # pragma: no cover - compiled
    """Cubeful match winning chance: GNU Backgammon's Cl2CfMatch (live cash points)."""
    n = p.shape[0]
    out = np.empty(n)
    won1, won2, won3, lost1, lost2, lost3 = (results[0], results[1], results[2], results[3],
                                             results[4], results[5])
    for i in range(n):
        w, wg, wbg, lg, lbg = p[i, 0], p[i, 1], p[i, 2], p[i, 3], p[i, 4]
        dead = ((w - wg) * won1 + (wg - wbg) * won2 + wbg * won3
                + (1.0 - w - lg) * lost1 + (lg - lbg) * lost2 + lbg * lost3)
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
                if c[0] == _DEAD_LEVEL:
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
        if owner == CENTRED:
            if w <= opp_too_good:
                live = lost + (lost1 - lost) * w / opp_too_good if opp_too_good > 0.0 else lost
            elif w < too_good:
                live = lost1 + (won1 - lost1) * (w - opp_too_good) / (too_good - opp_too_good)
            else:
                live = won1 + (won - won1) * (w - too_good) / (1.0 - too_good) \
                    if too_good < 1.0 else won
        elif owner == MINE:
            if w <= too_good:
                live = lost + (won1 - lost) * w / too_good if too_good > 0.0 else lost
            else:
                live = won1 + (won - won1) * (w - too_good) / (1.0 - too_good) \
                    if too_good < 1.0 else won
        elif w <= opp_too_good:
            live = lost + (lost1 - lost) * w / opp_too_good if opp_too_good > 0.0 else lost
        else:
            live = lost1 + (won - lost1) * (w - opp_too_good) / (1.0 - opp_too_good) \
                if opp_too_good < 1.0 else won
        out[i] = dead * (1.0 - x[i]) + live * x[i]
    return out


@njit(cache=True)
def _efficiency_kernel(boards, checkers, small_variant, base, per_pip, low, high, contact_x,
                       bearoff_x):  # pragma: no cover - compiled
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


# -- the functions analysis uses ------------------------------------------------------------------


def cubeful(p: np.ndarray, cube: Cube, x: np.ndarray) -> np.ndarray:
    """Money: equity per cube. Match: MWC. The cube as it stands, no cube action now."""
    p = np.ascontiguousarray(p, dtype=np.float64)
    x = np.ascontiguousarray(np.broadcast_to(x, (len(p),)), dtype=np.float64)
    if cube.money:
        return _money_kernel(p, x, cube.owner, cube.jacoby and cube.owner == CENTRED,
                             cube.can_turn)
    results, levels = cube.constants()
    return _match_kernel(p, x, cube.owner, cube.alive(), results, levels)


def options(p: np.ndarray, cube: Cube, x: np.ndarray) -> tuple[np.ndarray, Any, Any]:
    """No double, double/take, double/pass: money equity per cube, or MWC in a match.

    Double/take and double/pass are ``None`` when the player on roll may not double.
    """
    no_double = cubeful(p, cube, x)
    if not cube.may_double():
        return no_double, None, None
    if cube.money:
        return no_double, 2.0 * cubeful(p, cube.doubled(), x), 1.0
    return no_double, cubeful(p, cube.doubled(), x), cube.mwc_after(cube.cube, 0)


def value_on_roll(p: np.ndarray, cube: Cube, x: np.ndarray) -> np.ndarray:
    """Value (money equity per cube, or MWC) for the player on roll, who doubles when right.

    GNU Backgammon's 0-ply evaluation of a position reached by a play (GetECF3):
    the player now on roll doubles when double/take and double/pass are both
    at least no double; the taker then takes or passes, whichever is better.
    """
    no_double, double_take, double_pass = options(p, cube, x)
    if double_take is None:
        return no_double
    doubles = (double_take >= no_double) & (double_pass >= no_double)
    return np.where(doubles, np.minimum(double_take, double_pass), no_double)


def cube_efficiencies(boards: np.ndarray, checkers: int) -> np.ndarray:
    """GNU Backgammon's cube efficiency of boards ``(n, 2, 26)`` seen from the side on roll.

    The values of :func:`gammonlab.cube.cube_efficiency`: 0.68 in contact, 0.6 in
    bear-offs and small variants, ``0.55 + 0.00125 * pips`` (0.6 to 0.7) in other
    races, 0 once the game is over.
    """
    return _efficiency_kernel(np.ascontiguousarray(boards, dtype=np.int8), checkers,
                              checkers < CHECKERS, _RACE_BASE, _RACE_PER_PIP, _RACE_MIN,
                              _RACE_MAX, _CONTACT, _BEAROFF)


@dataclass(frozen=True)
class Decision:
    """A cube decision as :class:`gammonlab.cube.CubeDecision` gives it (the parts analysis uses).

    Equities are normalised, from the doubler's side.
    """

    verdict: str
    response: str | None
    no_double: float
    double_take: float | None
    double_pass: float | None
    equity: float
    errors: dict[str, float]


def decide(p: np.ndarray, cube: Cube, x: float) -> Decision:
    """The proper cube action of the player on roll, as :func:`gammonlab.cube.cube_decision`.

    The same comparisons as GNU Backgammon's FindBestCubeDecision (see that
    function's notes): double when double/take and double/pass are both at
    least no double; the taker answers with whatever leaves the doubler least
    (a beaver, R10.6, when allowed and the take is good for the taker); too good
    when playing on beats cashing and a gammon is possible.
    """
    row = np.asarray(p, dtype=np.float64).reshape(1, 5)
    nd_value, dt_value, dp_value = options(row, cube, np.array([x]))
    no_double = float(cube.to_equity(nd_value[0]))
    if dt_value is None:
        return Decision(NO_DOUBLE, None, no_double, None, None, no_double, {NO_DOUBLE: 0.0})
    double_take = float(cube.to_equity(dt_value[0]))
    double_pass = float(cube.to_equity(dp_value))
    beaver = 2.0 * double_take if cube.money and cube.beavers else None
    answers = {TAKE: double_take, PASS: double_pass}
    if beaver is not None and double_take < 0.0:
        answers[BEAVER] = beaver
    response = min(answers, key=lambda name: (answers[name], name != PASS))
    doubled = answers[response]
    if double_take >= no_double and double_pass >= no_double:
        action = DOUBLE
        if response == BEAVER and beaver is not None and beaver < no_double:
            action = NO_DOUBLE
    elif no_double > double_pass and row[0, 1] > 0.0:
        action = TOO_GOOD
    elif no_double > double_pass and double_take > double_pass:
        action, response, doubled = DOUBLE, PASS, double_pass  # no gammon: cash
    else:
        action = NO_DOUBLE
    if action == DOUBLE:
        verdict = f"{DOUBLE}, {response}"
    elif action == TOO_GOOD:
        verdict = f"{TOO_GOOD}, {TAKE if double_take <= double_pass else PASS}"
    else:
        verdict = NO_DOUBLE + (", beaver" if response == BEAVER else "")
    best = doubled if action == DOUBLE else no_double
    errors = {NO_DOUBLE: best - no_double, DOUBLE: best - doubled,
              "Take": double_take - doubled, "Pass": double_pass - doubled}
    if BEAVER in answers:
        errors["Beaver"] = answers[BEAVER] - doubled
    return Decision(verdict, response, no_double, double_take, double_pass, best, errors)
