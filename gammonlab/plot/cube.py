"""Plots of cube decisions and match equity tables."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from matplotlib.colors import LinearSegmentedColormap
from matplotlib.font_manager import FontProperties
from matplotlib.textpath import TextToPath
from matplotlib.ticker import PercentFormatter

from ..cube.theory import with_winning_chance
from ..draw.style import PLAYER_EDGE_COLORS, player_color

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from ..cube import CubeDecision
    from ..met import MatchEquityTable
    from ..state import GameState


from ._common import (
    _CUBE_SHADES,
    NEUTRAL,
    NEUTRAL_LIGHT,
    PlotDataError,
    _axes,
    _percent_axis,
    _plot_docs,
    _text_color,
)

__all__ = ["plot_cube_decision", "plot_met"]


# -- cube decisions ------------------------------------------------------------------------------


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


@_plot_docs("plot", "the proper-action line")
def plot_cube_decision(
    data: Any,
    *,
    state: GameState | str | None = None,
    x: str = "win",
    met: MatchEquityTable | str | None = None,
    cube_efficiency: float | None = None,
    mwc: bool | None = None,
    xlim: tuple[float, float] | None = None,
    points: int = 201,
    ax: Axes | None = None,
    **kwargs: Any,
) -> Axes:
    """The equity of no double, double/take and double/pass as the winning chances vary.

    Each curve is the cube decision (:func:`gammonlab.cube_decision`) of the
    same position with other winning chances and the same gammon ratios (with
    ``x='gammons'``: the same winning chances and another gammon rate). The
    thick amber line is the equity after proper cube action; the background
    says which action that is. On the winning-chance axis the double point,
    the cash point (the taker's take point, seen from the doubler) and the
    too-good point are marked (:func:`gammonlab.cube.cube_points`), each named
    beside its line, or in the legend where the lines stand too close together
    for their names; a band too narrow for its name is left unnamed. The big dot
    is the position under study.

    Parameters
    ----------
    data : probabilities, RolloutResult or CubeDecision
        The cubeless probabilities of the player on roll (five numbers, a
        mapping, a rollout result) or a decision (its probabilities and cube
        efficiency; give the same ``state`` it was made with).
    state : GameState, ID string or None
        Keyword only. Cube, score and rules; ``None`` is a money game with the
        cube centred.
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
    {ax_kwargs_returns}

    Examples
    --------
    {figure}
    >>> ax = plot_cube_decision([0.70, 0.12, 0.005, 0.04, 0.002], points=41, ax=ax)
    >>> [line.get_label() for line in ax.get_lines()][:3]
    ['No double', 'Double, take', 'Double, pass']
    {close}
    """
    from ..cube import cube_decision, cube_points

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
    marks = cube_points(state, p, cube_efficiency=efficiency, met=met) if x == "win" else None
    if x == "win":
        if xlim is None:
            lowest = min(p[0], marks.double_point or 1.0, 0.5) - 0.1  # type: ignore[union-attr]
            xlim = (max(0.0, math.floor(10 * lowest) / 10), 1.0)
        grid = np.linspace(xlim[0], xlim[1], points)
        varied = [with_winning_chance(p, w) for w in grid]
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
        curves[:, i] = [np.nan if getattr(d, name) is None else getattr(d, name) for name in names]
        regions.append(_verdict_region(d))
    ax = _axes(ax)
    _shade_regions(ax, grid, regions)
    labels = ("No double", "Double, take", "Double, pass")
    for curve, label, dash in zip(curves[:3], labels, ("-", "--", ":")):
        ax.plot(
            grid,
            curve,
            color=NEUTRAL,
            linewidth=1.3,
            linestyle=dash,
            label=label,
            gid=label,
            zorder=3,
        )
    style = {
        "color": player_color(0),
        "linewidth": 4.0,
        "alpha": 0.55,
        "label": "proper cube action",
        "solid_capstyle": "round",
        **kwargs,
    }
    ax.plot(grid, curves[3], gid="proper", zorder=2, **style)
    value = float(decision.mwc if in_mwc and decision.mwc is not None else decision.equity)
    ax.scatter(
        [here],
        [value],
        s=90,
        color=player_color(0),
        edgecolor=PLAYER_EDGE_COLORS[0],
        linewidth=1.5,
        zorder=5,
        gid="position",
        label="this position",
    )
    share = "winning chances" if x == "win" else "chance of winning a gammon"
    where = f"{p[0]:.0%} wins" + ("" if x == "win" else f", {p[1]:.0%} gammons")
    ax.annotate(
        f"this position ({where}):\n{decision.verdict}",
        (here, value),
        xytext=(12, -10),
        textcoords="offset points",
        ha="left",
        va="top",
        fontsize="small",
        fontweight="bold",
        color=NEUTRAL,
        zorder=6,
        bbox={"boxstyle": "round,pad=0.2", "facecolor": "white", "edgecolor": "none", "alpha": 0.8},
    )
    ax.set_xlim(grid[0], grid[-1])
    if marks is not None:
        _mark_cube_points(ax, marks)
    _percent_axis(ax.xaxis)
    if in_mwc:
        _percent_axis(ax.yaxis)
    ax.set_xlabel(f"{share} of the player on roll")
    ax.set_ylabel("match winning chance" if in_mwc else "equity (cubeful, per cube)")
    ax.set_title(
        f"Cube decision: {decision.verdict} — {decision.situation}", loc="left", fontsize="medium"
    )
    ax.spines["top"].set_visible(False)
    ax.spines["right"].set_visible(False)
    ax.legend(loc="upper left", frameon=True, framealpha=0.9, edgecolor="none", fontsize="small")
    return ax


def _shade_regions(ax: Axes, grid: np.ndarray, regions: list[str]) -> None:
    """Background bands: where each cube action is the proper one, named at the bottom.

    A band too narrow for its name is left unnamed, so that names never overlap.
    """
    start = 0
    edges = np.r_[grid[0], (grid[1:] + grid[:-1]) / 2, grid[-1]]
    font = FontProperties(size="small", style="italic")
    per_unit = _axes_width_points(ax) / (grid[-1] - grid[0])
    for i in range(1, len(regions) + 1):
        if i < len(regions) and regions[i] == regions[start]:
            continue
        name = regions[start]
        left, right = edges[start], edges[i]
        ax.axvspan(left, right, color=_CUBE_SHADES[name], zorder=0, lw=0, gid=f"region {name}")
        label = name.replace(", ", ",\n")
        room = (right - left) * per_unit - font.get_size_in_points()  # a margin on each side
        if _text_width_points(label, font) <= room:
            ax.text(
                (left + right) / 2,
                0.02,
                label,
                transform=ax.get_xaxis_transform(),
                ha="center",
                va="bottom",
                fontproperties=font,
                color="#666666",
                zorder=1,
            )
        start = i


_LINE_ACROSS = 1.2  # a rotated label's width per line of text, in font sizes
_LABEL_GAP = 0.6  # the space kept beside a rotated label, in font sizes


def _mark_cube_points(ax: Axes, points: Any) -> None:
    """Dashed lines at the cube points, each named by a label along it.

    A label goes on the left of its line, or on the right where the left is
    taken; where neither side has room, the line is named in the legend instead,
    so that labels never overlap.
    """
    marks = [
        ("double point", points.double_point, ""),
        ("cash point", points.cash_point, f"\n(take point {points.take_point:.1%})"),
        ("too good", points.too_good_point, ""),
    ]
    low, high = ax.get_xlim()
    shown = sorted(
        ((where, name, extra) for name, where, extra in marks if where is not None),
        key=lambda mark: mark[0],
    )
    font = FontProperties(size="x-small")
    size = font.get_size_in_points()
    width = _axes_width_points(ax)
    taken: list[tuple[float, float]] = []
    for where, name, extra in shown:
        if not low < where < high:
            continue
        line = ax.axvline(
            where, color=NEUTRAL_LIGHT, linewidth=1.0, linestyle=(0, (4, 3)), zorder=1, gid=name
        )
        text = f"{name} {where:.1%}{extra}"
        at = (where - low) / (high - low) * width
        across = (_LINE_ACROSS * (text.count("\n") + 1) + _LABEL_GAP) * size
        for ha, span in (("right", (at - across, at)), ("left", (at, at + across))):
            inside = 0.0 <= span[0] and span[1] <= width
            if inside and all(span[1] <= a or b <= span[0] for a, b in taken):
                taken.append(span)
                ax.text(
                    where,
                    0.98,
                    text,
                    transform=ax.get_xaxis_transform(),
                    rotation=90,
                    ha=ha,
                    va="top",
                    fontproperties=font,
                    color="#555555",
                    zorder=1,
                    gid=f"{name} label",
                )
                break
        else:
            line.set_label(text.replace("\n", " "))


def _axes_width_points(ax: Axes) -> float:
    """The width of the axes on the figure, in points."""
    return float(ax.bbox.width) * 72 / float(ax.figure.dpi)


def _text_width_points(text: str, font: FontProperties) -> float:
    """The width of the widest line of ``text`` in ``font``, in points."""
    measure = TextToPath()
    return max(
        measure.get_text_width_height_descent(line, font, ismath=False)[0]
        for line in text.split("\n")
    )


# -- match equity tables -------------------------------------------------------------------------


@_plot_docs("imshow")
def plot_met(
    data: MatchEquityTable | pd.DataFrame | str,
    *,
    max_away: int = 11,
    annotate: bool = True,
    colorbar: bool = False,
    ax: Axes | None = None,
    **kwargs: Any,
) -> Axes:
    """A match equity table as a heat map: the row player's match winning chance.

    Rows are the points the player still needs, columns the opponent's (as
    printed tables have them); amber where the row player is the favourite,
    blue where the opponent is, white at 50%. Row and column 1 are the
    Crawford game.

    Parameters
    ----------
    data : MatchEquityTable, DataFrame or str
        A table (:func:`gammonlab.met.load`), its ``to_frame()`` (index
        ``away``, columns ``opp_away``) or a shipped table's name.
    max_away : int
        Show scores up to this many points away.
    annotate : bool
        Write the chances (in %) in the cells.
    colorbar : bool
        Add a colour bar beside the Axes.
    {ax_kwargs_returns}

    Examples
    --------
    {figure}
    >>> ax = plot_met("Kazaross-XG2", max_away=5, ax=ax)
    >>> ax.images[0].get_array().shape, ax.texts[0].get_text()
    ((5, 5), '50')
    {close}
    """
    plot = "plot_met"
    name = "Match equity table"
    table = data
    if isinstance(table, str):
        from ..met import load

        table = load(table)
    if hasattr(table, "to_frame") and hasattr(table, "pre_crawford"):
        name = str(table.name)
        frame = table.to_frame()
    elif isinstance(table, pd.DataFrame):
        frame = table
        if frame.shape[0] != frame.shape[1] or not all(
            pd.api.types.is_numeric_dtype(t) for t in frame.dtypes
        ):
            raise PlotDataError(
                f"{plot} needs a square table of chances (MatchEquityTable."
                f"to_frame(), 'pre-crawford'), got columns "
                f"{', '.join(map(str, frame.columns))}"
            )
    else:
        raise PlotDataError(
            f"{plot} needs a MatchEquityTable, its to_frame() or a table "
            f"name, got {type(table).__name__}"
        )
    if frame.empty:
        raise PlotDataError(f"{plot}: the table is empty")
    shown = frame.iloc[:max_away, :max_away]
    values = shown.to_numpy(float)
    ax = _axes(ax)
    cmap = LinearSegmentedColormap.from_list(
        "gammonlab_mwc", [player_color(1), "#FFFFFF", player_color(0)]
    )
    style = {
        "cmap": cmap,
        "vmin": 0.0,
        "vmax": 1.0,
        "interpolation": "nearest",
        "aspect": "equal",
        **kwargs,
    }
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
                ax.text(
                    j,
                    i,
                    f"{100 * v:.0f}",
                    ha="center",
                    va="center",
                    fontsize=size,
                    color=_text_color(image.cmap(image.norm(v))),
                )
    if colorbar:
        bar = ax.figure.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
        bar.ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        bar.set_label("match winning chance of the row player")
    ax.set_xlabel("the opponent needs (points)")
    ax.set_ylabel("the player needs (points)")
    ax.set_title(
        f"{name}: the player's match winning chance (%)", loc="left", fontsize="medium", pad=10
    )
    return ax
