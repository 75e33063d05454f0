"""The page ``gammonlab demo`` writes: the plots (inline PNG), boards (inline SVG) and tables
made from the results of the steps in :mod:`gammonlab.cli.demo`, put together into
``report.html``, one self-contained page with no scripts and nothing fetched from elsewhere.
"""

from __future__ import annotations

import base64
import html
import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..draw.style import PLAYER_COLORS, PLAYER_EDGE_COLORS, PLAYER_TEXT_COLORS
from ..errors import GammonlabError

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

    from ..match.model import Action, Match
    from ..play import Play
    from ..rollout.result import RolloutResult

__all__ = ["PlayRollout"]

MIN_GAMES = 4
"""Match lengths with fewer games are left out of the gammon rates."""
PLOT_DPI = 110
WIDE, NORMAL = (10.0, 4.4), (8.0, 4.4)
"""Figure sizes in inches: timelines of the match, other plots."""

_SUMMARY_HEADINGS = {
    "player_name": "player",
    "unforced": "unforced moves",
    "checker_errors": "checker errors",
    "very_bad": "very bad",
    "checker_error_rate": "checker error rate",
    "cube_decisions": "cube decisions",
    "cube_errors": "cube errors",
    "error_rate": "error rate (checker and cube)",
    "pr": "PR",
    "best_play_rate": "best play",
    "luck": "luck",
    "result": "result",
    "luck_adjusted_result": "luck-adjusted",
}


@dataclass
class PlayRollout:
    """The rollout of the position after one play, from the mover's side.

    Attributes
    ----------
    label : str
        ``'play made'`` or ``'best play'``.
    play : str
        The play, in GNU Backgammon's notation.
    result : RolloutResult
        The rollout of the position after the play (the opponent on roll).
    player : str or None
        The name of the player who made the play.
    """

    label: str
    play: str
    result: RolloutResult
    player: str | None = None

    @property
    def equity(self) -> float:
        """Cubeless money equity for the player who made the play."""
        return -float(self.result.equity)

    @property
    def win(self) -> float:
        """The mover's chance to win the game."""
        return 1.0 - float(self.result.win)

    @property
    def win_gammon(self) -> float:
        """The mover's chance to win a gammon (or a backgammon)."""
        return float(self.result.lose_gammon)

    @property
    def lose_gammon(self) -> float:
        """The mover's chance to lose a gammon (or a backgammon)."""
        return float(self.result.win_gammon)

    @property
    def half_interval(self) -> float:
        """Half the 95% interval of :attr:`equity`."""
        low, high = self.result.ci95["equity"]
        return float(high - low) / 2.0


@dataclass
class _Decision:
    """The checker play the report rolls out, with a better play when there is one."""

    row: pd.Series
    action: Action
    best: Play | None
    what: str

    @property
    def mover(self) -> str:
        """The name of the player who made the play."""
        return str(self.row["player_name"])

    def names(self) -> tuple[str, str] | None:
        """The mover's name and the opponent's, when the match knows them."""
        players = self.action.players
        if players is None:
            return None
        mover = self.action.player
        return players[mover], players[1 - mover]

    def describe(self) -> str:
        row, play = self.row, self.action.play
        assert play is not None
        text = (
            f"{self.what}: game {int(row['game'])}, {row['player_name']} played "
            f"{row['die1']}-{row['die2']}: {play.notation}"
        )
        if self.best is not None:
            text += f"; best {self.best.notation}"
            if _known(row.get("equity_loss")):
                text += f" (loses {float(row['equity_loss']):.3f})"
        return text


def _result_line(match: Match) -> str:
    s0, s1 = match.score
    if match.winner is not None:
        winner = match.players[match.winner]
        return f"{winner} won {max(s0, s1)}-{min(s0, s1)}"
    if match.match_length:
        return f"unfinished at {s0}-{s1}"
    return f"{match.players[0]} {s0} points, {match.players[1]} {s1} points"


def _known(value: Any) -> bool:
    try:
        return value is not None and not math.isnan(float(value))
    except (TypeError, ValueError):
        return False


# -- pictures -------------------------------------------------------------------------------------


def _png(fig: Figure) -> str:
    """The figure as an ``<img>`` with the PNG inline."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=PLOT_DPI, bbox_inches="tight", facecolor="white")
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    label = html.escape(_figure_title(fig), quote=True)
    return f'<img src="data:image/png;base64,{data}" alt="{label}">'


def _figure_title(fig: Figure) -> str:
    titles = [ax.get_title(loc="left") or ax.get_title() for ax in fig.axes]
    return "; ".join(t for t in titles if t) or "plot"


def _draw(size: tuple[float, float], helper: Callable[..., Any], *args: Any, **kwargs: Any) -> str:
    from matplotlib.figure import Figure

    # a bare Figure renders with Agg and leaves pyplot's backend and state alone
    fig = Figure(figsize=size, layout="constrained")
    helper(*args, ax=fig.add_subplot(), **kwargs)
    return _png(fig)


def _plots(
    judged: pd.DataFrame,
    games: pd.DataFrame,
    rollouts: list[PlayRollout],
    log: Callable[[str], None],
) -> dict[str, str]:
    """The report's plots, by name, as ``<img>`` elements; a plot that cannot be drawn
    from the data is left out with a note."""
    from .. import plot

    has_equity = judged["equity_loss"].notna().any()
    has_luck = "luck" in judged.columns and judged["luck"].notna().any()
    distinct = games[~games["match"].isin(list(games.attrs.get("repeated", {})))]
    wanted: list[
        tuple[str, tuple[float, float], Callable[..., Any], tuple[Any, ...], dict[str, Any]]
    ] = [
        ("pips", WIDE, plot.plot_pips, (judged,), {}),
    ]
    if has_equity:
        wanted += [
            ("equity", WIDE, plot.plot_equity, (judged,), {}),
            ("errors", NORMAL, plot.plot_errors, (judged,), {"value": "equity_loss"}),
        ]
    if has_luck:
        wanted.append(("luck", WIDE, plot.plot_luck, (judged,), {}))
    wanted.append(
        (
            "gammon_rates",
            NORMAL,
            plot.plot_gammon_rates,
            (distinct,),
            {"by": "match_length", "min_games": MIN_GAMES},
        )
    )
    pictures: dict[str, str] = {}
    for name, size, helper, args, kwargs in wanted:
        try:
            pictures[name] = _draw(size, helper, *args, **kwargs)
        except (GammonlabError, ValueError, KeyError) as error:
            log(f"  {helper.__name__} left out: {error}")
    if rollouts:
        pictures["rollout"] = _png(_rollout_figure(rollouts))
    log(f"drew {len(pictures)} plots")
    return pictures


def _rollout_figure(rollouts: list[PlayRollout]) -> Figure:
    """Each play's rollout converging, from the side of the player who made the play."""
    from matplotlib.figure import Figure

    from .. import plot

    fig = Figure(figsize=WIDE, layout="constrained")
    axes = fig.subplots(1, len(rollouts), squeeze=False)[0]
    for ax, found in zip(axes, rollouts):
        # the position after the play has the opponent on roll: draw the mover's side
        plot.plot_rollout(found.result, side="opponent", name=found.player, ax=ax)
        whose = f"{found.player}'s" if found.player else "the mover's"
        ax.set_title(
            f"{found.label} {found.play}: {whose} equity {found.equity:+.3f}",
            loc="left",
            fontsize="medium",
        )
    return fig


def _boards(decision: _Decision) -> dict[str, str]:
    """The position of the decision with the play made and with the best play."""
    from ..draw import svg

    mover = decision.action.player
    # the board is drawn from the mover's side; keep each player's colour from the plots
    colors = {
        "checkers": (PLAYER_COLORS[mover], PLAYER_COLORS[1 - mover]),
        "checker_edges": (PLAYER_EDGE_COLORS[mover], PLAYER_EDGE_COLORS[1 - mover]),
        "checker_text": (PLAYER_TEXT_COLORS[mover], PLAYER_TEXT_COLORS[1 - mover]),
    }
    out: dict[str, str] = {}
    for label, play in (("play made", decision.action.play), ("best play", decision.best)):
        if play is not None:
            out[f"{label}: {play.notation}"] = str(
                svg.board(play, colors=colors, size=None, names=decision.names())
            )
    return out


# -- the page -------------------------------------------------------------------------------------

_CSS = """
:root { --amber: %(amber)s; --blue: %(blue)s; --ink: #222; --muted: #666; --rule: #ddd; }
body { font-family: "DejaVu Sans", Verdana, Helvetica, Arial, sans-serif; color: var(--ink);
       max-width: 62rem; margin: 2rem auto; padding: 0 1.2rem; line-height: 1.45; }
h1 { font-size: 1.7rem; margin-bottom: .2rem; }
h2 { font-size: 1.25rem; margin-top: 2.2rem; border-bottom: 2px solid var(--amber);
     padding-bottom: .2rem; }
p.lead, p.note, figcaption, footer { color: var(--muted); }
p.note, figcaption, footer { font-size: .9rem; }
table { border-collapse: collapse; margin: .8rem 0; font-size: .92rem; }
th, td { padding: .3rem .65rem; border-bottom: 1px solid var(--rule); text-align: left; }
th { background: #f6f3ee; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 1rem 0; }
figure img { max-width: 100%%; height: auto; display: block; }
.boards { display: flex; flex-wrap: wrap; gap: 1rem; }
.boards figure { flex: 1 1 22rem; margin: 0; }
.boards svg { width: 100%%; height: auto; }
.player0 { border-left: 6px solid var(--amber); }
.player1 { border-left: 6px solid var(--blue); }
details { margin: .6rem 0; }
summary { cursor: pointer; color: var(--muted); }
code { background: #f4f4f4; padding: 0 .25rem; border-radius: 3px; }
"""

_SECURITY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"
"""The page's Content-Security-Policy: it may load nothing from anywhere."""


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _cell(value: Any, digits: int) -> str:
    if isinstance(value, bool) or value is None:
        return f"<td>{_e('' if value is None else value)}</td>"
    if isinstance(value, int) or (hasattr(value, "dtype") and "int" in str(value.dtype)):
        return f'<td class="number">{int(value)}</td>'
    if isinstance(value, float) or (hasattr(value, "dtype") and "float" in str(value.dtype)):
        text = "" if math.isnan(float(value)) else f"{float(value):.{digits}f}"
        return f'<td class="number">{text}</td>'
    return f"<td>{_e('' if _missing(value) else value)}</td>"


def _missing(value: Any) -> bool:
    try:
        import pandas as pd

        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def _table(
    frame: pd.DataFrame,
    *,
    digits: dict[str, int] | None = None,
    row_class: Callable[[Any], str] | None = None,
) -> str:
    digits = digits or {}
    head = "".join(f"<th>{_e(c)}</th>" for c in frame.columns)
    body = []
    for _, row in frame.iterrows():
        css = f' class="{row_class(row)}"' if row_class else ""
        cells = "".join(_cell(row[c], digits.get(str(c), 3)) for c in frame.columns)
        body.append(f"<tr{css}>{cells}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _summary_table(summary: pd.DataFrame) -> str:
    columns = [
        c
        for c in _SUMMARY_HEADINGS
        if c in summary.columns and (c == "player_name" or summary[c].notna().any())
    ]
    if not _cube_judged(summary):
        # without cube decisions the error rate is the checker error rate: show it once
        columns = [c for c in columns if c != "error_rate"]
    flat = summary.reset_index()
    players = flat["player"].tolist() if "player" in flat.columns else [0, 1]
    shown = flat[columns].rename(columns=_SUMMARY_HEADINGS)
    if "best play" in shown.columns:
        shown["best play"] = [f"{v:.0%}" if _known(v) else "" for v in shown["best play"]]
    digits = {
        "checker error rate": 1,
        "error rate (checker and cube)": 1,
        "PR": 1,
        "luck": 2,
        "result": 2,
        "luck-adjusted": 2,
    }
    classes = iter(players)
    return _table(shown, digits=digits, row_class=lambda _: f"player{int(next(classes))}")


def _cube_judged(summary: pd.DataFrame) -> bool:
    return "cube_decisions" in summary and bool(summary["cube_decisions"].notna().any())


def _samples_table(actions: pd.DataFrame, games: pd.DataFrame) -> str:
    import pandas as pd

    per_match = games.groupby("match", observed=True, sort=False).agg(
        players=("player0_name", "first"),
        opponent=("player1_name", "first"),
        length=("match_length", "first"),
        games=("game", "size"),
    )
    moves = actions[actions["action"] == "move"].groupby("match", observed=True).size()
    per_match["moves"] = moves.reindex(per_match.index).fillna(0).astype(int)
    per_match["players"] = (
        per_match["players"].astype(str) + " vs " + per_match.pop("opponent").astype(str)
    )
    per_match["length"] = [_length(n) for n in per_match["length"]]
    per_match = per_match.reset_index().rename(columns={"match": "file"})
    per_match["file"] = [Path(str(name)).name for name in per_match["file"]]
    return _table(pd.DataFrame(per_match))


def _length(points: Any) -> str:
    points = int(points)
    return "money" if points == 0 else "1 point" if points == 1 else f"{points} points"


def _lengths_table(actions: pd.DataFrame, games: pd.DataFrame) -> str:
    """Matches, games, moves and gammons by match length."""
    import pandas as pd

    twins = list(games.attrs.get("repeated", {}))
    distinct = games[~games["match"].isin(twins)]
    ending = distinct["ending"].astype("string")
    distinct = distinct.assign(gammons=ending.isin(["gammon", "backgammon"]).fillna(False))
    moves = actions[(actions["action"] == "move") & ~actions["match"].isin(twins)]
    table = distinct.groupby("match_length", observed=True).agg(
        matches=("match", "nunique"), games=("game", "size"), gammons=("gammons", "sum")
    )
    table["moves"] = (
        moves.groupby("match_length", observed=True)
        .size()
        .reindex(table.index)
        .fillna(0)
        .astype(int)
    )
    table = table.reset_index()
    table.insert(0, "match length", [_length(n) for n in table.pop("match_length")])
    return _table(pd.DataFrame(table[["match length", "matches", "games", "moves", "gammons"]]))


@dataclass
class _Findings:
    """What the report says of the sample matches and of the match analysed."""

    match: Match
    path: Path
    judged_by: str
    """Where the equities, errors and luck come from."""
    evaluator: str
    actions: pd.DataFrame
    """Every action of the sample matches."""
    games: pd.DataFrame
    summary: pd.DataFrame
    errors: pd.DataFrame
    """The biggest errors of the match."""


def _page(
    found: _Findings,
    *,
    boards: dict[str, str],
    decision: _Decision | None,
    rollouts: list[PlayRollout],
    pictures: dict[str, str],
    files: Sequence[str],
    seconds: float,
) -> str:
    from .output import gammonlab_version

    match, path, judged_by, evaluator = found.match, found.path, found.judged_by, found.evaluator
    actions, games, summary, errors = found.actions, found.games, found.summary, found.errors

    names = " vs ".join(match.players)
    title = f"gammonlab demo: {names}"
    event = match.metadata.get("EV") or match.metadata.get("Event") or ""
    length = f"{match.match_length}-point match" if match.match_length else "money session"
    twins = games.attrs.get("repeated", {})
    distinct = games[~games["match"].isin(list(twins))]
    cube_judged = _cube_judged(summary)

    def figure(name: str, caption: str) -> str:
        if name not in pictures:
            return ""
        return f"<figure>{pictures[name]}<figcaption>{caption}</figcaption></figure>"

    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{_SECURITY}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title>",
        f"<style>{_CSS % {'amber': PLAYER_COLORS[0], 'blue': PLAYER_COLORS[1]}}</style>",
        "</head><body>",
        f"<h1>{_e(title)}</h1>",
        f'<p class="lead">{_e(length)}{", " + _e(event) if event else ""}: '
        f"{_e(_result_line(match))}. Analysed decision by decision, its biggest error rolled "
        "out, and the sample matches that come with gammonlab summed up.</p>",
        "<h2>The sample matches</h2>",
        f"<p>{actions['match'].nunique()} real matches come with gammonlab "
        f"(<code>gammonlab.io.samples</code>): {len(games)} games, "
        f"{int((actions['action'] == 'move').sum())} moves, read into pandas with "
        "<code>gammonlab.read_matches</code>. All their actions are in "
        "<code>actions.csv</code>, their games in <code>games.csv</code>. By match length "
        "(each match counted once):</p>",
        _lengths_table(actions, games),
        f"<details><summary>The {actions['match'].nunique()} files</summary>"
        f"{_samples_table(actions, games)}</details>",
    ]
    if twins:
        parts.append(
            '<p class="note">'
            + "; ".join(
                f"{_e(Path(t).name)} is {_e(Path(o).name)} in another format"
                for t, o in twins.items()
            )
            + ": the gammon rates count it once.</p>"
        )
    parts += [
        figure(
            "gammon_rates",
            f"How often games end in a gammon, by match length, over the "
            f"{len(distinct)} games of the distinct sample matches (match lengths with "
            f"at least {MIN_GAMES} games), with 95% intervals: with this few games they "
            "are wide.",
        ),
        f"<h2>The match: {_e(names)}</h2>",
        f"<p>Every checker play{' and cube decision' if cube_judged else ''} of "
        f"<code>{_e(path.name)}</code> judged by "
        f"{_e(judged_by)}"
        + ("" if cube_judged else "; cube decisions are not judged here")
        + ". An <em>error rate</em> is the equity lost per decision in "
        "millipoints (thousandths of a point); the <em>PR</em> (performance rating) is the "
        "same loss on eXtreme Gammon's scale, where lower is better and world-class play is "
        "below about 4. <em>Luck</em> adds up how much better each roll was than the average "
        "roll. The result is 1 for the match won.</p>",
        _summary_table(summary),
        figure(
            "equity",
            f"How the match went, roll by roll, from {_e(match.players[0])}'s "
            f"side: above the line {_e(match.players[0])} is ahead. Each error is marked "
            "in the colour of the player who made it, bigger for a worse one.",
        ),
        figure("pips", "Pip counts: the race, and the checkers sent back by hits."),
        figure("errors", "Equity each player lost, by class of error."),
        figure("luck", "Luck added up roll by roll: a rising line is a lucky run."),
        "<h2>The biggest errors</h2>",
    ]
    if len(errors):
        shown = errors.drop(columns=["row"]).copy()
        parts += [
            "<p>The costliest decisions, in equity (normalised: 1 is the cube's value "
            "in points).</p>",
            _table(shown, digits={"equity lost": 3}),
        ]
    else:
        parts.append(
            '<p class="note">No errors were found (or the evaluator gives no equities).</p>'
        )
    if decision is not None and boards:
        row = decision.row
        parts.append(
            f"<p>{_e(decision.what[0].upper() + decision.what[1:])}: game "
            f"{int(row['game'])}, {_e(row['player_name'])} to play "
            f"{row['die1']}-{row['die2']}. The arrows show each play; the mover's "
            "checkers keep the mover's colour from the plots.</p>"
        )
        parts.append(
            '<div class="boards">'
            + "".join(
                f"<figure>{board}<figcaption>{_e(label)}</figcaption></figure>"
                for label, board in boards.items()
            )
            + "</div>"
        )

    parts.append("<h2>Rollout</h2>")
    if rollouts:
        import pandas as pd

        first = rollouts[0].result
        rows = pd.DataFrame(
            [
                {
                    "": r.label,
                    "play": r.play,
                    "equity": r.equity,
                    "± (95%)": r.half_interval,
                    "win": r.win,
                    "win gammon": r.win_gammon,
                    "lose gammon": r.lose_gammon,
                    "trials": r.result.trials,
                }
                for r in rollouts
            ]
        )
        verdict = ""
        if len(rollouts) == 2:
            difference = rollouts[1].equity - rollouts[0].equity
            overlap = abs(difference) <= rollouts[0].half_interval + rollouts[1].half_interval
            verdict = (
                "The 95% intervals overlap: more trials would tell the plays apart."
                if overlap
                else f"The rollout agrees: the best play is better by {difference:.3f}."
                if difference > 0
                else f"The rollout prefers the play made, by {-difference:.3f}."
            )
        what = decision.what if decision is not None else "the decision"
        plays = "Both plays" if len(rollouts) == 2 else "The play"
        parts += [
            f"<p>{plays} of {_e(what)}, each played out {first.trials} times by "
            f"{_e(first.settings.get('policy', evaluator))} on both sides "
            f"(<code>gammonlab.rollout</code>, seed {_e(first.settings.get('seed'))}). "
            "Equity is cubeless money equity for the player who made the play (the cube and "
            "the score are left out), and so are the chances to win and to win or lose a "
            f"gammon. {_e(verdict)}</p>",
            _table(
                rows,
                digits={"equity": 3, "± (95%)": 3, "win": 3, "win gammon": 3, "lose gammon": 3},
            ),
            figure(
                "rollout",
                f"The equity of {_e(rollouts[0].player or 'the player who made the play')}, "
                "as in the table, as the trials come in (blocks of 36 rotated first rolls), "
                "with its 95% interval narrowing.",
            ),
        ]
    else:
        parts.append('<p class="note">The match has no checker play to roll out.</p>')

    links = ", ".join(f'<a href="{_e(name)}">{_e(name)}</a>' for name in files)
    parts += [
        "<h2>Files</h2>",
        f"<p>Next to this page: {links}. Read them back with <code>pandas.read_csv</code> or "
        "<code>pandas.read_parquet</code>; the parquet files keep the column types.</p>",
        f"<footer><p>Made by <code>gammonlab demo</code> (gammonlab {_e(gammonlab_version())}, "
        f"analysis by {_e(evaluator)}) in {seconds:.0f} seconds.</p></footer>",
        "</body></html>",
    ]
    return "\n".join(p for p in parts if p) + "\n"
