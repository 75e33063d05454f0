"""How a rollout task plays its trials: whole games in numba kernels, or in
lockstep around an evaluator, for every variant (Acey-Deucey included, R11).

The options, the statistics and the scheduling live in :mod:`gammonlab.rollout`;
this module turns a :class:`_Spec` and a range of trial numbers into a
:class:`_Chunk` of results, the same wherever it runs.

>>> import numpy as np
>>> from gammonlab import Position
>>> from gammonlab.evaluators.base import get_evaluator
>>> spec = _Spec(roots=np.array(Position.initial().board)[np.newaxis],
...              policy=get_evaluator("pubeval"), key=1)
>>> _play_chunk(spec, 0, 36).probs.shape
(1, 36, 5)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._kernels import lockstep as _lock
from .._kernels import outcome as _outcome
from .._kernels import playout as _playout
from .._kernels.acey import waiting_on_bar
from .._kernels.policy import BEAROFF, NET
from ..evaluators.base import Policy, equity
from ..rules import CHECKERS


@dataclass(frozen=True, kw_only=True)
class _Spec:
    """Everything a worker needs to play trials of one rollout (picklable); by default
    the games start from the roots with no dice rolled, the first roll rotated, and are
    played out."""

    roots: np.ndarray  # (k, 2, 26) int8, row 0 on roll at start_ply
    start_ply: int = 0
    dice: tuple[int, int] | None = None
    policy: Policy
    evaluator: Policy | None = None
    key: int
    rotate: bool = True
    truncate: int = -1  # plies before a game is scored by the evaluator; -1: never
    bearoff_finish: bool = False
    enter_from_off: bool = False  # Acey-Deucey (R2.4, R11): start_ply is 0
    checkers: int = CHECKERS
    scoring: int = _outcome.STANDARD  # how finished games are counted: R8.2, or R8.4 (SEED_000)


@dataclass
class _Chunk:
    """Results of trials ``first .. first + n - 1`` of every root."""

    first: int
    probs: np.ndarray  # (k, n, 5) float64, from the root side
    plies: np.ndarray  # (k, n) int32
    end: np.ndarray  # (k, n) int8
    rolled: np.ndarray  # (n,) int64


def _tables(spec: _Spec) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if spec.bearoff_finish or spec.policy.kernel in (BEAROFF, NET):
        from ..evaluators.bearoff import BearoffDatabase

        db = BearoffDatabase.get()
        return db.expected, db.rolls, db.first_off
    return _NO_EXPECTED, _NO_ROLLS, _NO_FIRST_OFF


def _read_only(array: np.ndarray) -> np.ndarray:
    # the database's tables are read-only; unused stand-ins match them, so the
    # kernels are compiled once
    array.flags.writeable = False
    return array


_NO_EXPECTED = _read_only(np.zeros(1))
_NO_ROLLS = _read_only(np.zeros((1, 1)))
_NO_FIRST_OFF = _read_only(np.zeros((1, 1)))
_NO_LOG = _playout.no_log()
_NO_WEIGHTS = (
    np.zeros((2, 1, 1), dtype=np.float32),
    np.zeros((2, 1), dtype=np.float32),
    np.zeros((2, 5, 1), dtype=np.float32),
    np.zeros((2, 5), dtype=np.float32),
)


def _weights(spec: _Spec) -> tuple[np.ndarray, ...]:
    """The neural evaluator's weights for the net policy, stand-ins for the others."""
    if spec.policy.kernel == NET:
        return spec.policy.weights.arrays  # type: ignore[attr-defined]
    return _NO_WEIGHTS


def _play_chunk(spec: _Spec, first: int, n: int) -> _Chunk:
    """Play ``n`` trials from ``first`` (runs in a worker)."""
    # the net has no kernel for Acey-Deucey: it plays in lockstep like any evaluator
    in_kernel = spec.policy.kernel is not None and not (
        spec.enter_from_off and spec.policy.kernel == NET
    )
    play = _play_kernel if in_kernel else _play_lockstep
    chunk, boards, other_side = play(spec, first, n)
    truncated = chunk.end == _outcome.END_TRUNCATED
    if truncated.any() and spec.evaluator is not None:
        # one evaluator call for every truncated game of the chunk
        at = np.nonzero(truncated)
        boards = np.ascontiguousarray(boards[at])
        if spec.enter_from_off:
            boards = waiting_on_bar(boards, spec.checkers)
        probs = np.array(spec.evaluator(boards), dtype=np.float64)
        flip = other_side[at].astype(bool)
        if flip.any():
            probs[flip] = _outcome.flip_probabilities(probs[flip].copy())
        chunk.probs[at] = probs
    return chunk


def _play_kernel(spec: _Spec, first: int, n: int) -> tuple[_Chunk, np.ndarray, np.ndarray]:
    """Whole games in the playout kernel of the spec's variant."""
    k = spec.roots.shape[0]
    probs = np.empty((k, n, 5))
    plies = np.empty((k, n), dtype=np.int32)
    end = np.empty((k, n), dtype=np.int8)
    rolled = np.empty(n, dtype=np.int64)
    boards = np.empty((k, n, 2, 26), dtype=np.int8)
    side = np.empty((k, n), dtype=np.int8)
    expected, rolls, first_off = _tables(spec)
    d1, d2 = spec.dice or (0, 0)
    kernel = _playout.play_acey_trials if spec.enter_from_off else _playout.play_trials
    stuck = kernel(
        spec.roots,
        spec.start_ply,
        d1,
        d2,
        spec.policy.kernel,
        np.uint64(spec.key),
        first,
        spec.rotate,
        spec.truncate,
        spec.bearoff_finish,
        expected,
        rolls,
        first_off,
        (probs, plies, end, rolled, boards, side),
        spec.scoring,
        spec.checkers,
        _weights(spec),
        _NO_LOG,
    )
    if stuck:
        _too_long(f"trial {stuck - 1}")
    return _Chunk(first, probs, plies, end, rolled), boards, side


def _too_long(game: str) -> None:
    from ..errors import RolloutError

    raise RolloutError(f"{game} did not end within {_playout.MAX_PLIES} plays")


def _play_lockstep(spec: _Spec, first: int, n: int) -> tuple[_Chunk, np.ndarray, np.ndarray]:
    """Every game of the chunk advanced one ply at a time, one evaluator call per ply.

    Acey-Deucey (R2.4, R11) plays from ply 0 with no bear-off database and the
    roll again: each candidate is evaluated with the checkers waiting to enter
    on the bar (:func:`gammonlab._kernels.acey.waiting_on_bar`), from the
    opponent's side, who is on roll next, or from the mover's own when the
    play earns a roll again (a full 1-2, R11.2). Its plays are always
    generated here: a policy's own ``choose`` (GNU Backgammon's ``best_move``)
    knows nothing of entering from off the board or of the 1-2.
    """
    acey = spec.enter_from_off
    start_ply = 0 if acey else spec.start_ply
    k = spec.roots.shape[0]
    games = k * n
    boards = np.ascontiguousarray(np.repeat(spec.roots, n, axis=0))  # game = root * n + i
    trial = np.tile(np.arange(first, first + n, dtype=np.int64), k)
    ply = np.full(games, start_ply, dtype=np.int64)
    # the root's side is on roll at even plies
    side = np.full(games, start_ply % 2, dtype=np.int8)
    counter = np.zeros(games, dtype=np.int64)
    probs = np.full((games, 5), np.nan)
    end = np.zeros(games, dtype=np.int8)
    rolled = np.zeros(games, dtype=np.int64)
    dice = np.zeros((games, 2), dtype=np.int64)
    if acey:
        rolls, first_off, bearoff_finish = _NO_ROLLS, _NO_FIRST_OFF, False
        begin_ply, finish_ply = _lock.acey_begin_ply, _lock.acey_finish_ply
    else:
        _, rolls, first_off = _tables(spec)
        bearoff_finish = spec.bearoff_finish
        begin_ply, finish_ply = _lock.begin_ply, _lock.finish_ply
    d1, d2 = spec.dice or (0, 0)
    policy = spec.policy
    checkers = spec.checkers
    fast = not acey and type(policy).choose is not Policy.choose
    live = np.arange(games, dtype=np.int64)
    while live.size:
        offsets, candidates, again = begin_ply(
            live,
            trial,
            ply,
            start_ply,
            d1,
            d2,
            np.uint64(spec.key),
            spec.rotate,
            spec.truncate,
            bearoff_finish,
            rolls,
            first_off,
            counter,
            boards,
            probs,
            end,
            rolled,
            dice,
            not fast,
            spec.scoring,
            checkers,
        )
        if (end[live] < 0).any():
            _too_long("a game")
        playing = end[live] == 0
        active = live[playing]
        if fast:
            results = policy.choose(boards[active], dice[active])
            chosen = np.arange(active.size, dtype=np.int64)
            candidates = np.ascontiguousarray(results, dtype=np.int8)
            again = np.zeros(active.size, dtype=np.bool_)
        else:
            values = np.zeros(candidates.shape[0])
            counts = np.diff(offsets)
            game_of = np.repeat(np.arange(live.size), counts)
            # the policy plays as under R8.2 whatever the scoring: a candidate that
            # wins is worth its R8.2 points, the others the evaluator's R8.2 equity
            if acey:
                points = _outcome.acey_terminal_values(candidates, checkers)
            else:
                points = _outcome.terminal_values(candidates)
            values[points > 0] = points[points > 0]  # the mover has just won (R8.2)
            ask = (counts[game_of] > 1) & (points == 0)
            if ask.any():
                values[ask] = _ask(policy, candidates[ask], again[ask] if acey else None, checkers)
            chosen = _lock.best_candidates(offsets, values)[playing]
        finish_ply(
            active,
            chosen,
            candidates,
            again,
            ply,
            side,
            boards,
            probs,
            end,
            spec.scoring,
            checkers,
        )
        live = live[end[live] == 0]
    chunk = _Chunk(
        first,
        probs.reshape(k, n, 5),
        (ply - start_ply).reshape(k, n).astype(np.int32),
        end.reshape(k, n),
        rolled[:n].copy(),
    )
    return chunk, boards.reshape(k, n, 2, 26), side.reshape(k, n)


def _ask(
    policy: Policy, candidates: np.ndarray, mover_rolls: np.ndarray | None, checkers: int
) -> np.ndarray:
    """The mover's equities of candidate plays, from the evaluator: from the
    opponent's side, or in Acey-Deucey (``mover_rolls`` given) with the checkers
    waiting on the bar and from the mover's own side after a roll again."""
    if mover_rolls is None:
        return -equity(policy(np.ascontiguousarray(candidates[:, ::-1])))
    seen = waiting_on_bar(np.ascontiguousarray(candidates), checkers)
    asked = np.empty(seen.shape[0])
    if mover_rolls.any():
        asked[mover_rolls] = equity(policy(seen[mover_rolls]))
    if not mover_rolls.all():
        swapped = np.ascontiguousarray(seen[~mover_rolls][:, ::-1])
        asked[~mover_rolls] = -equity(policy(swapped))
    return asked
