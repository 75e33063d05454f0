"""The policies of a teaching board: the opponent's and the one that ranks a hint's plays;
looking one up by name, scoring the legal plays of a roll, picking the opponent's play.

>>> from gammonlab import Position
>>> start = Position.initial()
>>> plays = start.legal_plays((3, 1))
>>> rng = np.random.default_rng(0)
>>> plays[pick_play(find_policy("pubeval"), start, plays, rng=rng)].notation
'8/5 6/5'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..play import LegalPlays, Play
from ..position import Dice, Position
from ..rules import Variant
from .records import HINT_PLAYS, Hint

if TYPE_CHECKING:
    from ..evaluators.base import Policy

__all__ = ["empty_play", "find_hint_policy", "find_policy", "hint_for", "pick_play", "play_scores"]


def find_policy(value: str | Policy) -> Policy:
    """The policy ``value`` names (or is), as :func:`~gammonlab.evaluators.base.get_evaluator`
    finds it."""
    from ..evaluators.base import get_evaluator

    return get_evaluator(value)


def find_hint_policy(value: str | Policy | None, variant: Variant) -> Policy | None:
    """The policy that ranks a hint's plays in ``variant``: ``'net'`` is gammonlab's net
    where it is trained, pubeval elsewhere; ``None`` ranks none."""
    if isinstance(value, str) and value.lower() == "net":
        from ..evaluators.net import TRAINED_VARIANTS

        if variant.name not in TRAINED_VARIANTS:
            value = "pubeval"  # the net knows standard and Nackgammon games only
    return None if value is None else find_policy(value)


def empty_play(position: Position, dice: Dice) -> Play:
    """The empty play of a roll that cannot be played (R5.5, R6.6)."""
    return Play(position, dice, (), np.array(position.board))


def play_scores(policy: Policy, position: Position, plays: LegalPlays) -> np.ndarray:
    """The policy's score of each legal play of ``position``, higher is better."""
    board, candidates = position.board, plays.boards
    variant = position.variant
    if variant.enter_from_off:
        from ..evaluators.base import waiting_on_bar

        board = waiting_on_bar(board, variant.checkers)
        candidates = waiting_on_bar(candidates, variant.checkers)
    return np.asarray(policy.scores(board, candidates), dtype=np.float64)


def pick_play(
    policy: Policy, position: Position, plays: LegalPlays, *, rng: np.random.Generator
) -> int:
    """The index of the play ``policy`` makes: a random policy picks uniformly with ``rng``,
    any other the play it scores highest."""
    if len(plays) <= 1:
        return 0
    from ..evaluators.base import RandomPolicy

    if isinstance(policy, RandomPolicy):
        return int(rng.integers(len(plays)))
    return int(np.argmax(play_scores(policy, position, plays)))


def hint_for(policy: Policy | None, position: Position, dice: Dice, plays: LegalPlays) -> Hint:
    """The legal plays of ``dice`` on ``position``, at most :data:`HINT_PLAYS`, best first
    when there is a ranking ``policy``."""
    count = len(plays) if len(plays) > HINT_PLAYS else None
    if policy is None or len(plays) <= 1:
        shown = range(min(len(plays), HINT_PLAYS))
        choices = tuple(plays[i] for i in shown) or (empty_play(position, dice),)
        return Hint(dice=dice, choices=choices, count=count)
    scores = play_scores(policy, position, plays)
    order = np.argsort(-scores, kind="stable")[:HINT_PLAYS]
    ranked = tuple(plays[int(i)] for i in order)
    return Hint(dice=dice, choices=ranked, best=ranked[0], policy=policy.name, count=count)
