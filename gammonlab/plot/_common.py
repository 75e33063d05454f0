"""Constants, the error type and helpers shared by the plot modules."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.colors import to_rgb
from matplotlib.ticker import PercentFormatter

from ..draw.style import board_colors
from ..errors import PlotDataError

if TYPE_CHECKING:
    from matplotlib.axes import Axes


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
    "doubtful": ("o", 36.0),
    "bad": ("s", 56.0),
    "very bad": ("X", 110.0),
}
"""Marker and size of each error class: the worse the error, the bigger the mark."""
_NO_ERROR = {"", "none", "no error", "ok", "nan", "<na>"}
EQUITY_COLUMNS = ("mwc", "position_mwc", "position_equity", "played_equity")
"""The value :func:`plot_equity` draws by default: the first of these the frame has."""
ERROR_KINDS = (
    ("error_class", "equity_loss", "checker play"),
    ("cube_error_class", "cube_equity_loss", "cube"),
)
"""Columns of an analysis frame that classify errors, the equity each lost, and their name."""
_CUBE_SHADES = {
    "No double": "#FFFFFF",
    "Double, take": "#E4EFE4",
    "Double, pass": "#F3E3E6",
    "Too good": "#E9E5F2",
}
"""Background of each region of a cube-decision plot."""


# -- shared docstrings ---------------------------------------------------------------------------

_SHARED_DOCS = {
    "ax_kwargs_returns": """ax : matplotlib Axes, optional
    The Axes to draw on; by default the current one (:func:`matplotlib.pyplot.gca`).
**kwargs
    Passed to :meth:`~matplotlib.axes.Axes.{method}`{artist}.

Returns
-------
matplotlib Axes""",
    "rollout_result": """data : RolloutResult or DataFrame
    A rollout run with ``keep_trials=True``, or its ``to_frame()``.""",
    "rollout_example": """>>> from gammonlab import Position
>>> from gammonlab.rollout import rollout
>>> res = rollout(Position.initial(), trials=72, seed=1, keep_trials=True,
...               progress=False, n_jobs=1)""",
    "figure": """>>> import matplotlib.pyplot as plt
>>> fig, ax = plt.subplots()""",
    "close": ">>> plt.close(fig)",
}
"""The paragraphs every plot helper's docstring shares, by placeholder."""

_F = TypeVar("_F", bound=Callable[..., Any])


def _plot_docs(method: str, artist: str = "") -> Callable[[_F], _F]:
    """Fill a plot helper's docstring: each line that is only ``{name}``, a key of
    :data:`_SHARED_DOCS`, becomes that paragraph at that line's indent.

    ``method`` and ``artist`` complete ``**kwargs``: the :class:`~matplotlib.axes.Axes`
    method they are passed to, and the artist it draws (``'the players' lines'``).

    >>> @_plot_docs("bar")
    ... def plot_x(ax=None, **kwargs):
    ...     \"\"\"Bars.
    ...
    ...     {ax_kwargs_returns}
    ...     \"\"\"
    >>> print(plot_x.__doc__.strip())  # doctest: +NORMALIZE_WHITESPACE
    Bars.
        ax : matplotlib Axes, optional
            The Axes to draw on; by default the current one (:func:`matplotlib.pyplot.gca`).
        **kwargs
            Passed to :meth:`~matplotlib.axes.Axes.bar`.
        Returns
        -------
        matplotlib Axes
    """
    fill = {"method": method, "artist": f" for {artist}" if artist else ""}

    def document(function: _F) -> _F:
        lines: list[str] = []
        for line in (function.__doc__ or "").splitlines():
            name = line.strip()
            if name.startswith("{") and name.endswith("}") and name[1:-1] in _SHARED_DOCS:
                indent = line[: len(line) - len(line.lstrip())]
                text = _SHARED_DOCS[name[1:-1]].format(**fill)
                lines.extend(indent + part if part else part for part in text.splitlines())
            else:
                lines.append(line)
        function.__doc__ = "\n".join(lines)
        return function

    return document


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
        raise PlotDataError(
            f"{plot} needs the column{'s' if len(missing) > 1 else ''} {listed} "
            f"({hint}); the frame has: {', '.join(map(str, data.columns))}"
        )
    if data.empty:
        raise PlotDataError(f"{plot}: the frame has no rows")
    return data


def _one_match(frame: pd.DataFrame, plot: str) -> pd.DataFrame:
    """The rows of one match, in order (read_matches frames must be narrowed first)."""
    if "match" in frame.columns and frame["match"].nunique() > 1:
        raise PlotDataError(
            f"{plot} draws one match; the frame holds {frame['match'].nunique()} "
            "(select one: frame[frame.match == name])"
        )
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
    linear = [
        c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in to_rgb(background)
    ]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    on_white = 1.05 / (luminance + 0.05)
    on_dark = (luminance + 0.05) / 0.0662  # the luminance of #222222, plus 0.05
    return "white" if on_white > on_dark else "#222222"


def _label_bar(ax: Axes, text: str, top: tuple[float, float]) -> None:
    """Write ``text`` small and grey just above ``top``, the top of a bar or its whisker."""
    ax.annotate(
        text,
        top,
        xytext=(0, 2),
        textcoords="offset points",
        ha="center",
        va="bottom",
        fontsize="x-small",
        color=NEUTRAL,
    )


def _tidy(ax: Axes) -> None:
    ax.spines["top"].set_visible(False)
    ax.spines["right"].set_visible(False)
    ax.grid(True, axis="y", color="#E4E4E4", linewidth=0.8, zorder=0)
    ax.set_axisbelow(True)
