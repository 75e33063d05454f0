"""Analysing matches: every checker play and cube decision judged, and the luck of every roll."""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..cube.batch import Cube, Decision, cube_efficiencies, cubeful, decide, value_on_roll
from ..errors import (
    AnalysisError,
    ArgumentTypeError,
    EvaluatorError,
    GammonlabError,
    InvalidDiceError,
)
from ..io.text import collects
from ..met import DEFAULT_TABLE, MatchEquityTable, load
from ._plays import (
    OPENING_ROLLS,
    ROLL_INDEX,
    ROLL_WEIGHTS,
    ROLLS,
    Rolls,
    make_engine,
    resolve_evaluator,
)
from .ratings import (
    CLOSE_CUBE_DECISION,
    CUBE_ERRORS,
    ERROR_CLASSES,
    ERROR_THRESHOLDS,
    LUCK_CLASSES,
    error_class,
    luck_class,
)

if TYPE_CHECKING:
    import pandas as pd

    from ..evaluators.base import Policy
    from ..match.model import Action, Game, Match
    from ..position import Position
    from ..state import GameState

__all__ = [
    "ANALYSIS_COLUMNS",
    "CUBE_VERDICTS",
    "analyse",
    "analyse_matches",
    "rank_plays",
    "roll_luck",
]

_PROBABILITY_COLUMNS = (
    "p_win",
    "p_win_gammon",
    "p_win_backgammon",
    "p_lose_gammon",
    "p_lose_backgammon",
)
_TIE = 1e-9  # equities this close rank equal
CUBE_VERDICTS = (
    "No double",
    "Double, take",
    "Double, pass",
    "Double, beaver",
    "No double, beaver",
    "Too good to double, take",
    "Too good to double, pass",
)
"""The proper cube actions, the categories of ``cube_verdict``."""

# -- judging one decision -------------------------------------------------------------------------

_ERROR_TOLERANCE = 1e-6  # equity differences below this are rounding, not errors
_MOVE_FILTER = (8, 0.16)  # plies > 0: GNU Backgammon's normal filter, best 8 within 0.16


@dataclass
class _RollValues:
    """The mover's view of every play of some rolls."""

    rolls: Rolls
    equities: np.ndarray  # normalised, NaN for a policy
    values: np.ndarray  # money equity per cube or MWC, NaN for a policy
    ranking: np.ndarray  # what the best play maximises

    def segment(self, i: int) -> slice:
        return slice(int(self.rolls.starts[i]), int(self.rolls.starts[i + 1]))

    def best(self) -> np.ndarray:
        """The best value of each roll."""
        return np.maximum.reduceat(self.values, self.rolls.starts[:-1])


class _Analyst:
    """Analyses the actions of matches with one engine and one match equity table."""

    def __init__(
        self,
        policy: Policy,
        variant: Any,
        *,
        plies: int,
        luck: bool,
        table: MatchEquityTable | None,
        thresholds: dict[str, float],
    ) -> None:
        self.engine = make_engine(policy, variant, plies)
        self.plies = self.engine.plies
        self.luck = luck and self.engine.evaluates
        self.table = table
        self.thresholds = thresholds
        self.checkers = variant.checkers
        self.memo: dict[Any, float] = {}  # match winning chances of the table, by score

    def cube(self, state: GameState) -> Cube:
        return Cube.of(state, self.table, self.memo)

    # -- plays ---------------------------------------------------------------------------------

    def roll_values(
        self, position: Position, cube: Cube, rolls: Sequence[tuple[int, int]]
    ) -> _RollValues:
        """Every play of each roll, judged by the position it leads to."""
        found = self.engine.rolls(position, rolls)
        if not self.engine.evaluates:
            nan = np.full(len(found.boards), np.nan)
            assert found.scores is not None
            return _RollValues(found, nan, nan, found.scores)
        values = self.values_after(found.boards, found.probabilities, cube)
        equities = np.asarray(cube.to_equity(values), dtype=np.float64)
        return _RollValues(found, equities, values, equities)

    def values_after(self, boards: np.ndarray, probabilities: np.ndarray, cube: Cube) -> np.ndarray:
        """The mover's value after plays: the opponent's, at 0-ply with their cube action."""
        opponent_view = np.ascontiguousarray(boards[:, ::-1])
        x = cube_efficiencies(opponent_view, self.checkers)
        return cube.opposite(value_on_roll(probabilities, cube.swapped(), x))

    def deepen(self, found: _RollValues, where: slice, cube: Cube) -> None:
        """Plies > 0: the best plays of a roll evaluated again, deeper (in place)."""
        equities = found.equities[where]
        order = np.argsort(-equities, kind="stable")
        keep = [
            i
            for i in order[: _MOVE_FILTER[0]]
            if equities[i] >= equities[order[0]] - _MOVE_FILTER[1]
        ]
        rows = np.arange(where.start, where.stop)[keep]
        boards = found.rolls.boards[rows]
        probabilities = self.engine.plied(boards[:, ::-1])
        found.rolls.probabilities[rows] = probabilities
        values = self.values_after(boards, probabilities, cube)
        found.values[rows] = values
        found.equities[rows] = cube.to_equity(values)

    def position_probabilities(self, position: Position) -> np.ndarray:
        board = np.asarray(position.board)[np.newaxis]
        if self.plies:
            return self.engine.plied(board)[0]
        return self.engine.probabilities(board)[0]

    # -- luck ----------------------------------------------------------------------------------

    def opening_mean(self, position: Position, cube: Cube, best_values: np.ndarray) -> float:
        """Mean equity over the opening roll-off: either player may start, no doubles (R3).

        ``best_values`` are the mover's best values for the 21 rolls.
        """
        theirs = self.roll_values(
            position.swapped(), cube.swapped(), [ROLLS[i] for i in OPENING_ROLLS]
        )
        their_best = cube.opposite(theirs.best())
        my_best = best_values[list(OPENING_ROLLS)]
        return float(np.mean(cube.to_equity(np.concatenate([my_best, their_best]))))

    # -- one action ----------------------------------------------------------------------------

    def move(self, action: Action, opening: bool) -> dict[str, Any]:
        state = action.state
        position = state.position
        cube = self.cube(state)
        dice = action.dice
        assert dice is not None
        roll = (max(dice), min(dice))
        rolls = ROLLS if self.luck else (roll,)
        found = self.roll_values(position, cube, rolls)
        actual = ROLL_INDEX[roll] if self.luck else 0
        where = found.segment(actual)
        legal = position.legal_plays(dice)
        forced = len(legal) <= 1
        best_values = found.best() if self.luck else None  # luck is judged at 0 plies
        if self.plies and not forced:
            self.deepen(found, where, cube)
        boards = found.rolls.boards[where]
        ranking = found.ranking[where]
        played_board = action.play.board if action.play is not None else position.board
        index = {board.tobytes(): i for i, board in enumerate(boards)}
        played = index.get(np.asarray(played_board, dtype=np.int8).tobytes())
        if played is None:
            raise AnalysisError(
                f"the play {action.play} is not among the legal plays of "
                f"{dice[0]}-{dice[1]} in {position.label}"
            )
        best = int(np.argmax(ranking))
        if ranking[best] <= ranking[played] + _TIE:
            best = played  # equal plays: the one made is as good as any
        row: dict[str, Any] = {
            "forced": forced,
            "best_play": _notation(legal, boards[best]),
            "play_rank": 1 + int(np.sum(ranking > ranking[played] + _TIE)),
        }
        equities = found.equities[where]
        loss = max(0.0, float(equities[best] - equities[played]))
        if self.engine.evaluates:
            row.update(
                played_equity=float(equities[played]),
                best_equity=float(equities[best]),
                equity_loss=loss,
                mwc_loss=loss * cube.mwc_per_equity(),
                error_class=error_class(loss, self.thresholds),
            )
            row.update(self.cube_on_move(state, cube, opening))
        if best_values is not None:
            if opening and roll[0] != roll[1]:
                mean = self.opening_mean(position, cube, best_values)
            else:
                mean = float(np.dot(ROLL_WEIGHTS, cube.to_equity(best_values)) / 36.0)
            luck = float(cube.to_equity(best_values[actual])) - mean
            row.update(
                luck=luck, luck_mwc=luck * cube.mwc_per_equity(), luck_class=luck_class(luck)
            )
        return row

    def cube_on_move(self, state: GameState, cube: Cube, opening: bool) -> dict[str, Any]:
        """The cube decision of a player who rolled: a missed double, or none."""
        p = self.position_probabilities(state.position)
        row: dict[str, Any] = dict(zip(_PROBABILITY_COLUMNS, p.tolist()))
        x = cube_efficiencies(np.asarray(state.position.board)[np.newaxis], self.checkers)
        # the opening roll is played at once (R3.2): no chance to double before it
        if opening or not cube.may_double():
            row["position_equity"] = float(cube.to_equity(cubeful(p[np.newaxis], cube, x))[0])
            return row
        decision = decide(p, cube, float(x[0]))
        if decision.double_take is None or decision.double_pass is None:
            row["position_equity"] = decision.equity
            return row
        loss = max(0.0, decision.errors["No double"])
        close = (
            min(decision.double_take, decision.double_pass) - decision.no_double
            > -CLOSE_CUBE_DECISION
        )
        row.update(self.cube_columns(decision, cube, loss, "missed double"))
        row["cube_decision"] = bool(close or loss > _ERROR_TOLERANCE)
        row["position_equity"] = decision.equity
        return row

    def cube_columns(
        self, decision: Decision, cube: Cube, loss: float, error: str
    ) -> dict[str, Any]:
        wrong = loss > _ERROR_TOLERANCE
        return {
            "cube_verdict": decision.verdict,
            "cube_no_double": decision.no_double,
            "cube_double_take": decision.double_take,
            "cube_double_pass": decision.double_pass,
            "cube_equity_loss": loss,
            "cube_mwc_loss": loss * cube.mwc_per_equity(),
            "cube_error": error if wrong else "none",
            "cube_error_class": error_class(loss, self.thresholds),
            "cube_decision": True,
        }

    def cube_action(self, action: Action, answered: str | None) -> dict[str, Any]:
        """A double, or the answer to one, judged on the doubler's position."""
        if not self.engine.evaluates:
            return {}
        state = action.state
        cube = self.cube(state)  # the doubler's view, before the double
        p = self.position_probabilities(state.position)
        x = cube_efficiencies(np.asarray(state.position.board)[np.newaxis], self.checkers)
        decision = decide(p, cube, float(x[0]))
        if decision.double_take is None or decision.double_pass is None:
            return {}
        double_take = decision.double_take
        doubled = double_take - decision.errors["Take"]  # the doubler's, after the best answer
        kind = action.kind
        if kind == "double":
            row = self.cube_columns(
                decision, cube, max(0.0, decision.errors["Double"]), "wrong double"
            )
            row.update(zip(_PROBABILITY_COLUMNS, p.tolist()))
            row["position_equity"] = decision.equity
            return row
        if answered != "double":
            return {}  # the answers to a beaver or a raccoon are not judged
        if kind == "take":
            loss = max(0.0, decision.errors["Take"])
            error = "missed beaver" if decision.response == "beaver" else "wrong take"
        elif kind == "drop":
            loss, error = max(0.0, decision.errors["Pass"]), "wrong pass"
        elif kind == "beaver":
            loss, error = max(0.0, 2.0 * double_take - doubled), "wrong beaver"
        else:
            return {}
        row = self.cube_columns(decision, cube, loss, error)
        taker = cube.swapped()
        row.update(zip(_PROBABILITY_COLUMNS, [1.0 - p[0], p[3], p[4], p[1], p[2]]))
        if cube.money:
            row["position_equity"] = -doubled
        else:
            row["position_equity"] = float(taker.to_equity(1.0 - cube.to_mwc(doubled)))
        return row


def _notation(legal: Any, board: np.ndarray) -> str:
    """The canonical notation of the legal play that leads to ``board`` ('' for none)."""
    if len(legal) == 0:
        return ""
    target = np.asarray(board, dtype=np.int8).tobytes()
    for i, candidate in enumerate(legal.boards):
        if candidate.tobytes() == target:
            return str(legal[i].notation)
    raise EvaluatorError("a play of the evaluator is not among the legal plays")


# -- a whole match --------------------------------------------------------------------------------

_FLOAT_COLUMNS = (
    "played_equity",
    "best_equity",
    "equity_loss",
    "mwc_loss",
    "cube_no_double",
    "cube_double_take",
    "cube_double_pass",
    "cube_equity_loss",
    "cube_mwc_loss",
    "luck",
    "luck_mwc",
    *_PROBABILITY_COLUMNS,
    "position_equity",
)
_COLUMNS = (
    "forced",
    "play_rank",
    "best_play",
    "played_equity",
    "best_equity",
    "equity_loss",
    "mwc_loss",
    "error_class",
    "cube_decision",
    "cube_verdict",
    "cube_no_double",
    "cube_double_take",
    "cube_double_pass",
    "cube_equity_loss",
    "cube_mwc_loss",
    "cube_error",
    "cube_error_class",
    "luck",
    "luck_mwc",
    "luck_class",
    *_PROBABILITY_COLUMNS,
    "position_equity",
)
ANALYSIS_COLUMNS = _COLUMNS
"""The columns :func:`analyse` adds to the action frame, in order."""


def _table_for(match: Match, met: MatchEquityTable | str | None) -> MatchEquityTable | None:
    if match.match_length == 0:
        return None
    if isinstance(met, MatchEquityTable):
        return met
    name = met or DEFAULT_TABLE
    table = load(name)
    return (
        table if match.match_length <= table.max_away else load(name, max_away=match.match_length)
    )


def _is_opening(game: Game, index: int, action: Action) -> bool:
    """The first roll of a game, made from the starting position (GNU Backgammon's LuckFirst)."""
    if any(a.kind == "move" for a in game.actions[:index]):
        return False
    from ..position import Position

    return action.state.position == Position.initial(action.state.position.variant)


def _analyse_rows(analyst: _Analyst, match: Match, progress: bool) -> list[dict[str, Any]]:
    from tqdm.auto import tqdm

    rows: list[dict[str, Any]] = []
    total = sum(len(game.actions) for game in match.games)
    bar = tqdm(total=total, unit="action", desc="analysing", disable=not progress)
    try:
        for game in match.games:
            for index, action in enumerate(game.actions):
                if action.kind == "move" and action.dice is not None:
                    row = analyst.move(action, _is_opening(game, index, action))
                elif action.kind in ("double", "take", "drop", "beaver"):
                    answered = game.actions[index - 1].kind if index else None
                    row = analyst.cube_action(action, answered)
                else:
                    row = {}
                rows.append(row)
                bar.update()
    finally:
        bar.close()
    return rows


def _rows_to_frame(frame: pd.DataFrame, rows: list[dict[str, Any]]) -> pd.DataFrame:
    import pandas as pd

    def column(name: str) -> list[Any]:
        return [row.get(name) for row in rows]

    added: dict[str, Any] = {
        "forced": pd.array(column("forced"), dtype="boolean"),
        "play_rank": pd.array(column("play_rank"), dtype="Int16"),
        "best_play": pd.array(column("best_play"), dtype="string"),
        "error_class": pd.Categorical(
            column("error_class"), categories=list(ERROR_CLASSES), ordered=True
        ),
        "cube_decision": pd.array(column("cube_decision"), dtype="boolean"),
        "cube_verdict": pd.Categorical(column("cube_verdict"), categories=list(CUBE_VERDICTS)),
        "cube_error": pd.Categorical(column("cube_error"), categories=list(CUBE_ERRORS)),
        "cube_error_class": pd.Categorical(
            column("cube_error_class"), categories=list(ERROR_CLASSES), ordered=True
        ),
        "luck_class": pd.Categorical(
            column("luck_class"), categories=list(LUCK_CLASSES), ordered=True
        ),
    }
    for name in _FLOAT_COLUMNS:
        values = [math.nan if v is None else v for v in column(name)]
        added[name] = pd.array(values, dtype="Float64")  # NaN becomes NA: not judged
    out = frame.copy()
    for name in _COLUMNS:
        out[name] = added[name]
    return out


def analyse(
    match: Match | Any,
    evaluator: Any = None,
    *,
    plies: int = 0,
    progress: bool = True,
    luck: bool = True,
    met: MatchEquityTable | str | None = None,
    thresholds: dict[str, float] | None = None,
) -> pd.DataFrame:
    """Analyse every decision of a match: the action frame with analysis columns.

    Parameters
    ----------
    match : Match, path or transcript text
        A :class:`~gammonlab.match.Match`, or anything :func:`~gammonlab.read_match`
        reads.
    evaluator : str, Policy or callable, optional
        ``'net'`` (gammonlab's own neural evaluator, the default), ``'gnubg'``
        (GNU Backgammon's nets, with ``pip install -e ".[gnubg]"``),
        ``'pubeval'`` (it ranks plays but gives no equity: no equity loss, no
        luck), or any evaluator :func:`~gammonlab.evaluators.base.get_evaluator`
        accepts.
    plies : int
        0 judges every play and cube decision on the evaluator's 0-ply
        probabilities, as GNU Backgammon's 0-ply analysis does. More (``'net'``
        and ``'gnubg'``): the best plays (up to 8 within 0.16) and the cube are
        judged on ``plies``-ply cubeless probabilities, made cubeful by the same
        formulas; GNU Backgammon's deeper analyses are cubeful all the way down,
        so they differ a little. Luck stays at 0 plies, as in GNU Backgammon.
        Each ply is far slower than the one before.
    progress : bool
        Show a progress bar.
    luck : bool
        Compute the luck of every roll (the plays of all 21 rolls are evaluated:
        most of the time analysis takes).
    met : MatchEquityTable or name, optional
        Match equity table; Kazaross-XG2 by default.
    thresholds : dict, optional
        Error limits by class (:data:`ERROR_THRESHOLDS` by default).

    Returns
    -------
    pandas.DataFrame
        :meth:`Match.to_frame`, row for row, with the columns below. Equities are
        normalised (see the module's documentation); losses are positive.
        ``frame.attrs["analysis"]`` records the settings.

        Checker play (``move`` rows): ``forced`` (one legal play or none),
        ``best_play``, ``play_rank`` (1 = the best), ``played_equity``,
        ``best_equity``, ``equity_loss``, ``mwc_loss`` (match play, in match
        winning chances), ``error_class`` (``none``, ``doubtful``, ``bad``,
        ``very bad``).

        Cube (``move`` rows of a player who could double, and ``double``,
        ``take``, ``drop``, ``beaver`` rows): ``cube_verdict`` (the proper
        action, e.g. ``'Double, take'``), the doubler's ``cube_no_double``,
        ``cube_double_take`` and ``cube_double_pass`` equities,
        ``cube_equity_loss``, ``cube_mwc_loss``, ``cube_error`` (``none``,
        ``missed double``, ``wrong double``, ``wrong take``, ``wrong pass``,
        ``wrong beaver``, ``missed beaver``), ``cube_error_class``, and
        ``cube_decision``: the decision counts for rates and PR (every double
        and answer; a roll without doubling when the double was missed or
        close, :data:`CLOSE_CUBE_DECISION`).

        Luck (``move`` rows): ``luck``, the equity of the best play of the roll
        minus its average over the 36 rolls (over the 30 non-doubles of either
        player for a game's first roll), for the player who rolled;
        ``luck_mwc`` in match winning chances; ``luck_class``.

        Position (``move``, ``double``, ``take``, ``drop`` rows): the acting
        player's cubeless chances before acting, ``p_win``, ``p_win_gammon``,
        ``p_win_backgammon``, ``p_lose_gammon``, ``p_lose_backgammon``, and
        ``position_equity``, their cubeful equity with correct cube play.

    Notes
    -----
    Not judged: resignations, and the answers to a beaver or raccoon.

    Examples
    --------
    >>> from gammonlab.analysis import analyse
    >>> frame = analyse(" 1 point match\\n\\n Game 1\\n A : 0     B : 0\\n"
    ...                 "  1) 31: 8/5 6/5      21: 13/11 6/5\\n",
    ...                 evaluator="pubeval", progress=False)
    >>> frame[["play", "best_play", "play_rank"]].values.tolist()
    [['8/5 6/5', '8/5 6/5', 1], ['13/11 6/5', '24/21', 7]]
    """
    from ..match.model import Match

    if not isinstance(match, Match):
        from ..match.read import read_match

        match = read_match(match)
    policy = resolve_evaluator(evaluator)
    limits = dict(thresholds or ERROR_THRESHOLDS)
    table = _table_for(match, met)
    analyst = _Analyst(
        policy, match.variant, plies=plies, luck=luck, table=table, thresholds=limits
    )
    rows = _analyse_rows(analyst, match, progress)
    frame = _rows_to_frame(match.to_frame(), rows)
    frame.attrs["analysis"] = {
        "evaluator": policy.name,
        "plies": int(plies),
        "luck": bool(analyst.luck),
        "met": None
        if table is None
        else met
        if isinstance(met, str)
        else DEFAULT_TABLE
        if met is None
        else table.name,
        "thresholds": limits,
    }
    return frame


# -- many matches ---------------------------------------------------------------------------------


def _analyse_file(
    path: str, evaluator: Any, options: dict[str, Any], errors: str
) -> tuple[Any, list[tuple[Any, ...]]]:
    """Read and analyse one file for :func:`analyse_matches`: its frame and its problems."""
    from ..match.read import read_match

    try:
        match = read_match(path, errors=errors)  # type: ignore[arg-type]
        if not match.games:
            raise AnalysisError("no game could be read")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            frame = analyse(match, evaluator, progress=False, **options)
    except GammonlabError as error:
        if errors == "raise":
            raise
        return None, [
            (
                path,
                getattr(error, "line", None),
                getattr(error, "column", None),
                "file skipped",
                str(error).splitlines()[0],
            )
        ]
    problems = [
        (path, p.line, p.column, "game skipped" if "skipped" in p.detail else "flagged", p.detail)
        for p in match.problems
    ]
    return frame, problems


def analyse_matches(
    source: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    evaluator: Any = None,
    *,
    plies: int = 0,
    luck: bool = True,
    met: str | None = None,
    thresholds: dict[str, float] | None = None,
    errors: str = "raise",
    pattern: str | None = None,
    progress: bool = True,
    n_jobs: int | None = None,
) -> pd.DataFrame:
    """Analyse many transcripts in parallel: one frame with a ``match`` column.

    Parameters
    ----------
    source : folder or paths
        A folder, read recursively (every ``.mat``, ``.txt`` and ``.sgf`` file,
        or those matching ``pattern``), or a list of paths.
    evaluator, plies, luck, met, thresholds
        As for :func:`analyse`. A Python callable used as evaluator must be
        picklable to run in several processes.
    errors : {'raise', 'collect'}, default 'raise'
        ``raise`` stops at the first problem, as :func:`~gammonlab.read_matches`
        does by default; ``collect`` analyses every good game, skips the rest
        and lists them in ``frame.attrs["problems"]``, with a warning that
        counts them.
    progress : bool
        A progress bar over the files.
    n_jobs : int, optional
        Worker processes; ``None`` uses every core, 1 works in this process.

    Returns
    -------
    pandas.DataFrame
        The analysed frames in file order, ``match`` (the path, relative to the
        folder) first; ``frame.attrs`` holds ``analysis`` and ``problems``.
    """
    from ..match.read import gather_frames, map_files, transcript_files, warn_problems

    collects(errors)
    paths, root = transcript_files(source, pattern)
    policy = resolve_evaluator(evaluator)  # once, here, not in every worker
    options = {"plies": plies, "luck": luck, "met": met, "thresholds": thresholds}
    results = map_files(
        _analyse_file,
        paths,
        policy,
        options,
        errors,
        n_jobs=n_jobs,
        progress=progress,
        desc="analysing",
    )
    settings: dict[str, Any] = {}
    for table, _ in results:
        if table is not None:
            settings = table.attrs.get("analysis", settings)
    out, report = gather_frames(paths, root, results)
    out.attrs["analysis"] = settings
    out.attrs["problems"] = report
    warn_problems(out, len(paths), report, "analysed")
    return out


# -- one position ---------------------------------------------------------------------------------


def _position_state(position: Any) -> GameState:
    from ..position import Position
    from ..state import GameState

    if isinstance(position, GameState):
        return position
    if isinstance(position, Position):
        return GameState(position)
    if isinstance(position, str):
        return GameState.from_id(position)
    raise ArgumentTypeError(f"expected a GameState, a Position or an ID, got {position!r}")


def _single_analyst(
    state: GameState, evaluator: Any, met: MatchEquityTable | str | None
) -> _Analyst:
    table = None
    if state.match_length:
        table = (
            met
            if isinstance(met, MatchEquityTable)
            else load(met or DEFAULT_TABLE, max_away=max(25, state.match_length))
        )
    return _Analyst(
        resolve_evaluator(evaluator),
        state.position.variant,
        plies=0,
        luck=True,
        table=table,
        thresholds=ERROR_THRESHOLDS,
    )


def rank_plays(
    position: GameState | Position | str,
    dice: tuple[int, int] | None = None,
    *,
    evaluator: Any = None,
    met: MatchEquityTable | str | None = None,
) -> pd.DataFrame:
    """Every legal play of a roll, best first, as :func:`analyse` judges them.

    Parameters
    ----------
    position : GameState, Position or ID
        A position alone is a money game with the cube centred.
    dice : tuple of int, optional
        The roll; by default the state's.
    evaluator, met
        As for :func:`analyse`.

    Returns
    -------
    pandas.DataFrame
        ``play``, ``equity`` (normalised, cubeful, for the player who moves),
        ``loss`` (behind the best), the mover's cubeless chances after the play
        (``p_win`` ...), and for a policy (pubeval) its ``score`` instead.

    Examples
    --------
    >>> from gammonlab import Position
    >>> rank_plays(Position.initial(), (3, 1), evaluator="pubeval").iloc[0]["play"]
    '8/5 6/5'
    """
    import pandas as pd

    state = _position_state(position)
    dice = dice or state.dice
    if dice is None:
        raise InvalidDiceError("rank_plays needs a roll: give dice=(d1, d2)")
    analyst = _single_analyst(state, evaluator, met)
    cube = analyst.cube(state)
    found = analyst.roll_values(state.position, cube, [(max(dice), min(dice))])
    legal = state.position.legal_plays(dice)
    boards = found.rolls.boards
    frame = pd.DataFrame({"play": [_notation(legal, board) for board in boards]})
    if analyst.engine.evaluates:
        p = found.rolls.probabilities
        frame["equity"] = found.equities
        frame["loss"] = found.equities.max() - found.equities
        for name, column in zip(
            _PROBABILITY_COLUMNS, (1.0 - p[:, 0], p[:, 3], p[:, 4], p[:, 1], p[:, 2])
        ):
            frame[name] = column
    else:
        frame["score"] = found.ranking
    order = np.argsort(-found.ranking, kind="stable")
    return frame.iloc[order].reset_index(drop=True)


def roll_luck(
    position: GameState | Position | str,
    *,
    evaluator: Any = None,
    met: MatchEquityTable | str | None = None,
) -> pd.DataFrame:
    """The luck of each of the 21 rolls for the player on roll.

    Luck is the equity of the roll's best play minus the average over the 36
    rolls: the ``probability``-weighted sum of ``luck`` is 0.

    Returns
    -------
    pandas.DataFrame
        ``roll`` (``'6-5'``), ``probability`` (1/36 or 2/36), ``best_play``,
        ``equity`` and ``luck`` (normalised, for the player on roll).
    """
    import pandas as pd

    state = _position_state(position)
    analyst = _single_analyst(state, evaluator, met)
    if not analyst.engine.evaluates:
        raise EvaluatorError(
            f"{analyst.engine.name!r} gives no equity: luck needs an evaluator such as 'gnubg'"
        )
    cube = analyst.cube(state)
    found = analyst.roll_values(state.position, cube, ROLLS)
    best = np.asarray(cube.to_equity(found.best()), dtype=np.float64)
    mean = float(np.dot(ROLL_WEIGHTS, best) / 36.0)
    plays = []
    for i, roll in enumerate(ROLLS):
        where = found.segment(i)
        index = int(np.argmax(found.ranking[where]))
        plays.append(_notation(state.position.legal_plays(roll), found.rolls.boards[where][index]))
    return pd.DataFrame(
        {
            "roll": [f"{high}-{low}" for high, low in ROLLS],
            "probability": ROLL_WEIGHTS / 36.0,
            "best_play": plays,
            "equity": best,
            "luck": best - mean,
        }
    )
