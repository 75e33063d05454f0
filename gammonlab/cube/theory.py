"""Cube theory: cubeful equities from cubeless probabilities (Janowski's model), take and
cash points, gammon values and market windows, for money and match play."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import GammonlabError
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

_EPSILON = 1e-7
"""Below this winning chance (or above 1 minus it) the cube is as good as dead."""
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


class InvalidProbabilitiesError(GammonlabError, ValueError):
    """Probabilities that are not GNU Backgammon's five ordered outputs."""


# -- inputs ---------------------------------------------------------------------------------------


def _probabilities(source: Any) -> tuple[np.ndarray, dict[str, float] | None]:
    """Five checked probabilities from a sequence, a mapping or a rollout-like object."""
    # a RolloutResult's field, a rollout_many row's column, to_series()'s attrs
    scoring = source.get("scoring", "standard") if isinstance(source, Mapping) \
        else getattr(source, "scoring", None)
    if scoring is None:
        attrs = getattr(source, "attrs", None)
        scoring = attrs.get("scoring", "standard") if isinstance(attrs, Mapping) else "standard"
    if isinstance(scoring, str) and scoring != "standard":
        raise InvalidProbabilitiesError(
            f"these probabilities are under {scoring!r} scoring (R8.4: 1; 2 if the loser has "
            "a checker outside its home board; 4 if one on the bar); the cube theory values "
            "gammons at 2 and backgammons at 3 points (R8.2) only")
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
            f"lose backgammon), got {source!r}") from None
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
            f"need win >= win gammon >= win backgammon, got {w:.4f}, {wg:.4f}, {wbg:.4f}")
    if lbg > lg + _TOLERANCE or lg > 1.0 - w + _TOLERANCE:
        raise InvalidProbabilitiesError(
            f"need 1 - win >= lose gammon >= lose backgammon, got {1 - w:.4f}, {lg:.4f}, "
            f"{lbg:.4f}")
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
    """The cube and score, seen from the player on roll (who may double)."""

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

    @property
    def post_crawford(self) -> bool:
        return not self.money and not self.crawford and (self.away == 1 or self.opp_away == 1)

    def swapped(self) -> _Situation:
        """The same situation seen from the opponent."""
        owner = {CENTRED: CENTRED, MINE: THEIRS, THEIRS: MINE}[self.owner]
        return replace(self, away=self.opp_away, opp_away=self.away, owner=owner,
                       player=1 - self.player)

    def doubled(self) -> _Situation:
        """After a double is taken: twice the cube, owned by the taker (R9.4)."""
        return replace(self, cube=2 * self.cube, owner=THEIRS)

    def describe(self) -> str:
        if self.money:
            extras = [name for name, on in (("Jacoby", self.jacoby), ("beavers", self.beavers))
                      if on]
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
            probabilities is None or isinstance(probabilities, (GameState, str))):
        warnings.warn(f"{name}(probabilities, state) is deprecated: pass the state first, "
                      f"{name}(state, probabilities)", DeprecationWarning, stacklevel=3)
        return probabilities, state
    return state, probabilities


def _required(probabilities: Any, name: str) -> Any:
    if probabilities is None:
        raise InvalidProbabilitiesError(f"{name} needs the five probabilities of the player "
                                        "on roll")
    return probabilities


def _table(met: MatchEquityTable | str | None, needed: int) -> MatchEquityTable:
    """The match equity table, extended when the match is longer than 25 points."""
    if isinstance(met, MatchEquityTable):
        return met
    if met is not None and not isinstance(met, str):
        raise GammonlabError(f"met must be a MatchEquityTable or a table name, got "
                             f"{type(met).__name__}")
    table = load(met or DEFAULT_TABLE)
    return table if needed <= table.max_away else load(met or DEFAULT_TABLE, max_away=needed)


def _situation(state: GameState | None, met: MatchEquityTable | str | None) -> _Situation:
    if state is None:
        return _Situation()
    me = state.on_roll
    owner = CENTRED if state.cube_owner is None else (MINE if state.cube_owner == me else THEIRS)
    if state.match_length == 0:
        return _Situation(money=True, cube=state.cube_value, owner=owner, jacoby=state.jacoby,
                          beavers=state.beavers, cube_limit=state.cube_limit, player=me)
    away = state.match_length - state.score[me]
    opp_away = state.match_length - state.score[1 - me]
    if away < 1 or opp_away < 1:
        raise GammonlabError(f"the match is over: score {state.score[0]}-{state.score[1]} "
                             f"to {state.match_length}")
    if state.crawford and away != 1 and opp_away != 1:
        raise GammonlabError("a Crawford game needs a player at 1-away (R10.2), got "
                             f"{away}-away, {opp_away}-away")
    return _Situation(money=False, away=away, opp_away=opp_away, cube=state.cube_value,
                      owner=owner, crawford=state.crawford, cube_limit=state.cube_limit,
                      player=me, met=_table(met, max(away, opp_away)))


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


def _with_win(p: np.ndarray, win: float) -> np.ndarray:
    """Probabilities with another winning chance and the same gammon ratios."""
    win_g, win_bg, lose_g, lose_bg = _gammon_ratios(p)
    return np.array([win, win * (win_g + win_bg), win * win_bg,
                     (1.0 - win) * (lose_g + lose_bg), (1.0 - win) * lose_bg])


def _swap(p: np.ndarray) -> np.ndarray:
    """The probabilities seen from the opponent."""
    return np.array([1.0 - p[WIN], p[LOSE_GAMMON], p[LOSE_BACKGAMMON], p[WIN_GAMMON],
                     p[WIN_BACKGAMMON]])


# -- money play: Janowski's formulas --------------------------------------------------------------


def _money_cubeless(p: np.ndarray, sit: _Situation) -> float:
    """Cubeless equity per cube; under Jacoby with the cube centred gammons count single (R10.1)."""
    single = 2.0 * p[WIN] - 1.0
    if sit.jacoby and sit.owner == CENTRED:
        return float(single)
    return float(single + p[WIN_GAMMON] - p[LOSE_GAMMON] + p[WIN_BACKGAMMON]
                 - p[LOSE_BACKGAMMON])


def _can_turn(sit: _Situation) -> bool:
    """Whether the cube's holder (or either player, centred) may double it (R9.6 limits)."""
    return sit.cube_limit is None or 2 * sit.cube <= sit.cube_limit


def _money_live(average_win: float, average_loss: float, win: float, sit: _Situation) -> float:
    """Janowski's fully live cube: linear between take point and cash point."""
    W, L = average_win, average_loss
    take = (L - 0.5) / (W + L + 0.5)       # below it the opponent's double is a pass
    cash = (L + 1.0) / (W + L + 0.5)       # above it my double is a pass
    jacoby_centred = sit.jacoby and sit.owner == CENTRED
    if sit.owner == CENTRED:
        if win < take:
            return -1.0 if jacoby_centred else -L + (L - 1.0) * win / take
        if win < cash:
            return -1.0 + 2.0 * (win - take) / (cash - take)
        return 1.0 if jacoby_centred else 1.0 + (W - 1.0) * (win - cash) / (1.0 - cash)
    if sit.owner == MINE:
        if win < cash:
            return -L + (1.0 + L) * win / cash
        return 1.0 + (W - 1.0) * (win - cash) / (1.0 - cash)
    if win < take:
        return -L + (L - 1.0) * win / take
    return -1.0 + (W + 1.0) * (win - take) / (1.0 - take)


def _money_cubeful(p: np.ndarray, sit: _Situation, x: float) -> float:
    """Cubeful money equity per cube, GNU Backgammon's Cl2CfMoney."""
    dead = _money_cubeless(p, sit)
    w = float(p[WIN])
    if not _can_turn(sit) or w <= _EPSILON or w >= 1.0 - _EPSILON:
        return dead
    average_win = 1.0 + (p[WIN_GAMMON] + p[WIN_BACKGAMMON]) / w
    average_loss = 1.0 + (p[LOSE_GAMMON] + p[LOSE_BACKGAMMON]) / (1.0 - w)
    live = _money_live(float(average_win), float(average_loss), w, sit)
    return dead * (1.0 - x) + live * x


# -- match play -----------------------------------------------------------------------------------


def _mwc_after(sit: _Situation, my_points: int, opp_points: int) -> float:
    """My match winning chance once this game is over with those points won."""
    away, opp_away = sit.away - my_points, sit.opp_away - opp_points
    if away <= 0:
        return 1.0
    if opp_away <= 0:
        return 0.0
    # the game after the first one that reaches 1-away is the Crawford game (R10.2)
    crawford_next = not (sit.crawford or sit.away == 1 or sit.opp_away == 1)
    assert sit.met is not None
    return sit.met.equity(away, opp_away, crawford=crawford_next, player=sit.player)


def _results(sit: _Situation, cube: int, mine: bool) -> tuple[Callable[[int], float],
                                                            Callable[[int], float]]:
    """MWC of me (or of the opponent) after winning / losing ``k`` cubes' worth of points."""
    if mine:
        return (lambda k: _mwc_after(sit, k * cube, 0)), (lambda k: _mwc_after(sit, 0, k * cube))
    return ((lambda k: 1.0 - _mwc_after(sit, 0, k * cube)),
            (lambda k: 1.0 - _mwc_after(sit, k * cube, 0)))


def _mixed(ratios: tuple[float, float], single: float, gammon: float, backgammon: float) -> float:
    g, bg = ratios
    return (1.0 - g - bg) * single + g * gammon + bg * backgammon


def _match_cubeless(p: np.ndarray, sit: _Situation, cube: int | None = None) -> float:
    """Cubeless MWC: every result weighted by its probability."""
    c = sit.cube if cube is None else cube
    w, wg, wbg, lg, lbg = (float(v) for v in p)
    return ((w - wg) * _mwc_after(sit, _SINGLE * c, 0)
            + (wg - wbg) * _mwc_after(sit, _GAMMON * c, 0)
            + wbg * _mwc_after(sit, _BACKGAMMON * c, 0)
            + (1.0 - w - lg) * _mwc_after(sit, 0, _SINGLE * c)
            + (lg - lbg) * _mwc_after(sit, 0, _GAMMON * c)
            + lbg * _mwc_after(sit, 0, _BACKGAMMON * c))


def _match_cube_alive(sit: _Situation) -> bool:
    """GNU Backgammon's fDoCubeful: otherwise the cubeless MWC is used."""
    if sit.away <= sit.cube and sit.opp_away <= sit.cube:
        return False  # whoever wins wins the match: a dead cube
    if sit.away == 2 and sit.opp_away == 2:
        return False  # 2-away 2-away: the first double kills the cube
    if sit.crawford:
        return False  # no doubling in the Crawford game (R10.2)
    return _can_turn(sit)


def _live_cash_points(p: np.ndarray, sit: _Situation) -> tuple[float, float]:
    """Live-cube cash points of me and of the opponent, each in their own winning chances.

    GNU Backgammon's GetPoints: at the highest cube level that is still live
    the doubled cube is dead and the cash point is the dead one (an automatic
    redouble by the taker counted); below it, a player cashes where the taker,
    owning the doubled cube and redoubling at their own cash point, is
    indifferent between passing and taking.
    """
    win_g, win_bg, lose_g, lose_bg = _gammon_ratios(p)
    ratios = {True: (win_g, win_bg), False: (lose_g, lose_bg)}
    levels = 0
    cube = sit.cube
    while sit.away > 2 * cube and sit.opp_away > 2 * cube:
        levels += 1
        cube *= 2
    cash: dict[tuple[bool, int], float] = {}
    for level in range(levels, -1, -1):
        value = sit.cube << level
        for mine in (True, False):
            own_away, other_away = (sit.away, sit.opp_away) if mine else (sit.opp_away, sit.away)
            ratio, other_ratio = ratios[mine], ratios[not mine]
            if sit.away <= 2 * value or sit.opp_away <= 2 * value:
                # the doubled cube is dead; a taker who cannot lose more redoubles at once
                prime = 2 * value if own_away <= 2 * value < other_away else value
                win, lose = _results(sit, prime, mine)
                taken_lost = _mixed(other_ratio, lose(2), lose(4), lose(6))
                taken_won = _mixed(ratio, win(2), win(4), win(6))
                passed = _results(sit, value, mine)[0](1)
                span = taken_lost - taken_won
                cash[(mine, level)] = (taken_lost - passed) / span if span else 1.0
            else:
                win, lose = _results(sit, value, mine)
                redoubled_pass = lose(2)
                passed = win(1)
                taken_won = _mixed(ratio, win(2), win(4), win(6))
                span = redoubled_pass - taken_won
                other = cash[(not mine, level + 1)]
                cash[(mine, level)] = 1.0 - other * (passed - taken_won) / span if span else 1.0
    return cash[(True, 0)], cash[(False, 0)]


def _match_cubeful(p: np.ndarray, sit: _Situation, x: float) -> float:
    """Cubeful MWC, GNU Backgammon's Cl2CfMatch."""
    dead = _match_cubeless(p, sit)
    if not _match_cube_alive(sit):
        return dead
    w = float(p[WIN])
    win_g, win_bg, lose_g, lose_bg = _gammon_ratios(p)
    win, lose = _results(sit, sit.cube, True)
    cash_value, opp_cash_value = win(1), lose(1)
    won = _mixed((win_g, win_bg), win(1), win(2), win(3))
    lost = _mixed((lose_g, lose_bg), lose(1), lose(2), lose(3))
    my_cash, their_cash = _live_cash_points(p, sit)
    too_good, opp_too_good = my_cash, 1.0 - their_cash

    def from_loss(point: float) -> float:  # (0, lost) to (point, opponent cashes)
        return lost + (opp_cash_value - lost) * w / point if point > 0.0 else lost

    def to_win(point: float, value: float) -> float:  # (point, value) to (1, won)
        return value + (won - value) * (w - point) / (1.0 - point) if point < 1.0 else won

    if sit.owner == CENTRED:
        if w <= opp_too_good:
            live = from_loss(opp_too_good)
        elif w < too_good:
            live = opp_cash_value + (cash_value - opp_cash_value) * (w - opp_too_good) \
                / (too_good - opp_too_good)
        else:
            live = to_win(too_good, cash_value)
    elif sit.owner == MINE:
        if w <= too_good:
            live = lost + (cash_value - lost) * w / too_good if too_good > 0.0 else lost
        else:
            live = to_win(too_good, cash_value)
    else:
        live = from_loss(opp_too_good) if w <= opp_too_good else to_win(opp_too_good,
                                                                       opp_cash_value)
    return dead * (1.0 - x) + live * x


# -- the three options ----------------------------------------------------------------------------


def _cubeful(p: np.ndarray, sit: _Situation, x: float) -> float:
    """Money: equity per cube. Match: MWC."""
    return _money_cubeful(p, sit, x) if sit.money else _match_cubeful(p, sit, x)


def _double_unavailable(sit: _Situation) -> str:
    """Why the player on roll may not (usefully) double, or '' if they may."""
    if sit.owner == THEIRS:
        return "the opponent owns the cube (R9.5)"
    if not _can_turn(sit):
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


def _options(p: np.ndarray, sit: _Situation, x: float) -> _Options:
    """No double, double/take, double/pass: money equity per cube, or MWC in a match."""
    reason = _double_unavailable(sit)
    no_double = _cubeful(p, sit, x)
    if reason:
        return _Options(no_double, None, None, reason)
    if sit.money:
        return _Options(no_double, 2.0 * _cubeful(p, sit.doubled(), x), 1.0, "")
    return _Options(no_double, _cubeful(p, sit.doubled(), x), _mwc_after(sit, sit.cube, 0), "")


def _to_money(sit: _Situation, mwc: float) -> float:
    """MWC as money equity per cube: -1 losing the cube's points, +1 winning them."""
    win, lose = _mwc_after(sit, sit.cube, 0), _mwc_after(sit, 0, sit.cube)
    return (2.0 * mwc - (win + lose)) / (win - lose) if win != lose else 0.0


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


def cubeful_equity(state: GameState | str | None = None, probabilities: Any = None, *,
                   cube_efficiency: float | None = None,
                   met: MatchEquityTable | str | None = None) -> float:
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


def cubeful_mwc(state: GameState | str, probabilities: Any = None, *,
                cube_efficiency: float | None = None,
                met: MatchEquityTable | str | None = None) -> float:
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
        raise GammonlabError("cubeful_mwc needs a match; use cubeful_equity in money play")
    return _match_cubeful(p, sit, _efficiency(cube_efficiency, game))


def _efficiency(value: float | None, state: GameState | None) -> float:
    if value is None:
        return cube_efficiency(None if state is None else state.position)
    if not 0.0 <= value <= 1.0:
        raise GammonlabError(f"cube_efficiency must lie in [0, 1], got {value}")
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


def gammon_values(state: GameState | str | None = None, *, cube_value: int | None = None,
                  met: MatchEquityTable | str | None = None) -> GammonValues:
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
        sit = replace(sit, cube=int(cube_value), owner=MINE if cube_value > sit.cube
                      else sit.owner)
    if sit.money:
        counts = not (sit.jacoby and sit.owner == CENTRED)
        value = 0.5 if counts else 0.0
        return GammonValues(value, value, value, value)
    win, lose = _results(sit, sit.cube, True)
    span = win(1) - lose(1)
    if span <= 0.0:
        return GammonValues(0.0, 0.0, 0.0, 0.0)
    return GammonValues(gammon=(win(2) - win(1)) / span, opp_gammon=(lose(1) - lose(2)) / span,
                        backgammon=(win(3) - win(2)) / span,
                        opp_backgammon=(lose(2) - lose(3)) / span)


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
        raise GammonlabError(f"the player on roll cannot double: {unavailable}")

    def options(win: float) -> _Options:
        return _options(_with_win(p, win), sit, x)

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
            o = _options(_with_win(q, win), mirror, x)
            return o.double_take - o.double_pass  # type: ignore[operator]

        theirs = _bisect(their_taken_minus_passed, 0.0, 1.0)
        opp_cash = 1.0 - (1.0 if theirs is None else theirs)
    return CubePoints(take_point=1.0 - cash, cash_point=cash, double_point=double,
                      too_good_point=too_good, opp_cash_point=opp_cash, cube_efficiency=x)


def cube_points(state: GameState | str | None = None, probabilities: Any = None, *,
                cube_efficiency: float | None = None,
                met: MatchEquityTable | str | None = None) -> CubePoints:
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


def take_point(state: GameState | str | None = None, probabilities: Any = None, *,
               cube_efficiency: float | None = None,
               met: MatchEquityTable | str | None = None) -> float:
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
    return cube_points(state, probabilities, cube_efficiency=cube_efficiency,
                       met=met).take_point


def market_window(state: GameState | str | None = None, probabilities: Any = None, *,
                  cube_efficiency: float | None = None,
                  met: MatchEquityTable | str | None = None) -> MarketWindow:
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
    return MarketWindow(win=win, points=points, to_lose_market=max(0.0, points.cash_point - win),
                        to_opp_cash=to_opp)
