"""Evaluators and policies: the protocol, the built-in ones and the registry.

An **evaluator** maps a batch of positions to outcome probabilities::

    boards (n, 2, 26) int8  ->  probabilities (n, 5) float64

Boards are gammonlab's: row 0 the side on roll, row 1 its opponent, each in its
own numbering (column 0 off, 1..24 points, 25 bar). The five columns are GNU
Backgammon's, from the side on roll: win, win gammon, win backgammon, lose
gammon, lose backgammon; win includes gammons and gammons include
backgammons. Any Python callable with that signature is an evaluator
(:func:`get_evaluator` wraps it).

Acey-Deucey (R2.4, R11): a side's checkers that have not entered yet stand
nowhere on its board row (``15 - row.sum()`` of them). Evaluators and
policies are never shown such boards: rollouts hand them the board with those
checkers **on the bar** (:func:`waiting_on_bar`), since they enter into the
opponent's home board exactly as checkers on the bar do (R6.4, R11.1), so an
evaluator always sees 15 checkers a side and a side still to enter is in
contact (no race or bear-off shortcut applies to it). pubeval, which has no
input for the mover's own bar, is blind to the mover's waiting checkers; GNU
Backgammon's nets were trained on positions with a few checkers on the bar and
give saturated, meaningless outputs with many there (the Acey-Deucey start, 15
a side on the bar, comes out as a certain backgammon for the side on roll).

A **policy** picks a play: among the positions the legal plays lead to, the
one best for the mover. Every evaluator is a policy (it evaluates each result
from the opponent's side, who is on roll next, and the mover takes the highest
cubeless equity); some policies give no probabilities at all:

========== ========= =============================================================
name       evaluator policy
========== ========= =============================================================
random     no        uniform over the legal plays (unique by resulting position)
pubeval    no        Tesauro's pubeval (:mod:`gammonlab.evaluators.pubeval`)
bearoff    yes       the bear-off database: exact one-sided tables, two-sided
                     estimate (:func:`gammonlab.evaluators.bearoff.evaluate_bearoff`),
                     extended to every race by one-sided playouts; as a policy it
                     plays pubeval until the mover bears off in a race
gnubg      yes       GNU Backgammon's neural nets via ``gnubg-nn`` (optional extra
                     ``gammonlab[gnubg]``; :mod:`gammonlab.evaluators.gnubg`)
========== ========= =============================================================

``random``, ``pubeval`` and ``bearoff`` run inside numba kernels in rollouts
(whole games per kernel call); ``gnubg`` and callables are called from Python,
once per ply for many games at a time.

>>> import numpy as np
>>> from gammonlab import Position
>>> boards = np.stack([Position.initial().board])
>>> flat = get_evaluator(lambda b: np.tile([0.5, 0.1, 0.0, 0.1, 0.0], (len(b), 1)))
>>> flat(boards).tolist()
[[0.5, 0.1, 0.0, 0.1, 0.0]]
>>> equity(flat(boards)).tolist()
[0.0]
>>> get_evaluator("pubeval").evaluates
False
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from .._kernels import pubeval as _pubeval
from .._kernels.acey import waiting_on_bar as _waiting_on_bar
from .._kernels.bearoff import bearoff_index_row
from .._kernels.outcome import terminal_values
from .._kernels.policy import BEAROFF, PUBEVAL, RANDOM
from .._kernels.race import race_probabilities
from ..errors import EvaluatorError, InvalidPositionError

__all__ = [
    "PROBABILITY_NAMES",
    "BearoffEvaluator",
    "CallableEvaluator",
    "Evaluator",
    "EvaluatorError",
    "Policy",
    "PubevalPolicy",
    "RandomPolicy",
    "available_evaluators",
    "check_boards",
    "equity",
    "finished_probabilities",
    "get_evaluator",
    "register_evaluator",
    "waiting_on_bar",
]

PROBABILITY_NAMES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
"""The five columns of an evaluator's output, in GNU Backgammon's order."""

_BOARD_SHAPE = (2, 26)
_N_OUTCOMES = 5
_PROBABILITY_SLACK = 1e-6  # float32 nets (GNU Backgammon's) round a little outside [0, 1]


def equity(probabilities: Any, scoring: str = "standard") -> np.ndarray:
    """Cubeless money equity of probabilities ``(..., 5)``.

    Under R8.2 (``scoring='standard'``: 1, 2, 3 points)
    ``win - lose + win_gammon - lose_gammon + win_backgammon - lose_backgammon``
    with ``lose = 1 - win``: points won per game on average, cube ignored.
    Under seed 000's scoring (``'seed-000'``, R8.4: 1, 2, 4 points) the columns
    are P(win), P(win 2 or more), P(win 4) and their losing counterparts, and
    the top class adds 2 points over the middle one instead of 1.

    >>> equity([1.0, 1.0, 0.0, 0.0, 0.0]).item()
    2.0
    >>> top = [1.0, 1.0, 1.0, 0.0, 0.0]
    >>> equity(top).item(), equity(top, "seed-000").item()
    (3.0, 4.0)
    """
    p = np.asarray(probabilities, dtype=np.float64)
    if scoring == "seed-000":
        return 2.0 * p[..., 0] - 1.0 + p[..., 1] - p[..., 3] + 2.0 * p[..., 2] - 2.0 * p[..., 4]
    if scoring != "standard":
        raise EvaluatorError(
            f"unknown scoring {scoring!r}; known: standard (R8.2), seed-000 (R8.4)"
        )
    return 2.0 * p[..., 0] - 1.0 + p[..., 1] - p[..., 3] + p[..., 2] - p[..., 4]


def check_boards(boards: Any, what: str = "boards") -> np.ndarray:
    """Boards as a C-contiguous int8 array ``(n, 2, 26)``; one ``(2, 26)`` board
    becomes a batch of one.

    >>> check_boards(np.zeros((2, 26))).shape
    (1, 2, 26)
    """
    try:
        array = np.ascontiguousarray(boards, dtype=np.int8)
    except (TypeError, ValueError) as exc:
        raise InvalidPositionError(f"{what}: not an array of boards ({exc})") from None
    if array.ndim == 2:
        array = array[np.newaxis]
    if array.ndim != 3 or array.shape[1:] != _BOARD_SHAPE:
        raise InvalidPositionError(
            f"{what}: expected boards of shape (n, 2, 26) (side on roll, opponent; off, "
            f"points 1-24, bar), got shape {np.shape(boards)}"
        )
    return array


def waiting_on_bar(boards: Any, checkers: int = 15) -> np.ndarray:
    """Acey-Deucey boards as an evaluator that knows no Acey-Deucey should see them.

    A checker waiting to enter (R2.4) is on no point, so it would look borne
    off; each side's waiting checkers (``checkers - row.sum()``) are put on its
    bar instead, which they are like: 25 pips from home, entering on the
    opponent's home board (R11.1). A copy is returned, one board for one board
    ``(2, 26)``, boards for boards ``(n, 2, 26)``.

    >>> b = np.zeros((2, 26), dtype=np.int8)
    >>> b[0, 6] = 3
    >>> waiting_on_bar(b)[:, 25].tolist()
    [12, 15]
    """
    single = np.ndim(boards) == 2
    array = check_boards(boards)
    if (array.astype(np.int64).sum(axis=2) > checkers).any():
        raise InvalidPositionError(
            f"{_what_side(array, checkers)} has more than {checkers} checkers on the board"
        )
    shown = _waiting_on_bar(array, int(checkers))
    return shown[0] if single else shown


def _what_side(boards: np.ndarray, checkers: int) -> str:
    i, side = (int(x) for x in np.argwhere(boards.astype(np.int64).sum(axis=2) > checkers)[0])
    return f"board {i}: {'the side on roll' if side == 0 else 'the opponent'}"


def finished_probabilities(boards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which boards are finished games, and their exact probabilities (R8.1, R8.2).

    A side with no checker left on the board has won. Returns ``(mask, probs)``
    with ``probs`` rows defined where ``mask`` is true, from the side on roll.

    >>> b = np.zeros((1, 2, 26), dtype=np.int8)
    >>> b[0, 0, 0], b[0, 1, 6] = 15, 15
    >>> mask, probs = finished_probabilities(b)
    >>> mask.tolist(), probs[0].tolist()
    ([True], [1.0, 1.0, 0.0, 0.0, 0.0])
    """
    boards = check_boards(boards)
    won = terminal_values(boards)  # the side on roll has no checker left: its points
    lost = terminal_values(np.ascontiguousarray(boards[:, ::-1]))
    probs = np.zeros((boards.shape[0], _N_OUTCOMES))
    probs[:, 0] = won > 0
    probs[:, 1] = won >= 2
    probs[:, 2] = won >= 3
    probs[:, 3] = lost >= 2
    probs[:, 4] = lost >= 3
    return (won > 0) | (lost > 0), probs


def _check_probabilities(probs: Any, n: int, name: str) -> np.ndarray:
    out = np.asarray(probs, dtype=np.float64)
    if out.shape != (n, _N_OUTCOMES):
        raise EvaluatorError(
            f"evaluator {name!r} returned shape {out.shape} for {n} boards; "
            f"expected ({n}, 5): win, win gammon, win backgammon, lose gammon, lose backgammon"
        )
    if n and not np.isfinite(out).all():
        raise EvaluatorError(f"evaluator {name!r} returned a NaN or infinite probability")
    if n and ((out < -_PROBABILITY_SLACK).any() or (out > 1 + _PROBABILITY_SLACK).any()):
        raise EvaluatorError(f"evaluator {name!r} returned a probability outside [0, 1]")
    return out


class Policy:
    """A way to choose plays. Subclasses set :attr:`name` and either :attr:`kernel`
    (a built-in numba policy) or implement :meth:`Evaluator.__call__`.

    Attributes
    ----------
    name : str
        The registry name, recorded in rollout settings.
    kernel : int or None
        Code of the numba policy that plays it inside rollout kernels.
    evaluates : bool
        Whether it gives probabilities (is an :class:`Evaluator`).
    """

    name: str = "policy"
    kernel: int | None = None
    evaluates: bool = False

    def __call__(self, boards: Any) -> np.ndarray:
        raise EvaluatorError(
            f"{self.name!r} is a policy: it chooses plays but gives no "
            f"probabilities; use an evaluator such as 'bearoff' or 'gnubg'"
        )

    def scores(self, board: np.ndarray, candidates: np.ndarray) -> np.ndarray:
        """How good each candidate (resulting board seen from the mover) is for the
        mover, higher better; used to rank plays before rolling them out."""
        race = int(_pubeval.pubeval_is_race(np.ascontiguousarray(board, dtype=np.int8)))
        return _pubeval.pubeval_scores(check_boards(candidates), race)

    def choose(self, boards: np.ndarray, dice: np.ndarray) -> np.ndarray | None:
        """Optional fast path: the resulting board (seen from the mover) of the play
        chosen on each ``(board, dice)``; a board with no legal play comes back
        unchanged. ``None`` means "not provided"."""
        return None

    def __repr__(self) -> str:
        return f"get_evaluator({self.name!r})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.__dict__ == self.__dict__

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.name))


class Evaluator(Policy):
    """An evaluator: ``evaluator(boards)`` gives ``(n, 5)`` probabilities.

    Subclasses implement :meth:`evaluate_positions` for games still in play;
    finished games are scored exactly here (R8.2), and the output is checked.
    """

    evaluates = True

    def __call__(self, boards: Any) -> np.ndarray:
        """Probabilities ``(n, 5)`` of boards ``(n, 2, 26)`` from the side on roll."""
        array = check_boards(boards)
        finished, probs = finished_probabilities(array)
        playing = ~finished
        if playing.any():
            inner = array[playing] if not playing.all() else array
            probs[playing] = _check_probabilities(
                self.evaluate_positions(inner), int(inner.shape[0]), self.name
            )
        return probs

    def evaluate_positions(self, boards: np.ndarray) -> np.ndarray:
        """Probabilities of games in progress (``(n, 2, 26)`` int8, none finished).

        The one method a subclass must implement; this one raises
        :class:`NotImplementedError`, Python's protocol for an abstract method."""
        raise NotImplementedError(
            f"{type(self).__name__} ({self.name!r}) does not implement "
            "evaluate_positions, which every Evaluator must"
        )

    def scores(self, board: np.ndarray, candidates: np.ndarray) -> np.ndarray:
        """The mover's cubeless equity after each candidate (0-ply)."""
        swapped = np.ascontiguousarray(check_boards(candidates)[:, ::-1])
        return -equity(self(swapped))


class RandomPolicy(Policy):
    """Uniformly random among the legal plays (unique by resulting position).

    Before a rollout of several candidate plays, it ranks them like pubeval.

    >>> RandomPolicy().kernel == RANDOM
    True
    """

    name = "random"
    kernel = RANDOM


class PubevalPolicy(Policy):
    """Tesauro's pubeval: the play with the highest pubeval score.

    The weights (race or contact) are chosen on the position before the play,
    as pubeval prescribes and GNU Backgammon does.

    >>> PubevalPolicy().evaluates
    False
    """

    name = "pubeval"
    kernel = PUBEVAL


class BearoffEvaluator(Evaluator):
    """The bear-off database as an evaluator of races and a policy.

    As an evaluator it handles every race (no contact):

    - pure bear-offs (every checker of both sides in its home board): the
      two-sided estimate of :func:`gammonlab.evaluators.bearoff.evaluate_bearoff`,
      each side's roll distribution exact for its one-sided play;
    - other races: each side's distributions (rolls to finish, to the first
      checker off, to leave the opponent's home board) from 1,296 one-sided
      playouts that bring its checkers home and then continue exactly with the
      database (:func:`gammonlab._kernels.race.one_sided_race`), combined
      as two independent sides. This is an approximation (a fixed bear-in
      rule, independent sides), like GNU Backgammon's one-sided rollout (OSR)
      evaluation, with which it agrees to a few thousandths on average; it is
      deterministic.

    Positions with contact raise :class:`~gammonlab.errors.InvalidPositionError`.

    As a policy (``policy="bearoff"``): when the mover bears off in a race it
    plays the database's play: the highest cubeless equity by the two-sided
    estimate when the opponent bears off too, the fewest expected rolls
    otherwise; anywhere else it plays pubeval.

    >>> b = np.zeros((2, 26), dtype=np.int8)
    >>> b[0, 1], b[0, 0], b[1, 6], b[1, 0] = 1, 14, 1, 14
    >>> get_evaluator("bearoff")(b).tolist()
    [[1.0, 0.0, 0.0, 0.0, 0.0]]
    """

    name = "bearoff"
    kernel = BEAROFF

    def evaluate_positions(self, boards: np.ndarray) -> np.ndarray:
        from .bearoff import BearoffDatabase

        db = BearoffDatabase.get()
        probs = race_probabilities(boards, db.expected, db.rolls, db.first_off)
        contact = np.flatnonzero(np.isnan(probs[:, 0]))
        if contact.size:
            raise InvalidPositionError(
                f"the bear-off evaluator handles races only; board {int(contact[0])} has "
                f"contact: {boards[contact[0]].tolist()}"
            )
        return probs

    def scores(self, board: np.ndarray, candidates: np.ndarray) -> np.ndarray:
        """Database equity when both sides bear off, minus expected rolls when only
        the mover does, pubeval scores otherwise."""
        from .bearoff import BearoffDatabase

        cands = check_boards(candidates)
        board = np.ascontiguousarray(board, dtype=np.int8)
        mover_home = bearoff_index_row(board[0]) >= 0
        if not (_pubeval.pubeval_is_race(board) and mover_home):
            return super(Evaluator, self).scores(board, cands)
        if bearoff_index_row(board[1]) >= 0:
            return super().scores(board, cands)
        expected = BearoffDatabase.get().expected
        return np.array([-expected[bearoff_index_row(c[0])] for c in cands])


class CallableEvaluator(Evaluator):
    """Any Python callable meeting the evaluator protocol, checked on every call.

    >>> ev = CallableEvaluator(lambda b: np.full((len(b), 5), 0.25), name="flat")
    >>> ev.name, ev(np.zeros((3, 2, 26), dtype=np.int8)).shape
    ('flat', (3, 5))
    """

    def __init__(self, function: Callable[[np.ndarray], Any], name: str | None = None) -> None:
        if not callable(function):
            raise EvaluatorError(f"an evaluator must be callable, got {function!r}")
        self.function = function
        self.name = name or getattr(function, "__qualname__", None) or repr(function)

    def __call__(self, boards: Any) -> np.ndarray:
        array = check_boards(boards)
        return _check_probabilities(self.function(array), int(array.shape[0]), self.name)

    def evaluate_positions(self, boards: np.ndarray) -> np.ndarray:
        return self(boards)

    def __repr__(self) -> str:
        return f"CallableEvaluator({self.function!r}, name={self.name!r})"


def _gnubg() -> Policy:
    from .gnubg import GnubgEvaluator

    return GnubgEvaluator()


def _net() -> Policy:
    from .net import NetEvaluator

    return NetEvaluator()


_FACTORIES: dict[str, Callable[[], Policy]] = {
    "random": RandomPolicy,
    "pubeval": PubevalPolicy,
    "bearoff": BearoffEvaluator,
    "gnubg": _gnubg,
    "net": _net,
}
_INSTANCES: dict[str, Policy] = {}
_LOCK = threading.Lock()


def register_evaluator(name: str, factory: Callable[[], Any], *, replace: bool = False) -> None:
    """Make ``get_evaluator(name)`` build an evaluator or policy with ``factory()``.

    The factory may return a :class:`Policy` or a plain callable (wrapped in
    :class:`CallableEvaluator`). Built once, on first use.

    >>> register_evaluator("coin", lambda: (lambda b: np.full((len(b), 5), [.5, 0, 0, 0, 0])))
    >>> get_evaluator("coin").name
    'coin'
    """
    key = name.lower()
    with _LOCK:
        if key in _FACTORIES and not replace:
            raise EvaluatorError(f"an evaluator named {name!r} is already registered")
        _FACTORIES[key] = factory
        _INSTANCES.pop(key, None)


def available_evaluators() -> list[str]:
    """Registered names (``gnubg`` is listed whether or not ``gnubg-nn`` is installed).

    >>> available_evaluators()[:4]
    ['random', 'pubeval', 'bearoff', 'gnubg']
    """
    return list(_FACTORIES)


def get_evaluator(evaluator: str | Policy | Callable[[np.ndarray], Any]) -> Policy:
    """The evaluator or policy for a name, an instance, or a Python callable.

    Parameters
    ----------
    evaluator : str, Policy or callable
        A registered name (``'random'``, ``'pubeval'``, ``'bearoff'``, ``'gnubg'``,
        see :func:`available_evaluators`), an object returned by this function,
        or a callable mapping boards ``(n, 2, 26)`` to probabilities ``(n, 5)``.

    Raises
    ------
    EvaluatorError
        Unknown name or not callable.
    gammonlab.errors.MissingDependencyError
        ``'gnubg'`` without the ``gnubg-nn`` package.

    >>> get_evaluator("PubEval").name
    'pubeval'
    >>> get_evaluator("bearoff") is get_evaluator("bearoff")
    True
    """
    if isinstance(evaluator, Policy):
        return evaluator
    if isinstance(evaluator, str):
        key = evaluator.lower()
        with _LOCK:
            instance = _INSTANCES.get(key)
            factory = _FACTORIES.get(key)
        if instance is not None:
            return instance
        if factory is None:
            raise EvaluatorError(
                f"unknown evaluator or policy {evaluator!r}; "
                f"known: {', '.join(available_evaluators())}"
            )
        built = factory()
        if not isinstance(built, Policy):
            built = CallableEvaluator(built, name=key)
        with _LOCK:
            return _INSTANCES.setdefault(key, built)
    if callable(evaluator):
        return CallableEvaluator(evaluator)
    raise EvaluatorError(f"expected an evaluator name, a Policy or a callable, got {evaluator!r}")
