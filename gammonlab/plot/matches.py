"""Plots of matches and analysed matches: pip counts, gammon rates, equity, luck, errors."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator

from ..draw.style import PLAYER_EDGE_COLORS, board_colors, player_color

if TYPE_CHECKING:
    from matplotlib.axes import Axes


from ._common import (
    _NO_ERROR,
    EQUITY_COLUMNS,
    ERROR_KINDS,
    ERROR_MARKERS,
    HIT_COLOR,
    NEUTRAL,
    NEUTRAL_BAR,
    NEUTRAL_LIGHT,
    Z95,
    PlotDataError,
    _axes,
    _by_game,
    _label_bar,
    _lighter,
    _mark_games,
    _numbers,
    _one_match,
    _percent_axis,
    _player_names,
    _plot_docs,
    _require,
    _tidy,
    _timeline,
    _wilson,
    _wrap,
)

__all__ = ["plot_equity", "plot_errors", "plot_gammon_rates", "plot_luck", "plot_pips"]


# -- pip counts ----------------------------------------------------------------------------------


@_plot_docs("plot", "the players' lines")
def plot_pips(
    data: pd.DataFrame,
    *,
    game: int | Iterable[int] | None = None,
    hits: bool = True,
    cube: bool = True,
    ax: Axes | None = None,
    **kwargs: Any,
) -> Axes:
    """Both players' pip counts, roll by roll, through a game or a whole match.

    Games are laid end to end, every other one shaded and named on the top
    axis; each line breaks between games. A red cross marks a checker sent
    back: it sits on the hit player's line, at the jump the hit caused. A
    small cube edged in the doubler's colour marks each double, with its
    value and the answer.

    Parameters
    ----------
    data : DataFrame
        An action frame (:meth:`gammonlab.Match.to_frame`) of one match.
    game : int or iterable of int, optional
        The game(s) to draw; all by default.
    hits, cube : bool
        Mark hits and cube actions.
    {ax_kwargs_returns}

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"game": 1, "action_index": [0, 1, 2], "player": [0, 1, 0],
    ...     "action": "move", "pips": [167, 167, 159], "opp_pips": [167, 159, 160],
    ...     "hits": [0, 1, 0]})
    {figure}
    >>> ax = plot_pips(frame, ax=ax)
    >>> [line.get_label() for line in ax.get_lines()][:2]
    ['player 0', 'player 1']
    {close}
    """
    plot = "plot_pips"
    needed = ["game", "action_index", "player", "action", "pips", "opp_pips"]
    frame = _require(data, needed + (["hits"] if hits else []), plot, "Match.to_frame()")
    frame = _one_match(frame, plot)
    if game is not None:
        wanted = [game] if isinstance(game, (int, np.integer)) else list(game)
        frame = frame[frame["game"].isin(wanted)].reset_index(drop=True)
        if frame.empty:
            raise PlotDataError(f"{plot}: no game {wanted} in the frame")
    ax = _axes(ax)
    names = _player_names(frame)
    x, spans = _timeline(frame)
    player = frame["player"].to_numpy(int)
    pips, opp_pips = _numbers(frame["pips"]), _numbers(frame["opp_pips"])
    games = frame["game"].to_numpy()
    by_player = [np.where(player == p, pips, opp_pips) for p in (0, 1)]
    for p in (0, 1):
        style = {
            "color": player_color(p),
            "linewidth": 2.0,
            "label": names[p],
            "solid_joinstyle": "round",
            **kwargs,
        }
        ax.plot(*_by_game(x, by_player[p], games), gid=f"pips player-{p}", **style)
    handles: list[Any] = []
    if hits:
        n_hits = _numbers(frame["hits"])
        same_game_next = np.r_[games[1:] == games[:-1], False]
        rows = np.flatnonzero((np.nan_to_num(n_hits) > 0) & same_game_next)
        if len(rows):
            victims = 1 - player[rows]
            ax.scatter(
                x[rows + 1],
                [by_player[v][r + 1] for v, r in zip(victims, rows)],
                marker="X",
                s=55,
                color=HIT_COLOR,
                edgecolor="white",
                linewidth=0.6,
                zorder=4,
                label="hit",
                gid="hits",
            )
    if cube:
        _mark_doubles(ax, frame, x, by_player)
        if (frame["action"].astype("string") == "double").any():
            handles.append(
                Line2D(
                    [],
                    [],
                    marker="s",
                    linestyle="none",
                    markersize=9,
                    markerfacecolor=board_colors().cube,
                    markeredgecolor=NEUTRAL,
                    label="double: cube value, answer",
                )
            )
    _mark_games(ax, spans)
    top = np.nanmax(np.concatenate(by_player))
    ax.set_ylim(0, max(top, 1) * 1.1)
    single = len(spans) == 1
    ax.set_xlabel(f"roll (game {spans[0][0]})" if single else "roll, games end to end")
    ax.set_ylabel("pip count")
    ax.set_title(f"Pip counts: {names[0]} vs {names[1]}", loc="left")
    _tidy(ax)
    main, _ = ax.get_legend_handles_labels()
    ax.legend(
        handles=main + handles,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.14),
        ncol=len(main) + len(handles),
        frameon=False,
    )
    return ax


def _mark_doubles(
    ax: Axes, frame: pd.DataFrame, x: np.ndarray, by_player: list[np.ndarray]
) -> None:
    """A little cube on the doubler's line: the value offered and the answer."""
    actions = frame["action"].astype("string").fillna("").to_numpy()
    cube_face = board_colors()
    for row in np.flatnonzero(actions == "double"):
        doubler = int(frame["player"].iloc[row])
        value = frame["cube"].iloc[row] if "cube" in frame.columns else pd.NA
        if pd.isna(value):
            value = (
                2 * int(frame["cube_value"].iloc[row]) if "cube_value" in frame.columns else None
            )
        answer = actions[row + 1] if row + 1 < len(actions) else ""
        answer = {"drop": "pass"}.get(answer, answer)
        text = f"{value}" if value is not None else "D"
        if answer in ("take", "pass", "beaver"):
            text += f" {answer}"
        ax.annotate(
            text,
            (x[row], by_player[doubler][row]),
            xytext=(0, 11),
            textcoords="offset points",
            ha="center",
            va="bottom",
            fontsize="x-small",
            color=cube_face.cube_text,
            zorder=5,
            gid=f"double player-{doubler}",
            bbox={
                "boxstyle": "square,pad=0.25",
                "facecolor": cube_face.cube,
                "edgecolor": player_color(doubler),
                "linewidth": 1.4,
            },
            arrowprops={"arrowstyle": "-", "color": player_color(doubler), "linewidth": 1.0},
        )


# -- gammon rates --------------------------------------------------------------------------------


_ROLLOUT_SIDES = (
    ("side on roll", "win_gammon", "win_backgammon", 0),
    ("opponent", "lose_gammon", "lose_backgammon", 1),
)


@_plot_docs("bar")
def plot_gammon_rates(
    data: Any,
    *,
    by: str | None = None,
    min_games: int = 1,
    top: int | None = 12,
    ax: Axes | None = None,
    **kwargs: Any,
) -> Axes:
    """Gammon and backgammon rates, with 95% intervals, from played games or from rollouts.

    From a games frame, every complete game counts once. A gammon bar counts
    gammons and backgammons (resignations count at the value resigned), the
    backgammon bar backgammons alone; the intervals are Wilson's 95% score
    intervals and ``n`` is the number of games behind each pair of bars.
    Grouped by ``winner`` or ``winner_name``, a bar is the share of a player's
    wins that were gammons, drawn in the player's colour when the groups are
    the two players of a match.

    From rollouts (a :class:`~gammonlab.rollout.RolloutResult`, a mapping of
    labels to results, or a frame of :func:`~gammonlab.rollout.rollout_many`
    rows), the bars are the gammon and backgammon chances of the side on roll
    (amber) and of the opponent (blue), with ``1.96 * stderr`` error bars.

    Parameters
    ----------
    data : DataFrame, RolloutResult or mapping of str to RolloutResult
        A games frame (:meth:`gammonlab.Match.games_frame`,
        ``read_matches(..., frame="games")``) or rollout results.
    by : str, optional
        The games frame's column to group by: ``'match_length'`` (join it to
        the games frame first if it lacks it), ``'winner_name'``, ``'winner'``
        or any other. Default: ``'winner_name'`` (else ``'winner'``).
    min_games : int
        Leave out groups with fewer games.
    top : int or None
        Groups that are not numbers (players): keep this many, most games
        first; ``None`` keeps all.
    {ax_kwargs_returns}

    Examples
    --------
    >>> import pandas as pd
    >>> games = pd.DataFrame({"winner": [0, 0, 1, 1, 1], "complete": True,
    ...     "ending": ["single", "gammon", "single", "backgammon", "drop"]})
    {figure}
    >>> ax = plot_gammon_rates(games, by="winner", ax=ax)
    >>> len(ax.patches), [t.get_text() for t in ax.get_xticklabels()]
    (4, ['player 0\\nn=2', 'player 1\\nn=3'])
    {close}
    """
    if not isinstance(data, pd.DataFrame) or (
        "ending" not in data.columns
        and any(name in data.columns for name in ("win_gammon", "lose_gammon"))
    ):
        return _gammon_rates_from_rollouts(_rollout_rows(data), _axes(ax), kwargs)
    plot = "plot_gammon_rates"
    if by is None:
        by = "winner_name" if "winner_name" in data.columns else "winner"
    frame = _require(
        data,
        ["ending", by],
        plot,
        "a games frame: Match.games_frame() or read_matches(..., frame='games')",
    )
    if "complete" in frame.columns:
        frame = frame[frame["complete"].astype(bool)]
    frame = frame[frame["ending"].notna() & frame[by].notna()]
    ending = frame["ending"].astype("string").to_numpy()
    multiple = np.ones(len(frame))
    if {"points", "cube_value"} <= set(frame.columns):
        with np.errstate(invalid="ignore", divide="ignore"):
            multiple = _numbers(frame["points"]) / _numbers(frame["cube_value"])
    resigned = ending == "resign"
    gammon = np.isin(ending, ["gammon", "backgammon"]) | (resigned & (multiple >= 2))
    backgammon = (ending == "backgammon") | (resigned & (multiple >= 3))
    table = pd.DataFrame({"key": frame[by].to_numpy(), "gammon": gammon, "backgammon": backgammon})
    groups = table.groupby("key", sort=True, observed=True).agg(
        n=("gammon", "size"), gammons=("gammon", "sum"), backgammons=("backgammon", "sum")
    )
    groups = groups[groups["n"] >= min_games]
    if groups.empty:
        raise PlotDataError(f"{plot}: no group of {by!r} has {min_games} complete games or more")
    if by != "winner" and not pd.api.types.is_numeric_dtype(groups.index):
        groups = groups.sort_values("n", ascending=False, kind="stable")
        if top is not None:
            groups = groups.head(top)
    ax = _axes(ax)
    players = _group_players(frame, by, list(groups.index))
    labels = [_group_label(key, by) for key in groups.index]
    colors = [player_color(players[key]) if key in players else NEUTRAL_BAR for key in groups.index]
    n = groups["n"].to_numpy(float)
    series = []
    for name, column, hatch in (("gammon", "gammons", None), ("backgammon", "backgammons", "///")):
        low, high = _wilson(groups[column].to_numpy(), groups["n"].to_numpy())
        series.append(_Rates(name, groups[column].to_numpy() / n, low, high, colors, hatch))
    legend = [
        Patch(facecolor=NEUTRAL_BAR, edgecolor=NEUTRAL_BAR, label="gammon or backgammon"),
        Patch(
            facecolor=_lighter(NEUTRAL_BAR, 0.6),
            edgecolor=NEUTRAL_BAR,
            hatch="///",
            label="backgammon",
        ),
    ]
    labels = [f"{_wrap(label)}\nn={count}" for label, count in zip(labels, groups["n"])]
    _rate_bars(ax, labels, series, legend, kwargs)
    of_wins = by in ("winner", "winner_name")
    ax.set_ylabel("share of games won" if of_wins else "share of games")
    ax.set_xlabel(
        {"winner": "winner", "winner_name": "winner", "match_length": "match length"}.get(by, by)
    )
    what = "of each player's wins" if of_wins else f"by {by.replace('_', ' ')}"
    ax.set_title(f"Gammon and backgammon rates {what} (95% Wilson intervals)", loc="left")
    return ax


def _group_players(frame: pd.DataFrame, by: str, keys: list[Any]) -> dict[Any, int]:
    """Groups that are the players 0 and 1 of one match, and which is which."""
    if by == "winner":
        return {key: int(key) for key in keys if key in (0, 1)}
    if by != "winner_name" or "winner" not in frame.columns or len(keys) > 2:
        return {}
    if "match" in frame.columns and frame["match"].nunique() > 1:
        return {}
    found = {}
    for key in keys:
        winners = frame.loc[frame[by] == key, "winner"].dropna().unique()
        if len(winners) == 1 and int(winners[0]) in (0, 1):
            found[key] = int(winners[0])
    return found if len(set(found.values())) == len(found) else {}


def _group_label(key: Any, by: str) -> str:
    if by == "match_length":
        return "money" if int(key) == 0 else f"{int(key)}-point"
    if by == "winner":
        return f"player {int(key)}"
    return str(key)


class _Rates:
    """One series of bars: a rate per group, its interval, its colours and its hatching."""

    def __init__(
        self,
        name: str,
        values: np.ndarray,
        low: np.ndarray,
        high: np.ndarray,
        colors: Sequence[Any],
        hatch: str | None,
    ) -> None:
        self.name, self.values, self.low, self.high = name, values, low, high
        self.colors, self.hatch = list(colors), hatch


def _rate_bars(
    ax: Axes, labels: list[str], series: list[_Rates], legend: list[Any], kwargs: dict[str, Any]
) -> None:
    """Groups of bars, one per series, with interval whiskers and the rate written on top."""
    x = np.arange(len(labels))
    width = 0.8 / len(series)
    annotate = len(labels) * len(series) <= 24
    for k, rates in enumerate(series):
        shift = (k - (len(series) - 1) / 2) * width
        faces = rates.colors if rates.hatch is None else [_lighter(c, 0.6) for c in rates.colors]
        style = {
            "width": width,
            "color": faces,
            "edgecolor": rates.colors,
            "linewidth": 1.2,
            "hatch": rates.hatch,
            "zorder": 2,
            **kwargs,
        }
        bars = ax.bar(x + shift, rates.values, **style)
        for bar in bars:
            bar.set_gid(rates.name)
        whiskers = [
            np.maximum(rates.values - rates.low, 0.0),
            np.maximum(rates.high - rates.values, 0.0),
        ]
        ax.errorbar(
            x + shift,
            rates.values,
            yerr=whiskers,
            fmt="none",
            ecolor=NEUTRAL,
            elinewidth=1.1,
            capsize=3,
            zorder=3,
        )
        if annotate:
            for xi, value, top in zip(x + shift, rates.values, rates.high):
                _label_bar(ax, f"{value:.0%}", (xi, top))
    ax.set_xticks(x, labels)
    ax.set_xlim(-0.6, len(labels) - 0.4)
    top = max(max(float(np.max(rates.high)) for rates in series), 0.05)
    ax.set_ylim(0, min(1.0, top * 1.12 + 0.03))
    _percent_axis(ax.yaxis)
    _tidy(ax)
    ax.legend(
        handles=legend,
        loc="upper right",
        frameon=False,
        fontsize="small",
        ncol=2 if len(legend) > 2 else 1,
    )


def _rollout_rows(data: Any) -> pd.DataFrame:
    """Rollout results as rows of probabilities and standard errors, one per label."""
    names = ["win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon"]
    if isinstance(data, pd.DataFrame):
        needed = names + [f"stderr_{name}" for name in names]
        frame = _require(
            data,
            needed,
            "plot_gammon_rates",
            "rollout_many() rows or RolloutResult.to_series() rows",
        )
        labels = frame["position_id"] if "position_id" in frame.columns else frame.index
        rows = frame[needed].copy()
        rows["scoring"] = (
            frame["scoring"].astype(str).to_numpy() if "scoring" in frame.columns else "standard"
        )
        rows.index = [str(label) for label in labels]
        return rows
    if isinstance(data, Mapping):
        items = list(data.items())
    elif hasattr(data, "stderr") and hasattr(data, "win_gammon"):
        items = [("", data)]
    elif isinstance(data, Sequence) and data and all(hasattr(d, "win_gammon") for d in data):
        items = [(getattr(d.position, "label", str(i)), d) for i, d in enumerate(data)]
    else:
        raise PlotDataError(
            "plot_gammon_rates needs a games frame or rollout results "
            f"(RolloutResult, mapping of them, rollout_many frame), got "
            f"{type(data).__name__}"
        )
    rows = {}
    for label, result in items:
        if not (hasattr(result, "stderr") and hasattr(result, "win_gammon")):
            raise PlotDataError(f"plot_gammon_rates: {label!r} is not a rollout result")
        row: dict[str, Any] = {name: float(getattr(result, name)) for name in names}
        row.update({f"stderr_{name}": float(result.stderr[name]) for name in names})
        row["scoring"] = str(getattr(result, "scoring", "standard"))
        rows[str(label)] = row
    return pd.DataFrame.from_dict(rows, orient="index")


def _gammon_rates_from_rollouts(rows: pd.DataFrame, ax: Axes, kwargs: dict[str, Any]) -> Axes:
    scorings = set(rows["scoring"])
    if len(scorings) > 1:
        raise PlotDataError(
            f"plot_gammon_rates: rollouts under different scorings "
            f"({', '.join(sorted(scorings))}) cannot share the bars"
        )
    seed_000 = scorings == {"seed-000"}
    # R8.4's classes: 2 points for a checker outside the loser's home, 4 for one on the bar
    kinds = ("2+ points", "4 points") if seed_000 else ("gammon", "backgammon")
    series, legend = [], []
    for side, gammon, backgammon, player in _ROLLOUT_SIDES:
        color = player_color(player)
        for column, kind, hatch in ((gammon, kinds[0], None), (backgammon, kinds[1], "///")):
            values = rows[column].to_numpy(float)
            half = Z95 * rows[f"stderr_{column}"].to_numpy(float)
            series.append(
                _Rates(
                    f"{side} {kind}",
                    values,
                    np.clip(values - half, 0, 1),
                    np.clip(values + half, 0, 1),
                    [color] * len(rows),
                    hatch,
                )
            )
            face = color if hatch is None else _lighter(color, 0.6)
            legend.append(
                Patch(
                    facecolor=face,
                    edgecolor=color,
                    hatch=hatch,
                    label=f"{side}: {_first_label(kind, hatch, seed_000)}",
                )
            )
    labels = [_wrap(str(label)) for label in rows.index]
    _rate_bars(ax, labels, series, legend, kwargs)
    ax.set_ylabel("chance of the result")
    ax.set_xlabel("")
    title = (
        "2- and 4-point chances (R8.4), rollout (95% intervals)"
        if seed_000
        else "Gammon and backgammon chances, rollout (95% intervals)"
    )
    ax.set_title(title, loc="left")
    return ax


def _first_label(kind: str, hatch: str | None, seed_000: bool) -> str:
    if hatch is not None:
        return kind
    return "2 points or more" if seed_000 else "gammon or better"


# -- analysed matches ----------------------------------------------------------------------------


def _is_error(classes: pd.Series) -> np.ndarray:
    text = classes.astype("string").str.strip().str.lower()
    return (~text.isna() & ~text.isin(list(_NO_ERROR))).to_numpy(bool)


def _error_classes(classes: pd.Series) -> list[str]:
    """The error classes worth showing, mildest first (a categorical's own order)."""
    if isinstance(classes.dtype, pd.CategoricalDtype):
        found = [str(c) for c in classes.cat.categories]
    else:
        seen = set(classes.dropna().astype(str))
        found = [c for c in ERROR_MARKERS if c in seen] + sorted(seen - set(ERROR_MARKERS))
    return [c for c in found if c.strip().lower() not in _NO_ERROR]


def _error_marker(name: str, rank: int) -> tuple[str, float]:
    return ERROR_MARKERS.get(
        name.lower(), (("o", "s", "D", "X", "P")[min(rank, 4)], 36.0 + 20.0 * rank)
    )


@_plot_docs("plot", "the value line")
def plot_equity(
    data: pd.DataFrame,
    *,
    y: str | None = None,
    errors: bool = True,
    ax: Axes | None = None,
    **kwargs: Any,
) -> Axes:
    """Equity or match winning chance through a match, from player 0's side, errors marked.

    Each row's value is the mover's (the analysis frame's convention) and is
    turned to player 0's side: a chance ``v`` of player 1 becomes ``1 - v``,
    an equity ``e`` becomes ``-e``; rows without a value are interpolated
    between the values around them in their game, and the cube actions and the
    end right after a game's last value keep it; rolls without a value after
    it are not made up (the line stops). The area is amber where
    player 0 is ahead and blue where player 1 is. Each error is a mark in the
    erring player's colour, bigger for a worse class: filled for checker play
    (``error_class``), hollow for a cube error (``cube_error_class``, when the
    frame has it).

    Parameters
    ----------
    data : DataFrame
        An analysis frame (:func:`gammonlab.analyse`): the action frame's
        ``game``, ``action_index``, ``player``, ``action`` and the value
        column; ``error_class`` for the marks.
    y : str, optional
        The value column; by default the first the frame has of
        :data:`EQUITY_COLUMNS` (``mwc``, ``position_mwc``,
        ``position_equity``, ``played_equity``). A column whose name contains
        ``mwc`` is read as a chance in [0, 1], any other as an equity.
    errors : bool
        Mark the errors (needs ``error_class``).
    {ax_kwargs_returns}

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"game": 1, "action_index": [0, 1, 2], "player": [0, 1, 0],
    ...     "action": "move", "played_equity": [0.1, 0.05, 0.3],
    ...     "error_class": ["none", "bad", "none"]})
    {figure}
    >>> ax = plot_equity(frame, ax=ax)
    >>> ax.get_lines()[0].get_ydata().tolist()
    [0.1, -0.05, 0.3]
    {close}
    """
    plot = "plot_equity"
    if y is None:
        columns = data.columns if isinstance(data, pd.DataFrame) else ()
        y = next((name for name in EQUITY_COLUMNS if name in columns), EQUITY_COLUMNS[-1])
    needed = ["game", "action_index", "player", "action", y]
    frame = _require(
        data, needed + (["error_class"] if errors else []), plot, "gammonlab.analyse(match)"
    )
    frame = _one_match(frame, plot)
    chance = "mwc" in y.lower()
    pivot = 0.5 if chance else 0.0
    player = frame["player"].to_numpy(int)
    raw = _numbers(frame[y])
    value = np.where(player == 0, raw, 1.0 - raw if chance else -raw)
    x, spans = _timeline(frame)
    games = frame["game"].to_numpy()
    if np.isnan(value).all():
        raise PlotDataError(f"{plot}: the column {y!r} has no values")
    is_move = (frame["action"].astype("string") == "move").fillna(False).to_numpy(bool)
    filled = _fill_within_games(value, games, is_move)
    known = ~np.isnan(filled)
    ax = _axes(ax)
    names = _player_names(frame)
    lx, ly = _by_game(x[known], filled[known], games[known])
    style = {"color": NEUTRAL, "linewidth": 1.3, "label": f"{names[0]}'s side", **kwargs}
    ax.plot(lx, ly, gid="value", zorder=3, **style)
    for p, ahead in ((0, ly >= pivot), (1, ly <= pivot)):
        ax.fill_between(
            lx,
            ly,
            pivot,
            where=ahead,
            interpolate=True,
            color=player_color(p),
            alpha=0.35,
            linewidth=0,
            zorder=1,
            label=f"{names[p]} ahead",
        )
    ax.axhline(pivot, color=NEUTRAL_LIGHT, linewidth=0.8, zorder=2)
    handles = [
        Patch(color=player_color(p), alpha=0.6, label=f"{names[p]} ahead / erring") for p in (0, 1)
    ]
    if errors:
        handles += _mark_errors(ax, frame, x, filled)
    _mark_games(ax, spans)
    if chance:
        ax.set_ylim(0, 1)
        _percent_axis(ax.yaxis)
        ax.set_ylabel(f"{names[0]}'s match winning chance")
    else:
        ax.set_ylabel(f"{names[0]}'s equity")
    ax.set_xlabel("roll, games end to end" if len(spans) > 1 else f"roll (game {spans[0][0]})")
    what = "Match winning chance" if chance else "Equity"
    through = "the match" if len(spans) > 1 else f"game {spans[0][0]}"
    ax.set_title(f"{what} through {through}: {names[0]} vs {names[1]}", loc="left")
    ax.spines["top"].set_visible(False)
    ax.spines["right"].set_visible(False)
    ax.legend(
        handles=handles,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.14),
        ncol=len(handles),
        frameon=False,
        fontsize="small",
    )
    return ax


def _fill_within_games(value: np.ndarray, games: np.ndarray, is_move: np.ndarray) -> np.ndarray:
    """Each game's values with its gaps filled: interpolated between known values (a take,
    a roll with no legal play); after the last, the cube actions and the end that follow
    it at once keep it. A roll without a value after the last is not made up: there the
    line stops.

    >>> _fill_within_games(np.array([0.1, np.nan, 0.3, np.nan, np.nan, np.nan]),
    ...                    np.ones(6), np.array([1, 1, 1, 0, 1, 0], bool)).tolist()
    [0.1, 0.2, 0.3, 0.3, nan, nan]
    """
    filled = (
        pd.Series(value)
        .groupby(games)
        .transform(lambda part: part.interpolate(limit_area="inside"))
        .to_numpy(float, copy=True)
    )
    for game in pd.unique(games):
        rows = np.flatnonzero(games == game)
        valued = rows[~np.isnan(filled[rows])]
        if not len(valued):
            continue
        for row in rows[rows > valued[-1]]:
            if is_move[row]:
                break
            filled[row] = filled[valued[-1]]
    return filled


def _mark_errors(ax: Axes, frame: pd.DataFrame, x: np.ndarray, y: np.ndarray) -> list[Any]:
    """Errors as marks in the erring player's colour; legend handles for the classes.

    Checker-play errors are filled marks, cube errors hollow ones of the same shape.
    """
    player = frame["player"].to_numpy(int)
    names = _error_classes(frame["error_class"])
    counts = dict.fromkeys(names, 0)
    cube_marks = False
    for column, _, kind in ERROR_KINDS:
        if column not in frame.columns:
            continue
        classes = frame[column]
        wrong = _is_error(classes)
        text = classes.astype("string").fillna("").to_numpy(str)
        for name in _error_classes(classes):
            rows = np.flatnonzero(wrong & (text == name) & ~np.isnan(y))
            if not len(rows):
                continue
            counts[name] = counts.get(name, 0) + len(rows)
            marker, size = _error_marker(name, list(counts).index(name))
            colours = [player_color(p) for p in player[rows]]
            edges = [PLAYER_EDGE_COLORS[p] for p in player[rows]]
            hollow = kind == "cube"
            cube_marks |= hollow
            ax.scatter(
                x[rows],
                y[rows],
                marker=marker,
                s=size * (1.3 if hollow else 1.0),
                c="white" if hollow else colours,
                edgecolors=colours if hollow else edges,
                linewidths=2.0 if hollow else 1.0,
                zorder=4,
                gid=f"errors {kind} {name}",
                label=name,
            )
    handles: list[Any] = []
    for rank, (name, count) in enumerate(counts.items()):
        marker, size = _error_marker(name, rank)
        handles.append(
            Line2D(
                [],
                [],
                marker=marker,
                linestyle="none",
                color=NEUTRAL_LIGHT,
                markeredgecolor=NEUTRAL,
                markersize=math.sqrt(size),
                label=f"{name} ({count})",
            )
        )
    if cube_marks:
        handles.append(
            Line2D(
                [],
                [],
                marker="o",
                linestyle="none",
                markerfacecolor="white",
                markeredgecolor=NEUTRAL,
                markeredgewidth=2.0,
                markersize=7,
                label="hollow: cube",
            )
        )
    return handles


@_plot_docs("plot", "the players' lines")
def plot_luck(data: pd.DataFrame, *, ax: Axes | None = None, **kwargs: Any) -> Axes:
    """Each player's luck added up roll by roll through a match.

    Luck is the analysis frame's ``luck`` of each move: how much better the
    roll was than the average roll, for the player who rolled (a roll that
    was not played, before a resignation, counts as in
    :func:`gammonlab.summarise`: not at all). A rising line is a lucky run;
    the totals are written at the end of the lines and in the title.

    Parameters
    ----------
    data : DataFrame
        An analysis frame (:func:`gammonlab.analyse`): ``game``,
        ``action_index``, ``player``, ``action``, ``luck``.
    {ax_kwargs_returns}

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"game": 1, "action_index": [0, 1, 2], "player": [0, 1, 0],
    ...     "action": "move", "luck": [0.2, -0.1, 0.05]})
    {figure}
    >>> ax = plot_luck(frame, ax=ax)
    >>> [round(float(line.get_ydata()[-1]), 2) for line in ax.get_lines()[:2]]
    [0.25, -0.1]
    {close}
    """
    plot = "plot_luck"
    frame = _require(
        data, ["game", "action_index", "player", "action", "luck"], plot, "gammonlab.analyse(match)"
    )
    frame = _one_match(frame, plot)
    x, spans = _timeline(frame)
    luck = _numbers(frame["luck"])
    player = frame["player"].to_numpy(int)
    names = _player_names(frame)
    ax = _axes(ax)
    totals = []
    rolls = (frame["action"].astype("string") == "move").fillna(False).to_numpy(bool)
    for p in (0, 1):
        rows = (player == p) & rolls & ~np.isnan(luck)
        xs = np.r_[spans[0][1], x[rows]]
        total = np.r_[0.0, np.cumsum(luck[rows])]
        totals.append(total[-1])
        style = {
            "color": player_color(p),
            "linewidth": 2.0,
            "drawstyle": "steps-post",
            "label": f"{names[p]} {total[-1]:+.2f}",
            **kwargs,
        }
        ax.plot(xs, total, gid=f"luck player-{p}", **style)
        ax.annotate(
            f"{total[-1]:+.2f}",
            (xs[-1], total[-1]),
            xytext=(4, 0),
            textcoords="offset points",
            va="center",
            fontsize="small",
            color=player_color(p),
            fontweight="bold",
        )
    ax.axhline(0.0, color=NEUTRAL_LIGHT, linewidth=0.8, zorder=1)
    _mark_games(ax, spans)
    ax.set_xlabel("roll, games end to end" if len(spans) > 1 else f"roll (game {spans[0][0]})")
    ax.set_ylabel("luck so far (equity)")
    ax.set_title(
        f"Luck through the match: {names[0]} {totals[0]:+.2f}, {names[1]} {totals[1]:+.2f}",
        loc="left",
    )
    _tidy(ax)
    ax.legend(loc="upper left", frameon=False)
    return ax


@_plot_docs("bar")
def plot_errors(
    data: pd.DataFrame, *, value: str = "count", ax: Axes | None = None, **kwargs: Any
) -> Axes:
    """Each player's errors by class: how many, or how much equity they cost.

    A bar per player and class, in the player's colour: checker-play errors
    (``error_class``) solid, cube errors (``cube_error_class``, when the frame
    has it) hatched on top. Each bar is labelled with its count and the
    equity lost; the legend stands to the right of the axes.

    Parameters
    ----------
    data : DataFrame
        An analysis frame (:func:`gammonlab.analyse`): ``player``,
        ``error_class`` and, for ``value='equity_loss'`` and the labels,
        ``equity_loss`` (``cube_equity_loss`` for the cube errors).
    value : {'count', 'equity_loss'}
        Bar height: the number of errors or the equity they lost.
    {ax_kwargs_returns}

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"player": [0, 1, 1, 0], "equity_loss": [0.0, 0.05, 0.2, 0.1],
    ...     "error_class": ["none", "doubtful", "very bad", "bad"]})
    {figure}
    >>> ax = plot_errors(frame, ax=ax)
    >>> len(ax.patches), [t.get_text() for t in ax.get_xticklabels()]
    (6, ['doubtful', 'bad', 'very bad'])
    {close}
    """
    plot = "plot_errors"
    if value not in ("count", "equity_loss"):
        raise PlotDataError(f"{plot}: value must be 'count' or 'equity_loss', got {value!r}")
    needed = ["player", "error_class"] + (["equity_loss"] if value == "equity_loss" else [])
    frame = _require(data, needed, plot, "gammonlab.analyse(match)")
    if "match" in frame.columns and frame["match"].nunique() > 1:
        raise PlotDataError(
            f"{plot} counts one match; the frame holds "
            f"{frame['match'].nunique()} (select one, or summarise them "
            "with gammonlab.summarise)"
        )
    classes = _error_classes(frame["error_class"])
    if not classes:
        raise PlotDataError(f"{plot}: the column 'error_class' names no error class")
    # a kind of decision the analysis did not judge (no cube class at all) gets no bars
    kinds = [
        kind
        for kind in ERROR_KINDS
        if kind[0] in frame.columns and (kind[0] == "error_class" or frame[kind[0]].notna().any())
    ]
    player = frame["player"].to_numpy(int)
    names = _player_names(frame)
    # counts[kind][player][class] and the equity those errors lost
    counts = np.zeros((len(kinds), 2, len(classes)))
    lost = np.zeros_like(counts)
    for k, (column, loss_column, _) in enumerate(kinds):
        wrong = _is_error(frame[column])
        text = frame[column].astype("string").fillna("").to_numpy(str)
        loss = (
            _numbers(frame[loss_column])
            if loss_column in frame.columns
            else np.full(len(frame), np.nan)
        )
        for p in (0, 1):
            for c, name in enumerate(classes):
                rows = wrong & (text == name) & (player == p)
                counts[k, p, c] = rows.sum()
                lost[k, p, c] = np.nansum(loss[rows]) if rows.any() else 0.0
    heights = counts if value == "count" else lost
    has_loss = "equity_loss" in frame.columns
    ax = _axes(ax)
    x = np.arange(len(classes))
    width = 0.38
    for p, shift in ((0, -width / 2), (1, width / 2)):
        bottom = np.zeros(len(classes))
        for k, (_, _, kind) in enumerate(kinds):
            cube = kind == "cube"
            style = {
                "width": width,
                "bottom": bottom,
                "color": _lighter(player_color(p), 0.55) if cube else player_color(p),
                "edgecolor": PLAYER_EDGE_COLORS[p],
                "linewidth": 0.8,
                "hatch": "///" if cube else None,
                "zorder": 2,
                "label": f"{names[p]}{', cube' if cube else ''}",
                **kwargs,
            }
            for bar, name in zip(ax.bar(x + shift, heights[k, p], **style), classes):
                bar.set_gid(f"errors player-{p} {kind} {name}")
            bottom = bottom + heights[k, p]
        for xi, c in zip(x + shift, range(len(classes))):
            n, loss_total = counts[:, p, c].sum(), lost[:, p, c].sum()
            label = f"{n:.0f}" if value == "count" else f"{loss_total:.3f}"
            if value == "count" and has_loss:
                label += f"\n−{loss_total:.3f}"
            _label_bar(ax, label, (xi, bottom[c]))
    ax.set_xticks(x, classes)
    ax.set_xlim(-0.6, len(classes) - 0.4)
    ax.set_ylim(0, ax.get_ylim()[1] * 1.18 + (0.5 if value == "count" else 0.0))
    if value == "count":
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("error class")
    ax.set_ylabel("errors" if value == "count" else "equity lost")
    summary = ", ".join(
        f"{names[p]} {counts[:, p].sum():.0f}" + (f" (−{lost[:, p].sum():.3f})" if has_loss else "")
        for p in (0, 1)
    )
    ax.set_title(
        f"Errors by class (equity lost): {summary}" if has_loss else f"Errors by class: {summary}",
        loc="left",
    )
    _tidy(ax)
    # beside the axes: inside, it would cover the labels of the tallest bars
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, frameon=False)
    return ax
