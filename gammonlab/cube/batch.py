"""Cubeful values of many positions at once: the batch form of the cube theory, for analysis.

Analysis judges every play of every roll, so it asks :mod:`gammonlab.cube`'s
arithmetic (the kernels of :mod:`gammonlab._kernels.cube`) for arrays of
probabilities at a time; a :class:`Cube` is the cube and score of
:mod:`gammonlab.cube.theory`, with its match winning chances memoised across
the positions of a match.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .decision import CubeDecision, _decide
from .theory import _cube_efficiencies as cube_efficiencies
from .theory import _cubeful_values as cubeful
from .theory import _option_values as options
from .theory import _Situation as Cube

__all__ = ["Cube", "Decision", "cube_efficiencies", "cubeful", "decide", "options", "value_on_roll"]

Decision = CubeDecision


def value_on_roll(p: np.ndarray, cube: Cube, x: np.ndarray) -> np.ndarray:
    """Value (money equity per cube, or MWC) for the player on roll, who doubles when right.

    GNU Backgammon's 0-ply evaluation of a position reached by a play (GetECF3):
    the player now on roll doubles when double/take and double/pass are both
    at least no double; the taker then takes or passes, whichever is better.
    """
    no_double, double_take, double_pass = options(p, cube, x)
    if double_take is None:
        return no_double
    doubles = (double_take >= no_double) & (double_pass >= no_double)
    return np.where(doubles, np.minimum(double_take, double_pass), no_double)


def decide(p: Any, cube: Cube, x: float) -> CubeDecision:
    """The proper cube action of the player on roll, as :func:`gammonlab.cube.cube_decision`."""
    return _decide(np.asarray(p, dtype=np.float64).reshape(-1), cube, x)
