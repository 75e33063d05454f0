"""Match analysis: checker-play and cube errors, luck and performance ratings.

:func:`analyse` judges every decision of a :class:`~gammonlab.match.Match` the
way GNU Backgammon's 0-ply analysis does and returns the action frame
(:meth:`Match.to_frame`) with analysis columns, row for row.
:func:`summarise` turns such a frame into one row per player: error counts and
rates, eXtreme Gammon's performance rating (PR), luck and a luck-adjusted
result. :func:`analyse_matches` analyses many files in parallel.

Equity
------
Equities are cubeful and normalised, as GNU Backgammon prints them: money play
in points per unit of the cube in play (+1 = winning the cube's value), match
play as match winning chances (MWC) mapped linearly onto the same scale
(+1 = winning the cube's points now, -1 = losing them). ``mwc_loss`` gives the
match-play losses in match winning chances (0.01 = 1%).

A play is judged by the position it leads to, with the opponent on roll: its
0-ply probabilities become a cubeful equity through Janowski's formulas at the
position's cube efficiency (:mod:`gammonlab.cube`), and the opponent's best
cube action is part of it (an opponent who should double, doubles), as in GNU
Backgammon's 0-ply evaluation. Cube decisions are those of
:func:`gammonlab.cube.cube_decision` on the position before the roll (GNU
Backgammon's comparisons); the cube arithmetic is :mod:`gammonlab.cube`'s own,
run over arrays of positions (:mod:`gammonlab._kernels.cube`).

Luck is GNU Backgammon's: the equity of the best play of the roll minus the
average of that over the 36 rolls, from the roller's side (for a game's first
roll, over the 30 non-doubles either player could open with). Errors are
classed with :data:`ERROR_THRESHOLDS`; the performance rating is eXtreme
Gammon's (:func:`performance_rating`), over unforced checker plays and close
or actual cube decisions.

Against GNU Backgammon 1.07's own 0-ply analyses the best play agrees in about
95% of unforced decisions, the equity lost within 0.01 in 99% or more and the
cube verdicts of clear decisions in 98% or more; the rest comes from the nets
(``gnubg-nn`` ships newer weights than 1.07) and, in match play, from the
positions GNU Backgammon judges with its exact two-sided bear-off database.

With ``evaluator="pubeval"`` there are no probabilities, so no equity: the
frame says which play pubeval prefers and how the play made ranks among the
legal plays (``play_rank``); every equity, error, luck and cube column is
missing (NaN). pubeval is a weak player: treat its verdicts as a sanity check,
not as analysis.

The package is split by topic: :mod:`~gammonlab.analysis.matches` (analysing),
:mod:`~gammonlab.analysis.summary` (per-player figures),
:mod:`~gammonlab.analysis.ratings` (error and luck classes, PR).

>>> from gammonlab.analysis import error_class, performance_rating
>>> error_class(0.07), performance_rating(1.0, 100)
('bad', 5.0)
"""

from __future__ import annotations

from .matches import (
    ANALYSIS_COLUMNS,
    CUBE_VERDICTS,
    analyse,
    analyse_matches,
    rank_plays,
    roll_luck,
)
from .ratings import (
    CLOSE_CUBE_DECISION,
    CUBE_ERRORS,
    ERROR_CLASSES,
    ERROR_THRESHOLDS,
    LUCK_CLASSES,
    LUCK_THRESHOLDS,
    PR_SCALE,
    error_class,
    luck_class,
    performance_rating,
)
from .summary import summarise

__all__ = [
    "ANALYSIS_COLUMNS",
    "CLOSE_CUBE_DECISION",
    "CUBE_ERRORS",
    "CUBE_VERDICTS",
    "ERROR_CLASSES",
    "ERROR_THRESHOLDS",
    "LUCK_CLASSES",
    "LUCK_THRESHOLDS",
    "PR_SCALE",
    "analyse",
    "analyse_matches",
    "error_class",
    "luck_class",
    "performance_rating",
    "rank_plays",
    "roll_luck",
    "summarise",
]
