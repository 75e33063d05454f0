"""Evaluating every play of a roll: an evaluator's batch, or gnubg-nn's own move list."""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numba import njit

from ..errors import AnalysisError, OptionError
from ..rules import CHECKERS

if TYPE_CHECKING:
    from ..evaluators.base import Policy
    from ..position import Position

ROLLS = tuple((high, low) for high in range(1, 7) for low in range(1, high + 1))
"""The 21 distinct rolls, ``(high, low)``."""
ROLL_WEIGHTS = np.array([1.0 if high == low else 2.0 for high, low in ROLLS])
"""How many of the 36 rolls each of :data:`ROLLS` stands for."""
ROLL_INDEX = {roll: i for i, roll in enumerate(ROLLS)}
OPENING_ROLLS = tuple(i for i, (high, low) in enumerate(ROLLS) if high != low)
"""The rolls that can start a game (R3.1: equal numbers roll again)."""
_KEY_CHECK = 1e-4  # gnubg-nn's list equity and its probabilities must agree this well
_SLOTS = 50  # two sides of 25 slots (24 points and the bar) in GNU Backgammon's position key


def decode_keys(keys: Sequence[str], checkers: int) -> np.ndarray:
    """Boards ``(n, 2, 26)`` (mover first) from gnubg-nn's 20-letter position keys.

    A key is the 10 bytes of GNU Backgammon's position key, one letter ``A``-``P``
    per half byte, high half first; its bits, least significant first, give each
    slot's checkers in unary (n ones, then a zero).
    """
    letters = np.frombuffer("".join(keys).encode("ascii"), dtype=np.uint8)
    return _decode_key_letters(letters.reshape(len(keys), 20), checkers)


@njit(cache=True)
def _decode_key_letters(letters, checkers):  # pragma: no cover - compiled
    n = letters.shape[0]
    boards = np.zeros((n, 2, 26), dtype=np.int8)
    for k in range(n):
        slot = 0
        for byte in range(10):
            value = (letters[k, 2 * byte] - 65) * 16 + (letters[k, 2 * byte + 1] - 65)
            for bit in range(8):
                if slot >= _SLOTS:
                    break
                if (value >> bit) & 1:
                    boards[k, slot // 25, slot % 25 + 1] += 1
                else:
                    slot += 1
        for side in range(2):
            on_board = 0
            for point in range(1, 26):
                on_board += boards[k, side, point]
            boards[k, side, 0] = checkers - on_board
    return boards


@dataclass
class Rolls:
    """The positions the plays of several rolls lead to, and how good they are.

    ``boards`` are seen from the mover; rows ``starts[i]:starts[i + 1]`` belong to
    roll ``i``. A roll with no legal play (R5.5) has one row: the board unchanged.
    ``probabilities`` are seen from the opponent, now on roll (NaN for a policy);
    ``scores`` rank the rows for the mover (a policy's own scores, or equities).
    """

    boards: np.ndarray
    starts: np.ndarray
    probabilities: np.ndarray
    scores: np.ndarray | None = None


class Engine:
    """How plays are evaluated: the evaluator's probabilities, or a policy's ranking."""

    name = "engine"
    evaluates = True
    plies = 0
    deepens = False
    """Whether :meth:`plied` looks ahead (``plies`` > 0 is possible)."""

    def __init__(self, policy: Policy, checkers: int) -> None:
        self.policy = policy
        self.name = policy.name
        self.checkers = checkers

    def probabilities(self, boards: np.ndarray) -> np.ndarray:
        """Probabilities ``(n, 5)`` of boards seen from the side on roll."""
        return np.asarray(self.policy(np.ascontiguousarray(boards)), dtype=np.float64)

    def plied(self, boards: np.ndarray) -> np.ndarray:
        """Probabilities at the engine's depth: an engine that does not look ahead
        gives its 0-ply probabilities."""
        return self.probabilities(boards)

    def rolls(self, position: Position, rolls: Sequence[tuple[int, int]]) -> Rolls:
        parts = []
        for roll in rolls:
            boards = position.legal_plays(roll).boards
            parts.append(boards if len(boards) else position.board[np.newaxis])
        starts = np.cumsum([0] + [len(part) for part in parts])
        boards = np.concatenate(parts)
        if not self.evaluates:
            scores = np.concatenate([self.policy.scores(position.board, part) for part in parts])
            return Rolls(boards, starts, np.full((len(boards), 5), np.nan), scores)
        # one evaluator call for every play of every roll: batches are what evaluators like
        probabilities = self.probabilities(boards[:, ::-1])
        return Rolls(boards, starts, probabilities)


class NetEngine(Engine):
    """gammonlab's neural evaluator: every play of every roll generated and valued
    in one numba call; deeper looks with its 1- and 2-ply search."""

    deepens = True

    def __init__(self, policy: Policy, checkers: int, plies: int = 0) -> None:
        from ..evaluators.net import NetEvaluator

        super().__init__(policy, checkers)
        assert isinstance(policy, NetEvaluator)
        self.plies = max(plies, policy.plies)
        self.zero = policy if policy.plies == 0 else NetEvaluator(policy.weights)
        self.deep = NetEvaluator(policy.weights, plies=self.plies) if self.plies else None
        self.name = "net"

    def probabilities(self, boards: np.ndarray) -> np.ndarray:
        return np.asarray(self.zero(np.ascontiguousarray(boards)), dtype=np.float64)

    def plied(self, boards: np.ndarray) -> np.ndarray:
        """Probabilities at ``self.plies`` plies (the net's look-ahead)."""
        if self.deep is None:
            return self.probabilities(boards)
        return np.asarray(self.deep(np.ascontiguousarray(boards)), dtype=np.float64)

    def rolls(self, position: Position, rolls: Sequence[tuple[int, int]]) -> Rolls:
        from .._kernels.net_search import roll_plays

        dice = np.array(rolls, dtype=np.int64).reshape(-1, 2)
        boards, starts, probabilities = roll_plays(
            np.ascontiguousarray(position.board, dtype=np.int8),
            dice,
            self.zero.weights.arrays,
            self.zero.tables,
        )
        return Rolls(boards, starts, probabilities)


class GnubgEngine(Engine):
    """GNU Backgammon's nets through gnubg-nn, all plays of a roll in one C call.

    ``gnubg_nn.best_move(..., list=1)`` generates and evaluates every legal play
    at 0-ply inside GNU Backgammon's code, about five times faster than a Python
    call per position. A few entries of that list come back with unset
    probabilities; each entry is checked against the equity gnubg-nn ranks it by,
    and the ones that disagree are evaluated again, one by one.
    """

    def __init__(self, policy: Policy, checkers: int, plies: int = 0) -> None:
        from ..evaluators.gnubg import import_gnubg

        super().__init__(policy, checkers)
        self.gnubg = import_gnubg()
        self.plies = plies
        self.deepens = True

    def plied(self, boards: np.ndarray) -> np.ndarray:
        """Probabilities at ``self.plies`` plies (GNU Backgammon's n-ply look-ahead)."""
        from ..evaluators.base import finished_probabilities

        boards = np.ascontiguousarray(boards)
        finished, out = finished_probabilities(boards)
        lists = np.ascontiguousarray(boards[:, ::-1, 1:]).tolist()
        for i in np.flatnonzero(~finished):
            out[i] = self.gnubg.probabilities(lists[i], self.plies)
        return out

    def probabilities(self, boards: np.ndarray) -> np.ndarray:
        """0-ply probabilities; a position still in play goes straight to gnubg-nn."""
        boards = np.ascontiguousarray(boards)
        if len(boards) == 1 and not (boards[0, :, 0] == self.checkers).any():
            return np.array([self.gnubg.probabilities(boards[0, ::-1, 1:].tolist(), 0)])
        return super().probabilities(boards)

    def rolls(self, position: Position, rolls: Sequence[tuple[int, int]]) -> Rolls:
        from ..evaluators.base import finished_probabilities

        board = position.board
        gnubg_board = board[::-1, 1:].tolist()
        best_move = self.gnubg.best_move
        lists = [best_move(gnubg_board, high, low, list=1)[1] for high, low in rolls]
        if not all(lists):
            # a roll with no legal play (R5.5): the board unchanged, evaluated below
            unchanged = ((encode_key(board), (), (math.nan,) * 5, math.nan),)
            lists = [entries or unchanged for entries in lists]
        counts = [len(entries) for entries in lists]
        keys, _, rows, equities = zip(*[entry for entries in lists for entry in entries])
        boards = decode_keys(keys, self.checkers)
        probabilities = np.array(rows, dtype=np.float64)
        p = probabilities
        # the list's equity is the mover's cubeless money equity: -(opponent's)
        opponent = 2.0 * p[:, 0] - 1.0 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]
        with np.errstate(invalid="ignore"):
            good = (
                (np.abs(opponent + np.array(equities)) <= _KEY_CHECK)
                & (p >= -1e-6).all(axis=1)
                & (p <= 1.0 + 1e-6).all(axis=1)
            )
        finished = (boards[:, 0, 0] == self.checkers) | (boards[:, 1, 0] == self.checkers)
        redo = ~good & ~finished
        if finished.any() or redo.any():
            opponent_view = np.ascontiguousarray(boards[:, ::-1])
            if finished.any():
                probabilities[finished] = finished_probabilities(opponent_view[finished])[1]
            if redo.any():
                probabilities[redo] = super().probabilities(opponent_view[redo])
        return Rolls(boards, np.cumsum([0, *counts]), probabilities)


def encode_key(board: np.ndarray) -> str:
    """gnubg-nn's 20-letter position key of a board, mover first (see :func:`decode_keys`)."""
    bits: list[int] = []
    for row in board:
        for slot in range(1, 26):
            bits.extend([1] * int(row[slot]) + [0])
    bits.extend([0] * (80 - len(bits)))
    packed = np.packbits(np.array(bits, dtype=np.uint8), bitorder="little")
    return "".join("ABCDEFGHIJKLMNOP"[b >> 4] + "ABCDEFGHIJKLMNOP"[b & 15] for b in packed)


def resolve_evaluator(evaluator: Any) -> Policy:
    """The evaluator to analyse with; ``None`` is gammonlab's own net."""
    from ..evaluators.base import get_evaluator

    return get_evaluator("net" if evaluator is None else evaluator)


def make_engine(policy: Policy, variant: Any, plies: int) -> Engine:
    checkers = variant.checkers
    if variant.enter_from_off:
        # the evaluators know no checker waiting to enter, and a 1-2 played in full is
        # followed by the same player's roll (R11.2), not the opponent's: equities after
        # a play would be judged from the wrong side
        raise AnalysisError(
            f"{variant.name} matches cannot be analysed: a 1-2 played in "
            "full earns a roll again (R11.2) and no evaluator knows "
            "checkers waiting to enter (R2.4); roll positions out instead"
        )
    if plies < 0:
        raise OptionError(f"plies must be 0 or more, got {plies}", option="plies")
    if policy.name == "gnubg" and checkers < CHECKERS:
        warnings.warn(
            f"GNU Backgammon's nets are trained on 15 checkers a side; their "
            f"verdicts on {variant.name} mean little",
            UserWarning,
            stacklevel=4,
        )
    from ..evaluators.net import NetEvaluator

    if isinstance(policy, NetEvaluator):
        if checkers < CHECKERS:
            warnings.warn(
                f"gammonlab's net is trained on 15 checkers a side; its verdicts "
                f"on {variant.name} mean little",
                UserWarning,
                stacklevel=4,
            )
        return NetEngine(policy, checkers, plies)
    # gnubg-nn generates the plays itself: only where its rules are ours
    if policy.name == "gnubg" and checkers == CHECKERS and not variant.enter_from_off:
        return GnubgEngine(policy, checkers, plies)
    if plies:
        raise OptionError(
            f"plies={plies} needs the 'net' or 'gnubg' evaluator; "
            f"{policy.name!r} evaluates at 0 plies only",
            option="plies",
        )
    engine = Engine(policy, checkers)
    engine.evaluates = bool(policy.evaluates)
    return engine
