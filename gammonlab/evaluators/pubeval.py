"""Tesauro's pubeval as a policy.

pubeval (Gerald Tesauro, 1993) is a linear function of the board, published
with its weights as a benchmark opponent. It gives a *score* to the position
after a play, from the point of view of the side that played it; the play with
the highest score is pubeval's choice. The score is not a probability and not
an equity: there is no documented mapping from it to the five outcome
probabilities, and gammonlab does not invent one. So pubeval is a **policy**
(``gl.rollout(pos, policy="pubeval")``), not an evaluator: it has no
``evaluate``; use the bear-off database or the ``gnubg`` plug-in where
probabilities are needed.

Boards are ``(2, 26)`` int8 arrays seen from the mover: row 0 is the side that
has just moved, row 1 the opponent about to roll. The numba kernels live in
:mod:`gammonlab._kernels.pubeval` (``pubeval_best`` is what rollouts call);
this module wraps them with input checks. The policy itself is
:class:`~gammonlab.evaluators.base.PubevalPolicy` (``get_evaluator("pubeval")``).

>>> import numpy as np
>>> board = np.zeros((2, 26), dtype=np.int8)
>>> for point, count in ((24, 2), (13, 5), (8, 3), (6, 5)):
...     board[0, point] = board[1, point] = count
>>> round(pubeval_score(board), 4)
6.8405
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._kernels import pubeval as _k
from ..errors import InvalidPositionError

__all__ = ["is_race", "pubeval_best", "pubeval_score", "pubeval_scores"]


def _race_flag(race: bool | None) -> int:
    return -1 if race is None else int(bool(race))


def _boards(candidates: Any, what: str = "candidates") -> np.ndarray:
    array = np.ascontiguousarray(candidates, dtype=np.int8)
    if array.ndim == 2:
        array = array[np.newaxis]
    if array.ndim != 3 or array.shape[1:] != (2, 26):
        raise InvalidPositionError(
            f"{what}: expected boards of shape (k, 2, 26), got shape {np.shape(candidates)}"
        )
    return array


def _board(board: Any) -> np.ndarray:
    array = np.ascontiguousarray(board, dtype=np.int8)
    if array.shape != (2, 26):
        raise InvalidPositionError(
            f"expected a board of shape (2, 26), got shape {np.shape(board)}"
        )
    return array


def is_race(board: Any) -> bool:
    """Whether pubeval treats a position as a race (no contact).

    GNU Backgammon's rule: contact when the point numbers of the two sides'
    rearmost checkers (each in its own numbering, bar = 25) add up to more than
    24. Symmetric in the two rows.

    >>> import numpy as np
    >>> board = np.zeros((2, 26), dtype=np.int8)
    >>> board[0, 6] = board[1, 6] = 15
    >>> is_race(board)
    True
    """
    return bool(_k.pubeval_is_race(_board(board)))


def pubeval_score(board: Any, *, race: bool | None = None) -> float:
    """Pubeval's score of one board seen from the mover (higher is better for the mover).

    Parameters
    ----------
    board : array_like, shape (2, 26)
        The position after the play; row 0 has just moved.
    race : bool, optional
        Weights to use. pubeval decides on the position *before* the play;
        ``None`` classifies ``board`` itself (as GNU Backgammon's
        ``pub_eval_score`` does).

    Returns
    -------
    float
        The score, equal to GNU Backgammon's bit for bit; 1e8 when the mover
        has no checker left on the board.

    >>> import numpy as np
    >>> board = np.zeros((2, 26), dtype=np.int8)
    >>> board[0, 0], board[1, 6] = 15, 15
    >>> pubeval_score(board)
    100000000.0
    """
    return float(_k.pubeval_score(_board(board), _race_flag(race)))


def pubeval_scores(candidates: Any, *, race: bool | None = None) -> np.ndarray:
    """Scores (float64 array) of candidate boards ``(k, 2, 26)`` seen from the mover.

    ``race=None`` uses one classification for all of them: race when every
    candidate is a race (see :func:`pubeval_best`).

    >>> import numpy as np
    >>> boards = np.zeros((2, 2, 26), dtype=np.int8)
    >>> boards[:, 1, 6] = 15
    >>> boards[0, 0, 1], boards[0, 0, 0] = 1, 14
    >>> boards[1, 0, 2], boards[1, 0, 0] = 1, 14
    >>> pubeval_scores(boards).shape
    (2,)
    """
    return _k.pubeval_scores(_boards(candidates), _race_flag(race))


def pubeval_best(candidates: Any, *, race: bool | None = None) -> int:
    """Index of the play pubeval chooses among candidate resulting boards.

    Parameters
    ----------
    candidates : array_like, shape (k, 2, 26)
        The positions the legal plays lead to, each seen from the mover.
    race : bool, optional
        Whether the position *before* the play is a race (:func:`is_race`),
        which is how pubeval picks its weights. ``None`` infers it from the
        candidates (race when all of them are), which differs only when every
        legal play breaks contact.

    Returns
    -------
    int
        Index of the highest score; the first one on ties, as in GNU
        Backgammon. -1 if there is no candidate.

    >>> import numpy as np
    >>> boards = np.zeros((2, 2, 26), dtype=np.int8)
    >>> boards[:, 1, 6] = 15
    >>> boards[0, 0, 2], boards[0, 0, 0] = 1, 14
    >>> boards[1, 0, 0] = 15
    >>> pubeval_best(boards)
    1
    """
    array = _boards(candidates)
    return int(_k.pubeval_best(array, _race_flag(race)))
