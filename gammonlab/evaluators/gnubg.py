"""GNU Backgammon's neural nets as an evaluator and a policy, through ``gnubg-nn``.

``gnubg-nn`` (GPL) packages GNU Backgammon's evaluation code and weights. It is
an optional extra: ``pip install -e ".[gnubg]"`` in a checkout. Without it,
``get_evaluator("gnubg")`` raises :class:`~gammonlab.errors.MissingDependencyError`.

- As an **evaluator**, each board is evaluated at 0-ply with
  ``gnubg_nn.probabilities(board, 0)``: the neural nets for contact, crashed
  and race positions, GNU Backgammon's bear-off databases where they apply
  (exact two-sided for up to six checkers a side on the six home points).
- As a **policy**, a play is chosen by ``gnubg_nn.best_move(board, d1, d2)``:
  GNU Backgammon's own 0-ply choice, made inside its C code (one call per
  game and ply), which is much faster than evaluating every candidate from
  Python.
- ``GnubgEvaluator(plies=1)`` (or 2) evaluates and plays with GNU Backgammon's
  own look-ahead of one (or two) rolls instead, about 60 times as slowly for
  each ply: a stronger yardstick.

Acey-Deucey (R11): checkers still waiting to enter are shown to the nets on
the bar (:func:`~gammonlab.evaluators.base.waiting_on_bar`; rollouts do it),
as they enter like checkers on the bar (R6.4, R11.1). The nets were not
trained on such positions: with many checkers on the bar their output
saturates (the start, 15 a side on the bar, evaluates as a certain backgammon
for the side on roll), so their early choices are close to arbitrary; their
bear-off and race evaluations assume ordinary dice, not the 1-2 rule (R11.2).
``best_move`` knows neither: Acey-Deucey rollouts evaluate every candidate.

GNU Backgammon's board (``[2][25]`` lists) has row 0 = the side *not* on roll
and row 1 = the side on roll, index 0..23 = points 1..24 and 24 = the bar,
each row in its own numbering; gammonlab's board ``b`` becomes
``b[::-1, 1:]``.

Only ``probabilities`` and ``best_move`` are called: ``gnubg_nn.rollout`` and
``gnubg_nn.boardfromkey`` are known to crash in 1.1.0a11. The module is not
thread-safe; rollouts call it from one thread per process.

>>> import numpy as np
>>> from gammonlab import Position
>>> ev = GnubgEvaluator()
>>> ev(Position.initial().board).round(2).tolist()
[[0.52, 0.15, 0.01, 0.13, 0.01]]
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np

from .._kernels.lockstep import apply_steps
from ..errors import EvaluatorError, MissingDependencyError
from .base import Evaluator, check_boards

__all__ = ["GnubgEvaluator", "gnubg_board", "import_gnubg"]

_MAX_MOVES = 4
_PLIES = (0, 1, 2)
"""The look-aheads asked of GNU Backgammon: 0 is the nets' own output."""
_NO_MOVE = (-1, -1)


def import_gnubg() -> ModuleType:
    """The ``gnubg_nn`` module, or a :class:`MissingDependencyError` saying how to get it.

    >>> import_gnubg().__name__
    'gnubg_nn'
    """
    try:
        import gnubg_nn
    except ImportError as exc:
        raise MissingDependencyError(
            "the 'gnubg' evaluator needs GNU Backgammon's nets from the gnubg-nn package: "
            'pip install -e ".[gnubg]" in a gammonlab checkout (or: pip install gnubg-nn)'
        ) from exc
    return gnubg_nn


def gnubg_board(board: Any) -> list[list[int]]:
    """GNU Backgammon's ``[2][25]`` board of a gammonlab board (row 0 on roll).

    >>> from gammonlab import Position
    >>> gnubg_board(Position.initial().board)[1][23]
    2
    """
    array = np.asarray(board)
    return array[::-1, 1:].tolist()


class GnubgEvaluator(Evaluator):
    """GNU Backgammon's evaluation (``gnubg-nn``) as an evaluator and a policy.

    Built by ``get_evaluator("gnubg")`` (0-ply); checks that ``gnubg-nn`` is
    installed. Picklable (the module is imported again in each process).

    Parameters
    ----------
    plies : int
        GNU Backgammon's look-ahead: 0 (its nets' own output), 1 or 2 rolls.
    """

    name = "gnubg"

    def __init__(self, plies: int = 0) -> None:
        if isinstance(plies, bool) or plies not in _PLIES:
            raise EvaluatorError(f"GNU Backgammon evaluates at 0, 1 or 2 plies, not {plies!r}")
        import_gnubg()
        self.plies = int(plies)

    def evaluate_positions(self, boards: np.ndarray) -> np.ndarray:
        """``gnubg_nn.probabilities(board, plies)`` for each board, from the side on roll."""
        gnubg = import_gnubg()
        probabilities = gnubg.probabilities
        lists = np.ascontiguousarray(boards[:, ::-1, 1:]).tolist()
        plies = self.plies
        return np.array([probabilities(b, plies) for b in lists], dtype=np.float64)

    def choose(self, boards: np.ndarray, dice: np.ndarray) -> np.ndarray:
        """The board after GNU Backgammon's play at ``plies`` on each board and roll.

        A roll with no legal play (R5.5) leaves the board unchanged.
        """
        gnubg = import_gnubg()
        best_move = gnubg.best_move
        plies = self.plies
        boards = check_boards(boards)
        lists = np.ascontiguousarray(boards[:, ::-1, 1:]).tolist()
        rolls = np.asarray(dice).tolist()
        padding = [_NO_MOVE * k for k in range(_MAX_MOVES, -1, -1)]
        flat = []
        for board, (d1, d2) in zip(lists, rolls):
            moves = best_move(board, d1, d2, plies)
            row: tuple[int, ...] = ()
            for step in moves:
                row += step
            flat.append(row + padding[len(moves)])
        steps = np.array(flat, dtype=np.int8).reshape(len(lists), _MAX_MOVES, 2)
        return apply_steps(boards, steps)

    def __repr__(self) -> str:
        return f"GnubgEvaluator(plies={self.plies})" if self.plies else "get_evaluator('gnubg')"
