"""Plots players look at, drawn with matplotlib.

Every helper follows one contract: ``plot_x(data, *, ..., ax=None, **kwargs)
-> Axes``: the data comes first, every option is keyword only; ``ax=None``
draws on :func:`matplotlib.pyplot.gca`; nothing calls ``show()`` or saves.
The columns a helper needs are checked first, and a missing one raises
:class:`PlotDataError` naming it. ``**kwargs`` go to the helper's main
artist (the players' lines, the bars, the heat map; every artist of a board).

Colours come from :mod:`gammonlab.draw.style`: player 0 -- and the side on roll of
a bare position or rollout -- is amber, player 1 slate blue, on boards and in
every plot. Series that belong to no player are drawn in greys.

===========================  ===================================================
:func:`plot_pips`            both players' pip counts through a game or a match
:func:`plot_gammon_rates`    gammon and backgammon rates with 95% intervals
:func:`plot_rollout`         a rollout's equity converging, or the chance of each outcome
:func:`plot_first_rolls`     a rollout's equity after each first roll
:func:`plot_plays`           candidate plays of a roll with their error bars
:func:`plot_cube_decision`   no double, double/take, double/pass by winning chances
:func:`plot_equity`          equity or match winning chance through a match, errors marked
:func:`plot_luck`            each player's luck added up through a match
:func:`plot_errors`          each player's errors by class
:func:`plot_met`             a match equity table as a heat map
:func:`plot_board`           a board diagram (:mod:`gammonlab.draw.mpl_board`)
===========================  ===================================================

This package imports matplotlib; ``import gammonlab`` does not import it until a
plot is asked for (``gl.plot_pips``).
"""

from __future__ import annotations

from ..draw.mpl_board import plot_board
from ._common import (
    EQUITY_COLUMNS,
    ERROR_KINDS,
    ERROR_MARKERS,
    GAME_BAND,
    HIT_COLOR,
    NEUTRAL,
    NEUTRAL_BAR,
    NEUTRAL_LIGHT,
    PlotDataError,
)
from .cube import plot_cube_decision, plot_met
from .matches import plot_equity, plot_errors, plot_gammon_rates, plot_luck, plot_pips
from .rollouts import plot_first_rolls, plot_plays, plot_rollout

__all__ = [
    "EQUITY_COLUMNS",
    "ERROR_KINDS",
    "ERROR_MARKERS",
    "GAME_BAND",
    "HIT_COLOR",
    "NEUTRAL",
    "NEUTRAL_BAR",
    "NEUTRAL_LIGHT",
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
