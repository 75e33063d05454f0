"""Cube theory: cubeful equities from cubeless probabilities (Janowski's model), take and
cash points, gammon values and market windows, for money and match play."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from .._kernels import cube as _cube
from ..errors import (
    ArgumentError,
    ArgumentTypeError,
    CubeError,
    InvalidProbabilitiesError,
)
from ..met import DEFAULT_TABLE, MatchEquityTable, load
from ..rules import CHECKERS

if TYPE_CHECKING:
    from ..position import Position
    from ..state import GameState


__all__ = [
    "CONTACT_CUBE_EFFICIENCY",
    "CubePoints",
    "GammonValues",
    "InvalidProbabilitiesError",
    "MarketWindow",
    "cube_efficiency",
    "cube_points",
    "cubeful_equity",
    "cubeful_mwc",
    "gammon_values",
    "market_window",
    "take_point",
]

# -- constants ------------------------------------------------------------------------------------

WIN, WIN_GAMMON, WIN_BACKGAMMON, LOSE_GAMMON, LOSE_BACKGAMMON = range(5)
_OUTPUTS = 5
_PROBABILITY_NAMES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")

CENTRED, MINE, THEIRS = "centred", "player on roll", "opponent"
"""Who owns the cube, seen from the player on roll."""

CONTACT_CUBE_EFFICIENCY = 0.68
"""GNU Backgammon's cube efficiency for contact and crashed positions, and the default here."""
BEAROFF_CUBE_EFFICIENCY = 0.60
"""Bear-offs (both sides home) and Hypergammon."""
RACE_CUBE_EFFICIENCY_PER_PIP = 0.00125
RACE_CUBE_EFFICIENCY_BASE = 0.55
RACE_CUBE_EFFICIENCY_MIN, RACE_CUBE_EFFICIENCY_MAX = 0.60, 0.70
"""Races: ``0.55 + 0.00125 * pips`` of the player on roll, kept within 0.60-0.70."""

_OPTIONAL = 1e-5
"""Equities this close count as equal: the double is optional (GNU Backgammon's tolerance)."""
_TOLERANCE = 1e-6
"""Slack allowed in probabilities that should be ordered (rounding in rollouts)."""
_BISECTION_STEPS = 60
_TIE = 1e-12
"""Margin by which playing on must beat cashing to count as too good."""
_SINGLE, _GAMMON, _BACKGAMMON = 1, 2, 3
"""Points of a single game, a gammon and a backgammon (R8.2)."""

NO_DOUBLE, DOUBLE, TOO_GOOD = "No double", "Double", "Too good to double"
TAKE, PASS, BEAVER = "take", "pass", "beaver"


# -- inputs ---------------------------------------------------------------------------------------


def _probabilities(source: Any) -> tuple[np.ndarray, dict[str, float] | None]:
    """Five checked probabilities from a sequence, a mapping or a rollout-like object."""
    # a RolloutResult's field, a rollout_many row's column, to_series()'s attrs
    scoring = (
        source.get("scoring", "standard")
        if isinstance(source, Mapping)
        else getattr(source, "scoring", None)
    )
    if scoring is None:
        attrs = getattr(source, "attrs", None)
        scoring = attrs.get("scoring", "standard") if isinstance(attrs, Mapping) else "standard"
    if isinstance(scoring, str) and scoring != "standard":
        raise InvalidProbabilitiesError(
            f"these probabilities are under {scoring!r} scoring (R8.4: 1; 2 if the loser has "
            "a checker outside its home board; 4 if one on the bar); the cube theory values "
            "gammons at 2 and backgammons at 3 points (R8.2) only"
        )
    stderr = None
    if all(hasattr(source, name) for name in _PROBABILITY_NAMES):
        values = [getattr(source, name) for name in _PROBABILITY_NAMES]
        stderr = getattr(source, "stderr", None)
    elif isinstance(source, Mapping) and all(name in source for name in _PROBABILITY_NAMES):
        values = [source[name] for name in _PROBABILITY_NAMES]
    else:
        values = source
    try:
        p = np.asarray(values, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise InvalidProbabilitiesError(
            f"expected five probabilities (win, win gammon, win backgammon, lose gammon, "
            f"lose backgammon), got {source!r}"
        ) from None
    if p.shape != (_OUTPUTS,):
        raise InvalidProbabilitiesError(f"expected five probabilities, got {p.size}: {source!r}")
    if not np.all(np.isfinite(p)):
        raise InvalidProbabilitiesError(f"probabilities must be finite, got {p.tolist()}")
    if p.min() < -_TOLERANCE or p.max() > 1.0 + _TOLERANCE:
        raise InvalidProbabilitiesError(f"probabilities must lie in [0, 1], got {p.tolist()}")
    p = np.clip(p, 0.0, 1.0)
    w, wg, wbg, lg, lbg = p
    if wbg > wg + _TOLERANCE or wg > w + _TOLERANCE:
        raise InvalidProbabilitiesError(
            f"need win >= win gammon >= win backgammon, got {w:.4f}, {wg:.4f}, {wbg:.4f}"
        )
    if lbg > lg + _TOLERANCE or lg > 1.0 - w + _TOLERANCE:
        raise InvalidProbabilitiesError(
            f"need 1 - win >= lose gammon >= lose backgammon, got {1 - w:.4f}, {lg:.4f}, {lbg:.4f}"
        )
    p[WIN_GAMMON] = min(wg, w)
    p[WIN_BACKGAMMON] = min(wbg, p[WIN_GAMMON])
    p[LOSE_GAMMON] = min(lg, 1.0 - w)
    p[LOSE_BACKGAMMON] = min(lbg, p[LOSE_GAMMON])
    p.setflags(write=False)
    return p, _stderr(stderr)


def _stderr(stderr: Any) -> dict[str, float] | None:
    """A rollout's standard errors as a plain dict (a mapping or a pandas Series)."""
    if stderr is None:
        return None
    try:
        return {str(name): float(value) for name, value in dict(stderr).items()}
    except (TypeError, ValueError):
        return None


@dataclass(frozen=True)
class _Situation:
    """The cube and score, seen from the player on roll (who may double).

    Values are money equity per unit of the cube in play, or match winning
    chances (MWC); :meth:`to_equity` normalises the latter like GNU Backgammon.
    """

    money: bool = True
    away: int = 0
    opp_away: int = 0
    cube: int = 1
    owner: str = CENTRED
    crawford: bool = False
    jacoby: bool = False
    beavers: bool = False
    cube_limit: int | None = None
    player: int = 0
    met: MatchEquityTable | None = None
    # match winning chances and kernel constants by score, shared by all the copies
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(
        cls, state: GameState, met: MatchEquityTable | None, memo: dict[Any, Any] | None = None
    ) -> _Situation:
        """The situation of a state, unchecked; ``met`` is the table itself (match play)."""
        me = state.on_roll
        owner = (
            CENTRED if state.cube_owner is None else (MINE if state.cube_owner == me else THEIRS)
        )
        common: dict[str, Any] = {  # money or match: the cube, the player on roll, the memo
            "cube": state.cube_value,
            "owner": owner,
            "cube_limit": state.cube_limit,
            "player": me,
            "memo": {} if memo is None else memo,
        }
        if state.match_length == 0:
            return cls(money=True, jacoby=state.jacoby, beavers=state.beavers, **common)
        return cls(
            money=False,
            away=state.match_length - state.score[me],
            opp_away=state.match_length - state.score[1 - me],
            crawford=state.crawford,
            met=met,
            **common,
        )

    @property
    def post_crawford(self) -> bool:
        return not self.money and not self.crawford and (self.away == 1 or self.opp_away == 1)

    @property
    def can_turn(self) -> bool:
        """Whether the cube's holder (or either player, centred) may double it (R9.6 limits)."""
        return self.cube_limit is None or 2 * self.cube <= self.cube_limit

    def swapped(self) -> _Situation:
        """The same situation seen from the opponent."""
        owner = {CENTRED: CENTRED, MINE: THEIRS, THEIRS: MINE}[self.owner]
        return replace(
            self, away=self.opp_away, opp_away=self.away, owner=owner, player=1 - self.player
        )

    def doubled(self) -> _Situation:
        """After a double is taken: twice the cube, owned by the taker (R9.4)."""
        return replace(self, cube=2 * self.cube, owner=THEIRS)

    def may_double(self) -> bool:
        """GNU Backgammon's GetDPEq: the player on roll has a cube decision."""
        return not _double_unavailable(self)

    def alive(self) -> bool:
        """Match play: whether the cube can still change hands (GNU Backgammon's fDoCubeful)."""
        if self.away <= self.cube and self.opp_away <= self.cube:
            return False  # whoever wins wins the match: a dead cube
        if self.away == 2 and self.opp_away == 2:
            return False  # 2-away 2-away: the first double kills the cube
        if self.crawford:
            return False  # no doubling in the Crawford game (R10.2)
        return self.can_turn

    def mwc_after(self, my_points: int, opp_points: int) -> float:
        """My match winning chance once this game is over with those points won."""
        away, opp_away = self.away - my_points, self.opp_away - opp_points
        if away <= 0:
            return 1.0
        if opp_away <= 0:
            return 0.0
        # the game after the first one that reaches 1-away is the Crawford game (R10.2)
        crawford_next = not (self.crawford or self.away == 1 or self.opp_away == 1)
        key = (away, opp_away, crawford_next, self.player)
        value = self.memo.get(key)
        if value is None:
            assert self.met is not None
            value = self.met.equity(away, opp_away, crawford=crawford_next, player=self.player)
            self.memo[key] = value
        return value  # type: ignore[no-any-return]

    def to_equity(self, mwc: Any) -> Any:
        """Match winning chances as normalised equity (money: unchanged).

        -1 is losing the cube's points now, +1 winning them.
        """
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

    def constants(self) -> tuple[np.ndarray, np.ndarray]:
        """What :func:`gammonlab._kernels.cube.match_cubeful` needs from the table here.

        ``results``: MWC after winning 1, 2, 3 cubes, then after losing them.
        ``levels[level, side]`` (side 0 the player on roll, 1 the opponent): for
        each cube level still live, ``[kind, W1, W2, W4, W6, L2, L4, L6, P]``,
        the MWC after winning or losing that many times the level's cube (the
        doubled cube's when it is dead), and ``P`` after a pass: GNU
        Backgammon's GetPoints. At the highest level still live the doubled
        cube is dead and the cash point is the dead one (an automatic redouble
        by the taker counted); below it, a player cashes where the taker,
        owning the doubled cube and redoubling at their own cash point, is
        indifferent between passing and taking.
        """
        key = ("constants", self.away, self.opp_away, self.cube, self.crawford, self.player)
        found = self.memo.get(key)
        if found is not None:
            return found  # type: ignore[no-any-return]
        c = self.cube
        win, lose = _results(self, c, True)
        results = np.array(
            [
                win(_SINGLE),
                win(_GAMMON),
                win(_BACKGAMMON),
                lose(_SINGLE),
                lose(_GAMMON),
                lose(_BACKGAMMON),
            ]
        )
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
                    win, lose = _results(self, prime, mine)
                    levels[level, side] = (
                        _cube.DEAD_LEVEL,
                        0.0,
                        win(2),
                        win(4),
                        win(6),
                        lose(2),
                        lose(4),
                        lose(6),
                        _results(self, value, mine)[0](1),
                    )
                else:
                    win, lose = _results(self, value, mine)
                    levels[level, side] = (
                        _cube.LIVE_LEVEL,
                        win(1),
                        win(2),
                        win(4),
                        win(6),
                        lose(2),
                        0.0,
                        0.0,
                        0.0,
                    )
        self.memo[key] = (results, levels)
        return results, levels

    def describe(self) -> str:
        if self.money:
            extras = [
                name for name, on in (("Jacoby", self.jacoby), ("beavers", self.beavers)) if on
            ]
            text = "money game" + (f" ({', '.join(extras)})" if extras else "")
        else:
            text = f"{self.away}-away, {self.opp_away}-away"
            if self.crawford:
                text += ", Crawford game"
            elif self.post_crawford:
                text += ", post-Crawford"
        owner = "centred" if self.owner == CENTRED else f"owned by the {self.owner}"
        limit = f", limit {self.cube_limit}" if self.cube_limit is not None else ""
        return f"{text}; cube {self.cube} {owner}{limit}"


def _state(state: GameState | str | None) -> GameState | None:
    if isinstance(state, str):
        from ..state import GameState

        return GameState.from_id(state)
    return state


def _looks_like_probabilities(value: Any) -> bool:
    """Whether ``value`` is plainly five probabilities (or a rollout-like holder of them)."""
    if value is None or isinstance(value, str):
        return False
    if all(hasattr(value, name) for name in _PROBABILITY_NAMES):
        return True
    if isinstance(value, Mapping):
        return all(name in value for name in _PROBABILITY_NAMES)
    if isinstance(value, (list, tuple, np.ndarray)):
        try:
            array = np.asarray(value, dtype=np.float64)
        except (TypeError, ValueError):
            return False
        return array.shape == (_OUTPUTS,)
    return False


def _ordered(state: Any, probabilities: Any, name: str) -> tuple[Any, Any]:
    """``(state, probabilities)``, also from a call in the old ``(probabilities, state)`` order.

    The old order is recognised when the first argument is plainly probabilities and the
    second is a game state, an ID string or nothing; it warns with a DeprecationWarning.
    """
    from ..state import GameState

    if _looks_like_probabilities(state) and (
        probabilities is None or isinstance(probabilities, (GameState, str))
    ):
        warnings.warn(
            f"{name}(probabilities, state) is deprecated: pass the state first, "
            f"{name}(state, probabilities)",
            DeprecationWarning,
            stacklevel=3,
        )
        return probabilities, state
    return state, probabilities


def _required(probabilities: Any, name: str) -> Any:
    if probabilities is None:
        raise InvalidProbabilitiesError(
            f"{name} needs the five probabilities of the player on roll"
        )
    return probabilities


def _table(met: MatchEquityTable | str | None, needed: int) -> MatchEquityTable:
    """The match equity table, extended when the match is longer than 25 points."""
    if isinstance(met, MatchEquityTable):
        return met
    if met is not None and not isinstance(met, str):
        raise ArgumentTypeError(
            f"met must be a MatchEquityTable or a table name, got {type(met).__name__}"
        )
    table = load(met or DEFAULT_TABLE)
    return table if needed <= table.max_away else load(met or DEFAULT_TABLE, max_away=needed)


def _situation(state: GameState | None, met: MatchEquityTable | str | None) -> _Situation:
    if state is None:
        return _Situation()
    if state.match_length == 0:
        return _Situation.of(state, None)
    me = state.on_roll
    away = state.match_length - state.score[me]
    opp_away = state.match_length - state.score[1 - me]
    if away < 1 or opp_away < 1:
        raise CubeError(
            f"the match is over: score {state.score[0]}-{state.score[1]} to {state.match_length}"
        )
    if state.crawford and away != 1 and opp_away != 1:
        raise CubeError(
            f"a Crawford game needs a player at 1-away (R10.2), got {away}-away, {opp_away}-away"
        )
    return _Situation.of(state, _table(met, max(away, opp_away)))


def _gammon_ratios(p: np.ndarray) -> tuple[float, float, float, float]:
    """Gammons (not backgammons) and backgammons as fractions of wins and of losses."""
    w = p[WIN]
    if w > 0.0:
        win_g, win_bg = (p[WIN_GAMMON] - p[WIN_BACKGAMMON]) / w, p[WIN_BACKGAMMON] / w
    else:
        win_g = win_bg = 0.0
    if w < 1.0:
        lose_g = (p[LOSE_GAMMON] - p[LOSE_BACKGAMMON]) / (1.0 - w)
        lose_bg = p[LOSE_BACKGAMMON] / (1.0 - w)
    else:
        lose_g = lose_bg = 0.0
    return float(win_g), float(win_bg), float(lose_g), float(lose_bg)


def with_winning_chance(p: np.ndarray, win: float) -> np.ndarray:
    """Probabilities with another winning chance and the same gammon ratios."""
    win_g, win_bg, lose_g, lose_bg = _gammon_ratios(p)
    return np.array(
        [
            win,
            win * (win_g + win_bg),
            win * win_bg,
            (1.0 - win) * (lose_g + lose_bg),
            (1.0 - win) * lose_bg,
        ]
    )


def _swap(p: np.ndarray) -> np.ndarray:
    """The probabilities seen from the opponent."""
    return np.array(
        [1.0 - p[WIN], p[LOSE_GAMMON], p[LOSE_BACKGAMMON], p[WIN_GAMMON], p[WIN_BACKGAMMON]]
    )


# -- the arithmetic: gammonlab._kernels.cube ------------------------------------------------------

_OWNER_CODES = {CENTRED: _cube.CENTRED, MINE: _cube.MINE, THEIRS: _cube.THEIRS}
_COMPILED_FROM = 16
"""Fewer rows than this run through the kernels' Python source (``py_func``): the same
arithmetic, without loading the compiled code, a one-off cost of some tenths of a second, for
a position or two."""


def _cubeful_values(p: np.ndarray, sit: _Situation, x: Any, *, live: bool = True) -> np.ndarray:
    """Money: equity per cube. Match: MWC. Of ``(n, 5)`` probabilities, the cube as it stands.

    ``x`` is the cube efficiency, one or one a row; with ``live`` false, the
    cubeless (dead cube) value. Under Jacoby with the cube centred gammons
    count single (R10.1).
    """
    p = np.ascontiguousarray(np.reshape(p, (-1, _OUTPUTS)), dtype=np.float64)
    x = np.ascontiguousarray(np.broadcast_to(x, (len(p),)), dtype=np.float64)
    owner = _OWNER_CODES[sit.owner]
    compiled = len(p) >= _COMPILED_FROM
    if sit.money:
        money = _cube.money_cubeful if compiled else _cube.money_cubeful.py_func
        return money(p, x, owner, sit.jacoby and sit.owner == CENTRED, live and sit.can_turn)
    match = _cube.match_cubeful if compiled else _cube.match_cubeful.py_func
    results, levels = sit.constants()
    return match(p, x, owner, live and sit.alive(), results, levels)  # type: ignore[no-any-return]


def _cubeful(p: np.ndarray, sit: _Situation, x: float) -> float:
    """Money: equity per cube. Match: MWC. One position."""
    return float(_cubeful_values(p, sit, x)[0])


def _cubeless(p: np.ndarray, sit: _Situation) -> float:
    """Cubeless money equity per cube, or MWC: every result weighted by its probability."""
    return float(_cubeful_values(p, sit, 0.0, live=False)[0])


def _results(
    sit: _Situation, cube: int, mine: bool
) -> tuple[Callable[[int], float], Callable[[int], float]]:
    """MWC of me (or of the opponent) after winning / losing ``k`` cubes' worth of points."""
    m = sit.mwc_after
    if mine:
        return (lambda k: m(k * cube, 0)), (lambda k: m(0, k * cube))
    return (lambda k: 1.0 - m(0, k * cube)), (lambda k: 1.0 - m(k * cube, 0))


# -- the three options ----------------------------------------------------------------------------


def _double_unavailable(sit: _Situation) -> str:
    """Why the player on roll may not (usefully) double, or '' if they may."""
    if sit.owner == THEIRS:
        return "the opponent owns the cube (R9.5)"
    if not sit.can_turn:
        return f"the cube is at its limit of {sit.cube_limit}"
    if sit.money:
        return ""
    if sit.crawford:
        return "no doubling in the Crawford game (R10.2)"
    if sit.away <= sit.cube:
        if sit.post_crawford:
            return "post-Crawford the leader's cube is dead: a win already wins the match"
        return "dead cube: a win at the current cube already wins the match"
    return ""


@dataclass(frozen=True)
class _Options:
    no_double: float
    double_take: float | None
    double_pass: float | None
    reason: str


def _option_values(p: np.ndarray, sit: _Situation, x: Any) -> tuple[np.ndarray, Any, Any]:
    """No double, double/take, double/pass of ``(n, 5)`` probabilities.

    Money equity per cube, or MWC in a match; double/take and double/pass are
    ``None`` when the player on roll may not double.
    """
    no_double = _cubeful_values(p, sit, x)
    if not sit.may_double():
        return no_double, None, None
    if sit.money:
        return no_double, 2.0 * _cubeful_values(p, sit.doubled(), x), 1.0
    return no_double, _cubeful_values(p, sit.doubled(), x), sit.mwc_after(sit.cube, 0)


def _options(p: np.ndarray, sit: _Situation, x: float) -> _Options:
    """No double, double/take, double/pass of one position."""
    no_double, double_take, double_pass = _option_values(p, sit, x)
    if double_take is None:
        return _Options(float(no_double[0]), None, None, _double_unavailable(sit))
    return _Options(float(no_double[0]), float(double_take[0]), float(double_pass), "")


def _to_money(sit: _Situation, mwc: float) -> float:
    """MWC as money equity per cube: -1 losing the cube's points, +1 winning them."""
    return float(sit.to_equity(mwc))


# -- public theory --------------------------------------------------------------------------------


def cube_efficiency(position: Position | None = None) -> float:
    """The cube efficiency ``x`` GNU Backgammon gives a position at 0-ply.

    0.68 in contact, 0.6 in bear-offs (both sides home) and Hypergammon, in a
    race ``0.55 + 0.00125 * pips`` of the player on roll kept within 0.6-0.7, and
    0 once the game is over. Without a position, the contact value.

    >>> from gammonlab import Position
    >>> cube_efficiency(Position.initial()), cube_efficiency()
    (0.68, 0.68)
    """
    if position is None:
        return CONTACT_CUBE_EFFICIENCY
    phase = position.phase
    if phase == "over":
        return 0.0
    if position.variant.checkers < CHECKERS or phase == "bearoff":
        return BEAROFF_CUBE_EFFICIENCY
    if phase == "race":
        x = RACE_CUBE_EFFICIENCY_BASE + RACE_CUBE_EFFICIENCY_PER_PIP * position.pips[0]
        return min(max(x, RACE_CUBE_EFFICIENCY_MIN), RACE_CUBE_EFFICIENCY_MAX)
    return CONTACT_CUBE_EFFICIENCY


def _cube_efficiencies(boards: np.ndarray, checkers: int) -> np.ndarray:
    """:func:`cube_efficiency` of boards ``(n, 2, 26)`` seen from the side on roll."""
    return _cube.cube_efficiencies(
        np.ascontiguousarray(boards, dtype=np.int8),
        checkers,
        checkers < CHECKERS,
        RACE_CUBE_EFFICIENCY_BASE,
        RACE_CUBE_EFFICIENCY_PER_PIP,
        RACE_CUBE_EFFICIENCY_MIN,
        RACE_CUBE_EFFICIENCY_MAX,
        CONTACT_CUBE_EFFICIENCY,
        BEAROFF_CUBE_EFFICIENCY,
    )


def cubeful_equity(
    state: GameState | str | None = None,
    probabilities: Any = None,
    *,
    cube_efficiency: float | None = None,
    met: MatchEquityTable | str | None = None,
) -> float:
    """Cubeful equity of the player on roll with the cube as it stands (no cube action now).

    Parameters
    ----------
    state : GameState, ID string or None
        Cube, score and rules; ``None`` is a money game with the cube centred.
    probabilities : sequence of 5 floats or rollout-like object
        Cubeless probabilities of the player on roll (required).
    cube_efficiency : float, optional
        Janowski's ``x``; by default GNU Backgammon's value for the position
        (0.68 without one).
    met : MatchEquityTable or name, optional
        The table for match play (default Kazaross-XG2).

    Returns
    -------
    float
        Money play: equity per unit of the cube in play. Match play: the
        match winning chance expressed the same way (+1 = winning the cube's
        points now, -1 = losing them), see :func:`cubeful_mwc`.

    Examples
    --------
    >>> round(cubeful_equity(None, [0.6, 0.0, 0.0, 0.0, 0.0]), 4)
    0.2907
    >>> round(cubeful_equity(None, [0.6, 0.0, 0.0, 0.0, 0.0], cube_efficiency=0.0), 6)
    0.2
    """
    state, probabilities = _ordered(state, probabilities, "cubeful_equity")
    p, _ = _probabilities(_required(probabilities, "cubeful_equity"))
    state = _state(state)
    sit = _situation(state, met)
    x = _efficiency(cube_efficiency, state)
    value = _cubeful(p, sit, x)
    return value if sit.money else _to_money(sit, value)


def cubeful_mwc(
    state: GameState | str,
    probabilities: Any = None,
    *,
    cube_efficiency: float | None = None,
    met: MatchEquityTable | str | None = None,
) -> float:
    """Cubeful match winning chance of the player on roll, cube as it stands.

    ``state`` must be a match; ``probabilities`` (required) are the cubeless
    probabilities of the player on roll, as for :func:`cubeful_equity`.

    >>> from gammonlab import GameState
    >>> state = GameState.initial(match_length=3, score=(1, 1))
    >>> round(cubeful_mwc(state, [0.5, 0.0, 0.0, 0.0, 0.0]), 4)
    0.5
    """
    state, probabilities = _ordered(state, probabilities, "cubeful_mwc")
    p, _ = _probabilities(_required(probabilities, "cubeful_mwc"))
    game = _state(state)
    sit = _situation(game, met)
    if sit.money:
        raise CubeError("cubeful_mwc needs a match; use cubeful_equity in money play")
    return _cubeful(p, sit, _efficiency(cube_efficiency, game))


def _efficiency(value: float | None, state: GameState | None) -> float:
    if value is None:
        return cube_efficiency(None if state is None else state.position)
    if not 0.0 <= value <= 1.0:
        raise ArgumentError(f"cube_efficiency must lie in [0, 1], got {value}")
    return float(value)


@dataclass(frozen=True)
class GammonValues:
    """Kit Woolsey's gammon values at a score.

    ``gammon`` is what winning a gammon rather than a single game adds,
    relative to what winning a single game rather than losing one adds;
    ``opp_gammon`` the same for the opponent; the backgammon values are the
    further gain of a backgammon over a gammon. Money play: 0.5 each (0 under
    Jacoby with the cube centred). GNU Backgammon's "gammon price" is twice the
    gammon value.
    """

    gammon: float
    opp_gammon: float
    backgammon: float
    opp_backgammon: float


def gammon_values(
    state: GameState | str | None = None,
    *,
    cube_value: int | None = None,
    met: MatchEquityTable | str | None = None,
) -> GammonValues:
    """Gammon and backgammon values of the player on roll and the opponent.

    Parameters
    ----------
    state : GameState, ID string or None
        ``None`` is money play with the cube centred.
    cube_value : int, optional
        The cube the game is played for (default: the state's cube). Pass
        twice the cube for the values after a double.

    Examples
    --------
    >>> gammon_values()
    GammonValues(gammon=0.5, opp_gammon=0.5, backgammon=0.5, opp_backgammon=0.5)
    >>> from gammonlab import GameState
    >>> values = gammon_values(GameState.initial(match_length=5, score=(3, 3)))
    >>> round(values.gammon, 3)
    0.91
    """
    sit = _situation(_state(state), met)
    if cube_value is not None:
        sit = replace(sit, cube=int(cube_value), owner=MINE if cube_value > sit.cube else sit.owner)
    if sit.money:
        counts = not (sit.jacoby and sit.owner == CENTRED)
        value = 0.5 if counts else 0.0
        return GammonValues(value, value, value, value)
    win, lose = _results(sit, sit.cube, True)
    span = win(1) - lose(1)
    if span <= 0.0:
        return GammonValues(0.0, 0.0, 0.0, 0.0)
    return GammonValues(
        gammon=(win(2) - win(1)) / span,
        opp_gammon=(lose(1) - lose(2)) / span,
        backgammon=(win(3) - win(2)) / span,
        opp_backgammon=(lose(2) - lose(3)) / span,
    )


@dataclass(frozen=True)
class CubePoints:
    """Where cube action starts and ends, in the doubler's winning chances.

    The gammon ratios (gammons as a share of wins and of losses) are held
    fixed while the winning chance varies.

    Attributes
    ----------
    take_point : float
        The opponent's minimum winning chance to take a double (their view).
    cash_point : float
        ``1 - take_point``: from here on the opponent passes, and a player who
        has not doubled has lost their market.
    double_point : float or None
        The lowest winning chance at which doubling is right (initial double
        or redouble point). ``None`` if doubling is never right.
    too_good_point : float or None
        Above it, playing on for a gammon beats cashing. ``None`` if never.
    opp_cash_point : float or None
        The doubler's winning chance at or below which the opponent could
        double them out (the opponent's cash point, seen from the doubler);
        ``None`` when the opponent cannot double.
    cube_efficiency : float
    """

    take_point: float
    cash_point: float
    double_point: float | None
    too_good_point: float | None
    opp_cash_point: float | None
    cube_efficiency: float

    @property
    def window(self) -> tuple[float | None, float]:
        """The doubling window: from the double point to the cash point."""
        return self.double_point, self.cash_point


@dataclass(frozen=True)
class MarketWindow:
    """A position's place in its doubling window.

    Attributes
    ----------
    win : float
        The winning chance of the player on roll.
    points : CubePoints
    to_lose_market : float
        How much the winning chance may still rise before the opponent would
        pass: a bigger swing loses the market. 0 when already past the cash
        point.
    to_opp_cash : float or None
        How much the winning chance may still fall before the opponent could
        double the player out; ``None`` if the opponent cannot double.
    """

    win: float
    points: CubePoints
    to_lose_market: float
    to_opp_cash: float | None

    @property
    def in_window(self) -> bool:
        """True between the double point and the cash point: a double is right."""
        low = self.points.double_point
        return low is not None and low <= self.win < self.points.cash_point


def _bisect(f: Callable[[float], float], low: float, high: float) -> float | None:
    """The root of ``f`` in [low, high] if it changes sign from negative to positive."""
    f_low, f_high = f(low), f(high)
    if f_low >= 0.0:
        return low
    if f_high < 0.0:
        return None
    for _ in range(_BISECTION_STEPS):
        middle = 0.5 * (low + high)
        if f(middle) < 0.0:
            low = middle
        else:
            high = middle
    return 0.5 * (low + high)


def _points(p: np.ndarray, sit: _Situation, x: float) -> CubePoints:
    """Cube points of the player on roll, who must be able to double."""
    unavailable = _double_unavailable(sit)
    if unavailable:
        raise CubeError(f"the player on roll cannot double: {unavailable}")

    def options(win: float) -> _Options:
        return _options(with_winning_chance(p, win), sit, x)

    def taken_minus_passed(win: float) -> float:
        o = options(win)
        return o.double_take - o.double_pass  # type: ignore[operator]

    cash = _bisect(taken_minus_passed, 0.0, 1.0)
    cash = 1.0 if cash is None else cash

    def doubling_gain(win: float) -> float:
        o = options(win)
        taken = o.double_take
        assert taken is not None and o.double_pass is not None
        if sit.money and sit.beavers and taken < 0.0:
            taken *= 2.0  # the taker beavers (R10.6)
        return min(taken, o.double_pass) - o.no_double

    double = _bisect(doubling_gain, 0.0, cash)

    def playing_on_gain(win: float) -> float:
        o = options(win)
        return o.no_double - o.double_pass  # type: ignore[operator]

    win_g, win_bg, _, _ = _gammon_ratios(p)
    too_good = None
    if win_g + win_bg > 0.0:
        # strictly better: a tie at a certain win (Jacoby, centred cube) is never too good
        too_good = _bisect(lambda win: playing_on_gain(win) - _TIE, cash, 1.0)
    opp_cash: float | None = None
    mirror = sit.swapped()
    if sit.owner == CENTRED and not _double_unavailable(mirror):
        q = _swap(p)

        def their_taken_minus_passed(win: float) -> float:
            o = _options(with_winning_chance(q, win), mirror, x)
            return o.double_take - o.double_pass  # type: ignore[operator]

        theirs = _bisect(their_taken_minus_passed, 0.0, 1.0)
        opp_cash = 1.0 - (1.0 if theirs is None else theirs)
    return CubePoints(
        take_point=1.0 - cash,
        cash_point=cash,
        double_point=double,
        too_good_point=too_good,
        opp_cash_point=opp_cash,
        cube_efficiency=x,
    )


def cube_points(
    state: GameState | str | None = None,
    probabilities: Any = None,
    *,
    cube_efficiency: float | None = None,
    met: MatchEquityTable | str | None = None,
) -> CubePoints:
    """Take, cash, double and too-good points for the player on roll.

    Parameters
    ----------
    state : GameState, ID string or None
        ``None`` is money play, cube centred.
    probabilities : sequence of 5 floats or rollout-like, optional
        Only their gammon ratios matter; ``None`` is a gammonless game.
    cube_efficiency : float, optional
        0 gives the dead-cube (textbook) points, 1 the fully live ones.

    Examples
    --------
    >>> points = cube_points(cube_efficiency=0.0)
    >>> round(points.take_point, 3), round(points.double_point, 3)
    (0.25, 0.5)
    >>> points = cube_points(None, [0.5, 0.1, 0.0, 0.1, 0.0], cube_efficiency=0.0)
    >>> round(points.take_point, 4)  # (L - 0.5) / (W + L) with W = L = 1.2
    0.2917
    """
    state, probabilities = _ordered(state, probabilities, "cube_points")
    p, _ = _probabilities([0.5, 0.0, 0.0, 0.0, 0.0] if probabilities is None else probabilities)
    state = _state(state)
    return _points(p, _situation(state, met), _efficiency(cube_efficiency, state))


def take_point(
    state: GameState | str | None = None,
    probabilities: Any = None,
    *,
    cube_efficiency: float | None = None,
    met: MatchEquityTable | str | None = None,
) -> float:
    """The opponent's minimum winning chance to take a double from the player on roll.

    Money play with no gammons: 25% for a dead cube, 20% fully live, about
    21.4% at the default efficiency; with gammons the dead take point is
    ``(L - 0.5) / (W + L)`` (``W``, ``L`` the taker's average win and loss).
    In a match it follows from the match equity table. ``state`` and
    ``probabilities`` are as for :func:`cube_points`.

    Examples
    --------
    >>> round(take_point(), 4)
    0.2137
    >>> from gammonlab import GameState
    >>> state = GameState.initial(match_length=5, score=(3, 3))  # 2-away, 2-away
    >>> round(take_point(state, cube_efficiency=0.0), 5)
    0.32264
    """
    state, probabilities = _ordered(state, probabilities, "take_point")
    return cube_points(state, probabilities, cube_efficiency=cube_efficiency, met=met).take_point


def market_window(
    state: GameState | str | None = None,
    probabilities: Any = None,
    *,
    cube_efficiency: float | None = None,
    met: MatchEquityTable | str | None = None,
) -> MarketWindow:
    """How far a position is from its double point and from losing its market.

    ``state`` (``None``: money play, cube centred) and ``probabilities``
    (required) are as for :func:`cubeful_equity`.

    >>> window = market_window(None, [0.70, 0.0, 0.0, 0.0, 0.0])
    >>> window.in_window, round(window.to_lose_market, 3)
    (True, 0.086)
    """
    state, probabilities = _ordered(state, probabilities, "market_window")
    p, _ = _probabilities(_required(probabilities, "market_window"))
    state = _state(state)
    points = _points(p, _situation(state, met), _efficiency(cube_efficiency, state))
    win = float(p[WIN])
    to_opp = None if points.opp_cash_point is None else max(0.0, win - points.opp_cash_point)
    return MarketWindow(
        win=win, points=points, to_lose_market=max(0.0, points.cash_point - win), to_opp_cash=to_opp
    )
