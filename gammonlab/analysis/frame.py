"""The frame :func:`~gammonlab.analysis.summarise` returns: every column of the summary,
printed as its main figures.

A :class:`Summary` is a :class:`pandas.DataFrame` with all the summary's columns (select,
filter, write it as any frame); only its printed form differs: ``print(summary)`` and a
notebook show the main columns of :data:`BRIEF_COLUMNS`, rounded (in a terminal, wrapped
to pandas' ``display.width`` rather than cut), with a line saying how to see the rest.
:meth:`Summary.full` gives the frame with every column, printed as pandas prints any
frame; :meth:`Summary.brief` the main columns alone. Anything computed from a summary (a
selection, ``reset_index()``, ``round()``) is a plain DataFrame.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

__all__ = ["BRIEF_COLUMNS", "Summary"]

BRIEF_COLUMNS = (
    "player_name",
    "unforced",
    "checker_errors",
    "very_bad",
    "cube_errors",
    "checker_pr",
    "cube_pr",
    "pr",
    "luck",
    "result",
    "luck_adjusted_result",
)
"""The columns a summary prints: the player, unforced moves, checker errors (and the very
bad among them), cube errors, the performance ratings, luck, and the result with and
without the luck."""

_DIGITS = 2


class Summary(pd.DataFrame):
    """Each player's figures, one row per player (see :func:`~gammonlab.analysis.summarise`
    for the columns); printed as its main columns.

    >>> summary = Summary({"player_name": ["A", "B"], "pr": [4.123, 9.5], "moves": [20, 21]})
    >>> print(summary)
      player_name    pr
    0           A  4.12
    1           B  9.50
    <BLANKLINE>
    [2 rows; 3 columns, 2 shown: summary.full() shows all]
    >>> summary["moves"].tolist()
    [20, 21]
    """

    @property
    def _constructor(self) -> Any:
        # what is computed from a summary is a plain frame, printed as pandas prints it
        return pd.DataFrame

    def brief(self) -> pd.DataFrame:
        """The main columns (:data:`BRIEF_COLUMNS`, those present) as a plain frame."""
        return pd.DataFrame(self[[c for c in BRIEF_COLUMNS if c in self.columns]])

    def full(self) -> pd.DataFrame:
        """Every column, as a plain frame."""
        return pd.DataFrame(self)

    def _footer(self) -> str:
        shown = sum(c in self.columns for c in BRIEF_COLUMNS)
        rows = f"{len(self)} row{'s' if len(self) != 1 else ''}"
        return f"[{rows}; {len(self.columns)} columns, {shown} shown: summary.full() shows all]"

    def __repr__(self) -> str:
        # every main column, wrapped to pandas' display width rather than cut
        width = pd.get_option("display.width") or 80
        table = self.brief().round(_DIGITS).to_string(line_width=width)
        return f"{table}\n\n{self._footer()}"

    def _repr_html_(self) -> str | None:
        table = self.brief().round(_DIGITS)._repr_html_()
        return None if table is None else f"{table}<p><small>{self._footer()}</small></p>"
