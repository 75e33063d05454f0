"""Plots players look at, drawn with matplotlib.

Every helper follows one contract: ``plot_x(data, *, ..., ax=None, **kwargs)
-> Axes``; ``ax=None`` draws on :func:`matplotlib.pyplot.gca`; nothing calls
``show()`` or saves. The columns a helper needs are checked first, and a
missing one raises :class:`PlotDataError` naming it. ``**kwargs`` go to the
helper's main artist (the players' lines, the bars, the heat map).

Colours come from :mod:`gammonlab.style`: player 0 -- and the side on roll of
a bare position or rollout -- is amber, player 1 slate blue, on boards and in
every plot. Series that belong to no player are drawn in greys.

===========================  ===================================================
:func:`plot_pips`            both players' pip counts through a game or a match
:func:`plot_gammon_rates`    gammon and backgammon rates with 95% intervals
:func:`plot_rollout`         a rollout's equity converging, with its 95% band
:func:`plot_first_rolls`     a rollout's equity after each first roll
:func:`plot_plays`           candidate plays of a roll with their error bars
:func:`plot_cube_decision`   no double, double/take, double/pass by winning chances
:func:`plot_equity`          equity or match winning chance through a match, errors marked
:func:`plot_luck`            each player's luck added up through a match
:func:`plot_errors`          each player's errors by class
:func:`plot_met`             a match equity table as a heat map
:func:`plot_board`           a board diagram (:mod:`gammonlab.mpl_board`)
===========================  ===================================================

This module imports matplotlib; ``import gammonlab`` does not import it until a
plot is asked for (``gl.plot_pips``).
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.colors import LinearSegmentedColormap, to_rgb
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator, PercentFormatter

from .errors import GammonlabError
from .mpl_board import plot_board
from .style import PLAYER_EDGE_COLORS, board_colors, player_color

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from .cube import CubeDecision
    from .met import MatchEquityTable
    from .rollout import RolloutResult
    from .state import GameState

__all__ = [
    "PlotDataError",
    "plot_board",
    "plot_cube_decision",
    "plot_equity",
    "plot_errors",
    "plot_first_rolls",
    "plot_gammon_rates",
    "plot_luck",
    "plot_met",
    "plot_pips",
    "plot_plays",
    "plot_rollout",
]

Z95 = 1.959963984540054
"""Two-sided 95% quantile of the normal distribution."""
ROLLS_PER_BLOCK = 36
"""Ordered rolls: a rollout with variance reduction deals each once per block of 36 trials."""

NEUTRAL = "#3A3A3A"
"""Lines that belong to no player (the options of a cube decision, an equity trace)."""
NEUTRAL_LIGHT = "#9A9A9A"
NEUTRAL_BAR = "#7D8791"
"""Bars of groups that are not players (match lengths, positions)."""
GAME_BAND = "#F1F1F1"
"""Background of every other game, so that games laid end to end stay apart."""
HIT_COLOR = board_colors().hit
"""Hits are marked in the colour of the ring round a hit blot on the boards."""
ERROR_MARKERS: dict[str, tuple[str, float]] = {
    "doubtful": ("o", 36.0), "bad": ("s", 56.0), "very bad": ("X", 110.0)}
"""Marker and size of each error class: the worse the error, the bigger the mark."""
_NO_ERROR = {"", "none", "no error", "ok", "nan", "<na>"}
EQUITY_COLUMNS = ("mwc", "position_mwc", "position_equity", "played_equity")
"""The value :func:`plot_equity` draws by default: the first of these the frame has."""
ERROR_KINDS = (("error_class", "equity_loss", "checker play"),
               ("cube_error_class", "cube_equity_loss", "cube"))
"""Columns of an analysis frame that classify errors, the equity each lost, and their name."""
_CUBE_SHADES = {"No double": "#FFFFFF", "Double, take": "#E4EFE4", "Double, pass": "#F3E3E6",
                "Too good": "#E9E5F2"}
"""Background of each region of a cube-decision plot."""


class PlotDataError(GammonlabError, ValueError):
    """Data a plot cannot draw: a missing column, an empty frame, the wrong kind of object."""


# -- shared helpers ------------------------------------------------------------------------------


def _axes(ax: Axes | None) -> Axes:
    return plt.gca() if ax is None else ax


def _require(data: Any, columns: Iterable[str], plot: str, hint: str) -> pd.DataFrame:
    """``data`` as a DataFrame holding ``columns``, or a PlotDataError naming what is missing."""
    if not isinstance(data, pd.DataFrame):
        raise PlotDataError(f"{plot} needs a pandas DataFrame ({hint}), got {type(data).__name__}")
    missing = [name for name in dict.fromkeys(columns) if name not in data.columns]
    if missing:
        listed = ", ".join(repr(name) for name in missing)
        raise PlotDataError(f"{plot} needs the column{'s' if len(missing) > 1 else ''} {listed} "
                            f"({hint}); the frame has: {', '.join(map(str, data.columns))}")
    if data.empty:
        raise PlotDataError(f"{plot}: the frame has no rows")
    return data


def _one_match(frame: pd.DataFrame, plot: str) -> pd.DataFrame:
    """The rows of one match, in order (read_matches frames must be narrowed first)."""
    if "match" in frame.columns and frame["match"].nunique() > 1:
        raise PlotDataError(f"{plot} draws one match; the frame holds {frame['match'].nunique()} "
                            "(select one: frame[frame.match == name])")
    return frame.sort_values(["game", "action_index"], kind="stable").reset_index(drop=True)


def _player_names(frame: pd.DataFrame) -> tuple[str, str]:
    names = []
    for player in (0, 1):
        name = f"player {player}"
        if "player_name" in frame.columns:
            found = frame.loc[frame["player"] == player, "player_name"].dropna()
            if len(found):
                name = str(found.iloc[0])
        names.append(name)
    return names[0], names[1]


def _numbers(series: pd.Series) -> np.ndarray:
    """A numeric column as float64, missing values as NaN."""
    return pd.to_numeric(series, errors="coerce").astype("float64").to_numpy(na_value=np.nan)


def _timeline(frame: pd.DataFrame) -> tuple[np.ndarray, list[tuple[int, float, float]]]:
    """The x of every row, games laid end to end, and each game's (number, start, end).

    A move sits at its roll number; a cube action, a resignation or the end of
    the game sits half a roll after the move before it.
    """
    is_move = (frame["action"].astype("string") == "move").fillna(False).to_numpy(bool)
    games = frame["game"].to_numpy()
    x = np.zeros(len(frame))
    spans = []
    offset = 0.0
    for game in pd.unique(games):
        rows = np.flatnonzero(games == game)
        rolls = np.cumsum(is_move[rows])
        x[rows] = offset + np.where(is_move[rows], rolls, rolls + 0.5)
        length = float(rolls[-1]) + 1.0
        spans.append((int(game), offset, offset + length))
        offset += length
    return x, spans


def _mark_games(ax: Axes, spans: list[tuple[int, float, float]]) -> None:
    """Shade every other game and name the games on a top axis."""
    if len(spans) < 2:
        ax.set_xlim(spans[0][1], spans[0][2])
        return
    for i, (_, start, end) in enumerate(spans):
        if i % 2:
            ax.axvspan(start, end, color=GAME_BAND, zorder=0, lw=0, gid="game-band")
    ax.set_xlim(spans[0][1], spans[-1][2])
    top = ax.secondary_xaxis("top")
    top.set_xticks([(start + end) / 2 for _, start, end in spans])
    # "game 3" needs about 6% of the width; narrower games get their number only
    short = min(end - start for _, start, end in spans) < 0.06 * (spans[-1][2] - spans[0][1])
    top.set_xticklabels([str(g) if short else f"game {g}" for g, _, _ in spans])
    top.tick_params(length=0, labelsize="small", labelcolor="#555555")
    if short:
        top.set_xlabel("game", fontsize="small", color="#555555")


def _by_game(x: np.ndarray, y: np.ndarray, games: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x and y with a NaN between games, so that a line breaks at each new game."""
    xs, ys = [], []
    for game in pd.unique(games):
        rows = games == game
        xs += [x[rows], [np.nan]]
        ys += [y[rows], [np.nan]]
    return np.concatenate(xs[:-1]), np.concatenate(ys[:-1])


def _wilson(successes: np.ndarray, trials: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Wilson's 95% score interval of a binomial proportion (sound at 0 and at small n)."""
    n = np.asarray(trials, dtype=float)
    p = np.asarray(successes, dtype=float) / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * np.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)


def _wrap(text: str, width: int = 18) -> str:
    return textwrap.fill(text, width) if len(text) > width else text


def _percent_axis(axis: Any) -> None:
    axis.set_major_formatter(PercentFormatter(1.0, decimals=0))


def _lighter(color: str, amount: float) -> tuple[float, float, float]:
    r, g, b = to_rgb(color)
    return (r + (1 - r) * amount, g + (1 - g) * amount, b + (1 - b) * amount)


def _text_color(background: Any) -> str:
    """White or near-black, whichever reads better on ``background`` (WCAG contrast)."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
              for c in to_rgb(background)]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    on_white = 1.05 / (luminance + 0.05)
    on_dark = (luminance + 0.05) / 0.0662  # the luminance of #222222, plus 0.05
    return "white" if on_white > on_dark else "#222222"


def _tidy(ax: Axes) -> None:
    ax.spines["top"].set_visible(False)
    ax.spines["right"].set_visible(False)
    ax.grid(True, axis="y", color="#E4E4E4", linewidth=0.8, zorder=0)
    ax.set_axisbelow(True)


# -- pip counts ----------------------------------------------------------------------------------


def plot_pips(data: pd.DataFrame, *, game: int | Iterable[int] | None = None,
              hits: bool = True, cube: bool = True, ax: Axes | None = None,
              **kwargs: Any) -> Axes:
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
    ax : matplotlib Axes, optional
    **kwargs
        Passed to :meth:`~matplotlib.axes.Axes.plot` for the players' lines.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"game": 1, "action_index": [0, 1, 2], "player": [0, 1, 0],
    ...     "action": "move", "pips": [167, 167, 159], "opp_pips": [167, 159, 160],
    ...     "hits": [0, 1, 0]})
    >>> fig, ax = plt.subplots()
    >>> ax = plot_pips(frame, ax=ax)
    >>> [line.get_label() for line in ax.get_lines()][:2]
    ['player 0', 'player 1']
    >>> plt.close(fig)
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
        style = {"color": player_color(p), "linewidth": 2.0, "label": names[p],
                 "solid_joinstyle": "round", **kwargs}
        ax.plot(*_by_game(x, by_player[p], games), gid=f"pips player-{p}", **style)
    handles: list[Any] = []
    if hits:
        n_hits = _numbers(frame["hits"])
        same_game_next = np.r_[games[1:] == games[:-1], False]
        rows = np.flatnonzero((np.nan_to_num(n_hits) > 0) & same_game_next)
        if len(rows):
            victims = 1 - player[rows]
            ax.scatter(x[rows + 1], [by_player[v][r + 1] for v, r in zip(victims, rows)],
                       marker="X", s=55, color=HIT_COLOR, edgecolor="white", linewidth=0.6,
                       zorder=4, label="hit", gid="hits")
    if cube:
        _mark_doubles(ax, frame, x, by_player)
        if (frame["action"].astype("string") == "double").any():
            handles.append(Line2D([], [], marker="s", linestyle="none", markersize=9,
                                  markerfacecolor=board_colors().cube, markeredgecolor=NEUTRAL,
                                  label="double: cube value, answer"))
    _mark_games(ax, spans)
    top = np.nanmax(np.concatenate(by_player))
    ax.set_ylim(0, max(top, 1) * 1.1)
    single = len(spans) == 1
    ax.set_xlabel(f"roll (game {spans[0][0]})" if single else "roll, games end to end")
    ax.set_ylabel("pip count")
    ax.set_title(f"Pip counts: {names[0]} vs {names[1]}", loc="left")
    _tidy(ax)
    main, _ = ax.get_legend_handles_labels()
    ax.legend(handles=main + handles, loc="upper center", bbox_to_anchor=(0.5, -0.14),
              ncol=len(main) + len(handles), frameon=False)
    return ax


def _mark_doubles(ax: Axes, frame: pd.DataFrame, x: np.ndarray,
                  by_player: list[np.ndarray]) -> None:
    """A little cube on the doubler's line: the value offered and the answer."""
    actions = frame["action"].astype("string").fillna("").to_numpy()
    cube_face = board_colors()
    for row in np.flatnonzero(actions == "double"):
        doubler = int(frame["player"].iloc[row])
        value = frame["cube"].iloc[row] if "cube" in frame.columns else pd.NA
        if pd.isna(value):
            value = 2 * int(frame["cube_value"].iloc[row]) if "cube_value" in frame.columns \
                else None
        answer = actions[row + 1] if row + 1 < len(actions) else ""
        answer = {"drop": "pass"}.get(answer, answer)
        text = f"{value}" if value is not None else "D"
        if answer in ("take", "pass", "beaver"):
            text += f" {answer}"
        ax.annotate(text, (x[row], by_player[doubler][row]), xytext=(0, 11),
                    textcoords="offset points", ha="center", va="bottom", fontsize="x-small",
                    color=cube_face.cube_text, zorder=5, gid=f"double player-{doubler}",
                    bbox={"boxstyle": "square,pad=0.25", "facecolor": cube_face.cube,
                          "edgecolor": player_color(doubler), "linewidth": 1.4},
                    arrowprops={"arrowstyle": "-", "color": player_color(doubler),
                                "linewidth": 1.0})


# -- gammon rates --------------------------------------------------------------------------------


_ROLLOUT_SIDES = (("side on roll", "win_gammon", "win_backgammon", 0),
                  ("opponent", "lose_gammon", "lose_backgammon", 1))


def plot_gammon_rates(data: Any, *, by: str | None = None, min_games: int = 1,
                      top: int | None = 12, ax: Axes | None = None, **kwargs: Any) -> Axes:
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
    ax : matplotlib Axes, optional
    **kwargs
        Passed to :meth:`~matplotlib.axes.Axes.bar`.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import pandas as pd
    >>> games = pd.DataFrame({"winner": [0, 0, 1, 1, 1], "complete": True,
    ...     "ending": ["single", "gammon", "single", "backgammon", "drop"]})
    >>> fig, ax = plt.subplots()
    >>> ax = plot_gammon_rates(games, by="winner", ax=ax)
    >>> len(ax.patches), [t.get_text() for t in ax.get_xticklabels()]
    (4, ['player 0\\nn=2', 'player 1\\nn=3'])
    >>> plt.close(fig)
    """
    if not isinstance(data, pd.DataFrame) or ("ending" not in data.columns and any(
            name in data.columns for name in ("win_gammon", "lose_gammon"))):
        return _gammon_rates_from_rollouts(_rollout_rows(data), _axes(ax), kwargs)
    plot = "plot_gammon_rates"
    if by is None:
        by = "winner_name" if "winner_name" in data.columns else "winner"
    frame = _require(data, ["ending", by], plot,
                     "a games frame: Match.games_frame() or read_matches(..., frame='games')")
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
    table = pd.DataFrame({"key": frame[by].to_numpy(), "gammon": gammon,
                          "backgammon": backgammon})
    groups = table.groupby("key", sort=True, observed=True).agg(
        n=("gammon", "size"), gammons=("gammon", "sum"), backgammons=("backgammon", "sum"))
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
    colors = [player_color(players[key]) if key in players else NEUTRAL_BAR
              for key in groups.index]
    n = groups["n"].to_numpy(float)
    series = []
    for name, column, hatch in (("gammon", "gammons", None), ("backgammon", "backgammons", "///")):
        low, high = _wilson(groups[column].to_numpy(), groups["n"].to_numpy())
        series.append(_Rates(name, groups[column].to_numpy() / n, low, high, colors, hatch))
    legend = [Patch(facecolor=NEUTRAL_BAR, edgecolor=NEUTRAL_BAR, label="gammon or backgammon"),
              Patch(facecolor=_lighter(NEUTRAL_BAR, 0.6), edgecolor=NEUTRAL_BAR, hatch="///",
                    label="backgammon")]
    labels = [f"{_wrap(label)}\nn={count}" for label, count in zip(labels, groups["n"])]
    _rate_bars(ax, labels, series, legend, kwargs)
    of_wins = by in ("winner", "winner_name")
    ax.set_ylabel("share of games won" if of_wins else "share of games")
    ax.set_xlabel({"winner": "winner", "winner_name": "winner", "match_length": "match length"}
                  .get(by, by))
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

    def __init__(self, name: str, values: np.ndarray, low: np.ndarray, high: np.ndarray,
                 colors: Sequence[Any], hatch: str | None) -> None:
        self.name, self.values, self.low, self.high = name, values, low, high
        self.colors, self.hatch = list(colors), hatch


def _rate_bars(ax: Axes, labels: list[str], series: list[_Rates], legend: list[Any],
               kwargs: dict[str, Any]) -> None:
    """Groups of bars, one per series, with interval whiskers and the rate written on top."""
    x = np.arange(len(labels))
    width = 0.8 / len(series)
    annotate = len(labels) * len(series) <= 24
    for k, rates in enumerate(series):
        shift = (k - (len(series) - 1) / 2) * width
        faces = rates.colors if rates.hatch is None else [_lighter(c, 0.6) for c in rates.colors]
        style = {"width": width, "color": faces, "edgecolor": rates.colors, "linewidth": 1.2,
                 "hatch": rates.hatch, "zorder": 2, **kwargs}
        bars = ax.bar(x + shift, rates.values, **style)
        for bar in bars:
            bar.set_gid(rates.name)
        whiskers = [np.maximum(rates.values - rates.low, 0.0),
                    np.maximum(rates.high - rates.values, 0.0)]
        ax.errorbar(x + shift, rates.values, yerr=whiskers, fmt="none", ecolor=NEUTRAL,
                    elinewidth=1.1, capsize=3, zorder=3)
        if annotate:
            for xi, value, top in zip(x + shift, rates.values, rates.high):
                ax.annotate(f"{value:.0%}", (xi, top), xytext=(0, 2), textcoords="offset points",
                            ha="center", va="bottom", fontsize="x-small", color=NEUTRAL)
    ax.set_xticks(x, labels)
    ax.set_xlim(-0.6, len(labels) - 0.4)
    top = max(max(float(np.max(rates.high)) for rates in series), 0.05)
    ax.set_ylim(0, min(1.0, top * 1.12 + 0.03))
    _percent_axis(ax.yaxis)
    _tidy(ax)
    ax.legend(handles=legend, loc="upper right", frameon=False, fontsize="small",
              ncol=2 if len(legend) > 2 else 1)


def _rollout_rows(data: Any) -> pd.DataFrame:
    """Rollout results as rows of probabilities and standard errors, one per label."""
    names = ["win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon"]
    if isinstance(data, pd.DataFrame):
        needed = names + [f"stderr_{name}" for name in names]
        frame = _require(data, needed, "plot_gammon_rates",
                         "rollout_many() rows or RolloutResult.to_series() rows")
        labels = frame["position_id"] if "position_id" in frame.columns else frame.index
        rows = frame[needed].copy()
        rows.index = [str(label) for label in labels]
        return rows
    if isinstance(data, Mapping):
        items = list(data.items())
    elif hasattr(data, "stderr") and hasattr(data, "win_gammon"):
        items = [("", data)]
    elif isinstance(data, Sequence) and data and all(hasattr(d, "win_gammon") for d in data):
        items = [(getattr(d.position, "gnubg_id", str(i)), d) for i, d in enumerate(data)]
    else:
        raise PlotDataError("plot_gammon_rates needs a games frame or rollout results "
                            f"(RolloutResult, mapping of them, rollout_many frame), got "
                            f"{type(data).__name__}")
    rows = {}
    for label, result in items:
        if not (hasattr(result, "stderr") and hasattr(result, "win_gammon")):
            raise PlotDataError(f"plot_gammon_rates: {label!r} is not a rollout result")
        row = {name: float(getattr(result, name)) for name in names}
        row.update({f"stderr_{name}": float(result.stderr[name]) for name in names})
        rows[str(label)] = row
    return pd.DataFrame.from_dict(rows, orient="index")


def _gammon_rates_from_rollouts(rows: pd.DataFrame, ax: Axes, kwargs: dict[str, Any]) -> Axes:
    series, legend = [], []
    for side, gammon, backgammon, player in _ROLLOUT_SIDES:
        color = player_color(player)
        for column, kind, hatch in ((gammon, "gammon", None), (backgammon, "backgammon", "///")):
            values = rows[column].to_numpy(float)
            half = Z95 * rows[f"stderr_{column}"].to_numpy(float)
            series.append(_Rates(f"{side} {kind}", values, np.clip(values - half, 0, 1),
                                 np.clip(values + half, 0, 1), [color] * len(rows), hatch))
            face = color if hatch is None else _lighter(color, 0.6)
            legend.append(Patch(facecolor=face, edgecolor=color, hatch=hatch,
                                label=f"{side}: {'gammon or better' if hatch is None else kind}"))
    labels = [_wrap(str(label)) for label in rows.index]
    _rate_bars(ax, labels, series, legend, kwargs)
    ax.set_ylabel("chance of the result")
    ax.set_xlabel("")
    ax.set_title("Gammon and backgammon chances, rollout (95% intervals)", loc="left")
    return ax


# -- rollouts ------------------------------------------------------------------------------------


def _trials(result: Any, plot: str) -> pd.DataFrame:
    """A rollout's per-trial frame: from a RolloutResult kept with trials, or the frame itself."""
    if isinstance(result, pd.DataFrame):
        frame = result
    elif hasattr(result, "to_frame") and hasattr(result, "stderr"):
        if getattr(result, "_trial_frame", None) is None:
            raise PlotDataError(f"{plot} needs the rollout's trials: "
                                "rollout(..., keep_trials=True)")
        frame = result.to_frame()
    else:
        raise PlotDataError(f"{plot} needs a RolloutResult (keep_trials=True) or its "
                            f"to_frame(), got {type(result).__name__}")
    return _require(frame, ["trial", "die1", "die2", "points"], plot,
                    "RolloutResult.to_frame() of rollout(..., keep_trials=True)")


def _rotated(frame: pd.DataFrame) -> bool:
    """Whether the trials come in blocks of 36 that deal each ordered roll once."""
    n = len(frame) - len(frame) % ROLLS_PER_BLOCK
    if n < ROLLS_PER_BLOCK:
        return False
    roll = ((frame["die1"].to_numpy(int) - 1) * 6 + frame["die2"].to_numpy(int) - 1)[:n]
    blocks = np.sort(roll.reshape(-1, ROLLS_PER_BLOCK), axis=1)
    return bool(np.all(blocks == np.arange(ROLLS_PER_BLOCK)))


def _running_equity(frame: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """Trials, equity and its standard error after each block (rotated dice) or each trial.

    With rotated first rolls the estimate is stratified by the roll with the
    rollout's own estimator (the 21 distinct rolls are the strata). Without,
    the plain ``sd / sqrt(n)``.
    """
    from ._kernels.rollout import ROLL_STRATUM, STRATA, stratified_stderr

    frame = frame.sort_values("trial", kind="stable")
    points = frame["points"].to_numpy(float)
    n = np.arange(1, len(points) + 1)
    mean = np.cumsum(points) / n
    if not _rotated(frame):
        with np.errstate(invalid="ignore", divide="ignore"):
            plain_var = (np.cumsum(points ** 2) - n * mean ** 2) / (n - 1)
        plain = np.sqrt(np.maximum(plain_var, 0) / n)
        return n[1:], mean[1:], plain[1:], False
    blocks = len(points) // ROLLS_PER_BLOCK
    used = blocks * ROLLS_PER_BLOCK
    d1, d2 = frame["die1"].to_numpy(int)[:used], frame["die2"].to_numpy(int)[:used]
    stratum = np.asarray(ROLL_STRATUM)[6 * (d1 - 1) + d2 - 1]
    block = np.arange(used) // ROLLS_PER_BLOCK
    shape = (blocks, STRATA)
    count, s1, s2 = np.zeros(shape), np.zeros(shape), np.zeros(shape)
    np.add.at(count, (block, stratum), 1.0)
    np.add.at(s1, (block, stratum), points[:used])
    np.add.at(s2, (block, stratum), points[:used] ** 2)
    count, s1, s2 = (np.cumsum(a, axis=0) for a in (count, s1, s2))
    stderr = np.array([stratified_stderr(count[b], s1[b], s2[b], count[b].sum())[0]
                       for b in range(blocks)])
    trials = (np.arange(blocks) + 1) * ROLLS_PER_BLOCK
    return trials, mean[trials - 1], stderr, True


def plot_rollout(result: RolloutResult | pd.DataFrame, *, ax: Axes | None = None,
                 **kwargs: Any) -> Axes:
    """A rollout's equity as the trials come in, with its 95% band narrowing.

    The estimate after each block of 36 trials (each trial, without variance
    reduction) is drawn with ``+- 1.96`` standard errors, computed as
    :func:`~gammonlab.rollout.rollout` computes them (stratified by the
    rotated roll); the dashed line is the final estimate.

    Parameters
    ----------
    result : RolloutResult or DataFrame
        A rollout run with ``keep_trials=True``, or its ``to_frame()``.
    ax : matplotlib Axes, optional
    **kwargs
        Passed to :meth:`~matplotlib.axes.Axes.plot` for the running equity.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> from gammonlab import Position
    >>> from gammonlab.rollout import rollout
    >>> res = rollout(Position.initial(), trials=72, seed=1, keep_trials=True,
    ...               progress=False, n_jobs=1)
    >>> fig, ax = plt.subplots()
    >>> ax = plot_rollout(res, ax=ax)
    >>> ax.get_lines()[0].get_xdata().tolist()
    [36, 72]
    >>> plt.close(fig)
    """
    plot = "plot_rollout"
    frame = _trials(result, plot)
    if len(frame) < 2:
        raise PlotDataError(f"{plot}: a rollout of {len(frame)} trial has nothing to converge")
    trials, equity, stderr, rotated = _running_equity(frame)
    ax = _axes(ax)
    color = player_color(0)
    band = ax.fill_between(trials, equity - Z95 * stderr, equity + Z95 * stderr, color=color,
                           alpha=0.22, linewidth=0, label="95% interval", zorder=1)
    band.set_gid("band")
    style = {"color": color, "linewidth": 2.0, "marker": "o" if len(trials) <= 60 else None,
             "markersize": 3.5, "label": "equity so far", **kwargs}
    ax.plot(trials, equity, gid="equity", zorder=3, **style)
    final, final_se = equity[-1], stderr[-1]
    ax.axhline(final, color=NEUTRAL, linestyle="--", linewidth=1.0, zorder=2,
               label=f"final {final:+.3f} ± {Z95 * final_se:.3f}", gid="final")
    ax.axhline(0.0, color=NEUTRAL_LIGHT, linewidth=0.8, zorder=0)
    ax.set_xlim(0, trials[-1] * 1.02)
    spread = max(np.nanmax(np.abs(equity[len(equity) // 4:] - final)
                           + Z95 * stderr[len(equity) // 4:]), 0.02)
    ax.set_ylim(final - 1.25 * spread, final + 1.25 * spread)
    ax.set_xlabel("trials" + (" (blocks of 36 rotated rolls)" if rotated else ""))
    ax.set_ylabel("equity of the side on roll (cubeless)")
    position = getattr(getattr(result, "position", None), "gnubg_id", None)
    ax.set_title(f"Rollout{' of ' + position if position else ''}: {len(frame)} trials, "
                 f"equity {final:+.3f} ± {Z95 * final_se:.3f} (95%)", loc="left")
    _tidy(ax)
    ax.legend(loc="upper right", frameon=False)
    return ax


def _roll_label(high: int, low: int) -> str:
    return f"{high}-{low}"


def plot_first_rolls(result: RolloutResult | pd.DataFrame, *, order: str = "equity",
                     ax: Axes | None = None, **kwargs: Any) -> Axes:
    """A rollout's equity after each of the 21 first rolls, with 95% error bars.

    The roll is the one a rollout rotates: the first roll of the side on roll,
    or the opponent's reply when the rollout started with dice to play. 1-2
    and 2-1 count as one roll. A bar is amber when the roll leaves the side on
    roll ahead, blue when it favours the opponent; the dashed line is the
    overall equity.

    Parameters
    ----------
    result : RolloutResult or DataFrame
        A rollout run with ``keep_trials=True``, or its ``to_frame()``.
    order : {'equity', 'roll'}
        Best roll first, or 1-1, 2-1, 2-2, ... 6-6.
    ax : matplotlib Axes, optional
    **kwargs
        Passed to :meth:`~matplotlib.axes.Axes.bar`.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> from gammonlab import Position
    >>> from gammonlab.rollout import rollout
    >>> res = rollout(Position.initial(), trials=72, seed=1, keep_trials=True,
    ...               progress=False, n_jobs=1)
    >>> fig, ax = plt.subplots()
    >>> ax = plot_first_rolls(res, order="roll", ax=ax)
    >>> len(ax.patches), ax.get_xticklabels()[1].get_text()
    (21, '2-1')
    >>> plt.close(fig)
    """
    plot = "plot_first_rolls"
    if order not in ("equity", "roll"):
        raise PlotDataError(f"{plot}: order must be 'equity' or 'roll', got {order!r}")
    frame = _trials(result, plot)
    d1, d2 = frame["die1"].to_numpy(int), frame["die2"].to_numpy(int)
    table = pd.DataFrame({"high": np.maximum(d1, d2), "low": np.minimum(d1, d2),
                          "points": frame["points"].to_numpy(float)})
    rolls = table.groupby(["high", "low"]).agg(equity=("points", "mean"),
                                                sd=("points", "std"), n=("points", "size"))
    rolls["stderr"] = rolls["sd"] / np.sqrt(rolls["n"])
    if order == "equity":
        rolls = rolls.sort_values("equity", ascending=False, kind="stable")
    ax = _axes(ax)
    x = np.arange(len(rolls))
    values = rolls["equity"].to_numpy()
    colors = [player_color(0 if v >= 0 else 1) for v in values]
    style = {"width": 0.72, "color": colors, "zorder": 2, **kwargs}
    bars = ax.bar(x, values, **style)
    for bar, (high, low) in zip(bars, rolls.index):
        bar.set_gid(f"roll {_roll_label(high, low)}")
    ax.errorbar(x, values, yerr=Z95 * rolls["stderr"].fillna(0).to_numpy(), fmt="none",
                ecolor=NEUTRAL, elinewidth=1.0, capsize=2.5, zorder=3)
    overall = float(frame["points"].mean())
    ax.axhline(overall, color=NEUTRAL, linestyle="--", linewidth=1.0, zorder=4,
               label=f"all rolls {overall:+.3f}")
    ax.axhline(0.0, color=NEUTRAL, linewidth=0.8, zorder=1)
    ax.set_xticks(x, [_roll_label(high, low) for high, low in rolls.index])
    ax.tick_params(axis="x", labelsize="small")
    ax.set_xlim(-0.7, len(rolls) - 0.3)
    dice = getattr(result, "dice", None)
    reply = dice is not None
    ax.set_xlabel("the opponent's reply" if reply else "first roll")
    ax.set_ylabel("equity of the side on roll (cubeless)")
    after = f" after {dice[0]}-{dice[1]}" if dice is not None else ""
    ax.set_title(f"Equity by {'reply' if reply else 'first roll'}{after}: "
                 f"{len(frame)} trials, 95% error bars", loc="left")
    _tidy(ax)
    ax.legend(handles=[Patch(color=player_color(0), label="good for the side on roll"),
                       Patch(color=player_color(1), label="good for the opponent"),
                       *ax.get_legend_handles_labels()[0]],
              loc="upper right", frameon=False, fontsize="small")
    return ax


def plot_plays(data: pd.DataFrame, *, value: str = "equity", ax: Axes | None = None,
               **kwargs: Any) -> Axes:
    """Candidate plays of a roll, best on top, with their equities and 95% error bars.

    Parameters
    ----------
    data : DataFrame
        :func:`~gammonlab.rollout.rollout_plays` output: ``play``, ``equity``,
        ``stderr`` (and ``difference``, ``difference_stderr``).
    value : {'equity', 'difference'}
        Each play's equity, or its difference to the best play (whose error
        bars, from common dice, are the ones to compare plays by).
    ax : matplotlib Axes, optional
    **kwargs
        Passed to :meth:`~matplotlib.axes.Axes.errorbar`.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import pandas as pd
    >>> plays = pd.DataFrame({"play": ["8/5 6/5", "24/21 13/12"], "equity": [0.16, 0.01],
    ...                       "stderr": [0.01, 0.01]})
    >>> fig, ax = plt.subplots()
    >>> ax = plot_plays(plays, ax=ax)
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['8/5 6/5', '24/21 13/12']
    >>> plt.close(fig)
    """
    plot = "plot_plays"
    if value not in ("equity", "difference"):
        raise PlotDataError(f"{plot}: value must be 'equity' or 'difference', got {value!r}")
    error = "stderr" if value == "equity" else "difference_stderr"
    frame = _require(data, ["play", value, error], plot, "rollout_plays()")
    frame = frame.sort_values(value, ascending=False, kind="stable").reset_index(drop=True)
    ax = _axes(ax)
    y = np.arange(len(frame))
    values = frame[value].to_numpy(float)
    half = Z95 * frame[error].fillna(0).to_numpy(float)
    color = player_color(0)
    style = {"fmt": "o", "color": color, "ecolor": color, "elinewidth": 2.2, "capsize": 4,
             "markersize": 7, "markeredgecolor": PLAYER_EDGE_COLORS[0], "zorder": 3, **kwargs}
    ax.errorbar(values, y, xerr=half, gid="plays", **style)
    ax.scatter(values[:1], y[:1], s=190, facecolor="none", edgecolor=NEUTRAL, linewidth=1.4,
               zorder=4, label="best play", gid="best")
    for yi, v, h in zip(y, values, half):
        ax.annotate(f"{v:+.3f} ± {h:.3f}", (v + h, yi), xytext=(6, 0),
                    textcoords="offset points", va="center", fontsize="small", color=NEUTRAL)
    if value == "difference":
        ax.axvline(0.0, color=NEUTRAL, linewidth=0.9, zorder=1)
    ax.set_yticks(y, frame["play"].astype(str).tolist())
    ax.set_ylim(len(frame) - 0.5, -0.5)
    low, high = float(np.min(values - half)), float(np.max(values + half))
    pad = max(high - low, 0.02)
    ax.set_xlim(low - 0.08 * pad, high + 0.45 * pad)
    ax.grid(True, axis="x", color="#E4E4E4", linewidth=0.8, zorder=0)
    ax.spines["top"].set_visible(False)
    ax.spines["right"].set_visible(False)
    ax.set_xlabel("equity (cubeless) of the player to move" if value == "equity"
                  else "equity difference to the best play")
    ax.set_ylabel("candidate play")
    settings = data.attrs.get("settings", {}) if hasattr(data, "attrs") else {}
    trials = f", {settings['trials']} trials" if "trials" in settings else ""
    ax.set_title(f"Candidate plays: rollout{trials}, 95% intervals", loc="left")
    ax.legend(loc="lower right", frameon=False, fontsize="small")
    return ax


# -- cube decisions ------------------------------------------------------------------------------


def _with_win(p: np.ndarray, win: float) -> np.ndarray:
    """The probabilities at another winning chance, gammons the same share of wins and losses."""
    w = p[0]
    wins = p[1:3] / w if w > 0 else np.zeros(2)
    losses = p[3:5] / (1 - w) if w < 1 else np.zeros(2)
    return np.array([win, *(win * wins), *((1 - win) * losses)])


def _with_gammons(p: np.ndarray, gammons: float) -> np.ndarray:
    """The probabilities with another chance of winning a gammon (backgammons in proportion)."""
    share = p[2] / p[1] if p[1] > 0 else 0.0
    return np.array([p[0], gammons, gammons * share, p[3], p[4]])


def _verdict_region(decision: CubeDecision) -> str:
    if decision.action == "Too good to double":
        return "Too good"
    if decision.action == "Double":
        return "Double, pass" if decision.response == "pass" else "Double, take"
    return "No double"


def plot_cube_decision(data: Any, state: GameState | str | None = None, *, x: str = "win",
                       met: MatchEquityTable | str | None = None,
                       cube_efficiency: float | None = None, mwc: bool | None = None,
                       xlim: tuple[float, float] | None = None, points: int = 201,
                       ax: Axes | None = None, **kwargs: Any) -> Axes:
    """The equity of no double, double/take and double/pass as the winning chances vary.

    Each curve is the cube decision (:func:`gammonlab.cube_decision`) of the
    same position with other winning chances and the same gammon ratios (with
    ``x='gammons'``: the same winning chances and another gammon rate). The
    thick amber line is the equity after proper cube action; the background
    says which action that is. On the winning-chance axis the double point,
    the cash point (the taker's take point, seen from the doubler) and the
    too-good point are marked (:func:`gammonlab.cube.cube_points`). The big dot
    is the position under study.

    Parameters
    ----------
    data : probabilities, RolloutResult or CubeDecision
        The cubeless probabilities of the player on roll (five numbers, a
        mapping, a rollout result) or a decision (its probabilities and cube
        efficiency; give the same ``state`` it was made with).
    state : GameState, ID string or None
        Cube, score and rules; ``None`` is a money game with the cube centred.
    x : {'win', 'gammons'}
        Vary the winning chances, or the chance of winning a gammon.
    met, cube_efficiency
        As in :func:`gammonlab.cube_decision`.
    mwc : bool, optional
        Match play: draw match winning chances (the default) rather than
        equities.
    xlim : (float, float), optional
        The range of chances drawn. By default the winning chances from a
        little below the double point (or the position) to 100%, or the
        gammon chances from 0 to the winning chances.
    points : int
        Points along each curve.
    ax : matplotlib Axes, optional
    **kwargs
        Passed to :meth:`~matplotlib.axes.Axes.plot` for the proper-action line.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> fig, ax = plt.subplots()
    >>> ax = plot_cube_decision([0.70, 0.12, 0.005, 0.04, 0.002], points=41, ax=ax)
    >>> [line.get_label() for line in ax.get_lines()][:3]
    ['No double', 'Double, take', 'Double, pass']
    >>> plt.close(fig)
    """
    from .cube import cube_decision, cube_points

    plot = "plot_cube_decision"
    if x not in ("win", "gammons"):
        raise PlotDataError(f"{plot}: x must be 'win' or 'gammons', got {x!r}")
    if hasattr(data, "verdict") and hasattr(data, "probabilities"):
        if cube_efficiency is None:
            cube_efficiency = data.cube_efficiency
        data = data.probabilities
    decision = cube_decision(state, data, met=met, cube_efficiency=cube_efficiency)
    if decision.double_take is None:
        raise PlotDataError(f"{plot}: no cube decision here: {decision.reason}")
    efficiency = decision.cube_efficiency
    p = np.array(decision.probabilities)
    in_mwc = (not decision.money) if mwc is None else bool(mwc) and not decision.money
    marks = cube_points(p, state, cube_efficiency=efficiency, met=met) if x == "win" else None
    if x == "win":
        if xlim is None:
            lowest = min(p[0], marks.double_point or 1.0, 0.5) - 0.1  # type: ignore[union-attr]
            xlim = (max(0.0, math.floor(10 * lowest) / 10), 1.0)
        grid = np.linspace(xlim[0], xlim[1], points)
        varied = [_with_win(p, w) for w in grid]
        here = p[0]
    else:
        xlim = (0.0, float(p[0])) if xlim is None else xlim
        grid = np.linspace(xlim[0], min(xlim[1], p[0]), points)
        varied = [_with_gammons(p, g) for g in grid]
        here = p[1]
    names = ("no_double", "double_take", "double_pass", "equity")
    if in_mwc:
        names = ("mwc_no_double", "mwc_double_take", "mwc_double_pass", "mwc")
    curves = np.full((len(names), len(grid)), np.nan)
    regions = []
    for i, probabilities in enumerate(varied):
        d = cube_decision(state, probabilities, met=met, cube_efficiency=efficiency)
        curves[:, i] = [np.nan if getattr(d, name) is None else getattr(d, name)
                        for name in names]
        regions.append(_verdict_region(d))
    ax = _axes(ax)
    _shade_regions(ax, grid, regions)
    labels = ("No double", "Double, take", "Double, pass")
    for curve, label, dash in zip(curves[:3], labels, ("-", "--", ":")):
        ax.plot(grid, curve, color=NEUTRAL, linewidth=1.3, linestyle=dash, label=label,
                gid=label, zorder=3)
    style = {"color": player_color(0), "linewidth": 4.0, "alpha": 0.55,
             "label": "proper cube action", "solid_capstyle": "round", **kwargs}
    ax.plot(grid, curves[3], gid="proper", zorder=2, **style)
    value = float(decision.mwc if in_mwc and decision.mwc is not None else decision.equity)
    ax.scatter([here], [value], s=90, color=player_color(0), edgecolor=PLAYER_EDGE_COLORS[0],
               linewidth=1.5, zorder=5, gid="position", label="this position")
    share = "winning chances" if x == "win" else "chance of winning a gammon"
    where = f"{p[0]:.0%} wins" + ("" if x == "win" else f", {p[1]:.0%} gammons")
    ax.annotate(f"this position ({where}):\n{decision.verdict}", (here, value),
                xytext=(12, -10), textcoords="offset points", ha="left", va="top",
                fontsize="small", fontweight="bold",
                color=NEUTRAL, zorder=6,
                bbox={"boxstyle": "round,pad=0.2", "facecolor": "white", "edgecolor": "none",
                      "alpha": 0.8})
    ax.set_xlim(grid[0], grid[-1])
    if marks is not None:
        _mark_cube_points(ax, marks)
    _percent_axis(ax.xaxis)
    if in_mwc:
        _percent_axis(ax.yaxis)
    ax.set_xlabel(f"{share} of the player on roll")
    ax.set_ylabel("match winning chance" if in_mwc else "equity (cubeful, per cube)")
    ax.set_title(f"Cube decision: {decision.verdict} — {decision.situation}", loc="left",
                 fontsize="medium")
    ax.spines["top"].set_visible(False)
    ax.spines["right"].set_visible(False)
    ax.legend(loc="upper left", frameon=True, framealpha=0.9, edgecolor="none",
              fontsize="small")
    return ax


def _shade_regions(ax: Axes, grid: np.ndarray, regions: list[str]) -> None:
    """Background bands: where each cube action is the proper one, named at the bottom."""
    start = 0
    edges = np.r_[grid[0], (grid[1:] + grid[:-1]) / 2, grid[-1]]
    for i in range(1, len(regions) + 1):
        if i < len(regions) and regions[i] == regions[start]:
            continue
        name = regions[start]
        left, right = edges[start], edges[i]
        ax.axvspan(left, right, color=_CUBE_SHADES[name], zorder=0, lw=0, gid=f"region {name}")
        if right - left > 0.06 * (grid[-1] - grid[0]):
            ax.text((left + right) / 2, 0.02, name.replace(", ", ",\n"),
                    transform=ax.get_xaxis_transform(),
                    ha="center", va="bottom", fontsize="small", color="#666666",
                    fontstyle="italic", zorder=1)
        start = i


def _mark_cube_points(ax: Axes, points: Any) -> None:
    marks = [("double point", points.double_point, ""),
             ("cash point", points.cash_point, f"\n(take point {points.take_point:.1%})"),
             ("too good", points.too_good_point, "")]
    low, high = ax.get_xlim()
    for name, where, extra in marks:
        if where is None or not low < where < high:
            continue
        ax.axvline(where, color=NEUTRAL_LIGHT, linewidth=1.0, linestyle=(0, (4, 3)), zorder=1,
                   gid=name)
        ax.text(where, 0.98, f"{name} {where:.1%}{extra}", transform=ax.get_xaxis_transform(),
                rotation=90, ha="right", va="top", fontsize="x-small", color="#555555",
                zorder=1)


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
    return ERROR_MARKERS.get(name.lower(), (("o", "s", "D", "X", "P")[min(rank, 4)],
                                            36.0 + 20.0 * rank))


def plot_equity(data: pd.DataFrame, *, y: str | None = None, errors: bool = True,
                ax: Axes | None = None, **kwargs: Any) -> Axes:
    """Equity or match winning chance through a match, from player 0's side, errors marked.

    Each row's value is the mover's (the analysis frame's convention) and is
    turned to player 0's side: a chance ``v`` of player 1 becomes ``1 - v``,
    an equity ``e`` becomes ``-e``; rows without a value are interpolated
    within their game. The area is amber where player 0 is ahead and blue
    where player 1 is. Each error is a mark in the erring player's colour,
    bigger for a worse class: filled for checker play (``error_class``),
    hollow for a cube error (``cube_error_class``, when the frame has it).

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
    ax : matplotlib Axes, optional
    **kwargs
        Passed to :meth:`~matplotlib.axes.Axes.plot` for the value line.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"game": 1, "action_index": [0, 1, 2], "player": [0, 1, 0],
    ...     "action": "move", "played_equity": [0.1, 0.05, 0.3],
    ...     "error_class": ["none", "bad", "none"]})
    >>> fig, ax = plt.subplots()
    >>> ax = plot_equity(frame, ax=ax)
    >>> ax.get_lines()[0].get_ydata().tolist()
    [0.1, -0.05, 0.3]
    >>> plt.close(fig)
    """
    plot = "plot_equity"
    if y is None:
        columns = data.columns if isinstance(data, pd.DataFrame) else ()
        y = next((name for name in EQUITY_COLUMNS if name in columns), EQUITY_COLUMNS[-1])
    needed = ["game", "action_index", "player", "action", y]
    frame = _require(data, needed + (["error_class"] if errors else []), plot,
                     "gammonlab.analyse(match)")
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
    # rows without a value (a take, a roll with a dead cube) are interpolated within their game
    filled = (pd.Series(value).groupby(games)
              .transform(lambda part: part.interpolate(limit_area="inside").ffill())
              .to_numpy(float))
    known = ~np.isnan(filled)
    ax = _axes(ax)
    names = _player_names(frame)
    lx, ly = _by_game(x[known], filled[known], games[known])
    style = {"color": NEUTRAL, "linewidth": 1.3, "label": f"{names[0]}'s side", **kwargs}
    ax.plot(lx, ly, gid="value", zorder=3, **style)
    ax.fill_between(lx, ly, pivot, where=ly >= pivot, interpolate=True, color=player_color(0),
                    alpha=0.35, linewidth=0, zorder=1, label=f"{names[0]} ahead")
    ax.fill_between(lx, ly, pivot, where=ly <= pivot, interpolate=True, color=player_color(1),
                    alpha=0.35, linewidth=0, zorder=1, label=f"{names[1]} ahead")
    ax.axhline(pivot, color=NEUTRAL_LIGHT, linewidth=0.8, zorder=2)
    handles = [Patch(color=player_color(p), alpha=0.6, label=f"{names[p]} ahead / erring")
               for p in (0, 1)]
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
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.14),
              ncol=len(handles), frameon=False, fontsize="small")
    return ax


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
            ax.scatter(x[rows], y[rows], marker=marker, s=size * (1.3 if hollow else 1.0),
                       c="white" if hollow else colours, edgecolors=colours if hollow else edges,
                       linewidths=2.0 if hollow else 1.0, zorder=4, gid=f"errors {kind} {name}",
                       label=name)
    handles: list[Any] = []
    for rank, (name, count) in enumerate(counts.items()):
        marker, size = _error_marker(name, rank)
        handles.append(Line2D([], [], marker=marker, linestyle="none", color=NEUTRAL_LIGHT,
                              markeredgecolor=NEUTRAL, markersize=math.sqrt(size),
                              label=f"{name} ({count})"))
    if cube_marks:
        handles.append(Line2D([], [], marker="o", linestyle="none", markerfacecolor="white",
                              markeredgecolor=NEUTRAL, markeredgewidth=2.0, markersize=7,
                              label="hollow: cube"))
    return handles


def plot_luck(data: pd.DataFrame, *, ax: Axes | None = None, **kwargs: Any) -> Axes:
    """Each player's luck added up roll by roll through a match.

    Luck is the analysis frame's ``luck``: how much better the roll was than
    the average roll, for the player who rolled. A rising line is a lucky
    run; the totals are written at the end of the lines and in the title.

    Parameters
    ----------
    data : DataFrame
        An analysis frame (:func:`gammonlab.analyse`): ``game``,
        ``action_index``, ``player``, ``action``, ``luck``.
    ax : matplotlib Axes, optional
    **kwargs
        Passed to :meth:`~matplotlib.axes.Axes.plot` for the players' lines.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"game": 1, "action_index": [0, 1, 2], "player": [0, 1, 0],
    ...     "action": "move", "luck": [0.2, -0.1, 0.05]})
    >>> fig, ax = plt.subplots()
    >>> ax = plot_luck(frame, ax=ax)
    >>> [round(float(line.get_ydata()[-1]), 2) for line in ax.get_lines()[:2]]
    [0.25, -0.1]
    >>> plt.close(fig)
    """
    plot = "plot_luck"
    frame = _require(data, ["game", "action_index", "player", "action", "luck"], plot,
                     "gammonlab.analyse(match)")
    frame = _one_match(frame, plot)
    x, spans = _timeline(frame)
    luck = _numbers(frame["luck"])
    player = frame["player"].to_numpy(int)
    names = _player_names(frame)
    ax = _axes(ax)
    totals = []
    for p in (0, 1):
        rows = (player == p) & ~np.isnan(luck)
        xs = np.r_[spans[0][1], x[rows]]
        total = np.r_[0.0, np.cumsum(luck[rows])]
        totals.append(total[-1])
        style = {"color": player_color(p), "linewidth": 2.0, "drawstyle": "steps-post",
                 "label": f"{names[p]} {total[-1]:+.2f}", **kwargs}
        ax.plot(xs, total, gid=f"luck player-{p}", **style)
        ax.annotate(f"{total[-1]:+.2f}", (xs[-1], total[-1]), xytext=(4, 0),
                    textcoords="offset points", va="center", fontsize="small",
                    color=player_color(p), fontweight="bold")
    ax.axhline(0.0, color=NEUTRAL_LIGHT, linewidth=0.8, zorder=1)
    _mark_games(ax, spans)
    ax.set_xlabel("roll, games end to end" if len(spans) > 1 else f"roll (game {spans[0][0]})")
    ax.set_ylabel("luck so far (equity)")
    ax.set_title(f"Luck through the match: {names[0]} {totals[0]:+.2f}, "
                 f"{names[1]} {totals[1]:+.2f}", loc="left")
    _tidy(ax)
    ax.legend(loc="upper left", frameon=False)
    return ax


def plot_errors(data: pd.DataFrame, *, value: str = "count", ax: Axes | None = None,
                **kwargs: Any) -> Axes:
    """Each player's errors by class: how many, or how much equity they cost.

    A bar per player and class, in the player's colour: checker-play errors
    (``error_class``) solid, cube errors (``cube_error_class``, when the frame
    has it) hatched on top. Each bar is labelled with its count and the
    equity lost.

    Parameters
    ----------
    data : DataFrame
        An analysis frame (:func:`gammonlab.analyse`): ``player``,
        ``error_class`` and, for ``value='equity_loss'`` and the labels,
        ``equity_loss`` (``cube_equity_loss`` for the cube errors).
    value : {'count', 'equity_loss'}
        Bar height: the number of errors or the equity they lost.
    ax : matplotlib Axes, optional
    **kwargs
        Passed to :meth:`~matplotlib.axes.Axes.bar`.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"player": [0, 1, 1, 0], "equity_loss": [0.0, 0.05, 0.2, 0.1],
    ...     "error_class": ["none", "doubtful", "very bad", "bad"]})
    >>> fig, ax = plt.subplots()
    >>> ax = plot_errors(frame, ax=ax)
    >>> len(ax.patches), [t.get_text() for t in ax.get_xticklabels()]
    (6, ['doubtful', 'bad', 'very bad'])
    >>> plt.close(fig)
    """
    plot = "plot_errors"
    if value not in ("count", "equity_loss"):
        raise PlotDataError(f"{plot}: value must be 'count' or 'equity_loss', got {value!r}")
    needed = ["player", "error_class"] + (["equity_loss"] if value == "equity_loss" else [])
    frame = _require(data, needed, plot, "gammonlab.analyse(match)")
    if "match" in frame.columns and frame["match"].nunique() > 1:
        raise PlotDataError(f"{plot} counts one match; the frame holds "
                            f"{frame['match'].nunique()} (select one, or summarise them "
                            "with gammonlab.summarise)")
    classes = _error_classes(frame["error_class"])
    if not classes:
        raise PlotDataError(f"{plot}: the column 'error_class' names no error class")
    kinds = [kind for kind in ERROR_KINDS if kind[0] in frame.columns]
    player = frame["player"].to_numpy(int)
    names = _player_names(frame)
    # counts[kind][player][class] and the equity those errors lost
    counts = np.zeros((len(kinds), 2, len(classes)))
    lost = np.zeros_like(counts)
    for k, (column, loss_column, _) in enumerate(kinds):
        wrong = _is_error(frame[column])
        text = frame[column].astype("string").fillna("").to_numpy(str)
        loss = (_numbers(frame[loss_column]) if loss_column in frame.columns
                else np.full(len(frame), np.nan))
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
            style = {"width": width, "bottom": bottom,
                     "color": _lighter(player_color(p), 0.55) if cube else player_color(p),
                     "edgecolor": PLAYER_EDGE_COLORS[p], "linewidth": 0.8,
                     "hatch": "///" if cube else None, "zorder": 2,
                     "label": f"{names[p]}{', cube' if cube else ''}", **kwargs}
            for bar, name in zip(ax.bar(x + shift, heights[k, p], **style), classes):
                bar.set_gid(f"errors player-{p} {kind} {name}")
            bottom = bottom + heights[k, p]
        for xi, c in zip(x + shift, range(len(classes))):
            n, loss_total = counts[:, p, c].sum(), lost[:, p, c].sum()
            label = f"{n:.0f}" if value == "count" else f"{loss_total:.3f}"
            if value == "count" and has_loss:
                label += f"\n−{loss_total:.3f}"
            ax.annotate(label, (xi, bottom[c]), xytext=(0, 2), textcoords="offset points",
                        ha="center", va="bottom", fontsize="x-small", color=NEUTRAL)
    ax.set_xticks(x, classes)
    ax.set_xlim(-0.6, len(classes) - 0.4)
    ax.set_ylim(0, ax.get_ylim()[1] * 1.18 + (0.5 if value == "count" else 0.0))
    if value == "count":
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("error class")
    ax.set_ylabel("errors" if value == "count" else "equity lost")
    summary = ", ".join(f"{names[p]} {counts[:, p].sum():.0f}"
                        + (f" (−{lost[:, p].sum():.3f})" if has_loss else "")
                        for p in (0, 1))
    ax.set_title(f"Errors by class (equity lost): {summary}" if has_loss
                 else f"Errors by class: {summary}", loc="left")
    _tidy(ax)
    ax.legend(loc="upper right", frameon=False, ncol=2 if len(kinds) > 1 else 1)
    return ax


# -- match equity tables -------------------------------------------------------------------------


def plot_met(table: MatchEquityTable | pd.DataFrame | str, *, max_away: int = 11,
             annotate: bool = True, colorbar: bool = False, ax: Axes | None = None,
             **kwargs: Any) -> Axes:
    """A match equity table as a heat map: the row player's match winning chance.

    Rows are the points the player still needs, columns the opponent's (as
    printed tables have them); amber where the row player is the favourite,
    blue where the opponent is, white at 50%. Row and column 1 are the
    Crawford game.

    Parameters
    ----------
    table : MatchEquityTable, DataFrame or str
        A table (:func:`gammonlab.met.load`), its ``to_frame()`` (index
        ``away``, columns ``opp_away``) or a shipped table's name.
    max_away : int
        Show scores up to this many points away.
    annotate : bool
        Write the chances (in %) in the cells.
    colorbar : bool
        Add a colour bar beside the Axes.
    ax : matplotlib Axes, optional
    **kwargs
        Passed to :meth:`~matplotlib.axes.Axes.imshow`.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> fig, ax = plt.subplots()
    >>> ax = plot_met("Kazaross-XG2", max_away=5, ax=ax)
    >>> ax.images[0].get_array().shape, ax.texts[0].get_text()
    ((5, 5), '50')
    >>> plt.close(fig)
    """
    plot = "plot_met"
    name = "Match equity table"
    if isinstance(table, str):
        from .met import load

        table = load(table)
    if hasattr(table, "to_frame") and hasattr(table, "pre_crawford"):
        name = str(table.name)
        frame = table.to_frame()
    elif isinstance(table, pd.DataFrame):
        frame = table
        if frame.shape[0] != frame.shape[1] or not all(
                pd.api.types.is_numeric_dtype(t) for t in frame.dtypes):
            raise PlotDataError(f"{plot} needs a square table of chances (MatchEquityTable."
                                f"to_frame(), 'pre-crawford'), got columns "
                                f"{', '.join(map(str, frame.columns))}")
    else:
        raise PlotDataError(f"{plot} needs a MatchEquityTable, its to_frame() or a table "
                            f"name, got {type(table).__name__}")
    if frame.empty:
        raise PlotDataError(f"{plot}: the table is empty")
    shown = frame.iloc[:max_away, :max_away]
    values = shown.to_numpy(float)
    ax = _axes(ax)
    cmap = LinearSegmentedColormap.from_list(
        "gammonlab_mwc", [player_color(1), "#FFFFFF", player_color(0)])
    style = {"cmap": cmap, "vmin": 0.0, "vmax": 1.0, "interpolation": "nearest",
             "aspect": "equal", **kwargs}
    image = ax.imshow(values, **style)
    rows, columns = list(shown.index), list(shown.columns)
    ax.set_xticks(range(len(columns)), [str(c) for c in columns])
    ax.set_yticks(range(len(rows)), [str(r) for r in rows])
    ax.xaxis.tick_top()
    ax.xaxis.set_label_position("top")
    ax.tick_params(length=0, labelsize="small")
    for spine in ax.spines.values():
        spine.set_visible(False)
    if annotate:
        size = "small" if len(rows) <= 9 else ("x-small" if len(rows) <= 13 else 5)
        for i in range(len(rows)):
            for j in range(len(columns)):
                v = values[i, j]
                ax.text(j, i, f"{100 * v:.0f}", ha="center", va="center", fontsize=size,
                        color=_text_color(image.cmap(image.norm(v))))
    if colorbar:
        bar = ax.figure.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
        bar.ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        bar.set_label("match winning chance of the row player")
    ax.set_xlabel("the opponent needs (points)")
    ax.set_ylabel("the player needs (points)")
    ax.set_title(f"{name}: the player's match winning chance (%)", loc="left",
                 fontsize="medium", pad=10)
    return ax
