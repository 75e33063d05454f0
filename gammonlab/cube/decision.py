"""The cube decision: no double, double/take, double/pass, too good, beaver, with the
equity of each option (:func:`cube_decision`)."""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import ArgumentError
from ..met import MatchEquityTable

if TYPE_CHECKING:
    import pandas as pd

    from ..state import GameState

from .theory import (
    _OPTIONAL,
    _OUTPUTS,
    _PROBABILITY_NAMES,
    BEAVER,
    CENTRED,
    DOUBLE,
    NO_DOUBLE,
    PASS,
    TAKE,
    TOO_GOOD,
    WIN_GAMMON,
    InvalidProbabilitiesError,
    _cubeless,
    _efficiency,
    _options,
    _ordered,
    _probabilities,
    _Situation,
    _situation,
    _state,
    _to_money,
)

__all__ = ["CubeDecision", "cube_decision"]


# -- the decision ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class CubeDecision:
    """The cube decision of the player on roll, with the equity of each option.

    Equities are in money units per unit of the cube in play (GNU Backgammon's
    normalised equities: +1 is winning the cube's points). In match play they
    are the match winning chances mapped the same way, and the ``mwc_*``
    attributes give the chances themselves.

    Attributes
    ----------
    verdict : str
        ``'No double'``, ``'Double, take'``, ``'Double, pass'``, ``'Too good to
        double, take'``, ``'Too good to double, pass'``, ``'No double,
        beaver'`` or ``'Double, beaver'`` (R10.6).
    action : str
        The doubler's proper action: ``'No double'``, ``'Double'`` or ``'Too
        good to double'``.
    response : str or None
        The opponent's proper answer to a double: ``'take'``, ``'pass'`` or
        ``'beaver'``; ``None`` when no double is possible.
    no_double, double_take, double_pass : float or None
        Equity of each option (``None`` when the cube is not available).
    double_beaver : float or None
        Money play with beavers: the doubler's equity after a beaver.
    equity : float
        Equity after proper play by both sides.
    errors : dict
        Equity lost by each alternative: the doubler's ``'No double'`` and
        ``'Double'``, the taker's ``'Take'``, ``'Pass'`` (and ``'Beaver'``).
    mwc_no_double, mwc_double_take, mwc_double_pass, mwc : float or None
        Match play: the same in match winning chances.
    reason : str
        Why there is no cube action, when there is none (Crawford, dead cube,
        the opponent's cube, the limit).
    optional : bool
        Doubling and not doubling are equally good.
    """

    verdict: str
    action: str
    response: str | None
    no_double: float
    double_take: float | None
    double_pass: float | None
    double_beaver: float | None
    equity: float
    errors: Mapping[str, float]
    probabilities: tuple[float, ...]
    cubeless_equity: float
    cube_efficiency: float
    situation: str
    money: bool
    mwc_no_double: float | None = None
    mwc_double_take: float | None = None
    mwc_double_pass: float | None = None
    mwc: float | None = None
    reason: str = ""
    optional: bool = False
    stderr: Mapping[str, float] | None = field(default=None, repr=False)
    state: Any = field(default=None, repr=False, compare=False)
    """The game state decided on, when one was given."""

    def to_series(self) -> pd.Series:
        """The decision as one pandas row (for a DataFrame of many decisions).

        >>> cube_decision(None, [0.6, 0.1, 0.0, 0.1, 0.0]).to_series()["verdict"]
        'No double'
        """
        import pandas as pd

        row: dict[str, Any] = {
            "verdict": self.verdict,
            "action": self.action,
            "response": self.response,
            "equity": self.equity,
            "no_double": self.no_double,
            "double_take": self.double_take,
            "double_pass": self.double_pass,
            "double_beaver": self.double_beaver,
        }
        for name, value in self.errors.items():
            row["error_" + name.lower().replace(" ", "_")] = value
        row.update(
            {
                "mwc": self.mwc,
                "mwc_no_double": self.mwc_no_double,
                "mwc_double_take": self.mwc_double_take,
                "mwc_double_pass": self.mwc_double_pass,
            }
        )
        row.update(dict(zip(_PROBABILITY_NAMES, self.probabilities)))
        row.update(
            {
                "cubeless_equity": self.cubeless_equity,
                "cube_efficiency": self.cube_efficiency,
                "situation": self.situation,
                "reason": self.reason,
                "optional": self.optional,
            }
        )
        for name, value in (self.stderr or {}).items():
            row["stderr_" + name] = value
        return pd.Series(row, name="cube_decision")

    def _lines(self) -> list[tuple[str, float | None, float | None, float | None]]:
        rows = [
            ("No double", self.no_double, self.mwc_no_double, None),
            ("Double, take", self.double_take, self.mwc_double_take, None),
            ("Double, pass", self.double_pass, self.mwc_double_pass, None),
        ]
        if self.double_beaver is not None:
            rows.append(("Double, beaver", self.double_beaver, None, None))
        return [
            (name, eq, mwc, None if eq is None else eq - self.equity) for name, eq, mwc, _ in rows
        ]

    def __str__(self) -> str:
        w, wg, wbg, lg, lbg = self.probabilities
        lines = [
            f"Cube decision, {self.situation}; 0-ply Janowski, x = {self.cube_efficiency:.2f}",
            f"win {w:.1%} (gammon {wg:.1%}, backgammon {wbg:.1%}), lose {1 - w:.1%} "
            f"(gammon {lg:.1%}, backgammon {lbg:.1%}); cubeless {self.cubeless_equity:+.3f}",
        ]
        for number, (name, eq, mwc, diff) in enumerate(self._lines(), 1):
            if eq is None:
                continue
            text = f"{number}. {name:<16}{eq:+.3f}"
            if mwc is not None:
                text += f"  ({mwc:.1%})"
            if diff:
                text += f"  {diff:+.3f}"
            lines.append(text)
        lines.append(
            f"Proper cube action: {self.verdict}"
            + (f" ({self.reason})" if self.reason else "")
            + (" (optional)" if self.optional else "")
        )
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        head = (
            f"<p><b>{html.escape(self.verdict)}</b>"
            + (f" &mdash; {html.escape(self.reason)}" if self.reason else "")
            + f"<br><small>{html.escape(self.situation)}; 0-ply Janowski, "
            f"x = {self.cube_efficiency:.2f}; cubeless equity "
            f"{self.cubeless_equity:+.3f}</small></p>"
        )
        cells = [
            "<tr><th>option</th><th>equity</th><th>difference</th>"
            + ("<th>MWC</th>" if not self.money else "")
            + "</tr>"
        ]
        for name, eq, mwc, diff in self._lines():
            if eq is None:
                continue
            bold = name == self.verdict or (name == "No double" and self.action != DOUBLE)
            label = f"<b>{html.escape(name)}</b>" if bold else html.escape(name)
            row = f"<tr><td>{label}</td><td>{eq:+.3f}</td><td>{diff:+.3f}</td>"
            if not self.money:
                row += f"<td>{mwc:.1%}</td>" if mwc is not None else "<td></td>"
            cells.append(row + "</tr>")
        text = head + "<table>" + "".join(cells) + "</table>"
        if self.state is None:
            return text
        from ..draw.svg import beside

        return beside(self.state, text)


def cube_decision(
    state: GameState | str | None = None,
    probabilities: Any = None,
    *,
    evaluator: Callable[[np.ndarray], Any] | str | None = None,
    met: MatchEquityTable | str | None = None,
    cube_efficiency: float | None = None,
) -> CubeDecision:
    """The proper cube action of the player on roll, with the equity of every option.

    Parameters
    ----------
    state : GameState, ID string or None
        Position, cube, score and rules (Jacoby, beavers, Crawford, cube
        limit). ``None`` is a money game with the cube centred at 1 and no
        Jacoby or beavers. The player on roll is the one who may double.
    probabilities : sequence of 5 floats, mapping or rollout-like object
        Cubeless probabilities of the player on roll before rolling; an object
        with ``win``, ``win_gammon``, ``win_backgammon``, ``lose_gammon``,
        ``lose_backgammon`` (and optionally ``stderr``) will do.
    evaluator : str or callable, optional
        Instead of ``probabilities``: an evaluator name (``'net'``, ``'gnubg'``,
        see :func:`~gammonlab.evaluators.base.get_evaluator`) or a function
        from ``(n, 2, 26)`` int8 boards to ``(n, 5)`` probabilities, applied to
        the state's position. With neither, a state's position is evaluated by
        gammonlab's net at 0-ply.
    met : MatchEquityTable or name, optional
        Match equity table (default Kazaross-XG2).
    cube_efficiency : float, optional
        Janowski's ``x``; by default GNU Backgammon's value for the position.

    Returns
    -------
    CubeDecision

    Notes
    -----
    The options are compared as GNU Backgammon 1.07 compares them at 0-ply
    (FindBestCubeDecision): double when both double/take and double/pass are
    at least no double; the taker passes when that is cheaper; "too good"
    when no double beats both and a gammon is possible. Jacoby (R10.1):
    gammons count only once the cube is turned, so a centred cube's no-double
    equity counts them single (a centred cube counts as unturned whatever its
    value, as in GNU Backgammon). Beavers (R10.6, money): the taker beavers
    whenever their equity after taking is positive; the doubler then has
    twice the double/take equity. The Crawford game (R10.2) has no cube;
    post-Crawford the leader's cube is dead while the trailer doubles as the
    equities say (at once, in practice). A cube at its limit cannot be
    turned, and is treated as dead for equities.

    Examples
    --------
    >>> cube_decision(None, [0.5, 0.1, 0.0, 0.1, 0.0]).verdict
    'No double'
    >>> cube_decision(None, [0.85, 0.05, 0.0, 0.0, 0.0]).verdict
    'Double, pass'
    >>> cube_decision(None, [0.9, 0.6, 0.05, 0.0, 0.0]).verdict
    'Too good to double, pass'
    >>> cube_decision("4HPwATDgc/ABMA").verdict  # the opening position, by the net
    'No double'
    """
    state, probabilities = _ordered(state, probabilities, "cube_decision")
    if probabilities is not None and evaluator is not None:
        raise ArgumentError("give either probabilities or evaluator=, not both")
    state = _state(state)
    if probabilities is None and evaluator is None:
        if state is None:
            raise ArgumentError("give probabilities, or a state whose position the net evaluates")
        evaluator = "net"
    if isinstance(evaluator, str):
        from ..evaluators.base import get_evaluator

        evaluator = get_evaluator(evaluator)
    if evaluator is not None:
        if state is None:
            raise ArgumentError("evaluator= needs a state with a position")
        boards = np.asarray(state.position.board, dtype=np.int8)[np.newaxis]
        output = np.asarray(evaluator(boards), dtype=np.float64)
        if output.ndim != 2 or output.shape != (1, _OUTPUTS):
            raise InvalidProbabilitiesError(
                f"the evaluator must return (n, 5) probabilities, got shape {output.shape}"
            )
        probabilities = output[0]
    p, stderr = _probabilities(probabilities)
    sit = _situation(state, met)
    x = _efficiency(cube_efficiency, state)
    return replace(_decide(p, sit, x, stderr), state=state)


def _decide(
    p: np.ndarray, sit: _Situation, x: float, stderr: Mapping[str, float] | None = None
) -> CubeDecision:
    raw = _options(p, sit, x)
    cubeless = _to_money(sit, _cubeless(p, sit))
    if sit.money:
        nd, dt, dp = raw.no_double, raw.double_take, raw.double_pass
        mwcs: dict[str, float | None] = {}
    else:
        nd = _to_money(sit, raw.no_double)
        dt = None if raw.double_take is None else _to_money(sit, raw.double_take)
        dp = None if raw.double_pass is None else _to_money(sit, raw.double_pass)
        mwcs = {
            "mwc_no_double": raw.no_double,
            "mwc_double_take": raw.double_take,
            "mwc_double_pass": raw.double_pass,
        }
    common: dict[str, Any] = {
        "probabilities": tuple(float(v) for v in p),
        "cubeless_equity": cubeless,
        "cube_efficiency": x,
        "situation": sit.describe(),
        "money": sit.money,
        "stderr": stderr,
        **mwcs,
    }
    if dt is None or dp is None:
        return CubeDecision(
            verdict=NO_DOUBLE,
            action=NO_DOUBLE,
            response=None,
            no_double=nd,
            double_take=None,
            double_pass=None,
            double_beaver=None,
            equity=nd,
            errors={NO_DOUBLE: 0.0},
            reason=raw.reason,
            mwc=raw.no_double if not sit.money else None,
            **common,
        )

    beavers = sit.money and sit.beavers
    beaver = 2.0 * dt if beavers else None
    # the taker's answer: whatever leaves the doubler least (R9.4, R10.6)
    answers = {TAKE: dt, PASS: dp}
    if beaver is not None and dt < 0.0:
        answers[BEAVER] = beaver
    response = min(answers, key=lambda name: (answers[name], name != PASS))
    doubled = answers[response]
    can_win_gammon = p[WIN_GAMMON] > 0.0

    if dt >= nd and dp >= nd:
        action = DOUBLE
        optional = abs(doubled - nd) <= _OPTIONAL and (
            response != PASS
            or (can_win_gammon and not (sit.money and sit.owner == CENTRED and sit.jacoby))
        )
        if response == BEAVER and beaver is not None and beaver < nd:
            action = NO_DOUBLE
    elif nd > dp and can_win_gammon:
        action, optional = TOO_GOOD, False
    elif nd > dp and dt > dp:
        # no gammon to play for: "too good" can only be rounding, so cash
        action, optional, response, doubled = DOUBLE, False, PASS, dp
    else:
        action, optional = NO_DOUBLE, False
    if action == DOUBLE:
        verdict = f"Double, {response}"
    elif action == TOO_GOOD:
        verdict = f"{TOO_GOOD}, {TAKE if dt <= dp else PASS}"
    else:
        verdict = NO_DOUBLE + (", beaver" if response == BEAVER else "")
    best_doubler = doubled if action == DOUBLE else nd
    errors = {
        NO_DOUBLE: best_doubler - nd,
        DOUBLE: best_doubler - doubled,
        "Take": dt - doubled,
        "Pass": dp - doubled,
    }
    if BEAVER in answers:
        errors["Beaver"] = answers[BEAVER] - doubled
    mwc = None
    if not sit.money:
        mwc = (
            {TAKE: raw.double_take, PASS: raw.double_pass}.get(response)
            if action == DOUBLE
            else raw.no_double
        )
    return CubeDecision(
        verdict=verdict,
        action=action,
        response=response,
        no_double=nd,
        double_take=dt,
        double_pass=dp,
        double_beaver=beaver,
        equity=best_doubler,
        errors=errors,
        mwc=mwc,
        optional=optional,
        **common,
    )
