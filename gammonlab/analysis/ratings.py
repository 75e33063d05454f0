"""How decisions and rolls are rated: error classes, luck classes, performance rating.

>>> [error_class(loss) for loss in (0.01, 0.035, 0.07, 0.2)]
['none', 'doubtful', 'bad', 'very bad']
>>> round(performance_rating(0.25, 50), 2)
2.5
"""

from __future__ import annotations

import math

__all__ = [
    "CLOSE_CUBE_DECISION",
    "CUBE_ERRORS",
    "ERROR_CLASSES",
    "ERROR_THRESHOLDS",
    "LUCK_CLASSES",
    "LUCK_THRESHOLDS",
    "PR_SCALE",
    "error_class",
    "luck_class",
    "performance_rating",
]

ERROR_THRESHOLDS = {"doubtful": 0.03, "bad": 0.06, "very bad": 0.12}
"""Equity lost (normalised, per decision) from which an error is doubtful, bad, very bad.

These are the limits GNU Backgammon 1.07 and 1.08 apply when they mark an
analysis (``?!``, ``?``, ``??``; the ``DO`` and ``BM`` marks of their SGF files):
every mark in the analysed files of the test corpus falls on them. Older
sources quote 0.04, 0.08 and 0.16; pass ``thresholds=`` to use other limits.
"""
ERROR_CLASSES = ("none", "doubtful", "bad", "very bad")
"""Categories of ``error_class`` and ``cube_error_class``, from no error to the worst."""
LUCK_THRESHOLDS = {"very lucky": 0.6, "lucky": 0.3, "unlucky": -0.3, "very unlucky": -0.6}
"""GNU Backgammon's limits for a very lucky, lucky, unlucky and very unlucky roll."""
LUCK_CLASSES = ("very unlucky", "unlucky", "none", "lucky", "very lucky")
CUBE_ERRORS = (
    "none",
    "missed double",
    "wrong double",
    "wrong take",
    "wrong pass",
    "wrong beaver",
    "missed beaver",
)
"""Categories of ``cube_error``."""
CLOSE_CUBE_DECISION = 0.16
"""A cube decision not taken counts (for rates and PR) when doubling would have cost
less than this, as in GNU Backgammon's "close or actual cube decisions"."""
PR_SCALE = 500.0
"""eXtreme Gammon's performance rating: 500 times the mean equity lost per decision."""


def error_class(loss: float, thresholds: dict[str, float] | None = None) -> str:
    """The class of an error: ``'none'``, ``'doubtful'``, ``'bad'`` or ``'very bad'``.

    Parameters
    ----------
    loss : float
        Normalised equity lost by the decision (0 for the best one).
    thresholds : dict, optional
        Limits by class name; :data:`ERROR_THRESHOLDS` by default.

    >>> error_class(0.05), error_class(0.05, {"doubtful": 0.04, "bad": 0.08, "very bad": 0.16})
    ('doubtful', 'doubtful')
    >>> error_class(0.13)
    'very bad'
    """
    limits = thresholds or ERROR_THRESHOLDS
    for name in ("very bad", "bad", "doubtful"):
        if loss >= limits[name]:
            return name
    return "none"


def luck_class(luck: float) -> str:
    """GNU Backgammon's verdict on a roll from its luck (normalised equity).

    >>> luck_class(0.45), luck_class(-0.7), luck_class(0.1)
    ('lucky', 'very unlucky', 'none')
    """
    if luck >= LUCK_THRESHOLDS["very lucky"]:
        return "very lucky"
    if luck >= LUCK_THRESHOLDS["lucky"]:
        return "lucky"
    if luck <= LUCK_THRESHOLDS["very unlucky"]:
        return "very unlucky"
    if luck <= LUCK_THRESHOLDS["unlucky"]:
        return "unlucky"
    return "none"


def performance_rating(equity_lost: float, decisions: int) -> float:
    """eXtreme Gammon's performance rating: 500 times the mean equity lost per decision.

    Parameters
    ----------
    equity_lost : float
        Total normalised equity lost over the decisions (checker plays and cube).
    decisions : int
        Decisions counted: unforced checker plays, and cube decisions that were
        taken or close (:data:`CLOSE_CUBE_DECISION`).

    Returns
    -------
    float
        NaN without decisions. Lower is better; world-class play is below about 4.

    >>> performance_rating(1.0, 100)
    5.0
    """
    return PR_SCALE * equity_lost / decisions if decisions else math.nan
