"""Board layout: the columns of a board row and the counts every kernel uses.

A board is an int8 array ``(2, 26)``: row 0 is the side on roll, row 1 its
opponent, each row in its own side's numbering (R1.1): column :data:`OFF`
holds the borne-off checkers, 1..24 the points (1-6 the home board), column
:data:`BAR` the bar. Our point ``p`` is the opponent's point ``25 - p``.

Plain integers, no numba: :mod:`gammonlab.rules` takes its constants from here,
and the kernels read them as compile-time constants.
"""

from __future__ import annotations

__all__ = [
    "BAR",
    "CHECKERS",
    "COLUMNS",
    "HOME",
    "OFF",
    "POINTS",
    "ROLLS",
    "START",
    "WINNER_HOME_LOW",
]

OFF = 0
"""Column of the borne-off checkers in a board row."""
BAR = 25
"""Column of the checkers on the bar in a board row."""
COLUMNS = 26
"""Columns of a board row: off, the 24 points, the bar."""
START = 26
"""Source of a checker entering from off the board (R11.1) in a moves array."""
POINTS = 24
"""Points on the board."""
HOME = 6
"""Points in a home board (R1.1): a side bears off from its points 1-6."""
WINNER_HOME_LOW = POINTS - HOME + 1
"""The lowest of a side's points in the opponent's home board (its points 19-24)."""
CHECKERS = 15
"""Checkers a side has in every variant but Hypergammon."""
ROLLS = 36
"""Ordered rolls of two dice: index ``6 * (die1 - 1) + (die2 - 1)``."""
