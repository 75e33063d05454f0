"""Plots of rollouts: convergence, first rolls, candidate plays."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from matplotlib.patches import Patch

from ..draw.style import PLAYER_EDGE_COLORS, player_color

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from ..rollout.result import RolloutResult


from ._common import (
    NEUTRAL,
    NEUTRAL_LIGHT,
    ROLLS_PER_BLOCK,
    Z95,
    PlotDataError,
    _axes,
    _label_bar,
    _percent_axis,
    _plot_docs,
    _require,
    _tidy,
)

__all__ = ["plot_first_rolls", "plot_plays", "plot_rollout"]


# -- rollouts ------------------------------------------------------------------------------------


def _trials(result: Any, plot: str) -> pd.DataFrame:
    """A rollout's per-trial frame: from a RolloutResult kept with trials, or the frame itself."""
    if isinstance(result, pd.DataFrame):
        frame = result
    elif _is_result(result):
        if getattr(result, "_trial_frame", None) is None:
            raise PlotDataError(
                f"{plot} needs the rollout's trials: rollout(..., keep_trials=True)"
            )
        frame = result.to_frame()
    else:
        raise PlotDataError(
            f"{plot} needs a RolloutResult (keep_trials=True) or its "
            f"to_frame(), got {type(result).__name__}"
        )
    return _require(
        frame,
        ["trial", "die1", "die2", "points"],
        plot,
        "RolloutResult.to_frame() of rollout(..., keep_trials=True)",
    )


def _is_result(data: Any) -> bool:
    return hasattr(data, "to_frame") and hasattr(data, "stderr") and hasattr(data, "win")


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
    from .._kernels.stats import ROLL_STRATUM, STRATA, stratified_stderr

    frame = frame.sort_values("trial", kind="stable")
    points = frame["points"].to_numpy(float)
    n = np.arange(1, len(points) + 1)
    mean = np.cumsum(points) / n
    if not _rotated(frame):
        with np.errstate(invalid="ignore", divide="ignore"):
            plain_var = (np.cumsum(points**2) - n * mean**2) / (n - 1)
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
    stderr = np.array(
        [stratified_stderr(count[b], s1[b], s2[b], count[b].sum())[0] for b in range(blocks)]
    )
    trials = (np.arange(blocks) + 1) * ROLLS_PER_BLOCK
    return trials, mean[trials - 1], stderr, True


_SIDES = ("on roll", "opponent")
_KINDS = ("auto", "convergence", "outcomes")
_OUTCOMES = (
    ("win", "win", 1.0),
    ("win gammon", "win_gammon", 1.0),
    ("win backgammon", "win_backgammon", 1.0),
    ("lose", "win", -1.0),
    ("lose gammon", "lose_gammon", 1.0),
    ("lose backgammon", "lose_backgammon", 1.0),
)
"""Each bar of :func:`plot_rollout`'s outcomes: its label, the estimate it comes from and
whether it is that estimate (1) or its complement (-1), for the side on roll."""
_MIRROR = {
    "win": "win",
    "win_gammon": "lose_gammon",
    "win_backgammon": "lose_backgammon",
    "lose_gammon": "win_gammon",
    "lose_backgammon": "win_backgammon",
}
"""The side on roll's estimate that is the opponent's ``win_gammon``, ``lose_gammon``, ..."""


def _estimates(data: Any, plot: str) -> tuple[dict[str, float], dict[str, float], int]:
    """A rollout's estimates, their standard errors and its trials, for the side on roll."""
    names = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon", "equity")
    if isinstance(data, pd.Series):
        wanted = [*names, *(f"stderr_{n}" for n in names)]
        missing = [n for n in wanted if n not in data.index]
        if missing:
            raise PlotDataError(
                f"{plot} needs a rollout's estimates and their standard errors "
                f"(RolloutResult.to_series()); the series lacks {', '.join(missing)}"
            )
        values = {n: float(data[n]) for n in names}
        errors = {n: float(data[f"stderr_{n}"]) for n in names}
        trials = int(data["trials"]) if "trials" in data.index else 0
        return values, errors, trials
    return (
        {n: float(getattr(data, n)) for n in names},
        {n: float(data.stderr[n]) for n in names},
        int(data.trials),
    )


@_plot_docs("plot", "the running equity, or to ``bar`` for the outcomes")
def plot_rollout(
    data: RolloutResult | pd.DataFrame | pd.Series,
    *,
    kind: str = "auto",
    side: str = "on roll",
    name: str | None = None,
    ax: Axes | None = None,
    **kwargs: Any,
) -> Axes:
    """A rollout: its equity as the trials come in, or the chance of each outcome.

    ``kind='convergence'`` draws the estimate after each block of 36 trials (each
    trial, without variance reduction) with ``+- 1.96`` standard errors, computed
    as :func:`~gammonlab.rollout.rollout` computes them (stratified by the rotated
    roll); the dashed line is the final estimate. It needs the trials
    (``rollout(..., keep_trials=True)``).

    ``kind='outcomes'`` draws the chances to win, to win a gammon and a
    backgammon, to lose, to lose a gammon and a backgammon, each with its 95%
    error bar; any rollout has them. ``kind='auto'`` draws the convergence when
    the trials were kept and the outcomes otherwise.

    Parameters
    ----------
    data : RolloutResult, DataFrame or Series
        A rollout, its per-trial ``to_frame()`` (convergence only) or its
        ``to_series()`` (outcomes only).
    kind : {'auto', 'convergence', 'outcomes'}
        What to draw.
    side : {'on roll', 'opponent'}
        Whose equity and chances: the side on roll in the position rolled out,
        or its opponent (the player whose play led to the position).
    name : str, optional
        That side's name, for the title and the axis.
    {ax_kwargs_returns}

    Examples
    --------
    {rollout_example}
    {figure}
    >>> ax = plot_rollout(res, ax=ax)
    >>> ax.get_lines()[0].get_xdata().tolist()
    [36, 72]
    >>> ax.clear()
    >>> ax = plot_rollout(res.to_series(), side="opponent", name="Bea", ax=ax)
    >>> ax.get_ylabel()
    "Bea's chance"
    {close}
    """
    plot = "plot_rollout"
    if kind not in _KINDS:
        raise PlotDataError(f"{plot}: kind must be one of {', '.join(_KINDS)}, got {kind!r}")
    if side not in _SIDES:
        raise PlotDataError(f"{plot}: side must be 'on roll' or 'opponent', got {side!r}")
    if not (isinstance(data, (pd.DataFrame, pd.Series)) or _is_result(data)):
        raise PlotDataError(
            f"{plot} needs a RolloutResult, its to_frame() or its to_series(), "
            f"got {type(data).__name__}"
        )
    if kind == "auto":
        has_trials = isinstance(data, pd.DataFrame) or (
            not isinstance(data, pd.Series) and getattr(data, "_trial_frame", None) is not None
        )
        kind = "convergence" if has_trials else "outcomes"
    who = name or ("the side on roll" if side == "on roll" else "the opponent of the side on roll")
    whose = f"{name}'s" if name else None
    ax = _axes(ax)
    if kind == "convergence":
        _convergence(data, side, who, whose, ax, kwargs)
    else:
        if isinstance(data, pd.DataFrame):
            raise PlotDataError(
                f"{plot}: the outcomes need the rollout's estimates and errors: "
                "a RolloutResult or its to_series(), not its per-trial frame"
            )
        _outcomes(data, side, who, whose, ax, kwargs)
    _tidy(ax)
    return ax


def _rollout_title(data: Any, trials: int, equity: float, half: float, whose: str | None) -> str:
    position = getattr(getattr(data, "position", None), "label", None)
    if position is None and isinstance(data, pd.Series) and data.name is not None:
        position = str(data.name)
    return (
        f"Rollout{' of ' + position if position else ''}: {trials} trials, "
        f"{whose + ' ' if whose else ''}equity {equity:+.3f} ± {half:.3f} (95%)"
    )


def _convergence(
    data: Any, side: str, who: str, whose: str | None, ax: Axes, kwargs: dict[str, Any]
) -> None:
    plot = "plot_rollout"
    frame = _trials(data, plot)
    if len(frame) < 2:
        raise PlotDataError(f"{plot}: a rollout of {len(frame)} trial has nothing to converge")
    trials, equity, stderr, rotated = _running_equity(frame)
    sign = 1.0 if side == "on roll" else -1.0
    equity = sign * equity
    color = player_color(0 if side == "on roll" else 1)
    band = ax.fill_between(
        trials,
        equity - Z95 * stderr,
        equity + Z95 * stderr,
        color=color,
        alpha=0.22,
        linewidth=0,
        label="95% interval",
        zorder=1,
    )
    band.set_gid("band")
    style = {
        "color": color,
        "linewidth": 2.0,
        "marker": "o" if len(trials) <= 60 else None,
        "markersize": 3.5,
        "label": "equity so far",
        **kwargs,
    }
    ax.plot(trials, equity, gid="equity", zorder=3, **style)
    final, final_se = equity[-1], stderr[-1]
    ax.axhline(
        final,
        color=NEUTRAL,
        linestyle="--",
        linewidth=1.0,
        zorder=2,
        label=f"final {final:+.3f} ± {Z95 * final_se:.3f}",
        gid="final",
    )
    ax.axhline(0.0, color=NEUTRAL_LIGHT, linewidth=0.8, zorder=0)
    ax.set_xlim(0, trials[-1] * 1.02)
    spread = max(
        np.nanmax(np.abs(equity[len(equity) // 4 :] - final) + Z95 * stderr[len(equity) // 4 :]),
        0.02,
    )
    ax.set_ylim(final - 1.25 * spread, final + 1.25 * spread)
    ax.set_xlabel("trials" + (" (blocks of 36 rotated rolls)" if rotated else ""))
    ax.set_ylabel(f"{whose} equity (cubeless)" if whose else f"equity of {who} (cubeless)")
    ax.set_title(_rollout_title(data, len(frame), final, Z95 * final_se, whose), loc="left")
    ax.legend(loc="upper right", frameon=False)


def _outcomes(
    data: Any, side: str, who: str, whose: str | None, ax: Axes, kwargs: dict[str, Any]
) -> None:
    values, errors, trials = _estimates(data, "plot_rollout")
    mine, theirs = (0, 1) if side == "on roll" else (1, 0)
    heights, halves, owners = [], [], []
    for label, estimate, how in _OUTCOMES:
        if side == "opponent":
            estimate = _MIRROR[estimate]
            how = -how if estimate == "win" else how
        heights.append(values[estimate] if how > 0 else 1.0 - values[estimate])
        halves.append(Z95 * errors[estimate])
        owners.append(mine if label.startswith("win") else theirs)
    x = np.arange(len(_OUTCOMES))
    style = {
        "width": 0.66,
        "color": [player_color(p) for p in owners],
        "edgecolor": [PLAYER_EDGE_COLORS[p] for p in owners],
        "linewidth": 0.8,
        "zorder": 2,
        **kwargs,
    }
    bars = ax.bar(x, heights, **style)
    for bar, (label, _, _) in zip(bars, _OUTCOMES):
        bar.set_gid(f"outcome {label}")
    ax.errorbar(
        x, heights, yerr=halves, fmt="none", ecolor=NEUTRAL, elinewidth=1.1, capsize=3, zorder=3
    )
    for xi, value, half in zip(x, heights, halves):
        _label_bar(ax, f"{value:.1%}", (float(xi), min(value + half, 1.0)))
    labels = [label for label, _, _ in _OUTCOMES]
    if getattr(data, "scoring", None) == "seed-000" or (
        isinstance(data, pd.Series) and data.attrs.get("scoring") == "seed-000"
    ):  # R8.4: 2 points for a checker outside the loser's home, 4 for one on the bar
        labels = [t.replace("backgammon", "4").replace("gammon", "2+") for t in labels]
    ax.set_xticks(x, labels)
    ax.set_xlim(-0.6, len(_OUTCOMES) - 0.4)
    top = max(float(np.max(np.asarray(heights) + np.asarray(halves))), 0.05)
    ax.set_ylim(0, min(1.0, top * 1.15 + 0.02) if top < 0.85 else 1.08)
    _percent_axis(ax.yaxis)
    ax.set_ylabel(f"{whose} chance" if whose else f"chance of {who}")
    sign = 1.0 if side == "on roll" else -1.0
    ax.set_title(
        _rollout_title(data, trials, sign * values["equity"], Z95 * errors["equity"], whose),
        loc="left",
    )


def _roll_label(high: int, low: int) -> str:
    return f"{high}-{low}"


@_plot_docs("bar")
def plot_first_rolls(
    data: RolloutResult | pd.DataFrame,
    *,
    order: str = "equity",
    ax: Axes | None = None,
    **kwargs: Any,
) -> Axes:
    """A rollout's equity after each of the 21 first rolls, with 95% error bars.

    The roll is the one a rollout rotates: the first roll of the side on roll,
    or the opponent's reply when the rollout started with dice to play. 1-2
    and 2-1 count as one roll. A bar is amber when the roll leaves the side on
    roll ahead, blue when it favours the opponent; the dashed line is the
    overall equity.

    Parameters
    ----------
    {rollout_result}
    order : {'equity', 'roll'}
        Best roll first, or 1-1, 2-1, 2-2, ... 6-6.
    {ax_kwargs_returns}

    Examples
    --------
    {rollout_example}
    {figure}
    >>> ax = plot_first_rolls(res, order="roll", ax=ax)
    >>> len(ax.patches), ax.get_xticklabels()[1].get_text()
    (21, '2-1')
    {close}
    """
    plot = "plot_first_rolls"
    result = data
    if order not in ("equity", "roll"):
        raise PlotDataError(f"{plot}: order must be 'equity' or 'roll', got {order!r}")
    frame = _trials(result, plot)
    d1, d2 = frame["die1"].to_numpy(int), frame["die2"].to_numpy(int)
    table = pd.DataFrame(
        {
            "high": np.maximum(d1, d2),
            "low": np.minimum(d1, d2),
            "points": frame["points"].to_numpy(float),
        }
    )
    rolls = table.groupby(["high", "low"]).agg(
        equity=("points", "mean"), sd=("points", "std"), n=("points", "size")
    )
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
    ax.errorbar(
        x,
        values,
        yerr=Z95 * rolls["stderr"].fillna(0).to_numpy(),
        fmt="none",
        ecolor=NEUTRAL,
        elinewidth=1.0,
        capsize=2.5,
        zorder=3,
    )
    overall = float(frame["points"].mean())
    ax.axhline(
        overall,
        color=NEUTRAL,
        linestyle="--",
        linewidth=1.0,
        zorder=4,
        label=f"all rolls {overall:+.3f}",
    )
    ax.axhline(0.0, color=NEUTRAL, linewidth=0.8, zorder=1)
    ax.set_xticks(x, [_roll_label(high, low) for high, low in rolls.index])
    ax.tick_params(axis="x", labelsize="small")
    ax.set_xlim(-0.7, len(rolls) - 0.3)
    dice = getattr(result, "dice", None)
    reply = dice is not None
    ax.set_xlabel("the opponent's reply" if reply else "first roll")
    ax.set_ylabel("equity of the side on roll (cubeless)")
    after = f" after {dice[0]}-{dice[1]}" if dice is not None else ""
    ax.set_title(
        f"Equity by {'reply' if reply else 'first roll'}{after}: "
        f"{len(frame)} trials, 95% error bars",
        loc="left",
    )
    _tidy(ax)
    ax.legend(
        handles=[
            Patch(color=player_color(0), label="good for the side on roll"),
            Patch(color=player_color(1), label="good for the opponent"),
            *ax.get_legend_handles_labels()[0],
        ],
        loc="upper right",
        frameon=False,
        fontsize="small",
    )
    return ax


@_plot_docs("errorbar")
def plot_plays(
    data: pd.DataFrame, *, value: str = "equity", ax: Axes | None = None, **kwargs: Any
) -> Axes:
    """Candidate plays of a roll, best on top, with their equities and 95% error bars.

    Parameters
    ----------
    data : DataFrame
        :func:`~gammonlab.rollout.rollout_plays` output: ``play``, ``equity``,
        ``stderr`` (and ``difference``, ``difference_stderr``).
    value : {'equity', 'difference'}
        Each play's equity, or its difference to the best play (whose error
        bars, from common dice, are the ones to compare plays by).
    {ax_kwargs_returns}

    Examples
    --------
    >>> import pandas as pd
    >>> plays = pd.DataFrame({"play": ["8/5 6/5", "24/21 13/12"], "equity": [0.16, 0.01],
    ...                       "stderr": [0.01, 0.01]})
    {figure}
    >>> ax = plot_plays(plays, ax=ax)
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['8/5 6/5', '24/21 13/12']
    {close}
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
    style = {
        "fmt": "o",
        "color": color,
        "ecolor": color,
        "elinewidth": 2.2,
        "capsize": 4,
        "markersize": 7,
        "markeredgecolor": PLAYER_EDGE_COLORS[0],
        "zorder": 3,
        **kwargs,
    }
    ax.errorbar(values, y, xerr=half, gid="plays", **style)
    ax.scatter(
        values[:1],
        y[:1],
        s=190,
        facecolor="none",
        edgecolor=NEUTRAL,
        linewidth=1.4,
        zorder=4,
        label="best play",
        gid="best",
    )
    for yi, v, h in zip(y, values, half):
        ax.annotate(
            f"{v:+.3f} ± {h:.3f}",
            (v + h, yi),
            xytext=(6, 0),
            textcoords="offset points",
            va="center",
            fontsize="small",
            color=NEUTRAL,
        )
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
    ax.set_xlabel(
        "equity (cubeless) of the player to move"
        if value == "equity"
        else "equity difference to the best play"
    )
    ax.set_ylabel("candidate play")
    settings = data.attrs.get("settings", {}) if hasattr(data, "attrs") else {}
    trials = f", {settings['trials']} trials" if "trials" in settings else ""
    ax.set_title(f"Candidate plays: rollout{trials}, 95% intervals", loc="left")
    ax.legend(loc="lower right", frameon=False, fontsize="small")
    return ax
