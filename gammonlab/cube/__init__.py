"""Cube decisions and cube theory, for money and match play.

Cubeless probabilities (GNU Backgammon's order: win, win gammon, win backgammon,
lose gammon, lose backgammon, from the player on roll; win includes gammons)
become cubeful equities through Rick Janowski's model, the way GNU Backgammon
1.07 evaluates cube decisions at 0-ply: the equity is ``x * live + (1 - x) *
dead``, where ``dead`` is the cubeless equity (the cube never turned again),
``live`` the equity of a perfectly efficient cube (linear between the cash
points) and ``x`` the cube efficiency (0.68 in contact positions). In match
play the same blend is taken in match winning chances, with live cash points
found from the match equity table level by level up the cube.

>>> decision = cube_decision(None, [0.70, 0.12, 0.005, 0.04, 0.002])
>>> decision.verdict
'Double, take'
>>> round(decision.double_take, 3), round(decision.no_double, 3)
(0.762, 0.683)
>>> round(take_point(cube_efficiency=0.0), 3), round(take_point(cube_efficiency=1.0), 3)
(0.25, 0.2)
"""

from . import theory
from .decision import CubeDecision, cube_decision
from .rollout import CubeRollout, rollout_cube
from .theory import *  # noqa: F403  (the names of theory.__all__)

__all__ = ["CubeDecision", "CubeRollout", "cube_decision", "rollout_cube", *theory.__all__]
